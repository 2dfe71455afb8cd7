"""Re-run notebooks in place so that their stored outputs match the code: `python tools/outputs.py [NB ...]`.

`make outputs` runs every notebook (`make outputs NB=14_trace` one), each in a fresh kernel as
Jupyter would, then `nbdev_clean`. Run twice, it gives the same files: what a stored output must
not carry is kept out of it here, by one rule each.

- Cells flagged with one of settings.ini's `tst_flags` (`#| spark`, `#| notest`) are not run and
  keep no output, as `nbdev_test` skips them: they need what a checkout may lack (Java), and
  Spark's log lines carry a host name and a date.
- A `show_doc` box links to its source on GitHub; the link keeps the file, not the line number,
  which moves with every edit above it.
- The kernel runs with `WEBURL_BENCH_RESULTS=recorded`, so that the Performance page shows the
  run recorded in `bench/recorded.json` whether or not this checkout has a run of its own.
- The kernel's IPython profile is an empty folder of its own, so a personal profile's startup
  files or settings do not reach the outputs (the project's own kernel settings, autoreload, do:
  they print nothing).
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NBS = ROOT / "nbs"
SKIP_TAG = "skip-execution"          # nbclient's tag for a cell it must not run
_SOURCE_LINE = re.compile(r"(\]\(https://github\.com/[^)\s]+?\.py)#L\d+\)")
_FLAG = re.compile(r"^#\|\s*([\w-]+)\s*$", re.MULTILINE)


def notebooks(names: list[str]) -> list[Path]:
    "The notebooks named (as `make nbtest` takes them), or every one `make outputs` runs."
    if not names:
        return [NBS / "index.ipynb", *sorted(NBS.glob("[0-9]*.ipynb"))]
    sys.path.insert(0, str(ROOT / "tools"))
    from nbtest import notebook_path
    return [notebook_path(n) for n in names]


def flags_of(cell) -> set[str]:
    "The bare `#| flag` directives of a code cell (`#| spark`)."
    return set(_FLAG.findall(cell.source)) if cell.cell_type == "code" else set()


def stable(output: dict) -> dict:
    "`output` without what changes from run to run (a source link's line number)."
    data = output.get("data", {})
    for kind in ("text/markdown", "text/plain"):
        if kind in data:
            text = data[kind] if isinstance(data[kind], str) else "".join(data[kind])
            data[kind] = _SOURCE_LINE.sub(r"\1)", text)
    return output


def coalesced(outputs: list) -> list:
    """`outputs` with each run of adjacent `stdout` (or `stderr`) streams as one: the kernel splits a
    cell's printing where its buffer happened to flush, which varies from run to run."""
    merged: list = []
    for o in outputs:
        last = merged[-1] if merged else None
        if (o.get("output_type") == "stream" and last is not None
                and last.get("output_type") == "stream" and last.get("name") == o.get("name")):
            last["text"] = "".join(last["text"]) + "".join(o["text"])
        else:
            merged.append(o)
    return merged


def run(path: Path, skip_flags: set[str], env: dict) -> None:
    "Execute `path` in place, in a fresh kernel started in `nbs/`."
    import nbformat
    from nbclient import NotebookClient
    from traitlets.config import Config
    nb = nbformat.read(path, as_version=4)
    skipped = []
    for cell in nb.cells:
        if flags_of(cell) & skip_flags:
            tags = cell.metadata.setdefault("tags", [])
            if SKIP_TAG not in tags:
                tags.append(SKIP_TAG)
                skipped.append(cell)
            cell.outputs = []
    # The kernel talks over local sockets (IPC) in a folder of its own: over TCP ipykernel warns
    # that the connection is unencrypted.
    with tempfile.TemporaryDirectory(prefix="weburl-kernel-") as sockets:
        config = Config()
        config.KernelManager.transport = "ipc"
        config.KernelManager.ip = str(Path(sockets) / "kernel")
        client = NotebookClient(nb, timeout=1200, kernel_name="python3", config=config,
                                resources={"metadata": {"path": str(path.parent)}})
        client.execute(env=env)
    for cell in skipped:
        cell.metadata["tags"].remove(SKIP_TAG)
        if not cell.metadata["tags"]:
            del cell.metadata["tags"]
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = [stable(o) for o in coalesced(cell.outputs)]
    nbformat.write(nb, path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebooks", nargs="*", help="names (14_trace) or paths; default: all")
    a = ap.parse_args(argv)
    from nbdev.config import get_config
    skip = set(get_config(path=ROOT).tst_flags.split())
    with tempfile.TemporaryDirectory(prefix="weburl-ipython-") as profile:
        env = dict(os.environ, WEBURL_BENCH_RESULTS="recorded", IPYTHONDIR=profile,
                   PYDEVD_DISABLE_FILE_VALIDATION="1")
        for path in notebooks(a.notebooks):
            t = time.time()
            print(f"outputs: {path.relative_to(ROOT)}", end="", flush=True)
            run(path, skip, env)
            print(f" ({time.time() - t:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
