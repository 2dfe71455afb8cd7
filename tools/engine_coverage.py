"""`make coverage`: the pairing tests of `make proofs` under coverage.py, with branch coverage of the
route's modules (`engine_*.py`, `shortcuts`, `entry`).

A planted fault proves that a pairing test calls its piece; the branches it reaches show which of
the piece's cases it tries. This runs every test of `tools/proofs.py`'s `PAIRED_TEST` once, under
`coverage run --branch`, and prints each branch no test takes (file, line, the function it is in)
and the line

    engine branches covered: X% (N of M)

Every branch left uncovered is named, with its reason, in its piece's **Checked** paragraph; the
ones named there are listed in `UNCOVERED` below, and the run fails on an uncovered branch that is
not, or when the share falls below `TARGET`.
"""
from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from plant_faults import test_env  # noqa: E402
from proofs import PAIRED_TEST  # noqa: E402

MODULES = ["weburl_nb/engine_*.py", "weburl_nb/shortcuts.py", "weburl_nb/entry.py"]
TARGET = 98.0

# function -> the branches that no pairing test takes, each named with its reason in its piece's
# Checked: "text the branch's line starts with -> text its target line starts with" (the lines' text,
# not their numbers, so that an entry survives edits elsewhere)
UNCOVERED: dict[str, list[str]] = {
    # codec_encoder (07b1): Python calls an encoding's error handler with a UnicodeEncodeError only
    "other_run": ["if not isinstance(e, UnicodeEncodeError): -> raise e"],
    "_four_byte_handler": ["if not isinstance(error, UnicodeEncodeError): -> raise error"],
    # percent_encode_by_runs (07b): the route reads the tables itself and calls run_tables on a miss
    "run_tables": ["if tables is None: -> return tables"],
    # file_shape (07f): a host of the shape's characters never canonicalizes to None or `localhost`
    "file_shape": ["if canon is None or canon == 'localhost' -> return NO_SHORTCUT"],
    # url_to_canon_url (07g): canonicalize_parsed_url is Entry's function of the steps, off the route
    "canonicalize_parsed_url": ["if (path := unresolved_path(u)) is not None: -> raise ValueError",
                                "if (path := unresolved_path(u)) is not None: -> return canonicalize_checked"],
}


def enclosing(tree: ast.Module, line: int) -> str:
    "The name of the innermost function or class around `line` (`<module>` if none)."
    best, name = None, "<module>"
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and \
                node.lineno <= line <= (node.end_lineno or node.lineno):
            if best is None or node.lineno > best.lineno:
                best, name = node, node.name
    return name


def run(data: Path) -> None:
    "The pairing tests under coverage, the data into `data`."
    nodes = sorted(set(PAIRED_TEST.values()))
    env = {**test_env(ROOT), "COVERAGE_FILE": str(data)}
    include = ",".join(str(ROOT / m) for m in MODULES)
    p = subprocess.run([sys.executable, "-m", "coverage", "run", "--branch", f"--include={include}",
                        "-m", "pytest", "-q", "-p", "no:cacheprovider", "--no-header", *nodes],
                       cwd=ROOT, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        print(p.stdout[-3000:], p.stderr[-2000:])
        raise SystemExit("coverage: the pairing tests fail")


def report(data: Path) -> dict:
    "coverage.py's JSON report of `data`."
    out = data.with_suffix(".json")
    subprocess.run([sys.executable, "-m", "coverage", "json", f"--data-file={data}", "-o", str(out)],
                   cwd=ROOT, check=True, capture_output=True)
    return json.loads(out.read_text(encoding="utf-8"))


def uncovered(rep: dict) -> list[tuple[str, int, int, str]]:
    "`(file, from line, to line, function)` of every branch no pairing test takes."
    out = []
    for file, f in sorted(rep["files"].items()):
        tree = ast.parse((ROOT / file).read_text(encoding="utf-8"))
        for a, b in f.get("missing_branches", []):
            out.append((file, a, b, enclosing(tree, a)))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, help="reuse this coverage data file (no run)")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="weburl-coverage-") as tmp:
        data = a.data or Path(tmp) / ".coverage"
        if a.data is None:
            run(data)
        rep = report(data)
    totals = rep["totals"]
    n, m = totals["covered_branches"], totals["num_branches"]
    share = 100.0 * n / max(1, m)
    unnamed = []
    for file, x, y, func in uncovered(rep):
        lines = (ROOT / file).read_text(encoding="utf-8").splitlines()
        to = "exit" if y < 0 else lines[y - 1].strip()
        named = any(lines[x - 1].strip().startswith(w.split(" -> ")[0]) and to.startswith(
            w.split(" -> ")[1]) for w in UNCOVERED.get(func, []) if " -> " in w)
        print(f"{'named  ' if named else 'UNNAMED'} {file}:{x}->{y if y > 0 else 'exit'} in {func}: "
              f"{lines[x - 1].strip()[:60]!r} -> {to[:40]!r}")
        if not named:
            unnamed.append((file, x, y))
    print(f"engine branches covered: {share:.1f}% ({n} of {m})")
    if share < TARGET:
        print(f"coverage: below the target of {TARGET}%")
    if unnamed:
        print(f"coverage: {len(unnamed)} uncovered branches not named in UNCOVERED (and their Checked)")
    return 1 if share < TARGET or unnamed else 0


if __name__ == "__main__":
    sys.exit(main())
