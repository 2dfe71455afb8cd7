"""Build the project's site offline: `python tools/site/build.py` (or `make site`) -> `_docs/`.

1. Each notebook of `nbs/`, in the order of `nbs/sidebar.yml`, is processed (tools/site/notebooks.py)
   and executed in a fresh kernel, in `nbs/` as `nbdev_test` does, with the repo on `PYTHONPATH`.
2. The conformance suite is run on the current code for the conformance page.
3. Sphinx with MyST-NB renders the pages with the Furo theme (tools/site/conf.py) into `_docs/`;
   `01_parsing.ipynb` becomes `parsing.html`. Code cells that call the package on a literal URL get
   "try it" links (tools/site/tryit.py) to the in-browser viewer.
4. The viewer, `try.html`, with its offline Pyodide runtime and the package (tools/site/viewer.py).

Scratch files go to `site-build/` (gitignored). A notebook cell that raises is shown on its page
with its traceback and named in the summary; with `SITE_STRICT=1` that makes the build fail.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
import siteconf  # noqa: E402
from siteconf import DOCS, NBS, ROOT  # noqa: E402

SCRATCH = ROOT / "site-build"
SRC = SCRATCH / "src"
HERE = Path(__file__).resolve().parent
KERNEL = "weburl-nb-site"


def _page(job: tuple[str, str, dict, str]) -> tuple[str, list[str], float]:
    "Process and run one notebook (in a worker process); the errors its cells showed."
    from notebooks import execute, make_page
    import tryit
    src, name, names, toctree = job
    start = time.time()
    os.chdir(NBS)  # nbdev's configuration (settings.ini) is found from here, as in nbdev_test
    try:
        nb = tryit.add_links(make_page(Path(src), names))
    except Exception as e:  # nbdev itself cannot read or process it: nbdev_docs would fail too
        raise RuntimeError(f"{Path(src).name} could not be processed: {type(e).__name__}: {e}") from None
    if name == "index":
        nb.cells.append(nbformat.v4.new_markdown_cell(toctree))
    errors = execute(nb, NBS, kernel=KERNEL)
    nbformat.write(nb, SRC / f"{name}.ipynb")
    return name, errors, time.time() - start


def _toctree(pages: list[siteconf.Page]) -> str:
    "The navigation: Home (the index itself), then a toctree per sidebar group, with its caption (Furo's sidebar)."
    blocks = ["```{toctree}\n:hidden:\n:maxdepth: 2\n\nHome <self>\n```\n"]
    groups: list[tuple[str, list[str]]] = []
    for p in pages[1:]:
        if not groups or groups[-1][0] != p.group:
            groups.append((p.group, []))
        groups[-1][1].append(p.name)
    for group, names in groups:
        caption = f":caption: {group}\n" if group else ""
        blocks.append(f"```{{toctree}}\n:hidden:\n:maxdepth: 2\n{caption}\n" + "\n".join(names) + "\n```\n")
    return "\n".join(blocks)


def _figures(src: Path) -> str:
    "Step anchors and term links made (tools/site/steps.py, terms.py), from the pages' metadata."
    ids = links = 0
    undefined = []
    for path in src.glob("*.ipynb"):
        md = json.loads(path.read_text(encoding="utf-8"))["metadata"].get("weburl_site", {})
        ids += len(md.get("step_ids", []))
        links += len(md.get("term_links", []))
        undefined += md.get("terms_not_defined", [])
    return (f"{ids} step anchors, {links} term links" +
            (f"; WARNING terms not defined on their page: {undefined}" if undefined else ""))


def _kernel_spec():
    "A kernel running this very Python (whatever `python3` kernels the machine has), found first through JUPYTER_PATH."
    spec = SCRATCH / "jupyter" / "kernels" / KERNEL
    spec.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": "weburl-nb site", "language": "python"}))
    os.environ["JUPYTER_PATH"] = os.pathsep.join([str(SCRATCH / "jupyter")] + [p for p in [os.environ.get("JUPYTER_PATH")] if p])


def main() -> int:
    start = time.time()
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p])
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    _kernel_spec()
    pages = siteconf.pages()
    if SRC.exists():
        shutil.rmtree(SRC)
    SRC.mkdir(parents=True)
    names = {p.source.stem: p.name for p in pages if p.source}
    toctree = _toctree(pages)
    jobs = [(str(p.source), p.name, names, toctree) for p in pages if p.source]
    __import__("viewer").page(SCRATCH, SRC)
    if pages[0].source is None:  # no nbs/index.ipynb yet
        (SRC / "index.md").write_text(f"# {siteconf.title()}\n\n{siteconf.description()}\n\n{toctree}", encoding="utf-8")

    failed = {}
    with ProcessPoolExecutor(max_workers=min(2, os.cpu_count() or 1)) as pool:
        runs = [pool.submit(_page, job) for job in jobs]
        t = time.time()
        conf = __import__("conformance_page").write(SRC / f"{siteconf.CONFORMANCE}.md")
        conf_time = time.time() - t
        broken = [str(r.exception()) for r in runs if r.exception()]
        if broken:
            print("site: " + "\nsite: ".join(broken), file=sys.stderr)
            return 1
        for name, errors, secs in (r.result() for r in runs):
            print(f"site: ran {name:<20} {secs:5.1f} s" + (f", {len(errors)} cell(s) raised" if errors else ""))
            if errors:
                failed[name] = errors
    files = conf["files"]
    summary = (f"{sum(r['count']['passed'] for r in files)} passed, {sum(r['count']['failed'] for r in files)} failed, "
               f"{sum(r['count']['na'] for r in files)} n/a in {len(files)} files" if files else "no data found")
    print(f"site: conformance {summary} ({conf_time:.1f} s)")

    if DOCS.exists():
        shutil.rmtree(DOCS)
    html = SCRATCH / "html"  # MyST-NB writes beside the output folder: build in the scratch folder, then move
    if html.exists():
        shutil.rmtree(html)
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-E", "-c", str(HERE),
           "-d", str(SCRATCH / "doctrees"), str(SRC), str(html)]
    if subprocess.run(cmd, cwd=ROOT).returncode:
        print("site: sphinx-build failed", file=sys.stderr)
        return 1
    shutil.move(html, DOCS)
    (DOCS / ".nojekyll").touch()
    print("site: " + __import__("viewer").build(SCRATCH))
    built = sorted(p.name for p in DOCS.glob("*.html") if p.stem not in ("genindex", "search"))
    print("site: " + _figures(SRC))
    print(f"site: {len(built)} pages in {DOCS.relative_to(ROOT)}/ ({', '.join(built)}) in {time.time() - start:.0f} s")
    for name, errors in failed.items():
        print(f"site: WARNING {name}: " + "; ".join(errors), file=sys.stderr)
    if failed and os.environ.get("SITE_STRICT") == "1":
        print("site: notebook cells raised (SITE_STRICT=1)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
