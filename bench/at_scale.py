"""Throughput of the at-scale routes: `weburl_nb.frames` on a Dask LocalCluster of 1 and 2 workers.

    python bench/at_scale.py --data ../shared/bench [--rows 1000000]

The hrefs corpus (page URL, link) is repeated to `--rows` rows, cut into 8 partitions held by the
cluster (persisted first, so reading is not timed), and a canonical column is computed with
`canonicalize_series` and counted. Prints links per second per run, per worker, and the speed-up of
two workers over one, with the load average before each run (other work on the machine skews the
wall-clock figures), and the workers' CPU time, which other work does not inflate as much:
links per worker CPU-second, and the speed-up that the split of CPU time between the two allows.
"""
import argparse, os, resource, time
from pathlib import Path

import dask.dataframe as dd
import pandas as pd
from distributed import Client, LocalCluster, wait

from weburl_nb.frames import canonicalize_series


def corpus(data: Path, rows: int) -> pd.DataFrame:
    pairs = [line.split('\t', 1) for line in (data / 'hrefs.tsv').read_text(encoding='utf-8').splitlines()]
    pairs = [p for p in pairs if len(p) == 2]
    reps = -(-rows // len(pairs))
    return pd.DataFrame((pairs * reps)[:rows], columns=['page', 'link'])


def cpu_seconds() -> float:
    "CPU time of the calling process (run on each worker by `client.run`)."
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def run(frame: pd.DataFrame, workers: int, trials: int) -> dict:
    with LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        parts = dd.from_pandas(frame, npartitions=8).persist()
        wait(parts)
        best = None
        for _ in range(trials):
            load = os.getloadavg()[0]
            before = client.run(cpu_seconds)
            t = time.perf_counter()
            canon = parts.link.map_partitions(canonicalize_series, parts.page, meta=('c', 'string'))
            invalid = int(canon.isna().sum().compute())
            seconds = time.perf_counter() - t
            cpu = [c - before[w] for w, c in client.run(cpu_seconds).items()]
            if best is None or seconds < best['seconds']:
                best = {'seconds': seconds, 'load': load, 'invalid': invalid, 'cpu': cpu}
    best['rate'] = len(frame) / best['seconds']
    best['per_worker'] = best['rate'] / workers
    best['per_cpu_second'] = len(frame) / sum(best['cpu'])      # links per CPU-second of a worker
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', type=Path, default=Path('../shared/bench'))
    ap.add_argument('--rows', type=int, default=1_000_000)
    ap.add_argument('--trials', type=int, default=3)
    a = ap.parse_args()
    frame = corpus(a.data, a.rows)
    res = {w: run(frame, w, a.trials) for w in (1, 2)}
    for w, r in res.items():
        print(f"{w} worker(s): {r['seconds']:.2f} s for {a.rows:,} links, {r['rate']:,.0f} links/s, "
              f"{r['per_worker']:,.0f} per worker, {r['invalid']:,} invalid (load {r['load']:.2f}); "
              f"worker CPU {' + '.join(f'{c:.2f}' for c in r['cpu'])} s: "
              f"{r['per_cpu_second']:,.0f} links per worker CPU-second")
    wall = res[1]['seconds'] / res[2]['seconds']
    cpu = sum(res[1]['cpu']) / max(res[2]['cpu'])     # what two free cores would give
    print(f"speed-up of 2 workers over 1: {wall:.2f} x measured; {cpu:.2f} x from the workers' CPU time")


if __name__ == '__main__':
    main()
