"""The tests-web-url conformance suite: one pytest test per case of every `.dat` file (THIS),
and per browser profile one test of its agreement figure and one of its known disagreements.

The data folder comes from `WEBURL_TESTDATA` (default: `../shared/testdata/tests-web-url`
beside the repository). When it is absent the whole suite is skipped, saying so.
"""
import pytest

from conformance import (BROWSERS, KNOWN, NO_PROFILES, UNEXPLAINED, agreement, check, check_idempotent,
                         kind_of, read_known, share, totals)
from datfile import ENV_VAR, data_dir, files, load

if not data_dir().is_dir():
    pytest.skip(f"conformance data not found at {data_dir()}: set {ENV_VAR} to the tests-web-url folder",
                allow_module_level=True)

CASES = [c for f in files() for c in load(f)]
# What a failure of THIS says: the data decides, so the code is what changes.
REFERENCE = ("\n  The data (tests-web-url) is the reference: fix the code until it gives the recorded "
             "answer; the data is never edited to match the code.")
CANON_CASES = [c for c in CASES if kind_of(c.file) == "canon"]


def _applicable(case):
    if case.not_applicable:
        pytest.skip(f"not applicable in Python: {case.not_applicable}")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case):
    _applicable(case)
    problems = check(case)
    assert not problems, (f"{case.id} data={case.get('data')!r} base={case.get('base')!r}\n  "
                          + "\n  ".join(problems) + REFERENCE)


@pytest.mark.parametrize("case", CANON_CASES, ids=lambda c: c.id)
def test_idempotent(case):
    _applicable(case)
    problems = check_idempotent(case)
    assert not problems, f"{case.id} base={case.get('base')!r}: " + "; ".join(problems) + REFERENCE


def test_data_files_present():
    "The folder holds the files this suite is built for."
    names = set(files())
    assert {"parsing.dat", "resolving.dat", "decomps.dat"} <= names


# --- the browser profiles ----------------------------------------------------------------
# Agreement of each profile with its browser's recorded results, over every applicable case
# of every file (a case without a record of that browser expects the browser to agree with
# THIS). The floor is the lowest figure accepted: 0.90 while the profiles are being built
# (a half-built profile may at first agree less than THIS does), then raised to what they
# reach; the goal is 0.99. `python tests/conformance.py --browsers` prints the figures.
# Gecko's overall figure went from 0.991 to 0.9907 when its profile began at the first step:
# three recorded cases fixed, five cases without a Gecko record now meet Gecko's `;` rule.
FLOOR = {"chrome": 0.996, "gecko": 0.990, "ie": 0.992}
# The same over the cases that carry a record of that browser's own (the figure that
# matters most: the other cases only expect THIS's answer).
RECORDED_FLOOR = {"chrome": 0.987, "gecko": 0.981, "ie": 0.985}
_RESULTS = {}


def _agreement(mode):
    if mode not in _RESULTS:
        _RESULTS[mode] = agreement(mode)
    return _RESULTS[mode]


@pytest.mark.parametrize("mode", BROWSERS)
def test_browser_agreement_floor(mode):
    t = totals(_agreement(mode))
    got = share(t["agree"], t["cases"])
    print(f"{mode}: {t['agree']} of {t['cases']} cases agree ({100 * got:.1f}%)")
    assert got >= FLOOR[mode], f"{mode} agrees in {100 * got:.2f}% of the cases, below its floor {FLOOR[mode]:.3f}"


@pytest.mark.parametrize("mode", BROWSERS)
def test_browser_recorded_agreement_floor(mode):
    t = totals(_agreement(mode))
    got = share(t["recorded_agree"], t["recorded"])
    print(f"{mode}: {t['recorded_agree']} of {t['recorded']} recorded cases agree ({100 * got:.1f}%)")
    assert got >= RECORDED_FLOOR[mode], (
        f"{mode} agrees in {100 * got:.2f}% of its recorded cases, below {RECORDED_FLOOR[mode]:.3f}")


@pytest.mark.parametrize("mode", BROWSERS)
def test_browser_known_disagreements(mode):
    """The cases where the profile disagrees with its browser are exactly those listed in
    tests/browser_disagreements.tsv, each with the same mismatch: a fixed case or a new
    disagreement both show up here."""
    got = _agreement(mode)["disagreements"]
    known = {cid: text for cid, (text, _) in read_known()[mode].items()}
    new = {c: t for c, t in got.items() if known.get(c) != t}
    gone = sorted(c for c in known if c not in got)
    lines = [f"  new or changed: {c}: {t}" for c, t in sorted(new.items())]
    lines += [f"  now agrees: {c}" for c in gone]
    assert not lines, (
        f"{mode}: {len(new)} new/changed and {len(gone)} fixed disagreements against {KNOWN.name}.\n"
        "The browsers' recorded results in the data are the reference: a new or changed line most "
        "likely means the code broke, so fix the code. Only for a deliberate departure, written up "
        "in its notebook as `> **Note (departure: topic).**` with a `# departure: topic` mark at "
        "its code, run `python tests/conformance.py --record` and write the reason of each new "
        f"line in {KNOWN.name} (a case that now agrees: --record just drops its line):\n"
        + "\n".join(lines[:40]))


def test_every_known_disagreement_says_why():
    "Each line of the known-disagreement list carries a reason written in words."
    missing = [f"{m} {cid}" for m, rows in read_known().items() for cid, (_, reason) in rows.items()
               if reason.strip() in ("", UNEXPLAINED, NO_PROFILES)]
    assert not missing, (f"write the reason of these lines of {KNOWN.name}:\n  "
                         + "\n  ".join(missing[:40]))



# --- the rules of the steps before the host (01_parsing, ParseProfile) --------------------
# Each rule is checked against the records it rests on: switched back to THIS's value, the
# recorded fields of those cases stop agreeing. `python tests/conformance.py --rules` prints
# every rule's records and costs.
RULE_RECORDS = {
    ("gecko", "host_noncharacters"): {"decomps-authority-domain.dat:267", "decomps-authority-domain.dat:448"},
    ("gecko", "host_surrogate_pairs"): {"decomps-authority-domain.dat:505"},
    ("gecko", "authority_ends"): {"decomps-authority-domain.dat:125"},
    ("ie", "host_noncharacters"): {"decomps-authority-domain.dat:267", "decomps-authority-domain.dat:448"},
}


@pytest.mark.parametrize("browser", ["gecko", "ie"])
def test_each_rule_before_the_host_rests_on_its_records(browser):
    from conformance import rule_effects
    effects = rule_effects(browser, ["decomps-authority-domain.dat"])
    for (b, field), ids in RULE_RECORDS.items():
        if b == browser:
            matched = {":".join(cid.split(":", 2)[:2])
                       for cid in effects[field]["matches the recorded fields of"]}
            assert ids <= matched, f"{browser} {field}: {sorted(ids - matched)} no longer rest on it"


@pytest.mark.parametrize("mode", BROWSERS)
def test_noncharacter_and_surrogate_classes_agree_fully(mode):
    """Every case of the core files whose input holds a stringprep C.4 (noncharacter) or C.5
    (surrogate) code point agrees in every profile: the classes the rules of preprocessing
    step 2 are about (`python tests/conformance.py --classes` prints every class)."""
    from conformance import class_agreement
    table = class_agreement(mode)
    for name in ("C.4 noncharacter", "C.5 surrogate"):
        cases, agree = table[name]
        assert cases and agree == cases, f"{mode} {name}: {agree} of {cases}"


def test_ie_refusal_of_unassigned_code_points_rests_on_every_ie_record_of_the_class():
    """IE's step 20.2.2.4 runs ToASCII without AllowUnassigned, so a code point unassigned in
    Unicode 3.2 (table A.1) fails: every case of that class that records IE agrees. The cases
    of the class with no IE record expect THIS's result (accepted); they are listed in
    tests/browser_disagreements.tsv rather than answered by a rule the records contradict."""
    from conformance import class_agreement
    cases, agree = class_agreement("ie", recorded=True)["A.1 unassigned in Unicode 3.2"]
    assert cases >= 15 and agree == cases, f"ie A.1 with an IE record: {agree} of {cases}"
