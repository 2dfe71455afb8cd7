"""Engine: hosts (07e) against the steps (05): `canonicalize_host` == `canonicalize_host_steps` for
every profile, on random hosts (Hypothesis) and on every host of the conformance data, in `http` and
in `file`, twice each (the second answer comes from the cache, where a host goes there)."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from datfile import data_dir, files, load
from weburl_nb import ipaddr
from weburl_nb.engine_hosts import (bracketed_ipv6_by_hex_groups, canonicalize_host,
                                    canonicalize_ipv4_by_regex, canonicalize_ipv6_by_hex_groups)
from weburl_nb.host import PROFILES, canonicalize_host_steps
from weburl_nb.parsing import parse_url

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
