"""Issue 10's findings, one regression test each: inputs that used to crash, parse wrongly or give a
canonical URL that was not a fixed point (the property tests in `test_properties.py` cover the same
promises for arbitrary strings)."""
import subprocess
import sys

import pytest

from invariants import check
from weburl_nb.entry import url_to_canon_url, url_to_canon_url_steps


def both(url, base=None, charset=None):
    "The answer of the shortcut route, after checking that the steps route agrees."
    fast, steps = url_to_canon_url(url, base, charset), url_to_canon_url_steps(url, base, charset)
    assert fast == steps, (url, base, charset, fast, steps)
    return fast


def test_unc_slash_after_backslashes():
    "Finding 1: the host of a UNC path is what precedes the first slash character, here nothing."
    assert both("\\\\/h") == "file:///h"
    assert both("\\\\\\/h/x") == "file:///h/x"
    assert both("x", "\\\\/h/") == "file:///h/x"
    assert both("\\\\srv\\share") == "file://srv/share"


def test_port_longer_than_int_digit_limit():
    "Finding 2: Python's int() refuses more than 4,300 digits; the port is still read."
    assert both("http://h:" + "0" * 5000) == "http://h:0/"
    assert both("http://h:" + "0" * 5000 + "80/a") == "http://h/a"
    assert both("http://h:" + "1" * 5000) is None


def test_cli_goes_on_after_a_long_port():
    "Finding 2: `weburl` used to stop in the middle of a stream on such a port."
    lines = ("http://h:" + "0" * 5000 + "\nHTTP://A/\n").encode()
    p = subprocess.run([sys.executable, "-c", "import sys; from weburl_nb.cli import main; sys.exit(main())"],
                       input=lines, capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.decode().splitlines() == ["http://h:0/", "http://a/"]


def fixed_point(url, base=None, charset=None):
    "The canonical URL, after checking that canonicalizing it again gives it back."
    out = both(url, base, charset)
    assert out is None or both(out, None, charset) == out, (url, base, out, both(out, None, charset))
    return out


def test_decoding_makes_no_new_escape():
    "Finding 4a: an unreserved escape is not decoded into a new escape (departure, see 06's note)."
    assert fixed_point("http://h/%7%41") == "http://h/%7%41"
    assert fixed_point("http://h/a/%2%45%2%45/b") == "http://h/a/%2%45%2%45/b"
    assert fixed_point("http://h/%%34%31%%41F%7e") == "http://h/%%341%%41F~"


def test_base_path_taken_over_is_resolved():
    "Finding 4b: an empty, `?` or `#` link takes the base path cleaned (departure, see 02's notes)."
    assert fixed_point("", "http://a/b/../c") == "http://a/c"
    assert fixed_point("?q", "http://a/b/./c") == "http://a/b/c?q"
    assert fixed_point("#f", "http://a/b/%2e%2E/c\\d") == "http://a/c/d#f"
    assert fixed_point("", "file:///a%2Fb/../c") == "file:///a/c"
    assert fixed_point("%2F", "file:///c:/windows\\system32%5Cdrivers/etc/hosts") == \
        "file:///c:/windows/system32/drivers/etc//"
    assert fixed_point("", "ecmascript:a % 55 // # x") == "ecmascript:a % 55 //"
    assert fixed_point("http:", "http://a/./b") == "http://a/b"


def test_file_url_against_itself():
    "Finding 4c: `file:%5C/` against itself decodes the base's escaped slash as well."
    assert fixed_point("file:%5C/") == "file:///"


class Sub(str):
    "A `str` subclass, as a caller's own string type might be."


class Unhashable(str):
    "A `str` subclass that cannot be a cache key."
    __hash__ = None


@pytest.mark.incompatible_with_mypyc("mypyc checks an argument's type where the call enters the compiled function, with its own message (README: The compiled build)")
def test_steps_type_error_names_itself():
    "Finding 6: the steps route's TypeError names `url_to_canon_url_steps`, not `url_to_canon_url`."
    import pytest
    with pytest.raises(TypeError, match=r"^url_to_canon_url_steps\(\) argument url "):
        url_to_canon_url_steps(b"http://a/")
    with pytest.raises(TypeError, match=r"^url_to_canon_url_steps\(\) argument base "):
        url_to_canon_url_steps("x", 1)
    with pytest.raises(TypeError, match=r"^url_to_canon_url\(\) argument charset "):
        url_to_canon_url("x", None, b"utf-8")


def test_str_subclass_comes_back_as_str():
    "Finding 6: a `str` subclass is answered with a plain `str`, by the shortcuts and the steps."
    for url, base in [("http://h/", None), ("http://h/a", "http://h/"), ("a", "http://h/"),
                      ("file:///x", None), ("", "http://h/x")]:
        for f in (url_to_canon_url, url_to_canon_url_steps):
            for args in [(Sub(url), base and Sub(base)), (url, base and Sub(base))]:
                assert type(f(*args)) is str, (f, args)


def test_unhashable_str_subclass_as_charset_or_base():
    "Finding 6: an unhashable subclass as `charset` or `base` never reaches an `lru_cache`."
    from weburl_nb import canonicalize_parsed_url, parse_url
    for f in (url_to_canon_url, url_to_canon_url_steps):
        assert f("?ü", Unhashable("http://h/"), Unhashable("latin1")) == "http://h/?%FC"
        assert f(Unhashable("x?ü"), Unhashable("http://h/"), Unhashable("utf-8")) == "http://h/x?%C3%BC"
    assert canonicalize_parsed_url(parse_url("http://h/?ü"), Unhashable("latin1")).query == "%FC"


def test_long_localhost_chain_in_file_path():
    "C9's rounds reach the end of a long chain of `///localhost`: the answer is a fixed point."
    assert fixed_point("file://localhost" + "///localhost" * 40 + "/x") == "file:///x"
    assert fixed_point("file://localhost" + "///LOCALHOST///%6Cocalhost" * 20 + "///c|/y") == "file:///c:/y"
    check("file://localhost///localhost//////localhost///localhost///localhost///localhost///localhost"
          "///localhost/////localhost//////localhost///localhost///localhost///localhost///localhost"
          "///localhost///localhost///localhost//////localhost///localhost//////localhost///localhost"
          "///localhost///localhost///localocal//o/\udc96r")


# Dot-segments on megabyte paths: the engine route (`url_to_canon_url`) holds a few bytes per
# character, and the engine's answer is the steps' answer. Not timed: a route that copied the rest
# of the path per segment would not finish.
MEGA_PATHS = {
    'parents': '/..' * 350_000,
    'up and down': ('/a' * 1000 + '/..' * 1000) * 250,
    'escaped dots': '/%2e%2E' * 150_000 + '/x',
    'single dots': '/.' * 500_000,
    'segments then parents': '/a' * 250_000 + '/%2E%2e' * 150_000,
}


@pytest.mark.parametrize('shape', MEGA_PATHS)
def test_megabyte_dot_segments_engine_route(shape):
    import tracemalloc

    from weburl_nb import engine_paths, resolution
    path = MEGA_PATHS[shape]
    assert engine_paths.remove_dot_segments_by_stack(path) == resolution.remove_dot_segments(path)
    url = 'http://example.com' + path
    tracemalloc.start()
    try:
        out = url_to_canon_url(url)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert out == 'http://example.com' + engine_paths.remove_dot_segments_by_stack(path)
    assert peak <= 12 * len(url), f'{shape}: {peak / len(url):.1f} bytes per character'
