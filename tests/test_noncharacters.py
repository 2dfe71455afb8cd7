"""What the records say about prohibited code points in a host, per plane: the evidence behind
*Noncharacters, plane by plane* (Browsers side by side) and IE's rule `'drop'` (the BMP's
noncharacters only). If the data change, these fail and the note must be read again."""
from __future__ import annotations

import stringprep

import pytest
from conformance import in_mode
from datfile import ENV_VAR, data_dir, load

if not data_dir().is_dir():
    pytest.skip(f"conformance data not found at {data_dir()}: set {ENV_VAR} to the tests-web-url folder",
                allow_module_level=True)

PROHIBITED = (stringprep.in_table_c12, stringprep.in_table_c21, stringprep.in_table_c22,
              stringprep.in_table_c3, stringprep.in_table_c4, stringprep.in_table_c5,
              stringprep.in_table_c6, stringprep.in_table_c7, stringprep.in_table_c8,
              stringprep.in_table_c9)


def _prohibited(ch: str) -> bool:
    return ord(ch) > 0x7F and any(table(ch) for table in PROHIBITED)


def _hosts():
    "(raw host, case) for every `http://host/` case of the host file with a record of IE or Gecko."
    for case in load("decomps-authority-domain.dat"):
        data = case.fields.get("data", "")
        if data.startswith("http://") and any(k.startswith(("ie-", "gecko-")) for k in case.fields):
            yield data[7:].split("/")[0], case


def _invalid(case, mode: str) -> bool:
    return in_mode(case, mode).fields.get("invalid") == "1"


def test_the_only_noncharacter_in_a_recorded_host_is_in_the_bmp():
    found = {ch for host, _ in _hosts() for ch in host if stringprep.in_table_c4(ch)}
    assert found == {"\ufdd0"}


def test_ie_drops_bmp_noncharacters_and_gecko_keeps_them():
    seen = 0
    for host, case in _hosts():
        if any(stringprep.in_table_c4(ch) for ch in host):
            seen += 1
            ie, gecko = in_mode(case, "ie").fields, in_mode(case, "gecko").fields
            assert not _invalid(case, "ie") and "\ufdd0" not in ie["host"], case.id
            assert not _invalid(case, "gecko") and "\ufdd0" in gecko["host"], case.id
    assert seen == 2


def test_ie_rejects_every_prohibited_code_point_outside_the_bmp():
    beyond = [(host, case) for host, case in _hosts()
              if any(ord(ch) > 0xFFFF and _prohibited(ch) for ch in host)]
    assert beyond, "no record of a prohibited code point outside the BMP"
    assert all(_invalid(case, "ie") for _, case in beyond), [c.id for _, c in beyond]
    assert not any(_invalid(case, "gecko") for _, case in beyond), "Gecko keeps them"
