"""The promises that hold for every input, as one check shared by the property tests
(`test_properties.py`, Hypothesis) and the coverage-guided fuzz target (`tools/fuzz.py`, atheris):

- no exception: any `str` as the URL, any `str` or `None` as the base, any charset label of the
  Encoding Standard or `None`, gives a plain `str` or `None`;
- one implementation: the shortcut route (`url_to_canon_url`) answers exactly as the steps route
  (`url_to_canon_url_steps`);
- a fixed point: canonicalizing an answer again, on its own and in the same charset, gives it back;
- the public chain (`check_chain`): parsing, resolving, canonicalizing and serializing one step at a
  time gives the pipeline's answer, in every profile.
"""
from __future__ import annotations

from weburl_nb.entry import canonicalize_parsed_url, url_to_canon_url, url_to_canon_url_steps
from weburl_nb.encoding import labels
from weburl_nb.parsing import parse_url
from weburl_nb.resolution import resolve_url
from weburl_nb.serialization import serialize_parsed_url

# no label (UTF-8), the name of every encoding of the Standard, and a few other spellings of labels
CHARSETS: tuple = (None, *sorted(set(labels().values())), 'latin1', ' sjis ', 'csISO2022JP', 'UTF8', 'x-gbk')


class Broken(AssertionError):
    "A broken promise, with the input that breaks it."


def check(url: str, base: str | None = None, charset: str | None = None) -> str | None:
    "Check the three promises for one input; return the canonical URL (or `None`)."
    fast = url_to_canon_url(url, base, charset)
    steps = url_to_canon_url_steps(url, base, charset)
    if fast != steps or type(fast) not in (str, type(None)):
        raise Broken(f"shortcut {fast!r} != steps {steps!r} for {(url, base, charset)!r}")
    if fast is not None:
        again = url_to_canon_url(fast, None, charset)
        if again != fast or url_to_canon_url_steps(fast, None, charset) != fast:
            raise Broken(f"not a fixed point: {fast!r} -> {again!r} for {(url, base, charset)!r}")
    return fast


def check_chain(url: str, base: str | None = None, charset: str | None = None,
                browser: str = 'this') -> str | None:
    """The public chain `serialize_parsed_url(canonicalize_parsed_url(resolve_url(url, parse_url(base))))`,
    each step in `browser`'s profile, gives `url_to_canon_url`'s answer wherever that is not `None`
    (`base` defaults to `url`, as in the pipeline); return that answer."""
    want = url_to_canon_url(url, base, charset, browser)
    if want is not None:
        parsed_base = parse_url(url if base is None else base, browser)
        got = serialize_parsed_url(canonicalize_parsed_url(resolve_url(url, parsed_base, browser), charset, browser))
        if got != want:
            raise Broken(f"chain {got!r} != pipeline {want!r} for {(url, base, charset, browser)!r}")
    return want
