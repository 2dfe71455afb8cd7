"""The built site, used as a person would: headless Chromium, driven by Selenium (Debian's chromium and
chromium-driver), reads `_docs/` the way the README says to open it, `make serve` (on a free port of
127.0.0.1), starting at the index and following its navigation. Opened from disk (`file://`), the pages
read and `try.html` says in one sentence how to open it (test_from_disk).

Run with `make site-test` after `make site`. `make test` leaves this folder out (`--ignore=tests/site`).
Screenshots of the index, of one section page, and of the host, explain and try pages at 1400 and
390 px wide go to `_docs/screenshots/`.
"""
from __future__ import annotations

import functools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "site"))
import siteconf  # noqa: E402

DOCS = siteconf.DOCS
SHOTS = DOCS / "screenshots"
CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--no-first-run", "--disable-component-update", "--disable-sync", "--window-size=1280,1000",
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]  # offline: only the local server
PAGES = siteconf.pages(warn=lambda m: None)


def _title(nb: Path) -> str:
    "The notebook's `# ` title as it reads on the page (inline markup dropped)."
    for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "markdown":
            m = re.search(r"^#\s+(.+?)\s*$", "".join(cell["source"]), re.MULTILINE)
            if m:
                return _plain(m.group(1))
    return ""


def _plain(text: str) -> str:
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[`*_]", "", text).replace("¶", "").strip().rstrip("#").strip()


def _expected_title(page: siteconf.Page) -> str:
    if page.name == siteconf.CONFORMANCE:
        return "Conformance"
    if page.name == siteconf.TRY:
        return _plain(re.search(r"^# (.+)$", (ROOT / "tools" / "site" / "try.md").read_text(), re.M).group(1))
    return _title(page.source) if page.source else siteconf.title()


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        self.ids.update(v for k, v in attrs if k in ("id", "name") and v)


@functools.cache
def _anchors(path: Path) -> frozenset:
    p = _Ids()
    p.feed(path.read_text(encoding="utf-8", errors="replace"))
    return frozenset(p.ids)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _Serve:
    "`make serve` on a free port, as the README opens the site; the requests it answered with 404."

    def __init__(self):
        self.port = _free_port()
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(["make", "-s", "serve", f"PORT={self.port}", f"PY={sys.executable}"],
                                     cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        pytest.fail("`make serve` did not start")

    def missing(self) -> list[str]:
        self.log.seek(0)
        lines = self.log.read().decode("utf-8", "replace").splitlines()
        return [m.group(1) for m in (re.search(r'"GET (\S+) [^"]*" 404', l) for l in lines) if m]

    def stop(self):
        os.killpg(self.proc.pid, signal.SIGTERM)
        self.proc.wait(10)


@pytest.fixture(scope="module")
def served():
    if not (DOCS / "index.html").is_file():
        pytest.fail("_docs/index.html is missing: run `make site` first")
    serve = _Serve()
    yield serve
    serve.stop()


@pytest.fixture(scope="module")
def server(served):
    return f"http://127.0.0.1:{served.port}/"


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service
    chrome = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if not chrome or not Path(driver_path).exists():
        pytest.fail("Chromium or chromedriver missing: apt-get install -y chromium chromium-driver")
    profile = tempfile.mkdtemp(prefix="site-test-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chrome
    for flag in CHROME_FLAGS + [f"--user-data-dir={profile}"]:
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=opts)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


_PAGE_FACTS = """
const hrefs = Array.from(document.querySelectorAll('a[href]')).map(a => a.href);
const res = Array.from(document.querySelectorAll('script[src], img[src], link[href], iframe[src]'))
    .map(e => e.src || e.href);
const h1 = document.querySelector('article h1, h1');
return {hrefs: hrefs, resources: res, h1: h1 ? h1.innerText : null, text: document.body.innerText,
        errors: Array.from(document.querySelectorAll('.output.traceback, .output.error')).map(e => e.innerText.slice(0, 300)),
        tables: document.querySelectorAll('article table').length,
        prose: (() => { const a = document.querySelector('article');
                        if (!a) return '';
                        const c = a.cloneNode(true);
                        c.querySelectorAll('pre, code, .highlight, .cell_output').forEach(e => e.remove());
                        return c.textContent; })(),
        signatures: Array.from(document.querySelectorAll('.tag_showdoc pre')).map(e => e.textContent),
        wrapped: Array.from(document.querySelectorAll('article pre'))
            .filter(e => getComputedStyle(e).whiteSpace !== 'pre' || !['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
            .map(e => e.textContent.slice(0, 80)),
        wide: document.documentElement.scrollWidth - window.innerWidth};
"""


def _visit(driver, url: str) -> dict:
    driver.get_log("browser")  # drop what earlier pages logged
    facts = driver.execute_script(_PAGE_FACTS)
    facts["url"] = url
    facts["console"] = [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    return facts


@pytest.fixture(scope="module")
def site(server, browser):
    "Every page reached from the index's navigation links, clicked one after the other."
    from selenium.common.exceptions import ElementClickInterceptedException
    from selenium.webdriver.common.by import By
    browser.get(server)
    index = _visit(browser, server)
    SHOTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(SHOTS / "index.png"))
    nav = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, ".sidebar-tree a.reference")]
    visited = {"index": index}
    section = next((p.name for p in PAGES[1:] if p.source), None)
    for i, href in enumerate(nav):
        browser.get(server)
        link = browser.find_elements(By.CSS_SELECTOR, ".sidebar-tree a.reference")[i]
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)  # a long sidebar
        try:
            link.click()
        except ElementClickInterceptedException:  # the entry sits under the page's edge overlay
            browser.execute_script("arguments[0].click()", link)
        name = Path(urlsplit(browser.current_url).path).stem or "index"
        visited[name] = _visit(browser, browser.current_url)
        if name == section:
            browser.save_screenshot(str(SHOTS / f"{name}.png"))
    return {"nav": nav, "pages": visited, "base": server}


def test_index_links_every_page(site):
    linked = {Path(urlsplit(h).path).name for h in site["nav"]}
    want = {p.html for p in PAGES[1:]}
    assert want <= linked, f"pages missing from the index's navigation: {sorted(want - linked)}"
    stems = [Path(urlsplit(h).path).stem or "index" for h in site["nav"]]
    assert stems[0] == "index", "the navigation does not start with Home (the index)"
    assert stems[1:len(PAGES)] == [p.name for p in PAGES[1:]], \
        "the navigation is not in the order of nbs/sidebar.yml"


def test_every_section_notebook_has_a_page():
    for page in PAGES:
        assert (DOCS / page.html).is_file(), f"{page.html} (from {page.source}) was not built"


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_page(site, page):
    facts = site["pages"].get(page.name)
    assert facts is not None, f"{page.html} was not reached from the index's navigation"
    assert _plain(facts["h1"] or "") == _expected_title(page), f"{page.html}: heading {facts['h1']!r}"
    directives = [line for line in facts["text"].splitlines() if re.match(r"\s*#\s*\|", line)]
    assert not directives, f"{page.html} shows nbdev directives: {directives[:3]}"
    assert not facts["console"], f"{page.html}: console errors: {facts['console']}"
    base = site["base"]
    outside = [r for r in facts["resources"] if r and not r.startswith((base, "data:", "about:"))]
    assert not outside, f"{page.html} loads resources from outside the site: {outside}"
    broken = []
    for href in facts["hrefs"]:
        url, frag = urldefrag(href)
        if not url.startswith(base):
            continue  # an external link: not the site's business offline
        path = DOCS / unquote(urlsplit(url[len(base):]).path)  # try.html?url=... is try.html
        if path.is_dir():
            path = path / "index.html"
        if not path.is_file():
            broken.append(href)
        elif frag and path.suffix == ".html" and unquote(frag) not in _anchors(path):
            broken.append(href)
    assert not broken, f"{page.html}: broken internal links: {sorted(set(broken))}"


@pytest.mark.parametrize("page", [p for p in PAGES if p.source], ids=[p.name for p in PAGES if p.source])
def test_examples_ran_without_error(site, page):
    facts = site["pages"].get(page.name) or {"errors": []}
    assert not facts["errors"], f"{page.html} shows Python errors: {facts['errors']}"


# The spec writes variables as /s/ and values as |host|; on the site they read as italics and code.
_RAW_NOTATION = re.compile(r"(?<![\w/.:~%#=-])/[A-Za-z][\w-]*/(?![\w/.])|\|[A-Za-z][\w-]*\|")


@pytest.mark.parametrize("page", [p for p in PAGES if p.source], ids=[p.name for p in PAGES if p.source])
def test_no_raw_spec_notation(site, page):
    "Prose (code left out) has no raw `/s/` or `|host|`: variables are in italics, values in code."
    facts = site["pages"].get(page.name) or {"prose": ""}
    raw = sorted(set(_RAW_NOTATION.findall(facts["prose"])))
    assert not raw, f"{page.html} shows the spec's raw notation: {raw[:10]}"


@pytest.mark.parametrize("page", [p for p in PAGES if p.source], ids=[p.name for p in PAGES if p.source])
def test_signature_boxes_are_clean(site, page):
    "Signature boxes show real types and short defaults: no ForwardRef, no module paths, no dumped objects."
    bad = []
    for sig in (site["pages"].get(page.name) or {"signatures": []})["signatures"]:
        flat = " ".join(sig.split())
        for pattern in (r"ForwardRef", r"__main__\.", r"weburl_nb\.\w+\.", r"=\s*[A-Z]\w*\("):
            if re.search(pattern, flat):
                bad.append(f"{pattern}: {flat[:100]}")
    assert not bad, f"{page.html}: signature boxes: {bad[:5]}"


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_code_scrolls_sideways(site, page):
    "Code and output blocks keep their lines (`white-space: pre`) and scroll inside the column; the page itself does not."
    facts = site["pages"].get(page.name) or {"wrapped": [], "wide": 0}
    assert not facts["wrapped"], f"{page.html}: blocks that wrap or cannot scroll: {facts['wrapped'][:3]}"
    assert facts["wide"] <= 1, f"{page.html}: the page is {facts['wide']} px wider than the window"


def test_footer_and_home(site):
    "The footer names the copyright holder and the licence; the sidebar starts with Home."
    text = site["pages"]["index"]["text"]
    assert "Copyright" in text and "Apache License" in text, "the footer lacks its copyright or licence"
    assert Path(urlsplit(site["nav"][0]).path).name in ("", "index.html"), "the sidebar does not start with Home"


def test_readme_lists_every_notebook():
    "The README's (index's) table of notebooks names every notebook that becomes a page."
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = set(re.findall(r"^\| `([\w-]+)` \|", readme, re.MULTILINE))
    missing = sorted(p.source.stem for p in PAGES if p.source and p.name != "index" and p.source.stem not in table)
    assert not missing, f"README.md's table of notebooks (nbs/index.ipynb) lacks: {missing}"


def test_conformance_page_has_figures(site):
    facts = site["pages"][siteconf.CONFORMANCE]
    assert facts["tables"] or "was not found" in facts["text"], "the conformance page shows neither figures nor why"


def test_search_finds_a_section(site, browser):
    "Typing a word of the spec into the search box lists pages of the site."
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
    browser.get(site["base"])
    box = browser.find_element(By.CSS_SELECTOR, ".sidebar-search")
    box.send_keys("canonicalize", Keys.ENTER)
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#search-results ul.search li a"))
    found = {Path(urlsplit(a.get_attribute("href")).path).name
             for a in browser.find_elements(By.CSS_SELECTOR, "#search-results ul.search li a")}
    assert found <= {p.html for p in PAGES} | {"genindex.html"}, f"search results outside the site: {found}"
    assert not [e for e in browser.get_log("browser") if e.get("level") == "SEVERE"]


def test_no_missing_files_requested(site, served):
    missing = served.missing()
    assert not missing, f"the browser asked for files the site lacks: {missing}"


def test_screenshots_saved(site):
    shots = sorted(p.name for p in SHOTS.glob("*.png"))
    assert "index.png" in shots and len(shots) >= 2, f"screenshots: {shots}"
