""""Try it" links under the examples of each page: a code cell that calls one of the package's functions
on a literal URL (or host) gets a line of links to `try.html`, prefilled with that URL, its base and its
charset through the query parameters `url`, `base` and `charset`."""
from __future__ import annotations

import ast
import html
from urllib.parse import urlencode

import nbformat

MAX_LINKS = 4                      # per cell: a sweep of test_eq lines should not become a wall of links
URL_FUNCTIONS = {"url_to_canon_url", "url_to_canon_url_steps", "explain", "parse_url", "compare", "surt"}
HOST_FUNCTIONS = {"canonicalize_host", "canonicalize_host_steps", "nameprep", "canonicalize_ipv4"}


def _text(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _name(func) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _args(call: ast.Call) -> dict | None:
    "The viewer's parameters for one call, or None when it does not take a literal URL."
    name = _name(call.func)
    first = _text(call.args[0]) if call.args else None
    if first is None:
        return None
    if name in HOST_FUNCTIONS:
        return {"url": f"http://{first}/"}
    if name == "canonicalize_ipv6":
        return {"url": f"http://[{first}]/"}
    if name == "resolve_url" and len(call.args) > 1 and isinstance(call.args[1], ast.Call) \
            and _name(call.args[1].func) == "parse_url" and call.args[1].args:
        base = _text(call.args[1].args[0])
        return {"url": first, "base": base} if base is not None else None
    if name not in URL_FUNCTIONS:
        return None
    params = {"url": first}
    rest = [_text(a) for a in call.args[1:3]]
    for key, value in zip(("base", "charset"), rest):
        if value is not None:
            params[key] = value
    for kw in call.keywords:
        if kw.arg in ("base", "charset") and _text(kw.value) is not None:
            params[kw.arg] = _text(kw.value)
    return params


def links(source: str) -> list[dict]:
    "The distinct viewer parameters of the calls in `source`, in order (at most MAX_LINKS)."
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call)), key=lambda n: (n.lineno, n.col_offset))
    found = []
    for node in calls:
        params = _args(node)
        if params and params not in found and "\n" not in params["url"]:
            found.append(params)
    return found[:MAX_LINKS]


def _link(params: dict) -> str:
    "An HTML link (MyST would read a Markdown link to a page with a query as a cross-reference)."
    text = params["url"] if len(params["url"]) <= 60 else params["url"][:57] + "..."
    label = f"<code>{html.escape(text)}</code>" + (" against a base" if "base" in params else "")
    return f'<a class="try-it" href="try.html?{html.escape(urlencode(params))}">{label}</a>'


def add_links(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    "A small markdown cell of try-it links after every shown code cell that calls a function on a URL."
    cells = []
    for cell in nb.cells:
        cells.append(cell)
        if cell.cell_type != "code" or {"remove-cell", "remove-input"} & set(cell.metadata.get("tags", [])):
            continue
        found = links(cell.source)
        if found:
            items = ", ".join(_link(p) for p in found)
            cells.append(nbformat.v4.new_markdown_cell(f"<small>Try it in your browser: {items}</small>"))
    nb.cells = cells
    return nb
