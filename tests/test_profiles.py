"""The browser profiles of the host algorithm: choosing one, and the long-run NFKC route.

Agreement with the browsers' records is checked by test_conformance.py; these are the
contracts around it. No timing here (speed is `make bench`'s business)."""
import random
import unicodedata

import pytest

from weburl_nb import profile_for, url_to_canon_url
from weburl_nb.entry import url_to_canon_url_steps
from weburl_nb.engine_hosts import canonicalize_host
from weburl_nb.host import CHROME, GECKO, IE, THIS, canonicalize_host_steps
from weburl_nb.nameprep import UNICODE_DATA, nfkc
from weburl_nb.support import nfkc_ordering_marks_first


@pytest.mark.incompatible_with_mypyc("mypyc checks an argument's type where the call enters the compiled function, with its own message (README: The compiled build)")
def test_profile_for_names_and_errors():
    assert [profile_for(b) for b in ("this", "CHROME", "Gecko", "ie")] == [THIS, CHROME, GECKO, IE]
    with pytest.raises(ValueError, match="'this', 'chrome', 'gecko', 'ie'"):
        profile_for("opera")
    with pytest.raises(TypeError, match="argument browser"):
        profile_for(b"ie")


@pytest.mark.parametrize("url", ["http://Example.COM/a", "http://\u0100.example.org/", "http://a%5Fb.test/",
                                 "http://xn--4gq.com/", "http://a b.test/", "../x", "http://[::1]/"])
def test_every_profile_shortcut_equals_steps(url):
    for browser in ("this", "chrome", "gecko", "ie"):
        assert (url_to_canon_url(url, "http://h/a/b", browser=browser)
                == url_to_canon_url_steps(url, "http://h/a/b", browser=browser))


def test_this_results_do_not_depend_on_the_browser_keyword():
    for url in ("http://\u00e9.example.org/", "http://a~b.test/", "file://c:/x"):
        assert url_to_canon_url(url) == url_to_canon_url(url, browser="THIS")


def test_fast_path_is_this_only():
    # `a~b.test` is already canonical for THIS, but Chrome's step 28 forbids `~`
    assert canonicalize_host("a~b.test") == "a~b.test"
    assert canonicalize_host("a~b.test", "http", CHROME) is None
    assert canonicalize_host_steps("a~b.test", "http", CHROME) is None


@pytest.mark.parametrize("version", ["latest", "3.2"])
def test_long_runs_of_marks_normalize_as_unicodedata_does(version):
    ucd = UNICODE_DATA[version]
    rng = random.Random(10)
    pool = "ae\u00e9\u0301\u0316\u0323\u0307\u0345\u05b0\u0b47\u0b3e\u1100\u1161\u11a8\uac00\u0f73\u0f71\u3099\u304b"
    for _ in range(200):
        s = "".join(rng.choice(pool) for _ in range(rng.randint(256, 600)))
        assert nfkc(s, version) == ucd.normalize("NFKC", s)
        assert nfkc_ordering_marks_first(s, ucd) == ucd.normalize("NFKC", s)
    s = "a" + "\u0301\u0316" * 2000
    assert nfkc(s, version) == ucd.normalize("NFKC", s)


# --- the profiles from the first step: preprocessing step 2 in the host, Gecko's `;` -------
# (00_charclasses, note on step 2 in the host; 01_parsing, note on Gecko's `;`)
from weburl_nb import parse_url, resolve_url                      # noqa: E402
from weburl_nb.parsing import (PARSE_CHROME, PARSE_GECKO, PARSE_IE, PARSE_THIS,  # noqa: E402
                               parse_profile_for)

NONCHARACTERS = [chr(c) for c in range(0xFDD0, 0xFDF0)] + [
    chr(p << 16 | low) for p in range(17) for low in (0xFFFE, 0xFFFF)]
HOSTS = ["zyx.com", "a.b", "example.org", "xn--4gq.jp", "\u00e9t\u00e9.fr"]
BROWSERS = ("this", "chrome", "gecko", "ie")


def _pair(cp: int) -> str:
    "The UTF-16 surrogate pair of the supplementary code point `cp`, as two `str` characters."
    return chr(0xD800 + (cp - 0x10000 >> 10)) + chr(0xDC00 + (cp & 0x3FF))


def test_the_profile_holds_the_steps_before_the_host():
    assert [p.parse for p in (THIS, CHROME, GECKO, IE)] == [PARSE_THIS, PARSE_CHROME, PARSE_GECKO, PARSE_IE]
    assert parse_profile_for("Gecko") is PARSE_GECKO
    from weburl_nb.host import PROFILES, profile_for
    for name in [*PROFILES, "IE", "Chrome"]:     # parsing's table names the same profiles
        assert parse_profile_for(name) is profile_for(name).parse
    with pytest.raises(ValueError, match="unknown browser"):
        parse_url("http://a/", "opera")
    with pytest.raises(ValueError, match="unknown browser"):
        resolve_url("x", parse_url("http://a/"), "opera")


def test_noncharacter_in_the_host_the_records_example():
    # decomps-authority-domain.dat: http://\uFDD0zyx.com/ and http://a\uFDD0\u0306b/
    got = [url_to_canon_url("http://\ufdd0zyx.com/", browser=b) for b in BROWSERS]
    assert got == [None, None, "http://\ufdd0zyx.com/", "http://zyx.com/"]
    assert url_to_canon_url("http://a\ufdd0\u0306b/", browser="ie") == "http://\u0103b/"
    assert url_to_canon_url("http://a\ufdd0\u0306b/", browser="gecko") == "http://a\ufdd0\u0306b/"


@pytest.mark.parametrize("c", NONCHARACTERS, ids=lambda c: f"U+{ord(c):04X}")
def test_every_noncharacter_follows_the_rule_of_its_profile(c):
    for host in HOSTS:
        for at in (0, 1, len(host)):
            with_c = host[:at] + c + host[at:]
            url = f"http://{with_c}/p"
            if c <= "\uffff":  # IE drops one of the BMP: the same result as without it
                assert url_to_canon_url(url, browser="ie") == url_to_canon_url(f"http://{host}/p", browser="ie")
            else:               # one outside the BMP is left to Nameprep, which prohibits it
                assert url_to_canon_url(url, browser="ie") is None
            # Gecko keeps it: the parsed host still holds it
            assert c in parse_url(url, "gecko").host
            # THIS and Chrome replace it by U+FFFD, as for U+FFFD itself
            for b in ("this", "chrome"):
                assert url_to_canon_url(url, browser=b) == url_to_canon_url(url.replace(c, "\ufffd"), browser=b)
        # outside the host every profile replaces it by U+FFFD, as THIS (no record says otherwise)
        for b in BROWSERS:
            for url in (f"http://{host}/a{c}b", f"http://{host}/?a{c}b", f"http://{host}/#a{c}b"):
                assert url_to_canon_url(url, browser=b) == url_to_canon_url(url.replace(c, "\ufffd"), browser=b)


def test_a_surrogate_pair_in_the_host_is_one_code_point():
    # decomps-authority-domain.dat 505 and 507: \uDB40\uDDEF and \U000E01EF, one Gecko record
    rng = random.Random(21)
    for cp in [0xE01EF, 0x1D530, 0x1FFFE, 0x10000, 0x10FFFF] + [rng.randrange(0x10000, 0x110000) for _ in range(200)]:
        for b in ("chrome", "gecko", "ie"):
            assert (url_to_canon_url(f"http://a{_pair(cp)}b.com/", browser=b)
                    == url_to_canon_url(f"http://a{chr(cp)}b.com/", browser=b))
        assert parse_url(f"http://a{_pair(cp)}b.com/").host == "a\ufffd\ufffdb.com"     # THIS: two halves
        assert parse_url(f"http://x/{_pair(cp)}", "gecko").path == "/\ufffd\ufffd"     # outside the host


def test_gecko_ends_the_authority_at_semicolon():
    # decomps-authority-domain.dat 125: Gecko's record of http://a;b.test/ is http://a/;b.test/
    assert url_to_canon_url("http://a;b.test/", browser="gecko") == "http://a/;b.test/"
    assert parse_url("http://a;b.test/", "gecko")[3:6] == ("a", None, "/;b.test/")
    assert url_to_canon_url("http://a;b.test/", browser="chrome") is None      # the others: the host
    assert url_to_canon_url("http://a;b.test/", browser="ie") is None
    # relative references with an authority, and file URLs (whose parser is another)
    base = parse_url("http://h/x", "gecko")
    assert resolve_url("//a;b/c", base, "gecko")[3:6] == ("a", None, "/;b/c")
    assert parse_url("file://a;b/c", "gecko").host == "a;b"


def test_gecko_semicolon_rule_is_a_slash_before_the_first_semicolon():
    "Property: under Gecko, an authority holding `;` parses as if a `/` stood before it."
    rng = random.Random(5)
    alphabet = "ab;:@[]%3.-"
    for _ in range(2000):
        auth = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 10)))
        tail = rng.choice(["", "/", "/p;q", "?q", "#f"])
        url = f"http://{auth}{tail}"
        cut = auth.find(";")
        if cut < 0:
            assert parse_url(url, "gecko") == parse_url(url)
        else:
            assert parse_url(url, "gecko") == parse_url(f"http://{auth[:cut]}/{auth[cut:]}{tail}")


def test_this_named_in_any_case_takes_the_same_steps_as_the_default():
    rng = random.Random(8)
    pool = ["a", "/", ";", ":", "@", "\ufdd0", "\ud800", "\udc00", "\U0001fffe", "\t", " ", "?", "#", "\\"]
    for _ in range(2000):
        s = "http://" + "".join(rng.choice(pool) for _ in range(rng.randint(0, 12)))
        assert parse_url(s, "THIS") == parse_url(s)
        assert resolve_url(s, parse_url("http://h/a"), "This") == resolve_url(s, parse_url("http://h/a"))


@pytest.mark.parametrize("url", ["http://a;b.test/", "http://\ufdd0zyx.com/", "//a;b/c",
                                 "http://a\udb40\uddefb.com/", "http://x/\ufdd0", ";x"])
def test_profiles_from_the_first_step_shortcut_equals_steps(url):
    for browser in BROWSERS:
        assert (url_to_canon_url(url, "http://h/a/b", browser=browser)
                == url_to_canon_url_steps(url, "http://h/a/b", browser=browser))
        assert url_to_canon_url(url, browser=browser) == url_to_canon_url_steps(url, browser=browser)
