"""The compiled build, made and checked outside the checkout: `python tools/compiled.py` (`make compiled`).

1. `build`: copies the files a wheel is built from into a folder outside the checkout, and there
   runs the README's command as written, `WEBURL_NB_COMPILE=1 pip install .`, in a fresh venv with
   nothing else installed (mypyc, pinned by settings.ini's `mypyc_requirement`, and the package's
   own requirements are installed by the build backend in pip's isolated build environment); then
   a smoke test of that install (`SMOKE`), then what the pytest suite imports. The folder is named by a hash of
   those files and the interpreter, so an unchanged source is compiled once and reused
   (`$WEBURL_NB_COMPILED_DIR`, default `$TMPDIR/weburl-nb-compiled`). Prints the venv's python.
2. `check`: in that venv, each module of settings.ini's `mypyc_modules` loaded from a shared
   library, every other module from its `.py`, `weburl_nb.COMPILED` is true and `weburl --version`
   names the build. A build that quietly fell back to pure Python fails here.
3. `pytest`: the pytest suite against that build, from a working directory outside the checkout,
   so that `weburl_nb` can only come from the venv. Tests marked `incompatible_with_mypyc` (they
   replace a module attribute, which a compiled caller never reads again) are skipped, and the
   skips are listed with their reason.

`all` (the default) runs the three in order; `build --pure` builds the pure wheel the same way (the
peer of `bench/builds.py`). `--source DIR` builds from another source tree (the planted-fault check
builds a changed copy); `--python PATH` picks the interpreter.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from configparser import ConfigParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What the wheel is built from (MANIFEST.in and setup.py name nothing else).
SOURCES = ("setup.py", "settings.ini", "pyproject.toml", "MANIFEST.in", "README.md", "LICENSE",
           "tools/build_backend.py")
# What the pytest suite and the benchmark of the builds import beyond the package (with settings.ini's
# `test_requirements` and `site_requirements`).
TEST_PACKAGES = ("pytest", "hypothesis>=6.100", "ada-url", "can-ada", "pyyaml")


def settings(root: Path = ROOT) -> dict:
    config = ConfigParser(delimiters=["="])
    config.read(root / "settings.ini", encoding="utf-8")
    return dict(config["DEFAULT"])


def compiled_modules(root: Path = ROOT) -> list[str]:
    "The modules mypyc compiles: settings.ini's `mypyc_modules`, the one list."
    return settings(root)["mypyc_modules"].split()


# The data the tests read. The tests run from a folder outside the checkout, so a relative path
# (the Makefile passes `../shared/...`) is made absolute against the checkout: otherwise the
# conformance suite and the corpora would be skipped in the compiled run.
DATA_VARIABLES = {"WEBURL_TESTDATA": "shared/testdata/tests-web-url", "WEBURL_BENCHDATA": "shared/bench",
                  "WEBURL_ENCODING_DATA": "shared/data/whatwg-encoding"}


def clean_env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}
    for var, default in DATA_VARIABLES.items():
        where = Path(env.get(var) or ROOT.parent / default)
        env[var] = str(where if where.is_absolute() else (ROOT / where).resolve())
    env.update(extra)
    return env


def source_files(source: Path) -> list[Path]:
    return [source / f for f in SOURCES] + sorted((source / "weburl_nb").rglob("*"))


def work_dir(source: Path, python: str, mypyc: bool = True) -> Path:
    h = hashlib.sha256(python.encode() + sys.version.encode() + (b"mypyc" if mypyc else b"pure"))
    for path in source_files(source):
        if path.is_file() and "__pycache__" not in path.parts:
            h.update(str(path.relative_to(source)).encode() + b"\0" + path.read_bytes())
    base = Path(os.environ.get("WEBURL_NB_COMPILED_DIR") or Path(tempfile.gettempdir()) / "weburl-nb-compiled")
    return base / h.hexdigest()[:16]


def run(cmd: list, log: Path, **kw) -> None:
    with open(log, "a", encoding="utf-8") as f:
        f.write(f"$ {' '.join(map(str, cmd))}\n"); f.flush()
        p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, **kw)
    if p.returncode:
        sys.exit(f"compiled.py: failed ({p.returncode}): {' '.join(map(str, cmd))}\n"
                 + "".join(log.read_text(encoding="utf-8").splitlines(True)[-30:]))


def build(source: Path = ROOT, python: str = sys.executable, mypyc: bool = True) -> Path:
    """The venv holding the compiled build of `source` (built now unless already built); with
    `mypyc=False` the pure wheel in a venv made the same way (a fair peer for start-up)."""
    work = work_dir(source, python, mypyc)
    venv_python = work / "venv" / "bin" / "python"
    if (work / ".ready").is_file():
        print(f"compiled.py: reusing the build in {work}", file=sys.stderr)
        return venv_python
    shutil.rmtree(work, ignore_errors=True)
    (work / "src").mkdir(parents=True)
    log = work / "build.log"
    for path in source_files(source):
        if path.is_file() and "__pycache__" not in path.parts:
            target = work / "src" / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
    print(f"compiled.py: {'compiling %d modules' % len(compiled_modules(source)) if mypyc else 'pure build'}"
          f" in {work} (log: {log})", file=sys.stderr)
    run([python, "-m", "venv", work / "venv"], log)
    pip = [venv_python, "-m", "pip", "install", "-q"]
    # The README's command, as written, in the fresh venv with nothing else installed: the build
    # finds its requirements (mypy, idna) by itself. Then the smoke test, then what the tests import.
    run(pip + ["."], log, cwd=work / "src", env=clean_env(WEBURL_NB_COMPILE="1" if mypyc else "0"))
    run([venv_python, "-c", SMOKE], log, cwd=work, env=clean_env())
    extras = [r for key in ("test_requirements", "site_requirements", "scrapy_requirements",
                            "arrow_requirements") for r in settings(source).get(key, "").split()]
    run(pip + list(TEST_PACKAGES) + extras, log, env=clean_env())
    (work / ".ready").write_text("")
    return venv_python


# The smoke test of the fresh install: an answer, and the build it names.
SMOKE = """
import sys, weburl_nb
got = weburl_nb.url_to_canon_url('HTTP://B\u00fccher.Example/a/../%7e b?q#f')
if got != 'http://xn--bcher-kva.example/~%20b?q#f':
    sys.exit(f'smoke: {got!r}')
print('smoke:', got, 'compiled' if weburl_nb.COMPILED else 'pure')
"""


CHECK = """
import importlib, importlib.machinery, json, pkgutil, subprocess, sys, os
import weburl_nb
wanted = set(json.loads(sys.argv[1]))
suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
bad = []
for m in pkgutil.iter_modules(weburl_nb.__path__):
    f = importlib.import_module('weburl_nb.' + m.name).__file__
    native = f.endswith(suffixes)
    if native != (m.name in wanted):
        bad.append(f"{m.name}: {'compiled' if native else 'interpreted'} ({f})")
    wanted.discard(m.name)
bad += [f"{name}: not found" for name in sorted(wanted)]
if weburl_nb.COMPILED is not True:
    bad.append('weburl_nb.COMPILED is not True')
version = subprocess.run([os.path.join(os.path.dirname(sys.executable), 'weburl'), '--version'],
                         capture_output=True, text=True).stdout.strip()
if 'compiled with mypyc' not in version:
    bad.append(f'weburl --version: {version!r}')
print(version)
print('\\n'.join('FAIL ' + b for b in bad) or 'every module meant to be compiled is a shared library, the rest .py')
sys.exit(1 if bad else 0)
"""


def check(venv_python: Path, source: Path = ROOT) -> int:
    import json
    return subprocess.run([venv_python, "-I", "-c", CHECK, json.dumps(compiled_modules(source))],
                          cwd=venv_python.parent.parent, env=clean_env()).returncode


def pytest(venv_python: Path, args: list[str]) -> int:
    "The suite against the compiled build, from outside the checkout."
    cmd = [venv_python, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "--rootdir", ROOT,
           ROOT / "tests", "--ignore", ROOT / "tests" / "site", *args]
    return subprocess.run(cmd, cwd=venv_python.parent.parent, env=clean_env()).returncode


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("what", nargs="?", default="all", choices=["build", "check", "pytest", "all"])
    p.add_argument("--source", type=Path, default=ROOT)
    p.add_argument("--python", default=sys.executable)
    p.add_argument("--pure", action="store_true", help="build the pure wheel the same way (build only)")
    p.add_argument("pytest_args", nargs="*")
    a = p.parse_args(argv)
    venv_python = build(a.source.resolve(), a.python, not a.pure)
    print(venv_python)
    if a.pure:
        return 0
    if a.what in ("check", "all") and check(venv_python, a.source):
        return 1
    if a.what in ("pytest", "all"):
        return pytest(venv_python, a.pytest_args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
