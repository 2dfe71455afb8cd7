"""The query encoders of `weburl_nb.encoding`, checked against a second reading of the WHATWG
Encoding Standard's own files.

The reference below is written straight from the Standard's encoder steps, one code point at a
time, over the index text files in `../shared/data/whatwg-encoding` (or `$WEBURL_ENCODING_DATA`);
it shares no code with the package. Without those files the module is skipped, saying where it
looked. Figures: Shift_JIS, EUC-JP and ISO-2022-JP are checked code point by code point through
the query of a URL, all 65,536 code points up to U+FFFF each (196,608 checks); every other
encoding is checked on every code point up to U+FFFF at once (gb18030 also on a spread of the
code points above).
"""
from __future__ import annotations

import importlib.util
import os
import random
import zipfile
from bisect import bisect_right
from functools import lru_cache
from pathlib import Path

import pytest

from weburl_nb.canonicalization import QUERY_OCTETS, canonicalize_query
from weburl_nb.encoding import DATA_FILE, encoder, labels
from weburl_nb.engine_codecs import codec_encoder

ENV_VAR = 'WEBURL_ENCODING_DATA'
ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path(os.environ.get(ENV_VAR) or ROOT.parent / 'shared' / 'data' / 'whatwg-encoding')
if not (SOURCE / 'encodings.json').is_file():
    pytest.skip(f'WHATWG Encoding Standard data not found at {SOURCE} (set {ENV_VAR}): '
                'the query encoders are NOT checked against it', allow_module_level=True)

BMP = range(0x10000)
ASCII_COMPATIBLE_MULTI_BYTE = ('Shift_JIS', 'EUC-JP', 'ISO-2022-JP', 'EUC-KR', 'Big5', 'GBK',
                               'gb18030', 'x-user-defined')


@lru_cache(maxsize=None)
def rows(name: str) -> list[tuple[int, int]]:
    "The (pointer, code point) rows of index file `index-NAME.txt`, in pointer order."
    out = []
    for line in (SOURCE / f'index-{name}.txt').read_text(encoding='utf-8').split('\n'):
        if line and not line.startswith('#'):
            pointer, code_point = line.split('\t')[:2]
            out.append((int(pointer), int(code_point, 16)))
    return sorted(out)


@lru_cache(maxsize=None)
def first_pointer(name: str, lowest: int = 0, skip: tuple[int, int] = (0, 0)) -> dict:
    "Code point -> first pointer of the index (pointers below `lowest` or in `skip` ignored)."
    out = {}
    for pointer, code_point in rows(name):
        if pointer >= lowest and not skip[0] <= pointer < skip[1]:
            out.setdefault(code_point, pointer)
    return out


def scalar(cp: int) -> bool:
    return not 0xD800 <= cp <= 0xDFFF    # lone surrogates: no encoder ever sees one


def ref_single_byte(name: str, cp: int) -> bytes | None:
    if cp < 0x80:
        return bytes([cp])
    index = 'iso-8859-8' if name == 'ISO-8859-8-I' else name.lower()
    pointer = first_pointer(index).get(cp)
    return None if pointer is None else bytes([pointer + 0x80])


def ref_shift_jis(cp: int) -> bytes | None:
    if cp < 0x80 or cp == 0x80:
        return bytes([cp])
    if cp == 0xA5:
        return b'\x5c'
    if cp == 0x203E:
        return b'\x7e'
    if 0xFF61 <= cp <= 0xFF9F:
        return bytes([cp - 0xFF61 + 0xA1])
    if cp == 0x2212:
        cp = 0xFF0D
    pointer = first_pointer('jis0208', skip=(8272, 8836)).get(cp)
    if pointer is None:
        return None
    lead, trail = pointer // 188, pointer % 188
    return bytes([lead + (0x81 if lead < 0x1F else 0xC1), trail + (0x40 if trail < 0x3F else 0x41)])


def ref_euc_jp(cp: int) -> bytes | None:
    if cp < 0x80:
        return bytes([cp])
    if cp == 0xA5:
        return b'\x5c'
    if cp == 0x203E:
        return b'\x7e'
    if 0xFF61 <= cp <= 0xFF9F:
        return bytes([0x8E, cp - 0xFF61 + 0xA1])
    if cp == 0x2212:
        cp = 0xFF0D
    pointer = first_pointer('jis0208').get(cp)
    return None if pointer is None else bytes([pointer // 94 + 0xA1, pointer % 94 + 0xA1])


def ref_euc_kr(cp: int) -> bytes | None:
    if cp < 0x80:
        return bytes([cp])
    pointer = first_pointer('euc-kr').get(cp)
    return None if pointer is None else bytes([pointer // 190 + 0x81, pointer % 190 + 0x41])


def ref_big5(cp: int) -> bytes | None:
    if cp < 0x80:
        return bytes([cp])
    lowest = (0xA1 - 0x81) * 157
    if cp in (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345):
        found = [p for p, c in rows('big5') if c == cp and p >= lowest]
        pointer = found[-1] if found else None
    else:
        pointer = first_pointer('big5', lowest=lowest).get(cp)
    if pointer is None:
        return None
    lead, trail = pointer // 157 + 0x81, pointer % 157
    return bytes([lead, trail + (0x40 if trail < 0x3F else 0x62)])


GB_ENCODE_ONLY = dict(zip(
    [0xE78D, 0xE78E, 0xE78F, 0xE790, 0xE791, 0xE792, 0xE793, 0xE794, 0xE795, 0xE796,
     0xE81E, 0xE826, 0xE82B, 0xE82C, 0xE832, 0xE843, 0xE854, 0xE864],
    ['A6D9', 'A6DA', 'A6DB', 'A6DC', 'A6DD', 'A6DE', 'A6DF', 'A6EC', 'A6ED', 'A6F3',
     'FE59', 'FE61', 'FE66', 'FE67', 'FE6D', 'FE7E', 'FE90', 'FEA0']))


def ref_gb18030(cp: int, gbk: bool) -> bytes | None:
    if cp < 0x80:
        return bytes([cp])
    if cp == 0xE5E5:
        return None
    if gbk and cp == 0x20AC:
        return b'\x80'
    if cp in GB_ENCODE_ONLY:
        return bytes.fromhex(GB_ENCODE_ONLY[cp])
    pointer = first_pointer('gb18030').get(cp)
    if pointer is not None:
        lead, trail = pointer // 190 + 0x81, pointer % 190
        return bytes([lead, trail + (0x40 if trail < 0x3F else 0x41)])
    if gbk:
        return None
    if cp == 0xE7C7:
        pointer = 7457
    else:
        table = rows('gb18030-ranges')
        row = table[bisect_right([c for _, c in table], cp) - 1]
        pointer = row[0] + cp - row[1]
    b1, rest = divmod(pointer, 12600)
    b2, rest = divmod(rest, 1260)
    b3, b4 = divmod(rest, 10)
    return bytes([b1 + 0x81, b2 + 0x30, b3 + 0x81, b4 + 0x30])


def ref_x_user_defined(cp: int) -> bytes | None:
    if cp < 0x80:
        return bytes([cp])
    return bytes([cp - 0xF780 + 0x80]) if 0xF780 <= cp <= 0xF7FF else None


def ref_iso_2022_jp(text: str) -> bytes:
    "The Standard's stateful handler run over `text`; an error is written as `?` where it occurs."
    out, state, queue = bytearray(), 'ASCII', [ord(c) for c in text]
    i = 0
    while True:
        if i == len(queue):
            if state != 'ASCII':
                out += b'\x1b(B'
            return bytes(out)
        cp = queue[i]
        i += 1
        if state in ('ASCII', 'Roman') and cp in (0x0E, 0x0F, 0x1B):
            out += b'?'
            continue
        if state == 'ASCII' and cp < 0x80:
            out.append(cp)
            continue
        if state == 'Roman' and ((cp < 0x80 and cp not in (0x5C, 0x7E)) or cp in (0xA5, 0x203E)):
            out.append(cp if cp < 0x80 else (0x5C if cp == 0xA5 else 0x7E))
            continue
        if cp < 0x80:
            i -= 1
            state = 'ASCII'
            out += b'\x1b(B'
            continue
        if cp in (0xA5, 0x203E):
            i -= 1
            state = 'Roman'
            out += b'\x1b(J'
            continue
        if cp == 0x2212:
            cp = 0xFF0D
        if 0xFF61 <= cp <= 0xFF9F:
            cp = dict(rows('iso-2022-jp-katakana'))[cp - 0xFF61]
        pointer = first_pointer('jis0208').get(cp)
        if pointer is None:
            if state == 'jis0208':
                i -= 1
                state = 'ASCII'
                out += b'\x1b(B'
                continue
            out += b'?'
            continue
        if state != 'jis0208':
            i -= 1
            state = 'jis0208'
            out += b'\x1b$B'
            continue
        out += bytes([pointer // 94 + 0x21, pointer % 94 + 0x21])


def ref_stateless(name: str):
    "The reference encoder of a stateless encoding: code point -> bytes, or None for an error."
    special = {'Shift_JIS': ref_shift_jis, 'EUC-JP': ref_euc_jp, 'EUC-KR': ref_euc_kr,
               'Big5': ref_big5, 'x-user-defined': ref_x_user_defined,
               'GBK': lambda cp: ref_gb18030(cp, True), 'gb18030': lambda cp: ref_gb18030(cp, False)}
    one = special.get(name) or (lambda cp: ref_single_byte(name, cp))
    return lambda cp: one(cp) if scalar(cp) else None


def ref_query(data: bytes) -> str:
    "Step 7 on the reference bytes: escape the query octets (the rest is ASCII, decoded as is)."
    return ''.join(f'%{b:02X}' if b in QUERY_OCTETS.octets else chr(b) for b in data)


def legacy_names() -> list[str]:
    return sorted(set(labels().values()) - {'UTF-8', 'UTF-16BE', 'UTF-16LE', 'replacement'})


def test_archive_is_derived_from_the_source():
    "The shipped archive holds exactly what tools/make_encoding_data.py derives from the source."
    spec = importlib.util.spec_from_file_location('make_data', ROOT / 'tools' / 'make_encoding_data.py')
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    with zipfile.ZipFile(ROOT / 'weburl_nb' / 'data' / DATA_FILE) as archive:
        shipped = {name: archive.read(name) for name in archive.namelist()}
    assert shipped == tool.members(SOURCE)


def test_every_encoding_is_covered():
    assert len(legacy_names()) == 36
    assert set(ASCII_COMPATIBLE_MULTI_BYTE) <= set(legacy_names())


@pytest.mark.parametrize('label,name', [('shift_jis', 'Shift_JIS'), ('euc-jp', 'EUC-JP')])
def test_every_bmp_code_point_in_a_query(label, name):
    "Shift_JIS and EUC-JP: each code point up to U+FFFF alone in a query, as the reference says."
    ref = ref_stateless(name)
    bad = [cp for cp in BMP
           if canonicalize_query(chr(cp), label, True) != ref_query(ref(cp) or b'?')]
    assert not bad, f'{len(bad)} of 65536 differ, first {[hex(c) for c in bad[:10]]}'


def test_every_bmp_code_point_in_an_iso_2022_jp_query():
    "ISO-2022-JP: each code point up to U+FFFF alone in a query, escape sequences included."
    bad = [cp for cp in BMP
           if canonicalize_query(chr(cp), 'iso-2022-jp', True) != ref_query(ref_iso_2022_jp(chr(cp)))]
    assert not bad, f'{len(bad)} of 65536 differ, first {[hex(c) for c in bad[:10]]}'


def test_iso_2022_jp_state_changes():
    "Mixed strings: every switch between ASCII, Roman and jis0208 as the Standard's handler makes it."
    pool = 'a?~\\\x1b\x0e\xa5\u203e\u4e00\u3042\uff71\u2212\u1000\ud800\u2460\u2170'
    rng = random.Random(20261121)
    for _ in range(5000):
        text = ''.join(rng.choice(pool) for _ in range(rng.randrange(1, 12)))
        want = ref_iso_2022_jp(text)
        assert encoder('ISO-2022-JP')(text) == want, repr(text)
        assert codec_encoder('ISO-2022-JP')(text) == want, repr(text)


@pytest.mark.parametrize('name', [n for n in legacy_names() if n != 'ISO-2022-JP'])
def test_every_bmp_code_point(name):
    "Every other encoding: all code points up to U+FFFF, in one string, as the reference says."
    ref = ref_stateless(name)
    text = ''.join(map(chr, BMP))
    expected = b''.join(ref(cp) or b'?' for cp in BMP)
    assert encoder(name)(text) == expected
    assert codec_encoder(name)(text) == expected
    assert canonicalize_query(text, name, True) == ref_query(expected)


def test_gb18030_above_the_bmp():
    "gb18030's four-byte form for a spread of supplementary code points, both ends included."
    ref = ref_stateless('gb18030')
    cps = [*range(0x10000, 0x110000, 97), 0x10FFFF]
    assert encoder('gb18030')(''.join(map(chr, cps))) == b''.join(ref(cp) for cp in cps)
    assert encoder('GBK')('\U00010000\U0010ffff') == b'??'
