"""Run the notebooks' examples, as `nbdev_test` does: `python tools/nbtest.py [NOTEBOOK ...]`.

`make nbtest NB=06_canonicalization` checks one notebook (in this process: about a second); with no
notebook named, every notebook of `nbs/` runs, two at a time (`--workers`). The notebooks changed
since the last commit go first, and the run stops at the first failure, so an example broken by the
edit at hand shows within seconds of the start. Cells flagged with one of settings.ini's `tst_flags`
(`#| notest`, `#| spark`) are skipped unless `--flags` names the flag, as with `nbdev_test`.

A failure names its cell three ways, so it can be found whatever one looks at: its position counted
from 0 as `nbformat` counts (`cells[29]`), which is what nbdev's "While Executing Cell #30" counts
from 1; its `id`; and its first line.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NBS = ROOT / "nbs"


def notebook_path(name: str) -> Path:
    "`06_canonicalization`, `06_canonicalization.ipynb` or `nbs/06_...ipynb`: the notebook's path."
    p = Path(name)
    if p.suffix != ".ipynb":
        p = p.with_name(p.name + ".ipynb")
    for cand in (p, ROOT / p, NBS / p.name):
        if cand.is_file():
            return cand.resolve()
    raise SystemExit(f"nbtest: no notebook {name!r} in {NBS}")


def changed_notebooks() -> set[Path]:
    "The notebooks with changes not yet committed (edited, staged or new)."
    try:
        out = subprocess.run(["git", "status", "--porcelain", "--", "nbs"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return set()
    return {(ROOT / line[3:].strip()).resolve() for line in out.splitlines()
            if line.rstrip().endswith(".ipynb")}


def in_order(files: list[Path]) -> list[Path]:
    "The changed notebooks first, then the others, larger (usually slower) first."
    changed = changed_notebooks()
    return sorted(files, key=lambda f: (f not in changed, -f.stat().st_size, f.name))


def _rel(p: Path) -> Path:
    "`p` from the project's root when it lies inside it."
    return p.relative_to(ROOT) if p.is_relative_to(ROOT) else p


def _where(nb, idx: int) -> str:
    "The failing cell, by position, id and first line."
    cell = nb.cells[idx]
    first = next((ln for ln in cell.source.splitlines() if ln.strip()), "")
    return (f"cells[{idx}] (nbdev's \"Cell #{idx + 1}\"), id {cell.get('id', '(none)')}, "
            f"which starts: {first[:70]}")


def run_notebook(fn: Path, skip_flags: set[str]) -> tuple[str | None, float]:
    "Run `fn`'s examples: `(None, seconds)` when they pass, else `(the report, seconds)`."
    from execnb.shell import CaptureShell, format_exc
    from fastcore.xtras import working_directory
    from nbdev.frontmatter import FrontmatterProc
    from nbdev.process import NBProcessor, nb_lang
    os.environ["IN_TEST"] = "1"
    start = time.time()
    nb = NBProcessor(fn, procs=FrontmatterProc, process=True).nb
    if str(getattr(nb, "frontmatter_", {}).get("skip_exec", "")).lower() in ("true", "1") \
            or nb_lang(nb) != "python":
        return None, 0.0

    def no_eval(cell) -> bool:
        if cell.cell_type != "code" or "nbdev_export" + "(" in cell.source:
            return True
        direc = getattr(cell, "directives_", {}) or {}
        if direc.get("eval:", [""])[0].lower() == "false":
            return True
        return bool(skip_flags & direc.keys())

    shell = CaptureShell(fn)
    try:
        with working_directory(fn.parent):
            shell.run_all(nb, exc_stop=True, preproc=no_eval)
        return None, time.time() - start
    except Exception:
        idx = (shell._cell_idx or 1) - 1
        exc = shell.exc if shell.exc is not None else sys.exc_info()[1]
        lines = format_exc(exc)
        cell_frame = next((i for i, ln in enumerate(lines) if "<ipython-input-" in ln), 1)
        report = (f"{type(exc).__name__} in {_rel(fn)}, {_where(nb, idx)}\n{'=' * 75}\n"
                  + "".join(lines[:1] + lines[cell_frame:]))
        return report, time.time() - start


def _job(args):
    return args[0], *run_notebook(*args)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebooks", nargs="*", help="names (06_canonicalization) or paths; default: all")
    ap.add_argument("--flags", default="", help="space-separated tst_flags to run after all (spark)")
    ap.add_argument("--workers", type=int, default=2, help="notebooks run at once (default 2)")
    ap.add_argument("--timing", action="store_true", help="print each notebook's seconds")
    a = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from nbdev.config import get_config
    cfg = get_config(path=ROOT)
    skip = set(cfg.tst_flags.split()) - set(a.flags.split())
    names = [notebook_path(n) for n in a.notebooks] or sorted(NBS.glob("[!_.]*.ipynb"))
    files = in_order(names)
    t0, failed = time.time(), None
    if len(files) == 1 or a.workers <= 1:
        results = (_job((f, skip)) for f in files)
        pool = None
    else:   # worker processes that may start their own (the relay, Dask), as nbdev_test's do
        # The job by its module's name: a notebook's shell replaces `__main__` in the worker.
        sys.path.insert(0, str(ROOT / "tools"))
        from nbtest import _job as job
        pool = ProcessPoolExecutor(a.workers, mp_context=multiprocessing.get_context("fork"))
        results = (f.result() for f in as_completed([pool.submit(job, (f, skip)) for f in files]))
    done = 0
    for fn, report, secs in results:
        done += 1
        if a.timing:
            print(f"{fn.name}: {secs:.1f} s", flush=True)
        if report is not None:
            failed = fn
            sys.stderr.write(report + "\n")
            break
    if pool is not None:
        if failed:                      # stop the notebooks still running: their answer is moot
            for proc in list(pool._processes.values()):
                proc.terminate()
        pool.shutdown(wait=not failed, cancel_futures=True)
    secs = time.time() - t0
    if failed:
        sys.stderr.write(f"nbtest: {_rel(failed)} failed ({done} of {len(files)} "
                         f"notebook(s) run, {secs:.1f} s; the rest not run)\n")
        return 1
    print(f"nbtest: {len(files)} notebook{'s' * (len(files) != 1)} passed in {secs:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
