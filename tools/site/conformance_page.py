"""The site's conformance page: the tests-web-url suite run on the current code, per data file,
in THIS mode and under each browser profile.

It uses the project's own checking code (`tests/datfile.py`, `tests/conformance.py`), so the
figures are those `make pytest` and `python tests/conformance.py --browsers` give: a case with
`not_applicable` set counts as not applicable, any other case passes when `check(case, mode)`
finds no mismatch; the canonicalization files also get `check_idempotent(case)` in THIS mode.
An exception raised by the code counts as a failure. The reasons of the browser profiles'
remaining disagreements come from `tests/browser_disagreements.tsv`.
"""
from __future__ import annotations

import re
import sys
import time
import traceback
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOWN_FAILURES = 8  # failing THIS cases listed per file
BROWSER_TITLES = {"chrome": "Chrome", "gecko": "Gecko (Firefox)", "ie": "Internet Explorer"}


def _fence(text: str) -> str:
    "`text` in a fenced block whose fence no line of it can close."
    ticks = "`" * max(3, max((len(r) for r in re.findall("`+", text)), default=0) + 1)
    return f"{ticks}text\n{text}\n{ticks}\n"


def _outcome(fn, case) -> list[str]:
    try:
        return fn(case)
    except Exception as e:  # the code under test crashed on this case
        return [f"raised {type(e).__name__}: {e}"]


def _this(conformance, datfile, names: list[str]) -> list[dict]:
    "THIS mode, per file: counts, the first failures, the not-applicable cases."
    rows = []
    for name in names:
        cases = datfile.load(name)
        kind = conformance.kind_of(name) if conformance else "?"
        row = {"name": name, "kind": kind, "cases": len(cases), "count": Counter(), "idem": Counter(),
               "failures": [], "na": []}
        for case in cases:
            if case.not_applicable:
                row["count"]["na"] += 1
                row["na"].append((f"{name}:{case.index:03d}", case.get("data", ""), case.not_applicable))
                continue
            if conformance is None:
                row["count"]["failed"] += 1
                continue
            problems = _outcome(conformance.check, case)
            row["count"]["failed" if problems else "passed"] += 1
            if problems and len(row["failures"]) < SHOWN_FAILURES:
                row["failures"].append(f"{case.id}\n  " + "\n  ".join(problems))
            if kind == "canon":
                row["idem"]["failed" if _outcome(conformance.check_idempotent, case) else "passed"] += 1
        rows.append(row)
    return rows


def results() -> dict:
    "Figures per data file (THIS in `files`, the browsers in `browsers`), or why there are none."
    sys.path.insert(0, str(ROOT / "tests"))
    sys.path.insert(0, str(ROOT))
    import datfile
    names = datfile.files()
    out = {"dir": datfile.data_dir(), "env": datfile.ENV_VAR, "files": [], "browsers": {},
           "known": {}, "profiles": False, "error": None}
    if not names:
        return out
    try:
        import conformance
    except Exception:
        out["error"] = traceback.format_exc(limit=3)
        conformance = None
    out["files"] = _this(conformance, datfile, names)
    if conformance is not None:
        out["profiles"] = conformance.HAS_PROFILES
        out["known"] = conformance.read_known()
        out["browsers"] = {m: conformance.agreement(m, names) for m in conformance.BROWSERS}
    return out


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "—"


def _this_section(res: dict) -> list[str]:
    lines = ["## THIS: the spec's own steps", "",
             "*passed* and *failed* count the cases the code could be checked on; *n/a* the cases a "
             "Python string cannot hold (listed below). For the canonicalization files, *idempotent* "
             "counts the cases whose canonical form comes back unchanged when resolved and canonicalized "
             "again.", "",
             "| data file | checks | cases | passed | failed | n/a | idempotent (passed / failed) |",
             "|---|---|--:|--:|--:|--:|--:|"]
    total = Counter()
    for row in res["files"]:
        c, i = row["count"], row["idem"]
        idem = f"{i['passed']} / {i['failed']}" if row["kind"] == "canon" and not res["error"] else "—"
        name = f"[{row['name']}](#{_slug(row['name'])})" if row["failures"] else row["name"]
        lines.append(f"| {name} | {row['kind']} | {row['cases']} | {c['passed']} "
                     f"| {c['failed']} | {c['na']} | {idem} |")
        total.update(c)
        total["cases"] += row["cases"]
        total["idem_passed"] += i["passed"]
        total["idem_failed"] += i["failed"]
    idem = "—" if res["error"] else f"{total['idem_passed']} / {total['idem_failed']}"
    lines += [f"| **all {len(res['files'])} files** | | **{total['cases']}** | **{total['passed']}** "
              f"| **{total['failed']}** | **{total['na']}** | **{idem}** |", ""]
    failing = [r for r in res["files"] if r["count"]["failed"]]
    if not failing:
        lines += ["Every applicable case passes, in every file.", ""]
    else:
        lines += [f"Failing cases, the first {SHOWN_FAILURES} per file, as `file:case:data` and what "
                  "differs (`make pytest` lists them all):", ""]
    for row in failing:
        lines += [f"({_slug(row['name'])})=", f"### {row['name']}", ""]
        if row["failures"]:
            lines.append(_fence("\n".join(row["failures"])))
            more = row["count"]["failed"] - len(row["failures"])
            if more > 0:
                lines.append(f"…and {more} more.\n")
        else:
            lines.append(f"All {row['count']['failed']} applicable cases fail (see the warning above).\n")
    na = [item for r in res["files"] for item in r["na"]]
    if na:
        lines += ["### Not applicable", "",
                  f"{len(na)} cases are not run in any mode, because their input holds a code point "
                  "that no Python `str` can hold (the data writes them as `\\U` escapes beyond "
                  "U+10FFFF, which Perl strings accept):", ""]
        lines += [f"- {cid}: `{data}` ({why})" for cid, data, why in na] + [""]
    return lines


def _browser_table(res: dict) -> list[str]:
    modes = list(res["browsers"])
    head = " | ".join(f"{BROWSER_TITLES[m]}: agree / cases" for m in modes)
    lines = [f"| data file | {head} |", "|---|" + "--:|" * len(modes)]
    names = [r["name"] for r in res["files"]]
    split = [n for n in names if any(res["browsers"][m]["files"][n]["agree"]
                                     != res["browsers"][m]["files"][n]["cases"] for m in modes)]
    rest = [n for n in names if n not in split]
    groups = [(n, [n]) for n in split]
    if rest:
        groups.append((f"the other {len(rest)} files (every case agrees)", rest))
    groups.append(("**all files**", names))
    for title, members in groups:
        cells = []
        for m in modes:
            rows = [res["browsers"][m]["files"][n] for n in members]
            agree, cases = sum(r["agree"] for r in rows), sum(r["cases"] for r in rows)
            cell = f"{agree} / {cases} ({_pct(agree, cases)})" if agree != cases else f"{cases} (all)"
            cells.append(f"**{cell}**" if title == "**all files**" else cell)
        lines.append(f"| {title} | " + " | ".join(cells) + " |")
    rec = []
    for m in modes:
        rows = res["browsers"][m]["files"].values()
        agree, cases = sum(r["recorded_agree"] for r in rows), sum(r["recorded"] for r in rows)
        rec.append(f"{agree} / {cases} ({_pct(agree, cases)})")
    lines.append("| *cases with a record of that browser* | " + " | ".join(rec) + " |")
    return lines + [""]


def _browser_section(res: dict) -> list[str]:
    if not res["browsers"]:
        return []
    lines = ["## Browser profiles", "",
             "The same cases under `browser='chrome'`, `'gecko'` and `'ie'`. A case's `chrome-canon`, "
             "`chrome-host` and `chrome-invalid` fields (and Gecko's and IE's) record what that browser "
             "did in 2011; in its run they replace the expected `canon`, `host` and `invalid`, and "
             "`chrome-not-invalid 1` cancels `invalid`. A case with no record of a browser expects it "
             "to agree with THIS. `python tests/conformance.py --browsers` prints the same figures.", ""]
    if not res["profiles"]:
        lines += ["```{note}",
                  "The code this page was built from has no browser profiles yet, so every browser "
                  "column measures how far THIS's steps are from that browser.", "```", ""]
    lines += _browser_table(res)
    for mode, result in res["browsers"].items():
        known = res["known"].get(mode, {})
        by_reason = defaultdict(list)
        for cid, text in result["disagreements"].items():
            entry = known.get(cid)
            reason = entry[1] if entry and entry[0] == text else \
                "not in tests/browser_disagreements.tsv (a change since it was recorded)"
            by_reason[reason].append(f"{cid}\n  {text}")
        lines += [f"### {BROWSER_TITLES[mode]}: remaining disagreements", ""]
        if not by_reason:
            lines += ["None: every applicable case agrees with what the browser did.", ""]
        for reason, items in sorted(by_reason.items(), key=lambda kv: -len(kv[1])):
            lines += [f"**{reason}** ({len(items)} case{'s' if len(items) > 1 else ''}):", "",
                      _fence("\n".join(items))]
    return lines


def markdown(res: dict, seconds: float) -> str:
    "The page, in MyST Markdown."
    lines = ["# Conformance", "",
             "How the current code does on the `tests-web-url` conformance suite, per data file, with "
             "the spec's own steps (THIS) and under each browser profile. The suite was run when this "
             "site was built, with the same checks as `make pytest` (`tests/conformance.py`).", ""]
    if not res["files"]:
        lines += ["```{warning}",
                  f"The conformance data was not found at `{res['dir']}` when the site was built, so no case "
                  f"was run. Set `{res['env']}` to the `tests-web-url` folder and run `make site` again.",
                  "```", ""]
        return "\n".join(lines)
    if res["error"]:
        lines += ["```{warning}", "The package could not be imported, so every applicable case counts as failed:",
                  "```", "", _fence(res["error"].rstrip())]
    lines += _this_section(res) + _browser_section(res)
    lines += [f"Data folder: `{res['dir']}`; run time {seconds:.1f} s.", ""]
    return "\n".join(lines)


def _slug(name: str) -> str:
    return "conf-" + name.replace(".", "-")


def write(path: Path) -> dict:
    "Run the suite and write the page to `path`; the results, for the build's summary."
    start = time.time()
    res = results()
    path.write_text(markdown(res, time.time() - start), encoding="utf-8")
    return res
