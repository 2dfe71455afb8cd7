"""Signature boxes as a reader expects them: loaded into each page's kernel before `show_doc` runs.

nbdev's `show_doc` writes a parameter as `name:annotation=repr(default)`. Two things read badly on
this project's pages, and are fixed here by replacing `nbdev.showdoc._show_param`:

- with `from __future__ import annotations`, a `NamedTuple`'s fields keep their annotations as
  `ForwardRef('str|None')`: the box shows the annotation's text, `str|None`;
- a class annotation is written with its module (`weburl_nb.host.HostProfile`, also inside
  `tuple[__main__.Outcome,...]`): the box shows the class name, defined on the page or linked;
- a default that is a module-level constant of the package (the `THIS` host profile, whose repr runs
  to forty lines) is shown by its name, and any other default longer than `LONG` characters as `...`;
- an annotation that cannot be evaluated where its function lives (a name imported for type checkers
  only, such as `Any`, or inside the function that uses it, such as `array` in `encoding.index`)
  keeps its text, where nbdev's `show_doc` would stop with a `NameError`. (The records built on
  `collections.namedtuple` evaluate their annotations when the class is made: see 00a_support.)
"""
from __future__ import annotations

import inspect
import re
import sys
import typing

import nbdev.showdoc as _showdoc

LONG = 40
_MODULE_PATH = re.compile(r"\b(?:__main__|typing|weburl_nb(?:\.\w+)*)\.(?=[A-Za-z_])")


def annotation_text(anno) -> str:
    "The annotation as its source text: `ForwardRef('str|None')` -> `str|None`, a class -> its name."
    if isinstance(anno, typing.ForwardRef):
        return anno.__forward_arg__.replace(" ", "")
    if isinstance(anno, str):
        return anno.strip("'").replace(" ", "")
    if isinstance(anno, type) and anno.__module__ != "builtins":
        return anno.__qualname__
    return _MODULE_PATH.sub("", inspect.formatannotation(anno).strip("'").replace(" ", ""))


def constant_name(value) -> str | None:
    "The name of an upper-case module-level constant of the package bound to `value`, if any."
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] != "weburl_nb" or module is None:
            continue
        for key, v in vars(module).items():
            if v is value and key.isupper():
                return key
    return None


def default_text(value) -> str:
    "The default as the box shows it: a function's name, a constant's name, or a short repr."
    if callable(value) and hasattr(value, "__name__") and not isinstance(value, type):
        return f"<function {value.__name__}>"
    text = repr(value)
    if len(text) <= LONG:
        return text
    return constant_name(value) or "..."


def show_param(param: inspect.Parameter) -> str:
    "One parameter of a signature box (nbdev's layout: no spaces, `*args`, `**kw`)."
    star = {inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}.get(param.kind, "")
    text = star + param.name
    if param.annotation is not inspect.Parameter.empty:
        text += ":" + annotation_text(param.annotation)
    if param.default is not inspect.Parameter.empty:
        text += "=" + default_text(param.default)
    return text


def signature_ex(obj, eval_str: bool = False) -> inspect.Signature:
    "fastcore's `signature_ex`, with the annotations' text when evaluating them fails."
    try:
        return _signature_ex(obj, eval_str=eval_str)
    except NameError:
        return _signature_ex(obj, eval_str=False)


_signature_ex = _showdoc.signature_ex
_showdoc._show_param = show_param
_showdoc.signature_ex = signature_ex
