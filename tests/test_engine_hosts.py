"""Engine: hosts (07e) against the steps (05): `canonicalize_host` == `canonicalize_host_steps` for
every profile, on random hosts (Hypothesis) and on every host of the conformance data, in `http` and
in `file`, twice each (the second answer comes from the cache, where a host goes there)."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from datfile import data_dir, files, load
from weburl_nb import ipaddr
from weburl_nb.engine_hosts import (_HOST_CACHES, HOST_CACHE_SIZE, bracketed_ipv6_by_hex_groups,
                                    cached_host_steps, canonicalize_host, canonicalize_ipv4_by_regex,
                                    canonicalize_ipv6_by_hex_groups, host_cache_info)
from weburl_nb.host import PROFILES, canonicalize_host_steps
from weburl_nb.parsing import parse_url
from weburl_nb.trace import Recording

ATOMS = ['a', 'B', 'x', 'X', '0', '1', '9', 'f', '-', '_', '~', '.', '..', '%', '%2', '%2E', '%2e', '%41',
         '%5B', '%5b', '%25', '%00', '%C3%A9', '%E4%B8%80', '%80', '[', ']', ':', '::', '@', ' ', '\t',
         'xn--', 'xn--9ca', '0x', '0x7f', '255', '256', '4294967296', 'ü', 'ß', 'İ', '一', 'א', 'ا',
         '\u0301', '\u0340', '\u200c', '\u00a0', '\u3002', '\uff0e', '\ufffd', '\ufdd0', '\x00', '\U0001F600']
host_text = st.lists(st.one_of(st.sampled_from(ATOMS), st.text(max_size=2)), max_size=10).map(''.join)


def _same(h: str) -> list:
    "The (profile, scheme) pairs where the engine and the steps disagree on `h`."
    return [(name, scheme, h) for name, p in PROFILES.items() for scheme in ('http', 'FILE')
            for _ in range(2)
            if canonicalize_host(h, scheme, p) != canonicalize_host_steps(h, scheme, p)]


@given(host_text)
def test_random_hosts(h):
    assert _same(h) == []


@given(st.lists(st.sampled_from(['0', '1', '255', '256', '0x', '0X7f', '017', '08', '65535', '16777216',
                                 '4294967295', '4294967296', '9' * 11, 'a', '']), min_size=1, max_size=5))
def test_random_addresses(parts):
    h = '.'.join(parts)
    assert canonicalize_ipv4_by_regex(h) == ipaddr.canonicalize_ipv4(h)
    v6 = ':'.join(parts).replace(':', '::', 1)
    assert canonicalize_ipv6_by_hex_groups(v6) == ipaddr.canonicalize_ipv6(v6)
    assert _same(h) == [] and _same(f'[{v6}]') == []


def _conformance_hosts() -> list[str]:
    hosts = set()
    for name in files():
        for case in load(name):
            for h in (case.get('host'), case.get('data') and parse_url(case.get('data')).host):
                if isinstance(h, str):
                    hosts.add(h)
    return sorted(hosts)


@pytest.mark.skipif(not data_dir().is_dir(), reason='no conformance data')
def test_conformance_hosts():
    hosts = _conformance_hosts()
    assert len(hosts) > 500
    bad = [x for h in hosts for x in _same(h)]
    assert bad == [], bad[:5]


def test_bracketed():
    assert bracketed_ipv6_by_hex_groups('[0:0:0:0:0:FFFF:1.2.3.4]') == '[::ffff:102:304]'
    assert bracketed_ipv6_by_hex_groups('[::1') is None


def test_random_address_routes():
    "The IPv4 and IPv6 routes against the IP addresses page, on many strings of numbers and groups."
    import random
    rng = random.Random(2732)
    parts = ['0', '1', '255', '256', '0x', '0X7f', '0xG', '017', '08', '65535', '16777216', '4294967295',
             '4294967296', '9' * 11, 'a', '']
    groups = ['0', '00', '0000', '1', 'ffff', 'FFFF', 'db8', '12345', 'g', '', '1.2.3.4', '01.2.3.4', '256.1.1.1']
    for _ in range(4000):
        h = '.'.join(rng.choice(parts) for _ in range(rng.randint(1, 5)))
        assert canonicalize_ipv4_by_regex(h) == ipaddr.canonicalize_ipv4(h), h
        v6 = ':'.join(rng.choice(groups) for _ in range(rng.randint(1, 9)))
        for s in (v6, v6.replace(':', '::', 1)):
            want = ipaddr.canonicalize_ipv6(s)
            assert canonicalize_ipv6_by_hex_groups(s) == want, s
            assert bracketed_ipv6_by_hex_groups(f'[{s}]') == (want and f'[{want}]'), s


def _cache_hosts() -> list[str]:
    "Conformance hosts and random hosts of the atoms above: more than one cache holds."
    import random
    rng = random.Random(2048)
    hosts = _conformance_hosts() if data_dir().is_dir() else []
    distinct = set(hosts)
    while len(distinct) <= HOST_CACHE_SIZE + 256:      # with or without the conformance data
        h = ''.join(rng.choice(ATOMS) for _ in range(rng.randint(0, 6)))
        hosts.append(h)
        distinct.add(h)
    return hosts


def test_cache_equals_steps_with_eviction():
    """`cached_host_steps` is `canonicalize_host_steps` for every profile, on conformance and random
    hosts, answered once by the steps' engine and again from the cache, after more distinct hosts than
    the cache holds have gone through it (so that the first answers were evicted and computed again)."""
    hosts = _cache_hosts()
    assert len(set(hosts)) > HOST_CACHE_SIZE
    for name, p in PROFILES.items():
        _HOST_CACHES[id(p)][1].cache_clear()
        for scheme in ('http', 'file'):
            want = [canonicalize_host_steps(h, scheme, p) for h in hosts]
            for _ in range(2):                        # the second pass: hits, and misses after eviction
                got = [cached_host_steps(h, scheme, p) for h in hosts]
                bad = [(h, g, w) for h, g, w in zip(hosts, got, want, strict=True) if g != w]
                assert bad == [], (name, scheme, bad[:5])
        info = host_cache_info()[p.name]
        assert info.currsize <= HOST_CACHE_SIZE and info.hits > 0 and info.misses > HOST_CACHE_SIZE
        for h in ('a' * 1100 + '.example', 'B\u00fccher.de', hosts[7]):   # too long to keep; recorded
            assert cached_host_steps(h, 'http', p) == canonicalize_host_steps(h, 'http', p)
            with Recording():
                assert cached_host_steps(h, 'http', p) == canonicalize_host_steps(h, 'http', p)


@given(host_text, st.sampled_from(list(PROFILES.values())), st.sampled_from([None, 'http', 'FILE']))
def test_cache_equals_steps(h, p, scheme):
    assert cached_host_steps(h, scheme, p) == canonicalize_host_steps(h, scheme, p)
    assert cached_host_steps(h, scheme, p) == canonicalize_host_steps(h, scheme, p)     # from the cache


def test_routes_equal_steps_on_seeded_hosts():
    """`canonicalize_host` (every route: canonical names, addresses, ASCII names, the cache) is the
    steps, for every profile, on 1,500 seeded random hosts of the atoms above, each asked twice."""
    import random
    rng = random.Random(1912)
    hosts = [''.join(rng.choice(ATOMS) for _ in range(rng.randint(0, 6))) for _ in range(1200)]
    hosts += [h.lower() for h in hosts[:300]]
    bad = [x for h in hosts for x in _same(h)]
    assert bad == [], bad[:5]
    with Recording():                   # a recording sees the steps: no address route
        assert [x for h in ('1.2.3.4', '[::1]', '0x7F.1', 'a.B', '\u00fc') for x in _same(h)] == []
