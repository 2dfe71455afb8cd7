"""The keys' route (Keys, "The keys' route"), paired with the steps it stands for.

- `canonical_parts` cuts a canonical URL as `parse_url` does;
- `canonical_with_parts` gives `url_to_canon_url` and `canonical_parts` of it;
- `ia_surt_key` gives `ia_surt_form` of `IA_KEY.apply(parse_url(canon))`, and `surt(url)` the precise
  key that `precise_surt_form` writes from `parse_url`'s fields;
- K1's rounds of `unquote_to_bytes` give the one pass of `_decode_all`.

A fault planted in any of them changes an answer on the corpora, and these tests turn red.
"""
import dataclasses
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weburl_nb import url_to_canon_url
from weburl_nb.keys import (
    IA_KEY,
    _decode_all,
    _decoded,
    canonical_parts,
    canonical_with_parts,
    ia_surt_form,
    ia_surt_key,
    merge_path_segments,
    precise_surt_form,
    surt,
)
from weburl_nb.parsing import parse_url

ROOT = Path(__file__).resolve().parent.parent
BENCH = Path(os.environ.get("WEBURL_BENCHDATA") or ROOT.parent / "shared" / "bench")
PROFILES = ("this", "chrome", "gecko", "ie")
TRIES = ["http://u:p@[::1]:81/a?b#c", "foo://h", "foo://h?x", "mailto:A@b", "file:///c:/x", "http://a.b./",
         "javascript:a#b", "http://www.com/", "http://h/%2e%2E/A/./b//c/?", "http://h/(S(abcdefghijklmnopqrstuvwx))/a.aspx",
         "http://h/?jsessionid=0123456789abcdef0123456789abcdef&b", "http://%2525252541.com/", "http://h:80/",
         "https://h:443/", "http://h/.hidden/x", "http://h/a/..", "http://%2e./x"]


def _corpus(step: int = 5):
    "URLs of the corpora (absolute, links with their pages, messy) as `(url, base, charset)`."
    if not (BENCH / "absolute.txt").is_file():
        pytest.skip(f"the bench corpora are not at {BENCH} (WEBURL_BENCHDATA)")
    import sys
    sys.path.insert(0, str(ROOT / "bench"))
    import messy
    absolute = [(u, None, None) for u in (BENCH / "absolute.txt").read_text(encoding="utf-8").split("\n")[::step] if u]
    pairs = [line.split("\t") for line in (BENCH / "hrefs.tsv").read_text(encoding="utf-8").split("\n")[::step * 4]]
    links = [(href, page, None) for page, href in (p for p in pairs if len(p) == 2)]
    return absolute + links + [(u, None, cs) for _, u, cs in messy.generate(BENCH, 18, 3_000)] + \
        [(u, None, None) for u in TRIES]


@pytest.fixture(scope="module")
def canonical():
    "The canonical URLs of the corpora in the four profiles: `(canon, browser)`."
    out = []
    for browser in PROFILES:
        for url, base, charset in _corpus():
            if (canon := url_to_canon_url(url, base, charset, browser)) is not None:
                out.append((canon, browser))
    return out


def test_canonical_parts_are_parse_urls(canonical):
    for canon, browser in canonical:
        u = parse_url(canon, browser)
        scheme, host, port, path, query = canonical_parts(canon)
        assert (scheme, host, path or None, query) == (u.scheme, u.host, u.path or None, u.query), canon
        assert (port or None) == (u.port or None), canon


def test_the_route_gives_the_steps_key(canonical):
    for canon, browser in canonical:
        u = parse_url(canon, browser)
        parts = canonical_parts(canon)
        for keep_www in (False, True):
            key = IA_KEY if not keep_www else dataclasses.replace(IA_KEY, strip_www=False)
            done = key.apply(u)
            for with_scheme in (False, True):
                want = ia_surt_form(done.scheme or "", done.host, done.port, done.path, done.query, with_scheme)
                assert ia_surt_key(*parts, keep_www, with_scheme) == want, (canon, browser)
        if u.host:
            assert precise_surt_form(*parts) == precise_surt_form(u.scheme, u.host, u.port, u.path, u.query)


def test_the_shape_gives_the_canonical_parts():
    for url, base, charset in _corpus(step=2):
        canon = url_to_canon_url(url, base, charset)
        found = canonical_with_parts(url, base, charset, "this")
        assert found == (None if canon is None else (canon, canonical_parts(canon))), url
        assert surt(url, base, charset) == (None if canon is None else surt(canon)), url


@settings(max_examples=2_000, deadline=None)
@given(st.binary(max_size=24).map(lambda b: bytes(b"%%%0123456789abcdefABCDEF25xy"[c % 29] for c in b)))
def test_k1_rounds_give_the_one_pass(data):
    assert _decoded(data) == bytes(_decode_all(data))


@given(st.text(alphabet="/.a%2", max_size=16))
def test_k3_fast_answer_is_the_steps(path):
    "K3's early return is the answer its loop would give."
    segments = "/" + path
    kept: list[str] = []
    for seg in segments.split("/")[1:]:
        if seg == "..":
            if kept:
                kept.pop()
            else:
                kept.append(seg)
        elif seg != ".":
            kept.append(seg)
    want = "/" if not kept else "/" + "".join(s + "/" for s in kept[:-1] if s) + kept[-1]
    assert merge_path_segments(segments) == want


def test_cc_columns_inline_are_the_columns():
    "`cc_index_columns`' inline route for the canonical shape gives `cc_columns_of_canonical`'s columns."
    from weburl_nb.site_keys import cc_columns_of_canonical, cc_index_columns
    pytest.importorskip("publicsuffixlist")
    for url, base, charset in _corpus(step=3):
        canon = url_to_canon_url(url, base, charset)
        for style in ("precise", "ia"):
            want = None if canon is None else cc_columns_of_canonical(canon, style)
            for _ in range(2):                  # the second call reads the table of origins
                assert cc_index_columns(url, base, charset, surt_style=style) == want, url


def test_cc_tables_stay_bounded(monkeypatch):
    "The tables of origins and hosts hold at most `CACHED_HOSTS` entries, and a full one forgets only answers."
    from weburl_nb import site_keys
    from weburl_nb.site_keys import cc_columns_of_canonical, cc_index_columns
    pytest.importorskip("publicsuffixlist")
    monkeypatch.setattr(site_keys, "CACHED_HOSTS", 5)
    site_keys.clear_site_caches()
    urls = [f"http{'s' * (i % 2)}://www.h{i % 7}.example.co.uk/p{i}?b=1&a" for i in range(40)]
    for _ in range(2):
        for url in urls:
            for style in ("precise", "ia"):
                assert cc_index_columns(url, surt_style=style) == cc_columns_of_canonical(url, style), url
            assert 0 < len(site_keys._ORIGIN_COLUMNS) <= 5 and 0 < len(site_keys._HOST_COLUMNS) <= 5
    site_keys.clear_site_caches()
