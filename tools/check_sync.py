"""Check that the generated files match their sources: `python tools/check_sync.py`.

First every cell of every notebook must have an `id` (Jupyter gives a cell without one a random
id at each save, and nbformat warns about it). Then, in a scratch copy of the project, it runs
`nbdev_export`, `nbdev_clean` and the README generator, and compares `weburl_nb/`, `nbs/` and
`README.md` with the working tree. Exit status 1, with the cells or files named, when anything is
missing or out of date.
"""
import filecmp, json, shutil, subprocess, sys, tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRACKED = ["settings.ini", "README.md", "nbs", "weburl_nb", "tools", "_quarto.yml"]


def _tool(name: str) -> str:
    "A console script of the running environment (next to its python), else from PATH."
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else (shutil.which(name) or name)


def differing(a: Path, b: Path) -> list[str]:
    "Files that differ between folders `a` and `b` (caches ignored)."
    cmp = filecmp.dircmp(a, b, ignore=["__pycache__", ".ipynb_checkpoints"])
    out = [str(a / n) for n in cmp.diff_files + cmp.left_only + cmp.right_only]
    for sub in cmp.common_dirs:
        out += differing(a / sub, b / sub)
    return out


def cells_without_id(nbs: Path) -> list[str]:
    "`notebook cells[i]` for each cell that has no `id`."
    return [f"{nb.relative_to(ROOT)} cells[{i}]" for nb in sorted(nbs.glob("*.ipynb"))
            for i, cell in enumerate(json.loads(nb.read_text(encoding="utf-8"))["cells"])
            if not cell.get("id")]


def main() -> int:
    missing = cells_without_id(ROOT / "nbs")
    if missing:
        print("cells without an id (give each a stable one, e.g. 8 hex digits):\n  " + "\n  ".join(missing))
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        for name in TRACKED:
            src = ROOT / name
            if src.is_dir():
                shutil.copytree(src, t / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
            elif src.exists():
                shutil.copy2(src, t / name)
        for cmd in ([_tool("nbdev_export")], [_tool("nbdev_clean")], [sys.executable, "tools/readme.py"]):
            subprocess.run(cmd, cwd=t, check=True, capture_output=True)
        bad = [p for p in differing(ROOT / "weburl_nb", t / "weburl_nb") + differing(ROOT / "nbs", t / "nbs")]
        if not filecmp.cmp(ROOT / "README.md", t / "README.md", shallow=False):
            bad.append(str(ROOT / "README.md"))
    if bad:
        print("out of date (run `make export readme`):\n  " + "\n  ".join(bad))
        return 1
    print("weburl_nb/, notebooks and README.md are in sync with nbs/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
