"""The site functions (`weburl_nb.site_keys`): the Public Suffix List's own test cases, agreement
with the package `publicsuffixlist`'s own implementation over the same list, one answer for every
spelling of a host, the canonical URL cut into parts as `parse_url` cuts it, any `str` giving a
value or `None`, and the error that says how to install the list."""
import os
import pickle
import re
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import weburl_nb.site_keys as sk
from weburl_nb.batch import canonicalize_many
from weburl_nb.entry import url_to_canon_url
from weburl_nb.parsing import parse_url
from weburl_nb.site_keys import (
    CC_INDEX_COLUMNS,
    SiteKey,
    SuffixListMissing,
    canonical_host,
    cc_index_columns,
    public_suffix,
    registrable_domain,
    same_site,
    site_key,
    site_parts,
)

publicsuffixlist = pytest.importorskip("publicsuffixlist")
BENCH = Path(os.environ.get("WEBURL_BENCHDATA", Path(__file__).resolve().parents[1] / "../shared/bench"))
_CHECK = re.compile(r"checkPublicSuffix\((null|'[^']*'), (null|'[^']*')\);")


def _psl_cases():
    "The list's own test cases, as the package ships them: (domain, registrable domain)."
    text = (resources.files("publicsuffixlist") / "test_psl.txt").read_text(encoding="utf-8")
    for m in map(_CHECK.match, text.splitlines()):     # a line that starts `//` is left out
        if m is None:
            continue
        domain, expected = (None if v == "null" else v[1:-1] for v in m.groups())
        if domain is not None:
            yield domain, expected


PSL_CASES = list(_psl_cases())


def test_the_lists_own_cases_are_read():
    assert len(PSL_CASES) >= 70


@pytest.mark.parametrize("domain, expected", PSL_CASES)
def test_the_lists_own_cases(domain, expected):
    "Steps 1-7 with both sections, as the list's test file is written (names in ASCII here)."
    got = site_parts(domain.lower()).domain
    assert got == (None if expected is None else sk._ascii_name(expected.lower()))


def _corpus_hosts(limit=None):
    "The canonical hosts of the bench corpora (skipped when the folder is not there)."
    if not (BENCH / "absolute.txt").is_file():
        pytest.skip(f"no bench corpora at {BENCH}")
    lines = (BENCH / "absolute.txt").read_text(encoding="utf-8").split("\n")[:limit]
    hosts = {h for u in lines if (c := url_to_canon_url(u)) and (h := canonical_host(c))}
    return sorted(hosts)


@pytest.mark.parametrize("icann_only", [False, True])
def test_same_answers_as_publicsuffixlists_own_code(icann_only):
    "Over the corpora's hosts, our steps and the package's implementation agree on its list."
    psl = publicsuffixlist.PublicSuffixList(only_icann=icann_only)
    differ = []
    for host in _corpus_hosts():
        parts = site_parts(host, icann_only)
        if parts.why in ("an IP address has no public suffix",
                         "the last label is a number: no top-level domain is"):
            continue                            # our rules before the list's steps
        name = host[:-1] if host.endswith(".") else host
        theirs = psl.privatesuffix(name) if "" not in name.split(".") else None
        if (parts.domain or "").removesuffix("." if host.endswith(".") else "").lower() != (theirs or ""):  # `%2C`
            differ.append((host, parts.domain, theirs))
    assert differ == []


@pytest.mark.parametrize("url", [
    "HTTP://WWW.Bücher.Example.CO.UK:80/", "http://xn--bcher-kva.example.co.uk/",
    "http://www.b%C3%BCcher.example.co.uk/x", "//WWW.BÜCHER.example.co.uk/?q", "http://www.bücher.example.co.uk/",
])
def test_every_spelling_gives_one_answer(url):
    base = "https://example.org/"
    assert registrable_domain(url, base) == "example.co.uk"
    assert public_suffix(url, base) == "co.uk"
    assert same_site(url, "http://example.co.uk/", base, schemeful=False)
    assert registrable_domain(re.sub(r"(?i)\.uk(?=[:/?])", ".uk.", url, count=1), base) == "example.co.uk."    # a final dot stays


@pytest.mark.parametrize("browser", ["this", "chrome", "gecko", "ie"])
def test_canonical_parts_are_parse_urls(browser):
    "`canonical_host` and the columns' split agree with `parse_url` on canonical URLs."
    if not (BENCH / "hrefs.tsv").is_file():
        pytest.skip(f"no bench corpora at {BENCH}")
    pairs = [line.split("\t") for line in (BENCH / "hrefs.tsv").read_text(encoding="utf-8").split("\n")[::7]]
    tries = ["http://u:p@[::1]:81/a?b#c", "foo://h", "foo://h?x", "mailto:a@b", "file:///c:/x", "http://a.b./"]
    for base, href in [p for p in pairs if len(p) == 2] + [(None, t) for t in tries]:
        canon = url_to_canon_url(href, base, browser=browser)
        if canon is None:
            continue
        u = parse_url(canon, browser)
        assert canonical_host(canon) == (u.host or None), canon
        cols = sk.cc_columns_of_canonical(canon, "precise")
        host = sk._ascii_name(u.host).removesuffix(".") if u.host else None     # CC: no final dot
        assert (cols.url_protocol, cols.url_host_name, cols.url_path, cols.url_query) == \
            (u.scheme, host, u.path, u.query), canon
        assert cols.url_port == (int(u.port) if u.port else None), canon


URLISH = st.text(alphabet=st.sampled_from(list("hHtTpP:/\\?#.@[]%wW0123456789aAfFxX-:ü一\u3002 ")), max_size=50)
ANY = st.one_of(URLISH, st.text(max_size=30), st.builds(lambda s: "http://" + s, URLISH))


@settings(max_examples=300, deadline=None)
@given(ANY, st.one_of(st.none(), st.just("http://www.example.co.uk/a"), URLISH), st.booleans())
def test_any_str_gives_a_value_or_none(url, base, icann_only):
    for value in (registrable_domain(url, base, icann_only=icann_only),
                  public_suffix(url, base, icann_only=icann_only), site_key(url, base, icann_only=icann_only)):
        assert value is None or type(value) is str
    assert same_site(url, url, base, icann_only=icann_only) in (True, False)
    cols = cc_index_columns(url, base)
    assert cols is None or len(cols) == len(CC_INDEX_COLUMNS)


@pytest.mark.incompatible_with_mypyc("mypyc checks an argument's type where the call enters the compiled function, "
    "with its own message (README: The compiled build)")
@pytest.mark.parametrize("call, words", [
    (lambda: registrable_domain(None), "registrable_domain() argument url"),
    (lambda: public_suffix(b"http://a/"), "public_suffix() argument url"),
    (lambda: registrable_domain("http://a/", icann_only="yes"), "icann_only must be True or False"),
    (lambda: same_site("http://a/", 3), "same_site() argument url"),
    (lambda: SiteKey(icann_only=None), "icann_only must be True or False"),
    (lambda: cc_index_columns("http://a/", surt_style=None), "surt_style must be"),
    (lambda: site_key(["http://a/"]), "site_key() argument url"),
])
def test_wrong_types_are_type_errors(call, words):
    with pytest.raises(TypeError, match=re.escape(words)):
        call()


def test_a_long_host_costs_its_last_labels():
    "The search stops at the first name no rule ends in: 100,000 labels are read as a few."
    host = "a." * 100_000 + "example.co.uk"
    assert registrable_domain(f"http://{host}/") == "example.co.uk"
    assert sk.suffix_start(host, sk.suffix_list().icann) == len(host) - len("co.uk")


def test_site_key_in_canonicalize_many_and_pickled():
    key = pickle.loads(pickle.dumps(SiteKey()))
    urls = ["http://a.blogspot.com/x", "http://127.0.0.1/", "mailto:x@y", "http://www.example.com/"]
    assert canonicalize_many(urls, key=key) == ["a.blogspot.com", "127.0.0.1", None, "example.com"]


def test_without_the_package_the_error_says_how_to_install(monkeypatch):
    real = sk.importlib.import_module

    def missing(name, *args):
        if name == "publicsuffixlist":
            raise ModuleNotFoundError(f"No module named {name!r}")
        return real(name, *args)
    monkeypatch.setattr(sk.importlib, "import_module", missing)
    sk.clear_site_caches()
    try:
        with pytest.raises(SuffixListMissing, match=re.escape("pip install 'weburl-nb[site]'")) as e:
            registrable_domain("http://www.example.com/")
        assert isinstance(e.value, ModuleNotFoundError)
        assert "not installed" in sk.psl_version()
    finally:
        monkeypatch.undo()
        sk.clear_site_caches()
    assert registrable_domain("http://www.example.com/") == "example.com"
