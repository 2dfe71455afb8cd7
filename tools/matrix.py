"""The interpreter matrix: `python tools/matrix.py` (or `make test-matrix`).

Runs the pytest suite (conformance cases, unit, API and CLI tests; not the site's browser test)
under every CPython at or above `min_python` (settings.ini) found on this machine, then the
conformance cases under Pyodide in `node`, and prints a table of what ran.

* Interpreters: `/usr/bin/python3*` and `/usr/local/bin/python3*` (Debian's own, which is
  "externally managed": it only ever creates a venv), every pyenv version
  (`$PYENV_ROOT/versions/*`), and `python3`, `python3.N` on `PATH` (pyenv's shims are skipped:
  they are not interpreters). The same executable reached twice runs once; older versions,
  venvs and other implementations are listed as skipped, with the reason.
* One venv per interpreter in `.matrix/` (gitignored), made again when settings.ini, setup.py or
  pyproject.toml change. It holds the package (editable, so the tests and the `weburl` launcher
  see this checkout) and what the suite imports: pytest and Hypothesis (required), and the
  optional pandas/Dask/pyarrow (the frames tests) and ada-url (the `compare` row of the URL
  Standard). An optional package that cannot be installed on an interpreter is named in the
  table, and the tests that need it are skipped with a reason that `-rs` prints (never a pass).
* Pyodide: the npm `pyodide` package at the version the try page uses (tools/site/viewer.py),
  fetched with `npm pack` and cached (the site build's copy is reused when present); `idna` comes
  from a wheel downloaded beforehand with pip and is unpacked into Pyodide's site-packages. At
  run time nothing is fetched: the checkout and the data are mounted into Pyodide's file system
  (tools/pyodide_conformance.mjs runs tools/conformance_cases.py there).

Exit status 1 when a run fails, when the conformance cases did not run, or when fewer than two
distinct minor versions of CPython ran. Options: `--python PATH` (only these; repeatable),
`--no-pyodide`, `--pyodide-only`, `--list` (what would run).
"""
from __future__ import annotations

import argparse
import configparser
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".matrix"
LOGS = WORK / "logs"
CONFIG = ("settings.ini", "setup.py", "pyproject.toml")
# What the pytest suite imports beyond the package and the standard library (settings.ini names
# the versions): required ones fail the run when they cannot be installed, optional ones are
# named in the table and their tests skip.
REQUIRED = ("pytest", "hypothesis")
OPTIONAL = {"frames tests": "scale_requirements", "compare's WHATWG row": ("ada-url",),
            "site functions": "site_requirements", "Scrapy crawl": "scrapy_requirements"}
PROBE = ("import json, platform, sys, importlib.util as u; print(json.dumps({"
         "'impl': platform.python_implementation(), 'version': platform.python_version(), "
         "'info': list(sys.version_info[:2]), 'executable': sys.executable, "
         "'venv': sys.prefix != sys.base_prefix, 'ensurepip': bool(u.find_spec('ensurepip'))}))")
SUMMARY = re.compile(r"(\d+) (passed|failed|skipped|errors?|xfailed|xpassed)\b")
CONFORMANCE = re.compile(r"^Conformance suite (RAN|NOT RUN).*$", re.M)


def settings() -> configparser.SectionProxy:
    cfg = configparser.ConfigParser(delimiters=["="])
    cfg.read(ROOT / "settings.ini", encoding="utf-8")
    return cfg["DEFAULT"]


def requirement(name: str) -> str:
    "The requirement string for `name` as settings.ini writes it (any of its lists), else `name`."
    for key, value in settings().items():
        if key.endswith("requirements"):
            for req in value.split():
                if re.split(r"[<>=!~\[;]", req, maxsplit=1)[0].lower() == name.lower():
                    return req
    return name


def clean_env() -> dict:
    "The environment for every child: no PYTHONPATH or PYTHONHOME, no active venv."
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


# --- finding the interpreters ---------------------------------------------------------------

@dataclass
class Interpreter:
    path: str                          # as found (shortest path to it)
    version: str                       # 3.12.1
    minor: tuple                       # (3, 12)
    executable: str                    # resolved
    label: str = ""
    skip: str = ""                     # why it does not run ('' when it runs)


def candidates() -> list[str]:
    "Paths that may be CPython interpreters, in a stable order."
    name = re.compile(r"python3(\.\d+)?$")
    found = []
    for folder in ("/usr/bin", "/usr/local/bin"):
        if os.path.isdir(folder):
            found += sorted(str(Path(folder) / n) for n in os.listdir(folder) if name.match(n))
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    if shutil.which("pyenv"):
        p = subprocess.run(["pyenv", "root"], capture_output=True, text=True)
        root = p.stdout.strip() or root
    versions = Path(root) / "versions"
    if versions.is_dir():
        for v in sorted(versions.iterdir(), key=lambda p: [int(x) if x.isdigit() else x
                                                           for x in re.split(r"(\d+)", p.name)]):
            if (v / "bin" / "python3").exists():
                found.append(str(v / "bin" / "python3"))
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if not folder or "shims" in Path(folder).parts or not os.path.isdir(folder):
            continue
        found += sorted(str(Path(folder) / n) for n in os.listdir(folder) if name.match(n))
    return list(dict.fromkeys(found))


def probe(path: str) -> dict | None:
    try:
        p = subprocess.run([path, "-I", "-c", PROBE], capture_output=True, text=True, timeout=30,
                           env=clean_env())
        return json.loads(p.stdout) if p.returncode == 0 else None
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return None


def label_for(path: str, version: str) -> str:
    m = re.search(r"/versions/([^/]+)/bin/", path)
    return f"pyenv {m.group(1)}" if m else path


def discover(paths: list[str] | None = None) -> list[Interpreter]:
    "Every interpreter found (or the given ones), with `skip` saying why one does not run."
    min_python = tuple(int(x) for x in settings()["min_python"].split("."))
    seen, out = set(), []
    for path in paths or candidates():
        info = probe(path)
        if info is None:
            if paths:
                out.append(Interpreter(path, "?", (0, 0), path, path, "does not run"))
            continue
        real = os.path.realpath(info["executable"])
        if real in seen:
            continue
        seen.add(real)
        it = Interpreter(path, info["version"], tuple(info["info"]), real,
                         label_for(path, info["version"]))
        if info["impl"] != "CPython":
            it.skip = f"{info['impl']}, not CPython"
        elif it.minor < min_python:
            it.skip = f"{it.version} < min_python {settings()['min_python']}"
        elif info["venv"]:
            it.skip = "a venv (its base interpreter is tried on its own)"
        elif not info["ensurepip"]:
            it.skip = "no ensurepip: cannot make a venv (Debian: apt-get install python3-venv)"
        out.append(it)
    return out


# --- one venv per interpreter ---------------------------------------------------------------

def run_logged(cmd: list[str], log: Path, **kw) -> int:
    with open(log, "a", encoding="utf-8") as f:
        f.write(f"\n$ {' '.join(cmd)}\n")
        f.flush()
        p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=clean_env(), **kw)
        return p.returncode


def tail(log: Path, n: int = 15) -> str:
    lines = [l for l in log.read_text(encoding="utf-8", errors="replace").splitlines()
             if not l.startswith("WARNING: Location")]
    return "\n".join("    " + l for l in lines[-n:])


EDITABLE = threading.Lock()


def venv_for(it: Interpreter) -> tuple[Path | None, list[str], str]:
    "The venv of `it` (made if missing or stale), the optional packages missing, and an error."
    stamp_text = "\n".join([it.executable, it.version] +
                           [(ROOT / f).read_text(encoding="utf-8") for f in CONFIG])
    stamp = hashlib.sha256(stamp_text.encode()).hexdigest()[:16]
    slug = f"py{it.version}-{hashlib.sha256(it.executable.encode()).hexdigest()[:8]}"
    venv, log = WORK / "venvs" / slug, LOGS / f"{slug}-install.log"
    state = venv / ".matrix-state.json"
    if state.is_file():
        saved = json.loads(state.read_text())
        if saved.get("stamp") == stamp:
            return venv, saved["missing"], ""
    shutil.rmtree(venv, ignore_errors=True)
    LOGS.mkdir(parents=True, exist_ok=True)
    log.write_text("")
    py = venv / "bin" / "python"
    pip = [str(py), "-m", "pip", "install", "-q"]
    if run_logged([it.path, "-m", "venv", str(venv)], log):
        return None, [], f"could not create a venv:\n{tail(log)}"
    with EDITABLE:                          # one build at a time writes the checkout's egg-info
        if run_logged(pip + ["-e", str(ROOT)], log, cwd=ROOT):
            return None, [], f"could not install the package:\n{tail(log)}"
    if run_logged(pip + [requirement(n) for n in REQUIRED], log):
        return None, [], f"could not install {', '.join(REQUIRED)}:\n{tail(log)}"
    missing = []
    for why, reqs in OPTIONAL.items():
        reqs = settings()[reqs].split() if isinstance(reqs, str) else [requirement(n) for n in reqs]
        if run_logged(pip + reqs, log):
            for req in reqs:                       # which ones: each on its own
                if run_logged(pip + [req], log):
                    missing.append(f"{req} ({why})")
    state.write_text(json.dumps({"stamp": stamp, "missing": missing}))
    return venv, missing, ""


# --- the runs -------------------------------------------------------------------------------

@dataclass
class Row:
    name: str
    version: str
    ok: bool = False
    counts: dict = field(default_factory=dict)
    conformance: str = ""
    missing: list = field(default_factory=list)
    seconds: float = 0.0
    error: str = ""
    python: str = ""                   # the venv's python ('' when there is none)


def run_pytest(it: Interpreter) -> Row:
    row = Row(it.label, it.version)
    t0 = time.monotonic()
    venv, row.missing, row.error = venv_for(it)
    if venv is None:
        row.seconds = time.monotonic() - t0
        return row
    row.python = str(venv / "bin" / "python")
    log = LOGS / f"pytest-{it.version}.log"
    cmd = [str(venv / "bin" / "python"), "-m", "pytest", "-q", "-rfEs", "-p", "no:randomly",
           "tests", "--ignore=tests/site"]
    with open(log, "w", encoding="utf-8") as f:
        p = subprocess.run(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT, env=clean_env())
    text = log.read_text(encoding="utf-8", errors="replace")
    row.seconds = time.monotonic() - t0
    last = [l for l in text.splitlines() if SUMMARY.search(l) and " in " in l]
    row.counts = {k.rstrip("s") if k.startswith("error") else k: int(n)
                  for n, k in SUMMARY.findall(last[-1])} if last else {}
    m = CONFORMANCE.search(text)
    row.conformance = m.group(0) if m else "(no conformance line)"
    row.ok = p.returncode == 0 and row.conformance.startswith("Conformance suite RAN")
    notes = [l for l in text.splitlines() if l.startswith(("SKIPPED", "FAILED", "ERROR"))]
    if notes:
        print("\n".join("    " + l for l in notes[:40]))
    if not row.ok:
        failed = [l.split()[1] for l in notes if l.startswith(("FAILED", "ERROR"))]
        row.error = "\n".join([f"pytest exit status {p.returncode}; log: {log.relative_to(ROOT)}",
                               *(f"failed: {t}" for t in failed[:5])])
    return row


def pyodide_version() -> str:
    "The Pyodide version of the try page (tools/site/viewer.py), so both use the same runtime."
    text = (ROOT / "tools" / "site" / "viewer.py").read_text(encoding="utf-8")
    m = re.search(r'^PYODIDE_VERSION = "([^"]+)"', text, re.M)
    if not m:
        raise RuntimeError("PYODIDE_VERSION not found in tools/site/viewer.py")
    return m.group(1)


def pyodide_runtime(version: str) -> Path:
    "The folder of the npm `pyodide` package: the site build's cache, else `npm pack` into .matrix."
    need = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
            "pyodide-lock.json")
    for folder in (ROOT / "site-build" / "viewer-cache" / f"pyodide-{version}",
                   WORK / f"pyodide-{version}"):
        if all((folder / n).is_file() for n in need):
            return folder
    dest = WORK / f"pyodide-{version}"
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["npm", "pack", f"pyodide@{version}", "--pack-destination", tmp, "--silent"],
                       check=True, stdout=subprocess.DEVNULL)
        (tgz,) = Path(tmp).glob("pyodide-*.tgz")
        dest.mkdir(parents=True, exist_ok=True)
        with tarfile.open(tgz) as tar:
            for n in need:
                with tar.extractfile(f"package/{n}") as src, open(dest / n, "wb") as out:
                    shutil.copyfileobj(src, out)
    return dest


def pure_wheel(python: str, dist: str = "idna") -> Path:
    "A wheel of `dist` (pure Python) at the version `python`'s venv holds, downloaded once."
    version = subprocess.run([python, "-c", "from importlib.metadata import version; "
                              f"print(version({dist!r}))"], capture_output=True, text=True,
                             check=True, env=clean_env()).stdout.strip()
    folder = WORK / "wheels" / f"{dist}-{version}"
    if not list(folder.glob(f"{dist}-*-none-any.whl")):
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run([python, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                        "-d", str(folder), f"{dist}=={version}"], check=True,
                       stderr=subprocess.DEVNULL, env=clean_env())
    (wheel,) = folder.glob(f"{dist}-*-none-any.whl")
    return wheel


def data_dir() -> Path:
    sys.path.insert(0, str(ROOT / "tests"))
    from datfile import data_dir as found
    return found().resolve()


def run_pyodide(python: str | None) -> Row:
    row = Row("Pyodide (node)", "?")
    t0 = time.monotonic()
    try:
        node = shutil.which("node")
        if node is None:
            raise RuntimeError("node not found (Debian: apt-get install nodejs)")
        version = pyodide_version()
        node_version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout
        row.name = f"Pyodide {version} (node {node_version.strip()})"
        runtime = pyodide_runtime(version)
        wheel = pure_wheel(python or sys.executable)
        cmd = [node, str(ROOT / "tools" / "pyodide_conformance.mjs"), str(runtime), str(ROOT),
               str(data_dir()), str(wheel)]
        LOGS.mkdir(parents=True, exist_ok=True)
        log = LOGS / "pyodide.log"
        p = subprocess.run(cmd, capture_output=True, text=True, env=clean_env(), timeout=1800)
        log.write_text(p.stdout + p.stderr, encoding="utf-8")
        result = json.loads(p.stdout.strip().splitlines()[-1]) if p.stdout.strip() else {}
        if not result:
            raise RuntimeError(f"node exit status {p.returncode}:\n{p.stderr[-2000:]}")
        row.version = f"{result['python']} (Unicode {result['unicode']})"
        row.counts = {"cases passed": result["passed"], "failed": result["failed"],
                      "not applicable": result["not_applicable"]}
        row.conformance = result["line"]
        for f in result["failures"][:20]:
            print("    FAILED " + f)
        row.ok = p.returncode == 0 and result["failed"] == 0 and result["passed"] > 0
        if not row.ok:
            row.error = f"node exit status {p.returncode}; log: {log.relative_to(ROOT)}"
    except Exception as e:                   # say why, in the table, and fail
        row.error = f"{type(e).__name__}: {e}"
    row.seconds = time.monotonic() - t0
    return row


PAGES_UNDER_PYODIDE = ("nbs/15a_site_keys.ipynb",)     # pages whose examples run there too


def run_pyodide_pages(python: str | None) -> Row:
    "The examples of `PAGES_UNDER_PYODIDE` under Pyodide, with publicsuffixlist's wheel unpacked."
    row = Row("Pyodide: page examples", "?")
    t0 = time.monotonic()
    try:
        node = shutil.which("node")
        if node is None:
            raise RuntimeError("node not found (Debian: apt-get install nodejs)")
        runtime = pyodide_runtime(pyodide_version())
        wheels = [str(pure_wheel(python or sys.executable, d)) for d in ("idna", "publicsuffixlist")]
        LOGS.mkdir(parents=True, exist_ok=True)
        log = LOGS / "pyodide-pages.log"
        passed, out = 0, ""
        for page in PAGES_UNDER_PYODIDE:
            p = subprocess.run([node, str(ROOT / "tools" / "pyodide_conformance.mjs"), str(runtime),
                                str(ROOT), str(data_dir()), *wheels, "--", "tools/nb_examples.py", page],
                               capture_output=True, text=True, env=clean_env(), timeout=1800)
            out += p.stdout + p.stderr
            last = p.stdout.strip().splitlines()[-1:] or [""]
            if p.returncode != 0 or "passed on Python" not in last[0]:
                raise RuntimeError(f"{page}: node exit status {p.returncode}; log: {log.relative_to(ROOT)}")
            passed += 1
            row.version = last[0].rpartition(" ")[2]
        log.write_text(out, encoding="utf-8")
        row.counts = {"passed": passed, "failed": 0}
        row.ok = True
    except Exception as e:                   # say why, in the table, and fail
        row.error = f"{type(e).__name__}: {e}"
    row.seconds = time.monotonic() - t0
    return row


def table(rows: list[Row]) -> str:
    head = ("interpreter", "Python", "result", "tests (passed/failed/skipped)", "time")
    lines = []
    for r in rows:
        c = r.counts
        if "cases passed" in c:
            tests = f"no pytest: {c['cases passed']} cases passed / {c['failed']} failed"
        elif c:
            failed = c.get("failed", 0) + c.get("error", 0)
            tests = f"{c.get('passed', 0)} / {failed} / {c.get('skipped', 0)}"
        else:
            tests = "-"
        lines.append((r.name, r.version, "PASS" if r.ok else "FAIL", tests, f"{r.seconds:.0f} s"))
    widths = [max(len(x[i]) for x in [head, *lines]) for i in range(len(head))]
    fmt = "  ".join(f"{{:{w}}}" for w in widths)
    out = [fmt.format(*head), fmt.format(*("-" * w for w in widths))]
    for r, line in zip(rows, lines):
        out.append(fmt.format(*line))
        out.append(f"    {r.conformance or '(conformance not run)'}")
        for m in r.missing:
            out.append(f"    NOT INSTALLED: {m}: the tests that need it were SKIPPED")
        if r.error:
            out.append("    " + r.error.replace("\n", "\n    "))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", action="append", metavar="PATH",
                    help="only this interpreter (repeatable)")
    ap.add_argument("--no-pyodide", action="store_true", help="skip the Pyodide run")
    ap.add_argument("--pyodide-only", action="store_true", help="only the Pyodide run")
    ap.add_argument("--list", action="store_true", help="list the interpreters found and stop")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    found = [] if args.pyodide_only and not args.list else discover(args.python)
    for it in found:
        print(f"{'skip' if it.skip else 'run '}  {it.label:40} {it.version:8} "
              f"{it.skip or it.executable}")
    if args.list:
        return 0
    rows, pythons = [], []
    runnable = [i for i in found if not i.skip]
    if len(runnable) > 1:
        # The venvs first, side by side (mostly downloads and unpacking); the suites one by one.
        print(f"\n== making {len(runnable)} venvs in {WORK.relative_to(ROOT)}/ ...", flush=True)
        with ThreadPoolExecutor(len(runnable)) as pool:
            list(pool.map(venv_for, runnable))
        print(f"   ready after {time.monotonic() - t0:.0f} s", flush=True)
    for it in runnable:
        print(f"\n== {it.label} ({it.version}): venv and pytest ...", flush=True)
        row = run_pytest(it)
        print(f"   {'PASS' if row.ok else 'FAIL'} in {row.seconds:.0f} s: {row.counts}\n"
              f"   {row.conformance}")
        if row.error:
            print("   " + row.error)
        rows.append(row)
        if row.python:
            pythons.append(row.python)
    if not args.no_pyodide:
        print("\n== Pyodide: the conformance cases under node ...", flush=True)
        rows.append(run_pyodide(pythons[0] if pythons else None))
        rows.append(run_pyodide_pages(pythons[0] if pythons else None))
    print(f"\nInterpreter matrix ({time.monotonic() - t0:.0f} s; data: {data_dir()}):\n")
    print(table(rows))
    minors = sorted({it.minor for it, r in zip(runnable, rows) if r.ok})
    failed = [r.name for r in rows if not r.ok]
    names = ", ".join("%d.%d" % m for m in minors) or "none"
    print(f"\nCPython minor versions that passed: {names}")
    if failed:
        print(f"FAILED: {', '.join(failed)}")
        return 1
    if not args.pyodide_only and len(minors) < 2:
        print("FAILED: fewer than two distinct minor versions of CPython ran")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
