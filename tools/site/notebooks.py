"""Turn a source notebook into the page notebook the site renders, then run it.

nbdev's own processors do what they do for `nbdev_docs` (add `show_doc` cells after exported
definitions, drop lines marked `hide_line`, strip ANSI codes, drop headings ending in ` -`);
nbdev's `NBProcessor` takes the `#|` directives out of the code. What nbdev leaves to Quarto
is done here with MyST-NB cell tags: `#| hide` cells and cells of imports only still run but are
not shown, `show_doc`
cells show their output only, `#| eval: false` and the project's `tst_flags` cells are not run.
Unlike nbdev's Quarto pages, the exported code of the spec's pages is shown (the site is the spec's
literate edition) for its steps; an exported cell that is not a step, and every exported cell of
the other pages (using it, the project), has its source folded under its `show_doc` signature card.

A spec page's exported cell is a *step cell* (its source shown, under its step) when
- the markdown since the previous code cell names a step: it made a step anchor (a bold `**Step N.**`
  or `**C6.**` label, a numbered step of a registered algorithm: see steps.py) or says `Step 28`,
  `steps 3-6`, `C6`, or
- a docstring in the cell names a step (as above, or "the steps to ...", "step by step"), or
- the cell reports steps to the tracer (`trace_for(...)`), or
- the cell says so with the directive `#| step` (and `#| card` folds a cell the rules call a step).
Everything else (regex constants, caches, record types, small helpers) shows as a card.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
from execnb.nbio import dict2nb, read_nb
from nbdev.config import get_config
from nbdev.process import NBProcessor
from nbdev.processors import (add_show_docs, filter_stream_, hide_line, mv_exports,
                              populate_language, rm_header_dash, strip_ansi,
                              strip_hidden_metadata)

_DIRECTIVE = re.compile(r"^\s*#\s*\|.*(\n|$)", re.MULTILINE)
_LINK = re.compile(r"(\]\(|href=[\"'])(?:\./)?(\d+[a-z]?_)?([\w-]+)\.(ipynb|html)(#[^)\"'\s]*)?")
_SOURCE_LINK = re.compile(r"\[source\]\([^)]*\)(\{[^}]*\})?\n*")
_RULE = re.compile(r"\A---\n+")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import steps  # noqa: E402
import terms  # noqa: E402

GENERATED_PAGES = {"conformance"}  # pages written as Markdown by build.py, not notebooks
# The hidden first cell of every page: nbdev's show_doc, with the signature boxes of signatures.py.
SETUP = f"import sys\nsys.path.insert(0, {str(HERE)!r})\nimport signatures\nfrom nbdev.showdoc import show_doc"


def _tag(cell, *tags):
    md = cell.setdefault("metadata", {})
    md["tags"] = sorted(set(md.get("tags", [])) | set(tags))


def _is_show_doc(cell) -> bool:
    return cell.cell_type == "code" and bool(cell.get("has_sd") or re.match(r"\s*show_doc\(", cell.source or ""))


def _imports_only(source: str) -> bool:
    "A cell of imports only (`if TYPE_CHECKING:` blocks included): plumbing, run but not shown on the page."
    import ast
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return False
    def plumbing(node) -> bool:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            return True
        return (isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                and all(plumbing(n) for n in node.body + node.orelse))
    return bool(body) and all(plumbing(n) for n in body)


_STEP_NAME = re.compile(r"\b(?:[Ss]teps? \d+|C\d+)\b")
_STEP_WORD = re.compile(r"\b(?:[Ss]teps?\b|C\d+\b)")


def _docstrings_name_a_step(source: str) -> bool:
    "Whether a docstring of the cell (module, function or class) names a step: `Step 28`, `C6`."
    import ast
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    nodes = [tree] + [n for n in ast.walk(tree)
                      if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    return any(_STEP_WORD.search(ast.get_docstring(n, clean=False) or "") for n in nodes)


def is_step_cell(dirs, source: str, anchored: bool) -> bool:
    "Whether a spec page's exported cell shows its source (see the module's docstring)."
    if "card" in dirs:
        return False
    return ("step" in dirs or anchored or "trace_for(" in source
            or _docstrings_name_a_step(source))


def _quarto_opt(cell, name) -> str | None:
    "Value of a Quarto cell option (`#| echo: false`) that nbdev leaves in the source."
    vals = cell.directives_.get(name + ":")
    return vals[0].lower() if vals else None


def page_links(text: str, names: dict[str, str]) -> str:
    "Links to another notebook (`01_parsing.ipynb`, `parsing.html`) pointed at its page document."
    def repl(m):
        stem = (m.group(2) or "") + m.group(3)
        page = names.get(stem) or names.get(m.group(3)) or (m.group(3) if m.group(3) in names.values() else None)
        if not page and m.group(3) in GENERATED_PAGES and m.group(1) == "](":
            # a page the build writes as Markdown (the conformance page): link its source
            return f"{m.group(1)}{m.group(3)}.md{m.group(5) or ''}"
        if not page:
            return m.group(0)
        return f"{m.group(1)}{page}.{'ipynb' if m.group(1) == '](' else 'html'}{m.group(5) or ''}"
    return _LINK.sub(repl, text)


def make_page(path: Path, names: dict[str, str]) -> nbformat.NotebookNode:
    "The processed, not yet executed, page notebook of `path`."
    skip_flags = set(get_config().get("tst_flags", "").split())
    nb = read_nb(path)
    proc = NBProcessor(nb=nb, procs=[populate_language, add_show_docs, strip_ansi, hide_line,
                                     filter_stream_, rm_header_dash, mv_exports, strip_hidden_metadata])
    proc.process()
    page = names.get(path.stem, path.stem)
    import siteconf
    spec = page in {p.name for p in siteconf.pages(warn=lambda m: None) if p.group == siteconf.SPEC_GROUP}
    anchors, linker = steps.Anchors(page), terms.Linker(page)
    cells, anchored = [], False   # anchored: a step anchor was made since the last code cell
    for cell in proc.nb.cells:
        src = cell.source or ""
        if cell.cell_type == "markdown":
            before = len(anchors.ids)
            cell.source = linker.cell(anchors.cell(page_links(src, names)))
            anchored = anchored or len(anchors.ids) > before or bool(_STEP_NAME.search(src))
        elif cell.cell_type == "code":
            dirs = cell.directives_
            cell.source = _DIRECTIVE.sub("", src).strip("\n")
            if not cell.source.strip():
                continue  # a directive-only cell (`#| default_exp ...`)
            if "hide" in dirs or _quarto_opt(cell, "include") == "false" or _imports_only(cell.source):
                _tag(cell, "remove-cell")
            step = spec and is_step_cell(dirs, cell.source, anchored)
            if not _is_show_doc(cell):
                anchored = False
            if "export" in dirs and not step and not _is_show_doc(cell):
                _tag(cell, "hide-input")   # not a step: the signature card shows, the source folds
                cell.metadata["weburl_card"] = True
            if _is_show_doc(cell):
                _tag(cell, "remove-input", "showdoc")
            if _quarto_opt(cell, "code-fold") == "true":
                _tag(cell, "hide-input")   # Quarto's folded source: MyST-NB's toggle
            if _quarto_opt(cell, "echo") == "false":
                _tag(cell, "remove-input")
            if _quarto_opt(cell, "output") == "false":
                _tag(cell, "remove-output")
            if _quarto_opt(cell, "eval") == "false" or skip_flags & set(dirs):
                _tag(cell, "skip-execution")
        cells.append(cell)
    setup = nbformat.v4.new_code_cell(SETUP, metadata={"tags": ["remove-cell"]})
    out = nbformat.from_dict({"nbformat": 4, "nbformat_minor": 5, "metadata": dict(nb.metadata), "cells": []})
    out.cells = [setup] + [_clean(c) for c in cells]
    out.metadata["weburl_site"] = {"step_ids": anchors.ids, "term_links": linker.links,
                                   "terms_not_defined": linker.missing()}
    return out


def _clean(cell) -> nbformat.NotebookNode:
    "A plain nbformat cell (nbdev's bookkeeping attributes dropped)."
    keep = {k: cell[k] for k in ("cell_type", "source", "metadata", "outputs", "execution_count", "attachments")
            if k in cell and not (k == "attachments" and cell.cell_type == "code")}
    keep.setdefault("metadata", {})
    keep["id"] = cell.get("id") or f"site-{id(cell):x}"
    if keep["cell_type"] == "code":
        keep.setdefault("outputs", [])
        keep.setdefault("execution_count", None)
    return nbformat.from_dict(keep)


def execute(nb: nbformat.NotebookNode, cwd: Path, kernel: str = "python3", timeout: int = 600) -> list[str]:
    "Run `nb` in a fresh kernel with `cwd` as working folder; the errors it showed, one line each."
    from nbclient import NotebookClient
    from traitlets.config import Config
    # The kernel talks to the build over local sockets (files named from an absolute path, since the
    # kernel runs in `cwd`) rather than TCP: ipykernel warns about plain TCP, once per page.
    import tempfile
    import uuid
    config = Config()
    config.KernelManager.transport = "ipc"
    config.KernelManager.ip = str(Path(tempfile.gettempdir()) / f"weburl-site-{uuid.uuid4().hex[:12]}")
    NotebookClient(nb, timeout=timeout, kernel_name=kernel, allow_errors=True, config=config,
                   resources={"metadata": {"path": str(cwd)}}).execute()
    errors = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                errors.append(f"{out.get('ename')}: {out.get('evalue')} (in: {cell.source.splitlines()[0][:60]!r})")
            md = out.get("data", {}).get("text/markdown")
            if md:  # show_doc's rule (docutils allows none in an output) and link to the Git host (placeholder)
                md = md if isinstance(md, str) else "".join(md)
                out["data"]["text/markdown"] = _RULE.sub("", _SOURCE_LINK.sub("", md))
    return errors
