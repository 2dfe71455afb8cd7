"""The browser profiles of the host algorithm: choosing one, and the long-run NFKC route.

Agreement with the browsers' records is checked by test_conformance.py; these are the
contracts around it. No timing here (speed is `make bench`'s business)."""
import random
import unicodedata

import pytest

from weburl_nb import profile_for, url_to_canon_url
from weburl_nb.entry import url_to_canon_url_steps
from weburl_nb.host import CHROME, GECKO, IE, THIS, canonicalize_host, canonicalize_host_steps
from weburl_nb.nameprep import _UCD, canonical_order, decompose, nfkc


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
    ucd = _UCD[version]
    rng = random.Random(10)
    pool = "ae\u00e9\u0301\u0316\u0323\u0307\u0345\u05b0\u0b47\u0b3e\u1100\u1161\u11a8\uac00\u0f73\u0f71\u3099\u304b"
    for _ in range(200):
        s = "".join(rng.choice(pool) for _ in range(rng.randint(256, 600)))
        assert nfkc(s, version) == ucd.normalize("NFKC", s)
        assert ucd.normalize("NFKC", canonical_order(decompose(s, ucd), ucd)) == ucd.normalize("NFKC", s)
    s = "a" + "\u0301\u0316" * 2000
    assert nfkc(s, version) == ucd.normalize("NFKC", s)
