"""What the site is made of, read from the nbdev/Quarto configuration (the one source of title and order).

`_quarto.yml` (repo root; `nbs/_quarto.yml` links to it) gives the site's title and description;
its `metadata-files` (resolved in `nbs/`, as Quarto does) give the sidebar, whose `contents` list
the notebooks in reading order. Both the offline build and the browser test use this module.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
NBS = ROOT / "nbs"
QUARTO = ROOT / "_quarto.yml"
DOCS = ROOT / "_docs"
CONFORMANCE = "conformance"  # the generated page's name (conformance.html)


SPEC_GROUP = "The spec"   # the sidebar group of the spec's own sections
TRY = "try"                # the in-browser viewer (try.html), written by tools/site/viewer.py
# Pages the build writes itself, and the sidebar group each closes (the notebooks' groups come from
# nbs/sidebar.yml, whose Quarto sidebar lists notebooks only).
GENERATED = {TRY: "Using it", CONFORMANCE: "The project"}


@dataclass
class Page:
    "One page of the site: the notebook it comes from and the file it becomes."
    source: Path | None  # the notebook, None for a generated page
    name: str            # the page's file name without `.html`
    group: str = ""      # the sidebar's group (a `section:` of nbs/sidebar.yml)

    @property
    def html(self) -> str:
        return self.name + ".html"


def _load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8")) or {} if path.exists() else {}


def quarto() -> dict:
    "The website settings of `_quarto.yml` merged with those of its metadata files (sidebar.yml...)."
    cfg = _load(QUARTO)
    site = dict(cfg.get("website") or {})
    for name in cfg.get("metadata-files") or []:
        extra = _load(NBS / name).get("website") or {}
        for key, value in extra.items():
            if isinstance(value, dict) and isinstance(site.get(key), dict):
                site[key] = {**site[key], **value}
            else:
                site[key] = value
    return site


def title() -> str:
    return str(quarto().get("title") or ROOT.name)


def description() -> str:
    return str(quarto().get("description") or "")


def footer() -> str:
    "The footer line: copyright holder and licence (settings.ini), and how the pages are made."
    import configparser
    cfg = configparser.ConfigParser(delimiters=["="], interpolation=configparser.BasicInterpolation())
    cfg.read(ROOT / "settings.ini", encoding="utf-8")
    d = cfg["DEFAULT"]
    licence = {"apache2": "Apache License 2.0", "mit": "MIT License"}.get(d.get("license", ""), d.get("license", ""))
    return (f"{d.get('copyright', '')}. Code under the {licence}. Every page is generated from a notebook "
            f"in nbs/ (nbdev, Sphinx, MyST-NB)")


def _entries(contents, group: str = "") -> list[tuple[str, str]]:
    "(file name, group) of a Quarto sidebar `contents` list (strings, `href`/`file` entries, sections)."
    out = []
    for item in contents or []:
        if isinstance(item, str):
            out.append((item, group))
        elif isinstance(item, dict):
            for key in ("href", "file", "text"):
                if isinstance(item.get(key), str) and item[key].endswith((".ipynb", ".qmd", ".md")):
                    out.append((item[key], group))
                    break
            out += _entries(item.get("contents"), str(item.get("section") or group))
    return out


def sidebar_entries() -> list[tuple[str, str]]:
    sidebar = quarto().get("sidebar") or {}
    if isinstance(sidebar, list):  # several sidebars: take them in turn
        return [f for s in sidebar for f in _entries(s.get("contents"))]
    return _entries(sidebar.get("contents"))


def sidebar_files() -> list[str]:
    return [f for f, _ in sidebar_entries()]


def page_name(nb: Path) -> str:
    "`01_parsing.ipynb` -> `parsing`: nbdev's numeric prefix dropped."
    return re.sub(r"^\d+[a-z]?_", "", nb.stem)


def notebooks() -> list[Path]:
    "Every notebook of nbs/ that becomes a page (hidden and `_`-prefixed files left out)."
    return sorted(p for p in NBS.glob("*.ipynb") if not p.name.startswith(("_", ".")))


def pages(warn=lambda msg: print("site: " + msg, file=sys.stderr)) -> list[Page]:
    """The site's pages in reading order: the sidebar's notebooks by group, any unlisted ones, with each
    generated page (the viewer, the conformance page) at the end of its group."""
    present = {p.name: p for p in notebooks()}
    order, groups = [], {}
    for entry, group in sidebar_entries():
        if entry in present and present[entry] not in order:
            order.append(present[entry])
            groups[entry] = group
        elif entry not in present:
            warn(f"nbs/sidebar.yml lists {entry}, which is not in nbs/ (yet): skipped")
    if "index.ipynb" in present and present["index.ipynb"] in order:
        order.remove(present["index.ipynb"])
    last = next((groups[nb.name] for nb in reversed(order)), "")
    for nb in present.values():
        if nb not in order and nb.name != "index.ipynb":
            warn(f"{nb.name} is not listed in nbs/sidebar.yml: added after the listed pages")
            order.append(nb)
            groups[nb.name] = last
    result = [Page(nb, page_name(nb), groups[nb.name]) for nb in order]
    for name, group in GENERATED.items():
        ends = [i for i, p in enumerate(result) if p.group == group]
        result.insert(ends[-1] + 1 if ends else len(result), Page(None, name, group if ends else ""))
    return [Page(present.get("index.ipynb"), "index")] + result
