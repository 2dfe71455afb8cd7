"""Each tier of Shortcuts paired with the steps, one test a piece (the pairing tests of `make proofs`).

`test_fast_path.py` proves the whole engine equal to the steps; here each tier function is called
on its own, on inputs of its shape and near it, and every answer it gives (anything but
`NO_SHORTCUT`) must be the steps' answer. Each test also asks that the tier take its share of the
inputs it is meant for: a tier that declines what it should take changes no answer, but it is no
longer the piece its Claim describes. The inputs: the benchmark corpora when present
(`WEBURL_BENCHDATA`, default `../shared/bench`), the messy corpus made from them, and the random
URLs of `test_fast_path.py`, all from fixed seeds.
"""
import importlib.util
import random

import pytest
from test_fast_path import BENCH, MESSY, second_tier_urls

from weburl_nb.engine_preprocess import preprocess_if_needed
from weburl_nb.entry import url_to_canon_url_steps
from weburl_nb.shortcuts import (
    NO_SHORTCUT,
    already_canonical,
    base_record,
    clean_link,
    fast_relative,
    file_shape,
    parsed_once,
    repaired_absolute,
    unchanged_url,
)

needs_bench = pytest.mark.skipif(not (BENCH / "absolute.txt").is_file(), reason="benchmark corpora not found")


def _lines(name: str, n: int) -> list[str]:
    with open(BENCH / name, encoding="utf-8") as f:
        return [line.rstrip("\n") for _, line in zip(range(n), f, strict=False)]


def absolute_urls(n: int = 4000) -> list[str]:
    return _lines("absolute.txt", n)


def href_pairs(n: int = 4000) -> list[tuple[str, str]]:
    "`(link, base)` pairs of the hrefs corpus."
    return [(h, b) for b, _, h in (line.partition("\t") for line in _lines("hrefs.tsv", n))]


def messy_urls(seed: int = 18, n: int = 3000) -> list[tuple[str, str | None]]:
    "`(url, charset)` of the messy corpus."
    spec = importlib.util.spec_from_file_location("messy", MESSY)
    messy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(messy)
    return [(url, charset) for _, url, charset in messy.generate(BENCH, seed, n)]


def random_links(n: int, seed: int = 18) -> list[str]:
    "Links on and near the clean shapes (those whose path needs percent-encoding among them)."
    rng = random.Random(seed)
    seg = ["a", "x.html", "{f}", "${f}", "|", "^", '"', "<b>", "`", "..", ".", ".a", "a.", "%7B", "%41",
           "%2e", " ", "\u00e9", "\\", ":", "a:b", "1:x", ""]
    tail = ["", "?", "?q={x}", "?a b", "?\u00e9", "#", "#f{}", "#\u00e9", "?q#f"]
    heads = ["", "", "/", "../", "../../", "../../../../", "./", "//", "../.", "?", "#", "http://h/"]
    return [rng.choice(heads) + "/".join(rng.choice(seg) for _ in range(rng.randint(0, 3))) + rng.choice(tail)
            for _ in range(n)]


def random_file_urls(n: int, seed: int = 1800) -> list[str]:
    "`file:` URLs, drive paths and UNC paths on and near `file_shape`'s shape."
    rng = random.Random(seed)
    heads = ["file:///", "FILE:///", "file://localhost/", "file://srv/", "file://SRV.example/", "file:////",
             "file:/", "file:", "c:\\", "D:/", "\\\\srv\\", "\\\\localhost\\", "file:D:", "file:/c|"]
    seg = ["a", "B", "x.html", ".", "..", "%2e", "C:", "c|", "%41", "|", "", "a b", "\u00e9", "~", "%3F",
           "%25", "%zz", "%", "%2F", "%5c", "\u6771\u4eac", "%61%62", "%%41"]
    tail = ["", "?", "?q=1", "?\u00e9", "#", "#f", "?q#f"]
    return [rng.choice(["", " ", "\t"]) + rng.choice(heads) + rng.choice(["", "C|", "c:", "D|/"])
            + "".join(rng.choice(["/", "\\"]) + rng.choice(seg) for _ in range(rng.randint(0, 4)))
            + rng.choice(tail) for _ in range(n)]


def check_tier(tier, triples) -> float:
    "Every answer of `tier` on `(url, base, charset)` is the steps'; the share it takes."
    taken, bad = 0, []
    for url, base, charset in triples:
        out = tier(url, base, charset)
        if out is NO_SHORTCUT:
            continue
        taken += 1
        if out != url_to_canon_url_steps(url, base, charset):
            bad.append((url, base, charset, out))
    assert not bad, f"{len(bad)} answers differ from the steps, first: {bad[:3]}"
    return taken / max(1, len(triples))


@needs_bench
def test_already_canonical_is_sound_and_takes_the_canonical_urls():
    urls = absolute_urls() + [u for u, _ in messy_urls()] + second_tier_urls(random.Random(5), 3000)
    claimed = [u for u in urls if already_canonical(u)]
    wrong = [u for u in claimed if url_to_canon_url_steps(u) != u]
    assert not wrong, wrong[:3]
    unchanged = [u for u in absolute_urls() if url_to_canon_url_steps(u) == u]
    assert sum(map(already_canonical, unchanged)) >= 0.95 * len(unchanged)


@needs_bench
def test_unchanged_url_tier():
    triples = [(u, None, None) for u in absolute_urls()]
    triples += [(u, None, c) for u, c in messy_urls()]
    triples += [(u, None, None) for u in second_tier_urls(random.Random(6), 3000)]
    assert check_tier(unchanged_url, triples) >= 0.3     # 0.40 here


@needs_bench
def test_clean_link_tier():
    "`clean_link`, that is `_clean_shape` and `_encoded_shape` behind `_link_shape`."
    bases = ["https://example.com/a/b/c.html?q#f", "http://h/", "https://ex.org/x/y/", "ws://h.example/a?b"]
    links = random_links(6000)
    rng = random.Random(3)
    triples = [(h, b, None) for h, b in href_pairs()]
    triples += [(link, rng.choice(bases), rng.choice([None, "euc-jp"])) for link in links]
    assert check_tier(clean_link, triples) >= 0.45       # 0.57 here
    encoded = [(link, bases[0], None) for link in links if any(c in link for c in "{}|^\"<>`")]
    assert check_tier(clean_link, encoded) >= 0.25       # 0.32 here: `_encoded_shape`'s links


@needs_bench
def test_fast_relative_tier_and_base_record():
    bases = ["https://Example.com:443/a/b/c.html?q#f", "http://u:p@h:8080/", "HTTP://EX.org/x/y/",
             "http://b\u00fccher.de/a/", "ws://h.example/a?b", "http://[::1]/p/q", "mailto:m@x", "file:///c:/d"]
    rng = random.Random(4)
    triples = [(h, b, None) for h, b in href_pairs()]
    triples += [(link, rng.choice(bases), rng.choice([None, "shift_jis"])) for link in random_links(6000, 7)]
    assert check_tier(fast_relative, triples) >= 0.6    # 0.75 here
    file_links = ["c:/x", "c|/x", "/c|/d", "x%2Fy/../z", "..%2f..%2fx", "D|", "a", "../b?q"]
    file_bases = ["file://srv/share/a/b", "FILE://SRV/x/y", "file://h.example/c:/a/", "file://s/"]
    check_tier(fast_relative, [(h, b, None) for h in file_links for b in file_bases])   # left alone
    for base in bases + [b for _, b in href_pairs(300)]:
        record = base_record(base)
        if record.authority is not None:              # the base's canonical scheme and authority
            canonical = url_to_canon_url_steps("", base)
            assert canonical.startswith(f"{record.scheme}:")
            host = record.authority[2]
            assert host is not None and host in canonical


@needs_bench
def test_repaired_absolute_tier():
    rng = random.Random(8)
    triples = [(u, None, c) for u, c in messy_urls(1018)]
    triples += [(u, None, None) for u in second_tier_urls(rng, 6000)]
    triples += [(u, "http://h/a/b", rng.choice([None, "windows-1252"])) for u in second_tier_urls(rng, 2000)]
    assert check_tier(repaired_absolute, triples) >= 0.4    # 0.51 here


def test_file_shape():
    "`file_shape` reads preprocessed text: each answer it gives is the steps' for the URL."
    rng = random.Random(9)
    taken, bad, urls = 0, [], random_file_urls(8000)
    for url in urls:
        charset = rng.choice([None, None, "big5"])
        out = file_shape(preprocess_if_needed(url), charset)
        if out is NO_SHORTCUT:
            continue
        taken += 1
        if out != url_to_canon_url_steps(url, None, charset):
            bad.append((url, charset, out))
    assert not bad, f"{len(bad)} answers differ from the steps, first: {bad[:3]}"
    assert taken >= 0.15 * len(urls)                   # 0.18 here


@needs_bench
def test_parsed_once_tier():
    rng = random.Random(10)
    triples = [(u, None, c) for u, c in messy_urls(7, 2000)]
    triples += [(u, None, rng.choice([None, "shift_jis"])) for u in random_file_urls(3000, 11)]
    triples += [(u, None, None) for u in second_tier_urls(rng, 3000)]
    triples += [(u, "http://h/", None) for u in second_tier_urls(rng, 200)]      # a base: declined
    assert check_tier(parsed_once, triples) >= 0.9      # 0.98 here
