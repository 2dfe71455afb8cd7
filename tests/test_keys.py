"""The keys beyond the spec (`surt(..., style='ia')`, `url_key`): any `str` gives a key or
`None`, never an exception; bad options are `ValueError`s naming the choices, wrong types
`TypeError`s; the steps run in linear time on long hostile input."""
import pickle

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from weburl_nb.keys import UrlKey, strip_path_session_id, strip_query_session_ids, surt, url_key
from weburl_nb.keys import unescape_then_escape

URLISH = st.text(alphabet=st.sampled_from(list("hHtTpPsS:/\\?#&=%.@[]wW0123456789aAfFxX-_ ~\t\u00e9\u3042")),
                 max_size=60)
ANY = st.one_of(URLISH, st.text(max_size=40), st.builds(lambda s: "http://www." + s, URLISH))
EVERYTHING = UrlKey(sort_query=True, drop_params="tracking", strip_www=True, lowercase=True,
                    strip_session_ids=True, strip_trailing_slash=True, drop_empty_query=True,
                    drop_user_info=True, ia=True, drop_fragment=False)


@settings(max_examples=400, deadline=None)
@given(ANY, st.one_of(st.none(), st.just("http://www.example.com/a/b?x=1"), URLISH))
def test_any_str_gives_a_key_or_none(url, base):
    for key in (surt(url, base, style="ia"), surt(url, base, style="ia", with_scheme=True),
                url_key(url, base), EVERYTHING(url, base), url_key(url, base, keep_params=["a"])):
        assert key is None or isinstance(key, str)


@settings(max_examples=200, deadline=None)
@given(ANY)
@example('0://WWW.0.0')      # `www.` before what reads as an address (`0.0` is 0.0.0.0)
def test_keys_are_fixed_points_of_their_own_steps(url):
    "Keying a key again changes nothing (the dedup key is itself a canonical URL)."
    key = url_key(url, sort_query=True, drop_params="tracking", strip_www=True)
    if key is not None:
        assert url_key(key, sort_query=True, drop_params="tracking", strip_www=True) == key


_TYPED = pytest.mark.incompatible_with_mypyc("mypyc checks an argument's type where the call enters the compiled function, "
    "with its own message (README: The compiled build)")


@pytest.mark.parametrize("call, error, words", [
    (lambda: surt("http://a/", style="wayback"), ValueError, "'precise', 'ia'"),
    (lambda: url_key("http://a/", drop_params="ads"), ValueError, "'tracking'"),
    (lambda: url_key("http://a/", keep_params="x"), ValueError, "'tracking'"),
    pytest.param(lambda: surt("http://a/", style=1), TypeError, "style must be str", marks=_TYPED),
    pytest.param(lambda: url_key("http://a/", sort_query=None), TypeError, "sort_query must be True or False", marks=_TYPED),
    (lambda: url_key("http://a/", drop_params=5), TypeError, "drop_params must be"),
    pytest.param(lambda: url_key(None), TypeError, "url_key() argument url must be str", marks=_TYPED),
    (lambda: url_key("http://a/", colour=True), TypeError, "colour"),
])
def test_bad_options(call, error, words):
    with pytest.raises(error) as e:
        call()
    assert words in str(e.value)


def test_long_hostile_input_is_linear():
    "Nested escapes, many session-shaped segments: one pass each (no time limit, just size)."
    n = 200_000
    assert unescape_then_escape("%25" * n + "41") == "%25" * (n - 1) + "A"   # one level
    path = "/(abcdefghijklmnopqrstuvwx)" * (n // 30) + "/x"
    assert strip_path_session_id(path) == path
    query = "cfid=" * n
    assert strip_query_session_ids(query) == query
    assert surt("http://h/" + "%2525" * 1000 + "?" + "b&a&" * 5000, style="ia").startswith("h)/")


def test_a_key_pickles_as_its_options():
    "A key crosses to worker processes: pickled and read back, it is the same key (both builds)."
    key = UrlKey(drop_params="tracking", keep_params=["id", "utm_*"], strip_www=True, ia=True)
    back = pickle.loads(pickle.dumps(key))
    assert back == key and back.drop_params == key.drop_params
    assert back("http://www.a.example/p?utm_x=1&id=2&z=3") == "http://a.example/p?id=2"
