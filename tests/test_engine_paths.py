"""engine == steps for dot-segments: `engine_paths.remove_dot_segments` against the RFC's machine
(`resolution.remove_dot_segments`), on Hypothesis paths and on every path of the conformance data."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weburl_nb import engine_paths, resolution
from weburl_nb.parsing import parse_url

PIECES = ('.', '..', '%2e', '%2E', '/', '\\', 'a', 'bc', '%2', 'E', '%2F')
# a piece, or a long run of one (up to a few rounds of `_BLOCK`)
piece = st.sampled_from(PIECES)
run = st.tuples(st.sampled_from(('/.', '/..', '/a', '/%2e', '/%2E%2e', '../', './', 'a/', '/')),
                st.integers(1, 6000)).map(lambda t: t[0] * t[1])
paths = st.lists(st.one_of(piece, piece, run), max_size=12).map(''.join)


@settings(max_examples=400, deadline=None)
@given(paths)
def test_engine_equals_steps(path):
    assert engine_paths.remove_dot_segments(path) == resolution.remove_dot_segments(path)


@settings(max_examples=200, deadline=None)
@given(paths, st.integers(1, 40))
def test_rounds_equal_steps_at_any_round_size(path, block):
    rooted = '/' + path.replace('\\', '/')
    assert engine_paths._rooted_in_rounds(rooted, block) == resolution.remove_dot_segments(rooted)


def _conformance_paths():
    from datfile import files, load
    out = set()
    for name in files():
        for case in load(name):
            data, base = case.get('data', ''), case.get('base') or ''
            for text in (data, base):
                u = parse_url(text)
                if u.path:
                    out.add(u.path)
            b = parse_url(base).path if base else None
            r = parse_url('http:' + data).path
            if r is not None:
                out.add(resolution.merge_path(r, b, True))
    return sorted(out)


def test_engine_equals_steps_on_the_conformance_paths():
    found = _conformance_paths()
    if not found:
        pytest.skip('conformance data not found')
    bad = [p for p in found
           if engine_paths.remove_dot_segments(p) != resolution.remove_dot_segments(p)]
    assert not bad, bad[:5]
    assert len(found) > 1000
