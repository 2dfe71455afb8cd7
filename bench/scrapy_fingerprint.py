"""The request fingerprint's cost, a part of `make bench` (`bench/run.py` calls `run`):

    python bench/scrapy_fingerprint.py           # alone: the table and the targets

`weburl_nb.scrapy.RequestFingerprinter` (its default settings, and with `WEBURL_DROP_PARAMS =
"tracking"`) against Scrapy's own `scrapy.utils.request.RequestFingerprinter`, on Scrapy `Request`s
of the URLs of `absolute.txt` and of a messy corpus (`bench/messy.py`; the URLs Scrapy's `Request`
refuses are left out, for all contenders). A fingerprint is kept per request, so every slice is
given fresh `Request` objects for each contender, made before the clock starts: the time is that
of the first `fingerprint(request)` of a request. Target (issue 41): ours at most 0.5 x Scrapy's.

As in `bench/run.py`, every slice of 500 inputs is run by every contender in turn, in a shuffled
order, and the figure is the median round of CPU time; the ratios come from one run.
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

DATA = Path(os.environ.get('WEBURL_BENCHDATA') or Path(__file__).resolve().parents[2] / 'shared' / 'bench')
SLICE = 500
RATIO = 0.5
SCRAPY = "Scrapy's RequestFingerprinter"
OURS = 'weburl_nb.scrapy.RequestFingerprinter'
OURS_TRACKING = OURS + ' (drop_params=tracking)'


def contenders() -> dict:
    "Each contender's `fingerprint` method (ImportError without Scrapy)."
    from scrapy.utils.request import RequestFingerprinter as Scrapys

    from weburl_nb.keys import UrlKey
    from weburl_nb.scrapy import RequestFingerprinter
    return {SCRAPY: Scrapys().fingerprint, OURS: RequestFingerprinter().fingerprint,
            OURS_TRACKING: RequestFingerprinter(key=UrlKey(drop_params='tracking')).fingerprint}


def requestable(urls: list[str]) -> list[str]:
    "The URLs Scrapy makes a `Request` of, as `Request.url` writes them."
    from scrapy import Request
    out = []
    for u in urls:
        try:
            out.append(Request(u).url)
        except (ValueError, TypeError):
            pass
    return out


def alternate(funcs: dict, urls: list[str], rounds: int, rng: random.Random) -> dict:
    "Median CPU microseconds per first fingerprint of a request, slices alternated and shuffled."
    from scrapy import Request
    names = list(funcs)
    slices = [urls[i:i + SLICE] for i in range(0, len(urls), SLICE)]
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds + 1):                     # round 0 warms: imports, caches
        cpu = dict.fromkeys(names, 0.0)
        gc.collect()
        for part in slices:
            rng.shuffle(names)
            for name in names:
                fp, requests = funcs[name], [Request(u) for u in part]
                c0 = time.process_time()
                for request in requests:
                    fp(request)
                cpu[name] += time.process_time() - c0
        if r:
            for name in names:
                times[name].append(cpu[name])
    return {name: statistics.median(ts) / len(urls) * 1e6 for name, ts in times.items()}


def run(data: Path | str = DATA, rounds: int = 5, seed: int = 18, count: int = 16_000) -> dict:
    "The figures and the targets (reported, never asserted)."
    data = Path(data)
    funcs = contenders()
    rng = random.Random(41)
    absolute = requestable([u for u in (data / 'absolute.txt').read_text(encoding='utf-8').split('\n') if u])
    messy_urls = requestable([u for _, u, _ in messy.generate(data, seed, count)])
    out: dict = {'load_before': os.getloadavg()[0],
                 'inputs': {'absolute': len(absolute), 'messy': len(messy_urls)}}
    t = {}
    for corpus, urls in (('absolute', absolute), ('messy', messy_urls)):
        r = out[corpus] = alternate(funcs, urls, rounds, rng)
        for name in (OURS, OURS_TRACKING):
            ratio = r[name + ' / Scrapy'] = r[name] / r[SCRAPY]
            if name == OURS:
                t[f'scrapy: {corpus}: fingerprint <= {RATIO} x Scrapy\'s (issue 41; {ratio:.2f})'] = ratio <= RATIO
    out['targets'] = t
    return out


def report(r: dict) -> str:
    "The figures as lines of text."
    lines = [f'request fingerprint (load {r["load_before"]:.2f}), CPU us per first fingerprint of a '
             f'request, median round ({r["inputs"]["absolute"]:,} absolute, {r["inputs"]["messy"]:,} messy URLs):']
    for corpus in ('absolute', 'messy'):
        cells = ', '.join(f'{k} {v:.2f}' + ('' if k.endswith('Scrapy') else ' us') for k, v in r[corpus].items())
        lines.append(f'  {corpus}: {cells}')
    return '\n'.join(lines)


def main() -> int:
    r = run()
    print(report(r))
    for k, ok in r['targets'].items():
        print(f'  {"met    " if ok else "NOT met"}  {k}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
