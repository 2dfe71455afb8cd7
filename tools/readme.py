"""Write README.md from nbs/index.ipynb (Quarto, which `nbdev_readme` needs, is not available offline).

Markdown cells are copied; a code cell becomes a Python block, its text output a plain
block after it, except an `#| echo: false` cell, whose Markdown output is copied as text (the speed
figures, read from bench/recorded.json when the notebook runs). Cells marked `#| hide` and nbdev directive lines are left out. A link to a sibling
notebook (`](10_performance.ipynb)`) is pointed into `nbs/`, where it lives seen from the README.
"""
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADER = "<!-- Generated from nbs/index.ipynb by tools/readme.py: edit the notebook, then `make readme`. -->\n\n"


def cell_markdown(cell: dict) -> str:
    "The README text of one notebook cell ('' for a hidden cell)."
    src = "".join(cell["source"])
    if cell["cell_type"] == "markdown":
        return re.sub(r"\]\((?=[\w-]+\.ipynb[)#])", "](nbs/", src.strip()) + "\n"
    lines = src.splitlines()
    if any(l.strip() in ("#| hide", "#|hide") for l in lines):
        return ""
    if any(re.fullmatch(r"#\|\s*echo:\s*false", l.strip()) for l in lines):
        # a cell that writes prose (figures read from a file): its Markdown output is the text
        return "".join("".join(o.get("data", {}).get("text/markdown", ""))
                       for o in cell.get("outputs", [])).strip() + "\n"
    code = "\n".join(l for l in lines if not l.startswith("#|")).strip()
    out = "".join("".join(o.get("text", "")) if o.get("output_type") == "stream"
                  else "".join(o.get("data", {}).get("text/plain", ""))
                  for o in cell.get("outputs", []))
    text = f"```python\n{code}\n```\n"
    if out.strip():
        text += f"\n```\n{out.rstrip()}\n```\n"
    return text


def main():
    nb = json.loads((ROOT / "nbs" / "index.ipynb").read_text(encoding="utf-8"))
    parts = [cell_markdown(c) for c in nb["cells"]]
    (ROOT / "README.md").write_text(HEADER + "\n".join(p for p in parts if p), encoding="utf-8")


if __name__ == "__main__":
    main()
