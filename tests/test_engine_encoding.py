"""The engine of percent-encoding and C8 (`engine_encoding`) against the steps of Canonicalization,
piece by piece: C8's decoding (both decodings), `encode_path`, C7-C8 with the quick exits, the
fragment, the charset labels kept, and C1-C11 with the engine's pieces on every conformance input.
`percent_encode` itself is paired with the plain steps in test_percent_encode.py.

Each comparison must be able to fail: `test_the_comparisons_catch_a_broken_engine` has Hypothesis
find, for a few broken variants of the engine, an input where the variant and the steps differ.
"""
from __future__ import annotations

import pytest
from hypothesis import find, given, settings, strategies as st

from datfile import data_dir, files, load

import weburl_nb.canonicalization as steps
import weburl_nb.encoding as encoding
import weburl_nb.engine_encoding as engine
from weburl_nb.host import THIS
from weburl_nb.parsing import parse_url
from weburl_nb.resolution import resolve_url

# pieces that reach every branch of C8: kept text, escapes of unreserved characters (hex digits and
# others, either case), other escapes, `%` runs, `%` and one digit, characters to encode, slashes
PIECES = ['/', 'a', 'E', 'F', '%', '%%', '%4', '%41', '%46', '%7e', '%7E', '%2F', '%2e', '%2E', '%c3',
          '%C3%A9', '%5C', ' ', 'é', '\\', '.', '..', '/./', '/../', '?', '#', '\ud800', '%3A', '|', 'c:',
          '%%41', '%4%46', '%2%45', '%2%46', '%7%41']
paths = st.lists(st.sampled_from(PIECES), max_size=12).map(''.join)
schemes = st.sampled_from(['http', 'file', 'mailto', 'about', None])


@given(paths, st.booleans())
def test_decode_unreserved(s, literal):
    assert engine.decode_unreserved(s, literal) == steps.decode_unreserved(s, literal)


@given(paths, st.booleans(), schemes)
def test_encode_path(path, hierarchical, scheme):
    rooted = steps.root_path(path, hierarchical)
    assert engine.encode_path(rooted, hierarchical, scheme) == \
        steps.encode_path(rooted, hierarchical, scheme)


@given(st.one_of(st.none(), paths), st.booleans(), schemes)
def test_canonicalize_path(path, hierarchical, scheme):
    assert engine.canonicalize_path(path, hierarchical, scheme) == \
        steps.canonicalize_path(path, hierarchical, scheme)


@given(st.one_of(st.none(), st.text(st.sampled_from('a #?%\x00\x1f\x7f\x80\x85\x9f\xa0é😀\ud800'))))
def test_canonicalize_fragment(fragment):
    assert engine.canonicalize_fragment(fragment) == steps.canonicalize_fragment(fragment)


@given(st.one_of(st.sampled_from(sorted(encoding.labels())), st.text(max_size=12)))
def test_charset_encoding(label):
    def outcome(f):
        try:
            return f(label)
        except LookupError:
            return LookupError
    assert outcome(engine.charset_encoding) == outcome(encoding.charset_encoding)


@pytest.mark.skipif(not data_dir().is_dir(), reason="conformance data not found")
def test_canonicalize_checked_on_the_conformance_inputs():
    cases = [c for f in files() for c in load(f)]
    for c in cases:
        base = parse_url(c.get("base") or c.get("data", ""))
        u = resolve_url(c.get("data", ""), base)
        charset = c.get("charset") or None
        try:
            want = steps.canonicalize_checked(u, charset, THIS)
        except LookupError:
            continue
        assert engine.canonicalize_checked(u, charset, THIS) == want, c


def _broken_decode(s, literal=False):
    "The engine's decoding with the note's hold-back lost."
    return engine.decode_unreserved(s, True)


def _broken_path(path, hierarchical, scheme):
    "C7-C8 with the quick exit taken for any path of kept characters, escapes or not."
    if hierarchical and path and engine._PATH_KEPT.fullmatch(path) is not None:
        return engine._decode_piece(path, engine._LITERAL_ESCAPE_SPLIT)
    return engine.canonicalize_path(path, hierarchical, scheme)


def test_the_comparisons_catch_a_broken_engine():
    quiet = settings(database=None, max_examples=5000)
    find(paths, lambda s: _broken_decode(s) != steps.decode_unreserved(s), settings=quiet)
    find(paths, lambda p: _broken_path(p, True, 'http') != steps.canonicalize_path(p, True, 'http'),
         settings=quiet)
