"""The site's conformance page: the tests-web-url suite run on the current code, per data file.

It uses the project's own checking code (`tests/datfile.py`, `tests/conformance.py`), so the
figures are those `make pytest` would give: a case with `not_applicable` set counts as not
applicable, any other case passes when `check(case)` finds no mismatch; the canonicalization
files also get `check_idempotent(case)`. An exception raised by the code counts as a failure.
"""
from __future__ import annotations

import re
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOWN_FAILURES = 8  # failing cases listed per file


def _fence(text: str) -> str:
    "`text` in a fenced block whose fence no line of it can close."
    ticks = "`" * max(3, max((len(r) for r in re.findall("`+", text)), default=0) + 1)
    return f"{ticks}text\n{text}\n{ticks}\n"


def _outcome(fn, case) -> list[str]:
    try:
        return fn(case)
    except Exception as e:  # the code under test crashed on this case
        return [f"raised {type(e).__name__}: {e}"]


def results() -> dict:
    "Figures per data file, or why there are none."
    sys.path.insert(0, str(ROOT / "tests"))
    sys.path.insert(0, str(ROOT))
    import datfile
    names = datfile.files()
    out = {"dir": datfile.data_dir(), "env": datfile.ENV_VAR, "files": [], "error": None}
    if not names:
        return out
    try:
        import conformance
    except Exception:
        out["error"] = traceback.format_exc(limit=3)
        conformance = None
    for name in names:
        cases = datfile.load(name)
        kind = conformance.kind_of(name) if conformance else "?"
        row = {"name": name, "kind": kind, "cases": len(cases), "count": Counter(), "idem": Counter(), "failures": []}
        for case in cases:
            if case.not_applicable:
                row["count"]["na"] += 1
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
        out["files"].append(row)
    return out


def markdown(res: dict, seconds: float) -> str:
    "The page, in MyST Markdown."
    lines = ["# Conformance", "",
             "How the current code does on the `tests-web-url` conformance suite, one row per data file. "
             "The suite was run when this site was built, with the same checks as `make pytest` "
             "(`tests/conformance.py`): *passed* and *failed* count the cases the code could be checked on, "
             "*not applicable* the cases a Python string cannot hold (code points beyond U+10FFFF). "
             "For the canonicalization files, *idempotent* counts the cases whose canonical form comes back "
             "unchanged when resolved and canonicalized again.", ""]
    if not res["files"]:
        lines += ["```{warning}",
                  f"The conformance data was not found at `{res['dir']}` when the site was built, so no case "
                  f"was run. Set `{res['env']}` to the `tests-web-url` folder and run `make site` again.",
                  "```", ""]
        return "\n".join(lines)
    if res["error"]:
        lines += ["```{warning}", "The package could not be imported, so every applicable case counts as failed:",
                  "```", "", _fence(res["error"].rstrip())]
    lines += ["| data file | checks | cases | passed | failed | not applicable | idempotent (passed / failed) |",
              "|---|---|--:|--:|--:|--:|--:|"]
    total = Counter()
    for row in res["files"]:
        c, i = row["count"], row["idem"]
        idem = f"{i['passed']} / {i['failed']}" if row["kind"] == "canon" and not res["error"] else "—"
        lines.append(f"| [{row['name']}](#{_slug(row['name'])}) | {row['kind']} | {row['cases']} | {c['passed']} "
                     f"| {c['failed']} | {c['na']} | {idem} |")
        total.update(c)
        total["cases"] += row["cases"]
        total["idem_passed"] += i["passed"]
        total["idem_failed"] += i["failed"]
    idem = "—" if res["error"] else f"{total['idem_passed']} / {total['idem_failed']}"
    lines.append(f"| **all {len(res['files'])} files** | | **{total['cases']}** | **{total['passed']}** "
                 f"| **{total['failed']}** | **{total['na']}** | **{idem}** |")
    lines += ["", f"Data folder: `{res['dir']}`; run time {seconds:.1f} s.", "", "## Failures by file", "",
              f"The first {SHOWN_FAILURES} failing cases of each file, as `file:case:data` and what differs; "
              "`make pytest` lists them all.", ""]
    for row in res["files"]:
        lines += [f"({_slug(row['name'])})=", f"### {row['name']}", ""]
        if row["failures"]:
            more = row["count"]["failed"] - len(row["failures"])
            lines.append(_fence("\n".join(row["failures"])))
            if more > 0:
                lines.append(f"…and {more} more.\n")
        elif row["count"]["failed"]:
            lines.append(f"All {row['count']['failed']} applicable cases fail (see the warning above).\n")
        else:
            lines.append("Every applicable case passes.\n")
    return "\n".join(lines)


def _slug(name: str) -> str:
    return "conf-" + name.replace(".", "-")


def write(path: Path) -> dict:
    "Run the suite and write the page to `path`; the results, for the build's summary."
    start = time.time()
    res = results()
    path.write_text(markdown(res, time.time() - start), encoding="utf-8")
    return res
