"""`make proofs`: plant a fault in each engine piece in turn and check that its pairing test turns red.

Every engine piece is argued Shape / Claim / Checked, and `tools/proofs.py` names, in `PAIRED_TEST`,
the test that pairs it with the spec step it stands for. A pairing test that would still pass with
the piece broken proves nothing, so this script breaks each piece and runs its test:

1. The working tree's package, tests and tools are copied once into a temporary folder.
2. For each piece or part (`PARTS`), the module that defines it (`def NAME`, `class NAME` or
   `NAME = ...` at the top level of a `weburl_nb/*.py`) gets lines inserted right after the
   definition that rebind the name to a *faulty* version: the same answers, except on about a
   third of the calls (for each argument, by a CRC of it and a count of its calls, so the same
   every run), where the answer is changed. A function's result is perturbed by its type (a string
   gains a character, a flag flips, `None` becomes `''`, a tuple or a record gets every field
   perturbed, a list its first item, a dict every value, ...); a procedure (`-> None`) does
   nothing on those calls; a function that a factory returns is faulty in its turn; a compiled
   pattern's `match`/`fullmatch`/`search` answer changes the same way; a class gets every method
   of its own perturbed in place (a class with `__init__` alone: its instances' attributes). The
   lines run right after the definition, so whatever the module builds from the name afterwards
   (a tier list, a cache, a table, a registered handler), the callers that look it up at call
   time, and the modules importing it all get the fault.
3. The pairing test of the piece (of the piece a part belongs to) runs on that copy (`pytest -x`,
   Hypothesis without shrinking), and so does the route differential
   (`tools/route_differential.py`): `url_to_canon_url` against the steps' answers, stored from the
   clean tree, over the conformance inputs in the four profiles, a seeded messy corpus and inputs
   of the rare shapes. A red test (exit status 1) is a fault *caught*; a green one is a fault
   missed; any other status (the test not found, the copy failing to import) is an error.

It prints one line a piece and `caught N of M; through the route R of M`; it exits 1 unless every
planted fault was caught by both and `M` covers every piece and part of the registry.
`python tools/plant_faults.py NAME ...` runs only those pieces or parts; `--jobs` runs them in
parallel (default 2); `--control` wraps each without changing an answer, to show that the wrapping
alone leaves every pairing test and the route green. `make proofs` runs `tools/route_census.py`
first: every function on the route must be a piece or a part.
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
from proofs import PAIRED_TEST, PARTS, RESTS_ON  # noqa: E402

COPIED = ("weburl_nb", "tests", "tools", "bench", "nbs", "settings.ini", "pyproject.toml", "setup.py")

# The fault, appended to the module that defines the piece. `NAME` is replaced by the piece's name.
FAULT = '''

# --- a fault planted by tools/plant_faults.py (make proofs); never in the package ---
def _planted_fault_setup():
    import re as _re
    import zlib as _zlib

    counts = {}

    def chosen(args, kwargs):
        "A third of the calls with each argument (by a CRC of them and a count), the same every run."
        try:
            key = repr(args) + repr(sorted(kwargs.items()))
        except Exception:
            key = str(len(args))
        key = _re.sub(' at 0x[0-9a-fA-F]+', '', key)     # no address: the same calls every run
        crc = _zlib.crc32(key.encode('utf-8', 'surrogatepass'))
        n = counts[crc] = counts.get(crc, -1) + 1
        return (crc + n) % 3 == 0 and not CONTROL

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
            return {k: perturb(v) for k, v in r.items()} if r else {'\\x7f': None}
        if isinstance(r, (set, frozenset)):
            return type(r)(set(r) ^ {'\\x7f'})
        if isinstance(r, _re.Match):
            return None
        if isinstance(r, _re.Pattern) or hasattr(r, 'fullmatch'):
            return FaultyPattern(r)
        return None

    def made(r):
        "A function that a factory made: faulty in its turn (a third of its calls)."
        return (callable(r) and not isinstance(r, type) and not isinstance(r, _re.Pattern)
                and not hasattr(r, 'fullmatch'))

    def faulty(f):
        procedure = getattr(f, '__annotations__', {}).get('return', ...) in (None, 'None')

        def wrapper(*args, **kwargs):
            pick = chosen(args, kwargs)
            if pick and procedure:
                return None                 # a procedure: it does nothing on the chosen calls
            r = f(*args, **kwargs)
            if made(r):
                return faulty(r)
            return perturb(r) if pick else r
        wrapper.__name__ = getattr(f, '__name__', 'faulty')
        wrapper.__wrapped__ = f
        for attr in ('cache_info', 'cache_clear'):      # a cache's own functions
            if hasattr(f, attr):
                setattr(wrapper, attr, getattr(f, attr))
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

    def faulty_init(init):
        "An `__init__` whose instance gets every attribute perturbed on a third of the calls."
        def wrapper(self, *args, **kwargs):
            init(self, *args, **kwargs)
            if chosen(args, kwargs):
                for attr, value in list(vars(self).items()):
                    setattr(self, attr, perturb(value))
        return wrapper

    target = globals()['NAME']
    if isinstance(target, type):
        methods = [attr for attr, value in vars(target).items()
                   if callable(value) and not isinstance(value, type) and attr not in (
                       '__init__', '__new__', '__init_subclass__', '__repr__', '__hash__', '__eq__')]
        for attr in methods:
            setattr(target, attr, faulty(vars(target)[attr]))
        if not methods and '__init__' in vars(target):     # a record of tables: its attributes
            target.__init__ = faulty_init(vars(target)['__init__'])
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


def planted(text: str, name: str, fault: str) -> str:
    """`text` with `fault` inserted right after the top-level definition of `name` (its `def` or
    `class` block, or its assignment), before the first statement that follows: whatever the
    module builds from the name afterwards (a tier list, a cache, a table, a registered codec
    handler) is built from the faulty one, as it would be from a fault in the source."""
    m = re.compile(_DEFINES.format(re.escape(name)), re.MULTILINE).search(text)
    assert m is not None
    pos = text.find("\n", m.end()) + 1 or len(text)
    while pos < len(text):
        end = text.find("\n", pos) + 1 or len(text)
        line = text[pos:end]
        if line.strip() and line[0] not in " \t)]}#":
            break                                   # the next statement of the module
        pos = end
    return text[:pos] + fault + "\n\n" + text[pos:]


def plant(name: str, node: str, base: Path, timeout: float,
          control: bool = False) -> tuple[str, str, str]:
    """Plant the fault of `name` in a copy of its own, run its pairing test `node` and the route
    differential: `(pairing verdict, route verdict, detail)`."""
    copy = base / re.sub(r"\W", "_", name)
    shutil.copytree(base / "clean", copy, symlinks=True)
    try:
        module = defining_module(name, copy / "weburl_nb")
        if module is None:
            return "error", "error", "no single module of weburl_nb defines it"
        fault = FAULT.replace("NAME", name).replace("CONTROL_VALUE", str(control))
        module.write_text(planted(module.read_text(encoding="utf-8"), name, fault), encoding="utf-8")
        status, secs, last = run_test(copy, node, timeout)
        rstatus, rsecs, rlast = run_route(copy, base / ROUTE_REF, timeout)
        if control:
            verdict = "control" if status == 0 else "error"
            rverdict = "control" if rstatus == 0 else "error"
            return verdict, rverdict, (f"{node}: status {status} ({last}); route: status {rstatus} "
                                       f"({rlast})")
        verdicts = {1: "caught", 0: "MISSED"}
        return (verdicts.get(status, "error"), verdicts.get(rstatus, "error"),
                f"{node} {_said(status, last)} in {secs:.1f} s; route {_said(rstatus, rlast)} "
                f"in {rsecs:.1f} s")
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def _said(status: int, last: str) -> str:
    return {1: "red", 0: "green"}.get(status, f"status {status}: {last}")


ROUTE_REF = "route_reference.pickle"


def run_route(copy: Path, ref: Path, timeout: float) -> tuple[int, float, str]:
    "The route differential in `copy` (`tools/route_differential.py check`): `(status, seconds, last line)`."
    t = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, str(copy / "tools" / "route_differential.py"), "check",
                            str(ref)], cwd=copy, env=test_env(copy), capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, time.perf_counter() - t, f"timed out after {timeout:.0f} s"
    lines = [x for x in (p.stdout + p.stderr).splitlines() if x.strip()]
    return p.returncode, time.perf_counter() - t, lines[-1] if lines else ""


def test_of(name: str) -> str:
    "The pairing test of a piece, or of the piece a part belongs to."
    return PAIRED_TEST[name] if name in PAIRED_TEST else PAIRED_TEST[PARTS[name]]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pieces", nargs="*", help="only these pieces or parts (default: every registered one)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--control", action="store_true",
                    help="wrap each piece without changing any answer: every test must stay green")
    a = ap.parse_args(argv)
    unpaired = sorted(set(RESTS_ON) - set(PAIRED_TEST))
    orphans = sorted(p for p, piece in PARTS.items() if piece not in PAIRED_TEST)
    if orphans:
        print("parts of no piece of PAIRED_TEST:", ", ".join(orphans))
        return 2
    pieces = a.pieces or [*PAIRED_TEST, *PARTS]
    unknown = [p for p in pieces if p not in PAIRED_TEST and p not in PARTS]
    if unknown:
        print("not in PAIRED_TEST nor PARTS:", ", ".join(unknown))
        return 2
    with tempfile.TemporaryDirectory(prefix="weburl-proofs-") as tmp:
        base = Path(tmp)
        copy_tree(base / "clean")
        # the pairing tests must pass before any fault is planted
        nodes = sorted({test_of(p) for p in pieces})
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
        # the route's answers, by the steps, before any fault is planted; the route must agree
        ref = subprocess.run([sys.executable, str(base / "clean" / "tools" / "route_differential.py"),
                              "build", str(base / ROUTE_REF)], cwd=base / "clean",
                             env=test_env(base / "clean"), capture_output=True, text=True)
        print(ref.stdout.strip().splitlines()[-1] if ref.stdout.strip() else ref.stderr[-2000:])
        if ref.returncode != 0:
            print(ref.stdout[-3000:], ref.stderr[-2000:])
            print("proofs: the route differs from the steps before any fault is planted")
            return 1
        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            verdicts = dict(zip(pieces, ex.map(
                lambda p: plant(p, test_of(p), base, a.timeout, a.control), pieces), strict=True))
    width = max(map(len, pieces))
    for p in pieces:
        verdict, rverdict, detail = verdicts[p]
        kind = "piece" if p in PAIRED_TEST else f"part of {PARTS[p]}"
        print(f"{verdict:7s} {rverdict:7s} {p:{width}s}  {kind}: {detail}")
    if a.control:
        ok = sum(v == "control" for v, _, _ in verdicts.values())
        rok = sum(r == "control" for _, r, _ in verdicts.values())
        print(f"control: {ok} of {len(pieces)} pairing tests and {rok} of {len(pieces)} route runs "
              f"green with the wrapper alone")
        return 0 if ok == rok == len(pieces) else 1
    caught = sum(v == "caught" for v, _, _ in verdicts.values())
    routed = sum(r == "caught" for _, r, _ in verdicts.values())
    if unpaired and not a.pieces:
        print("pieces of RESTS_ON with no pairing test in PAIRED_TEST:", ", ".join(unpaired))
    print(f"caught {caught} of {len(pieces)}; through the route {routed} of {len(pieces)}")
    return 0 if caught == routed == len(pieces) and not (unpaired and not a.pieces) else 1


if __name__ == "__main__":
    sys.exit(main())
