"""`make proofs`: plant a fault in each engine piece in turn and check that its pairing test turns red.

Every engine piece is argued Shape / Claim / Checked, and `tools/proofs.py` names, in `PAIRED_TEST`,
the test that pairs it with the spec step it stands for. A pairing test that would still pass with
the piece broken proves nothing, so this script breaks each piece and runs its test:

1. The working tree's package, tests and tools are copied once into a temporary folder.
2. For each piece, the module that defines it (`def NAME`, `class NAME` or `NAME = ...` at the
   top level of a `weburl_nb/*.py`) gets a few lines appended that rebind the name to a *faulty*
   version: the same answers, except on about a third of the calls (chosen by a CRC of the
   arguments, so the same every run), where the answer is changed. A function's result is
   perturbed by its type (a string gains a character, a flag flips, `None` becomes `''`, a tuple
   or a record gets every field perturbed, a list its first item, ...); a compiled pattern's
   `match`/`fullmatch`/`search` answer changes the same way; a class gets every method of its
   own perturbed in place. The appended lines run after the module's own code, so callers in the
   same module (which look the name up at call time) and modules importing it afterwards both
   get the fault.
3. The piece's pairing test runs on that copy (`pytest -x`, Hypothesis without shrinking). A red
   test (exit status 1) is a fault *caught*; a green one is a fault missed; any other status (the
   test not found, the copy failing to import) is an error. The module is restored afterwards.

It prints one line a piece and `caught N of M`; it exits 1 unless every planted fault was caught
and `M` covers every piece of the registry. `python tools/plant_faults.py NAME ...` runs only those
pieces; `--jobs` runs pieces in parallel (default 2); `--control` wraps each piece without changing
an answer, to show that the wrapping alone leaves every pairing test green.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from proofs import PAIRED_TEST, RESTS_ON  # noqa: E402

COPIED = ("weburl_nb", "tests", "tools", "bench", "nbs", "settings.ini", "pyproject.toml", "setup.py")

# The fault, appended to the module that defines the piece. `NAME` is replaced by the piece's name.
FAULT = '''

# --- a fault planted by tools/plant_faults.py (make proofs); never in the package ---
def _planted_fault_setup():
    import re as _re
    import zlib as _zlib

    def chosen(args, kwargs):
        "About a third of the calls, the same ones every run."
        try:
            key = repr(args) + repr(sorted(kwargs.items()))
        except Exception:
            key = str(len(args))
        return _zlib.crc32(key.encode('utf-8', 'surrogatepass')) % 3 == 0 and not CONTROL

    def perturb(r):
        "A different answer of the same kind."
        if r is None:
            return ''
        if r is True or r is False:
            return not r
        if isinstance(r, str):
            return r + '\\x7f' if r else 'x'
        if isinstance(r, bytes):
            return r + b'\\x7f'
        if isinstance(r, int):
            return r + 1
        if isinstance(r, tuple) and hasattr(r, '_replace') and r:    # a record: every field
            return r._replace(**{f: perturb(v) for f, v in zip(r._fields, r)})
        if isinstance(r, tuple):
            return tuple(perturb(v) for v in r) if r else ('x',)
        if isinstance(r, list):
            return [perturb(r[0])] + r[1:] if r else ['x']
        if isinstance(r, dict):
            return {**r, '\\x7f': None}
        if isinstance(r, (set, frozenset)):
            return type(r)(set(r) ^ {'\\x7f'})
        if isinstance(r, _re.Match):
            return None
        return None

    def faulty(f):
        def wrapper(*args, **kwargs):
            r = f(*args, **kwargs)
            return perturb(r) if chosen(args, kwargs) else r
        wrapper.__name__ = getattr(f, '__name__', 'faulty')
        wrapper.__wrapped__ = f
        return wrapper

    class FaultyPattern:
        "A compiled pattern whose answers change on a third of the strings."
        def __init__(self, p):
            self._p = p
            self._any = _re.compile(r'(?s).*')

        def __getattr__(self, attr):
            return getattr(self._p, attr)

        def _answer(self, method, s, *rest):
            r = getattr(self._p, method)(s, *rest)
            if not chosen((s,) + rest, {}):
                return r
            return getattr(self._any, method)(s, *rest) if r is None else None

        def match(self, s, *rest):
            return self._answer('match', s, *rest)

        def fullmatch(self, s, *rest):
            return self._answer('fullmatch', s, *rest)

        def search(self, s, *rest):
            return self._answer('search', s, *rest)

        def sub(self, repl, s, *rest):
            r = self._p.sub(repl, s, *rest)
            return perturb(r) if chosen((s,), {}) else r

    target = globals()['NAME']
    if isinstance(target, type):
        for attr, value in list(vars(target).items()):
            if callable(value) and not isinstance(value, type) and attr not in (
                    '__init__', '__new__', '__init_subclass__', '__repr__', '__hash__', '__eq__'):
                setattr(target, attr, faulty(value))
        return target
    if isinstance(target, _re.Pattern) or hasattr(target, 'fullmatch'):   # LazyRegex too
        return FaultyPattern(target)
    if callable(target):
        return faulty(target)
    raise TypeError('cannot plant a fault in NAME: ' + type(target).__name__)


CONTROL = CONTROL_VALUE
NAME = _planted_fault_setup()
'''

_DEFINES = r"^(?:def\s+{0}\s*\(|class\s+{0}\b|{0}\s*(?::[^=\n]+)?=)"


def defining_module(name: str, package: Path) -> Path | None:
    "The module of `package` whose top level defines `name`."
    pat = re.compile(_DEFINES.format(re.escape(name)), re.MULTILINE)
    hits = [p for p in sorted(package.glob("*.py")) if p.name != "_modidx.py"
            and pat.search(p.read_text(encoding="utf-8"))]
    return hits[0] if len(hits) == 1 else None


def copy_tree(dest: Path) -> None:
    for item in COPIED:
        src = ROOT / item
        if src.is_dir():
            shutil.copytree(src, dest / item, ignore=shutil.ignore_patterns(
                "__pycache__", "*.pyc", ".ipynb_checkpoints"))
        elif src.exists():
            shutil.copy2(src, dest / item)


# The data the tests read, as absolute paths: the copy lives elsewhere, so a relative default
# (`../shared/...`, as the Makefile passes it) would point nowhere and quietly weaken the tests.
DATA_VARIABLES = {"WEBURL_TESTDATA": "shared/testdata/tests-web-url", "WEBURL_BENCHDATA": "shared/bench",
                  "WEBURL_ENCODING_DATA": "shared/data/whatwg-encoding"}


def test_env(copy: Path) -> dict[str, str]:
    "The environment of a pairing test run in `copy`: the copy first on the path, data made absolute."
    env = {**os.environ, "PYTHONPATH": str(copy), "WEBURL_PROOFS": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    for var, default in DATA_VARIABLES.items():
        where = Path(os.environ.get(var) or ROOT.parent / default)
        env[var] = str(where if where.is_absolute() else (ROOT / where).resolve())
    return env


def run_test(copy: Path, node: str, timeout: float) -> tuple[int, float, str]:
    "Run one pytest node id in `copy`: `(status, seconds, last line)`."
    env = test_env(copy)
    t = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                            "--no-header", node], cwd=copy, env=env, capture_output=True,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, time.perf_counter() - t, f"timed out after {timeout:.0f} s"
    lines = [x for x in (p.stdout + p.stderr).splitlines() if x.strip()]
    return p.returncode, time.perf_counter() - t, lines[-1] if lines else ""


def plant(name: str, node: str, base: Path, timeout: float,
          control: bool = False) -> tuple[str, str]:
    "Plant the fault of piece `name` in a copy of its own and run `node`: `(verdict, detail)`."
    copy = base / re.sub(r"\W", "_", name)
    shutil.copytree(base / "clean", copy, symlinks=True)
    try:
        module = defining_module(name, copy / "weburl_nb")
        if module is None:
            return "error", "no single module of weburl_nb defines it"
        with open(module, "a", encoding="utf-8") as f:
            f.write(FAULT.replace("NAME", name).replace("CONTROL_VALUE", str(control)))
        status, secs, last = run_test(copy, node, timeout)
        if control:
            return ("control", f"{node} green with the wrapper alone") if status == 0 else (
                "error", f"{node}: the wrapper alone gives pytest status {status}: {last}")
        if status == 1:
            return "caught", f"{node} red in {secs:.1f} s"
        if status == 0:
            return "MISSED", f"{node} stayed green with the fault ({secs:.1f} s)"
        return "error", f"{node}: pytest status {status}: {last}"
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pieces", nargs="*", help="only these pieces (default: every registered one)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--control", action="store_true",
                    help="wrap each piece without changing any answer: every test must stay green")
    a = ap.parse_args(argv)
    unpaired = sorted(set(RESTS_ON) - set(PAIRED_TEST))
    pieces = a.pieces or list(PAIRED_TEST)
    unknown = [p for p in pieces if p not in PAIRED_TEST]
    if unknown:
        print("not in PAIRED_TEST:", ", ".join(unknown))
        return 2
    with tempfile.TemporaryDirectory(prefix="weburl-proofs-") as tmp:
        base = Path(tmp)
        copy_tree(base / "clean")
        # the pairing tests must pass before any fault is planted
        nodes = sorted({PAIRED_TEST[p] for p in pieces})
        env_ok = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                 "--no-header", "-rs", *nodes], cwd=base / "clean",
                                env=test_env(base / "clean"), capture_output=True, text=True)
        if env_ok.returncode != 0:
            print(env_ok.stdout[-3000:], env_ok.stderr[-2000:])
            print("proofs: the pairing tests fail before any fault is planted")
            return 1
        skipped = [line for line in env_ok.stdout.splitlines() if line.startswith("SKIPPED")]
        if skipped:                      # a skipped pairing test would let every fault through
            print("\n".join(skipped))
            print("proofs: pairing tests skipped (their data missing?): every one must run")
            return 1
        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            verdicts = dict(zip(pieces, ex.map(
                lambda p: plant(p, PAIRED_TEST[p], base, a.timeout, a.control), pieces), strict=True))
    width = max(map(len, pieces))
    for p in pieces:
        verdict, detail = verdicts[p]
        print(f"{verdict:7s} {p:{width}s}  {detail}")
    if a.control:
        ok = sum(v == "control" for v, _ in verdicts.values())
        print(f"control: {ok} of {len(pieces)} pairing tests green with the wrapper alone")
        return 0 if ok == len(pieces) else 1
    caught = sum(v == "caught" for v, _ in verdicts.values())
    print(f"caught {caught} of {len(pieces)}")
    if unpaired and not a.pieces:
        print("pieces of RESTS_ON with no pairing test in PAIRED_TEST:", ", ".join(unpaired))
    return 0 if caught == len(pieces) and not (unpaired and not a.pieces) else 1


if __name__ == "__main__":
    sys.exit(main())
