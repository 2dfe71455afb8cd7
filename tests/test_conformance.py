"""The tests-web-url conformance suite: one pytest test per case of every `.dat` file.

The data folder comes from `WEBURL_TESTDATA` (default: `../shared/testdata/tests-web-url`
beside the repository). When it is absent the whole suite is skipped, saying so.
"""
import pytest

from conformance import check, check_idempotent, kind_of
from datfile import ENV_VAR, data_dir, files, load

if not data_dir().is_dir():
    pytest.skip(f"conformance data not found at {data_dir()}: set {ENV_VAR} to the tests-web-url folder",
                allow_module_level=True)

CASES = [c for f in files() for c in load(f)]
CANON_CASES = [c for c in CASES if kind_of(c.file) == "canon"]


def _applicable(case):
    if case.not_applicable:
        pytest.skip(f"not applicable in Python: {case.not_applicable}")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case):
    _applicable(case)
    problems = check(case)
    assert not problems, f"{case.id} data={case.get('data')!r} base={case.get('base')!r}\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("case", CANON_CASES, ids=lambda c: c.id)
def test_idempotent(case):
    _applicable(case)
    problems = check_idempotent(case)
    assert not problems, f"{case.id} base={case.get('base')!r}: " + "; ".join(problems)


def test_data_files_present():
    "The folder holds the files this suite is built for."
    names = set(files())
    assert {"parsing.dat", "resolving.dat", "decomps.dat"} <= names
