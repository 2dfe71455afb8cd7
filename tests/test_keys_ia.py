"""IA's key against its reference: `surt(url, style='ia')` and `surt.surt(url)` from the `surt`
package (the `test` extra; AGPL-3.0, so a test-only oracle: the package never imports it).

The agreement is measured on the bench corpora (`absolute.txt`, and `hrefs.tsv` resolved) and on
the messy corpus of `bench/messy.py`, counting only URLs for which `surt.surt` gives a key.
Every difference is given a class by the kind of its input (`difference_class`); the classes
and their reasons are the table on the Keys page. Run with `-s` to see the figures.
"""
import os
import re
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import urljoin

import pytest

surt_package = pytest.importorskip("surt", reason="the `test` extra (pip install -e '.[test]')")

from weburl_nb import url_to_canon_url  # noqa: E402
from weburl_nb.keys import surt  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BENCH = Path(os.environ.get("WEBURL_BENCHDATA") or ROOT.parent / "shared" / "bench")
sys.path.insert(0, str(ROOT / "bench"))

# The kinds of input IA's parser reads unlike the 2012 browsers (and the spec): see the table.
_DRIVE = re.compile(r"(file:|[a-z][:|][\\/]|[\\/]{2})", re.I)
_BRACKETED = re.compile(r"[a-z][a-z0-9+.-]*:[\\/]*[^/?#]*\[", re.I)
_NUMBER_LABEL = re.compile(r"(^|,)(0x|0\d|\d+(,|$))", re.I)
_ROOT_DOTS = re.compile(r"^/\.\.([/?]|$)")


def difference_class(url: str, ours: str | None, theirs: str) -> str:
    "The named class of a difference between our IA key and `surt.surt`'s, by the input's kind."
    text = re.sub(r"[\t\n\r]", "", url).strip()
    if ours is None:
        return "invalid-in-the-spec"
    if _DRIVE.match(text) or ours.startswith("file:"):
        return "file-and-drive-paths"
    if ")" not in ours + theirs:
        return "no-host"
    if "\\" in text:
        return "backslash"
    if _BRACKETED.match(text):
        return "ipv6-as-written"
    host, _, rest = theirs.partition(")")
    if _NUMBER_LABEL.search(host) and host != ours.partition(")")[0]:
        return "ipv4-number-forms"
    if _ROOT_DOTS.match(rest):
        return "dot-segments-above-the-root"
    return "other"


def oracle(url: str) -> str | None:
    "`surt.surt(url)`, or `None` where it raises (it gives no key)."
    try:
        return surt_package.surt(url)
    except Exception:
        return None


def agreement(items) -> tuple[int, int, Counter, dict]:
    "`(identical, counted, classes, an example per class)` over `(url, base, oracle_input)`."
    same = counted = 0
    classes, examples = Counter(), {}
    for url, base, given in items:
        theirs = oracle(given)
        if theirs is None:
            continue
        counted += 1
        ours = surt(url, base, style="ia")
        if ours == theirs:
            same += 1
            continue
        k = difference_class(url, ours, theirs)
        classes[k] += 1
        examples.setdefault(k, (url, ours, theirs))
    return same, counted, classes, examples


def report(name, same, counted, classes, examples):
    print(f"\n{name}: identical {same:,}/{counted:,} = {same / counted:.2%}")
    for k, n in classes.most_common():
        url, ours, theirs = examples[k]
        print(f"  {k:<30}{n:>6,}  e.g. {url[:70]!r}: ours {str(ours)[:60]!r}, IA {theirs[:60]!r}")


def _lines(name):
    path = BENCH / name
    if not path.is_file():
        pytest.skip(f"the bench corpora are not at {BENCH} (WEBURL_BENCHDATA)")
    return path.read_text(encoding="utf-8").split("\n")


def test_done_when_example():
    url = "http://www.Example.com/A/B/?b=1&a=2"
    assert surt(url, style="ia") == surt_package.surt(url) == "com,example)/a/b?a=2&b=1"


def test_real_urls_agree():
    urls = [u for u in _lines("absolute.txt") if u]
    same, counted, classes, examples = agreement((u, None, u) for u in urls)
    report("absolute.txt", same, counted, classes, examples)
    assert counted > 40_000 and same / counted >= 0.995
    assert classes["other"] <= 0.001 * counted       # the rest fall in named classes


def _resolved(pairs):
    for page, href in pairs:
        try:
            joined = urljoin(page, href)
        except ValueError:
            continue
        yield href, page, joined


def test_resolved_links_agree():
    pairs = [line.split("\t") for line in _lines("hrefs.tsv")]
    pairs = [p for p in pairs if len(p) == 2][::4]           # every fourth link: 12,500
    same, counted, classes, examples = agreement(_resolved(pairs))
    report("hrefs.tsv resolved", same, counted, classes, examples)
    assert counted > 10_000 and same / counted >= 0.995
    assert classes["other"] <= 0.001 * counted


@pytest.fixture(scope="module")
def messy_items():
    _lines("absolute.txt")
    import messy
    return messy.generate(BENCH, seed=18, count=5_000) + messy.generate(BENCH, seed=28, count=5_000)


def test_messy_urls_after_the_spec_agree(messy_items):
    "IA's steps (K1-K13 and its SURT form) on messy URLs: surt.surt fed our canonical URL."
    items = [(u, None, c) for _, u, _ in messy_items if (c := url_to_canon_url(u)) is not None]
    same, counted, classes, examples = agreement(items)
    report("messy, IA's steps after the spec's", same, counted, classes, examples)
    assert counted > 9_000 and same / counted >= 0.98


def test_messy_urls_raw_differences_are_classified(messy_items):
    "Raw messy URLs: whatever differs is one of the named kinds IA's parser reads otherwise."
    same, counted, classes, examples = agreement((u, None, u) for _, u, _ in messy_items)
    report("messy, raw input", same, counted, classes, examples)
    assert counted > 9_000 and same / counted >= 0.70
    assert classes["other"] <= 0.005 * counted


def test_steps_match_their_reference_on_random_input():
    "K1's one-pass decoding, K7 and K9 against the reference's own functions."
    import random
    from urllib.parse import unquote_to_bytes

    from surt.URLRegexTransformer import stripPathSessionID, stripQuerySessionID

    from weburl_nb.keys import _decode_all, strip_path_session_id, strip_query_session_ids

    def decode_until_fixed(b: bytes) -> bytes:
        while (d := unquote_to_bytes(b)) != b:
            b = d
        return b
    rng = random.Random(28)
    sid = "0123456789abcdefABCDEF0123456789"
    args = [f"jsessionid={sid}", f"xsid={sid}", f"PHPSESSID={sid}", "cfid=1", "cftoken=2",
            "aspsessionidABCDEFGH=abcdefghijklmnopqrstuvwx", "cfid=", "a=1", "", "cfid=cfid=3"]
    segs = ["(s(abcdefghijklmnopqrstuvwx))", "(abcdefghijklmnopqrstuvwx)", "a.aspx", "x", "?",
            "b.aspx?q", ".aspx", "(a(abcdefghijklmnopqrstuvwx)b(abcdefghijklmnopqrstuvwx))"]
    for _ in range(20_000):
        s = "".join(rng.choice("%%%2541aFz/") for _ in range(rng.randrange(12)))
        assert bytes(_decode_all(s.encode())) == decode_until_fixed(s.encode()), s
        q = "&".join(rng.choice(args) for _ in range(rng.randrange(6)))
        assert strip_query_session_ids(q) == stripQuerySessionID(q.encode()).decode(), q
        p = "/" + "/".join(rng.choice(segs) for _ in range(rng.randrange(6)))
        assert strip_path_session_id(p) == stripPathSessionID(p.encode()).decode(), p
