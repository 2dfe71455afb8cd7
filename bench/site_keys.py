"""The keys' cost against the canonical URL they come from, a part of `make bench` (`bench/run.py`
calls `run`):

    python bench/site_keys.py                    # alone: the table and the targets
    python bench/site_keys.py --cc --rounds 3    # only the two targets of `cc_index_columns`
    COMPILED_PYTHON -I bench/site_keys.py --json # the compiled build's figures (`bench/run.py` does this)

Four targets, each a ratio of two contenders timed in one run:

- `surt(url)`, the precise key, at most 2 x `url_to_canon_url(url)`, on the bench's absolute URLs
  and messy ones together (the same ratio on the absolute URLs alone is shown too);
- `surt(url, style='ia')` at most 0.5 x the `surt` package's `surt.surt(url)` on the same URLs (the
  `test` extra; without it the target is not judged);
- `cc_index_columns(url, surt_style='precise')` at most 2 x `url_to_canon_url(url)` on the absolute
  URLs, and `cc_index_columns(url)` (IA's key) at most 1.05 x `surt(url, style='ia')` on the mixed
  URLs;
- `registrable_domain(url)` on canonical URLs whose hosts are all distinct (the first canonical URL
  of each host of the absolute URLs), the answers for the hosts forgotten before every slice, at
  most 1.2 x tldextract (offline, on the list it ships) on the same URLs (the `bench` extra;
  without it the target is not judged). The same with the messy URLs' hosts too, most of them IP
  addresses that canonicalization has to read, is shown beside it.

As in `bench/run.py`, every slice of 500 inputs is run by every contender in turn, in a shuffled
order, and the figure is the median round of CPU time, so that a slow spell of a shared machine lands
on all contenders alike; the ratios come from one run.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import messy  # noqa: E402

from weburl_nb import COMPILED  # noqa: E402
from weburl_nb.entry import url_to_canon_url  # noqa: E402
from weburl_nb.keys import surt  # noqa: E402
from weburl_nb.site_keys import _PARTS, canonical_host, cc_index_columns, registrable_domain  # noqa: E402

DATA = Path(os.environ.get('WEBURL_BENCHDATA') or Path(__file__).resolve().parents[2] / 'shared' / 'bench')
SLICE = 500
TARGETS = {   # name: (numerator, denominator, corpus, at most)
    'surt precise / url_to_canon_url': ('surt precise', 'url_to_canon_url', 'mixed', 2.0),
    "surt ia / surt package": ('surt ia', 'surt.surt', 'mixed', 0.5),
    'cc_index_columns precise / url_to_canon_url': ('cc precise', 'url_to_canon_url', 'absolute', 2.0),
    'cc_index_columns ia / surt ia': ('cc ia', 'surt ia', 'mixed', 1.05),
    'registrable_domain / tldextract, distinct hosts': ('registrable_domain', 'tldextract', 'hosts', 1.2),
}


def _each(f):
    "A contender: `f` over a slice of inputs."
    return lambda part: [f(u) for u in part]


def _fresh(f):
    "A contender that forgets the site answers first, so that every host of the slice is a miss."
    def run(part):
        for table in _PARTS:
            table.clear()
        return [f(u) for u in part]
    return run


def _surt_package():
    "`surt.surt`, giving `None` where it raises; `None` without the package."
    try:
        import surt as package
    except ImportError:
        return None

    def key(url):
        try:
            return package.surt(url)
        except Exception:
            return None
    return key


def _tldextract():
    "tldextract offline on its own snapshot of the list; `None` without the package."
    try:
        import tldextract
    except ImportError:
        return None
    ext = tldextract.TLDExtract(cache_dir=None, suffix_list_urls=())
    return lambda url: ext(url).top_domain_under_public_suffix


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


def distinct_hosts(urls: list[str]) -> list[str]:
    "The canonical URLs of `urls`, the first of each host."
    hosts, distinct = set(), []
    for url in urls:
        canon = url_to_canon_url(url)
        if canon is not None and (host := canonical_host(canon)) and host not in hosts:
            hosts.add(host)
            distinct.append(canon)
    return distinct


def corpora(data: Path, seed: int, count: int) -> dict[str, list[str]]:
    "The absolute URLs, those and messy ones, and canonical URLs with distinct hosts of both."
    absolute = [u for u in (data / 'absolute.txt').read_text(encoding='utf-8').split('\n') if u]
    mixed = absolute + [u for _, u, _ in messy.generate(data, seed, count)]
    return {'absolute': absolute, 'mixed': mixed, 'hosts': distinct_hosts(absolute),
            'hosts with messy': distinct_hosts(mixed)}


def run(data: Path | str = DATA, rounds: int = 5, seed: int = 18, count: int = 16_000,
        cc_only: bool = False) -> dict:
    "The figures and the targets (reported, never asserted); `cc_only`: the two of the CC columns."
    rng = random.Random(34)
    sets = corpora(Path(data), seed, count)
    keys = {'url_to_canon_url': _each(url_to_canon_url), 'surt precise': _each(surt),
            'surt ia': _each(lambda u: surt(u, style='ia')),
            'cc precise': _each(lambda u: cc_index_columns(u, surt_style='precise')),
            'cc ia': _each(cc_index_columns)}
    if (package := _surt_package()) is not None:
        keys['surt.surt'] = _each(package)
    sites = {'registrable_domain': _fresh(registrable_domain), 'url_to_canon_url': _each(url_to_canon_url)}
    if (theirs := _tldextract()) is not None:
        sites['tldextract'] = _each(theirs)
    absolute = {k: keys[k] for k in ('url_to_canon_url', 'surt precise', 'cc precise')}
    if cc_only:
        keys = {k: keys[k] for k in ('surt ia', 'cc ia')}
        absolute = {k: absolute[k] for k in ('url_to_canon_url', 'cc precise')}
        sites = {}
    out = {'load_before': os.getloadavg()[0],
           'mixed': alternate(keys, sets['mixed'], rounds, rng),
           'absolute': alternate(absolute, sets['absolute'], rounds, rng),
           'hosts': alternate(sites, sets['hosts'], rounds, rng) if sites else {},
           'hosts with messy': alternate(sites, sets['hosts with messy'], rounds, rng) if sites else {},
           'inputs': {k: len(v) for k, v in sets.items()}}
    out['ratios'], t = {}, {}
    for name, (num, den, corpus, most) in TARGETS.items():
        r = out[corpus]
        if num in r and den in r:
            ratio = out['ratios'][f'{name} ({corpus})'] = r[num] / r[den]
            t[f'site: {name} <= {most} ({corpus}; {ratio:.2f})'] = ratio <= most
    a, m = out['absolute'], out['hosts with messy']
    if 'surt precise' in a:
        out['ratios']['surt precise / url_to_canon_url (absolute)'] = a['surt precise'] / a['url_to_canon_url']
    if 'tldextract' in m:
        out['ratios']['registrable_domain / tldextract (hosts with messy)'] = m['registrable_domain'] / m['tldextract']
    out['targets'] = t
    return out


def report(r: dict) -> str:
    "The figures as lines of text."
    lines = [f'keys and sites (load {r["load_before"]:.2f}), CPU us per input, median round:']
    for part in ('mixed', 'absolute', 'hosts', 'hosts with messy'):
        cells = ', '.join(f'{k} {v:.2f}' for k, v in r[part].items())
        lines.append(f'  {part} ({r["inputs"][part]:,}): {cells}')
    lines += [f'  {k}: {v:.2f}' for k, v in r['ratios'].items()]
    return '\n'.join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--data', default=str(DATA))
    p.add_argument('--rounds', type=int, default=5)
    p.add_argument('--json', action='store_true', help='the figures as JSON, for a parent process')
    p.add_argument('--cc', action='store_true', help="only the targets of Common Crawl's columns")
    a = p.parse_args(argv)
    r = run(a.data, a.rounds, cc_only=a.cc)
    r['compiled'] = COMPILED
    if a.json:
        print(json.dumps(r))
        return 0
    print(report(r))
    for k, ok in r['targets'].items():
        print(f'  {"met    " if ok else "NOT met"}  {k}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
