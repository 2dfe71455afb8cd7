"""Throughput of the at-scale routes with 1 and with 2 workers: the command's relay, Dask and Spark.

    python bench/at_scale.py --data ../shared/bench [--rows 1000000] [--rounds 3] [--engines relay,dask,spark]

(`make bench-scale`; needs the `scale` extra for Dask, the `spark` extra and Java for Spark; an engine
that is missing is skipped with a message. The relay needs nothing beyond the package.)

The relay (`weburl -j N`, `weburl_nb.relay`): *N* equal processes take turns to read a block of
lines and to write a converted block in input order, and convert blocks meanwhile. Only the turns
are serial, so their cost per line, against the cost per line of converting, bounds what more
processes can give. `--rows` lines, half clean (`absolute.txt`) then half messy (`bench/messy.py`,
seed 18), go through the relay in one process (`run_relay` with n = 1, input from a pipe, output to
a pipe): the CPU time spent in the read turns, in the write turns and in `convert_block` is summed
and divided by the lines; the *serial share* is the turns' cost over the conversion's (target: under
1/12). Then the command itself, `python -m weburl_nb -j J --no-progress`, runs over the same lines
for J = 1 and 2, alternating, `--rounds` times each: lines/s (median), the CPU time of the command's
processes, and whether its output is byte-identical for every J. The relay deals blocks to whichever
process is free, so its *CPU-bound* time is its CPU time over J (J free cores), and the ratio of
those of J = 1 and 2 the CPU-based speed-up.
 The hrefs corpus (page URL, link) is repeated to `--rows`
rows and handed to the engine, cut into 8 partitions and held in memory, so reading is not timed
(Dask: the 8 pieces are scattered round-robin, 4 to each of two workers, and a task runs where its
piece is; `persist` had left them 5 and 3 in some rounds. Spark: cached and counted). How many
partitions each Dask worker holds (from `Client.who_has`) is printed and kept under `placement`.
Each route runs once untimed over 20,000 rows (imports in the workers, the JVM's compiler). Then a
canonical column is computed with `canonicalize_series` and its invalid links (None) are counted,
by each route:

- dask `map_partitions`: `canonicalize_series` on each partition's `link` and `page` columns;
- spark `pandas_udf`: the columns of each Arrow batch as pandas `Series`;
- spark `mapInPandas`: each Arrow batch as a pandas frame;
- `passthrough` (each engine): the same trip with the link copied instead of canonicalized, which
  is the engine's own cost (transfer, Arrow conversion, scheduling) without our work.

Workers: a Dask `LocalCluster` of n worker processes of one thread each; Spark `local[n]` (n task
threads in one JVM, each feeding its own Python worker process). Each round runs n = 1, then n = 2,
each on a fresh cluster or session, so a slow spell of a shared machine falls on both; figures are
medians over all rounds and trials. Before each timed run the 1-minute load average is recorded.

Besides wall-clock time, the CPU time of every process is read from /proc (user + system, with
reaped children) before and after each run: ours (driver, Dask scheduler), the JVM, and each worker
process (Dask workers, Spark's Python workers). Other work on the machine inflates wall-clock time
but hardly CPU time, so the CPU figures tell what two free cores would give: a run cannot be faster
than its busiest worker's CPU time, nor than all its CPU time spread over the machine's cores; the
larger of the two is the *CPU-bound time*, and the ratio of those of n = 1 and n = 2 the CPU-based
speed-up. Writes everything to `--out` (default bench-results/at_scale.json).
"""
from __future__ import annotations

import argparse, hashlib, json, os, platform, resource, shutil, statistics, subprocess, sys, tempfile, time
import warnings
from importlib import metadata
from pathlib import Path

import pandas as pd

from weburl_nb.batch import canonicalize_many
from weburl_nb.frames import canonicalize_series

PARTITIONS = 8
WARM_ROWS = 20_000                  # the untimed run of each route before the timed ones
TICK = os.sysconf('SC_CLK_TCK')


def corpus(data: Path, rows: int) -> pd.DataFrame:
    "The (page, link) pairs of `hrefs.tsv` repeated to *rows* rows."
    lines = (data / 'hrefs.tsv').read_text(encoding='utf-8').splitlines()
    pairs = [p for p in (line.split('\t', 1) for line in lines) if len(p) == 2]
    reps = -(-rows // len(pairs))
    return pd.DataFrame((pairs * reps)[:rows], columns=['page', 'link'])


def copy_links(links, pages=None):
    "The passthrough route: the links as they are (the engine's cost without our work)."
    return links.astype(object)


# ---- CPU time of this process and its descendants, from /proc ----

def _stat(pid: int) -> tuple[int, str, float] | None:
    "(parent pid, command name, CPU seconds incl. reaped children) of *pid*, None if it is gone."
    try:
        raw = Path(f'/proc/{pid}/stat').read_text()
    except OSError:
        return None
    name = raw[raw.index('(') + 1:raw.rindex(')')]
    f = raw[raw.rindex(')') + 2:].split()
    return int(f[1]), name, sum(int(x) for x in f[11:15]) / TICK


def process_tree() -> dict[int, tuple[int, str, float]]:
    "pid -> (parent, name, CPU seconds) for this process and all its descendants."
    stats = {int(p): s for p in os.listdir('/proc') if p.isdigit() and (s := _stat(int(p)))}
    tree, todo = {}, [os.getpid()]
    while todo:
        pid = todo.pop()
        if pid in stats:
            tree[pid] = stats[pid]
            todo += [c for c, s in stats.items() if s[0] == pid]
    return tree


def cpu_used(before: dict, after: dict) -> dict[int, tuple[int, str, float]]:
    "CPU seconds each process of *after* spent since *before* (a new process: all of its time)."
    return {pid: (par, name, cpu - (before[pid][2] if pid in before else 0.0))
            for pid, (par, name, cpu) in after.items()}


# ---- the engines: each yields, per route, a function that runs the job and returns the invalid count

def placed(frame: pd.DataFrame, client, workers: list[str]):
    "*frame* cut into 8 parts, scattered round-robin over *workers*, as a Dask frame; and who holds what."
    import dask.dataframe as dd
    n = len(frame)
    parts = [frame.iloc[i * n // PARTITIONS:(i + 1) * n // PARTITIONS] for i in range(PARTITIONS)]
    futures = [client.scatter(part, workers=[workers[i % len(workers)]], hash=False)
               for i, part in enumerate(parts)]
    holders = client.who_has(futures)           # key -> the workers holding it
    per_worker = [sum(w in held for held in holders.values()) for w in workers]
    return dd.from_delayed(futures, meta=frame[:0], verify_meta=False), per_worker


def dask_engine(frame: pd.DataFrame, workers: int):
    """A Dask LocalCluster of *workers* processes; the frame scattered over them, the same number of
    partitions to each. Yields (routes, worker pids, partitions held by each worker)."""
    from distributed import Client, LocalCluster

    # dashboard_address=None turns the dashboard off, but the scheduler's HTTP server would still
    # take port 8787 (and warn when it is taken): it gets a free local port instead.
    with LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address='localhost:0',
                      scheduler_kwargs={'dashboard': False}) as cluster, Client(cluster) as client:
        addresses = sorted(client.scheduler_info()['workers'])
        full, per_worker = placed(frame, client, addresses)
        warm, _ = placed(frame[:WARM_ROWS], client, addresses)

        def route(fn):
            return [lambda parts=parts: int(parts.link.map_partitions(fn, parts.page, meta=('c', 'object'))
                                            .isna().sum().compute()) for parts in (full, warm)]
        pids = set(client.run(os.getpid).values())
        yield {'map_partitions': route(canonicalize_series), 'passthrough': route(copy_links)}, pids, per_worker


def _canonical_frames(batches):
    "For `mapInPandas`: each batch with its `canonical` column."
    for b in batches:
        yield b.assign(canonical=canonicalize_series(b.link, b.page))


def _copied_frames(batches):
    for b in batches:
        yield b.assign(canonical=b.link)


def spark_engine(frame: pd.DataFrame, workers: int):
    "A Spark session on `local[workers]`; the frame cached in 8 partitions. Yields (routes, None, None)."
    from pyspark.sql import SparkSession
    from pyspark.sql.functions import col, pandas_udf

    os.environ.setdefault('PYSPARK_PYTHON', sys.executable)   # the workers' Python: not PATH's python3
    spark = (SparkSession.builder.master(f'local[{workers}]').appName('weburl-nb-bench')
             .config('spark.ui.enabled', 'false').config('spark.ui.showConsoleProgress', 'false')
             .config('spark.driver.memory', '2g')
             .config('spark.sql.execution.arrow.pyspark.enabled', 'true').getOrCreate())
    spark.sparkContext.setLogLevel('ERROR')
    try:
        full = spark.createDataFrame(frame).repartition(PARTITIONS).cache()
        warm = spark.createDataFrame(frame[:WARM_ROWS]).repartition(PARTITIONS).cache()
        full.count(), warm.count()

        @pandas_udf('string')
        def udf(links: pd.Series, pages: pd.Series) -> pd.Series:
            return canonicalize_series(links, pages)
        schema = 'page string, link string, canonical string'

        def count_null(route):
            return [lambda df=df: route(df).filter(col('canonical').isNull()).count() for df in (full, warm)]
        yield {'pandas_udf': count_null(lambda df: df.select(udf('link', 'page').alias('canonical'))),
               'mapInPandas': count_null(lambda df: df.mapInPandas(_canonical_frames, schema)),
               'passthrough': count_null(lambda df: df.mapInPandas(_copied_frames, schema))}, None, None
    finally:
        spark.stop()


# ---- the command's relay: its serial turns against its conversion, and -j 1 against -j 2

RELAY_JOBS = (1, 2)
SERIAL_TARGET = 1 / 12                      # the turns' cost per line, as a share of converting's


def relay_lines(data: Path, rows: int) -> bytes:
    "*rows* lines for the command: half clean (`absolute.txt`), then half messy, each repeated."
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import messy
    clean = (data / 'absolute.txt').read_text(encoding='utf-8').splitlines()
    dirty = [url.replace('\n', '') for _, url, _ in messy.generate(data, messy.DEFAULT_SEED, 50_000)]
    half = rows // 2
    lines = (clean * -(-half // len(clean)))[:half] + (dirty * -(-(rows - half) // len(dirty)))[:rows - half]
    return ('\n'.join(lines) + '\n').encode('utf-8', 'surrogatepass')


def _timed(fn, totals: dict, name: str):
    "*fn*, adding the CPU seconds of each call to `totals[name]`."
    def timed(*args, **kwargs):
        t = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            totals[name] += time.process_time() - t
    return timed


def relay_costs(path: Path, lines: int) -> dict:
    """CPU µs per line of the relay's read turns, write turns and conversion, in one process
    (`run_relay` with n = 1): input through a pipe from `cat`, output through a pipe to `cat`."""
    from functools import partial

    from weburl_nb import relay
    from weburl_nb.cli import convert_block, parse_args
    totals = {'read': 0.0, 'write': 0.0, 'convert': 0.0}
    read, write = relay.Relay.read, relay.Relay.write
    relay.Relay.read, relay.Relay.write = _timed(read, totals, 'read'), _timed(write, totals, 'write')
    convert = _timed(partial(convert_block, args=parse_args(['--no-progress'])), totals, 'convert')
    try:
        with subprocess.Popen(['cat', str(path)], stdout=subprocess.PIPE) as source, \
                subprocess.Popen(['cat'], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL) as sink, \
                open(os.devnull, 'wb') as errors:
            status = relay.run_relay(convert, 1, (source.stdout.fileno(), sink.stdin.fileno(),
                                                  errors.fileno()), None)
            sink.stdin.close()
    finally:
        relay.Relay.read, relay.Relay.write = read, write
    us = {name: seconds * 1e6 / lines for name, seconds in totals.items()}
    serial = us['read'] + us['write']
    return {'read_us_per_line': us['read'], 'write_us_per_line': us['write'], 'serial_us_per_line': serial,
            'convert_us_per_line': us['convert'], 'serial_share': serial / us['convert'],
            'block_bytes': relay.CHUNK_BYTES, 'status': status}


def relay_run(path: Path, jobs: int) -> dict:
    "`python -m weburl_nb -j JOBS --no-progress < path`: seconds, CPU seconds of its processes, output digest."
    digest = hashlib.blake2b(digest_size=16)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    t = time.perf_counter()
    with open(path, 'rb') as stdin, subprocess.Popen(
            [sys.executable, '-m', 'weburl_nb', '-j', str(jobs), '--no-progress'],
            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as command:
        while data := command.stdout.read(1 << 20):
            digest.update(data)
    seconds = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {'seconds': round(seconds, 3), 'cpu_seconds': round(cpu, 3), 'load': load,
            'status': command.returncode, 'output': digest.hexdigest()}


def bench_relay(data: Path, rows: int, rounds: int) -> dict:
    "The relay's serial share and the command's lines/s with -j 1 and -j 2 (see the module's text)."
    text = relay_lines(data, rows)
    with tempfile.TemporaryDirectory(prefix='weburl-relay-') as folder:
        path = Path(folder) / 'lines.txt'
        path.write_bytes(text)
        costs = relay_costs(path, rows)
        print(f"relay: turns {costs['serial_us_per_line']:.3f} µs/line (read {costs['read_us_per_line']:.3f}, "
              f"write {costs['write_us_per_line']:.3f}), converting {costs['convert_us_per_line']:.2f} µs/line: "
              f"serial share 1/{1 / costs['serial_share']:.0f} (target under 1/{1 / SERIAL_TARGET:.0f})", flush=True)
        runs: dict[int, list] = {j: [] for j in RELAY_JOBS}
        for r in range(rounds):
            for j in RELAY_JOBS:
                run = relay_run(path, j)
                runs[j].append(run)
                print(f"  relay, round {r + 1}, -j {j}: {run['seconds']:.2f} s, {rows / run['seconds']:,.0f} lines/s, "
                      f"CPU {run['cpu_seconds']:.2f} s, load {run['load']:.2f}, exit {run['status']}", flush=True)
    seconds = {j: statistics.median(run['seconds'] for run in runs[j]) for j in RELAY_JOBS}
    cpu = {j: statistics.median(run['cpu_seconds'] for run in runs[j]) for j in RELAY_JOBS}
    bound = {j: cpu[j] / j for j in RELAY_JOBS}        # all CPU time spread over J free cores
    return {'lines': rows, 'bytes': len(text), **costs, 'target': SERIAL_TARGET,
            'runs': {str(j): runs[j] for j in RELAY_JOBS},
            'lines_per_s': {str(j): rows / seconds[j] for j in RELAY_JOBS},
            'cpu_seconds': {str(j): cpu[j] for j in RELAY_JOBS},
            'speedup': seconds[RELAY_JOBS[0]] / seconds[RELAY_JOBS[-1]],
            'cpu_speedup': bound[RELAY_JOBS[0]] / bound[RELAY_JOBS[-1]],
            'identical': len({run['output'] for rs in runs.values() for run in rs}) == 1,
            'statuses': sorted({run['status'] for rs in runs.values() for run in rs})}


def classify(used: dict, worker_pids: set | None) -> dict:
    "Split the CPU seconds of a run into ours, the JVM's, each worker's, and the rest."
    me = os.getpid()
    jvm = {pid for pid, (_, name, _) in used.items() if name == 'java'}
    if worker_pids is None:                     # Spark: the Python workers are forked by the daemon
        daemons = {pid for pid, (par, _, _) in used.items() if par in jvm}
        worker_pids = {pid for pid, (par, _, _) in used.items() if par in daemons}
    workers = sorted((round(used[p][2], 3) for p in worker_pids if p in used), reverse=True)
    total = sum(c for _, _, c in used.values())
    return {'ours': round(used[me][2], 3), 'jvm': round(sum(used[p][2] for p in jvm), 3),
            'workers': [w for w in workers if w >= 0.05], 'total': round(total, 3)}


def measure(engine, frame: pd.DataFrame, workers: int, trials: int, cores: int) -> tuple[dict, list | None]:
    """Each route of *engine* with *workers* workers, *trials* times: per trial seconds, load, CPU;
    and the number of partitions each worker holds (None: the engine does not say)."""
    out = {}
    gen = engine(frame, workers)
    routes, pids, per_worker = next(gen)
    if per_worker is not None:
        print(f'  partitions per worker: {"+".join(map(str, per_worker))}', flush=True)
    for name, (job, warm_up) in routes.items():
        warm_up()                               # untimed: imports in the workers, the JVM's JIT
        runs = []
        for _ in range(trials):
            load = os.getloadavg()[0]
            before = process_tree()
            t = time.perf_counter()
            invalid = job()
            seconds = time.perf_counter() - t
            cpu = classify(cpu_used(before, process_tree()), pids)
            bound = max(max(cpu['workers'], default=0.0), cpu['total'] / cores)
            runs.append({'seconds': round(seconds, 3), 'load': load, 'invalid': invalid, 'cpu': cpu,
                         'cpu_bound_seconds': round(bound, 3)})
            print(f'  {name:>14} {workers} worker(s): {seconds:6.2f} s, load {load:.2f}, '
                  f'{invalid:,} invalid; CPU ours {cpu["ours"]:.2f} jvm {cpu["jvm"]:.2f} workers '
                  f'{"+".join(f"{w:.2f}" for w in cpu["workers"])} total {cpu["total"]:.2f} s', flush=True)
        out[name] = runs
    gen.close()
    return out, per_worker


def summary(rows: int, runs: dict) -> dict:
    "Medians per engine, route and worker count, and the speed-ups of 2 workers over 1."
    out = {}
    for engine, by_workers in runs.items():
        for route in by_workers[1][0]:
            row = {}
            for w in (1, 2):
                trials = [t for rnd in by_workers[w] for t in rnd[route]]
                sec = statistics.median(t['seconds'] for t in trials)
                wcpu = statistics.median(sum(t['cpu']['workers']) for t in trials)
                row[w] = {'seconds': sec, 'links_per_s': rows / sec, 'links_per_s_per_worker': rows / sec / w,
                          'cpu_bound_seconds': statistics.median(t['cpu_bound_seconds'] for t in trials),
                          'worker_cpu_seconds': wcpu, 'links_per_worker_cpu_s': rows / wcpu if wcpu else None,
                          'jvm_cpu_seconds': statistics.median(t['cpu']['jvm'] for t in trials),
                          'total_cpu_seconds': statistics.median(t['cpu']['total'] for t in trials),
                          'load': [t['load'] for t in trials], 'invalid': sorted({t['invalid'] for t in trials}),
                          'trials': len(trials)}
            row['speedup'] = row[1]['seconds'] / row[2]['seconds']
            row['cpu_speedup'] = row[1]['cpu_bound_seconds'] / row[2]['cpu_bound_seconds']
            out[f'{engine} {route}'] = {str(k): v for k, v in row.items()}
    return out


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def available(engine: str) -> str | None:
    "Why *engine* cannot run here, or None."
    from importlib.util import find_spec
    need = {'dask': ('dask', 'distributed', 'pyarrow'), 'spark': ('pyspark', 'pyarrow')}[engine]
    missing = [m for m in need if find_spec(m) is None]
    if missing:
        return f"{', '.join(missing)} not installed (pip install -e '.[{'scale' if engine == 'dask' else 'spark'}]')"
    if engine == 'spark' and shutil.which('java') is None:
        return 'no Java (Debian: apt-get install default-jre-headless)'
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--data', type=Path, default=Path(os.environ.get('WEBURL_BENCHDATA', '../shared/bench')))
    ap.add_argument('--rows', type=int, default=1_000_000)
    ap.add_argument('--rounds', type=int, default=3, help='rounds of (1 worker, 2 workers)')
    ap.add_argument('--trials', type=int, default=1, help='timed runs of each route per round')
    ap.add_argument('--engines', default='relay,dask,spark')
    ap.add_argument('--out', type=Path, default=Path('bench-results/at_scale.json'))
    ap.add_argument('--merge', type=Path, nargs='+', metavar='JSON',
                    help='no run: pool the rounds of these earlier results (same rows) into --out')
    a = ap.parse_args()
    if a.merge:
        return merge(a.merge, a.out)
    warnings.filterwarnings('ignore', 'Sending large graph')   # the data is sent once, before timing
    frame = corpus(a.data, a.rows)
    cores = len(os.sched_getaffinity(0))
    result = {'when': time.strftime('%Y-%m-%dT%H:%M:%S%z'), 'rows': a.rows, 'partitions': PARTITIONS,
              'rounds': a.rounds, 'trials': a.trials, 'command': ' '.join(sys.argv),
              'machine': {'platform': platform.platform(), 'cpus': cores, 'python': platform.python_version(),
                          'load_at_start': os.getloadavg()},
              'versions': {d: _version(d) for d in ('weburl-nb', 'pandas', 'pyarrow', 'dask', 'distributed',
                                                     'pyspark')},
              'skipped': {}, 'runs': {}, 'placement': {}}
    if shutil.which('java'):
        import subprocess
        java = subprocess.run(['java', '-version'], capture_output=True, text=True).stderr.splitlines()
        result['versions']['java'] = java[0] if java else None
    # one process, no engine: the work itself, in Arrow-batch-sized slices (Spark's default 10,000)
    t = time.process_time()
    for i in range(0, len(frame), 10_000):
        canonicalize_series(frame.link[i:i + 10_000], frame.page[i:i + 10_000])
    result['one_process_cpu_seconds'] = round(time.process_time() - t, 3)
    print(f"one process, no engine: {result['one_process_cpu_seconds']:.2f} s CPU for {a.rows:,} links "
          f"({a.rows / result['one_process_cpu_seconds']:,.0f} links per CPU-second)", flush=True)
    engines = {'dask': dask_engine, 'spark': spark_engine}
    for name in a.engines.split(','):
        if name == 'relay':
            result['relay'] = bench_relay(a.data, a.rows, a.rounds)
            continue
        why = available(name)
        if why:
            print(f'{name}: skipped: {why}')
            result['skipped'][name] = why
            continue
        result['runs'][name] = {1: [], 2: []}
        for r in range(a.rounds):
            for w in (1, 2):
                print(f'{name}, round {r + 1}, {w} worker(s):', flush=True)
                runs, per_worker = measure(engines[name], frame, w, a.trials, cores)
                result['runs'][name][w].append(runs)
                if per_worker is not None:          # partitions held by each worker, per round
                    result['placement'].setdefault(name, {1: [], 2: []})[w].append(per_worker)
    result['machine']['load_at_end'] = os.getloadavg()
    report(result, a.out)


def report(result: dict, out: Path):
    "Add the medians to *result*, print them and write *result* to *out*."
    result['summary'] = summary(result['rows'], result['runs'])
    print(f"\nmedians over {result['rounds']} round(s) x {result['trials']} trial(s), {result['rows']:,} links:")
    for key, row in result['summary'].items():
        one, two = row['1'], row['2']
        print(f"{key:>22}: 1 worker {one['links_per_s']:,.0f} links/s; 2 workers {two['links_per_s']:,.0f} "
              f"({two['links_per_s_per_worker']:,.0f} per worker); speed-up {row['speedup']:.2f} x measured, "
              f"{row['cpu_speedup']:.2f} x CPU-bound; load {statistics.median(one['load'] + two['load']):.2f}")
    if 'relay' in result:
        r = result['relay']
        print(f"{'relay -j':>22}: 1 process {r['lines_per_s']['1']:,.0f} lines/s; 2 processes "
              f"{r['lines_per_s']['2']:,.0f}; speed-up {r['speedup']:.2f} x measured, {r['cpu_speedup']:.2f} x "
              f"CPU-bound (CPU {r['cpu_seconds']['1']:.2f} s, {r['cpu_seconds']['2']:.2f} s); "
              f"output identical: {r['identical']}; "
              f"serial share 1/{1 / r['serial_share']:.0f} of a worker's per line "
              f"({r['serial_us_per_line']:.3f} / {r['convert_us_per_line']:.2f} µs; target under 1/12)")
    for engine, by_workers in result.get('placement', {}).items():
        for w, rounds in by_workers.items():
            print(f"{engine} partitions per worker, {w} worker(s), each round: "
                  f"{', '.join('+'.join(map(str, p)) for p in rounds)}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + '\n', encoding='utf-8')
    print(f'written to {out}')


def merge(paths: list[Path], out: Path):
    "One result of the rounds of several runs (of the same rows, trials and engines)."
    runs = [json.loads(p.read_text(encoding='utf-8')) for p in paths]
    result = {k: v for k, v in runs[-1].items() if k != 'summary'}
    result['runs'] = {e: {w: [rnd for r in runs for rnd in r['runs'][e][str(w)]] for w in (1, 2)}
                      for e in runs[-1]['runs']}
    result['rounds'] = sum(r['rounds'] for r in runs)
    result['placement'] = {e: {w: [p for r in runs for p in r.get('placement', {}).get(e, {}).get(str(w), [])]
                               for w in (1, 2)} for e in runs[-1].get('placement', {})}
    result['merged'] = [{'when': r['when'], 'load_at_start': r['machine']['load_at_start'],
                         'load_at_end': r['machine']['load_at_end'], 'rounds': r['rounds'],
                         'one_process_cpu_seconds': r['one_process_cpu_seconds']} for r in runs]
    result['one_process_cpu_seconds'] = statistics.median(r['one_process_cpu_seconds'] for r in runs)
    report(result, out)


if __name__ == '__main__':
    main()
