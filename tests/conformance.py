"""How one tests-web-url case is checked (shared/testdata/FORMAT.md, "How a case is checked"),
in each of the four modes: `this` (the spec's own steps) and the browser profiles `chrome`,
`gecko` and `ie`.

`check(case, mode)` returns a list of readable mismatches (empty when the case passes);
`check_idempotent(case)` does the same for the idempotency rule of the canonicalization
files (a rule of THIS only: the browsers of 2011 were not idempotent). The pytest suite,
the site's conformance page and this file's command line use them:

    python tests/conformance.py --browsers      # agreement per mode and data file
    python tests/conformance.py --classes [file.dat ...]   # per class of stringprep
    python tests/conformance.py --rules         # what each rule before the host explains
    python tests/conformance.py --record        # rewrite the known-disagreement list (only
                                                # for a deliberate departure, with its Note)

In a browser run, the case's `<browser>-canon`, `<browser>-host` and `<browser>-invalid`
fields replace `canon`, `host` and `invalid`, and `<browser>-not-invalid 1` cancels `invalid`
(FORMAT.md). A case without such fields expects the browser to agree with THIS.
"""
from __future__ import annotations

import inspect
import stringprep
import sys
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from datfile import COMPONENTS, Case, data_dir, expected, files, load

from weburl_nb import (canonicalize_parsed_url, parse_url, resolve_url,
                       serialize_parsed_url)

NOT_COMPARED_WHEN_INVALID = {"scheme", "host", "path", "query", "fragment"}
MODES = ("this", "chrome", "gecko", "ie")
BROWSERS = MODES[1:]
OVERRIDDEN = ("canon", "host", "invalid")
KNOWN = Path(__file__).resolve().parent / "browser_disagreements.tsv"
UNEXPLAINED = "(no reason written yet)"
NO_PROFILES = "the code has no browser profiles yet: THIS's steps ran"
NO_RECORD = ("no record of {0} for this case, so it expects THIS's result; the {0} steps "
             "give another")
_MECHANICAL = (UNEXPLAINED, NO_PROFILES)
# Whether the code takes `browser=`; until it does, a browser run measures THIS's output.
HAS_PROFILES = "browser" in inspect.signature(canonicalize_parsed_url).parameters


def kind_of(file: str) -> str:
    "`parse`, `resolve` or `canon`: what a data file checks."
    return {"parsing.dat": "parse", "resolving.dat": "resolve"}.get(file, "canon")


def in_mode(case: Case, mode: str = "this") -> Case:
    "The case as a run in `mode` sees it: the browser's fields replace the general ones."
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    if mode == "this":
        return case
    fields = dict(case.fields)
    for name in OVERRIDDEN:
        if f"{mode}-{name}" in fields:
            fields[name] = fields[f"{mode}-{name}"]
            fields.pop(name + "8", None)       # a `name8` override is about THIS's value
    if fields.get(f"{mode}-not-invalid") == "1":
        fields.pop("invalid", None)
    return replace(case, fields=fields)


def has_record(case: Case, mode: str) -> bool:
    "Whether the case carries a field of its own for browser `mode`."
    return mode != "this" and any(k.startswith(mode + "-") for k in case.fields)


def _canonicalize(url, charset, mode):
    if mode == "this" or not HAS_PROFILES:
        return canonicalize_parsed_url(url, charset)
    return canonicalize_parsed_url(url, charset, browser=mode)


def run(case: Case, mode: str = "this"):
    "The `ParsedURL` and serialization the case's file asks for, in `mode`."
    data = case.get("data", "")
    base_text = case.get("base") or data
    kind = kind_of(case.file)
    browser = "this" if not HAS_PROFILES else mode    # the profile runs from the first step
    if kind == "parse":
        return parse_url(data, browser), None
    url = resolve_url(data, parse_url(base_text, browser), browser)
    if kind == "resolve":
        return url, None
    url = _canonicalize(url, case.get("charset") or None, mode)
    return url, serialize_parsed_url(url)


def check(case: Case, mode: str = "this") -> list[str]:
    "Mismatches between what the code gives in `mode` and what the case expects there."
    url, canon = run(case, mode)
    case = in_mode(case, mode)
    want_invalid = case.get("invalid") == "1"
    problems = []
    if url.invalid != want_invalid:
        problems.append(f"invalid: got {url.invalid}, want {want_invalid}")
    for name in COMPONENTS:
        if want_invalid and name in NOT_COMPARED_WHEN_INVALID:
            continue
        want, got = expected(case, name), url._asdict()[name]      # the spec's strings
        if got != want:
            problems.append(f"{name}: got {got!r}, want {want!r}")
    if kind_of(case.file) == "canon" and not want_invalid:
        want = expected(case, "canon")
        if want is None:
            want = case.get("data", "")
        if canon != want:
            problems.append(f"canon: got {canon!r}, want {want!r}")
    return problems


def check_idempotent(case: Case) -> list[str]:
    "Resolving and canonicalizing a canonical result against the same base gives it back."
    url, canon = run(case)
    if canon is None:
        return []
    base = parse_url(case.get("base") or case.get("data", ""))
    again = serialize_parsed_url(canonicalize_parsed_url(resolve_url(canon, base), case.get("charset") or None))
    return [] if again == canon else [f"not idempotent: {canon!r} -> {again!r}"]


def outcome(case: Case, mode: str = "this") -> list[str]:
    "`check(case, mode)`, with an exception of the code under test reported as a mismatch."
    try:
        return check(case, mode)
    except Exception as e:
        return [f"raised {type(e).__name__}: {e}"]


# --- agreement per mode, and the recorded list of known disagreements -------------------

def agreement(mode: str, names: list[str] | None = None) -> dict:
    """Per data file: applicable cases, agreeing cases, cases with a record of `mode`'s own,
    agreeing ones among those, not-applicable cases; and every disagreement (case id -> text)."""
    table, disagree, recorded = {}, {}, set()
    for name in files() if names is None else names:
        row = dict(cases=0, agree=0, recorded=0, recorded_agree=0, na=[])
        for case in load(name):
            if case.not_applicable:
                row["na"].append((case.id, case.not_applicable))
                continue
            problems = outcome(case, mode)
            row["cases"] += 1
            row["agree"] += not problems
            if has_record(case, mode):
                recorded.add(case.id)
                row["recorded"] += 1
                row["recorded_agree"] += not problems
            if problems:
                disagree[case.id] = "; ".join(problems)
        table[name] = row
    return {"mode": mode, "files": table, "disagreements": disagree, "recorded": recorded}


def totals(result: dict) -> dict:
    "The file rows of an `agreement` result added up."
    keys = ("cases", "agree", "recorded", "recorded_agree")
    out = {k: sum(r[k] for r in result["files"].values()) for k in keys}
    out["na"] = sum(len(r["na"]) for r in result["files"].values())
    return out


def share(part: int, whole: int) -> float:
    return part / whole if whole else 1.0


def read_known(path: Path = KNOWN) -> dict:
    "The recorded disagreements: {mode: {case id: (mismatch text, reason)}}."
    known = {m: {} for m in BROWSERS}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                mode, cid, text, reason = line.split("\t")
                known[mode][cid] = (text, reason)
    return known


HEADER = """\
# Known disagreements of the browser profiles with the browsers' recorded results.
# One line per case: mode, case id (file:case:data), what differs, why (a reason, in words).
# tests/test_conformance.py compares the disagreements the code gives with this list exactly,
# so any change (a case fixed or a new disagreement) shows up. The recorded results are the
# reference: a new disagreement is fixed in the code. Only for a deliberate departure, with its
# `> **Note (departure: topic).**` in the notebook, run
#     python tests/conformance.py --record
# which rewrites this file keeping the reasons already written, then write the new reasons.
"""


def record(path: Path = KNOWN) -> dict:
    "Rewrite the known-disagreement file from the code's current results; the results."
    old = read_known(path)
    lines, results = [HEADER.rstrip("\n")], {}
    for mode in BROWSERS:
        results[mode] = res = agreement(mode)
        for cid, text in res["disagreements"].items():
            reason = old[mode].get(cid, ("", UNEXPLAINED))[1]
            if reason in _MECHANICAL or reason.startswith("no record of"):
                reason = (NO_PROFILES if not HAS_PROFILES else UNEXPLAINED
                          if cid in res["recorded"] else NO_RECORD.format(mode.upper()))
            lines.append("\t".join((mode, cid, text, reason)))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return results


def report(results: dict) -> str:
    "The per-mode, per-file agreement table, as text."
    out = []
    if not HAS_PROFILES:
        out.append("note: this code has no browser profiles yet (no `browser=`); "
                   "every mode runs THIS's steps.\n")
    for mode, res in results.items():
        out.append(f"== {mode}")
        out.append(f"{'data file':<30}{'cases':>7}{'agree':>7}{'%':>8}"
                   f"{'with record':>13}{'agree':>7}{'%':>8}{'n/a':>5}")
        rows = list(res["files"].items()) + [("all files", totals(res))]
        for name, r in rows:
            na = r["na"] if isinstance(r["na"], int) else len(r["na"])
            rec = (f"{r['recorded']:>13}{r['recorded_agree']:>7}"
                   f"{100 * share(r['recorded_agree'], r['recorded']):>7.1f}%"
                   if r["recorded"] else f"{'':>13}{'':>7}{'':>8}")
            out.append(f"{name:<30}{r['cases']:>7}{r['agree']:>7}"
                       f"{100 * share(r['agree'], r['cases']):>7.1f}%{rec}{na:>5}")
        out.append("")
    return "\n".join(out)


# --- agreement per class of the stringprep tables (RFC 3454) -----------------------------
# The cases generated from the stringprep tables are not in the data folder; the core files
# hold the same classes (the domain file above all), so the figure per class estimates them.
STRINGPREP_CLASSES = (
    ("A.1 unassigned in Unicode 3.2", stringprep.in_table_a1),
    ("B.1 mapped to nothing", stringprep.in_table_b1),
    ("C.1.2 non-ASCII space", stringprep.in_table_c12),
    ("C.2.1 ASCII control", stringprep.in_table_c21),
    ("C.2.2 non-ASCII control", stringprep.in_table_c22),
    ("C.3 private use", stringprep.in_table_c3),
    ("C.4 noncharacter", stringprep.in_table_c4),
    ("C.5 surrogate", stringprep.in_table_c5),
    ("C.6 not for plain text", stringprep.in_table_c6),
    ("C.7 not for canonical representation", stringprep.in_table_c7),
    ("C.8 display property or deprecated", stringprep.in_table_c8),
    ("C.9 tagging", stringprep.in_table_c9),
    ("D.1 RandALCat (bidi)", stringprep.in_table_d1),
)


def stringprep_classes(s: str) -> set[str]:
    "The stringprep classes some character of `s` belongs to (ASCII SPACE and graphics aside)."
    return {name for c in s if not ("\x20" <= c < "\x7f")
            for name, member in STRINGPREP_CLASSES if member(c)}


def class_agreement(mode: str, names: list[str] | None = None,
                    recorded: bool = False) -> dict:
    """Per stringprep class: `[cases, agreeing]` over the cases whose `data` holds that class
    (with `recorded`, only those that carry a record of browser `mode`'s own)."""
    table = {name: [0, 0] for name, _ in STRINGPREP_CLASSES}
    for name in files() if names is None else names:
        for case in load(name):
            found = () if case.not_applicable else stringprep_classes(case.get("data", ""))
            if found and (not recorded or has_record(case, mode)):
                ok = not outcome(case, mode)
                for k in found:
                    table[k][0] += 1
                    table[k][1] += ok
    return table


def class_report(modes, names: list[str] | None = None) -> str:
    """The per-class agreement of each mode, as text: over all the cases of the class, then
    over those that carry a record of the browser (the others expect THIS's result)."""
    out = []
    for recorded in (False, True):
        tables = {m: class_agreement(m, names, recorded) for m in modes}
        head = "with a record of the browser" if recorded else "stringprep class"
        out.append(f"{head:<40}" + "".join(f"{m:>16}" for m in modes))
        for name, _ in STRINGPREP_CLASSES:
            if tables[modes[0]][name][0] or recorded:
                cells = (f"{t[name][1]:>5}/{t[name][0]:<4}{100 * share(t[name][1], t[name][0]):>6.1f}%"
                         if t[name][0] else "-" for t in tables.values())
                out.append(f"{name:<40}" + "".join(f"{c:>16}" for c in cells))
        out.append("")
    return "\n".join(out).rstrip()


# --- what each rule of a profile's steps before the host explains -------------------------
# A rule is a field of the browser's `ParseProfile` (01_parsing) whose value is not THIS's.
# Switching it back to THIS's value shows the records it explains (they agree with the rule
# and not without it) and the cases it costs (they agree without it and not with it).

@contextmanager
def _without(browser: str, field: str):
    "Within the block, `browser`'s profile has THIS's value for parse field `field`."
    from weburl_nb import host, parsing
    profile = host.PROFILES[browser]
    parse = profile.parse._replace(**{field: getattr(parsing.PARSE_THIS, field)})
    host.PROFILES[browser] = profile._replace(parse=parse)
    parsing.PARSE_PROFILES[browser] = parse        # `parse_url(s, browser)` looks here
    try:
        yield
    finally:
        host.PROFILES[browser] = profile
        parsing.PARSE_PROFILES[browser] = profile.parse


def recorded_fields_agree(case: Case, mode: str) -> bool:
    "Whether the fields the case records for browser `mode` (canon, host, invalid) agree."
    try:
        problems = check(case, mode)
    except Exception:
        return False
    own = [n for n in OVERRIDDEN if f"{mode}-{n}" in case.fields]
    if f"{mode}-not-invalid" in case.fields:
        own.append("invalid")
    return not any(p.split(":")[0] in own for p in problems)


def _own_fields_agreeing(browser: str, names: list[str] | None) -> set:
    return {c.id for n in (files() if names is None else names) for c in load(n)
            if not c.not_applicable and has_record(c, browser) and recorded_fields_agree(c, browser)}


def rule_effects(browser: str, names: list[str] | None = None) -> dict:
    "Per rule of `browser`: the records it explains and the cases it costs (ids)."
    from weburl_nb.host import PROFILES
    from weburl_nb.parsing import PARSE_THIS
    with_rules = agreement(browser, names)
    own_with = _own_fields_agreeing(browser, names)
    out = {}
    for field in PARSE_THIS._fields[1:]:
        if getattr(PROFILES[browser].parse, field) == getattr(PARSE_THIS, field):
            continue
        with _without(browser, field):
            without = agreement(browser, names)
            own_without = _own_fields_agreeing(browser, names)
        now, before = set(with_rules["disagreements"]), set(without["disagreements"])
        out[field] = {"explains": sorted((before - now) & with_rules["recorded"]),
                      "matches the recorded fields of": sorted(own_with - own_without),
                      "also fixes": sorted((before - now) - with_rules["recorded"]),
                      "costs": sorted(now - before)}
    return out


def rules_report() -> str:
    "The `rule_effects` of every browser, as text."
    out = []
    for browser in BROWSERS:
        for field, effect in rule_effects(browser).items():
            out.append(f"{browser} {field}: explains {len(effect['explains'])} records "
                       f"(its recorded canon/host/invalid: "
                       f"{len(effect['matches the recorded fields of'])}), "
                       f"fixes {len(effect['also fixes'])} other cases, "
                       f"costs {len(effect['costs'])} cases without a record")
            out += [f"    {k}: {cid}" for k, ids in effect.items() for cid in ids]
    return "\n".join(out)


def main(argv: list[str]) -> int:
    if not data_dir().is_dir():
        print(f"conformance data not found at {data_dir()}", file=sys.stderr)
        return 2
    if "--rules" in argv:
        print(rules_report())
        return 0
    if "--classes" in argv:
        print(class_report(MODES, [a for a in argv if a.endswith(".dat")] or None))
        return 0
    if "--record" in argv:
        results = record()
        print(f"wrote {KNOWN}")
    else:
        modes = MODES if "--all" in argv else BROWSERS if "--browsers" in argv else ("this",)
        results = {m: agreement(m) for m in modes}
    print(report(results))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main(sys.argv[1:]))
