"""engine == steps for preprocessing: each piece of `engine_preprocess` against the four steps as
written (`charclasses.preprocess`, `charclasses.remove_tab_lf_cr`), on Hypothesis text, on every code
point and on every input and base of the conformance data. Each test here is the pairing test of one
piece in `tools/proofs.py` (`PAIRED_TEST`): it turns red when that piece's answer changes."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weburl_nb import charclasses, engine_preprocess

# what the steps act on (TAB, LF, CR; VT, FF, SPACE; surrogates and noncharacters), what they leave
# (other controls, NUL, DEL, U+FFFD, non-ASCII letters, emoji), and the edges of the engine's ranges
SPECIAL = ('\t', '\n', '\r', '\x0b', '\x0c', ' ', '\x00', '\x01', '\x1f', '\x7f', '\x85', '\xa0',
           '\u2028', '\ufeff', '\ud7ff', '\ud800', '\udbff', '\udc00', '\udfff', '\ue000', '\ufdcf',
           '\ufdd0', '\ufdef', '\ufdf0', '\ufffd', '\ufffe', '\uffff', '\U00010000', '\U0001fffd',
           '\U0001fffe', '\U0001ffff', '\U00020000', '\U000e01ef', '\U0010fffe', '\U0010ffff')
piece = st.one_of(st.sampled_from(SPECIAL), st.sampled_from(('a', 'http://h/', '\xe9', '\u4f8b', '\U0001f600')),
                  st.characters(), st.text(max_size=8))
texts = st.lists(st.one_of(piece, st.tuples(piece, st.integers(1, 50)).map(lambda t: t[0] * t[1])),
                 max_size=12).map(''.join)
# every string of one to three of these: a few hundred with a TAB, LF or CR, and as many without
SHORT = [''.join(c) for k in range(1, 4) for c in itertools.product(
    ('a', '\t', '\n', '\r', ' ', '\x0b', '\xe9', '\ufdd0', '\ud800'), repeat=k)]


def _conformance_strings():
    from datfile import files, load
    out = set()
    for name in files():
        for case in load(name):
            for text in (case.get('data'), case.get('base')):
                if text:
                    out.add(text)
    return sorted(out)


def test_preprocess_if_needed_equals_steps_on_the_conformance_inputs():
    found = _conformance_strings()
    if not found:
        pytest.skip('conformance data not found')
    bad = [s for s in found + SHORT for flag in (True, False)
           if engine_preprocess.preprocess_if_needed(s, flag) != charclasses.preprocess(s, flag)]
    assert not bad, bad[:5]
    assert len(found) > 1000


@settings(max_examples=500, deadline=None)
@given(texts, st.booleans())
def test_preprocess_if_needed_equals_steps(s, noncharacters):
    assert (engine_preprocess.preprocess_if_needed(s, noncharacters)
            == charclasses.preprocess(s, noncharacters))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(categories=('Cs', 'Cn', 'Cc', 'Zs', 'Ll', 'Lo'))))
def test_preprocess_if_needed_equals_steps_on_unassigned_and_controls(s):
    assert engine_preprocess.preprocess_if_needed(s) == charclasses.preprocess(s)


def test_remove_tab_lf_cr_if_present_equals_step3():
    # every short string, and the conformance inputs: each with and without TAB, LF and CR
    found = SHORT + _conformance_strings()
    bad = [s for s in found
           if engine_preprocess.remove_tab_lf_cr_if_present(s) != charclasses.remove_tab_lf_cr(s)]
    assert not bad, bad[:5]


@settings(max_examples=300, deadline=None)
@given(texts)
def test_remove_tab_lf_cr_if_present_equals_step3_on_text(s):
    assert engine_preprocess.remove_tab_lf_cr_if_present(s) == charclasses.remove_tab_lf_cr(s)


def test_step2_is_skipped_only_when_it_changes_nothing():
    # The engine's test says "cannot change" only where step 2 indeed changes nothing: asked of
    # every code point after a TAB (not printable, so the third test decides), and of the code
    # points step 2 replaces on their own.
    may = engine_preprocess.step2_may_replace
    replaced = 0
    for cp in range(0x110000):
        c = chr(cp)
        if not may('\t' + c):
            assert charclasses.preprocess(c) == charclasses.preprocess(c, False), hex(cp)
        if charclasses.preprocess(c) != charclasses.preprocess(c, False):
            replaced += 1
            assert may(c) and may('a' + c + '\t'), hex(cp)
    assert replaced == 2048 + 32 + 2 * 17
