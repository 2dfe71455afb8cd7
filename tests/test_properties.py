"""Property tests (Hypothesis): the promises of `invariants.check` (no exception, shortcut route =
steps route, every answer a fixed point) for arbitrary strings, URL-shaped strings, relative links,
bases and charsets. The default profile `quick` runs a few seconds; for a long run:

    HYPOTHESIS_PROFILE=long python -m pytest -q tests/test_properties.py     # 20,000 examples each
"""
from hypothesis import given, strategies as st

from invariants import CHARSETS, Broken, check, check_chain, check_profiles, host_not_kept
from weburl_nb.entry import url_to_canon_url, url_to_canon_url_steps
from weburl_nb.host import PROFILES

# any code point, lone surrogates and noncharacters included
any_text = st.text(st.characters(blacklist_categories=()), max_size=40)
SCHEMES = ['http://', 'HTTPS://', 'ftp://', 'file:', 'file:///', 'file://', 'mailto:', 'javascript:', 'data:',
           'about:', 'x:', 'c:', 'C|', '//', '\\\\', '', 'ws:', 'http:', 'gopher:/']
ATOMS = ['a', 'B', '0', '9', '.', '..', '/', '\\', '?', '#', '@', ':', '[', ']', '%', '%2', '%2E', '%2e', '%2F',
         '%5C', '%41', '%7', '%7e', '%25', '%00', '%3A', '%7C', 'localhost', 'xn--', '0x7f', '1.2.3.4', '::1',
         'ü', '一', 'ß', '\u0301', '\u3002', '\uff0e', '\ufffd', '\ufdd0', '\x00', '\t', ' ', '\x0b', '\U0001F600']
piece = st.one_of(st.sampled_from(ATOMS), st.text(st.characters(blacklist_categories=()), max_size=2))
tail = st.lists(piece, max_size=16).map(''.join)
url_text = st.tuples(st.sampled_from(SCHEMES), tail).map(''.join)
link_text = st.one_of(tail, url_text)
base_text = st.one_of(st.none(), url_text, any_text)
charsets = st.sampled_from(CHARSETS)
# absolute URLs with an authority: the repair tier's shape and its edges (three slashes, `file`, opaque)
AUTHORITY = ['http', 'HTTP', 'Https', 'ws', 'ftp', 'x-y', 'git+ssh', 'file', 'FiLe', 'mailto', 'MailTo', 'a']
authority_text = st.tuples(st.sampled_from(['', ' ', '\t', '\x0c']), st.sampled_from(AUTHORITY),
                           st.sampled_from(['://', ':\\\\', ':/\\', ':///', '://\\']),
                           st.sampled_from(['', 'u@', 'u:@', ':@', 'u:p@', '%41@']),
                           st.sampled_from(['Ex.COM', 'b\u00fccher.de', '0x7f.1', '[::1]', '[0:0::FFFF:1.2.3.4]',
                                            'a%2eb', 'a b', '', 'h\tx', 'xn--4gq.jp', '1.2.3']),
                           st.sampled_from(['', ':80', ':443', ':0', ':', ':99999', ':8o']), tail).map(''.join)


@given(any_text, st.one_of(st.none(), any_text), charsets)
def test_any_strings(url, base, charset):
    check(url, base, charset)


@given(url_text, charsets)
def test_urls_on_their_own(url, charset):
    check(url, None, charset)


@given(link_text, base_text, charsets)
def test_links_against_bases(link, base, charset):
    check(link, base, charset)


class Sub(str):
    __hash__ = None


@given(link_text, st.one_of(st.none(), url_text), charsets)
def test_str_subclasses_give_plain_str(link, base, charset):
    for f in (url_to_canon_url, url_to_canon_url_steps):
        out = f(Sub(link), None if base is None else Sub(base), None if charset is None else Sub(charset))
        assert out is None or type(out) is str
        assert out == f(link, base, charset)


@given(authority_text, st.one_of(st.none(), url_text), charsets)
def test_absolute_urls_with_an_authority(url, base, charset):
    check(url, base, charset)


# `file:` URLs, drive paths and UNC paths: `file_shape`'s shape (inside `parsed_once`) and its edges
FILE_HEADS = ['file:///', 'FILE://', 'file://localhost/', 'File://LOCALHOST', 'file://srv/', 'file://Srv.x/',
              'file://0x7f.1/', 'file:////', 'file:/', 'file:', 'c:\\', 'Z:/', 'c:', 'C|\\', '\\\\srv\\',
              '\\\\LocalHost/', '\\\\\\srv\\', '\\\\1.2.3\\', ' \\\\a\t\\', 'file:D:', 'file:/c|', 'file:\\C:']
FILE_ATOMS = ['a', 'B', '.', '..', '/', '\\', 'C:', 'd|', 'C|/', 'c:/', '%41', '%2e', '%7C', '|', '//', 'é',
              ' ', '?', '#', '?q=1', '#f', '.git', 'localhost', '~x', ':', '\t',
              '%E4', '%25', '%zz', '%', '%2F', '%5c', '%3A', '%2', '\u6771', '\U0001f600', '\ufdd0', '\ud800', '%61', '%%41', '%4%', '%2E%2e']
file_text = st.tuples(st.sampled_from(FILE_HEADS),
                      st.lists(st.sampled_from(FILE_ATOMS), max_size=10).map(''.join)).map(''.join)


@given(file_text, charsets)
def test_file_urls_and_windows_paths(url, charset):
    check(url, None, charset)


@given(link_text, base_text, st.booleans())
def test_site_functions_on_any_string(link, base, private):
    "The site functions: `str` or `None`, never an exception, one answer for a URL and its canonical URL."
    import pytest
    pytest.importorskip("publicsuffixlist")
    from weburl_nb.site_keys import cc_index_columns, public_suffix, registrable_domain, same_site, site_key
    canon = url_to_canon_url(link, base)
    domain, key = registrable_domain(link, base, icann_only=private), site_key(link, base, icann_only=private)
    suffix = public_suffix(link, base, icann_only=private)
    assert all(v is None or type(v) is str for v in (domain, key, suffix))
    if canon is None:
        assert (domain, key, suffix, cc_index_columns(link, base)) == (None, None, None, None)
    else:
        assert (registrable_domain(canon, icann_only=private), site_key(canon, icann_only=private)) == (domain, key)
        assert same_site(link, canon, base, icann_only=private) == (key is not None)
        assert cc_index_columns(link, base, surt_style="precise") == cc_index_columns(canon, surt_style="precise")


# messy bases: hierarchical and `file:` URLs whose paths hold backslashes, dot-segments and escapes
# of slashes and dots, which steps 4-6 of resolution take over as they are
MESSY_BASE_HEADS = ['http://h/', 'HTTP://h', 'https://u@h:8/', 'x-y://a/', 'file:', 'file:///', 'file://h/',
                    'file:///c:/', 'c:\\', '\\\\srv\\', 'mailto:', 'javascript:', 'ftp://f/']
MESSY_ATOMS = ['a', 'B', '.', '..', '/', '\\', 'a\\b', '\\..', '%2E', '%2e', '%2F', '%2f', '%5C', '%5c', '%2', '%7', '%41', '%45',
               '%46', '%', ';', ' ', 'é', '?', '#', 'c:', 'C|', '//']
messy_path = st.lists(st.sampled_from(MESSY_ATOMS), max_size=10).map(''.join)
messy_base = st.tuples(st.sampled_from(MESSY_BASE_HEADS), messy_path).map(''.join)
messy_link = st.one_of(st.sampled_from(['', '?', '?q', '#', '#f', '?q#f', 'http:', 'file:', 'http:?q', 'file:#f']),
                       st.tuples(st.sampled_from(['', '?', '#', './', '../', '/', '\\', '//h/', 'http:', 'file:']),
                                 messy_path).map(''.join), link_text)


@given(messy_link, st.one_of(messy_base, st.none(), url_text), st.sampled_from([None, 'shift_jis', 'latin1']),
       st.sampled_from(sorted(PROFILES)))
def test_the_public_chain_gives_the_pipelines_answer(link, base, charset, browser):
    "parse_url, resolve_url, canonicalize_parsed_url, serialize_parsed_url in turn: the answer of url_to_canon_url."
    check_chain(link, base, charset, browser)


def test_the_public_chain_with_a_base_path_taken_over():
    "Steps 4 and 5 take the base's path as it is: the chain accepts what they give."
    for link, want in [('?q', 'http://h/a%5Cb?q'), ('#f', 'http://h/a%5Cb#f')]:
        for browser in sorted(PROFILES):
            assert check_chain(link, 'http://h/a\\b', None, browser) == want


# hosts that gecko's and ie's records keep with a character that ends a host, and that chrome's record
# decodes to Latin-1: the answers the exception of `host_not_kept` covers
PROFILE_HOSTS = ['a\uff1ab.test', 'foo:', 'foo\uff1a80', 'ab[cd:012:', 'a\uff03b', '\ufe6aC1.com', '\u2075',
                 'a\u02d8b', 'Ex.COM', 'b\u00fccher.de', '0x7f.1', '[::1]', 'a%41b', 'a b', '%EF%BC%85C1']
profile_text = st.tuples(st.sampled_from(['http://', 'https://', 'x://', 'file://', '//']),
                         st.sampled_from(PROFILE_HOSTS), st.sampled_from(['', ':', ':80', ':8o']),
                         tail).map(''.join)


@given(st.one_of(profile_text, link_text), st.one_of(st.none(), url_text, messy_base), charsets)
def test_every_profile_gives_fixed_points_or_the_stated_exception(url, base, charset):
    "THIS, Chrome, Gecko and IE: each answer canonicalized again in its profile is itself, or its host is not kept."
    check_profiles(url, base, charset)


def test_the_exception_covers_the_browsers_records_and_nothing_else():
    "Records that are no fixed point fall under the rule; THIS never does, and a plain URL never does."
    import pytest
    for url, browser in [('http://a\uff1ab.test/', 'gecko'), ('http://\ufe6aC1.com/', 'chrome'),
                         ('http://\u2075/', 'ie'), ('http://\u2075/', 'gecko')]:
        answer = url_to_canon_url(url, None, None, browser)
        assert url_to_canon_url(answer, None, None, browser) != answer
        assert host_not_kept(url, None, None, browser) is not None
    for browser in sorted(PROFILES):
        assert host_not_kept('http://Ex.COM:80/a', None, None, browser) is None
    assert host_not_kept('http://a\uff1ab.test/', None, None, 'this') is None     # THIS refuses the host
    with pytest.raises(Broken):                 # the check is able to fail: a wrong fixed point is caught
        import invariants
        saved = invariants.host_not_kept
        invariants.host_not_kept = lambda *a: None
        try:
            check_profiles('http://a\uff1ab.test/')
        finally:
            invariants.host_not_kept = saved
