"""Memory on long inputs: `url_to_canon_url` holds at most a small multiple of its input.

Not a timing test. `tracemalloc` counts the bytes allocated during one call, whatever the load of
the machine: the peak is the same on a busy machine and an idle one.

The inputs are the long-URL shapes of `make bench` (bench/run.py `SHAPES`), plus a few links that
reach the shortcuts' regular expressions, at about 1 MB (the four slowest shapes at 100 KB: their
peak per character is flat from 30 KB on, and `tracemalloc` makes a 1 MB call of them take tens of
seconds).

The bound is counted in bytes of the input string's characters (1 per character for ASCII and
Latin-1 text, 2 for the rest of the BMP). Measured on this code (peak / input bytes):
long path, long query, host labels 0.0; dot-segments 1.6; percent-escapes 2.3; escapes in host
2.7; long port, drive path, IPv4-like host 4.0; legacy-charset query 4.5; IPv6-like host 5.1;
combining marks in host 8.0. Each string step makes a copy, so a handful of copies is what linear
work costs; `BOUND` = 12 leaves room for that and fails on what the fixes removed: a regular
expression's repeated group keeps a record per iteration (40 to 100 bytes per character), sorting
a long run of marks as a list of one-character strings took 107 bytes per character, and a list of
labels split for nothing 4 to 16.

The per-label shapes (`LABELS_BOUND`) hold the host as a list of labels, then a list of their ASCII
forms: per label of 5 to 7 characters, two list slots and two string objects (a 49-byte header or
more each), about 27 bytes per input byte for `bücher.` and 20 for `שלום.` (which is 2 bytes per
character). Still linear, and bounded per label, but larger; processing the labels a block at a time
would bring them under `BOUND`.
"""
from __future__ import annotations

import importlib.util
import tracemalloc
from pathlib import Path

import pytest

from weburl_nb import url_to_canon_url

BOUND = 12                      # peak bytes per byte of input
LABELS_BOUND = 32               # ... for the shapes that hold one string per label
LABEL_SHAPES = {'IDN labels', 'RTL labels'}
SLOW_SHAPES = LABEL_SHAPES | {'combining marks in host', 'legacy-charset query'}


def _bench_shapes() -> dict:
    "`SHAPES` of bench/run.py, loaded from its file (the benchmark is not a package)."
    path = Path(__file__).resolve().parent.parent / 'bench' / 'run.py'
    spec = importlib.util.spec_from_file_location('_weburl_bench_run', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SHAPES


SHAPES = _bench_shapes()
N = 1_000_000
# Links that reach the shortcuts' expressions (path escapes, `../` steps) with a repeated group.
LINKS = {
    'path of kept escapes': lambda n: (None, 'http://example.com/' + '%E9' * (n // 3), None),
    '../ steps': lambda n: ('http://example.com/a/b/', '../' * (n // 3) + 'x', None),
    'relative escapes': lambda n: ('http://example.com/a/b/', 'a' + '%E9/' * (n // 4), None),
}


def _input_bytes(s: str) -> int:
    "The bytes of `s`'s characters in memory: 1, 2 or 4 per character (PEP 393)."
    widest = max(map(ord, s), default=0)
    return len(s) * (1 if widest < 0x100 else 2 if widest < 0x10000 else 4)


def _peak(url: str, base: str | None, charset: str | None) -> int:
    "The `tracemalloc` peak, in bytes, of one call of `url_to_canon_url` (tables filled before)."
    tracemalloc.start()
    try:
        url_to_canon_url(url, base, charset)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize('shape', [*SHAPES, *LINKS])
def test_peak_memory_is_a_small_multiple_of_the_input(shape):
    make = SHAPES.get(shape) or LINKS[shape]
    base, url, charset = make(1000)
    url_to_canon_url(url, base, charset)                  # per-character tables filled first
    base, url, charset = make(N // 10 if shape in SLOW_SHAPES else N)
    bound = LABELS_BOUND if shape in LABEL_SHAPES else BOUND
    ratio = _peak(url, base, charset) / _input_bytes(url)
    assert ratio <= bound, f'{shape}: peak {ratio:.1f} bytes per input byte (bound {bound})'


# Caches are bounded by entries, and their keys by `CACHED_LENGTH` (00a_support): thousands of distinct
# long strings must leave nothing behind. Without the length rule these kept 1.6-17 MB each.
LONG = 4000                     # characters: above CACHED_LENGTH
DISTINCT = 2100                 # more than the largest cache's entries (the host cache's 2,048)
RETAINED = {
    'long links': lambda i: ('http://example.com/a/b/', f'p{i}/' + 'x' * LONG, None),
    'long bases': lambda i: (f'http://example.com/{i}/' + 'y' * LONG, 'z', None),
    'long hosts': lambda i: (None, f'http://h{i}' + 'A' * LONG + '.example/', None),
    'long charset labels': lambda i: (None, 'http://example.com/?q=\u00e9', ' ' * (LONG + i) + 'utf-8'),
}


@pytest.mark.parametrize('case', RETAINED)
def test_caches_keep_no_long_key(case):
    from weburl_nb.entry import url_to_canon_url_steps
    from weburl_nb.support import CACHED_LENGTH
    assert LONG > CACHED_LENGTH
    make = RETAINED[case]
    base, url, charset = make(-1)
    assert url_to_canon_url(url, base, charset) == url_to_canon_url_steps(url, base, charset)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(DISTINCT):
            base, url, charset = make(i)
            url_to_canon_url(url, base, charset)
        retained = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert retained < 500_000, f'{case}: {retained:,} bytes kept after {DISTINCT:,} distinct inputs'
