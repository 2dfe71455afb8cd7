"""engine == steps for preprocessing: `engine_preprocess.preprocess` against the four steps as written
(`charclasses.preprocess`), on Hypothesis text and on every input and base of the conformance data."""
from __future__ import annotations

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


@settings(max_examples=500, deadline=None)
@given(texts, st.booleans())
def test_engine_equals_steps(s, noncharacters):
    assert (engine_preprocess.preprocess(s, noncharacters)
            == charclasses.preprocess(s, noncharacters))
    assert engine_preprocess.remove_tab_lf_cr(s) == charclasses.remove_tab_lf_cr(s)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(categories=('Cs', 'Cn', 'Cc', 'Zs', 'Ll', 'Lo'))))
def test_engine_equals_steps_on_unassigned_and_controls(s):
    assert engine_preprocess.preprocess(s) == charclasses.preprocess(s)


def test_step2_is_skipped_only_when_it_changes_nothing():
    # the engine's test says "cannot change" only where step 2 indeed changes nothing
    for cp in range(0x110000):
        c = chr(cp)
        if not engine_preprocess.step2_may_replace('\t' + c):      # `\t`: not printable
            assert charclasses.preprocess(c) == charclasses.preprocess(c, False), hex(cp)


def _conformance_strings():
    from datfile import files, load
    out = set()
    for name in files():
        for case in load(name):
            for text in (case.get('data'), case.get('base')):
                if text:
                    out.add(text)
    return sorted(out)


def test_engine_equals_steps_on_the_conformance_inputs():
    found = _conformance_strings()
    if not found:
        pytest.skip('conformance data not found')
    bad = [s for s in found for flag in (True, False)
           if engine_preprocess.preprocess(s, flag) != charclasses.preprocess(s, flag)]
    assert not bad, bad[:5]
    assert len(found) > 1000
