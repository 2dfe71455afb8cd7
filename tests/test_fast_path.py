"""The shortcuts of `url_to_canon_url` give exactly the answers of the full algorithms
(`url_to_canon_url_steps`): over every conformance input (with and without its base and charset),
over the benchmark corpora when they are present (`WEBURL_BENCHDATA`, default `../shared/bench`), the
messy corpus of issue 18 made from them (`bench/messy.py`), and random URLs built for each tier.
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


MESSY = Path(__file__).resolve().parents[1] / "bench" / "messy.py"


@pytest.mark.skipif(not (BENCH / "absolute.txt").is_file(), reason="benchmark corpora not found")
@pytest.mark.parametrize("seed", [18, 1018, 7])
def test_messy_corpus(seed):
    "The messy corpus of issue 18 (real URLs given 1-3 faults each), three seeds, 4,000 URLs each."
    import importlib.util
    spec = importlib.util.spec_from_file_location("messy", MESSY)
    messy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(messy)
    items = messy.generate(BENCH, seed, 4000)
    bad = _mismatches([(url, None, charset) for _, url, charset in items])
    bad += _mismatches([(url, "http://example.com/a/b?q", charset) for _, url, charset in items[::4]])
    assert not bad, f"{len(bad)} mismatches, first: {bad[:3]}"


def second_tier_urls(rng, n):
    "`n` random absolute URLs of the second tier's shape (and near it), with the faults it repairs."
    schemes = ["http", "HTTP", "Https", "ws", "wss", "ftp", "gopher", "x-y", "git+ssh", "file", "FILE", "FiLe",
               "mailto", "a"]
    seps = ["://", ":\\\\", ":/\\", ":\\/", ":///", ":/", "://\\"]
    users = ["", "", "", "u@", "u:@", ":@", "@", "u:p@", "a b:c%41@", "\u00fc@", "u:p:q@"]
    hosts = ["example.com", "EXAMPLE.Com", "b\u00fccher.de", "xn--4gq.jp", "1.2.3.4", "0x7f.1", "3232235777",
             "010.0.0.1", "[::1]", "[0:0:0:0:0:0:0:1]", "[::FFFF:1.2.3.4]", "a..b", "a%2eb", "%41b", "h_1",
             "", "a b", "a%2fb", "\u6771\u4eac\u3002jp", "h:", "[::1", "a\tb", "ex.com.", "-a-"]
    ports = ["", "", ":80", ":443", ":0080", ":8080", ":", ":99999", ":8o", ":21"]
    seg = ["a", "B", ".", "..", "%2e", "%2E%2e", ".%2E", "%41", "%7e", "%7E", "%zz", "%", "", "x y", "\u00fc",
           "\\", ";p=1", "~u", "%c3%A9", "%2F", "a\tb", "\u65e5\u672c",
           ".x", "a.b", "..y", "%2Fx", "%2", "%2e.", "x%2E"]                # near the quick exits' tests
    tails = ["", "?", "?q=1", "?a b", "?\u00fc+\u65e5=1&x", "#", "#f", "#a b", "?q#f", "#\x85", "?%41#%41", "#\u00e9"]
    out = []
    for _ in range(n):
        path = "".join(rng.choice(["/", "\\"]) + rng.choice(seg) for _ in range(rng.randint(0, 4)))
        url = (rng.choice(schemes) + rng.choice(seps) + rng.choice(users) + rng.choice(hosts)
               + rng.choice(ports) + path + rng.choice(tails))
        out.append(rng.choice(["", " ", "\t", "\x0c"]) + url + rng.choice(["", " ", "\n", "\r\n"]))
    return out


def test_random_urls_of_the_second_tier_shapes():
    "30,000 random absolute URLs of the second tier's shapes, alone, against a base, in a charset."
    import random
    rng = random.Random(18)
    urls = second_tier_urls(rng, 20000)
    triples = [(u, None, None) for u in urls]
    triples += [(u, rng.choice(["http://h/a/b", "https://x.org/", "mailto:m@x", "file:///c:/d"]),
                 rng.choice([None, "shift_jis", "windows-1252", "gb18030"])) for u in urls[:10000]]
    bad = _mismatches(triples)
    assert not bad, f"{len(bad)} mismatches, first: {bad[:3]}"


def test_random_file_urls_and_windows_paths():
    """20,000 random `file:` URLs, drive paths and UNC paths on and near `file_shape`'s shape (inside
    `parsed_once`): drives as `C:` and `C|`, `localhost`, hosts that change, dot-segments, `//`."""
    import random
    rng = random.Random(1800)
    heads = ["file:///", "FILE:///", "file://localhost/", "file://LocalHost", "file://srv/", "file://SRV.example/",
             "file://0x7f.1/", "file://1.2.3/", "file://xn--4gq.jp/", "file://a..b/", "file://-/", "file:////",
             "file:/", "file:", "file:\\\\", "c:\\", "D:/", "c:", "\\\\srv\\", "\\\\Srv/",
             "\\\\localhost\\", "\\\\\\srv\\", "\\\\0x7f.1\\", "file:D:", "file:/c|", "file:\\C:", "file:d|\\", "file:/"]
    seg = ["a", "B", "x.html", ".", "..", "%2e", ".git", "C:", "c|", "Z:", "%41", "%7C", "|", "", "a b", "é", "~",
           "a:b", "localhost", "%3F", "%E4%be", "%25", "%zz", "%", "%2F", "%5c", "%3a", "%2", "%7e",
           "\u6771\u4eac", "\U0001f600", "\ufdd0", "\u00e9:", "%3\u00e9", "\u0130", "%61%62", "%%41", "%4%41", "%2541", "a%2Eb", "%2E%2e"]
    tail = ["", "?", "?q=1", "?é", "?a b", "#", "#f", "#é", "?q#f", "#\x85"]
    urls = []
    for _ in range(10000):
        path = rng.choice(["", "C|", "c:", "D|/", "%2e"]) + "".join(
            rng.choice(["/", "\\"]) + rng.choice(seg) for _ in range(rng.randint(0, 4)))
        urls.append(rng.choice(["", " ", "\t"]) + rng.choice(heads) + path + rng.choice(tail))
    triples = [(u, None, None) for u in urls]
    triples += [(u, None, rng.choice(["shift_jis", "windows-1252", "big5"])) for u in urls]
    bad = _mismatches(triples)
    assert not bad, f"{len(bad)} mismatches, first: {bad[:3]}"


def test_random_links_against_canonical_bases():
    """20,000 random links on and near the clean shapes, those whose path needs percent-encoding
    among them, each against two already-canonical bases: `_link_shape` caches a link's reading
    across bases and charsets, so a link met again must still get the steps' answer."""
    import random
    rng = random.Random(18)
    seg = ["a", "x.html", "{f}", "${f}", "|", "^", '"', "<b>", "`", "..", ".", ".a", "a.", "%7B", "%41",
           "%2e", " ", "é", "\\", ":", "a:b", "1:x", ""]
    tail = ["", "?", "?q={x}", "?a b", "?é", "#", "#f{}", "#é", "?q#f"]
    heads = ["", "", "/", "../", "../../", "../../../../", "./", "//", "../.", "?", "#"]
    bases = ["https://example.com/a/b/c.html?q#f", "http://h/", "https://ex.org/x/y/", "ws://h.example/a?b"]
    triples = []
    for _ in range(10000):
        link = (rng.choice(heads) + "/".join(rng.choice(seg) for _ in range(rng.randint(0, 3)))
                + rng.choice(tail))
        for base in rng.sample(bases, 2):
            triples.append((link, base, rng.choice([None, None, "euc-jp"])))
    bad = _mismatches(triples)
    assert not bad, f"{len(bad)} mismatches, first: {bad[:3]}"


def test_host_addresses():
    """THIS reads a plainly written address with steps 25 and 27 alone, before its host cache: random
    IPv4 numbers and IPv6 groups, in and out of range, give the steps' answer (twice: those that the
    steps take go through the cache), and a `Recording` still sees the steps."""
    import random
    from weburl_nb.engine_hosts import _HOST_CACHES, canonicalize_host
    from weburl_nb.host import THIS, canonicalize_host_steps
    from weburl_nb.trace import Recording
    _HOST_CACHES[id(THIS)][1].cache_clear()
    rng = random.Random(25)
    parts = ["0", "1", "255", "256", "0x7F", "0XfF", "0x", "017", "08", "4294967295", "4294967296", "a", ""]
    groups = ["0", "1", "ffff", "ABCD", "db8", "12345", "g", "", "1.2.3.4", "01.02.03.004", "256.1.1.1"]
    hosts = [".".join(rng.choice(parts) for _ in range(rng.randint(1, 5))) for _ in range(4000)]
    hosts += ["[" + ":".join(rng.choice(groups) for _ in range(rng.randint(1, 9))) + "]" for _ in range(4000)]
    hosts += [h.replace(":", "::", 1) for h in hosts[-400:]] + ["[::]", "[::FFFF:1.2.3.4]", "[::1]x", "[]"]
    bad = [(h, s) for h in hosts for s in ("http", "file") for _ in range(2)
           if canonicalize_host(h, s) != canonicalize_host_steps(h, s)]
    assert not bad, bad[:5]
    with Recording() as r:
        assert canonicalize_host("[0:0::1]", "http") == "[::1]"
    assert "25" in [s.number for s in r.steps if s.section == "host"]


def test_bracketed_authorities():
    """The repair tier takes an authority with no `@` that starts with `[` and ends with `]` as all
    host, without `split_authority`: random authorities of brackets, colons, `@`, hex and other
    characters, with and without a port, give the steps' answer."""
    import random
    rng = random.Random(362)
    chars = "[]:@1aF.%x "
    urls = ["http://[" + "".join(rng.choice(chars) for _ in range(rng.randint(0, 8)))
            + rng.choice(["]", "", "]]", "]:80", ":]"]) + rng.choice(["/p", "", "?q"])
            for _ in range(20000)]
    bad = _mismatches([(u, None, None) for u in urls])
    assert not bad, f"{len(bad)} mismatches, first: {bad[:3]}"
