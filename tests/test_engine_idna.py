"""Engine: internationalized names (`weburl_nb.engine_idna`) against the steps it replaces.

Each piece is compared with its literal step: the flag and mapping tables on every code point of
Unicode, the pieces on the hosts of the conformance cases, and on Hypothesis input."""
import stringprep
from functools import lru_cache

from hypothesis import given, strategies as st

from datfile import files, load
from weburl_nb import engine_idna as engine
from weburl_nb import host as steps
from weburl_nb import nameprep as nameprep_steps
from weburl_nb import parse_url
from weburl_nb.host import CHROME, GECKO, IE, THIS

PROFILES = (THIS, CHROME, GECKO, IE)
ALL_UNICODE = ''.join(map(chr, range(0x110000)))
CHUNK = 1 << 14
BITS = {engine.UNASSIGNED: stringprep.in_table_a1, engine.PROHIBITED: nameprep_steps.is_prohibited,
        engine.RTL: nameprep_steps.is_rtl, engine.LTR: nameprep_steps.is_ltr,
        engine.RTL_3_2: stringprep.in_table_d1, engine.LTR_3_2: stringprep.in_table_d2}


@lru_cache(maxsize=None)
def flags_table() -> engine.LearningTable:
    "`code_point_flags` of every code point of Unicode, learned once for the tests below."
    table = engine.LearningTable(engine.code_point_flags, bound=None)
    ALL_UNICODE.translate(table)
    return table


def test_flags_on_every_code_point():
    "Each bit of each code point's flag character is the answer of the step's predicate."
    table = flags_table()
    for start in range(0, 0x110000, CHUNK):     # chunks: the steps' caches hold a chunk's answers
        chunk = ALL_UNICODE[start:start + CHUNK]
        flags = chunk.translate(table)
        assert len(flags) == len(chunk)
        for bit, in_table in BITS.items():
            theirs = list(map(in_table, chunk))
            ours = [ord(f) & bit != 0 for f in flags]
            if ours != theirs:
                i = next(i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b)
                raise AssertionError(f'bit {bit}, U+{start + i:04X}: {ours[i]} != {theirs[i]}')
            assert (engine.FLAG_RE[bit].search(flags) is not None) == any(theirs)


def test_map_on_every_code_point():
    """The mapping table gives each code point what the Map step (step 3) gives it; the plain table
    gives the same, or `NOT_PLAIN` when a character of it has a flag unassigned, prohibited or
    right-to-left (flags as `test_flags_on_every_code_point` checks them)."""
    table = engine.LearningTable(nameprep_steps.b1_b2_map, bound=None)
    flags = flags_table()
    stop = engine.UNASSIGNED | engine.PROHIBITED | engine.RTL
    for start in range(0, 0x110000, CHUNK):
        chunk = ALL_UNICODE[start:start + CHUNK]
        theirs = list(map(nameprep_steps.map_step, chunk))
        assert [c.translate(table) for c in chunk] == theirs, start
        expected = [engine.NOT_PLAIN if any(ord(f) & stop for f in m.translate(flags)) else m
                    for m in theirs]
        assert [engine.plain_map(c, flags) for c in chunk] == expected, start


def test_learning_table_is_bounded():
    table = engine.LearningTable(engine.code_point_flags, bound=100)
    ALL_UNICODE[:1000].translate(table)
    assert len(table) <= 100
    assert ALL_UNICODE[:1000].translate(table) == ALL_UNICODE[:1000].translate(engine.FLAGS)


@lru_cache(maxsize=None)
def conformance_hosts() -> list[str]:
    "Hosts of the conformance cases: as parsed from each case's input, and as the cases expect them."
    hosts = set()
    for name in files():
        for case in load(name):
            try:
                parsed = parse_url(case.get('data', ''))
            except Exception:
                parsed = None
            for h in (getattr(parsed, 'host', None), case.get('host')):
                if isinstance(h, str):
                    hosts.add(h)
    return sorted(hosts)


@lru_cache(maxsize=None)
def hosts_to_check() -> list[str]:
    "The conformance hosts, and 2,000 seeded random hosts of the atoms below (so the checks run without the data too)."
    import random
    rng = random.Random(3490)
    atoms = ['', 'a', 'Z', '-', '.', '1', '255', '0x', 'ü', 'ß', 'İ', 'ﬁ', 'א', 'ب', '\u0301', '\u0340', '日', '한',
             '\u3002', '\uff0e', '\ue000', '\ufdd0', '\U0001f600', '\u200d', '\u00ad', 'xn--', 'XN--', '\u0221',
             'münchen', 'пример', 'ΑΘΗΝΑ', '%', '%41', '%C3%BC', '_', '[', ']', ':', '\t', '@', ' ', 'ǅ', 'Ⅻ']
    randoms = [''.join(rng.choice(atoms) for _ in range(rng.randint(1, 8))) for _ in range(2000)]
    return conformance_hosts() + randoms


def test_conformance_hosts_found():
    assert len(conformance_hosts()) > 500 or not files()


def test_ascii_names_on_sample_hosts():
    names = [h for h in hosts_to_check() if engine.is_ascii_name(h)]
    names += [h.upper() for h in names]
    for h in names:
        for p in PROFILES:
            for scheme in (None, 'file'):
                assert engine.canonicalize_ascii_name(h, scheme, p) == \
                    steps.canonicalize_host_steps(h, scheme, p), (h, p.name, scheme)


def test_nameprep_on_sample_hosts():
    for h in hosts_to_check():
        for s in {h, steps.percent_decode_utf8(h)}:
            for p in PROFILES:
                for bidi in (False, True):
                    assert engine.nameprep_by_table(s, bidi, p.nameprep) == \
                        nameprep_steps.nameprep(s, bidi, p.nameprep), (s, p.name, bidi)


def check_plain_nameprep(s: str) -> None:
    "A plain answer is the steps' Nameprep, with and without bidi, with no right-to-left character."
    plain = engine.plain_nameprep(s)
    if plain is not None:
        assert plain == nameprep_steps.nameprep(s) == nameprep_steps.nameprep(s, True), s
        assert not any(map(nameprep_steps.is_rtl, plain)), s


def test_plain_nameprep_on_sample_hosts():
    for h in [*hosts_to_check(), 'a\u2135', '\u2135.b']:       # NFKC of U+2135 is right-to-left
        for s in {h, h.upper(), steps.percent_decode_utf8(h)}:
            check_plain_nameprep(s)


def test_labels_on_sample_hosts():
    for h in hosts_to_check():
        s = steps.replace_label_separators(steps.percent_decode_utf8(h))
        for p in PROFILES:
            prepared = nameprep_steps.nameprep(s, False, p.nameprep) if p.host.nameprep_whole_host else s
            labels = (prepared or s).split('.')
            for idn in (False, True):
                assert engine.convert_labels_by_table(labels, p, idn) == steps.convert_labels(labels, p, idn), \
                    (labels, p.name)
            for label in labels:
                if len(label) <= 59:
                    assert engine.punycode_encode(label) == label.encode('punycode').decode('ascii')


any_char = st.characters(blacklist_categories=())
any_text = st.text(any_char, max_size=20)
SCRIPTS = st.sampled_from(['', 'a', 'Z', '-', '.', '1', 'ü', 'ß', 'İ', 'ﬁ', 'א', 'ب', '\u0301', '\u0340',
                           '日', '한', '\u3002', '\uff0e', '\ue000', '\ufdd0', '\U0001f600', '\U000e0001',
                           '\u200d', '\u00ad', 'xn--', 'XN--', '\u0221', '\U00030000'])
host_text = st.lists(st.one_of(SCRIPTS, st.text(any_char, max_size=2)), max_size=12).map(''.join)
ascii_name = st.lists(st.sampled_from(['a', 'B', '0', '9', '0x', '0X', 'f', '-', '.', 'xn--', 'XN--', '255',
                                       '4294967296', '077']), min_size=1, max_size=10).map(''.join)


@given(ascii_name, st.sampled_from(PROFILES), st.sampled_from([None, 'file', 'http']))
def test_ascii_name_equals_steps(s, profile, scheme):
    assert engine.is_ascii_name(s)
    assert engine.canonicalize_ascii_name(s, scheme, profile) == steps.canonicalize_host_steps(s, scheme, profile)


@given(st.one_of(host_text, any_text), st.sampled_from(PROFILES), st.booleans())
def test_nameprep_equals_steps(s, profile, bidi):
    assert engine.nameprep_by_table(s, bidi, profile.nameprep) == nameprep_steps.nameprep(s, bidi, profile.nameprep)


@given(st.one_of(host_text, any_text))
def test_plain_nameprep_equals_steps(s):
    check_plain_nameprep(s)


@given(st.one_of(host_text, any_text))
def test_separators_equal_steps(s):
    assert engine.replace_separators(s) == steps.replace_label_separators(s)


@given(st.one_of(host_text, st.text(any_char, max_size=59)))
def test_punycode_equals_codec(label):
    assert engine.punycode_encode(label) == label.encode('punycode').decode('ascii')


@given(st.lists(st.one_of(host_text, any_text), min_size=1, max_size=4), st.sampled_from(PROFILES),
       st.booleans())
def test_convert_labels_equals_steps(labels, profile, idn):
    assert engine.convert_labels_by_table(labels, profile, idn) == steps.convert_labels(labels, profile, idn)


@given(st.one_of(host_text, any_text))
def test_bidi_equals_steps(s):
    for version in ('latest', '3.2'):
        assert engine.bidi_step_by_flags(s, version) == nameprep_steps.bidi_step(s, version)


def test_idn_names_on_sample_hosts():
    for h in hosts_to_check():
        for s in {h, h.upper(), steps.percent_decode_utf8(h)}:
            if engine.is_idn_name(s):
                for scheme in (None, 'file'):
                    assert engine.canonicalize_idn_name(s, scheme) == steps.canonicalize_host_steps(s, scheme), s


@given(host_text, st.sampled_from([None, 'file', 'http']))
def test_idn_name_equals_steps(s, scheme):
    if engine.is_idn_name(s):
        assert engine.canonicalize_idn_name(s, scheme) == steps.canonicalize_host_steps(s, scheme)


@given(st.one_of(host_text, ascii_name, any_text), st.sampled_from(PROFILES), st.sampled_from([None, 'file', 'http']))
def test_canonicalize_name_equals_steps(s, profile, scheme):
    assert engine.canonicalize_name(s, scheme, profile) == steps.canonicalize_host_steps(s, scheme, profile)


def test_this_host_on_sample_hosts():
    "`canonicalize_this_host` is THIS's steps on every conformance host, as written, in upper case and encoded."
    for h in hosts_to_check():
        for s in {h, h.upper(), h.replace('.', '%2E', 1), '\t' + h}:
            for scheme in (None, 'file'):
                assert engine.canonicalize_this_host(s, scheme) == steps.canonicalize_host_steps(s, scheme), s


routing_text = st.lists(st.one_of(SCRIPTS, st.sampled_from(['%', '%41', '%C3%BC', '%5B', '\t', '[', ']', ':',
                                                            '_', '@', ' ', '::1', '1.2']),
                                  st.text(any_char, max_size=2)), max_size=10).map(''.join)


@given(st.one_of(routing_text, any_text), st.sampled_from([None, 'file', 'http']))
def test_this_host_equals_steps(s, scheme):
    assert engine.canonicalize_this_host(s, scheme) == steps.canonicalize_host_steps(s, scheme)


def test_canonicalize_name_on_sample_hosts():
    for h in hosts_to_check():
        for s in {h, h.upper()}:
            for p in PROFILES:
                assert engine.canonicalize_name(s, 'http', p) == steps.canonicalize_host_steps(s, 'http', p), \
                    (s, p.name)


def test_nfkc_by_length_equals_steps():
    "Below 256 characters and beyond, with runs of marks, compatibility characters and new code points."
    import random
    rng = random.Random(7)
    pool = 'aAé\u0301\u0316\u0323\u0345\u0307\u05b0\u0b47\u0b3e\u1100\u1161\u11a8\uac00\uff21\u2075\ufb01\u0340' \
           '\u0f73\u3099\u304b\uff76\uff9e\U0001d15e\U0002f868\U0001f100\u023a'
    texts = [''.join(rng.choice(pool) for _ in range(rng.choice([0, 1, 5, 40, 255, 256, 300])))
             for _ in range(600)]
    for s in texts:
        for version in ('latest', '3.2'):
            assert engine.nfkc_by_length(s, version) == nameprep_steps.nfkc(s, version), (s, version)


@given(st.one_of(host_text, st.text(any_char, max_size=70)))
def test_punycode_label_by_encoder_equals_steps(label):
    assert engine.punycode_label_by_encoder(label) == steps.punycode_label(label)


def test_punycode_label_by_encoder_on_sample_labels():
    labels = {label for h in hosts_to_check() for label in steps.percent_decode_utf8(h).split('.')}
    for label in labels:
        assert engine.punycode_label_by_encoder(label) == steps.punycode_label(label), label


def test_learning_table_equals_its_function():
    """A `LearningTable` translates as its function does, character by character: on code points of every
    plane, met once and again, with a bound small enough that the table starts again many times."""
    import random
    rng = random.Random(1 << 16)
    text = ''.join(chr(rng.choice([rng.randint(0, 0x2ff), rng.randint(0, 0xffff), rng.randint(0, 0x10ffff)]))
                   for _ in range(3000))
    text += text[:1000]
    for fn in (nameprep_steps.b1_b2_map, engine.code_point_flags, engine.plain_map):
        table = engine.LearningTable(fn, bound=300)
        assert text.translate(table) == ''.join(map(fn, text)), fn.__name__
        assert len(table) <= 300
