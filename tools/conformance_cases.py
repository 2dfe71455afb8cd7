"""The tests-web-url conformance cases without pytest: `python tools/conformance_cases.py [--json]`.

The same checks as `tests/test_conformance.py`'s `test_case` and `test_idempotent` (THIS's steps;
`check` and `check_idempotent` of tests/conformance.py), counted the same way, for a Python
where pytest is not at hand: the interpreter matrix runs it under Pyodide (tools/matrix.py). It
prints the line the pytest suite prints at its end; with `--json`, a last line of JSON with the
counts and the first failures. Exit status 1 when a case fails.
"""
import json
import sys
import unicodedata
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))

from conformance import check, check_idempotent, kind_of  # noqa: E402
from datfile import data_dir, files, load  # noqa: E402


def outcome(problems) -> list[str]:
    "The problems a check reports, an exception of the code under test counted as one."
    try:
        return problems()
    except Exception as e:
        return [f"raised {type(e).__name__}: {e}"]


def run() -> dict:
    counts = {"passed": 0, "failed": 0, "not_applicable": 0, "idempotent": 0, "idem_failed": 0}
    failures = []
    for name in files():
        for case in load(name):
            if case.not_applicable:
                counts["not_applicable"] += 1
                continue
            problems = outcome(lambda: check(case))
            counts["failed" if problems else "passed"] += 1
            if problems:
                failures.append(f"{case.id}: {'; '.join(problems)}")
            if kind_of(case.file) == "canon":
                problems = outcome(lambda: check_idempotent(case))
                counts["idempotent"] += 1
                if problems:
                    counts["idem_failed"] += 1
                    failures.append(f"{case.id} (idempotence): {'; '.join(problems)}")
    ran = counts["passed"] + counts["failed"]
    bad = counts["failed"] + counts["idem_failed"]
    verdict = "all passed" if not bad else f"{bad} FAILED"
    line = (f"Conformance cases RAN: {ran:,} tests-web-url cases checked ({verdict}; "
            f"{counts['not_applicable']} not applicable in Python), {counts['idempotent']:,} "
            f"canonical results re-checked for idempotence; data: {data_dir()}")
    return {**counts, "failed": bad, "line": line, "failures": failures[:50],
            "python": sys.version.split()[0], "unicode": unicodedata.unidata_version,
            "platform": sys.platform}


if __name__ == "__main__":
    if not data_dir().is_dir():
        sys.exit(f"no tests-web-url data at {data_dir()} (set WEBURL_TESTDATA)")
    result = run()
    print(result["line"])
    for f in result["failures"]:
        print("FAILED", f)
    if "--json" in sys.argv:
        print(json.dumps(result))
    sys.exit(1 if result["failed"] else 0)
