"""The engine of percent-encoding and canonicalization (`engine_encoding`) against the steps of
Canonicalization, piece by piece: C8's decoding (both decodings), C8, C7-C8 with the quick exits,
the fragment, user-info and query, the charset labels kept, the rounds of C9 skipped (against the
rounds, on chains of many), and C1-C11 of the engine on every conformance input. Percent-encoding by
runs itself is paired with the plain steps in test_percent_encode.py.

Each comparison must be able to fail: `test_the_comparisons_catch_a_broken_engine` has Hypothesis
find, for a few broken variants of the engine, an input where the variant and the steps differ.
"""
from __future__ import annotations

import pytest
from hypothesis import example, find, given, settings, strategies as st

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
@example('a' * 8191 + '%%41' + '%7e' * 3000, False)      # a block's cut right after a `%`
@example('a' * 8191 + '%%41' + '%7e' * 3000, True)
def test_decode_unreserved(s, literal):
    assert engine.decode_unreserved_by_split(s, literal) == steps.decode_unreserved(s, literal)


@given(paths, st.booleans(), schemes)
def test_encode_path(path, hierarchical, scheme):
    rooted = steps.root_path(path, hierarchical)
    assert engine.encode_path_by_runs(rooted, hierarchical, scheme) == \
        steps.encode_path(rooted, hierarchical, scheme)


@given(st.one_of(st.none(), paths), st.booleans(), schemes)
def test_canonicalize_path(path, hierarchical, scheme):
    assert engine.canonicalize_path_by_runs(path, hierarchical, scheme) == \
        steps.canonicalize_path(path, hierarchical, scheme)


def _literal_answer(path, hierarchical):
    "C8's literal answer for `path` (rooted if hierarchical): where `encode_path` asks the note."
    rooted = steps.root_path(path, hierarchical)
    return steps.percent_encode(steps.decode_unreserved(rooted, literal=True), None, steps.PATH_OCTETS)


# the note's question in every kind of scheme: `file:` (rounds), hierarchical, `mailto:` (not)
NOTE_CASES = [(True, 'file'), (True, 'http'), (False, 'mailto'), (True, None)]
# answers that need each fact of the Claim: dot-segments, `file:` slashes, escapes held back in
# rounds (`%44` after `%2`), escapes nested two deep, the long shapes
SETTLED_PATHS = ['/%2%45/' + 'é' * 3000, '/%2%45', '/%2%45x', '/%2%45%2%45/a', '/a/%2%45', '/%%32%46',
                 '/%2%4%34', '/%%%32%4%35', '/%%%34%4%32/..', '/é%2%4%35', '/%2%5%43', '/%%%33%32%45',
                 '/%2%46%2%46', '/x/%2%45%2%45/', '/%%34%31', '/%%%%34%31%4%35']


@given(paths, st.sampled_from(NOTE_CASES))
@example('/%%%34%31', (True, 'http'))         # `/%%41`: an escape decoding holds back, the loop goes on
def test_path_is_settled_by_escapes(path, case):
    hierarchical, scheme = case
    literal = _literal_answer(path, hierarchical)
    assert engine.path_is_settled_by_escapes(literal, hierarchical, scheme) == \
        steps.path_is_settled(literal, hierarchical, scheme)


@pytest.mark.parametrize('case', NOTE_CASES)
def test_path_is_settled_by_escapes_on_each_fact(case):
    hierarchical, scheme = case
    for path in SETTLED_PATHS:
        literal = _literal_answer(path, hierarchical)
        assert engine.path_is_settled_by_escapes(literal, hierarchical, scheme) == \
            steps.path_is_settled(literal, hierarchical, scheme), (path, case)


@given(paths, st.sampled_from(NOTE_CASES))
def test_a_held_answer_is_c8s_fixed_point(path, case):
    "The flag is the note's verdict, and C7-C8 read a held answer again give it back."
    hierarchical, scheme = case
    rooted = steps.root_path(path, hierarchical)
    answer, held = engine.encode_path_held_back(rooted, hierarchical, scheme)
    assert answer == steps.encode_path(rooted, hierarchical, scheme)
    literal = _literal_answer(path, hierarchical)
    kept = steps.percent_encode(steps.decode_unreserved(rooted), None, steps.PATH_OCTETS)
    assert held == ((hierarchical or scheme == 'mailto') and literal != kept
                    and not steps.path_is_settled(literal, hierarchical, scheme))
    if held:
        assert steps.canonicalize_path(answer, hierarchical, scheme) == answer


# pieces around the cut after the note's reach: its matches, escapes that straddle a cut or that a
# look-behind reads across one, and runs that make the tail long
CUT_PIECES = ['%%', '%4%', '%2%45', '%%41', '%7%41', '%41', '%2E', '%', '%4', 'a', 'é', '/', 'x' * 40,
              'é' * 30, '%C3%A9' * 10, '%41' * 10]


@settings(max_examples=300)
@given(st.lists(st.sampled_from(CUT_PIECES), max_size=16).map(''.join), st.sampled_from(NOTE_CASES))
def test_held_tail_start_cuts_where_the_note_cannot_reach(path, case):
    "C8 with the tail decoded and encoded once is C8 of the whole path; the tail has no match."
    hierarchical, scheme = case
    rooted = steps.root_path(path, hierarchical)
    cut = engine.held_tail_start(rooted)
    assert engine.MAY_MAKE_ESCAPE.search(rooted[cut:]) is None
    assert '%' not in rooted[max(cut - 2, 0):cut] or cut in (0, len(rooted))
    assert engine.encode_path_held_back(rooted, hierarchical, scheme)[0] == \
        steps.encode_path(rooted, hierarchical, scheme)


@pytest.mark.parametrize('path', SETTLED_PATHS)
def test_held_answers_in_the_rounds_of_c9(path):
    "C1-C11 of the engine (a held answer not read again) against the rounds of the steps."
    from weburl_nb.parsing import ParsedURL
    for host in ('', 'localhost', 'c:'):
        u = ParsedURL('file', host=host, path=path, hierarchical=True)
        assert engine.canonicalize_by_engine(u, None, THIS) == steps.canonicalize_checked(u, None, THIS)


@given(st.one_of(st.none(), st.text(st.sampled_from('a #?%\x00\x1f\x7f\x80\x85\x9f\xa0é😀\ud800'))))
def test_canonicalize_fragment(fragment):
    assert engine.canonicalize_fragment_by_runs(fragment) == steps.canonicalize_fragment(fragment)


def _label_outcome(f, label):
    try:
        return f(label)
    except LookupError:
        return LookupError


@given(st.one_of(st.sampled_from(sorted(encoding.labels())), st.text(max_size=12)))
def test_charset_encoding(label):
    assert _label_outcome(engine.cached_charset_encoding, label) == \
        _label_outcome(encoding.charset_encoding, label)
    assert engine.cached_charset_encoding(None) == 'UTF-8'
    for label in [*encoding.labels(), ' SJIS ', 'utf-7', 'ibm037', 'bogus', 'x' * 300, ' utf-8' * 200]:
        assert _label_outcome(engine.cached_charset_encoding, label) == \
            _label_outcome(encoding.charset_encoding, label), label


LEGACY = sorted(set(encoding.labels().values()) - encoding.NOT_ASCII_COMPATIBLE - {'UTF-8'})
# ASCII, the characters that switch ISO-2022-JP's states or that step 2 refuses, characters of
# every table, characters each lacks, gb18030's four-byte forms, lone surrogates
ENCODABLE = ('a?~\\\x00\x1b\x0e\x0f\x7f\x80\xa5\u203e\u2212\uff0d\uff71\u4e00\u3042\u2460\u2170\u1000'
             '\xe9\u20ac\u0416\ud55c\u5341\ue5e5\ue7c7\ue78d\uf780\ud800\U0001f600')
encodable = st.text(st.one_of(st.sampled_from(ENCODABLE), st.characters()), max_size=16)


@given(encodable, st.sampled_from(LEGACY))
def test_codec_encoders_are_the_plain_encoders(s, name):
    from weburl_nb import engine_codecs
    assert engine_codecs.codec_encoder(name)(s) == encoding.encoder(name)(s)


def test_by_character_tells_the_encoders_that_write_each_character_alone():
    "`by_character` of each encoder: whether the plain one writes every pair as its two characters."
    from weburl_nb import engine_codecs
    sample = [c for c in ENCODABLE if not '\ud800' <= c <= '\udfff']
    for name in ['UTF-8', *LEGACY]:
        plain = encoding.encoder(name)
        alone = (all(plain(c) == c.encode('ascii') for c in 'a~\\%') and
                 all(plain(a + b) == plain(a) + plain(b) for a in sample for b in sample))
        assert engine_codecs.by_character(engine_codecs.codec_encoder(name)) == alone, name


@given(st.text(st.sampled_from(ENCODABLE), max_size=24))
def test_iso_2022_jp_by_runs_is_the_plain_encoder(s):
    from weburl_nb import engine_codecs
    assert engine_codecs.iso_2022_jp_by_runs(s) == encoding.encoder('ISO-2022-JP')(s)


users = st.one_of(st.none(), st.text(st.sampled_from('a :@%/é\x00\ud800'), max_size=8))


@given(users, users)
def test_canonicalize_userinfo(user, password):
    assert engine.canonicalize_userinfo_by_runs(user, password) == \
        steps.canonicalize_userinfo(user, password)


@given(st.one_of(st.none(), st.text(st.sampled_from('a =&?#"%\\é表ｱ\x1b\ud800😀'), max_size=12)),
       st.sampled_from([None, 'shift_jis', 'gb18030', 'iso-2022-jp', 'windows-1252', 'utf-16']),
       st.booleans())
def test_canonicalize_query(query, charset, hierarchical):
    assert engine.canonicalize_query_by_runs(query, charset, hierarchical) == \
        steps.canonicalize_query(query, charset, hierarchical)


# C9's rounds: chains of `///` + a segment, mostly spellings of `localhost`, some other hosts,
# drives, escapes and extra slashes, so that the skip starts, stops and starts again
SEGMENTS = st.sampled_from(['///localhost'] * 24 + ['///LOCALHOST', '///%6Cocalhost', '////localhost',
                            '///loc%61lhost', '///h', '///c|', '//localhost', '///localhost/x',
                            '///%2e', '///a%2fb', '/'])
chains = st.tuples(st.sampled_from(['localhost', 'LocalHost', '', 'h']),
                   st.lists(SEGMENTS, max_size=300), st.sampled_from(['', '/x', '///c|/y', '/%7%41']))


def _file_url(host, segments, tail):
    from weburl_nb.parsing import ParsedURL
    return ParsedURL('file', host=host, path=''.join(segments) + tail, hierarchical=True)


@settings(max_examples=60, deadline=None)
@given(chains)
def test_localhost_rounds_skipped_equal_the_rounds(chain):
    u = _file_url(*chain)
    assert engine.canonicalize_by_engine(u, None, THIS) == steps.canonicalize_checked(u, None, THIS)


@settings(max_examples=30, deadline=None)
@given(chains, st.integers(40, 4000))
def test_the_bound_on_rounds_is_the_steps_bound(chain, budget):
    "With a small budget the rounds stop early; the engine's skip stops at the same round."
    u = _file_url(*chain)
    saved = steps.HOSTPATH_BUDGET
    steps.HOSTPATH_BUDGET = budget
    try:
        assert engine.canonicalize_by_engine(u, None, THIS) == steps.canonicalize_checked(u, None, THIS)
    finally:
        steps.HOSTPATH_BUDGET = saved


@pytest.mark.parametrize('budget', [40, 3000, 20_000, 1 << 22])
def test_long_chains_at_every_bound(budget, monkeypatch):
    "Chains of 1 to 400 rounds, in several spellings, around the bound of 16 rounds and beyond."
    monkeypatch.setattr(steps, 'HOSTPATH_BUDGET', budget)
    for n in (1, 2, 15, 16, 17, 18, 40, 400):
        for seg, tail in [('///localhost', '/x'), ('///LOCALHOST', '///c|/y'), ('///%6Cocalhost', ''),
                          ('////localhost', '/%7%41')]:
            u = _file_url('localhost', [seg] * n, tail)
            assert engine.canonicalize_by_engine(u, None, THIS) == \
                steps.canonicalize_checked(u, None, THIS), (budget, n, seg, tail)


def test_explain_answers_a_megabyte_of_rounds():
    "The steps on a 1 MB chain of `///localhost`: bounded rounds, an answer in seconds."
    import time

    from weburl_nb import url_to_canon_url
    from weburl_nb.explain import explain
    url = 'file://localhost' + '///localhost' * 80_000 + '/x'
    t = time.perf_counter()
    result = explain(url).result
    assert time.perf_counter() - t < 30
    assert result == url_to_canon_url(url)


@pytest.mark.skipif(not data_dir().is_dir(), reason="conformance data not found")
def test_canonicalize_by_engine_on_the_conformance_inputs():
    cases = [c for f in files() for c in load(f)]
    for data in ('file://localhost' + '///localhost' * 700 + '/x', 'file:' + '///LocalHost' * 17 + '//c|/y'):
        u = resolve_url(data, parse_url(data))              # more rounds than C9 allows
        assert engine.canonicalize_by_engine(u, None, THIS) == steps.canonicalize_checked(u, None, THIS)
    for c in cases:
        base = parse_url(c.get("base") or c.get("data", ""))
        u = resolve_url(c.get("data", ""), base)
        charset = c.get("charset") or None
        try:
            want = steps.canonicalize_checked(u, charset, THIS)
        except LookupError:
            continue
        assert engine.canonicalize_by_engine(u, charset, THIS) == want, c


def _broken_decode(s, literal=False):
    "The engine's decoding with the note's hold-back lost."
    return engine.decode_unreserved_by_split(s, True)


def _broken_path(path, hierarchical, scheme):
    "C7-C8 with the quick exit taken for any path of kept characters, escapes or not."
    if hierarchical and path and engine._PATH_KEPT.fullmatch(path) is not None:
        return engine._decode_piece(path, engine._LITERAL_ESCAPE_SPLIT)
    return engine.canonicalize_path_by_runs(path, hierarchical, scheme)


def test_the_comparisons_catch_a_broken_engine():
    quiet = settings(database=None, max_examples=5000)
    find(paths, lambda s: _broken_decode(s) != steps.decode_unreserved(s), settings=quiet)
    find(paths, lambda p: _broken_path(p, True, 'http') != steps.canonicalize_path(p, True, 'http'),
         settings=quiet)
