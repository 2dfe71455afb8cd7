"""The Arrow tiers (issue 40, `weburl_nb.arrow`, nbs/12b_arrow.ipynb): `canonicalize_arrow` on 50,000-row
batches, Arrow in and out, against the per-URL loop and ada-url's two bindings, in one process.

1. corpora: clean absolute URLs (`absolute.txt`), hrefs with their page URLs (`hrefs.tsv`) and the messy
   corpus (`bench/messy.py`, seed 18), each one batch of 50,000 rows. In each of several rounds every
   contender runs the whole batch once, in a shuffled order; the figure kept is the median round, in CPU
   microseconds per URL. The Arrow contender gets a `pyarrow` array and returns one; the loops get and
   return Python lists. The share of rows each tier takes is counted on the same batches.
2. batch size: the clean URLs cut into batches of 1 to 50,000 rows; CPU microseconds per URL of
   `canonicalize_arrow` (which sends a batch under `SMALL_BATCH` rows to the loop), its tiers forced at
   every size, the `url_to_canon_url` loop and the `can_ada` loop, the same alternation; the *crossover*
   is the smallest size from which the tiers are faster than the loop.
3. targets (reported, never asserted): clean absolute <= 0.5x the `can_ada.parse(u).href` loop; hrefs
   <= 0.35x the `ada_url.join_url` loop; messy <= 1.1x the `url_to_canon_url` loop; `canonicalize_many`
   on a list, against the loop, within 10% of the run recorded in `bench/recorded.json` (its corpora).

`python bench/arrow_tiers.py --out bench-results/arrow.json` runs it alone (`make bench` runs it as a
part; `--no-sizes` leaves part 2 out); `--out bench/recorded_arrow.json` records the run the page shows.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = os.environ.get('WEBURL_BENCHDATA') or str(ROOT.parent / 'shared' / 'bench')
BATCH = 50_000
SIZES = (1, 10, 100, 300, 1_000, 2_000, 3_000, 5_000, 10_000, 50_000)
ARROW, LOOP, MANY = 'canonicalize_arrow', 'url_to_canon_url loop', 'canonicalize_many (list)'
TIERS = 'the tiers at any size'
CAN_ADA, ADA_JOIN = 'can_ada.parse(u).href loop', 'ada_url.join_url loop'


def _cpu(run) -> float:
    t = time.process_time()
    run()
    return time.process_time() - t


def alternate(funcs: dict, rounds: int, n: int, rng: random.Random) -> dict:
    "Each of `funcs` once a round, in a shuffled order; the median round's CPU µs per item."
    times: dict[str, list[float]] = {name: [] for name in funcs}
    for _ in range(rounds):
        order = list(funcs)
        rng.shuffle(order)
        for name in order:
            times[name].append(_cpu(funcs[name]) / n * 1e6)
    return {name: statistics.median(t) for name, t in times.items()}


def _quiet(call):
    "A loop of `call` that goes on when a peer raises on an input."
    def run(items):
        out = []
        for x in items:
            try:
                out.append(call(*x) if isinstance(x, tuple) else call(x))
            except Exception:
                out.append(None)
        return out
    return run


def inputs(data: Path) -> dict:
    "The three batches: clean URLs, (page, link) pairs, messy URLs."
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import messy
    from run import load_absolute, load_hrefs
    return {'clean': load_absolute(data / 'absolute.txt')[:BATCH],
            'hrefs': load_hrefs(data / 'hrefs.tsv')[0][:BATCH],
            'messy': [url for _, url, _ in messy.generate(data, messy.DEFAULT_SEED, BATCH)]}


def shares(batches: dict) -> dict:
    "The share of rows each tier takes, per batch."
    import pyarrow as pa
    import pyarrow.compute as pc

    from weburl_nb import arrow
    out = {}
    for name in ('clean', 'messy'):
        urls = pa.array(batches[name])
        ident = arrow.identity_tier(urls)
        rest = urls.filter(pc.invert(ident))
        repaired = arrow.repair_tier(rest.filter(arrow.matches(rest, arrow.REPAIR_RE2)))
        n = len(urls)
        out[name] = {'identity': pc.sum(ident).as_py() / n,
                     'repair': pc.sum(arrow.identity_tier(repaired)).as_py() / n}
        out[name]['loop'] = 1 - out[name]['identity'] - out[name]['repair']
    links = pa.array([h for _, h in batches['hrefs']])
    index, bases = arrow._base_index(pa.array([b for b, _ in batches['hrefs']]), len(links))
    taken = arrow.link_tier(links, index, bases)[1].mean()
    out['hrefs'] = {'link': float(taken), 'loop': 1 - float(taken), 'distinct pages': len(bases)}
    return out


def corpora(batches: dict, rounds: int, rng: random.Random) -> dict:
    "Per batch: CPU µs per URL of each contender."
    import pyarrow as pa

    from weburl_nb import canonicalize_many, url_to_canon_url
    from weburl_nb.arrow import canonicalize_arrow
    peers = {}
    try:
        import can_ada
        peers[CAN_ADA] = _quiet(lambda u: can_ada.parse(u).href)
    except ImportError:
        pass
    try:
        import ada_url
        peers[ADA_JOIN] = _quiet(lambda b, h: ada_url.join_url(b, h))
    except ImportError:
        pass
    out = {}
    for name in ('clean', 'messy'):
        urls = batches[name]
        arr = pa.array(urls)
        funcs = {ARROW: lambda arr=arr: canonicalize_arrow(arr),
                 LOOP: lambda urls=urls: [url_to_canon_url(u) for u in urls],
                 MANY: lambda urls=urls: canonicalize_many(urls)}
        if CAN_ADA in peers:
            funcs[CAN_ADA] = lambda urls=urls, f=peers[CAN_ADA]: f(urls)
        out[name] = alternate(funcs, rounds, len(urls), rng)
    pairs = batches['hrefs']
    links, pages = pa.array([h for _, h in pairs]), pa.array([b for b, _ in pairs])
    hl, bl = [h for _, h in pairs], [b for b, _ in pairs]
    funcs = {ARROW: lambda: canonicalize_arrow(links, pages),
             LOOP: lambda: [url_to_canon_url(h, b) for b, h in pairs],
             MANY: lambda: canonicalize_many(hl, bl)}
    if ADA_JOIN in peers:
        funcs[ADA_JOIN] = lambda: peers[ADA_JOIN](pairs)
    out['hrefs'] = alternate(funcs, rounds, len(pairs), rng)
    return out


def batch_sizes(urls: list[str], rounds: int, rng: random.Random, total: int = 20_000) -> dict:
    """CPU µs per URL at each batch size: `canonicalize_arrow`, its tiers even below `SMALL_BATCH`, the loop
    and `can_ada`, over the same URLs (at most 200 batches a size)."""
    import pyarrow as pa

    from weburl_nb import arrow, url_to_canon_url
    from weburl_nb.arrow import canonicalize_arrow

    def forced(a):
        saved, arrow.SMALL_BATCH = arrow.SMALL_BATCH, 0
        try:
            return canonicalize_arrow(a)
        finally:
            arrow.SMALL_BATCH = saved
    out: dict = {}
    for size in SIZES:
        n = size * max(1, min(total, len(urls)) // size if size * 200 > total else 200)
        pieces = [urls[i:i + size] for i in range(0, n, size)]
        arrays = [pa.array(p) for p in pieces]
        funcs = {ARROW: lambda arrays=arrays: [canonicalize_arrow(a) for a in arrays],
                 TIERS: lambda arrays=arrays: [forced(a) for a in arrays],
                 LOOP: lambda pieces=pieces: [[url_to_canon_url(u) for u in p] for p in pieces]}
        try:
            import can_ada
            parse = _quiet(lambda u: can_ada.parse(u).href)
            funcs[CAN_ADA] = lambda pieces=pieces, parse=parse: [parse(p) for p in pieces]
        except ImportError:
            pass
        out[str(size)] = alternate(funcs, rounds, n, rng)
    faster = [s for s in SIZES if out[str(s)][TIERS] < out[str(s)][LOOP]]
    crossover = next((s for s in SIZES if all(t in faster for t in SIZES if t >= s)), None)
    return {'sizes': out, 'crossover': crossover, 'small_batch': arrow.SMALL_BATCH}


def targets(r: dict, recorded: dict | None = None) -> dict:
    "The targets of issue 40, from this run's ratios."
    c, t = r['corpora'], {}
    if CAN_ADA in c['clean']:
        x = c['clean'][ARROW] / c['clean'][CAN_ADA]
        t[f'clean absolute: canonicalize_arrow / can_ada loop <= 0.5 (issue 40; {x:.2f})'] = x <= 0.5
    if ADA_JOIN in c['hrefs']:
        x = c['hrefs'][ARROW] / c['hrefs'][ADA_JOIN]
        t[f'hrefs: canonicalize_arrow / ada_url.join_url loop <= 0.35 (issue 40; {x:.2f})'] = x <= 0.35
    x = c['messy'][ARROW] / c['messy'][LOOP]
    t[f'messy: canonicalize_arrow / url_to_canon_url loop <= 1.1 (issue 40; {x:.2f})'] = x <= 1.1
    x = c['clean'][MANY] / c['clean'][LOOP]
    before = ((recorded or {}).get('corpora') or {}).get('absolute', {})
    many, one = 'weburl_nb.canonicalize_many', 'weburl_nb.url_to_canon_url'
    if many in before and one in before:           # the recorded run's list against its loop, with 10% slack
        limit = before[many]['us_per_url'] / before[one]['us_per_url'] * 1.1
        t[f'lists: canonicalize_many / loop <= {limit:.2f}, 1.1 x the recorded run\'s (issue 40; {x:.2f})'] = x <= limit
    return t


def run(data: Path | str = DEFAULT_DATA, rounds: int = 5, seed: int = 40,
        recorded: dict | None = None, sizes: bool = True) -> dict:
    "Every part (without the batch sizes unless `sizes`); `ImportError` when pyarrow is missing."
    import pyarrow as pa
    rng = random.Random(seed)
    batches = inputs(Path(data))
    r = {'rows': {k: len(v) for k, v in batches.items()}, 'rounds': rounds, 'pyarrow': pa.__version__,
         'load_before': os.getloadavg()[0], 'shares': shares(batches),
         'corpora': corpora(batches, rounds, rng)}
    if sizes:
        r['batch_sizes'] = batch_sizes(batches['clean'], max(3, rounds // 2), rng)
    r['load_after'] = os.getloadavg()[0]
    r['targets'] = targets(r, recorded)
    return r


def report(r: dict) -> str:
    "The figures as text."
    lines = [f"Arrow tiers (issue 40): batches of {r['rows']['clean']:,} rows, CPU µs per URL, median of "
             f"{r['rounds']} rounds, pyarrow {r['pyarrow']}, load {r['load_before']:.1f}-{r['load_after']:.1f}"]
    for name, row in r['corpora'].items():
        lines.append(f'  {name:6s} ' + ', '.join(f'{k} {v:.3f}' for k, v in sorted(row.items(), key=lambda kv: kv[1])))
    for name, s in r['shares'].items():
        lines.append(f'  rows taken, {name}: ' + ', '.join(
            f'{k} {v:.2%}' if isinstance(v, float) else f'{k} {v:,}' for k, v in s.items()))
    sizes = r.get('batch_sizes')
    if sizes is None:
        return '\n'.join(lines)
    lines.append(f"  batch size (clean URLs): the tiers beat the loop from {sizes['crossover']} rows "
                 f"(SMALL_BATCH {sizes['small_batch']:,})")
    for size, row in sizes['sizes'].items():
        lines.append(f'    {int(size):>6,} rows: ' + ', '.join(f'{k} {v:.3f}' for k, v in row.items()))
    return '\n'.join(lines)


def recorded_run() -> dict:
    "The run recorded in `bench/recorded.json`, or `{}`."
    try:
        return json.loads((ROOT / 'bench' / 'recorded.json').read_text(encoding='utf-8'))
    except (OSError, ValueError):
        return {}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--data', default=DEFAULT_DATA)
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--out', default=str(ROOT / 'bench-results' / 'arrow.json'))
    ap.add_argument('--no-sizes', action='store_true', help='part 1 and the targets alone (no batch sizes)')
    a = ap.parse_args(argv)
    r = run(a.data, a.rounds, recorded=recorded_run(), sizes=not a.no_sizes)
    print(report(r))
    for k, ok in r['targets'].items():
        print(f'  {"met    " if ok else "NOT met"}  {k}')
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(r, indent=1) + '\n', encoding='utf-8')
    return 0


if __name__ == '__main__':
    sys.exit(main())
