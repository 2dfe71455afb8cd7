"""The route of `url_to_canon_url` paired with the steps (the pairing test of `make proofs`), and the
census of the functions on it (`tools/route_census.py`).

The steps' side is `_stages` of the profile the browser names: the arguments are not checked there,
so a fault in the route's own checks (`check_arguments`, `check_options`) shows as well. The calls
are those of the route differential of `make proofs` (`tools/route_differential.py`): every
conformance input in the four profiles, a seeded messy corpus, and inputs of the rare shapes.
"""
import importlib.util
import sys
from pathlib import Path

import pytest
from datfile import data_dir

from weburl_nb.entry import _stages, url_to_canon_url
from weburl_nb.host import profile_for

TOOLS = Path(__file__).resolve().parent.parent / "tools"


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


needs_data = pytest.mark.skipif(not data_dir().is_dir(), reason="conformance data not found")


@needs_data
def test_route_equals_the_steps():
    calls = _tool("route_differential").calls()
    bad = []
    for url, base, charset, browser in calls:
        steps = _stages(url, base, charset, profile_for(browser)).result
        if url_to_canon_url(url, base, charset, browser) != steps:
            bad.append((url, base, charset, browser))
    assert not bad, f"{len(bad)} of {len(calls)} differ, first: {bad[:3]!r:.600}"


@needs_data
@pytest.mark.incompatible_with_mypyc("the census reads the route with a profile hook, which sees no call "
                                     "inside a compiled module")
def test_every_route_function_is_a_piece_or_a_part():
    census = _tool("route_census")
    found = census.census(census.inputs(bench_lines=5000))
    missing = sorted(k for k in found if census.registered(k[1]) is None)
    assert len(found) > 60, sorted(found)          # the profiler saw the route
    assert not missing, f"on the route but in neither PAIRED_TEST nor PARTS: {missing}"


def test_every_checked_names_its_pairing_test():
    "The section of each engine piece (07a-07g) names the test that `make proofs` runs for it."
    assert _tool("proofs").unnamed_pairing_tests() == []
