"""Start-up: what `import weburl_nb` and `weburl URL` load, each checked in a fresh process (not timed:
`make bench` measures the time). The modules named here are the ones the package takes care not to
import until an option or a function needs them (09_api, 08_cli, 00_charclasses)."""
import subprocess
import sys

import pytest

# Never loaded by `import weburl_nb`, nor by `weburl URL` (unless `python -c pass` loads them already:
# an editable install's import hook loads `urllib.parse`, for one).
NOT_AT_START = ["weburl_nb.browsers", "weburl_nb.explain", "weburl_nb.keys", "weburl_nb.frames",
                "weburl_nb.scrapy", "scrapy",
                "weburl_nb.arrow", "pyarrow", "numpy",
                "dataclasses", "typing", "inspect", "json", "urllib.parse", "html", "string", "shutil",
                "importlib.resources", "zipfile", "concurrent.futures", "multiprocessing"]


def loaded_modules(code: str) -> set[str]:
    "The names in `sys.modules` after running `code` in a fresh interpreter."
    probe = f"import sys\n{code}\nprint(repr(sorted(sys.modules)), file=sys.stderr)"
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert p.returncode in (0, 1), p.stderr
    return set(eval(p.stderr.strip().splitlines()[-1]))


def new_modules(code: str) -> set[str]:
    "The modules `code` loads beyond those a bare interpreter has loaded."
    return loaded_modules(code) - loaded_modules("pass")


def cli_modules(*args: str) -> set[str]:
    "The modules loaded by a run of `weburl args...` (its `main`, as the console script calls it)."
    return loaded_modules("from weburl_nb.cli import main\n"
                          f"try:\n    main({list(args)!r})\nexcept SystemExit:\n    pass")


@pytest.mark.incompatible_with_mypyc("mypyc makes each NamedTuple class with typing.NamedTuple, so the compiled build imports typing at start-up (its start-up time: bench/builds.py)")
def test_import_loads_no_optional_module():
    loaded = new_modules("import weburl_nb")
    assert not loaded & set(NOT_AT_START + ["weburl_nb.batch", "weburl_nb.cli", "argparse"])


@pytest.mark.incompatible_with_mypyc("mypyc makes each NamedTuple class with typing.NamedTuple, so the compiled build imports typing at start-up (its start-up time: bench/builds.py)")
def test_weburl_url_loads_no_optional_module():
    loaded = cli_modules("http://example.com/") - loaded_modules("pass")
    assert not loaded & set(NOT_AT_START)


@pytest.mark.parametrize("option, module", [
    ("--json", "json"), ("--compare", "weburl_nb.browsers"), ("--explain", "weburl_nb.explain"),
    ("--surt", "weburl_nb.keys")])
def test_an_option_loads_its_module(option, module):
    assert module in cli_modules(option, "http://example.com/")


def test_an_invalid_url_loads_explain_for_its_message():
    assert "weburl_nb.explain" in cli_modules("http://a b:x/")


def test_lazy_names_resolve():
    code = """
import weburl_nb
assert {'compare', 'explain', 'surt', 'same_resource', 'canonicalize_many'} <= set(dir(weburl_nb))
assert weburl_nb.surt('http://www.example.com/a') == 'com,example)/a'
from weburl_nb import explain, compare
assert explain('http://a.test/').result == 'http://a.test/'
import weburl_nb.explain                    # the submodule does not hide the function
assert weburl_nb.explain is explain and callable(weburl_nb.explain)
from weburl_nb.explain import Explanation   # and the submodule is importable as ever
ns = {}
exec('from weburl_nb import *', ns)
assert set(weburl_nb.__all__) <= set(ns)
try:
    weburl_nb.no_such_name
except AttributeError as e:
    assert 'no_such_name' in str(e)
else:
    raise AssertionError('no AttributeError')
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr


def test_console_script_is_a_plain_launcher():
    """The installed `weburl` imports `weburl_nb.cli` and calls `main`: no scan of the installed
    distributions' metadata (the easy-install launcher of `setup.py develop`; pyproject.toml avoids it)."""
    from pathlib import Path
    script = Path(sys.executable).parent / "weburl"
    assert script.exists(), f"no weburl launcher beside {sys.executable}: install the package (make install)"
    p = subprocess.run([sys.executable, "-X", "importtime", str(script), "http://example.com/"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout == "http://example.com/\n", p.stderr[-500:]
    imported = {line.split("|")[-1].strip() for line in p.stderr.splitlines() if "|" in line}
    assert "weburl_nb.cli" in imported and not imported & {"importlib.metadata", "pkg_resources"}
