"""The compiled build (mypyc): `COMPILED` and `weburl --version` name the build, and the source is
as a C compiler can take it (mypyc writes every `str` constant as UTF-8, which a lone
surrogate is not): the surrogate ranges are regex escapes, and each such class matches exactly the
code points the same class written with the characters themselves matches, over all 0x110000."""
import re

import pytest

from weburl_nb import charclasses, engine_preprocess


def _chars(spec: str) -> str:
    "A class body with each `\\uXXXX` / `\\UXXXXXXXX` escape replaced by its character."
    return re.sub(r'\\u([0-9a-f]{4})|\\U([0-9a-f]{8})', lambda m: chr(int(m[1] or m[2], 16)), spec)


@pytest.mark.parametrize('escaped', [charclasses._NONCHARACTERS_RE, charclasses._SURROGATES_RE,
                                     engine_preprocess._MAYBE_NONCHARACTER_RE])
def test_escaped_class_equals_literal_class(escaped):
    literal = re.compile(_chars(escaped.pattern))
    assert literal.pattern != escaped.pattern                       # the escapes were replaced
    text = ''.join(map(chr, range(0x110000)))
    assert re.findall(escaped.pattern, text) == literal.findall(text)


def test_pair_class_equals_literal_class():
    literal = re.compile(_chars(charclasses._PAIR_RE.pattern))
    hi, lo = (''.join(map(chr, range(a, b))) for a, b in ((0xD7F0, 0xDC10), (0xDBF0, 0xE010)))
    text = ''.join(h + lo_ch for h in hi[::7] for lo_ch in lo[::5])
    assert re.findall(charclasses._PAIR_RE.pattern, text) == literal.findall(text)


def test_no_lone_surrogate_in_a_constant():
    import ast
    import pathlib

    import weburl_nb
    for path in sorted(pathlib.Path(weburl_nb.__file__).parent.glob('*.py')):
        for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                node.value.encode('utf-8')          # strict: raises on a lone surrogate


def test_compiled_says_which_build_this_is():
    "`COMPILED` is true exactly when a module of the package was loaded from a shared library."
    import importlib.machinery
    import subprocess
    import sys

    import weburl_nb
    from weburl_nb import entry
    assert weburl_nb.COMPILED is entry.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    p = subprocess.run([sys.executable, "-m", "weburl_nb", "--version"], capture_output=True, text=True)
    build = "(compiled with mypyc)" if weburl_nb.COMPILED else "(pure Python)"
    assert p.stdout.splitlines()[0] == f"weburl {weburl_nb.__version__} {build}"
