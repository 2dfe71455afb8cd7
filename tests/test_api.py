"""The public API's promises: the exported names, `TypeError`s that name the argument,
and no exception for any `str` input (a seeded random sweep plus hostile hand-picked inputs)."""
import random

import pytest

import weburl_nb
from weburl_nb import (ParsedURL, canonicalize_parsed_url, parse_url, resolve_url,
                       serialize_parsed_url, url_to_canon_url)


def test_exported_names():
    assert weburl_nb.__all__ == ['ParsedURL', 'parse_url', 'resolve_url', 'canonicalize_parsed_url',
                                 'serialize_parsed_url', 'url_to_canon_url', 'canonicalize_many',
                                 'profile_for', 'compare', 'explain', 'surt', 'same_resource',
                                 'url_key', 'registrable_domain', 'public_suffix', 'same_site',
                                 'site_key', 'cc_index_columns']


@pytest.mark.incompatible_with_mypyc("mypyc checks an argument's type where the call enters the compiled function, with its own message (README: The compiled build)")
@pytest.mark.parametrize("call, argument", [
    (lambda: parse_url(b"http://a/"), "argument s "),
    (lambda: parse_url(None), "argument s "),
    (lambda: resolve_url(1, parse_url("http://a/")), "argument s "),
    (lambda: resolve_url("x", "http://a/"), "argument base "),
    (lambda: canonicalize_parsed_url("http://a/"), "argument u "),
    (lambda: canonicalize_parsed_url(parse_url("http://a/"), charset=b"utf-8"), "argument charset "),
    (lambda: serialize_parsed_url(("http",)), "argument u "),
    (lambda: weburl_nb.surt(b"http://a/"), r"surt\(\) argument url "),
    (lambda: weburl_nb.surt("x", base=1), r"surt\(\) argument base "),
    (lambda: weburl_nb.same_resource("http://a/", None), r"same_resource\(\) argument url "),
    (lambda: weburl_nb.same_resource("http://a/", "b", charset=1), r"same_resource\(\) argument charset "),
    (lambda: url_to_canon_url(b"http://a/"), "argument url "),
    (lambda: url_to_canon_url("a", base=parse_url("http://a/")), "argument base "),
    (lambda: url_to_canon_url("http://a/", browser=None), "argument browser "),
    (lambda: canonicalize_parsed_url(parse_url("http://a/"), browser=b"ie"), "argument browser "),
    (lambda: weburl_nb.compare(b"http://a/"), "argument url "),
    (lambda: weburl_nb.compare("a", base=parse_url("http://a/")), "argument base "),
    (lambda: weburl_nb.compare("a", charset=1), "argument charset "),
])
def test_wrong_type_names_the_argument(call, argument):
    with pytest.raises(TypeError, match=argument):
        call()


@pytest.mark.parametrize("browser", ["opera", "", "th\u0130s", "chrome "])
def test_unknown_browser_is_a_value_error_naming_the_choices(browser):
    with pytest.raises(ValueError, match="'this', 'chrome', 'gecko', 'ie'"):
        url_to_canon_url("http://a/", browser=browser)


def test_browser_names_ignore_case():
    for name in ("this", "THIS", "Chrome", "GECKO", "ie", "Ie"):
        assert url_to_canon_url("http://a/", browser=name) == "http://a/"


def test_parsed_url_is_an_immutable_value():
    u = parse_url("http://a/b")
    with pytest.raises(AttributeError):
        u.host = "x"
    assert u == parse_url("http://a/b") and hash(u) == hash(parse_url("http://a/b"))
    assert canonicalize_parsed_url(u) is not u and u.host == "a"
    assert repr(u) == "ParsedURL(scheme='http', host='a', path='/b', hierarchical=True)"


HOSTILE = [
    "", " ", "\x00", "%", "%%%", "%zz", "%C3", "[", "]", "[::", "http://[", "http://[::1", "http://[:::]/",
    "http://%5B::1%5D/", "http://a:99999999999999999999/", "http://0x" + "f" * 100 + "/",
    "http://" + "a." * 200 + "/", "http://" + "x" * 300 + "/", "http://xn--/", "http://xn--a.xn--ü/",
    "http://\ud800/", "http://a\udfff.b/", "\ufffe", "file:" + "/" * 50, "file://" + "c:" * 20,
    "\\\\\\\\", "\\\\?\\c:\\x", "mailto:?#", "javascript:\x00", "a:" * 100, "http://@:@:@/",
    "http://a/" + "../" * 100, "http://a/%2e%2E/%2e/./..%2f", "http://\u0660\u0661\u0662/",
    "http://\u05d0a\u05d1/", "http://\u0341\u0340/", "http://a\u3002b\uff0ec\uff61/", "http://\U0001f600.com/",
    "http://\u200d\u200c/", "ws://[1:2:3:4:5:6:1.2.3.4]:0/", "http://1.2.3.4.5/", "http://4294967296/",
]


def _every_entry_point(s, base="http://example.com/a/b?c#d", charset=None):
    url_to_canon_url(s)
    url_to_canon_url(s, base, charset)
    url_to_canon_url("x", s)
    parsed = parse_url(s)
    serialize_parsed_url(parsed)
    try:                                  # a parsed URL: canonicalized, or refused by name
        serialize_parsed_url(canonicalize_parsed_url(parsed, charset))
    except ValueError as e:
        assert "call resolve_url first" in str(e)
    for b in (base, s):                   # a resolved URL is never refused
        serialize_parsed_url(canonicalize_parsed_url(resolve_url(s, parse_url(b)), charset))
    str(parsed), parsed.netloc, parsed.hostname, parsed.port_number        # the conveniences
    parsed.username, parsed.port, repr(parsed)
    weburl_nb.surt(s, base, charset), weburl_nb.surt(s, strip_www=False, with_scheme=True)
    weburl_nb.same_resource(s, s, base, charset)


@pytest.mark.parametrize("s", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_inputs_never_raise(s):
    _every_entry_point(s)
    _every_entry_point(s, charset="shift_jis")


def test_random_strings_never_raise():
    "20,000 random strings mixing URL punctuation, ASCII and code points from every plane."
    rng = random.Random(20121201)
    alphabet = list(":/\\?#[]@%.-+~!$&'()*,;=|^`{}<>\"\t\n\r 0123456789abcdefxXAZ") + ["%2e", "%2F", "xn--", "//"]
    for _ in range(20000):
        parts = []
        for _ in range(rng.randint(0, 24)):
            r = rng.random()
            if r < 0.6:
                parts.append(rng.choice(alphabet))
            elif r < 0.9:
                parts.append(chr(rng.randint(0x80, 0x2FFF)))
            else:
                parts.append(chr(rng.randint(0, 0x10FFFF)))
        s = "".join(parts)
        prefix = rng.choice(["", "http://", "file:", "HTTP://", "mailto:", "x:", "//", "\\\\"])
        _every_entry_point(prefix + s)


def test_canonical_results_are_idempotent_on_random_urls():
    "Canonicalizing a canonical URL again gives it back (beyond the conformance data)."
    rng = random.Random(7)
    pieces = ["a", "B", "%41", "%7e", "..", ".", "%2e", "/", "\\", "?", "#", "ü", "一", " ", "%", ":", "@", "[", "]"]
    for _ in range(5000):
        url = "http://" + "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        canon = url_to_canon_url(url)
        if canon is not None:
            assert url_to_canon_url(canon) == canon, (url, canon)


@pytest.mark.parametrize("s", HOSTILE, ids=range(len(HOSTILE)))
def test_compare_on_hostile_inputs_never_raises(s):
    "Every row of `compare` (profiles, ada-url when installed, idna) and its three forms."
    import json
    for c in (weburl_nb.compare(s), weburl_nb.compare("x", s, "shift_jis")):
        str(c), c._repr_html_(), json.dumps(c.as_dict())
        assert [o.name for o in c.outcomes] == ["this", "chrome", "gecko", "ie", "whatwg", "idna"]


def test_parsed_url_html_table():
    "Jupyter's table of a ParsedURL tells a missing component from an empty one and shows the flags."
    from weburl_nb import parse_url
    html = parse_url('http://a/?')._repr_html_()
    head, row = html.split('</tr><tr>')
    names = [c.split('</th>')[0] for c in head.split('<th>')[1:]]
    cells = [c.split('</td>')[0] for c in row.split('<td>')[1:]]
    got = dict(zip(names, cells))
    assert got['query'] == '<code>&#x27;&#x27;</code>'        # present, empty
    assert got['fragment'] == '<i>missing</i>'                 # missing
    assert got['hierarchical'] == 'True' and got['invalid'] == 'False'
    assert dict(zip(names, [c.split('</td>')[0] for c in
                            parse_url('x')._repr_html_().split('<td>')[1:]]))['invalid'] == 'True'


def test_canonicalize_many_streams_iterators_and_keeps_lists():
    "A list in, a list out; an iterator in, an iterator out, read one URL (and one base) per answer."
    links, pages = ["../a", "B?x", "HTTP://Q/"], ["http://h/d/p", "http://k/", "http://z/"]
    expected = [url_to_canon_url(u, b) for u, b in zip(links, pages)]
    assert weburl_nb.canonicalize_many(links, pages) == expected
    assert weburl_nb.canonicalize_many(tuple(links)) == [url_to_canon_url(u) for u in links]
    read = []

    def counted(items):
        for item in items:
            read.append(item)
            yield item
    out = weburl_nb.canonicalize_many(counted(links), counted(pages))
    assert not isinstance(out, list) and read == []             # nothing read before asked
    assert next(out) == expected[0] and len(read) == 2          # one URL and its base
    assert list(out) == expected[1:]
    one_base = weburl_nb.canonicalize_many(counted(["x", "y"]), "http://h/")
    assert next(one_base) == "http://h/x"
    with pytest.raises(ValueError, match="more bases"):
        list(weburl_nb.canonicalize_many(iter(["http://a/"]), iter(["x:", "y:"])))
    with pytest.raises(ValueError, match="bases for more"):
        list(weburl_nb.canonicalize_many(iter(["a", "b"]), iter(["http://h/"])))
    with pytest.raises(LookupError):
        weburl_nb.canonicalize_many(iter(["http://a/"]), charset="bogus")       # at the call


def test_canonicalize_many_memory_is_flat_on_a_stream():
    "200,000 generated pairs streamed: the peak of traced allocations stays far below a list's."
    import tracemalloc
    n = 200_000
    links = (f"../p{i % 5000}/{i}.html?q={i}" for i in range(n))
    pages = (f"http://h{i % 300}.example/d{i % 97}/page.html" for i in range(n))
    weburl_nb.canonicalize_many(["x"], "http://h/")           # imports and caches warmed up
    tracemalloc.start()
    try:
        count = sum(1 for c in weburl_nb.canonicalize_many(links, pages) if c is not None)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == n
    assert peak < 4_000_000, peak          # 0.4 MB measured; the same pairs as lists: 20 MB


def test_parsed_url_names_shared_with_urllib_behave_as_urllib():
    "`port_number`, `username`, `password`, `hostname`: what `urlsplit` gives as `port`, ..."
    from urllib.parse import urlsplit
    for s in ["http://me:pw@Example.com:8080/", "http://h:/", "http://h/", "http://@h:0/",
              "http://u:@[::1]:080/"]:
        ours, theirs = parse_url(s), urlsplit(s)
        assert (ours.port_number, ours.username, ours.password, ours.hostname) == (
            theirs.port, theirs.username, theirs.password, theirs.hostname), s
    for s, port in [("http://h:8o/", "8o"), ("http://h:99999/", "99999")]:
        with pytest.raises(ValueError):
            urlsplit(s).port
        assert (parse_url(s).port, parse_url(s).port_number) == (port, None)   # never raises
    assert parse_url("http://h:8080/").port == "8080" == parse_url("http://h:8080/")._asdict()["port"]


def test_str_of_an_invalid_url_is_empty_and_false():
    u = parse_url("no scheme")
    assert u.invalid and str(u) == "" and not str(u) and u.geturl() is None


def test_canonicalize_parsed_url_wants_a_resolved_url():
    with pytest.raises(ValueError, match="call resolve_url first"):
        canonicalize_parsed_url(parse_url("http://a/b/../c"))
    resolved = resolve_url("http://a/b/../c", parse_url("http://a/b/../c"))
    assert serialize_parsed_url(canonicalize_parsed_url(resolved)) == "http://a/c"
    assert serialize_parsed_url(canonicalize_parsed_url(parse_url("HTTP://A/b"))) == "http://a/b"
