"""Read the tests-web-url `.dat` conformance files (see shared/testdata/FORMAT.md).

The data itself is never copied into the project: `data_dir()` finds the folder
from the `WEBURL_TESTDATA` environment variable, or `../shared/testdata/tests-web-url`
next to the repository root.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

ENV_VAR = "WEBURL_TESTDATA"
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIR = ROOT.parent / "shared" / "testdata" / "tests-web-url"

COMPONENTS = ("scheme", "user", "password", "host", "port", "path", "query", "fragment")
_NAME = re.compile(r"[A-Za-z0-9-]*")
_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")


def data_dir() -> Path:
    "The folder holding the `.dat` files (it may not exist)."
    return Path(os.environ.get(ENV_VAR) or DEFAULT_DIR)


class NotApplicable(ValueError):
    "A case that a Python `str` cannot express (a code point above U+10FFFF)."


def _unescape(value: str) -> str:
    def repl(m):
        cp = int(m.group(1) or m.group(2), 16)
        if cp > 0x10FFFF:
            raise NotApplicable(f"code point U+{cp:X} is beyond Unicode")
        return chr(cp)
    return _ESCAPE.sub(repl, value)


@dataclass
class Case:
    "One test of a `.dat` file: its fields, and where it stands."
    file: str
    index: int
    fields: dict = field(default_factory=dict)
    not_applicable: str | None = None

    def get(self, name, default=None):
        return self.fields.get(name, default)

    @property
    def id(self) -> str:
        data = self.fields.get("data", "")
        short = data if len(data) <= 40 else data[:37] + "..."
        short = short.encode("unicode_escape").decode("ascii")
        return f"{self.file}:{self.index:03d}:{short}"


def _parse_field(text: str, case: Case):
    head, _, value = text.partition("\n")
    name = _NAME.match(head).group()           # a name is letters, digits and '-' (FORMAT.md)
    options = head[len(name):].split()
    escaped = bool(options) and options[-1] == "escaped"
    if escaped:
        options = options[:-1]
    if name in ("data", "path", "path8"):
        value = "\n".join(line[2:] if line.startswith("| ") else line for line in value.split("\n"))
    if value == "":
        value = options[0] if options else ""
    if escaped:
        try:
            value = _unescape(value)
        except NotApplicable as e:
            case.not_applicable = str(e)
    case.fields[name] = value


def parse_dat(text: str, file: str = "?") -> list[Case]:
    "Split a `.dat` file into its cases, by the splitting rule of FORMAT.md."
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.lstrip("\n")
    if text.startswith("#"):
        text = text[1:]
    text = text.rstrip("\n")
    cases = []
    for i, chunk in enumerate(text.split("\n\n#")):
        case = Case(file, i + 1)
        for f in chunk.split("\n#"):
            _parse_field(f, case)
        cases.append(case)
    return cases


def load(name: str) -> list[Case]:
    "Read one `.dat` file of the data folder."
    return parse_dat((data_dir() / name).read_text(encoding="utf-8"), name)


def files(pattern: str = "*.dat") -> list[str]:
    "The names of the data folder's files matching `pattern`, sorted."
    d = data_dir()
    return sorted(p.name for p in d.glob(pattern)) if d.is_dir() else []


def expected(case: Case, name: str):
    "The expected value of field `name`, with the `name8` override of FORMAT.md."
    return case.fields.get(name + "8", case.fields.get(name))
