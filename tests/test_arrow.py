"""The Arrow tiers (`weburl_nb.arrow`, nbs/12b_arrow.ipynb) paired with the Python shapes and with
`url_to_canon_url`: the pairing tests of `make proofs` for `identity_tier`, `repair_tier`,
`link_prefixes`, `link_tier`, `after_identity` and `canonicalize_arrow`.

Shape inclusion is shown exhaustively over a generated set: every string of up to three characters
over a sample alphabet holding a character of each class the patterns tell apart, put in each part
of a URL (and alone), and the corpus's URLs. The RE2 pattern of the canonical shape must accept
exactly what `already_canonical` accepts there; the clean-link pattern only what `_clean_shape`
takes, of the same kind and steps. Then the differential: the benchmark corpora
(`WEBURL_BENCHDATA`), a seeded messy corpus and Hypothesis's URLs, 0 answers different from
`url_to_canon_url`.
"""
import itertools
import random

import pytest

pa = pytest.importorskip("pyarrow")
import numpy as np  # noqa: E402
import pyarrow.compute as pc  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_tiers import absolute_urls, href_pairs, messy_urls, needs_bench  # noqa: E402

from weburl_nb.arrow import (  # noqa: E402
    CANONICAL_URL_RE2,
    CLEAN_LINK_RE2,
    ENCODED_LINK_RE2,
    REPAIR_RE2,
    SMALL_BATCH,
    _base_index,
    _kinds,
    after_identity,
    canonicalize_arrow,
    identity_tier,
    link_prefixes,
    link_tier,
    matches,
    repair_tier,
)
from weburl_nb.entry import url_to_canon_url  # noqa: E402
from weburl_nb.shortcuts import (  # noqa: E402
    NO_SHORTCUT,
    _canonical_base,
    _clean_shape,
    _encoded_shape,
    already_canonical,
    unchanged_url,
)

# one character (or more) of each class the shapes tell apart: lower and upper letters, `x` (of
# `0x`), hex digits, digits, the separators, the characters of some classes and not others
# (`-_~+`, `@[]`, `^|{}`), space, backslash, a newline, non-ASCII (no lone surrogate: Arrow refuses it)
ALPHABET = list("aexAF0124579.-_~+/:?#%@[^|{\\ \n") + ["\u00e9", "\u017f"]
TEMPLATES = ["{}", "{}://h/", "h{}://h/", "http://{}/", "http://a.{}/", "http://{}a/", "http://h{}",
             "http://h/{}", "http://h/a{}b", "http://h/?{}", "http://h/#{}", "http://h/?a/{}#/{}"]


def generated(k: int = 3) -> list[str]:
    "Every string of up to `k` characters of `ALPHABET`, in every template."
    words = ["".join(p) for n in range(k + 1) for p in itertools.product(ALPHABET, repeat=n)]
    return [t.format(w, w) for t in TEMPLATES for w in words]


def batches(strings: list, size: int = 4000):
    "`strings` in Arrow arrays of `size` rows (the tiers run once a batch)."
    return [pa.array(strings[i:i + size]) for i in range(0, len(strings), size)]


def test_identity_tier_is_the_python_shape():
    strings = generated() + absolute_urls(20000)
    re2 = [t for b in batches(strings, 20000) for t in identity_tier(b).to_pylist()]
    python = [already_canonical(s) for s in strings]
    differ = [s for s, a, b in zip(strings, re2, python, strict=True) if a != b]
    assert not differ, differ[:10]
    assert sum(re2) > 15000                     # it takes the canonical URLs
    corpus = absolute_urls(20000)
    taken = [u for u, t in zip(corpus, identity_tier(pa.array(corpus)).to_pylist(), strict=True) if t]
    assert [url_to_canon_url(u) for u in taken] == taken


def test_clean_links_are_python_clean_links():
    strings = [t.format(w) for t in ["{}", "../{}", "../../{}", "/{}", "?{}", "#{}", "a/{}", "{}/b"]
               for w in ("".join(p) for n in range(4) for p in itertools.product(ALPHABET, repeat=n))]
    links = pa.array(strings)
    accepted = (matches(links, CLEAN_LINK_RE2).to_numpy(zero_copy_only=False)
                | matches(links, ENCODED_LINK_RE2).to_numpy(zero_copy_only=False))
    kinds = _kinds(links, accepted)
    names = ["fragment", "query", "rooted", "absolute"]
    for s, ok, kind in zip(strings, accepted, kinds, strict=True):
        if not ok:
            continue
        shape = _clean_shape(s) or _encoded_shape(s)
        assert shape is not None, s
        assert shape.kind == (names[kind] if kind < 4 else "relative"), s
        assert shape.steps == max(kind - 4, 0), s
    assert accepted.sum() > 100000


def _repairs(urls: list[str]) -> tuple[list[str], list[str]]:
    "The URLs `repair_tier` takes (its shape, and canonical once repaired), and its answers."
    cand = matches(pa.array(urls), REPAIR_RE2)
    rows = pa.array(urls).filter(cand)
    repaired = repair_tier(rows)
    ok = identity_tier(repaired)
    return rows.filter(ok).to_pylist(), repaired.filter(ok).to_pylist()


def variants(url: str, rng: random.Random) -> str:
    "`url` with its scheme and host in mixed case, a port, or no path."
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    mixed = "".join(c.upper() if rng.random() < 0.4 else c for c in scheme + sep + host)
    port = rng.choice(["", ":", ":80", ":443", ":21", ":8080", ":080", ":0"])
    path = rng.choice([slash + path, "", "?" + path, "#x"])
    return mixed + port + path


@needs_bench
def test_repair_tier_equals_url_to_canon_url():
    rng = random.Random(40)
    urls = [variants(u, rng) for u in absolute_urls(20000)]
    taken, answers = _repairs(urls)
    assert answers == [url_to_canon_url(u) for u in taken]
    assert len(taken) > 0.3 * len(urls)          # it takes the repairable ones
    check_repairs()


HOSTS = st.lists(st.sampled_from(list("aAzZ09-_.~xXkK") + ["\u212a", "\u017f", "%41", "xn--", "XN--"]),
                 max_size=8).map("".join)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.sampled_from(["http", "HTTP", "hTTps", "ftp", "WS", "wss", "FILE", "Mailto", "a1",
                                           "git+SSH", "x.y", "1a"]), HOSTS,
                          st.sampled_from(["", ":", ":80", ":443", ":21", ":23", ":70", ":513", ":0080", ":99999"]),
                          st.lists(st.sampled_from(list("/aZ.%2e?#:@ ") + ["%2F", "%41", "\u00e9"]),
                                   max_size=8).map("".join)),
                min_size=1, max_size=40))
def check_repairs(parts):
    urls = [f"{s}://{h}{p}{r}" for s, h, p, r in parts]
    taken, answers = _repairs(urls)
    assert answers == [url_to_canon_url(u) for u in taken]


def test_link_prefixes_are_canonical_base_parts():
    bases = [b for _, b in href_pairs(20000)] + ["http://h/", "http://h/a?q", "http://h/a#f", "HTTP://h/"]
    distinct = list(dict.fromkeys(bases))
    steps = 6
    lengths = np.concatenate([link_prefixes(b, steps) for b in batches(distinct, 500)])
    for base, row in zip(distinct, lengths.tolist(), strict=True):
        b = _canonical_base(base)
        want = [None] * (5 + steps) if b is None else [
            b.through_query, b.through_path, b.origin, "", b.directory,
            *(b.origin + b.path.rsplit("/", k + 1)[0] + "/" for k in range(1, steps + 1))]
        assert [None if n < 0 else base[:n] for n in row] == want, base


def _link_answers(links, bases) -> list:
    "`link_tier`'s answers on the rows it takes, and `url_to_canon_url`'s on them."
    index, distinct = _base_index(pa.array(bases), len(links))
    out, taken = link_tier(pa.array(links), index, distinct)
    rows = np.flatnonzero(taken)
    got = out.to_pylist()
    return got, [url_to_canon_url(links[i], bases[i]) for i in rows]


@needs_bench
def test_link_tier_equals_url_to_canon_url():
    pairs = href_pairs(50000)
    got, want = _link_answers([h for h, _ in pairs], [b for _, b in pairs])
    assert got == want
    assert len(got) > 0.9 * len(pairs)
    check_links()


LINK_PARTS = ["a", "b.c", "..", ".", "../", "%41", "%2e", "%20", ":", "a:b", "?", "#", "/", "//", " ", "\u00e9",
              "x=1&y", "{f}"]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.lists(st.sampled_from(LINK_PARTS), max_size=6).map("".join),
                          st.sampled_from(["http://h/a/b/c?q#f", "http://h/", "https://x.y/a/", "http://h/a/b",
                                           "HTTP://h/", "http://h/a?q", "http://h/./a", "mailto:x", None])),
                min_size=1, max_size=40))
def check_links(pairs):
    got, want = _link_answers([h for h, _ in pairs], [b for _, b in pairs])
    assert got == want


def _same(urls, bases=None, **kw):
    "`canonicalize_arrow` against the loop on the same rows."
    out = canonicalize_arrow(pa.array(urls), bases if bases is None or isinstance(bases, str)
                             else pa.array(bases), **kw).to_pylist()
    want = [None if u is None else url_to_canon_url(u, bases if bases is None or isinstance(bases, str)
                                                    else bases[i], **kw) for i, u in enumerate(urls)]
    differ = [(u, a, b) for u, a, b in zip(urls, out, want, strict=True) if a != b]
    assert not differ, differ[:5]


@needs_bench
def test_canonicalize_arrow_equals_url_to_canon_url():
    urls = absolute_urls(50000)
    _same(urls)
    messy = messy_urls(40, 6000)
    _same([u for u, _ in messy])
    _same([u for u, c in messy if c is None][:500], charset="windows-1251")
    _same(urls[:SMALL_BATCH + 1000], browser="chrome")
    pairs = href_pairs(50000)
    _same([h for h, _ in pairs], [b for _, b in pairs])
    _same([h for h, _ in pairs][:SMALL_BATCH + 1000], "http://h/a/b?c")
    _same([h for h, _ in pairs][:500], [b for _, b in pairs][:500], browser="gecko")


def test_nulls_slices_chunks_and_types():
    urls = ["HTTP://A/", None, "http://h/", "http://h/a/../b", None, "x y"] * (SMALL_BATCH // 2)
    want = [None if u is None else url_to_canon_url(u) for u in urls]
    arr = pa.array(urls)
    assert canonicalize_arrow(arr).to_pylist() == want
    assert canonicalize_arrow(arr[7:]).to_pylist() == want[7:]                       # a slice
    chunked = pa.chunked_array([arr[:5], arr[5:]]).cast(pa.large_string())
    out = canonicalize_arrow(chunked)
    assert isinstance(out, pa.ChunkedArray) and out.type == pa.large_string() and out.to_pylist() == want
    bases = pa.array(["http://h/x", None] * (len(urls) // 2))
    links = pa.array(["../y" if u is None else u for u in urls])
    assert canonicalize_arrow(links, pc.dictionary_encode(bases)).to_pylist() == canonicalize_arrow(
        links, bases).to_pylist() == [url_to_canon_url(u, b) for u, b in zip(links.to_pylist(),
                                                                            bases.to_pylist(), strict=True)]
    with pytest.raises(TypeError, match="must be a pyarrow string"):
        canonicalize_arrow(pa.array([1]))
    with pytest.raises(ValueError, match="page URLs"):
        canonicalize_arrow(links, bases[:3])
    assert canonicalize_arrow(pa.array([], pa.string())).to_pylist() == []
    assert CANONICAL_URL_RE2.startswith("^") and CANONICAL_URL_RE2.endswith("$")


def mutants(urls: list[str], n: int, seed: int = 40) -> list[str]:
    "`n` seeded mutants of `urls`: characters of the sample alphabet and `../`, `%2e`, `:80` put in, cut, case flipped."
    rng = random.Random(seed)
    pieces = ALPHABET + ["../", "./", "%2e", "%2E", "%41", "%7e", ":80", ":", "//", "@", "XN--", "\u212a"]
    out = []
    for _ in range(n):
        u = rng.choice(urls)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(u) + 1)
            op = rng.random()
            if op < 0.5:
                u = u[:i] + rng.choice(pieces) + u[i:]
            elif op < 0.75:
                u = u[:i] + u[i + rng.randint(1, 4):]
            else:
                u = u[:i] + u[i:i + 8].swapcase() + u[i + 8:]
        out.append(u)
    return out


@needs_bench
def test_mutants_equal_url_to_canon_url():
    urls = absolute_urls(20000)
    _same(mutants(urls, 40000))
    pairs = href_pairs(20000)
    links = mutants([h for h, _ in pairs], 20000, seed=41)
    _same(links, [pairs[i % len(pairs)][1] for i in range(len(links))])


@needs_bench
def test_after_identity_equals_url_to_canon_url():
    messy = messy_urls(40, 6000)
    urls = [u for u, _ in messy] + mutants(absolute_urls(5000), 10000) + generated(2)
    taken = [t for b in batches(urls, 20000) for t in identity_tier(b).to_pylist()]
    left = [u for u, t in zip(urls, taken, strict=True) if not t]
    assert len(left) > 0.5 * len(urls)
    assert [u for u in left if unchanged_url(u, None, None) is not NO_SHORTCUT] == []
    differ = [u for u in left if after_identity(u) != url_to_canon_url(u)]
    assert not differ, differ[:5]
    legacy = [u for u, c in messy if c is not None] + left[:3000]
    differ = [u for u in legacy if after_identity(u, "windows-1251") != url_to_canon_url(u, None, "windows-1251")]
    assert not differ, differ[:5]
