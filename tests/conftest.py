"""pytest setup: `tests/` on the path, and a loud account of the conformance suite.

At the end of a run that collected `tests/test_conformance.py`, the summary says whether the
tests-web-url cases ran and how many were checked, or, when the data folder is missing, that
they did not run and how to get them. The same text goes to `.pytest_cache/conformance.txt`,
which `make test` prints again as its last words.
"""
import os
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

# The Spark tests are a stage of their own (`make test-spark`, which CI runs). Elsewhere they are
# not collected at all, so that no skip of theirs sits in another run's count.
collect_ignore = [] if os.environ.get("WEBURL_TEST_SPARK") else ["test_spark.py"]

from datfile import ENV_VAR, data_dir  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / ".pytest_cache" / "conformance.txt"
DATA_REPO = "https://github.com/wakaba/tests-web-url"
_MODULE = "tests/test_conformance.py"
_counts = Counter()
_seen = []


def pytest_collectreport(report):
    if report.nodeid.endswith(_MODULE):
        _seen.append(report.outcome)


def pytest_runtest_logreport(report):
    test = report.nodeid.partition(_MODULE + "::")[2].partition("[")[0]
    if test in ("test_case", "test_idempotent") and (report.when == "call" or report.outcome != "passed"):
        _counts[test, report.outcome] += 1


def conformance_report() -> str | None:
    "The account of the conformance suite for this run; `None` if it was not collected."
    if not _seen:
        return None
    where = data_dir()
    if not where.is_dir():
        bar = "!" * 78
        return "\n".join([
            bar,
            "!! CONFORMANCE SUITE NOT RUN: no tests-web-url data at",
            f"!!   {where}",
            "!! 0 conformance cases were checked; only the unit and API tests ran.",
            "!! Fix: get the public test data and point the tests at its data/ folder:",
            f"!!   git clone {DATA_REPO} ../tests-web-url",
            f"!!   make test {ENV_VAR}=../tests-web-url/data",
            f"!! (or export {ENV_VAR}; by default ../shared/testdata/tests-web-url is used)",
            bar])
    c = _counts
    ran = sum(v for (t, o), v in c.items() if t == "test_case" and o != "skipped")
    na = c["test_case", "skipped"]
    failed = c["test_case", "failed"] + c["test_idempotent", "failed"]
    idem = c["test_idempotent", "passed"] + c["test_idempotent", "failed"]
    verdict = "all passed" if not failed else f"{failed} FAILED"
    return (f"Conformance suite RAN: {ran:,} tests-web-url cases checked ({verdict}; "
            f"{na} not applicable in Python), {idem:,} canonical results re-checked for "
            f"idempotence; data: {where}")


def pytest_terminal_summary(terminalreporter):
    text = conformance_report()
    if text is None:
        return
    terminalreporter.write_line("")
    terminalreporter.write_line(text)
    REPORT.parent.mkdir(exist_ok=True)
    REPORT.write_text(text + "\n", encoding="utf-8")

import os

from hypothesis import Phase, settings

# Property tests: a quick default (a few seconds in all), a long profile for deliberate runs, and
# the profile of `make proofs` (tools/plant_faults.py): the same examples every run, no shrinking
# (a planted fault needs only to be seen, not minimized) and no example database.
settings.register_profile("quick", max_examples=150, deadline=None)
settings.register_profile("long", max_examples=20_000, deadline=None)
settings.register_profile("proofs", max_examples=150, deadline=None, derandomize=True,
                          database=None, phases=[Phase.explicit, Phase.generate])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE",
                                     "proofs" if os.environ.get("WEBURL_PROOFS") else "quick"))


# The compiled build (`tools/compiled.py`, `make test-compiled`): mypyc compiles calls between the
# compiled modules into direct calls, so a test that replaces a module attribute to change what the
# package calls cannot reach them there. Such a test is marked `incompatible_with_mypyc` and skipped
# in that build only, with a reason `-rs` lists; it still runs in the pure build.
INCOMPATIBLE = "incompatible_with_mypyc"


def pytest_configure(config):
    config.addinivalue_line("markers", f"{INCOMPATIBLE}(why): skipped in the compiled build, with why")


def pytest_collection_modifyitems(config, items):
    import pytest

    import weburl_nb
    if not weburl_nb.COMPILED:
        return
    for item in items:
        mark = item.get_closest_marker(INCOMPATIBLE)
        if mark is not None:
            why = mark.args[0] if mark.args else "it replaces a module attribute"
            item.add_marker(pytest.mark.skip(reason=f"{INCOMPATIBLE}: {why}"))
