"""The built wheel, tried as a user gets it: `python tools/wheel_smoke.py` (or `make test-wheel`).

1. Makes a fresh venv in a temporary folder outside the checkout and builds the wheel there
   (`pip wheel --no-deps`).
2. Lists the wheel and checks it holds every module of `weburl_nb/`, `py.typed`, the data files
   (`gecko_idn.json`, `data/whatwg_encoding.zip`, `data/README.md`) and the `weburl` script, and
   nothing outside the package.
3. Installs it into that venv and runs this file's checks there (`--inside`) from a copy in the
   temporary folder, with `-I`, `PYTHONPATH` unset and the working directory outside the
   checkout: a Shift_JIS query (the encoding archive), Gecko's IDN whitelist (`gecko_idn.json`)
   through the browser profiles, `explain`, `python -m weburl_nb` and `weburl --compare`, and that
   every module and data file comes from the venv, not from the checkout.

The expected values come from the tests-web-url data and the spec (each check names its source),
not from running the code. Exit status 1 when a check fails. `--python PATH` picks the
interpreter of the venv (default: the one running this); `--keep` keeps the temporary folder.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_DATA = ("py.typed", "gecko_idn.json", "data/whatwg_encoding.zip", "data/README.md")


def clean_env() -> dict:
    "The environment of every child: no PYTHONPATH, PYTHONHOME or active venv."
    return {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}


# --- inside the venv: the checks ----------------------------------------------------------------

def inside(checkout: str, version: str) -> int:
    import importlib.resources
    import json

    failures = []

    def check(what: str, got, want) -> None:
        ok = got == want
        print(f"{'ok  ' if ok else 'FAIL'}  {what}"
              + ("" if ok else f": got {got!r}, want {want!r}"))
        if not ok:
            failures.append(what)

    def under(path, folder) -> bool:
        return Path(path).resolve().is_relative_to(Path(folder).resolve())

    import weburl_nb
    from weburl_nb import explain, profile_for, url_to_canon_url

    # Where everything comes from: the venv, never the checkout.
    check("weburl_nb imported from the venv", under(weburl_nb.__file__, sys.prefix), True)
    check("weburl_nb not imported from the checkout", under(weburl_nb.__file__, checkout), False)
    check("no sys.path entry inside the checkout",
          [p for p in sys.path if p and under(p, checkout)], [])
    check("__version__ is settings.ini's version", weburl_nb.__version__, version)
    files = importlib.resources.files("weburl_nb")
    for name in PACKAGE_DATA:
        check(f"installed {name} is a file in the venv",
              files.joinpath(name).is_file() and under(str(files.joinpath(name)), sys.prefix), True)

    # Shift_JIS queries: the encoder tables come from data/whatwg_encoding.zip.
    # decomps-charsets.dat: U+4E00 U+4E01 in Shift_JIS are 88 EA 92 9A.
    check("Shift_JIS query (decomps-charsets.dat)",
          url_to_canon_url("http://foo/bar?\u4e00\u4e01", charset="shift_jis"),
          "http://foo/bar?%88%EA%92%9A")
    # decomps-charsets.dat: a code point Shift_JIS lacks becomes '?'.
    check("Shift_JIS query, unmappable (decomps-charsets.dat)",
          url_to_canon_url("http://foo/bar?\u1000", charset="shift_jis"), "http://foo/bar??")
    # WHATWG index-jis0208: pointer 1128 is U+2460; lead 1128 // 188 + 0x81 = 0x87, trail
    # 1128 % 188 + 0x40 = 0x40, which is `@` and stays as it is in a query (decomps-query.dat:
    # `http://example.com/?a@b` is canonical). Python's own shift_jis codec cannot encode
    # U+2460, so this answer can only come from the archive's index.
    check("Shift_JIS query, U+2460 (WHATWG index-jis0208 pointer 1128)",
          url_to_canon_url("http://foo/?\u2460", charset="shift_jis"), "http://foo/?%87@")

    # Gecko's IDN whitelist (gecko_idn.json), through the browser profiles.
    check("profile_for('gecko') follows the IDN whitelist",
          profile_for("gecko").host.idn_whitelist, True)
    # decomps-authority-domain.dat: `http://\u0100.jp`: canon http://xn--yda.jp/,
    # gecko-canon http://\u0101.jp/ (jp is on the whitelist: Gecko keeps Unicode).
    check("THIS host U+0100.jp (decomps-authority-domain.dat canon)",
          url_to_canon_url("http://\u0100.jp"), "http://xn--yda.jp/")
    check("Gecko host U+0100.jp (decomps-authority-domain.dat gecko-canon)",
          url_to_canon_url("http://\u0100.jp", browser="gecko"), "http://\u0101.jp/")
    # Same file: `http://\u0100.j%70`: the TLD as written is `j%70`, not on the whitelist.
    check("Gecko host U+0100.j%70 (decomps-authority-domain.dat gecko-canon)",
          url_to_canon_url("http://\u0100.j%70", browser="gecko"), "http://xn--yda.j%70/")

    # explain: unreserved escapes in the path are decoded ...
    e = explain("http://xn--4gq.jp/%41#f")
    check("explain: result (unreserved escape decoded)", e.result, "http://xn--4gq.jp/A#f")
    check("explain: a step line changes '/%41' into '/A'", "'/%41' -> '/A'" in str(e), True)
    # ... and a host holding '/' after decoding: CanonicalizeHost step 28 fails it.
    e = explain("http://a%2fb.test/")
    check("explain: a%2fb.test is invalid (host step 28)", e.result, None)
    check("explain: names reason host-forbidden-code-point",
          "host-forbidden-code-point" in str(e), True)
    check("explain: as JSON", json.loads(json.dumps(e.as_dict()))["result"], None)
    check("explain: Gecko's steps", explain("http://\u0100.jp", browser="gecko").result,
          "http://\u0101.jp/")

    # The command line, run from the venv: `python -m weburl_nb` and the `weburl` script.
    def run(*cmd: str) -> subprocess.CompletedProcess:
        return subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8",
                              env=clean_env(), timeout=120)

    # decomps-path.dat: `HtTp://a/./b/../b/%63/%7bfoo%7d` -> `http://a/b/c/%7bfoo%7d`.
    p = run(sys.executable, "-m", "weburl_nb", "HtTp://a/./b/../b/%63/%7bfoo%7d")
    check("python -m weburl_nb (decomps-path.dat)", (p.returncode, p.stdout),
          (0, "http://a/b/c/%7bfoo%7d\n"))
    p = run(sys.executable, "-m", "weburl_nb", "--charset", "shift_jis",
            "http://foo/bar?\u4e00\u4e01")
    check("python -m weburl_nb --charset shift_jis", p.stdout, "http://foo/bar?%88%EA%92%9A\n")
    p = run(sys.executable, "-m", "weburl_nb", "http://[::1/")
    check("python -m weburl_nb: an invalid URL gives status 1, an empty line and a message",
          (p.returncode, p.stdout, "http://[::1/" in p.stderr), (1, "\n", True))
    weburl = str(Path(sys.executable).parent / "weburl")
    p = run(weburl, "--version")
    # The first line names the version and the build (the wheel is the pure one).
    check("weburl --version", p.stdout.splitlines()[:1], [f"weburl {version} (pure Python)"])
    p = run(weburl, "--compare", "http://\u0100.jp/")
    rows = {line.strip().lstrip("* ").split("  ")[0]: line for line in p.stdout.splitlines()}
    check("weburl --compare: status 0", p.returncode, 0)
    check("weburl --compare: THIS row (canon)",
          "http://xn--yda.jp/" in rows.get("THIS (the spec)", ""), True)
    check("weburl --compare: Gecko row (gecko-canon)",
          "http://\u0101.jp/" in next((v for k, v in rows.items() if k.startswith("Gecko")), ""),
          True)
    check("weburl_nb modules all loaded from the venv",
          [m for m, mod in sys.modules.items() if m.startswith("weburl_nb")
           and getattr(mod, "__file__", None) and not under(mod.__file__, sys.prefix)], [])

    print(f"\n{'ALL PASSED' if not failures else f'{len(failures)} FAILED'}: wheel smoke test "
          f"(Python {sys.version.split()[0]}, {weburl_nb.__file__})")
    return 1 if failures else 0


# --- outside: build, list, install, run ---------------------------------------------------------

def wheel_problems(wheel: Path) -> list[str]:
    "What the wheel lacks or holds in excess (its listing is printed)."
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        entry = next((z.read(n).decode() for n in names
                      if n.endswith(".dist-info/entry_points.txt")), "")
    print(f"{wheel.name}: {len(names)} files")
    for n in names:
        print(f"  {n}")
    modules = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "weburl_nb").rglob("*.py")
                     if "__pycache__" not in p.parts)
    want = modules + [f"weburl_nb/{n}" for n in PACKAGE_DATA]
    problems = [f"missing from the wheel: {n}" for n in want if n not in names]
    problems += [f"outside the package: {n}" for n in names
                 if not n.startswith(("weburl_nb/", "weburl_nb-"))]
    if "weburl = weburl_nb.cli:main" not in entry:
        problems.append("no `weburl = weburl_nb.cli:main` console script in entry_points.txt")
    return problems


def outside(python: str, keep: bool) -> int:
    import configparser
    cfg = configparser.ConfigParser(delimiters=["="])
    cfg.read(ROOT / "settings.ini", encoding="utf-8")
    version = cfg["DEFAULT"]["version"]
    tmp = Path(tempfile.mkdtemp(prefix="weburl-wheel-"))
    assert not tmp.resolve().is_relative_to(ROOT), f"{tmp} is inside the checkout"
    env = clean_env()
    try:
        venv, dist = tmp / "venv", tmp / "dist"
        subprocess.run([python, "-m", "venv", str(venv)], check=True, env=env, cwd=tmp)
        py = str(venv / "bin" / "python")
        version_line = subprocess.run([py, "-V"], capture_output=True, text=True).stdout.strip()
        print(f"venv: {venv} ({version_line})")
        subprocess.run([py, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(ROOT)],
                       check=True, env=env, cwd=tmp)
        (wheel,) = dist.glob("*.whl")
        problems = wheel_problems(wheel)
        for p in problems:
            print(f"FAIL  {p}")
        subprocess.run([py, "-m", "pip", "install", "-q", str(wheel)], check=True, env=env, cwd=tmp)
        script = tmp / "wheel_smoke.py"
        shutil.copy(__file__, script)
        print(f"\nsmoke test: {py} -I {script} (cwd {tmp}, PYTHONPATH unset)")
        status = subprocess.run([py, "-I", str(script), "--inside", str(ROOT), version],
                                env=env, cwd=tmp).returncode
        return 1 if problems or status else 0
    finally:
        if keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", default=sys.executable, help="the interpreter of the venv")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    ap.add_argument("--inside", nargs=2, metavar=("CHECKOUT", "VERSION"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    sys.exit(inside(*args.inside) if args.inside else outside(args.python, args.keep))
