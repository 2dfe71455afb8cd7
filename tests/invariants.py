"""The promises that hold for every input, as one check shared by the property tests
(`test_properties.py`, Hypothesis) and the coverage-guided fuzz target (`tools/fuzz.py`, atheris):

- no exception: any `str` as the URL, any `str` or `None` as the base, any charset label of the
  Encoding Standard or `None`, gives a plain `str` or `None`;
- one implementation: the shortcut route (`url_to_canon_url`) answers exactly as the steps route
  (`url_to_canon_url_steps`);
- a fixed point: canonicalizing an answer again, on its own and in the same charset, gives it back;
- the public chain (`check_chain`): parsing, resolving, canonicalizing and serializing one step at a
  time gives the pipeline's answer, in every profile;
- a fixed point in every browser's profile too (`check_profiles`), except where the browser's record
  keeps a host that does not survive a second reading (`host_not_kept`, the rule the README states).
"""
from __future__ import annotations

from weburl_nb.entry import canonicalize_parsed_url, pipeline, url_to_canon_url, url_to_canon_url_steps
from weburl_nb.encoding import labels
from weburl_nb.host import PROFILES, canonicalize_host_steps, profile_for
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


def host_not_kept(url: str, base: str | None, charset: str | None, browser: str) -> str | None:
    """Why `browser`'s answer may be no fixed point, or `None`: the rule of the README's exception.
    Its host, as that profile's record keeps it, does not survive a second reading: parsing the answer
    reads another host or port (the host holds a `:`, `[`, `#`, `?`, `;`, `\\` or space that ends
    it there), or the profile's own host steps change that host (Chrome's escapes decoded to Latin-1
    characters, a number that becomes an IPv4 address, Gecko's Punycode with a space)."""
    u = pipeline(url, base, charset, browser).canonical
    if u.invalid or u.host is None:
        return None
    again = parse_url(serialize_parsed_url(u), browser)
    if (again.host, again.port) != (u.host, u.port):
        return f'the host {u.host!r} reads back as {again.host!r} with the port {again.port!r}'
    if canonicalize_host_steps(u.host, u.scheme, profile_for(browser)) != u.host:
        return f"the host {u.host!r} is changed by {browser}'s host steps read again"
    return None


def check_profiles(url: str, base: str | None = None, charset: str | None = None) -> None:
    """In each of the four profiles the answer, canonicalized again in that profile, is itself; in a
    browser's profile, unless `host_not_kept` says why not."""
    for browser in PROFILES:
        answer = url_to_canon_url(url, base, charset, browser)
        if answer is None or url_to_canon_url(answer, None, charset, browser) == answer:
            continue
        if browser == 'this' or host_not_kept(url, base, charset, browser) is None:
            again = url_to_canon_url(answer, None, charset, browser)
            raise Broken(f"not a fixed point in {browser}: {answer!r} -> {again!r} for {(url, base, charset)!r}")
