"""Cold hosts (issue 26): every URL on a host that no cache has seen, one pass in a fresh process.

    python bench/cold.py                      # both seeds, every corpus, the targets
    python bench/cold.py --seeds 18 --count 4000 --skip shares

Three corpora per seed, each generated here (never stored):

- messy, fresh hosts: the messy corpus of `bench/messy.py`, with a token of its own (`-n<i>`) added to
  the first label of every host that is a name, so that no two URLs share a host;
- distinct IDN hosts: `http://<word>-<n>.<tld>/<path>`, the words of `messy.HOST_WORDS` (several
  scripts, some upper case);
- distinct ASCII hosts with a messy path: `HTTP://NAME<n>.COM:80/a/./b/%7Efoo?q=1` and its kin.

Each corpus is timed in a child process (`--child`): the package and ada-url are imported and run once
over URLs of other hosts (`warm_up`: every kind of fault, a few IDN hosts, so that lazy patterns are
compiled, legacy encoders loaded and the per-code-point tables of a dozen scripts learned), then every
URL goes once through `url_to_canon_url` and once through `ada_url.normalize_url`, slice by slice
(250 URLs of one kind, ours then ada, the slices shuffled), CPU time summed per kind of fault.

`step_shares` times, for distinct IDN hosts, where the host's time goes: the steps route
(`canonicalize_host_steps` with the literal Nameprep and the `punycode` codec) against the engine
route (`engine_idna`'s pieces: for these plain hosts, `plain_nameprep` and `punycode_label`). `cache_hit_rates` runs the warm corpora once each from empty host
caches and reports the share of host lookups the cache answered.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / 'bench'))
import messy  # noqa: E402

DEFAULT_DATA = os.environ.get('WEBURL_BENCHDATA') or str(ROOT.parent / 'shared' / 'bench')
SEEDS = (26, 1026)              # the second seed is a second corpus, kept back when tuning
COUNT = 8_000                   # URLs per messy corpus (the other two: a quarter each)
SLICE = 250
TARGETS = {'messy, fresh hosts': 2.5, 'distinct ASCII hosts, messy path': 2.5, 'distinct IDN hosts': 4.0}
_ADDRESS = re.compile(r'[0-9a-fA-FxX.]*\Z')
TLDS = ['de', 'com', 'jp', 'ru', 'gr', 'cn', 'kr', 'org', 'net', 'fr']
PATHS = ['/a/./b/%7Efoo?q=1', '/A/../b/%7euser/', '/x//y/./z?', '/%41%42c/d/..', '/index.html#Top',
         '/a b/c?q=a b', '/./p/../q/r%2Es']


def fresh_host(host: str, i: int) -> str:
    "`host` with `-n<i>` after its first label (a name's own token); addresses and `[...]` as they are."
    if not host or host[0] == '[' or _ADDRESS.match(host):
        return host
    dot = host.find('.')
    token = f'-n{i}'
    return host + token if dot < 0 else host[:dot] + token + host[dot:]


def messy_fresh(data: str, seed: int, count: int) -> list[tuple[str, str, str | None]]:
    "The messy corpus of `seed`, every URL of a name on a host of its own."
    out = []
    for i, (kind, url, charset) in enumerate(messy.generate(data, seed, count)):
        p = messy.split(url) if '://' in url else None
        if p is not None and p.form == 'url' and url == p.text():
            p.host = fresh_host(p.host, i)
            url = p.text()
        out.append((kind, url, charset))
    return out


def idn_hosts(seed: int, count: int) -> list[tuple[str, str, str | None]]:
    "`count` URLs on distinct internationalized hosts."
    rng = random.Random(seed)
    words = messy.HOST_WORDS + ['münchen', 'straßenbahn', 'ελλάδα', 'пример']
    return [('distinct IDN hosts', f'http://{rng.choice(words)}-{n}.{rng.choice(TLDS)}/'
             f'{rng.choice(["path", "", "a/b.html", "x?q=1"])}', None) for n in range(count)]


def ascii_hosts(seed: int, count: int) -> list[tuple[str, str, str | None]]:
    "`count` URLs on distinct upper-case ASCII hosts, each with a messy path."
    rng = random.Random(seed)
    out = []
    for n in range(count):
        name = rng.choice(['NAME', 'Shop', 'WWW.SITE', 'a-B', 'News']) + str(n)
        scheme = rng.choice(['HTTP', 'http', 'Https'])
        port = {'HTTP': ':80', 'http': rng.choice(['', ':80']), 'Https': ':443'}[scheme]
        out.append(('distinct ASCII hosts, messy path',
                    f'{scheme}://{name}.{rng.choice(TLDS).upper()}{port}{rng.choice(PATHS)}', None))
    return out


def corpora(data: str, seed: int, count: int) -> dict[str, list]:
    return {'messy, fresh hosts': messy_fresh(data, seed, count),
            'distinct IDN hosts': idn_hosts(seed, count // 4),
            'distinct ASCII hosts, messy path': ascii_hosts(seed, count // 4)}


# --- the child: one cold pass -----------------------------------------------------------------

WARM_UP = ['http://example.com/', 'HTTP://Example.COM:80/a/./b/%7Ex?q', 'http://bücher.example/',
           'http://пример.испытание/', 'http://ελλάδα.example/', 'http://日本語.例え/', 'http://한국.example/',
           'http://हिन्दी.example/', 'http://ไทย.example/', 'http://ﬁnance.ｆｕｌｌ/', 'http://ǅemal.İstanbul/',
           'http://münchen.straße.zürich/', 'http://1.2.3.4/', 'http://[::1]/', 'file:///C:/x']


def child(path: str) -> None:
    "Time one pass over the slices in `path` (JSON), ours then ada per slice; print JSON per kind."
    job = json.loads(Path(path).read_text(encoding='utf-8'))
    from weburl_nb import url_to_canon_url
    import ada_url
    normalize = ada_url.normalize_url
    for _, u, c in job['warm']:
        url_to_canon_url(u, None, c)
        try:
            normalize(u)
        except Exception:
            pass
    clock = time.process_time
    kinds: dict[str, dict] = {}
    for part in job['slices']:
        c0 = clock()
        for _, u, c in part:
            url_to_canon_url(u, None, c)
        c1 = clock()
        for _, u, _ in part:
            try:
                normalize(u)
            except Exception:
                pass
        c2 = clock()
        k = kinds.setdefault(part[0][0], {'count': 0, 'ours': 0.0, 'ada': 0.0})
        k['count'] += len(part)
        k['ours'] += c1 - c0
        k['ada'] += c2 - c1
    print(json.dumps(kinds))


def cold_pass(items: list, warm: list) -> dict:
    """Per kind: count, ours and ada in microseconds per URL, their ratio; one pass in a fresh process,
    after `warm` (URLs on other hosts). Slices hold one kind each and come in a shuffled order."""
    import tempfile
    by_kind: dict[str, list] = {}
    for item in items:
        by_kind.setdefault(item[0], []).append(item)
    slices = [part[i:i + SLICE] for part in by_kind.values() for i in range(0, len(part), SLICE)]
    random.Random(0).shuffle(slices)
    with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False, encoding='utf-8') as f:
        json.dump({'warm': warm, 'slices': slices}, f)
    try:
        out = subprocess.run([sys.executable, __file__, '--child', f.name], check=True,
                             capture_output=True, text=True).stdout
    finally:
        os.unlink(f.name)
    kinds = json.loads(out)
    total = {'count': sum(k['count'] for k in kinds.values()),
             'ours': sum(k['ours'] for k in kinds.values()), 'ada': sum(k['ada'] for k in kinds.values())}
    rows = {**kinds, 'overall': total}
    return {kind: {'count': r['count'], 'ours_us': r['ours'] / r['count'] * 1e6,
                   'ada_us': r['ada'] / r['count'] * 1e6, 'ratio': r['ours'] / max(r['ada'], 1e-12)}
            for kind, r in rows.items()}


def warm_up(data: str, seed: int) -> list:
    """URLs run before the timed pass: every kind of fault 30 times (a messy corpus of another seed,
    its hosts marked `-w<i>`, so none is a host of the timed pass), a query in each charset of the
    messy corpus (its encoder loaded), and a few IDN hosts."""
    items = []
    for i, (kind, url, charset) in enumerate(messy.generate(data, seed + 7, 480)):
        p = messy.split(url) if '://' in url else None
        if p is not None and p.form == 'url' and url == p.text():
            p.host = fresh_host(p.host, i).replace(f'-n{i}', f'-w{i}')
            url = p.text()
        items.append((kind, url, charset))
    charsets = [(None, 'http://w.example/a?q=\u00e9\u65e5\u043f', c) for c in messy.CHARSETS]
    return items + charsets + [(None, u, None) for u in WARM_UP]


# --- where a cold IDN host's time goes ----------------------------------------------------------

def _time(f, xs, repeat: int = 5) -> float:
    "Microseconds per item of `f` over `xs`, the least of `repeat` passes."
    best = float('inf')
    for _ in range(repeat):
        c0 = time.process_time()
        for x in xs:
            f(x)
        best = min(best, time.process_time() - c0)
    return best / len(xs) * 1e6


def _plain_labels(labels: list[str]) -> list[str | None]:
    "Step 20 as the engine takes a plain host's labels: `punycode_label` beyond ASCII (bidi passes)."
    from weburl_nb import engine_idna as engine
    return [engine.punycode_label_by_encoder(label) if not label.isascii() else label for label in labels]


def step_shares(count: int = 2000) -> dict:
    """For `count` distinct IDN hosts (`münchen-<n>.de`, `ελλάδα-<n>.gr`, ...): microseconds per host of
    the whole host route and of its parts, steps route (before) and engine route (after)."""
    from weburl_nb import host, nameprep
    from weburl_nb import engine_idna as engine
    words = ['münchen', 'straßenbahn', 'ελλάδα', 'пример', '日本語', 'bücher']
    hosts = [f'{words[n % len(words)]}-{n}.de' for n in range(count)]
    prepared = [nameprep.nameprep(h) for h in hosts]
    labels = [p.split('.') for p in prepared]
    words_only = [ls[0] for ls in labels]
    engine_route = getattr(engine, 'canonicalize_idn_name', None)
    plain = getattr(engine, 'plain_nameprep', None)
    out = {'before': {'whole host': _time(host.canonicalize_host_steps, hosts),
                      'step 11: Nameprep': _time(nameprep.nameprep, hosts),
                      'step 20: labels to ASCII': _time(host.convert_labels, labels),
                      '  of which Punycode': _time(lambda w: w.encode('punycode'), words_only)},
           'after': {'whole host': _time(engine_route, hosts) if engine_route else None,
                     'step 11: Nameprep': _time(plain or engine.nameprep_by_table, hosts),
                     'step 20: labels to ASCII': _time(_plain_labels if plain else engine.convert_labels_by_table,
                                                       labels),
                     '  of which Punycode': _time(engine.punycode_encode, words_only)}}
    for route in out.values():
        whole = route['whole host']
        if whole:
            route['other steps'] = max(0.0, whole - route['step 11: Nameprep'] - route['step 20: labels to ASCII'])
    return out


def host_cache_info() -> dict:
    "The host caches' `cache_info()` per profile, wherever the package keeps them."
    import importlib
    for name in ('weburl_nb.engine_hosts', 'weburl_nb.host'):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, 'host_cache_info'):
            return module.host_cache_info()
    return {}


def _clear_host_caches() -> None:
    import importlib
    for name in ('weburl_nb.engine_hosts', 'weburl_nb.host'):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        for _, cache in getattr(module, '_HOST_CACHES', {}).values():
            cache.cache_clear()


def cache_hit_rates(data: str, seeds) -> dict:
    "Per warm corpus (absolute URLs, each messy seed): host-cache lookups and the share that hit."
    from weburl_nb import url_to_canon_url
    warm = {'absolute': [(None, u, None) for u in (Path(data) / 'absolute.txt').read_text('utf-8').split('\n') if u]}
    for seed in seeds:
        warm[f'messy (seed {seed})'] = messy.generate(data, seed, COUNT)
    out = {}
    for name, items in warm.items():
        _clear_host_caches()
        for _, u, c in items:
            url_to_canon_url(u, None, c)
        info = host_cache_info()
        hits = sum(i.hits for i in info.values())
        misses = sum(i.misses for i in info.values())
        out[name] = {'urls': len(items), 'lookups': hits + misses, 'hit_rate': hits / max(1, hits + misses)}
    return out


# --- report ---------------------------------------------------------------------------------------

def run(data: str = DEFAULT_DATA, seeds=SEEDS, count: int = COUNT, skip=(),
        show_targets: bool = True) -> dict:
    "Every part above; the figures as a dict (`targets`: each target -> met), printed as tables."
    out: dict = {'load_before': os.getloadavg()[0], 'seeds': {}}
    for seed in seeds:
        out['seeds'][str(seed)] = seed_rows = {}
        print(f'\ncold hosts, seed {seed}: one pass in a fresh process, CPU microseconds per URL; '
              f'x ada = / ada_url.normalize_url')
        warm = warm_up(data, seed)
        print(f'  {"corpus / kind of fault":<40}{"count":>7}{"ours":>9}{"ada":>8}{"x ada":>8}')
        for name, items in corpora(data, seed, count).items():
            seed_rows[name] = rows = cold_pass(items, warm)
            for kind, r in rows.items():
                if name != 'messy, fresh hosts' and kind != 'overall':
                    continue
                label = name if kind == 'overall' else '  ' + kind
                print(f'  {label:<40}{r["count"]:>7}{r["ours_us"]:>9.2f}{r["ada_us"]:>8.2f}{r["ratio"]:>8.2f}')
    if 'shares' not in skip:
        out['step_shares'] = shares = step_shares()
        print('\na cold IDN host: microseconds per host by step (share of the whole host route)')
        for route, parts in shares.items():
            whole = parts['whole host']
            cells = '  '.join(f'{k.strip()} {v:.2f}' + (f' ({v / whole:.0%})' if whole and k != 'whole host' else '')
                              for k, v in parts.items() if v is not None)
            print(f'  {route:<7} {cells}')
    if 'caches' not in skip:
        out['host_cache'] = rates = cache_hit_rates(data, seeds)
        print('\nhost cache on the warm corpora (each once, from empty caches): lookups, hit rate')
        for name, r in rates.items():
            print(f'  {name:<22}{r["lookups"]:>9,}{r["hit_rate"]:>8.1%}')
    out['targets'] = targets(out)
    if show_targets:                    # `bench/run.py` prints them with the others
        print('\ntargets (issue 26):')
        for k, ok in out['targets'].items():
            print(f'  {"met    " if ok else "NOT met"}  {k}')
    return out


def targets(result: dict) -> dict:
    "Each cold target of issue 26 -> met, per seed."
    t = {}
    for seed, rows in result.get('seeds', {}).items():
        for name, limit in TARGETS.items():
            if name in rows:
                ratio = rows[name]['overall']['ratio']
                t[f'cold (seed {seed}): {name} <= {limit} x ada_url.normalize_url ({ratio:.2f})'] = ratio <= limit
    return t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--data', default=DEFAULT_DATA)
    ap.add_argument('--seeds', type=int, nargs='+', default=list(SEEDS))
    ap.add_argument('--count', type=int, default=COUNT, help=f'URLs per messy corpus (default {COUNT:,})')
    ap.add_argument('--skip', action='append', default=[], choices=['shares', 'caches'])
    ap.add_argument('--child', help=argparse.SUPPRESS)
    ap.add_argument('--json', help='write the figures to this file')
    args = ap.parse_args(argv)
    if args.child:
        child(args.child)
        return 0
    result = run(args.data, args.seeds, args.count, args.skip)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + '\n', encoding='utf-8')
    return 0


if __name__ == '__main__':
    sys.exit(main())
