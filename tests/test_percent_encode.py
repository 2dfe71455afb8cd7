"""Percent-encoding against the steps read plainly: encode the whole string, escape it byte by byte,
decode it back. Both routes are checked: the steps of Canonicalization (`canonicalization`) and the
engine (`percent_encode_by_runs`: kept text skipped, runs of characters escaped at once, escapes of legacy
characters kept, long strings in blocks). Random strings, sets of octets and charsets check that
each gives the plain answer, the `ValueError` of the departure "no legacy decoders" included.
"""
import pytest
from hypothesis import example, given, strategies as st

from weburl_nb import engine_encoding
from weburl_nb.canonicalization import (C1_OCTETS, FRAGMENT_OCTETS, OPAQUE_PATH_OCTETS, PATH_OCTETS,
                                        QUERY_OCTETS, USERINFO_OCTETS, EncodeSet)
from weburl_nb.canonicalization import percent_encode as percent_encode_steps
from weburl_nb.engine_encoding import percent_encode_by_runs, run_tables
from weburl_nb.encoding import charset_encoding, encoder_for

CHARSETS = [None, 'utf-8', 'shift_jis', 'euc-jp', 'iso-2022-jp', 'euc-kr', 'big5', 'gbk', 'gb18030',
            'koi8-r', 'windows-1251', 'windows-1252', 'iso-8859-2', 'iso-8859-15', 'x-user-defined',
            'utf-16le', 'ibm037']
# characters that reach every branch: kept and escaped ASCII, ESC and SO (ISO-2022-JP), the
# Shift_JIS specials (yen, overline, minus), trail bytes that are ASCII (0x5C in 表), characters
# every legacy encoding lacks, gb18030's four-byte forms, lone surrogates, astral characters
SPECIAL = ('a Z0~%?#&+=/\\"<>`{}|^@[]\x00\t\x1b\x0e\x0f\x7f\x80\x9f\xa0é¥‾−表ソ日本語ｱ한中€'
           'ǅﬁпΩไ\ue5e5\ue7c7\uf780\uffff\ud800\udc00\U0001F600\U00020000')
text = st.text(st.one_of(st.sampled_from(SPECIAL), st.characters(blacklist_categories=())),
               max_size=30)
OUR_SETS = [USERINFO_OCTETS, PATH_OCTETS, QUERY_OCTETS, OPAQUE_PATH_OCTETS, C1_OCTETS, FRAGMENT_OCTETS]
octet_sets = st.one_of(
    st.sampled_from(OUR_SETS),
    st.frozensets(st.integers(0, 255)).map(EncodeSet),                          # any set at all
    st.frozensets(st.integers(0, 127)).map(lambda s: EncodeSet({*s, *range(0x80, 0x100)})),
    st.frozensets(st.integers(0, 127)).map(EncodeSet))                          # no byte from 0x80


def plain(s: str, charset: str | None, octets: EncodeSet) -> str:
    "The steps read plainly (see the module's docstring); `ValueError` as the departure says."
    utf8 = charset_encoding(charset) == 'UTF-8'
    if not utf8 and not octets.octets >= {0x1B, *range(0x80, 0x100)}:
        raise ValueError('needs a set escaping bytes 0x80-0xFF and ESC')
    if all(c.isascii() and ord(c) not in octets.octets for c in s):
        return s
    data = encoder_for(charset)(s)                                          # steps 3, 5, 6
    escaped = b''.join(b'%%%02X' % b if b in octets.octets else bytes([b]) for b in data)   # 7
    if utf8:
        return escaped.decode('utf-8', 'replace')                           # step 8
    return escaped.decode('ascii')                                          # step 8: ASCII


def outcome(f, *args):
    try:
        return f(*args)
    except ValueError:
        return ValueError


@given(text, st.sampled_from(CHARSETS), octet_sets)
@example('\u00e9a\ud800' * 3000, None, PATH_OCTETS)          # blocks of 8,192, a lone surrogate
@example('a\u8868 ' * 3000, 'shift_jis', QUERY_OCTETS)
@example(''.join(map(chr, range(0x4E00, 0x6000))), 'shift_jis', QUERY_OCTETS)     # kept escapes emptied
def test_percent_encode_is_the_plain_steps(s, charset, octets):
    want = outcome(plain, s, charset, octets)
    assert outcome(percent_encode_steps, s, charset, octets) == want
    assert outcome(percent_encode_by_runs, s, charset, octets) == want


@given(text, st.sampled_from(CHARSETS), octet_sets, st.integers(1, 7))
def test_blocks_may_end_anywhere(s, charset, octets, block):
    "Long strings go by blocks of characters; tiny blocks cut between any two characters."
    saved = engine_encoding._ESCAPE_BLOCK
    engine_encoding._ESCAPE_BLOCK = block
    try:
        assert outcome(percent_encode_by_runs, s, charset, octets) == outcome(plain, s, charset, octets)
    finally:
        engine_encoding._ESCAPE_BLOCK = saved


@pytest.mark.parametrize('charset', ['shift_jis', 'gb18030', None])
def test_escapes_kept_per_character_stay_bounded(charset):
    "More distinct characters than the cache holds: it empties itself and the answers stay plain."
    s = ''.join(map(chr, range(0x4E00, 0x4E00 + engine_encoding._CHAR_ESCAPES_MAX + 500)))
    assert percent_encode_by_runs(s, charset, QUERY_OCTETS) == plain(s, charset, QUERY_OCTETS)
    for table in run_tables(QUERY_OCTETS).char_escapes.values():
        assert len(table) <= engine_encoding._CHAR_ESCAPES_MAX
