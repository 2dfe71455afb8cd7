"""The pure and the compiled build side by side, in one run: `python bench/builds.py COMPILED_PYTHON`.

Both builds cannot live in one process (one package name), so each corpus is timed in child
processes, the two builds alternating round by round (pure first in even rounds, compiled first
in odd ones), and every child also times the two ada-url bindings in the same process, slice by
slice: `ada_url` (CFFI, `normalize_url` / `join_url`) and `can_ada` (pybind11, `parse(u).href`;
it has no join). The figures are CPU microseconds per URL, the median over the rounds; the
ratios are ours over each binding, taken in the same child, then the median.

Corpora (the data folder of `WEBURL_BENCHDATA`, read in place):
- warm (after one pass): `hrefs.tsv` (resolve + canonicalize), `absolute.txt`, and the messy
  corpus of `bench/messy.py` (seed 18, 16,000 URLs);
- cold (one pass in a fresh process, after `bench/cold.py`'s warm-up on other hosts): the messy
  corpus with a host of its own per URL, and distinct IDN hosts (`bench/cold.py`'s corpora);
- start-up: `weburl URL` against `python -c pass`, each build's own launcher, median of runs.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / 'bench'))
DEFAULT_DATA = os.environ.get('WEBURL_BENCHDATA') or str(ROOT.parent / 'shared' / 'bench')
SLICE = 500
WARM = ('hrefs', 'absolute', 'messy')
COLD = ('messy, fresh hosts', 'distinct IDN hosts')


def _timed(call, items) -> float:
    clock = time.process_time
    t = clock()
    call(items)
    return clock() - t


def peers(kind: str) -> dict:
    "The callables over a list of items: ours and the bindings that are installed."
    from weburl_nb import url_to_canon_url as ours
    out = {}
    if kind == 'hrefs':
        out['ours'] = lambda items: [ours(h, b) for b, h in items]
    else:
        out['ours'] = lambda items: [ours(u, None, c) for u, c in items]
    try:
        import ada_url
        join, normalize = ada_url.join_url, ada_url.normalize_url

        def ada_h(items):
            for b, h in items:
                try:
                    join(b, h)
                except ValueError:
                    pass

        def ada_a(items):
            for u, _ in items:
                try:
                    normalize(u)
                except ValueError:
                    pass
        out['ada_url'] = ada_h if kind == 'hrefs' else ada_a
    except ImportError:
        pass
    try:
        import can_ada
        parse = can_ada.parse

        def can(items):
            for u, _ in items:
                try:
                    parse(u).href
                except ValueError:
                    pass
        if kind != 'hrefs':
            out['can_ada'] = can
    except ImportError:
        pass
    return out


def corpus(name: str, data: str) -> list:
    if name == 'hrefs':
        lines = Path(data, 'hrefs.tsv').read_text(encoding='utf-8').splitlines()[1:]
        return [tuple(line.split('\t', 1)) for line in lines]
    if name == 'absolute':
        return [(u, None) for u in Path(data, 'absolute.txt').read_text(encoding='utf-8').splitlines()]
    if name == 'messy':
        import messy
        return [(u, c) for _, u, c in messy.generate(data, 18, 16_000)]
    import cold
    return [(u, c) for _, u, c in cold.corpora(data, 26, cold.COUNT)[name]]


def child(name: str, data: str) -> dict:
    "One child: the corpus `name`, each slice by every peer in turn; CPU seconds summed per peer."
    import weburl_nb
    items = corpus(name, data)
    funcs = peers(name)
    if name in WARM:
        for f in funcs.values():
            f(items)
    else:
        import cold
        warm = [(u, c) for _, u, c in cold.warm_up(data, 26)]
        for f in funcs.values():
            f(warm)
    sums = dict.fromkeys(funcs, 0.0)
    for i in range(0, len(items), SLICE):
        part = items[i:i + SLICE]
        for k, f in funcs.items():
            sums[k] += _timed(f, part)
    return {'compiled': weburl_nb.COMPILED, 'n': len(items),
            'us': {k: v / len(items) * 1e6 for k, v in sums.items()}}


def startup(builds: dict, runs: int) -> dict:
    """Median wall ms of `weburl http://example.com/` and of `python -c pass` per build, the
    builds and the two commands alternating run by run (a slow spell touches all alike)."""
    times = {b: {'python -c pass': [], 'weburl URL': []} for b in builds}
    for r in range(runs):
        for b in (list(builds) if r % 2 == 0 else list(builds)[::-1]):
            python = builds[b]
            for k, cmd in (('python -c pass', [python, '-c', 'pass']),
                           ('weburl URL', [str(Path(python).parent / 'weburl'), 'http://example.com/'])):
                t = time.perf_counter()
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd='/')
                times[b][k].append((time.perf_counter() - t) * 1e3)
    out = {}
    for b, per in times.items():
        med = out[b] = {k: statistics.median(v) for k, v in per.items()}
        med['weburl minus python'] = med['weburl URL'] - med['python -c pass']
    return out


def run_child(python: str, name: str, data: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ('PYTHONPATH', 'VIRTUAL_ENV')}
    p = subprocess.run([python, '-I', __file__, '--child', name, '--data', data], capture_output=True,
                       text=True, env=env, cwd='/')
    if p.returncode:
        raise RuntimeError(f'{python} {name}: {p.stderr[-2000:]}')
    return json.loads(p.stdout)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('compiled', nargs='?', help="the compiled build's python (tools/compiled.py build)")
    p.add_argument('--pure', default=sys.executable)
    p.add_argument('--data', default=DEFAULT_DATA)
    p.add_argument('--rounds', type=int, default=3)
    p.add_argument('--corpora', nargs='+', default=[*WARM, *COLD])
    p.add_argument('--startup-runs', type=int, default=15)
    p.add_argument('--out', default=str(ROOT / 'bench-results' / 'builds.json'))
    p.add_argument('--ab', action='store_true', help='two builds of any kind (--pure: the first)')
    p.add_argument('--child', help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.child:
        print(json.dumps(child(a.child, a.data)))
        return 0
    builds = {'pure': a.pure, 'compiled': a.compiled}
    rows: dict = {name: {b: [] for b in builds} for name in a.corpora}
    print(f'builds side by side: {a.rounds} rounds, load average {os.getloadavg()[0]:.2f}', flush=True)
    for r in range(a.rounds):
        order = list(builds) if r % 2 == 0 else list(builds)[::-1]
        for name in a.corpora:
            for b in order:
                got = run_child(builds[b], name, a.data)
                if not a.ab and got['compiled'] != (b == 'compiled'):
                    sys.exit(f'bench/builds.py: the {b} build is not what it should be')
                rows[name][b].append(got['us'])
        print(f'  round {r + 1} done (load {os.getloadavg()[0]:.2f})', flush=True)
    result: dict = {'when': time.strftime('%Y-%m-%dT%H:%M:%S%z'), 'rounds': a.rounds,
                    'load_at_end': os.getloadavg()[0], 'corpora': {}}
    for name, per in rows.items():
        out = result['corpora'][name] = {}
        for b, runs in per.items():
            out[b] = {k: statistics.median(run[k] for run in runs) for k in runs[0]}
            for peer in ('ada_url', 'can_ada'):
                if peer in runs[0]:
                    out[b][f'x {peer}'] = statistics.median(run['ours'] / run[peer] for run in runs)
        gains = [p['ours'] / c['ours'] for p, c in zip(per['pure'], per['compiled'], strict=True)]
        out['compiled over pure'] = statistics.median(gains)
        out['compiled over pure, each round'] = gains
    if a.startup_runs:
        result['startup'] = startup(builds, a.startup_runs)
    print(f'\n{"corpus":<22} {"pure us":>8} {"compiled us":>11} {"gain":>6} {"ada_url us":>10} '
          f'{"can_ada us":>10}  pure x ada_url / can_ada   compiled x ada_url / can_ada')
    for name, out in result['corpora'].items():
        pu, co = out['pure'], out['compiled']
        def x(d, k):
            return f'{d[k]:.2f}' if k in d else '  - '
        print(f'{name:<22} {pu["ours"]:8.2f} {co["ours"]:11.2f} {out["compiled over pure"]:5.2f}x '
              f'{co.get("ada_url", float("nan")):10.2f} {co.get("can_ada", float("nan")):10.2f}  '
              f'{x(pu, "x ada_url"):>8} / {x(pu, "x can_ada"):<8}        {x(co, "x ada_url"):>8} / {x(co, "x can_ada")}')
    if 'startup' in result:
        for b, s in result['startup'].items():
            print(f'start-up {b}: weburl URL {s["weburl URL"]:.1f} ms, python -c pass {s["python -c pass"]:.1f} ms '
                  f'(+{s["weburl minus python"]:.1f} ms)')
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(result, indent=1) + '\n', encoding='utf-8')
    print(f'written: {a.out}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
