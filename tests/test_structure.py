"""The package's structure: no module imports another's private names, and every step label and
reason the algorithms report to the trace has its row in the registry (`weburl_nb.trace`)."""
import ast
from pathlib import Path

import weburl_nb
from weburl_nb.entry import pipeline
from weburl_nb.trace import REASONS, STEPS, Recording

PACKAGE = Path(weburl_nb.__file__).parent
MODULES = sorted(p for p in PACKAGE.glob("*.py") if p.name != "_modidx.py")


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_no_private_cross_module_imports():
    "`from .x import _y` (or `from weburl_nb.x import _y`), on one line or several, nowhere."
    bad = []
    for path in MODULES:
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("weburl_nb")):
                bad += [f"{path.name}:{node.lineno}: {node.module}.{a.name}" for a in node.names if _is_private(a.name)]
    assert not bad, bad


def test_the_check_of_the_issue_finds_nothing():
    "The grep for private names imported across modules (`^from \\.[a-z_]+ import .*\\b_[A-Za-z]`), over each module's text."
    import re
    pattern = re.compile(r"^from \.[a-z_]+ import .*\b_[A-Za-z]", re.M)
    assert not [p.name for p in MODULES if pattern.search(p.read_text(encoding="utf-8"))]


def _reported():
    "Every `trace.step/note/fail(<label>, ...)` in the package: (module, line, section, method, label, reason)."
    out = []
    for path in MODULES:
        for func in ast.walk(_tree(path)):
            if not isinstance(func, ast.FunctionDef):
                continue
            section = None
            for node in ast.walk(func):
                if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                        and getattr(node.value.func, "id", None) == "trace_for"):
                    section = node.value.args[0].value
            if section is None:
                continue
            for node in ast.walk(func):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and getattr(node.func.value, "id", None) == "trace"
                        and node.func.attr in ("step", "note", "fail")):
                    label = node.args[0]
                    assert isinstance(label, ast.Constant), f"{path.name}:{node.lineno}: a label must be a literal"
                    reason = node.args[1] if node.func.attr == "fail" else None
                    reason = reason.value if isinstance(reason, ast.Constant) else reason and ast.unparse(reason)
                    out.append((path.name, node.lineno, section, node.func.attr, label.value, reason))
    return out


def test_every_reported_label_has_a_registry_row():
    reported = _reported()
    assert len(reported) > 50                         # the scan sees the algorithms
    missing = []
    for module, line, section, method, label, reason in reported:
        if method != "fail":
            if (section, label) not in STEPS:
                missing.append((module, line, section, label))
        elif reason in REASONS:
            r = REASONS[reason]
            if (r.section, r.step) != (section, label):
                missing.append((module, line, section, label, reason, "registered at", r.section, r.step))
        elif not reason.startswith("port_failure("):  # C6 names one of two reasons: see below
            missing.append((module, line, section, label, reason))
    assert not missing, missing


def test_labels_are_step_numbers():
    "A label is a step number: digits with dots (`20.2`) or `C` and digits; no ranges, no words."
    import re
    bad = [r for r in _reported() if not re.fullmatch(r"C?\d+(?:\.\d+)*", r[4])]
    assert not bad, bad


def test_recorded_steps_are_registered():
    "Each reason's example, and URLs that take many steps: every recorded step has its row."
    urls = [(*r.example.partition(" ")[::2], r.browser) for r in REASONS.values()]
    urls += [(u, "", b) for b in ("this", "chrome", "gecko", "ie") for u in (
        " HTTP://U:P@B\u00dcCHER.example:0080/a/./b/../%7e c?q \u00e9#f\x85",
        "file://localhost///localhost/c|/x", "http://[::1]", "http://0x7f.1/", "javascript:a?b#c",
        "mailto:a@b?c", "\\\\srv\\share", "c:\\x", "http:foo", "http://a\u3002b./", "http://xn--4gq.jp/")]
    urls += [("?q", "http://h/a", "this"), ("#f", "http://h/a?q", "this"), ("x", "http://h/a/../b", "this"),
             ("//o/p", "http://h/", "this"), ("http:x", "http://h/a", "this"), ("", "http://h/a#f", "this")]
    seen, bad = set(), []
    for url, base, browser in urls:
        with Recording() as rec:
            pipeline(url, base or None, browser=browser)
        for s in rec.steps:
            seen.add((s.section, s.number))
            if s.reason is None and (s.section, s.number) not in STEPS:
                bad.append((url, s.section, s.number))
            if s.reason is not None and (REASONS[s.reason].section, REASONS[s.reason].step) != (s.section, s.number):
                bad.append((url, s.section, s.number, s.reason))
    assert not bad, bad
    assert len(seen) > 30


def test_c11_is_reported_once():
    with Recording() as rec:
        pipeline("http://h/?a b#c\x01")
    assert [s.number for s in rec.steps if s.section == "canon"].count("C11") == 1


def test_no_module_imports_from_the_package_root():
    "A module imports a name from the module that defines it, not from `weburl_nb` (which imports them all)."
    bad = []
    for path in MODULES:
        if path.name == "__init__.py":
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ImportFrom) and ((node.level == 1 and not node.module) or node.module == "weburl_nb"):
                bad += [f"{path.name}:{node.lineno}: {a.name}" for a in node.names if a.name not in ("__version__", "COMPILED")]
    assert not bad, bad
