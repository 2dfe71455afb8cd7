"""Common Crawl's columns against Common Crawl's own rules (Sites, "Common Crawl's index columns").

`cc_reference` below computes the columns of a fetched URL as Common Crawl's converter does, written
out literally from the sources read (cc-index-table: `CCIndex2Table.convertCdxLine`, `CommonCrawlURL`,
`HostName`; crawler-commons: `EffectiveTldFinder.findEffectiveTLD` and `getAssignedDomain`; the URL
cut as `java.net.URL` cuts an http(s) URL; `url_surtkey` as the `surt` package writes it, the key of
the CDX lines it converts). `test_every_column_on_the_absolute_urls` compares every column of
`cc_index_columns(url)` with it on the bench's absolute URLs and asserts that every difference is of
a class the page states. Run with `-s` to see the table.
"""
import encodings.idna
import os
import re
from collections import Counter
from pathlib import Path
from urllib.parse import unquote_plus

import pytest

pytest.importorskip("publicsuffixlist")
from importlib import resources  # noqa: E402

from weburl_nb import url_to_canon_url  # noqa: E402
from weburl_nb.site_keys import CC_INDEX_COLUMNS, cc_index_columns  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BENCH = Path(os.environ.get("WEBURL_BENCHDATA") or ROOT.parent / "shared" / "bench")
DEFAULT_PORT = {"http": 80, "https": 443}


def _ascii(label: str) -> str:
    "Java's `IDN.toASCII` of one label (IDNA2003, as Python's `idna` codec), lower case."
    return label.lower() if label.isascii() else encodings.idna.ToASCII(label).decode("ascii")


def _entries() -> dict[str, tuple[bool, bool, bool]]:
    "crawler-commons' map: each rule's name -> (exception, wildcard, private), the file read as it does."
    text = (resources.files("publicsuffixlist") / "public_suffix_list.dat").read_text(encoding="utf-8")
    entries, private = {}, False
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.startswith("//"):
            private = True if "===BEGIN PRIVATE DOMAINS===" in line else False if "===END PRIVATE DOMAINS===" in line else private
            continue
        exception, wild, name = line.startswith("!"), line.startswith("*."), line
        name = name[1:] if exception else name[2:] if wild else name
        entries[".".join(_ascii(p) for p in name.split("."))] = (exception, wild, private)
    return entries


ENTRIES = _entries()


def find_effective_tld(host: str, exclude_private: bool):
    "`findEffectiveTLD`: `(name, offset, exception)` or `None`, the longest suffix first."
    offsets = [0] + [i + 1 for i, c in enumerate(host) if c == "."]
    for offset in offsets:                               # longest first
        entry = ENTRIES.get(host[offset:])
        if entry is None:
            continue
        exception, wild, private = entry
        if exclude_private and private:
            continue
        if offset == 0 or exception or not wild:
            return host[offset:], offset, exception
        w = host.rfind(".", 0, offset - 1)               # lastIndexOf(DOT, offset - 2)
        return (host if w == -1 else host[w + 1:]), w + 1, False
    return None


def get_assigned_domain(host: str, exclude_private: bool):
    "`getAssignedDomain(host, strict=true, excludePrivate)`."
    res = find_effective_tld(host, exclude_private)
    if res is None:
        return None
    name, offset, exception = res
    if exception:
        return name
    if offset == 0:
        return None
    etld_start = offset - 1
    if host[etld_start] != ".":
        return None
    start = 0
    while (pos := host.find(".", start)) != -1:
        if pos == start:
            return None
        if pos >= etld_start:
            break
        start = pos + 1
    segment = host[start:etld_start]
    if len(segment) > 63:
        return None
    return host[start:]


_IPV4 = re.compile(r"(?:(?:25[0-5]|(?:2[0-4]|1{0,1}[0-9]){0,1}[0-9])\.){3,3}(?:25[0-5]|(?:2[0-4]|1{0,1}[0-9]){0,1}[0-9])")
_IPV4_VARIANT = re.compile(r"(?:(?:25[0-5]|(?:2[0-4]|1{0,1}[0-9]){0,1}[0-9])\.){0,3}(?:[0-9]+)")
_IPV6 = re.compile(r"\[[0-9a-fA-F:]+\]")


def host_row(host: str) -> tuple:
    "`HostName(url).asRow()`: name, five labels, the four suffix columns, reversed."
    host = host.lower()
    if _IPV4.fullmatch(host) or _IPV4_VARIANT.fullmatch(host) or _IPV6.fullmatch(host):
        return (host, *(None,) * 10)             # (a variant decimal form: Java canonicalizes it)
    if "%" in host:
        host = unquote_plus(host)                 # URLDecoder.decode
    if not host.isascii():
        try:
            host = ".".join(_ascii(p) for p in host.split("."))
        except UnicodeError:
            return (None, *(None,) * 10)
    if host.endswith("."):
        host = host[:-1]
    rev = host.split(".")
    while len(rev) > 1 and rev[-1] == "":
        rev.pop()
    if rev == ["", ""]:
        rev = []
    rev = rev[::-1]
    labels = [*rev, None, None, None, None, None][:5]
    psuf = pdom = rsuf = rdom = None
    if (p := find_effective_tld(host, False)) is not None:
        psuf, pdom = p[0], get_assigned_domain(host, False)
        if "." not in psuf:
            rsuf, rdom = psuf, pdom
        elif (q := find_effective_tld(host, True)) is not None:
            rsuf = q[0]
            rdom = pdom if rsuf == psuf else get_assigned_domain(host, True)
    return (host, *labels, rsuf, rdom, psuf, pdom, ".".join(rev))


_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):(.*)", re.S)


def cc_reference(url: str, surtkey: str):
    "Common Crawl's columns of the fetched http(s) `url`; `None` where `java.net.URL` refuses it."
    m = _URL.match(url)
    if m is None or m[1].lower() not in DEFAULT_PORT or not m[2].startswith("//"):
        return None
    rest = m[2].partition("#")[0]
    end = min([i for i in (rest.find("/", 2), rest.find("?", 2)) if i != -1], default=len(rest))
    authority, rest = rest[2:end], rest[end:]
    path, q, query = rest.partition("?")
    hostport = authority.rpartition("@")[2]
    if hostport.startswith("["):
        close = hostport.find("]")
        host, port = hostport[:close + 1], hostport[close + 2:] if hostport[close + 1:close + 2] == ":" else ""
    else:
        host, _, port = hostport.partition(":")
    if port and not port.isdigit():
        return None                              # MalformedURLException
    fetched = url.partition("#")[0]              # a fetched URL has no fragment
    return (surtkey, fetched, *host_row(host), m[1].lower(), int(port) if port else None, path,
            query if q else None)


def difference_class(column: str, url: str, ours, theirs, host_differs: bool) -> str:
    "The stated class of a difference in `column`, or 'other'."
    if column == "url":
        return "url: the canonical URL, not the URL as fetched"
    if column == "url_port" and ours is None and theirs == DEFAULT_PORT.get(url.split(":")[0].lower()):
        return "url_port: an explicit default port, kept by Common Crawl"
    if column == "url_path":
        return ("url_path: '' for an empty path in Common Crawl" if theirs == "" and ours == "/"
                else "url_path: the raw path in Common Crawl")
    if column == "url_query":
        return "url_query: the raw query in Common Crawl"
    if column == "url_surtkey":
        return "url_surtkey: IA's parser reads the URL otherwise (Keys: agreement with surt)"
    if column.startswith("url_host") and host_differs:
        return ("host: a character the spec escapes in a host and Java keeps (`,` `$` `=` `*`, "
                "spaces), or an empty host")
    return "other"


def test_the_reference_reads_the_pages_examples():
    assert host_row("www.city.kawasaki.jp")[6:10] == ("city.kawasaki.jp",) * 4
    assert host_row("kawasaki.jp")[6:10] == ("kawasaki.jp", None, "kawasaki.jp", None)
    assert host_row("example.invalidtld")[6:10] == (None,) * 4
    assert host_row("x.github.io")[6:10] == ("io", "github.io", "github.io", "x.github.io")


def test_every_column_on_the_absolute_urls():
    surt = pytest.importorskip("surt", reason="the `test` extra: url_surtkey as the CDX lines have it")
    if not (BENCH / "absolute.txt").is_file():
        pytest.skip(f"the bench corpora are not at {BENCH} (WEBURL_BENCHDATA)")
    urls = [u for u in (BENCH / "absolute.txt").read_text(encoding="utf-8").split("\n") if u]
    rows = same = 0
    classes, examples = Counter(), {}
    for url in urls:
        try:
            key = surt.surt(url)
        except Exception:
            key = None
        theirs = cc_reference(url, key)
        ours = cc_index_columns(url)
        if theirs is None or ours is None:
            classes["no row: not an http(s) URL Java reads, or no canonical URL"] += 1
            continue
        rows += 1
        host_differs = ours.url_host_name != theirs[2]
        differ = [(c, o, t) for c, o, t in zip(CC_INDEX_COLUMNS, ours, theirs) if o != t]
        same += not differ
        for column, o, t in differ:
            cls = difference_class(column, url, o, t, host_differs)
            classes[cls] += 1
            examples.setdefault(cls, (url, column, o, t))
    print(f"\nCommon Crawl's columns, absolute.txt: {rows:,} rows, {same:,} identical in every column")
    for cls, n in classes.most_common():
        print(f"  {n:>7,}  {cls}\n           e.g. {examples.get(cls)!r}"[:400])
    assert rows > 40_000
    assert classes["other"] == 0, examples.get("other")
