"""The in-browser viewer, `try.html`, driven in headless Chromium with every non-local request blocked
(the resolver rule in test_site's CHROME_FLAGS): for each URL below, the page (opened with the query
parameters `url`, `base`, `charset`) must show, for each browser profile, what the installed package
computes. Also: a screenshot (`_docs/screenshots/try.png`) and the measured first load
(`_docs/screenshots/try-load.txt`).
"""
from __future__ import annotations

from urllib.parse import urlencode

import pytest

from test_site import SHOTS, browser, served, server  # noqa: F401 (fixtures)
from weburl_nb import url_to_canon_url

PROFILES = ("this", "chrome", "gecko", "ie")
CASES = [  # (url, base, charset): what each one exercises
    ("http://\uff25\uff38\uff21\uff2d\uff30\uff2c\uff25.com/", None, None),           # IDN: full-width letters
    ("http://b\u00fccher.example/caf\u00e9", None, None),                              # IDN: Punycode
    ("http://0x7f.1:080/", None, None),                                               # IPv4 in hexadecimal
    ("http://[0:0:0::1]:80/", None, None),                                            # IPv6
    ("file:///c|/dir/../a.txt", None, None),                                          # file: with a drive
    ("../img/a b.png?x#y", "http://example.com/docs/a/b.html", None),                 # relative, with a base
    ("?q=\u65e5\u672c", "http://example.jp/search", "euc-jp"),                        # a legacy charset
    ("http://example.com:99999/", None, None),                                        # invalid: port
    ("http://a%2fb.test/", None, None),                                               # invalid: host
    ("http://%5B::1]/", None, None),                                                  # browsers disagree
    ("http://xn--a\u00fc.test/", None, None),                                         # browsers disagree
    ("HTTP://www.Example.COM:80/%7Euser/a/../b c?q=\u00fc#Top", None, None),
]


def expected(url, base, charset, profile):
    "What the installed package says: the canonical URL, `invalid`, or `n/a` when it has no such profile."
    try:
        out = url_to_canon_url(url, base, charset, browser=profile)
    except (TypeError, ValueError, LookupError):
        if profile == "this":
            out = url_to_canon_url(url, base, charset)
        else:
            return "n/a"
    return "invalid" if out is None else out


def _open(browser, server, url, base, charset):  # noqa: F811
    from selenium.webdriver.support.ui import WebDriverWait
    params = {"url": url, **({"base": base} if base else {}), **({"charset": charset} if charset else {})}
    browser.get(server + "try.html?" + urlencode(params))
    WebDriverWait(browser, 120).until(lambda d: d.execute_script("return document.body.dataset.state"))
    return browser.execute_script("""
        const t = id => document.getElementById(id).textContent;
        return {state: document.body.dataset.state, status: t('status'), load: document.body.dataset.loadSeconds,
                canon: {this: t('canon-this'), chrome: t('canon-chrome'), gecko: t('canon-gecko'), ie: t('canon-ie')},
                steps: document.querySelectorAll('#trace tr').length, reason: t('reason'),
                resources: performance.getEntriesByType('resource').map(e => e.name)};""")


@pytest.fixture(scope="module")
def pages(server, browser):  # noqa: F811
    if not (SHOTS.parent / "try.html").is_file():
        pytest.fail("_docs/try.html is missing: run `make site` first")
    SHOTS.mkdir(exist_ok=True)
    results = [_open(browser, server, *case) for case in CASES]
    first = results[0]["load"]
    (SHOTS / "try-load.txt").write_text(f"first load (empty cache): {first} s\n"
                                        f"later loads: {', '.join(str(r['load']) for r in results[1:])} s\n")
    _open(browser, server, *CASES[1])
    browser.save_screenshot(str(SHOTS / "try.png"))
    return results


@pytest.mark.parametrize("i", range(len(CASES)), ids=[c[0][:40] for c in CASES])
def test_viewer_shows_what_the_package_computes(pages, server, i):  # noqa: F811
    page, (url, base, charset) = pages[i], CASES[i]
    assert page["state"] == "done", page["status"]
    for profile in PROFILES:
        want, got = expected(url, base, charset, profile), page["canon"][profile]
        if want == "n/a":
            assert got.startswith("n/a"), (profile, got)
        else:
            assert got == want, f"{profile}: page {got!r}, package {want!r}"
    assert page["steps"] > 0
    if page["canon"]["this"] == "invalid":
        assert page["reason"].startswith("Invalid: "), page["reason"]
    outside = [r for r in page["resources"] if not r.startswith(server)]
    assert not outside, f"requests outside the site: {outside}"


def test_first_load_reported(pages):
    assert float(pages[0]["load"]) < 90, pages[0]["status"]
    assert "loaded in" in pages[0]["status"]
