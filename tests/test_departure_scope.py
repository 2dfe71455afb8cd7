"""Departures no broader than their reason; their form: test_departures.py.

Two departures exist only so that every answer is a fixed point (a canonical URL canonicalizes to
itself): "decoding makes no new escape" (C8, Canonicalization) and "a base path taken over is
cleaned too" (Resolution). Each must leave the spec's literal answer alone whenever that answer is
already a fixed point. The literal steps are our steps with both departures switched off (the held-back
decoding replaced by the plain one, a copied base path taken as it is); Hypothesis then checks, on
URLs and links built around escapes, dots and slashes, that whenever the literal answer is a fixed
point, both routes give it.
"""
from __future__ import annotations

from contextlib import contextmanager

import pytest
from hypothesis import given, strategies as st

import weburl_nb.canonicalization as canonicalization
import weburl_nb.resolution as resolution
from weburl_nb.entry import url_to_canon_url, url_to_canon_url_steps

# The literal steps are made by replacing two functions of the package's modules: compiled callers
# call them directly, so in the compiled build the replacement never takes effect.
pytestmark = pytest.mark.incompatible_with_mypyc(
    "the literal steps replace two module functions, which compiled callers call directly")


@contextmanager
def literal_steps():
    "Our steps with the two departures switched off: the spec's literal answer."
    saved = canonicalization.makes_new_escape, resolution.settled_path
    canonicalization.makes_new_escape = lambda s, i, c: False
    resolution.settled_path = lambda path, is_file, **_: path
    try:
        yield
    finally:
        canonicalization.makes_new_escape, resolution.settled_path = saved


def literal(url: str, base: str | None = None) -> str | None:
    with literal_steps():
        return url_to_canon_url_steps(url, base)


def _kept_when_fixed(url: str, base: str | None) -> None:
    lit = literal(url, base)
    if lit is not None and url_to_canon_url_steps(lit) == lit:       # a fixed point
        assert url_to_canon_url_steps(url, base) == lit, (url, base, lit)
        assert url_to_canon_url(url, base) == lit, (url, base, lit)


# --- literal answers that are fixed points are given ----------------------------------------------

def test_decoding_keeps_a_literal_answer_that_is_settled():
    base = 'https://doc.rust-lang.org/stable/core/arch/x86/fn.x.html'
    link = '../highlight-%%43%7CEabc.js'
    want = 'https://doc.rust-lang.org/stable/core/arch/highlight-%C%7CEabc.js'
    assert literal(link, base) == want and url_to_canon_url_steps(want) == want
    assert url_to_canon_url(link, base) == url_to_canon_url_steps(link, base) == want
    assert url_to_canon_url('http://h/%%41%42') == 'http://h/%AB'     # `%AB` is no unreserved escape


def test_decoding_still_holds_back_what_a_second_reading_changes():
    for url, held in [('http://h/a/%2%45%2%45/b', 'http://h/a/%2%45%2%45/b'),   # literal: `/a/%2E%2E/b`
                      ('http://h/%7%41', 'http://h/%7%41'),                     # literal: `%7A`, a `z`
                      ('file:///%2%46', 'file:///%2%46')]:                      # literal: `%2F`, a `/` in file
        lit = literal(url)
        assert lit != held and url_to_canon_url_steps(lit) != lit, url
        assert url_to_canon_url(url) == url_to_canon_url_steps(url) == held


def test_a_base_path_is_taken_over_as_it_is_when_that_is_settled():
    want = 'file:///struct/.CStr.html'
    assert literal('file:struct%2f.CStr.html') == want and url_to_canon_url_steps(want) == want
    assert url_to_canon_url('file:struct%2f.CStr.html') == want      # was file:///struct/struct/.CStr.html


def test_a_base_path_is_cleaned_when_a_second_reading_would():
    # The literal answers, then what a second reading makes of them: the answers we give.
    for link, base, lit, want in [
            ('?q', 'http://a/b/../c', 'http://a/b/../c?q', 'http://a/c?q'),
            ('%2F', 'file:///c:/d%5Ce/f', 'file:///c:/d%5Ce//', 'file:///c:/d/e//'),
            ('', 'file:%5C', 'file:///%5C', 'file:///.//'),
            ('file:%5C/', None, 'file:///%5C///', 'file:///')]:
        assert literal(link, base) == lit
        assert url_to_canon_url_steps(lit) == want == url_to_canon_url_steps(want)
        assert url_to_canon_url(link, base) == url_to_canon_url_steps(link, base) == want


# --- the property ---------------------------------------------------------------------------------

ATOMS = ['a', 'C', 'E', '0', '.', '..', '/', '\\', '?', '#', ':', 'c:', 'C|', '%', '%%', '%2', '%7', '%5',
         '%3', '%43', '%41', '%45', '%46', '%2E', '%2e', '%2F', '%2f', '%5C', '%5c', '%7C', '%3A', '%7e',
         '%20', '%25', '%AB', 'localhost']
SCHEMES = ['http://h/', 'http://h', 'HTTP://a/b/', 'x-y://a/', 'file:', 'file:///', 'file://h/', 'file:///c:/',
           'mailto:', 'ftp://f/', '', '/', '//h/', '../', '?', '#']
tail = st.lists(st.sampled_from(ATOMS), max_size=12).map(''.join)
url_text = st.tuples(st.sampled_from(SCHEMES), tail).map(''.join)
base_text = st.one_of(st.none(), st.tuples(st.sampled_from(SCHEMES[:10]), tail).map(''.join))


@given(url_text, base_text)
def test_the_literal_answer_is_given_whenever_it_is_a_fixed_point(url, base):
    _kept_when_fixed(url, base)
