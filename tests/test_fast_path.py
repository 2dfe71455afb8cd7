"""The shortcuts of `url_to_canon_url` give exactly the answers of the full algorithms
(`url_to_canon_url_steps`): over every conformance input (with and without its base and charset)
and over the benchmark corpora when they are present (`WEBURL_BENCHDATA`, default `../shared/bench`).
"""
import os
from pathlib import Path

import pytest

from datfile import data_dir, files, load

from weburl_nb.entry import url_to_canon_url, url_to_canon_url_steps

BENCH = Path(os.environ.get("WEBURL_BENCHDATA") or Path(__file__).resolve().parents[2] / "shared" / "bench")


def _mismatches(triples):
    bad = []
    for url, base, charset in triples:
        fast, full = url_to_canon_url(url, base, charset), url_to_canon_url_steps(url, base, charset)
        if fast != full:
            bad.append((url, base, charset, fast, full))
    return bad


@pytest.mark.skipif(not data_dir().is_dir(), reason="conformance data not found")
def test_conformance_inputs():
    triples = set()
    cases = [c for f in files() for c in load(f)]
    bases = {c.get("base") for c in cases if c.get("base")} | {None}
    for c in cases:
        data, base, charset = c.get("data", ""), c.get("base") or None, c.get("charset") or None
        for b in {base, None, "http://example.com/a/b?q#f"}:
            triples.add((data, b, charset))
            triples.add((data, b, None))
    for base in bases:                          # every base as a URL of its own, and as a base of a few links
        for link in ("", "x", "../y?q", "#f", "/a/./b"):
            triples.add((link, base, None))
    bad = _mismatches(sorted(triples, key=repr))
    assert not bad, f"{len(bad)} mismatches, first: {bad[:3]}"


@pytest.mark.skipif(not (BENCH / "hrefs.tsv").is_file(), reason="benchmark corpora not found")
def test_bench_corpora():
    triples = []
    with open(BENCH / "hrefs.tsv", encoding="utf-8", newline="\n") as f:
        for line in f:
            base, _, href = line.rstrip("\n").partition("\t")
            triples.append((href, base, None))
    with open(BENCH / "absolute.txt", encoding="utf-8", newline="\n") as f:
        triples += [(line.rstrip("\n"), None, None) for line in f]
    bad = _mismatches(triples)
    assert not bad, f"{len(bad)} mismatches, first: {bad[:3]}"


def test_base_info_parse():
    "The cached parse of a base equals `parse_url`, also when the regular expression built it."
    from weburl_nb.shortcuts import base_record
    from weburl_nb.parsing import parse_url
    texts = {"http://a/b", "HTTPS://Ex.com?q#f", "ws://h", "ftp://h//x/../y"}
    if data_dir().is_dir():
        texts |= {c.get(k) for f in files() for c in load(f) for k in ("data", "base") if c.get(k)}
    if (BENCH / "hrefs.tsv").is_file():
        with open(BENCH / "hrefs.tsv", encoding="utf-8", newline="\n") as f:
            texts |= {line.partition("\t")[0] for line in f}
    bad = [t for t in texts if base_record(t).parsed != parse_url(t)]
    assert not bad, bad[:5]


def test_random_urls_of_the_shortcut_shapes():
    "30,000 random absolute URLs and relative links built to hit the shortcuts, against random bases."
    import random
    rng = random.Random(1234)
    seg = ["a", "B", ".", "..", "%2e", "%2E.", "%41", "%7e", "%zz", "", "x y", "ü", "\\", ";p=1", "~u", "%"]
    tail = ["", "?", "?q=1", "?a b", "?ü", "#", "#f", "#a b", "?q#f", "#\x85"]
    hosts = ["a", "EXAMPLE.com", "xn--4gq.jp", "1.2.3.4", "0x7f.1", "[::1]", "a..b", "a%2eb", "%41b", "h_1", "-a-"]
    schemes = ["http", "HTTPS", "ws", "ftp", "gopher", "x-y", "file", "mailto", "a"]

    def path(n):
        return "".join("/" + rng.choice(seg) for _ in range(n))

    def absolute():
        return f"{rng.choice(schemes)}://{rng.choice(hosts)}{path(rng.randint(0, 4))}{rng.choice(tail)}"

    triples = []
    for _ in range(10000):
        triples.append((absolute(), None, None))
        base = absolute()
        link = rng.choice(["", "../" * rng.randint(1, 3), "./", "/", "\\"]) + path(rng.randint(0, 3))[1:] + rng.choice(tail)
        triples.append((link, base, rng.choice([None, "euc-jp"])))
        triples.append((absolute(), base, None))
    bad = _mismatches(triples)
    assert not bad, f"{len(bad)} mismatches, first: {bad[:3]}"
