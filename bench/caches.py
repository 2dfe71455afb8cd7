"""The caches of `url_to_canon_url` on the bench corpora: hit rates, entries, memory.

    python bench/caches.py                 # hrefs, absolute and the messy corpus (seed 18)
    python bench/caches.py --json x.json   # the figures as JSON too

For each corpus, in a fresh process state (every cache cleared), every input runs once through
`url_to_canon_url`; then each cache reports its hits, misses and entries (`cache_info()`), and its
memory: the bytes `tracemalloc` sees freed when that cache alone is cleared (what it held, keys and
answers, beyond what the rest of the program still refers to).
"""
from __future__ import annotations

import argparse
import json
import sys
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
import messy  # noqa: E402


class CharEscapes:
    """`percent_encode`'s escapes per character in a legacy charset (`_CharEscapes`), every set and
    encoder together, seen as a cache. The tables count their misses; the lookups (characters of the
    runs, one per `str.translate` step) are counted here, by a wrapper of `_escape_by_runs` that stays
    in place until `close`."""

    def __init__(self):
        from weburl_nb import engine_encoding as c
        self.c, self.lookups = c, 0
        original = getattr(c._escape_by_runs, '__wrapped__', c._escape_by_runs)

        def counting(s, encode, tables):
            if encode is not c._UTF8:
                one = tables.ascii_escapes
                self.lookups += sum(len(r) for _, r in tables.pieces.findall(s) if r not in one)
            return original(s, encode, tables)
        counting.__wrapped__ = original
        c._escape_by_runs = counting
        self.original = original

    def _tables(self) -> list:
        return [t for s in self.c._RUN_TABLES.values() for t in s.char_escapes.values()]

    def cache_info(self):
        from functools import _CacheInfo
        tables = self._tables()
        misses = sum(t.misses for t in tables)
        return _CacheInfo(self.lookups - misses, misses, self.c._CHAR_ESCAPES_MAX * max(len(tables), 1),
                          sum(map(len, tables)))

    def cache_clear(self):
        for v in self.c._RUN_TABLES.values():
            v.char_escapes.clear()
        self.lookups = 0

    def close(self):
        self.c._escape_by_runs = self.original


def caches() -> dict:
    "name -> an `lru_cache`d function of the package (with `cache_info` and `cache_clear`)."
    from weburl_nb import nameprep, shortcuts
    try:
        from weburl_nb import engine_codecs as codecs
    except ImportError:                                     # an older package
        codecs = None
    try:
        from weburl_nb import engine_encoding as encoding
    except ImportError:                                     # an older package
        from weburl_nb import encoding
    try:
        from weburl_nb.engine_hosts import _HOST_CACHES
    except ImportError:                                     # an older package
        from weburl_nb.host import _HOST_CACHES
    out = {f'host ({p.name})': c for p, c in _HOST_CACHES.values()}
    named = {'base: base_record': (shortcuts, '_kept_base_records'),
             'base: _canonical_base': (shortcuts, '_canonical_base'),
             'link: _link_shape': (shortcuts, '_link_shape'),
             'charset label -> encoding': (encoding, '_charset_encoding'),
             'encoding -> encoder': (codecs or encoding, 'codec_encoder' if codecs else 'encoder'),
             'nameprep: is_prohibited': (nameprep, 'is_prohibited'),
             'nameprep: bidi_class': (nameprep, 'bidi_class')}
    out.update({k: getattr(module, name, None) for k, (module, name) in named.items()})
    if hasattr(encoding, '_escape_by_runs'):               # not in an older package
        out['escapes per legacy character'] = CharEscapes()
    return {k: v for k, v in out.items() if hasattr(v, 'cache_info')}


def measure(name: str, inputs: list[tuple[str, str | None, str | None]]) -> dict:
    "Run `inputs` `(url, base, charset)` once with every cache cleared first; the figures per cache."
    from weburl_nb import url_to_canon_url
    cs = caches()
    for c in cs.values():
        c.cache_clear()
    tracemalloc.start()
    for url, base, charset in inputs:
        url_to_canon_url(url, base, charset)
    out = {}
    for key, c in cs.items():
        info = c.cache_info()
        before = tracemalloc.get_traced_memory()[0]
        c.cache_clear()
        freed = before - tracemalloc.get_traced_memory()[0]
        calls = info.hits + info.misses
        out[key] = {'hits': info.hits, 'misses': info.misses, 'entries': info.currsize,
                    'maxsize': info.maxsize, 'hit_rate': info.hits / calls if calls else None,
                    'bytes': freed}
    tracemalloc.stop()
    for c in cs.values():
        getattr(c, 'close', lambda: None)()          # undo what a cache put in place to count
    return out


def corpora(data: Path, seed: int) -> dict:
    sys.path.insert(0, str(ROOT))
    from run import load_absolute, load_hrefs
    pairs, _ = load_hrefs(data / 'hrefs.tsv')
    return {'hrefs': [(h, b, None) for b, h in pairs],
            'absolute': [(u, None, None) for u in load_absolute(data / 'absolute.txt')],
            f'messy (seed {seed})': [(u, None, c) for _, u, c in messy.generate(data, seed)]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--data', default=messy.DEFAULT_DATA)
    ap.add_argument('--seed', type=int, default=messy.DEFAULT_SEED)
    ap.add_argument('--json', help='also write the figures to this file')
    args = ap.parse_args(argv)
    result = {}
    for name, inputs in corpora(Path(args.data), args.seed).items():
        result[name] = r = measure(name, inputs)
        print(f'{name} ({len(inputs):,} inputs): cache, calls, hit rate, entries (of max), memory')
        for key, f in r.items():
            calls = f['hits'] + f['misses']
            if not calls:
                continue
            print(f'  {key:<28}{calls:>9,}{f["hit_rate"]:>8.1%}{f["entries"]:>7,} of {f["maxsize"] or "-":<7}'
                  f'{f["bytes"] / 1024:>8.1f} KB')
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + '\n', encoding='utf-8')
    return 0


if __name__ == '__main__':
    sys.exit(main())
