"""The same answers on every supported Python, whatever its patch level.

CPython 3.11.0 to 3.11.4 (Debian 12's `/usr/bin/python3` is 3.11.2) match a possessive repeat of a
group, `(?:...)*+`, `(?:...)++` or `(?:...){m,n}+`, wrongly when the group holds a look-around or
another repeat (CPython gh-100061 and gh-106052, fixed in 3.11.5): `(?:a(?!b).)*+` matches `ab`.
The package's patterns repeat no group possessively. Each pattern that once did has a
test here, named after it, that pins its answers on the inputs that went wrong, so an affected
interpreter fails a named test if such a repeat comes back; the last tests scan every pattern the
package compiles, and its source, for one.

Expected answers come from the spec's steps, worked by hand:
- `http://xn--4gq.jp/%41#f`: C8 decodes the unreserved `%41` to `A`.
- `ftp://foo/bar/;type=%64`: `%64` is `d`, unreserved: decoded.
- `x-y://a/~u/a/%7e?q=1`: `%7e` is `~`, unreserved: decoded; the query stays.
- `%2E` against `http://foo/a/b/c/d`: merged to `/a/b/c/%2E`, a dot-segment (resolution counts `%2E`
  as `.`), removed: `/a/b/c/`.
- `http://%41%%41/p`: host step 6 decodes the two runs `%41` and leaves the `%` between: `A%A`; step 28
  refuses the `%`: the URL is invalid. `http://x%41%4g.com/`: `xA%4g.com`, refused the same way.
"""
from __future__ import annotations

import gc
import importlib
import pkgutil
import re
import sys
from pathlib import Path

try:                                       # the parser `re` uses (3.11+), private but stable
    from re import _constants as sre_constants, _parser as sre_parse
except ImportError:                        # pragma: no cover
    import sre_constants, sre_parse        # type: ignore[no-redef]

import weburl_nb
from weburl_nb.charclasses import LazyRegex
from weburl_nb.entry import url_to_canon_url, url_to_canon_url_steps
from weburl_nb.engine_hosts import _CANONICAL_NAME, canonicalize_host
from weburl_nb.host import percent_decode_utf8
from weburl_nb.shortcuts import (_CLEAN_LINK_RE, _PATH, NO_SHORTCUT,
                                 already_canonical, clean_link)


def _both_routes(url: str, base: str | None = None):
    "The shortcut route's answer, after checking that the steps route gives the same."
    fast, steps = url_to_canon_url(url, base), url_to_canon_url_steps(url, base)
    assert fast == steps, (url, base, fast, steps)
    return fast


# --- `_PATH` (07f_shortcuts), inside `_CANONICAL_URL_RE` and `_CLEAN_LINK_RE` -------------------

def test_path_in_canonical_url_re():
    "A path with an unreserved escape is not already canonical: C8 decodes it."
    assert _both_routes('http://xn--4gq.jp/%41#f') == 'http://xn--4gq.jp/A#f'
    assert _both_routes('ftp://foo/bar/;type=%64') == 'ftp://foo/bar/;type=d'
    assert _both_routes('x-y://a/~u/a/%7e?q=1') == 'x-y://a/~u/a/~?q=1'
    for url in ('http://xn--4gq.jp/%41#f', 'http://h/%', 'http://h/a%4', 'http://h/%%20'):
        assert not already_canonical(url), url
    assert already_canonical('http://h/a%20b/%E9?q#f')
    # The pattern itself, on the analogue of the minimal case: a `%` escape the path may not hold.
    path = re.compile(_PATH)
    assert [bool(path.fullmatch(p)) for p in ('%', '/%41', 'a%2e', '%4', '%20%', '/a%20/%E9', '')] == [
        False, False, False, False, False, True, True]


def test_path_in_clean_link_re():
    "A link with an unreserved escape is not clean: the steps decode it, here into a dot-segment."
    base = 'http://foo/a/b/c/d'
    assert _both_routes('%2E', base) == 'http://foo/a/b/c/'
    assert _both_routes('x/%7E', base) == 'http://foo/a/b/c/x/~'
    for link in ('%2E', '%', 'x%41', '/%41', '../%7e'):
        assert _CLEAN_LINK_RE.fullmatch(link) is None, link
        assert clean_link(link, base, None) is NO_SHORTCUT, link
    assert clean_link('x%20y', base, None) == 'http://foo/a/b/c/x%20y'


# --- percent_decode_utf8 (05_host, step 6) ---------------------------------------------------------------

def test_percent_run():
    "A run of `%XX` ends before a `%` that starts no triplet; the stray `%` fails the host at step 28."
    assert _both_routes('http://%41%%41/p') is None
    assert _both_routes('http://x%41%4g.com/') is None
    assert canonicalize_host('%41%%41') is None
    assert percent_decode_utf8('%41%%41') == 'A%A'
    assert percent_decode_utf8('x%41%4g.com') == 'xA%4g.com'
    assert percent_decode_utf8('%11%%4') == '\x11%%4'
    assert percent_decode_utf8('%E4%B8%80%4%41%') == '\u4e00%4A%'


# --- `_CANONICAL_NAME` (07e_engine_hosts, the fast path for hosts)--------------------------------------

def test_canonical_name():
    "Non-empty labels joined by single dots, an optional final dot (asked of non-addresses only)."
    yes = ['-.', 'a-.b', 'example.com', 'a.b.c.', '~', 'x.09a', '1.2.3.a', '1.2.3.4.', 'a.0x']
    no = ['', '.', '.a', 'a..b', 'a.b..', 'A.com', 'a%41', '[::1]', '1.2.3.4:80']
    assert [h for h in yes if not _CANONICAL_NAME.fullmatch(h)] == []
    assert [h for h in no if _CANONICAL_NAME.fullmatch(h)] == []
    assert _both_routes('http://-./x') == 'http://-./x'


# --- the `../` steps (07f_shortcuts): `_CLEAN_LINK_RE`'s `up` ------------------------------------

def test_up_steps():
    "The steps are `../` as many times as the link starts with it, never more, never fewer."
    assert _CLEAN_LINK_RE.fullmatch('../../x').end('up') == 6
    assert _CLEAN_LINK_RE.fullmatch('../').end('up') == 3
    for link in ('.././/x', '../.x', '..././x', '.../x'):
        assert _CLEAN_LINK_RE.fullmatch(link) is None, link
    assert _both_routes('.././/x', 'http://h/a/b/c') == 'http://h/a//x'


# --- the scan ------------------------------------------------------------------------------------

_SINGLE = {sre_constants.LITERAL, sre_constants.NOT_LITERAL, sre_constants.ANY, sre_constants.IN,
           sre_constants.CATEGORY}


def _possessive_groups(pattern: str | bytes, flags: int = 0) -> list[str]:
    "The possessive repeats of anything but a single character in `pattern`, as `repr`s."
    found = []

    def walk(items):
        for op, av in items:
            if op is sre_constants.POSSESSIVE_REPEAT:
                item = av[2]
                if not (len(item.data) == 1 and item.data[0][0] in _SINGLE):
                    found.append(repr(item.data)[:80])
                walk(item.data)
            elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT):
                walk(av[2].data)
            elif op is sre_constants.SUBPATTERN:
                walk(av[3].data)
            elif op is sre_constants.BRANCH:
                for branch in av[1]:
                    walk(branch.data)
            elif op in (sre_constants.ASSERT, sre_constants.ASSERT_NOT):
                walk(av[1].data)
            elif op is sre_constants.ATOMIC_GROUP:
                walk(av.data)
            elif op is sre_constants.GROUPREF_EXISTS:
                walk(av[1].data)
                if av[2] is not None:
                    walk(av[2].data)

    walk(sre_parse.parse(pattern, flags).data)
    return found


def test_the_scan_finds_possessive_groups():
    "The checker below catches what it must, and lets the harmless forms pass."
    for bad in (r'(?:a(?!b).)*+', r'(?:%[0-9A-Fa-f]{2})++', r'x(?:ab){2,3}+', r'(?>(?:a|bc)?+)',
                r'(?=(?:\.\./)*+)', r'(a)*+'):
        assert _possessive_groups(bad), bad
    for good in (r'[a-z]*+', r'/{3,}+', r'(?>(?:ab)*)', r'(?:ab)*', r'(?:ab)+?', r'a++', r'\d?+'):
        assert not _possessive_groups(good), good


def _package_patterns() -> dict[str, tuple]:
    "Every `LazyRegex` and compiled pattern the package holds, once all its modules are imported."
    for info in pkgutil.iter_modules(weburl_nb.__path__, 'weburl_nb.'):
        try:
            importlib.import_module(info.name)
        except ImportError:                 # a module for an optional dependency (Spark, ...)
            continue
    url_to_canon_url('http://example.com/a?b#c')    # builds what is built at the first call
    found = {}
    for obj in gc.get_objects():
        if isinstance(obj, LazyRegex):
            found[repr(obj)] = (obj.pattern, obj.flags)
    for name, module in list(sys.modules.items()):
        if name == 'weburl_nb' or name.startswith('weburl_nb.'):
            for value in vars(module).values():
                if isinstance(value, re.Pattern):
                    found[repr(value)] = (value.pattern, value.flags & ~re.UNICODE)
    return found


def test_no_compiled_pattern_repeats_a_group_possessively():
    patterns = _package_patterns()
    assert len(patterns) > 30                       # the scan does see the package's patterns
    bad = {key[:100]: found for key, (pattern, flags) in patterns.items()
           if (found := _possessive_groups(pattern, flags))}
    assert not bad, bad


# A `)` closing a group (not `()` in a list of characters, not an escaped `\)`), repeated, then `+`.
_SOURCE_POSSESSIVE_GROUP = re.compile(r'(?<![(\\])\)(?:[*+?]|\{\d*(?:,\d*)?\})\+')


def test_no_source_line_repeats_a_group_possessively():
    "Also patterns never compiled at import, or written inline: no `)*+`, `)++`, `)?+`, `){m,n}+`."
    assert _SOURCE_POSSESSIVE_GROUP.search("LazyRegex(r'(?:%[0-9A-Fa-f]{2})++')")
    assert not _SOURCE_POSSESSIVE_GROUP.search('UNRESERVED + "!$%&\'()*+,"')
    package = Path(weburl_nb.__file__).parent
    hits = [f'{path.name}:{n}: {line.strip()[:80]}'
            for path in sorted(package.glob('*.py')) if path.name != '_modidx.py'
            for n, line in enumerate(path.read_text(encoding='utf-8').splitlines(), 1)
            if _SOURCE_POSSESSIVE_GROUP.search(line)]
    assert not hits, hits

