"""Where the time goes on the messy corpus: per kind of fault, `url_to_canon_url`'s time by group of functions.

    python bench/profile_messy.py                    # seed 18, the table
    python bench/profile_messy.py --steps --json x   # the steps route; the figures as JSON too

Each kind's URLs run under `cProfile`; every function's own time (`tottime`) goes to a group: the
package's functions by the step they belong to (the table below), everything else -- built-ins such as
`re.Pattern.sub` or `str.translate`, the standard library's codecs -- to the groups of the functions
that called it, in proportion to the time each caller spent in it. The shares are of the profiled time;
the microseconds are those shares of an unprofiled run of the same URLs (the profiler's cost per call
weighs small functions more, so the shares are a guide, the microseconds an estimate).
"""
from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
import messy  # noqa: E402

# (module, function) -> group; a module alone -> its group. First match wins.
# An engine module goes to the group of the step it serves.
GROUPS = [
    (('charclasses', 'preprocess'), 'preprocess'), (('charclasses', 'remove_tab_lf_cr'), 'preprocess'),
    (('engine_preprocess', None), 'preprocess'),
    (('parsing', None), 'parse'),
    (('resolution', None), 'resolve'), (('engine_paths', None), 'resolve'),
    (('host', None), 'host'), (('nameprep', None), 'host'), (('ipaddr', None), 'host'),
    (('engine_hosts', None), 'host'), (('engine_idna', None), 'host'),
    (('canonicalization', None), 'canonicalization'), (('encoding', None), 'canonicalization'),
    (('engine_encoding', None), 'canonicalization'),
    (('serialization', None), 'serialize'),
    (('shortcuts', None), 'shortcut attempts'),
    (('trace', None), 'trace'),
    (('charclasses', 'check_type'), 'entry (argument checks, dispatch)'),
    (('entry', None), 'entry (argument checks, dispatch)'),
]
ORDER = ['preprocess', 'parse', 'resolve', 'host', 'canonicalization', 'serialize', 'shortcut attempts',
         'trace', 'entry (argument checks, dispatch)', 'other']


def own_group(func) -> str | None:
    "The group of a function of the package, `None` for any other function."
    file, _, name = func
    path = Path(file)
    if path.parent.name not in ('weburl_nb', 'weburl_nb_untraced'):
        return None
    module = path.stem
    for (mod, fn), group in GROUPS:
        if mod == module and (fn is None or fn == name):
            return group
    return 'other'


def grouped(stats: pstats.Stats) -> dict[str, float]:
    "Seconds per group: each function's own time, a foreign function's shared among its callers' groups."
    raw = stats.stats                   # func -> (cc, nc, tt, ct, callers{caller: (cc, nc, tt, ct)})
    memo: dict = {}

    def shares(func, depth=0) -> dict[str, float]:
        if func in memo:
            return memo[func]
        g = own_group(func)
        if g is not None:
            out = {g: 1.0}
        elif depth > 30 or func not in raw or not raw[func][4]:
            out = {'other': 1.0}
        else:
            memo[func] = {'other': 1.0}                         # a cycle ends here
            callers = raw[func][4]
            total = sum(c[3] for c in callers.values()) or 1.0
            out = {}
            for caller, c in callers.items():
                for k, v in shares(caller, depth + 1).items():
                    out[k] = out.get(k, 0.0) + v * c[3] / total
        memo[func] = out
        return out

    seconds: dict[str, float] = {}
    for func, (_, _, tt, _, _) in raw.items():
        for k, v in shares(func).items():
            seconds[k] = seconds.get(k, 0.0) + tt * v
    return seconds


def profile_kinds(items, call, repeat: int = 3) -> dict:
    "Per kind (and overall): unprofiled microseconds per URL and the profiled shares by group."
    kinds: dict[str, list] = {}
    for item in items:
        kinds.setdefault(item[0], []).append(item)
    out = {}
    all_seconds: dict[str, float] = {}
    all_us = 0.0
    for kind, part in kinds.items():
        for _, u, c in part:                                    # warm: caches, lazy regexes
            call(u, None, c)
        best = float('inf')
        for _ in range(repeat):
            t0 = time.process_time()
            for _, u, c in part:
                call(u, None, c)
            best = min(best, time.process_time() - t0)
        prof = cProfile.Profile()
        prof.enable()
        for _, u, c in part:
            call(u, None, c)
        prof.disable()
        seconds = grouped(pstats.Stats(prof))
        total = sum(seconds.values()) or 1.0
        us = best / len(part) * 1e6
        out[kind] = {'us_per_url': us, 'count': len(part),
                     'share': {g: seconds.get(g, 0.0) / total for g in ORDER}}
        all_us += best * 1e6
        for g, s in seconds.items():
            all_seconds[g] = all_seconds.get(g, 0.0) + s / total * best
    n = len(items)
    total = sum(all_seconds.values()) or 1.0
    out['overall'] = {'us_per_url': all_us / n, 'count': n,
                      'share': {g: all_seconds.get(g, 0.0) / total for g in ORDER}}
    return out


def print_table(rows: dict, title: str):
    used = [g for g in ORDER if any(r['share'][g] >= 0.005 for r in rows.values())]
    short = {'shortcut attempts': 'shortcut', 'entry (argument checks, dispatch)': 'entry',
             'canonicalization': 'canon'}
    print(title)
    print(f'  {"kind of fault":<32}{"us/URL":>8}' + ''.join(f'{short.get(g, g):>10}' for g in used))
    for kind, r in rows.items():
        print(f'  {kind:<32}{r["us_per_url"]:>8.2f}'
              + ''.join(f'{r["share"][g] * r["us_per_url"]:>10.2f}' for g in used))
    print('  (microseconds per URL: the group\'s share of the profiled time times the unprofiled time)')


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--data', default=messy.DEFAULT_DATA)
    ap.add_argument('--seed', type=int, default=messy.DEFAULT_SEED)
    ap.add_argument('--count', type=int, default=messy.DEFAULT_COUNT)
    ap.add_argument('--steps', action='store_true', help='profile url_to_canon_url_steps instead')
    ap.add_argument('--json', help='also write the figures to this file')
    args = ap.parse_args(argv)
    from weburl_nb import url_to_canon_url
    from weburl_nb.entry import url_to_canon_url_steps
    call = url_to_canon_url_steps if args.steps else url_to_canon_url
    items = messy.generate(args.data, args.seed, args.count)
    rows = profile_kinds(items, call)
    print_table(rows, f'{call.__name__}, messy corpus seed {args.seed}: where the time goes')
    if args.json:                                   # the form of bench/issue18_*.json
        out = {'when': time.strftime('%Y-%m-%dT%H:%M:%S%z'), 'seed': args.seed, 'profile': rows}
        Path(args.json).write_text(json.dumps(out, indent=1) + '\n', encoding='utf-8')
    return 0


if __name__ == '__main__':
    sys.exit(main())
