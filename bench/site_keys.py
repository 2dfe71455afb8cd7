"""The site functions' cost, a part of `make bench` (`bench/run.py` calls `run`):

    python bench/site_keys.py                    # alone: the table and the targets

- `registrable_domain` on canonical URLs (the canonical forms of `absolute.txt`), warm: one pass
  first fills the caches, then each call pays for `url_to_canon_url` on a canonical URL, reading its
  host and one look-up of the host's answer. Target: at most 2 us a call.
- Common Crawl's columns on top of canonicalization: `cc_index_columns(url)` against
  `url_to_canon_url(url)` on the same inputs (`absolute.txt` as written, and a messy corpus), with
  `url_surtkey` as Common Crawl writes it (IA's key, the default) and precise. Target: at most
  1.5 x the canonicalization alone.

As in `bench/run.py`, every slice of 500 inputs is run by every contender in turn, in a shuffled
order, and the figure is the median round of CPU time, so that a slow spell of a shared machine
lands on all contenders alike; the ratios come from one run.
"""
from __future__ import annotations

import gc
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import messy  # noqa: E402

from weburl_nb.entry import url_to_canon_url  # noqa: E402
from weburl_nb.site_keys import cc_index_columns, registrable_domain  # noqa: E402

DATA = Path(os.environ.get('WEBURL_BENCHDATA') or Path(__file__).resolve().parents[2] / 'shared' / 'bench')
SLICE = 500
REGDOM_US = 2.0
CC_RATIO = 1.5


def _each(f):
    "A contender: `f` over a slice of inputs."
    return lambda part: [f(u) for u in part]


CANON = 'url_to_canon_url'
CONTENDERS_REGDOM = {CANON: _each(url_to_canon_url), 'registrable_domain': _each(registrable_domain)}
CONTENDERS_CC = {CANON: _each(url_to_canon_url),
                 "cc_index_columns (IA's key)": _each(cc_index_columns),
                 'cc_index_columns (precise key)': _each(
                     lambda u: cc_index_columns(u, surt_style='precise'))}


def alternate(funcs: dict, data: list, rounds: int, rng: random.Random) -> dict:
    "Median CPU microseconds per input of each contender, slices alternated and shuffled."
    names = list(funcs)
    for name in names:                              # warm: imports, the list, every cache
        funcs[name](data)
    slices = [data[i:i + SLICE] for i in range(0, len(data), SLICE)]
    times: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(rounds):
        cpu = dict.fromkeys(names, 0.0)
        gc.collect()
        for part in slices:
            rng.shuffle(names)
            for name in names:
                c0 = time.process_time()
                funcs[name](part)
                cpu[name] += time.process_time() - c0
        for name in names:
            times[name].append(cpu[name])
    return {name: statistics.median(ts) / len(data) * 1e6 for name, ts in times.items()}


def run(data: Path | str = DATA, rounds: int = 5, seed: int = 18, count: int = 16_000) -> dict:
    "The figures and the targets (reported, never asserted)."
    data = Path(data)
    rng = random.Random(34)
    absolute = [u for u in (data / 'absolute.txt').read_text(encoding='utf-8').split('\n') if u]
    canonical = [c for u in absolute if (c := url_to_canon_url(u)) is not None]
    messy_urls = [u for _, u, _ in messy.generate(data, seed, count)]
    out = {'load_before': os.getloadavg()[0],
           'registrable_domain': alternate(CONTENDERS_REGDOM, canonical, rounds, rng),
           'cc_absolute': alternate(CONTENDERS_CC, absolute, rounds, rng),
           'cc_messy': alternate(CONTENDERS_CC, messy_urls, rounds, rng),
           'inputs': {'canonical': len(canonical), 'absolute': len(absolute), 'messy': len(messy_urls)}}
    rd = out['registrable_domain']['registrable_domain']
    t = {f'site: registrable_domain on a canonical URL <= {REGDOM_US} us warm ({rd:.2f})': rd <= REGDOM_US}
    for corpus in ('cc_absolute', 'cc_messy'):
        r = out[corpus]
        for name in list(CONTENDERS_CC)[1:]:
            ratio = r[name] / r[CANON]
            r[name + ' / canon'] = ratio
            t[f'site: {corpus[3:]}: {name} <= {CC_RATIO} x url_to_canon_url ({ratio:.2f})'] = ratio <= CC_RATIO
    out['targets'] = t
    return out


def report(r: dict) -> str:
    "The figures as lines of text."
    lines = [f'site functions (load {r["load_before"]:.2f}), CPU us per input, median round:']
    for part in ('registrable_domain', 'cc_absolute', 'cc_messy'):
        cells = ', '.join(f'{k} {v:.2f}' + ('' if k.endswith('canon') else ' us')
                          for k, v in r[part].items())
        lines.append(f'  {part}: {cells}')
    return '\n'.join(lines)


def main() -> int:
    r = run()
    print(report(r))
    for k, ok in r['targets'].items():
        print(f'  {"met    " if ok else "NOT met"}  {k}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
