"""The site read as a standard: anchored steps, defined and linked terms, spec pages that open with prose,
a phone-sized window, the site opened from disk, and the screenshots of the host, explain and try pages.

The built HTML is read directly where that is enough (anchors, links); the browser is used for what
needs layout (widths) or scripts (try.html from disk).
"""
from __future__ import annotations

import json
import re
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from test_site import DOCS, PAGES, ROOT, SHOTS, _anchors, browser, served, server  # noqa: F401 (fixtures)

sys.path.insert(0, str(ROOT / "tools" / "site"))
import terms  # noqa: E402

from weburl_nb.explain import explain  # noqa: E402
from weburl_nb.trace import REASONS, STEPS, step_anchor  # noqa: E402

SPEC = ["charclasses", "parsing", "resolution", "ipaddr", "nameprep", "host", "encodings",
        "canonicalization", "serialization"]
MIN_TERM_LINKS = 5


def _exists(href: str) -> bool:
    page, _, frag = href.partition("#")
    path = DOCS / page
    return path.is_file() and (not frag or frag in _anchors(path))


def test_canonicalizehost_and_canonicalization_steps_anchored():
    "Every step of CanonicalizeHost (1-31) and of canonicalization (C1-C11) has its anchor."
    host, canon = _anchors(DOCS / "host.html"), _anchors(DOCS / "canonicalization.html")
    missing = [f"host.html#step-{n}" for n in range(1, 32) if f"step-{n}" not in host]
    missing += [f"canonicalization.html#c{n}" for n in range(1, 12) if f"c{n}" not in canon]
    assert not missing, f"steps without an anchor: {missing}"


@pytest.mark.parametrize("page,first,last", [("charclasses", 1, 4), ("parsing", 1, 7), ("resolution", 1, 10),
                                             ("nameprep", 1, 12), ("serialization", 1, 10)])
def test_other_sections_steps_anchored(page, first, last):
    ids = _anchors(DOCS / f"{page}.html")
    missing = [n for n in range(first, last + 1) if f"step-{n}" not in ids]
    assert not missing, f"{page}.html: steps without an anchor: {missing}"


def test_every_traced_step_and_reason_has_its_anchor():
    "trace.STEPS and REASONS name steps; step_anchor's address for each exists on the site."
    labels = set(STEPS) | {(r.section, r.step) for r in REASONS.values()}
    broken = sorted(f"{s} {n}: {step_anchor(s, n)}" for s, n in labels if not _exists(step_anchor(s, n)))
    assert not broken, f"steps whose anchor the site lacks: {broken}"


class _Tables(HTMLParser):
    "The tables of a page, each a list of rows, each a list of its cells' text."

    def __init__(self):
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables and self.tables[-1]:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def test_reasons_table_has_a_row_per_registered_reason():
    "trace.html's table of reasons is rendered from the package's registry: one row per reason."
    p = _Tables()
    p.feed((DOCS / "trace.html").read_text(encoding="utf-8"))
    table = next((t for t in p.tables if t and t[0][:1] == ["reason"]), None)
    assert table is not None, "trace.html has no table headed `reason`"
    keys = [row[0] for row in table[1:] if row]
    assert len(keys) >= len(REASONS), f"{len(keys)} rows for {len(REASONS)} registered reasons"
    assert set(REASONS) <= set(keys), f"reasons without a row: {sorted(set(REASONS) - set(keys))}"


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        self.hrefs += [v for k, v in attrs if tag == "a" and k == "href"]


def test_explain_links_each_failing_step():
    "explain()'s HTML links every step, and each failing step, of each reason's example to an anchor that exists."
    broken, failing = [], 0
    for key, r in REASONS.items():
        url, _, base = r.example.partition(" ")
        e = explain(url, base or None, browser=r.browser)
        p = _Links()
        p.feed(e._repr_html_())
        anchored = [h for h in p.hrefs if "#" in h]
        assert len(anchored) == len(e.steps), f"{key}: not every step links to its anchor"
        broken += [f"{key}: {h}" for h in anchored if not _exists(h)]
        failing += sum(1 for s in e.steps if s.reason)
        for s in e.steps:
            if s.reason:
                assert step_anchor(s.section, s.number) in anchored
    assert failing >= len(REASONS) - 2  # a GECKO host may fall back and keep its URL valid
    assert not broken, f"explain() links to anchors that do not exist: {broken}"


def _term_refs() -> list[tuple[str, str]]:
    "Hand-written `[words](#term-slug)` references in the notebooks' markdown: (notebook, slug)."
    refs = []
    for nb in sorted((ROOT / "nbs").glob("*.ipynb")):
        for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown":
                refs += [(nb.name, m) for m in re.findall(r"\]\(#term-([\w-]+)\)", "".join(cell["source"]))]
    return refs


def test_term_references_name_registered_terms():
    unknown = [f"{nb}: #term-{slug}" for nb, slug in _term_refs() if slug not in terms.BY_SLUG]
    assert not unknown, f"references to terms tools/site/terms.py does not define: {unknown}"


def test_unknown_term_reference_stops_the_build():
    with pytest.raises(terms.UnknownTerm):
        terms.Linker("host").cell("See [the thing](#term-no-such-term).")


@pytest.mark.parametrize("term", terms.TERMS, ids=[t.slug for t in terms.TERMS])
def test_term_defined_once_on_its_page(term):
    "Each term has its definition on its own page, and on no other."
    where = [p.name for p in PAGES if (DOCS / p.html).is_file() and f"term-{term.slug}" in _anchors(DOCS / p.html)]
    assert where == [term.page], f"term-{term.slug} is defined on {where}, expected {term.page}"


def _term_links(page: str) -> list[str]:
    p = _Links()
    p.feed((DOCS / f"{page}.html").read_text(encoding="utf-8"))
    return [h for h in p.hrefs if "#term-" in h]


@pytest.mark.parametrize("page", SPEC)
def test_spec_page_links_terms_of_other_spec_pages(page):
    links = _term_links(page)
    other = [h for h in links if h.split("#")[0] and h.split("#")[0] != f"{page}.html"
             and h.split("#")[0][:-5] in SPEC]
    assert len(other) >= MIN_TERM_LINKS, f"{page}.html links {len(other)} times to terms of other spec pages"
    broken = [h for h in links if not _exists(h if h.split("#")[0] else f"{page}.html{h}")]
    assert not broken, f"{page}.html: term links to nowhere: {broken[:5]}"


class _Opening(HTMLParser):
    "The first block after the page's h1: its tag and class."
    def __init__(self):
        super().__init__()
        self.after_h1, self.first = False, None

    def handle_starttag(self, tag, attrs):
        if tag == "h1":
            self.after_h1 = True
        elif self.after_h1 and self.first is None and tag in ("p", "div", "blockquote", "ul", "ol", "table", "pre"):
            cls = dict(attrs).get("class") or ""
            if tag == "div" and not re.search(r"\bcell\b|highlight|output", cls):
                return
            self.first = (tag, cls)


@pytest.mark.parametrize("page", SPEC)
def test_spec_page_opens_with_prose(page):
    p = _Opening()
    p.feed((DOCS / f"{page}.html").read_text(encoding="utf-8"))
    assert p.first and p.first[0] in ("p", "blockquote"), f"{page}.html opens with {p.first}, not prose"


PHONE = 390


@pytest.fixture(scope="module")
def phone(browser, server):  # noqa: F811
    browser.set_window_size(PHONE, 900)
    yield browser
    browser.set_window_size(1280, 1000)


@pytest.mark.parametrize("page", SPEC + ["explain", "api", "at_scale", "performance", "browsers"])
def test_phone_width_page_does_not_scroll_sideways(phone, server, page):  # noqa: F811
    phone.get(server + f"{page}.html")
    wide = phone.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 1, f"{page}.html is {wide} px wider than a {PHONE} px window"


def test_try_page_at_phone_width(phone, server):  # noqa: F811
    "The viewer's values keep whole lines on a phone: no column squeezed to a few characters."
    from selenium.webdriver.support.ui import WebDriverWait
    phone.get(server + "try.html?url=http%3A%2F%2Fa%252fb.test%2F")
    WebDriverWait(phone, 120).until(lambda d: d.execute_script("return document.body.dataset.state"))
    facts = phone.execute_script("""
        const cells = Array.from(document.querySelectorAll('#trace td.values'));
        return {state: document.body.dataset.state, wide: document.documentElement.scrollWidth - window.innerWidth,
                narrow: cells.filter(c => c.getBoundingClientRect().width < 100).map(c => c.textContent),
                nav: document.querySelectorAll('.sidebar-tree a.reference').length};""")
    assert facts["state"] == "done"
    assert facts["wide"] <= 1, f"try.html is {facts['wide']} px wider than the window"
    assert facts["nav"] > 10, "try.html lacks the site's navigation"
    assert not facts["narrow"], f"values squeezed into a narrow column: {facts['narrow'][:3]}"


def test_from_disk(browser):  # noqa: F811
    "Opened from disk, a page reads, and try.html says in one sentence how to open it (no raw error)."
    from selenium.webdriver.support.ui import WebDriverWait
    browser.get((DOCS / "host.html").as_uri())
    assert browser.execute_script("return document.querySelectorAll('.step-target').length") >= 31
    browser.get((DOCS / "try.html").as_uri())
    WebDriverWait(browser, 30).until(lambda d: d.execute_script("return document.body.dataset.state"))
    state, status = browser.execute_script(
        "return [document.body.dataset.state, document.getElementById('status').textContent]")
    assert state == "file", status
    assert "make serve" in status and "Error" not in status and status.count(". ") == 0, status


SHOT_PAGES = ("host", "explain", "try")


@pytest.mark.parametrize("width", (1400, PHONE))
def test_screenshots(browser, server, width):  # noqa: F811
    "Screenshots of the host, explain and try pages at a desktop and a phone width: <page>-<width>.png."
    from selenium.webdriver.support.ui import WebDriverWait
    SHOTS.mkdir(exist_ok=True)
    try:
        for page in SHOT_PAGES:
            browser.set_window_size(width, 2400 if page == "try" else 1000)  # try: down to the steps
            query = {"try": "?url=http%3A%2F%2Fa%252fb.test%2F", "host": "#step-28"}.get(page, "")
            browser.get(server + f"{page}.html{query}")
            if page == "try":
                WebDriverWait(browser, 120).until(lambda d: d.execute_script("return document.body.dataset.state"))
            elif page == "host":   # the step's anchor at the top of the window, its link shown
                time.sleep(1.5)        # the page's layout settles (fonts, outputs) before measuring
                browser.execute_script("const e = document.getElementById('step-28');"
                                       "window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 80);"
                                       "document.querySelector('a[href=\"#step-28\"]').style.opacity = 1")
                time.sleep(0.5)
            browser.save_screenshot(str(SHOTS / f"{page}-{width}.png"))
            assert (SHOTS / f"{page}-{width}.png").stat().st_size > 10_000
    finally:
        browser.set_window_size(1280, 1000)


_CELL = re.compile(r'<div class="cell(?: ([^"]*))?"')


def _cells(page: str) -> list[tuple[str, str]]:
    "The code cells of a built page: (their class list, their text without tags)."
    html = (DOCS / f"{page}.html").read_text(encoding="utf-8")
    starts = list(_CELL.finditer(html))
    ends = [m.start() for m in starts[1:]] + [len(html)]
    return [(m.group(1) or "", re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html[m.start():end])))
            for m, end in zip(starts, ends)]


def test_spec_page_shows_helpers_as_cards_and_steps_as_source():
    "resolution.html: `merge_path` (a helper) is a card over folded source; `resolve_relative_url` shows."
    cells = _cells("resolution")
    helper = [cls for cls, text in cells if "def merge_path(" in text]
    assert helper and all("tag_hide-input" in cls for cls in helper), helper
    assert any("tag_showdoc" in cls and "merge_path" in text for cls, text in cells)
    step = [cls for cls, text in cells if "def resolve_relative_url(" in text]
    assert step and not any("tag_hide-input" in cls for cls in step), step
