"""The in-browser viewer: `try.html` at the root of the built site (called by build.py).

The page runs this package's own Python in the reader's browser with Pyodide, fully offline:

* the Pyodide runtime comes from the npm registry's `pyodide` package, fetched at build time with
  `npm pack` (version pinned below, cached in `site-build/`), and copied to `_docs/pyodide/`;
* the package itself (the `weburl_nb` folder of this checkout, zipped) and its runtime dependencies
  (pure-Python wheels of the versions installed here, fetched with `pip download`) go to
  `_docs/wheels/`, and the page unpacks them into Pyodide's `site-packages`.

`page` writes the viewer as a page of the site (`try.md`, so it has the site's navigation) before Sphinx
runs; `build` copies the runtime and the archives after. Opened from disk (`file://`), the page says in
one sentence how to open it instead: browsers run no module scripts or WebAssembly fetched from files.

Nothing is loaded from outside the site when the page is viewed.
"""
from __future__ import annotations

import configparser
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unicodedata
import zipfile
from importlib import metadata
from pathlib import Path

from siteconf import DOCS, ROOT

PYODIDE_VERSION = "314.0.7"          # its Python is 3.14; see the page for the version in use
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
HERE = Path(__file__).resolve().parent


def _pyodide(cache: Path) -> Path:
    "The folder of the pinned Pyodide runtime, fetched from the npm registry once (`npm pack`)."
    dest = cache / f"pyodide-{PYODIDE_VERSION}"
    if all((dest / f).is_file() for f in RUNTIME_FILES):
        return dest
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", tmp, "--silent"],
                       check=True, stdout=subprocess.DEVNULL)
        (tgz,) = Path(tmp).glob("pyodide-*.tgz")
        with tarfile.open(tgz) as tar:
            dest.mkdir(parents=True, exist_ok=True)
            for name in RUNTIME_FILES:
                member = tar.getmember(f"package/{name}")
                with tar.extractfile(member) as src, open(dest / name, "wb") as out:
                    shutil.copyfileobj(src, out)
    return dest


def _requirements() -> list[str]:
    "The runtime requirements' names (settings.ini `requirements`)."
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "settings.ini")
    reqs = cfg["DEFAULT"].get("requirements", "").split()
    return [r.split(";")[0].split("=")[0].split(">")[0].split("<")[0].split("[")[0].strip() for r in reqs]


def _wheels(cache: Path, dest: Path) -> list[str]:
    "Wheels of the runtime requirements, at the versions installed here (pure Python), into `dest`."
    names = []
    for req in _requirements():
        pin = f"{req}=={metadata.version(req)}"
        folder = cache / "wheels" / pin
        if not any(folder.glob("*.whl")):
            folder.mkdir(parents=True, exist_ok=True)
            subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                            "-d", str(folder), pin], check=True, stderr=subprocess.DEVNULL)
        (wheel,) = folder.glob("*.whl")
        if not wheel.name.endswith("-none-any.whl"):
            raise RuntimeError(f"{wheel.name} is not a pure-Python wheel: Pyodide cannot use it")
        shutil.copy(wheel, dest / wheel.name)
        names.append(wheel.name)
    return names


ARCHIVES = ["weburl_nb.zip"]


def _wheel_names() -> list[str]:
    "The file names `_wheels` will give the runtime requirements' wheels (fetched into the cache)."
    with tempfile.TemporaryDirectory() as tmp:
        return _wheels(Path(__file__).resolve().parents[2] / "site-build" / "viewer-cache", Path(tmp))


def _package_zip(dest: Path) -> str:
    "The `weburl_nb` package of this checkout as a zip to unpack into site-packages."
    name = ARCHIVES[0]
    with zipfile.ZipFile(dest / name, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted((ROOT / "weburl_nb").rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts and f.suffix != ".pyc":
                z.write(f, f.relative_to(ROOT).as_posix())
    return name


def page(scratch: Path, src: Path) -> None:
    "Write the viewer's page, `try.md`, into the Sphinx sources `src` (it becomes `try.html`, with the site's navigation)."
    runtime = _pyodide(scratch / "viewer-cache")
    lock = json.loads((runtime / "pyodide-lock.json").read_text(encoding="utf-8"))
    text = (HERE / "try.md").read_text(encoding="utf-8")
    for key, value in {"PYODIDE_VERSION": PYODIDE_VERSION, "PYODIDE_PYTHON": lock["info"]["python"],
                       "ARCHIVES": json.dumps(ARCHIVES + _wheel_names()), "BUILD_PYTHON": sys.version.split()[0],
                       "BUILD_UNICODE": unicodedata.unidata_version}.items():
        text = text.replace("{{" + key + "}}", value)
    (src / "try.md").write_text(text, encoding="utf-8")


def build(scratch: Path) -> str:
    "Copy the runtime (`pyodide/`) and the package with its requirements (`wheels/`) into the built site."
    runtime = _pyodide(scratch / "viewer-cache")
    (DOCS / "pyodide").mkdir(exist_ok=True)
    for name in RUNTIME_FILES:
        shutil.copy(runtime / name, DOCS / "pyodide" / name)
    wheels = DOCS / "wheels"
    wheels.mkdir(exist_ok=True)
    archives = [_package_zip(wheels)] + _wheels(scratch / "viewer-cache", wheels)
    lock = json.loads((runtime / "pyodide-lock.json").read_text(encoding="utf-8"))
    size = sum(f.stat().st_size for f in (DOCS / "pyodide").iterdir()) / 1e6
    return f"try.html with Pyodide {PYODIDE_VERSION} (Python {lock['info']['python']}, {size:.1f} MB), {', '.join(archives)}"
