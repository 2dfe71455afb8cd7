"""engine == steps for dot-segments and resolution: each piece of `engine_paths` against the RFC's
machine (`resolution.remove_dot_segments`) or against Resolution's algorithms
(`resolution.resolve_checked`), on every short path, on Hypothesis paths and references, and on the
conformance data. Each test here is the pairing test of one piece in `tools/proofs.py`
(`PAIRED_TEST`): it turns red when that piece's answer changes."""
from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weburl_nb import engine_paths, resolution
from weburl_nb.parsing import PARSE_THIS, parse_in_profile, parse_profile_for, parse_url

PIECES = ('.', '..', '%2e', '%2E', '/', '\\', 'a', 'bc', '%2', 'E', '%2F')
# a piece, or a long run of one (up to a few rounds of `_BLOCK`)
piece = st.sampled_from(PIECES)
run = st.tuples(st.sampled_from(('/.', '/..', '/a', '/%2e', '/%2E%2e', '../', './', 'a/', '/')),
                st.integers(1, 6000)).map(lambda t: t[0] * t[1])
paths = st.lists(st.one_of(piece, piece, run), max_size=12).map(''.join)
# every path of up to five short pieces, `\` already read as `/` (amendment 1)
SHORT = [''.join(c) for k in range(6)
         for c in product(('/', '.', '..', '%2e', '%2E', '%2', 'a'), repeat=k)]
steps = resolution.remove_dot_segments


def test_no_dot_segment_test_is_sound():
    # where the test says "no dot-segment", the steps give the path back as it is
    passed = 0
    for p in SHORT:
        if engine_paths.has_no_dot_segment(p):
            passed += 1
            assert steps(p) == p, p
    assert passed > 100


def test_rooted_stack_equals_steps():
    bad = [p for p in SHORT if engine_paths._rooted_stack('/' + p) != steps('/' + p)]
    assert not bad, bad[:5]


@settings(max_examples=200, deadline=None)
@given(paths, st.integers(1, 40))
def test_rounds_equal_steps_at_any_round_size(path, block):
    rooted = '/' + path.replace('\\', '/')
    assert engine_paths._rooted_in_rounds(rooted, block) == steps(rooted)


@settings(max_examples=400, deadline=None)
@given(paths)
def test_remove_dot_segments_by_stack_equals_steps(path):
    assert engine_paths.remove_dot_segments_by_stack(path) == steps(path)


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


def test_remove_dot_segments_by_stack_equals_steps_on_the_conformance_paths():
    found = _conformance_paths()
    if not found:
        pytest.skip('conformance data not found')
    bad = [p for p in found + SHORT if engine_paths.remove_dot_segments_by_stack(p) != steps(p)]
    assert not bad, bad[:5]
    assert len(found) > 1000


PROFILES = [PARSE_THIS] + [parse_profile_for(b) for b in ('chrome', 'gecko', 'ie')]


def _by_stack(ref, base, profile):
    return engine_paths.resolve_by_stack(*engine_paths.preprocess_and_parse(ref, profile), base,
                                         profile)


def _conformance_pairs():
    from datfile import files, load
    out = set()
    for name in files():
        for case in load(name):
            data = case.get('data')
            if data is not None:
                out.add((data, case.get('base') or data))
    return sorted(out)


def test_resolve_by_stack_equals_steps_on_the_conformance_pairs():
    found = _conformance_pairs()
    if not found:
        pytest.skip('conformance data not found')
    bad = []
    for profile in PROFILES:
        for ref, base in found:
            b = parse_in_profile(base, profile)
            if _by_stack(ref, b, profile) != resolution.resolve_checked(ref, b, profile):
                bad.append((ref, base))
    assert not bad, bad[:5]
    assert len(found) > 1000


# references and bases of the shapes resolution tells apart: schemes (the base's, another, a drive
# letter, none), authorities, rooted and relative paths with dot-segments in every spelling,
# backslashes, `file:`'s escaped slashes, queries, fragments, empty strings and outer spaces
REF_PIECES = ('http:', 'HTTP:', 'file:', 'mailto:', 'c:', 'C|', '//', 'h', '/', '\\', '.', '..',
              '%2e', '%2E', '%2F', '%5c', 'a', '?q', '#f', ' ', '\t', ':', '@')
refs = st.lists(st.sampled_from(REF_PIECES), max_size=8).map(''.join)
BASES = [parse_url(b) for b in ('http://a/b/c/d;p?q', 'http://a/b/../c#f', 'HTTP://h', 'file:///c:/d%5Ce/f',
                                'file://s/a/./b', 'file:%5C', 'mailto:x@y', 'about:blank', 'relative/only',
                                'ecmascript:a  #f', 'http://h/a\\b/..?q#f', 'c:\\a\\b')]


@settings(max_examples=500, deadline=None)
@given(refs, st.sampled_from(BASES), st.sampled_from(PROFILES))
def test_resolve_by_stack_equals_steps(ref, base, profile):
    assert _by_stack(ref, base, profile) == resolution.resolve_checked(ref, base, profile)
    r = engine_paths.preprocess_and_parse(ref, profile)[1]
    for u in (r, r._replace(path=None)):          # its parts as the steps name them, any base
        assert engine_paths.resolve_relative_by_stack(u, base) == resolution.resolve_relative_url(u, base)
