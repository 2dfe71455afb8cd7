"""Run a page's examples without Jupyter: `python tools/nb_examples.py nbs/15a_site_keys.ipynb`.

Used where nbdev and Jupyter are not there, under Pyodide above all (`tools/matrix.py` runs it in
node after the conformance cases). The code cells run in order in one namespace that starts as the
namespace of the page's module (`#| default_exp`), imported from the installed package; the
`#| export` cells are left out, since the module holds them, and so are `#| hide` cells (fastcore's
test helpers: `test_eq` and `test_fail` are given here, as they check). Prints one line; exit
status 1 if a cell fails.
"""
from __future__ import annotations

import importlib
import json
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_eq(a, b) -> None:
    "`a == b`, as fastcore's `test_eq` checks it for these pages' values."
    assert a == b, f'==:\n{a!r}\n{b!r}'


def test_fail(f, msg: str = '', contains: str = '', args=None, kwargs=None) -> None:
    "`f()` raises, and the exception's text holds `contains`."
    try:
        f(*(args or ()), **(kwargs or {}))
    except Exception as e:                      # noqa: BLE001 (any exception is the expected one)
        assert not contains or contains in str(e), f'{contains!r} not in {str(e)!r}'
        return
    raise AssertionError(f'expected an exception {msg}')


def run(path: str) -> int:
    "Run the examples of the notebook at `path`; 0 if every cell passed."
    nb = Path(path) if Path(path).is_file() else ROOT / path     # relative to the checkout
    cells = [''.join(c['source']) for c in json.loads(nb.read_text(encoding='utf-8'))['cells']
             if c['cell_type'] == 'code']
    module = next(c.split()[-1] for c in cells if c.startswith('#| default_exp'))
    space = dict(vars(importlib.import_module(f'weburl_nb.{module}')))
    space.update(test_eq=test_eq, test_fail=test_fail, __name__='__main__')
    ran = 0
    for i, code in enumerate(cells):
        first = code.split('\n', 1)[0]
        if first.startswith(('#| default_exp', '#| export', '#| hide')):
            continue
        try:
            exec(compile(code, f'{path} cell {i}', 'exec'), space)
        except Exception:                       # noqa: BLE001 (reported, then the status says it)
            traceback.print_exc()
            print(f'nb_examples: {path}: code cell {i} failed ({ran} ran before it)')
            return 1
        ran += 1
    print(f'nb_examples: {path}: {ran} code cells passed on Python {sys.version.split()[0]}')
    return 0


if __name__ == '__main__':
    sys.exit(run(sys.argv[1]))
