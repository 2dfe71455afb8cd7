"""`explain` against the conformance data: it takes the steps route, so its result must equal
`url_to_canon_url`'s for every input, and every invalid result must come with a reason that names
the step that failed. Also: the trace is thread-local, and recording leaves no trace behind."""
import re
import threading

import pytest

from datfile import data_dir, files, load
from weburl_nb import url_to_canon_url
from weburl_nb.explain import explain
from weburl_nb.trace import OFF, REASONS, Recording, trace_for

if not data_dir().is_dir():
    pytest.skip(f"conformance data not found at {data_dir()}", allow_module_level=True)

CASES = [c for f in files() for c in load(f) if not c.not_applicable]
# a reason ends by naming its step: "(CanonicalizeHost step 28)", "(canonicalization C6)", ...
NAMES_A_STEP = re.compile(r"\((?:[^()]*\bstep\b[^()]*|canonicalization C\d+)\)$")


def _inputs(case):
    return case.get("data", ""), case.get("base") or None, case.get("charset") or None


def test_explain_agrees_with_url_to_canon_url_on_every_conformance_input():
    disagree = []
    for case in CASES:
        url, base, charset = _inputs(case)
        got, want = explain(url, base, charset).result, url_to_canon_url(url, base, charset)
        if got != want:
            disagree.append(f"{case.id}: explain {got!r}, url_to_canon_url {want!r}")
    assert not disagree, f"{len(disagree)} cases:\n" + "\n".join(disagree[:20])


def test_every_invalid_conformance_case_has_a_reason_naming_a_step():
    missing, invalid = [], 0
    for case in CASES:
        e = explain(*_inputs(case))
        if e.result is None:
            invalid += 1
            failed = [s for s in e.steps if s.reason is not None]
            if not failed or not e.reason or not NAMES_A_STEP.search(e.reason):
                missing.append(f"{case.id} {e.url!r}: {e.reason!r}")
    assert invalid > 100
    assert not missing, f"{len(missing)} of {invalid} invalid cases:\n" + "\n".join(missing[:20])


def test_every_registered_reason_names_a_step():
    for key, r in REASONS.items():
        assert NAMES_A_STEP.search(r.message), key


def test_recording_is_per_thread_and_ends_with_its_block():
    seen = []
    with Recording() as r:        # another thread reports, and nothing reaches this recording
        t = threading.Thread(target=lambda: seen.append(trace_for("parse").note("2", "elsewhere")))
        t.start()
        t.join()
        explain("http://example.com:080/")
    assert seen == ["elsewhere"] and trace_for("parse") is OFF
    assert r.steps == []          # explain records into its own recording, not the outer one


def test_values_are_whole_and_changes_never_cut():
    from weburl_nb import explain
    text = "\n".join(explain("http://example.com:99999/").lines())
    assert "host='example.com'" in text and "\u2026" not in text
    long = "http://h/" + "a" * 3000 + "%7e" + "b" * 3000
    line = next(l for l in explain(long).lines() if l.startswith("canon    C8"))
    assert "a%7eb" in line and "a~b" in line and len(line) < 300
    head = str(explain("http://h/" + "x" * 5000)).split("\n")[0]
    assert len(head) < 200 and "(5,009 characters)" in head


def test_dot_segments_of_an_absolute_url_are_named():
    from weburl_nb import explain
    steps = [(s.section, s.number) for s in explain("http://a.com/b/./../%7e/x").steps]
    assert ("relative", "2.2") in steps


def test_long_values_never_run_into_the_what_column():
    "Each step's words start at one column (wide characters count two), or on a line of their own."
    from weburl_nb import explain
    from weburl_nb.explain import VALUES, _width
    for url in ["http://\uff21\uff22.example/a/../b", "http://h/" + "\u4e00" * 40 + "/../x"]:
        e = explain(url)
        lines = iter(e.lines())
        for step in e.steps:
            words, line = step.message or step.what, next(lines)
            if not line.endswith(words):            # a long value: the words on the next line
                line = next(lines)
                assert line == " " * (16 + VALUES) + words
            else:
                assert _width(line[:len(line) - len(words)]) == 16 + VALUES, line
