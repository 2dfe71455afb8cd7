"""Which prose proofs of the engine rest on which spec steps: the registry behind the table of
*Contributing* (`nbs/16_contributing.ipynb`).

An engine piece (a shortcut, a fast route, a cache) is argued in its notebook as **Shape / Claim /
Checked**: its Claim walks through spec steps and says why each gives the piece's answer. When one
of those steps changes, the Claim must be read again, and its check run. `RESTS_ON` names, for
each piece, the spec steps its Claim relies on: the piece by a name its notebook defines, each
step by its address on the site (`host#step-28`, `canonicalization#c6`, as `weburl_nb.trace`
writes them). Where the piece lives is looked up, not written down, so a piece that moves to
another notebook stays in the table. Links point at the site's pages, as the trace's do.

`problems()` lists what no longer holds: a piece that no notebook defines any more, a step the
spec page no longer has, a piece with no pairing test in `PAIRED_TEST` or one whose test is gone;
the hidden check of *Contributing* fails on any. `make proofs` (`tools/plant_faults.py`) plants a
fault in each piece of `PAIRED_TEST` and each part of `PARTS` in turn and runs the pairing test and
the route differential, which must both turn red; `tools/route_census.py` checks that every
function on the route is a piece or a part. `unregistered_claims()`
lists the Claims of the notebooks whose section defines no registered piece, so that a new one
shows in the table until its steps are written here.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NBS = ROOT / "nbs"
sys.path.insert(0, str(ROOT / "tools" / "site"))
import siteconf  # noqa: E402
import steps  # noqa: E402


def _steps(page: str, *ids: str) -> list[str]:
    "`page#id` for each id: `_steps('canonicalization', 'c2', 'c3')`."
    return [f"{page}#{i}" for i in ids]


def _range(page: str, prefix: str, first: int, last: int) -> list[str]:
    "`page#prefix-step-N` for N from `first` to `last`."
    return _steps(page, *(f"{prefix}step-{k}" for k in range(first, last + 1)))


PREPROCESS = _range("charclasses", "", 2, 4)
DOTS = _range("resolution", "dots-", 1, 3)          # RFC 3986's routine, rules A-E in its step 2
# an address written plainly: the steps among 2-24 that could change it (they change only the case)
ADDRESS = _steps("host", *(f"step-{k}" for k in (2, 5, 6, 11, 15, 16, 17, 18, 19, 20)))
CANON = _steps("canonicalization", *(f"c{k}" for k in range(2, 12)))
SERIALIZE = _range("serialization", "", 4, 9)

# piece (a name its notebook defines) -> the spec steps its Claim rests on
RESTS_ON: dict[str, list[str]] = {
    # URLs that are already canonical
    "already_canonical": PREPROCESS + _steps("parsing", "step-3", "step-6") + _steps(
        "resolution", "step-9", "relative-step-2") + CANON + SERIALIZE,
    # Links against an already-canonical base
    "_clean_shape": PREPROCESS + _steps("resolution", "step-8") + _range(
        "resolution", "relative-", 3, 6) + _steps("canonicalization", "c7", "c8", "c10", "c11"),
    # Links that only need their path percent-encoded
    "_encoded_shape": PREPROCESS + _steps("resolution", "step-8", "relative-step-3",
                                          "relative-step-6") + _steps(
        "canonicalization", "c7", "c8", "c10", "c11"),
    # Relative links against a cached base
    "base_record": _steps("resolution", "step-8") + _range("resolution", "relative-", 3, 6),
    # The repair tier: absolute URLs, repaired or not
    "repaired_absolute": PREPROCESS + _steps("parsing", "step-3", "step-4", "step-6") + _steps(
        "resolution", "step-8", "step-9", "step-10", "relative-step-2") + CANON + SERIALIZE,
    # Any URL without a base: parsed once
    "parsed_once": _range("resolution", "", 4, 10),
    # file: URLs and Windows paths of the plain shapes
    "file_shape": _steps("parsing", "step-2", "step-4", "step-5") + _range("parsing", "file-", 1, 3)
    + _steps("resolution", "relative-step-2", "relative-step-3", "relative-step-6") + _steps(
        "canonicalization", "c2", "c4", "c5", "c7", "c8", "c9", "c10", "c11") + SERIALIZE,
    # Hosts that are already canonical
    "_CANONICAL_NAME": _steps("host", *(f"step-{k}" for k in (2, 5, 6, 9, 11, 15, 16, 20, 22, 25,
                                                              26, 27, 28, 30))),
    # A shorter route for hex groups alone
    "_IPV6_HEX": _steps("ipaddr", "ipv6-step-2", "ipv6-step-3"),
    # Engine: preprocessing. ASCII text, printable text, text outside four ranges
    "step2_may_replace": _steps("charclasses", "step-2"),
    # Step 3: only the characters that occur
    "remove_tab_lf_cr_if_present": _steps("charclasses", "step-3"),
    # The engine's preprocessing: the pieces above, and step 4
    "preprocess_if_needed": PREPROCESS,
    # Engine: dot segments and resolution. Paths without a dot-segment
    "has_no_dot_segment": DOTS,
    # Rooted paths: a stack of segments
    "_rooted_stack": DOTS,
    # Long rooted paths: rounds
    "_rooted_in_rounds": DOTS,
    # The engine's dot-segment removal: the pieces above, the steps for other paths
    "remove_dot_segments_by_stack": DOTS,
    # Resolution by the stack: the two algorithms, with the engine's preprocessing and dot segments
    "resolve_by_stack": PREPROCESS + DOTS + _range("resolution", "", 4, 10)
    + _range("resolution", "relative-", 1, 7),
    # Engine: hosts. Addresses written plainly (and Shortcuts' addresses written as addresses)
    "canonicalize_ipv4_by_regex": ADDRESS + _steps("host", "step-27") + _range("ipaddr", "ipv4-", 1, 8),
    "bracketed_ipv6_by_hex_groups": ADDRESS + _steps("host", "step-25") + _range("ipaddr", "ipv6-", 1, 3),
    "canonicalize_ipv6_by_hex_groups": _range("ipaddr", "ipv6-", 1, 3),
    # The host cache: of the scheme, the steps read only whether it is `file`
    "cached_host_steps": _steps("host", "step-26", "step-30"),
    # canonicalize_host: the routes in order
    "canonicalize_host": _steps("host", "step-11", "step-25", "step-27"),
    # Engine: percent-encoding and canonicalization. Charset labels, kept (it rests on no numbered step)
    "cached_charset_encoding": [],
    # Percent-encoding by runs
    "percent_encode_by_runs": _range("canonicalization", "percent-encode-", 1, 8),
    # Decoding by one split
    "decode_unreserved_by_split": _steps("canonicalization", "c8"),
    # The note's question, only where it can arise; paths that need no step, or one
    "encode_path_by_runs": _steps("canonicalization", "c7", "c8"),
    # The note's question, by the escapes; a held answer, C8's fixed point
    "path_is_settled_by_escapes": _steps("canonicalization", "c8", "c9"),
    "encode_path_held_back": _steps("canonicalization", "c8", "c9"),
    "held_tail_start": _steps("canonicalization", "c8"),
    "canonicalize_path_by_runs": _steps("canonicalization", "c7", "c8"),
    # The fragment; user-info and query
    "canonicalize_fragment_by_runs": _steps("canonicalization", "c11"),
    "canonicalize_userinfo_by_runs": _steps("canonicalization", "c3"),
    "canonicalize_query_by_runs": _steps("canonicalization", "c11"),
    # The rounds of C9, skipped
    "skip_localhost_rounds": _steps("canonicalization", "c4", "c5", "c6", "c7", "c8", "c9"),
    # C1-C11 of the engine
    "canonicalize_by_engine": CANON,
    # Engine: codecs. Encoders by codec; ISO-2022-JP by runs (the encoders of Encodings: steps 5-6)
    "codec_encoder": _range("canonicalization", "percent-encode-", 5, 6),
    "iso_2022_jp_by_runs": _range("canonicalization", "percent-encode-", 5, 6),
    # Engine: internationalized names. Host names of ASCII letters, digits and hyphens
    "canonicalize_ascii_name": _range("host", "", 2, 22) + _range("host", "", 24, 30)
    + _steps("nameprep", "step-3", "step-7", "step-10"),
    # Nameprep by tables
    "code_point_flags": _range("nameprep", "", 3, 11),
    "LearningTable": _steps("nameprep", "step-3", "step-8"),
    "nameprep_by_table": _range("nameprep", "", 2, 12),
    "bidi_step_by_flags": _steps("nameprep", "step-11"),
    "nfkc_by_length": _steps("nameprep", "step-7", "step-9"),
    # Plain hosts: Nameprep as the Map step alone (THIS)
    "plain_nameprep": _range("nameprep", "", 3, 11),
    # Punycode
    "punycode_encode": _steps("host", "step-20"),
    # Labels to ASCII
    "punycode_label_by_encoder": _steps("host", "step-20"),
    "label_to_ascii_by_table": _steps("host", "step-11", "step-20"),
    "convert_labels_by_table": _steps("host", "step-20"),
    # Internationalized names, as THIS takes them
    "canonicalize_idn_name": _range("host", "", 2, 6) + _steps("host", "step-8", "step-9", "step-11")
    + _range("host", "", 15, 17) + _range("host", "", 20, 22) + _range("host", "", 25, 30),
    # A host no cache holds: THIS's steps by the tables, the other profiles by the steps
    "canonicalize_this_host": _range("host", "", 1, 22),
    "canonicalize_name": _steps("host", "step-1"),
}

# The tiers over Arrow (12b): each rests on the Claim of the Python tier whose shape it takes
RESTS_ON |= {"identity_tier": RESTS_ON["already_canonical"], "repair_tier": RESTS_ON["repaired_absolute"],
             "link_prefixes": RESTS_ON["_clean_shape"], "link_tier": RESTS_ON["_clean_shape"],
             "encoded_links": RESTS_ON["_encoded_shape"], "after_identity": RESTS_ON["already_canonical"]}

# piece -> the pytest node id that pairs it with its literal step: the test `make proofs` runs
# after planting a fault in the piece (its answer changed on some inputs); it must turn red.
PAIRED_TEST: dict[str, str] = {
    # --- preprocessing, parsing, resolution, dot segments (07a, 07c) ---
    "step2_may_replace":
        "tests/test_engine_preprocess.py::test_step2_is_skipped_only_when_it_changes_nothing",
    "remove_tab_lf_cr_if_present":
        "tests/test_engine_preprocess.py::test_remove_tab_lf_cr_if_present_equals_step3",
    "preprocess_if_needed": "tests/test_engine_preprocess.py::test_preprocess_if_needed_equals_steps",
    "has_no_dot_segment": "tests/test_engine_paths.py::test_no_dot_segment_test_is_sound",
    "_rooted_stack": "tests/test_engine_paths.py::test_rooted_stack_equals_steps",
    "_rooted_in_rounds": "tests/test_engine_paths.py::test_rounds_equal_steps_at_any_round_size",
    "remove_dot_segments_by_stack":
        "tests/test_engine_paths.py::test_remove_dot_segments_by_stack_equals_steps",
    "resolve_by_stack": "tests/test_engine_paths.py::test_resolve_by_stack_equals_steps",

    # --- hosts, IP addresses, Nameprep, IDNA (07d, 07e) ---
    "_CANONICAL_NAME": "tests/test_engine_hosts.py::test_routes_equal_steps_on_seeded_hosts",
    "_IPV6_HEX": "tests/test_engine_hosts.py::test_random_address_routes",
    "canonicalize_ipv4_by_regex": "tests/test_engine_hosts.py::test_random_address_routes",
    "canonicalize_ipv6_by_hex_groups": "tests/test_engine_hosts.py::test_random_address_routes",
    "bracketed_ipv6_by_hex_groups": "tests/test_engine_hosts.py::test_random_address_routes",
    "cached_host_steps": "tests/test_engine_hosts.py::test_cache_equals_steps_with_eviction",
    "canonicalize_host": "tests/test_engine_hosts.py::test_routes_equal_steps_on_seeded_hosts",
    "canonicalize_ascii_name": "tests/test_engine_idna.py::test_ascii_names_on_sample_hosts",
    "code_point_flags": "tests/test_engine_idna.py::test_flags_on_every_code_point",
    "LearningTable": "tests/test_engine_idna.py::test_learning_table_equals_its_function",
    "nameprep_by_table": "tests/test_engine_idna.py::test_nameprep_on_sample_hosts",
    "bidi_step_by_flags": "tests/test_engine_idna.py::test_bidi_equals_steps",
    "nfkc_by_length": "tests/test_engine_idna.py::test_nfkc_by_length_equals_steps",
    "plain_nameprep": "tests/test_engine_idna.py::test_plain_nameprep_on_sample_hosts",
    "punycode_encode": "tests/test_engine_idna.py::test_punycode_equals_codec",
    "punycode_label_by_encoder": "tests/test_engine_idna.py::test_punycode_label_by_encoder_on_sample_labels",
    "label_to_ascii_by_table": "tests/test_engine_idna.py::test_labels_on_sample_hosts",
    "convert_labels_by_table": "tests/test_engine_idna.py::test_labels_on_sample_hosts",
    "canonicalize_idn_name": "tests/test_engine_idna.py::test_idn_names_on_sample_hosts",
    "canonicalize_this_host": "tests/test_engine_idna.py::test_this_host_on_sample_hosts",
    "canonicalize_name": "tests/test_engine_idna.py::test_canonicalize_name_on_sample_hosts",

    # --- percent-encoding, charsets, canonicalization (07b) ---
    "cached_charset_encoding": "tests/test_engine_encoding.py::test_charset_encoding",
    "percent_encode_by_runs": "tests/test_percent_encode.py::test_percent_encode_is_the_plain_steps",
    "decode_unreserved_by_split": "tests/test_engine_encoding.py::test_decode_unreserved",
    "encode_path_by_runs": "tests/test_engine_encoding.py::test_encode_path",
    "path_is_settled_by_escapes": "tests/test_engine_encoding.py::test_path_is_settled_by_escapes",
    "encode_path_held_back": "tests/test_engine_encoding.py::test_a_held_answer_is_c8s_fixed_point",
    "held_tail_start": "tests/test_engine_encoding.py::test_held_tail_start_cuts_where_the_note_cannot_reach",
    "canonicalize_path_by_runs": "tests/test_engine_encoding.py::test_canonicalize_path",
    "canonicalize_fragment_by_runs": "tests/test_engine_encoding.py::test_canonicalize_fragment",
    "canonicalize_userinfo_by_runs": "tests/test_engine_encoding.py::test_canonicalize_userinfo",
    "canonicalize_query_by_runs": "tests/test_engine_encoding.py::test_canonicalize_query",
    "skip_localhost_rounds": "tests/test_engine_encoding.py::test_localhost_rounds_skipped_equal_the_rounds",
    "canonicalize_by_engine": "tests/test_engine_encoding.py::test_canonicalize_by_engine_on_the_conformance_inputs",
    "codec_encoder": "tests/test_engine_encoding.py::test_codec_encoders_are_the_plain_encoders",
    "by_character":
        "tests/test_engine_encoding.py::test_by_character_tells_the_encoders_that_write_each_character_alone",
    "iso_2022_jp_by_runs": "tests/test_engine_encoding.py::test_iso_2022_jp_by_runs_is_the_plain_encoder",

    # --- shortcuts and entry (07f, 07g) ---
    "already_canonical": "tests/test_tiers.py::test_already_canonical_is_sound_and_takes_the_canonical_urls",
    "unchanged_url": "tests/test_tiers.py::test_unchanged_url_tier",
    "_clean_shape": "tests/test_tiers.py::test_clean_link_tier",
    "_encoded_shape": "tests/test_tiers.py::test_clean_link_tier",
    "clean_link": "tests/test_tiers.py::test_clean_link_tier",
    "base_record": "tests/test_tiers.py::test_fast_relative_tier_and_base_record",
    "fast_relative": "tests/test_tiers.py::test_fast_relative_tier_and_base_record",
    "repaired_absolute": "tests/test_tiers.py::test_repaired_absolute_tier",
    "file_shape": "tests/test_tiers.py::test_file_shape",
    "parsed_once": "tests/test_tiers.py::test_parsed_once_tier",
    "url_to_canon_url": "tests/test_route.py::test_route_equals_the_steps",

    # --- the tiers over Arrow (12b) ---
    "identity_tier": "tests/test_arrow.py::test_identity_tier_is_the_python_shape",
    "repair_tier": "tests/test_arrow.py::test_repair_tier_equals_url_to_canon_url",
    "link_prefixes": "tests/test_arrow.py::test_link_prefixes_are_canonical_base_parts",
    "link_tier": "tests/test_arrow.py::test_link_tier_equals_url_to_canon_url",
    "encoded_links": "tests/test_arrow.py::test_link_tier_equals_url_to_canon_url",
    "after_identity": "tests/test_arrow.py::test_after_identity_equals_url_to_canon_url",
    "canonicalize_arrow": "tests/test_arrow.py::test_canonicalize_arrow_equals_url_to_canon_url",

}

# helper -> the piece it is a part of: a function on the route that is argued within its piece's
# Claim. `make proofs` plants a fault in the helper too, and the piece's pairing test must catch it;
# `tools/route_census.py` checks that every function on the route is a piece or a part.
PARTS: dict[str, str] = {
    # --- 07a, 07c ---
    "preprocess_and_parse": "resolve_by_stack",
    "_clean_path_by_stack": "resolve_by_stack",
    "settled_path_by_stack": "resolve_by_stack",
    "resolve_relative_by_stack": "resolve_by_stack",
    "_without_fragment_by_stack": "resolve_by_stack",
    "_pop_settled": "_rooted_in_rounds",

    # --- 07b, 07b1 ---
    "_charset_encoding": "cached_charset_encoding",
    "cached_encoder_for": "percent_encode_by_runs",
    "RunTables": "percent_encode_by_runs",
    "run_tables": "percent_encode_by_runs",
    "_CharEscapes": "percent_encode_by_runs",
    "_escape_bytes": "percent_encode_by_runs",
    "_escape_by_runs": "percent_encode_by_runs",
    "_escape_by_blocks": "percent_encode_by_runs",
    "_decode_piece": "decode_unreserved_by_split",
    "_decoded_and_encoded": "encode_path_by_runs",
    "_hostpath_by_engine": "canonicalize_by_engine",
    "_table_codec": "codec_encoder",
    "_four_byte_handler": "codec_encoder",
    "iso_2022_jp_first_pass": "iso_2022_jp_by_runs",
    "_first_pass": "iso_2022_jp_by_runs",

    # --- 07d, 07e ---
    "_hex_groups_text": "canonicalize_ipv6_by_hex_groups",
    "_host_cache": "cached_host_steps",
    "is_ascii_name": "canonicalize_host",
    "bidi_flags_pass": "bidi_step_by_flags",
    "plain_map": "plain_nameprep",
    "replace_separators": "canonicalize_idn_name",
    "_Thresholds": "punycode_encode",
    "_thresholds": "punycode_encode",
    "_digits": "punycode_encode",
    "_adapt": "punycode_encode",

    # --- 07f, 07g ---
    "_canonical_base": "clean_link",
    "_link_shape": "clean_link",
    "_base_record": "base_record",
    "_no_shortcut_scheme": "base_record",
    "engine_result": "url_to_canon_url",
    "check_arguments": "url_to_canon_url",
    "check_options": "url_to_canon_url",

    # --- the tiers over Arrow (12b) ---
    "matches": "identity_tier",
    "_offsets": "link_prefixes",
    "_first": "link_prefixes",
    "_views": "link_tier",
    "_kinds": "link_tier",
    "_strings": "canonicalize_arrow",
    "_base_index": "canonicalize_arrow",
    "_by_loop": "canonicalize_arrow",
    "_absolute": "canonicalize_arrow",
    "_links": "canonicalize_arrow",
}

_DEF = re.compile(r"^(?:def|class)\s+(\w+)|^(\w+)(?:\s*:[^=\n]+)?\s*=", re.MULTILINE)
_HEAD = re.compile(r"^(#{1,6})\s+(.+?)\s*$", re.MULTILINE)
_CLAIM = re.compile(r"^\*{1,2}Claim\.\*{1,2}", re.MULTILINE)
_CODE = re.compile(r"`(\w+)`")


def _cells(nb: Path) -> list[dict]:
    return json.loads(nb.read_text(encoding="utf-8"))["cells"]


def notebooks() -> list[Path]:
    return sorted(p for p in NBS.glob("*.ipynb") if not p.name.startswith(("_", ".")))


def sections() -> list[dict]:
    """Every heading of every notebook: `notebook`, `title`, the `names` its exported code defines,
    the names its prose `mentions` in backticks, and whether it has a `claim`."""
    out = []
    for nb in notebooks():
        cur = dict(notebook=nb, title="", names=set(), mentions=set(), claim=False)
        out.append(cur)
        for cell in _cells(nb):
            src = "".join(cell["source"])
            if cell["cell_type"] == "markdown":
                for line in src.splitlines():
                    h = _HEAD.match(line)
                    if h and len(h.group(1)) > 1:
                        cur = dict(notebook=nb, title=h.group(2), names=set(), mentions=set(),
                                   claim=False)
                        out.append(cur)
                    cur["mentions"] |= set(_CODE.findall(line))
                cur["claim"] |= bool(_CLAIM.search(src))
            elif cell["cell_type"] == "code" and src.lstrip().startswith("#| export"):
                cur["names"] |= {a or b for a, b in _DEF.findall(src)}
    return out


def where(name: str, secs: list[dict] | None = None) -> dict | None:
    "The section whose exported code defines `name` (one with a Claim first), or None."
    found = [s for s in secs or sections() if name in s["names"]]
    return next((s for s in found if s["claim"]), found[0] if found else None)



def step_ids(page: str) -> set[str]:
    "The step anchors the site makes on `page` (`tools/site/steps.py`)."
    nb = next((p for p in notebooks() if siteconf.page_name(p) == page), None)
    if nb is None:
        return set()
    anchors = steps.Anchors(page)
    for cell in _cells(nb):
        if cell["cell_type"] == "markdown":
            anchors.cell("".join(cell["source"]))
    return set(anchors.ids)


def problems() -> list[str]:
    "What the registry says that the notebooks no longer do."
    secs, ids, out = sections(), {}, []
    for name, refs in RESTS_ON.items():
        if where(name, secs) is None:
            out.append(f"{name}: no notebook exports it any more (renamed? update tools/proofs.py)")
        for ref in refs:
            page, _, anchor = ref.partition("#")
            if page not in ids:
                ids[page] = step_ids(page)
            if anchor not in ids[page]:
                out.append(f"{name}: rests on {ref}, which the page {page} no longer has")
    for name in RESTS_ON.keys() - PAIRED_TEST.keys():
        out.append(f"{name}: no pairing test in PAIRED_TEST (make proofs needs one)")
    for part, piece in PARTS.items():
        if piece not in PAIRED_TEST:
            out.append(f"{part}: a part of {piece}, which is no piece of PAIRED_TEST")
        if where(part, secs) is None:
            out.append(f"{part}: a part that no notebook exports any more (update PARTS)")
    for name, node in PAIRED_TEST.items():
        path, _, test = node.partition("::")
        file = ROOT / path
        if not file.is_file() or not re.search(rf"^def {re.escape(test)}\(", file.read_text(
                encoding="utf-8"), re.MULTILINE):
            out.append(f"{name}: its pairing test {node} does not exist")
    return out


def section_text(nb: Path, title: str) -> str:
    "The prose of the section `title` of notebook `nb` (its markdown cells, headings included)."
    text, cur = [], ""
    for cell in _cells(nb):
        if cell["cell_type"] != "markdown":
            continue
        for line in "".join(cell["source"]).splitlines():
            h = _HEAD.match(line)
            if h and len(h.group(1)) > 1:
                cur = h.group(2)
            if cur == title:
                text.append(line)
    return "\n".join(text)


def unnamed_pairing_tests(pages: str = r"07[a-g]") -> list[str]:
    "The pieces of the pages matching `pages` whose section does not name the test `PAIRED_TEST` runs."
    secs, out = sections(), []
    for name, node in PAIRED_TEST.items():
        s = where(name, secs)
        if s is not None and re.match(pages, s["notebook"].name) and node not in section_text(
                s["notebook"], s["title"]):
            out.append(f"{name}: {s['notebook'].name} '{s['title']}' does not name {node}")
    return out


def paired_table() -> str:
    "Markdown: each engine piece, its parts, the test that pairs it with its step (`make proofs`)."
    def parts(name: str) -> str:
        return ", ".join(f"`{p}`" for p, piece in PARTS.items() if piece == name)
    rows = [f"| `{name}` | {parts(name)} | `{node.replace('::', ' :: ')}` |"
            for name, node in PAIRED_TEST.items()]
    return "| engine piece | its parts | its pairing test |\n|---|---|---|\n" + "\n".join(rows)


def unregistered_claims() -> list[dict]:
    "Sections with a Claim that neither define nor name a registered piece."
    return [s for s in sections() if s["claim"] and s["title"]
            and not (s["names"] | s["mentions"]) & RESTS_ON.keys()]


def slug(title: str) -> str:
    "The id a heading gets on the site (docutils': runs of other characters than a-z0-9 to `-`)."
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title).replace("`", "").replace("*", "")
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _label(ref: str) -> str:
    page, _, anchor = ref.partition("#")
    step = anchor.replace("step-", "").upper() if anchor.startswith("c") else anchor.replace("-step-", " ").replace("step-", "")
    return f"{page} {step}"


def by_step() -> dict[str, list[str]]:
    "Step address -> the pieces whose Claim rests on it, in the registry's order."
    out: dict[str, list[str]] = {}
    for name, refs in RESTS_ON.items():
        for ref in dict.fromkeys(refs):
            out.setdefault(ref, []).append(name)
    return out


def _key(ref: str, order: dict) -> tuple:
    "Spec order: the page's place, the algorithm (the anchor's prefix), the step's number."
    page, _, anchor = ref.partition("#")
    return order.get(page, 99), re.sub(r"\d+$", "", anchor), int(re.sub(r"\D", "", anchor) or 0)


def rows() -> list[tuple[list[str], list[str]]]:
    "`(steps, pieces)` in spec order; neighbouring steps that the same pieces rest on share a row."
    order = {p: i for i, p in enumerate(siteconf.page_name(nb) for nb in notebooks())}
    out: list[tuple[list[str], list[str]]] = []
    for ref, names in sorted(by_step().items(), key=lambda kv: _key(kv[0], order)):
        k = _key(ref, order)
        if out and out[-1][1] == names and _key(out[-1][0][-1], order)[:2] == k[:2] \
                and _key(out[-1][0][-1], order)[2] == k[2] - 1:
            out[-1][0].append(ref)
        else:
            out.append(([ref], names))
    return out


def table() -> str:
    "Markdown: one row per spec step (or run of steps), the engine pieces to re-read when it changes."
    secs = sections()

    def piece(name: str) -> str:
        s = where(name, secs)
        if s is None:
            return f"`{name}`"
        href = f"{siteconf.page_name(s['notebook'])}.html#{slug(s['title'])}"
        return f'<a href="{href}"><code>{name}</code></a>'     # HTML: MyST leaves it as it is

    def steps_cell(refs: list[str]) -> str:
        first = f'<a href="{refs[0].replace("#", ".html#")}">{_label(refs[0])}</a>'
        return first if len(refs) == 1 else f"{first}-{_label(refs[-1]).rsplit(' ', 1)[-1]}"

    lines = [f"| {steps_cell(refs)} | {', '.join(piece(n) for n in names)} |" for refs, names in rows()]
    return "| spec step | engine pieces whose Claim rests on it |\n|---|---|\n" + "\n".join(lines)


if __name__ == "__main__":
    print(table())
    for p in problems():
        print("problem:", p)
    for s in unregistered_claims():
        print("claim not in the registry:", s["notebook"].name, s["title"])
