"""The messy corpus of issue 18: real absolute URLs, each given 1-3 of the faults real pages carry.

    python bench/messy.py --seed 18                  # a summary: inputs per kind, outputs that differ
    python bench/messy.py --seed 18 --show 3         # and three examples of each kind

The corpus is generated at bench time from the real corpora of the data folder (`absolute.txt`, and the
bases of `hrefs.tsv`), never stored in the project. Everything random comes from one `random.Random(seed)`,
so a seed names a corpus. Each generated URL has a *kind*, its first fault (the one it is reported under),
and 0-2 further faults drawn from the kinds that touch other parts of the URL; the kinds take turns, so
each has about the same number of URLs. Kinds that need a document charset (`long query`) give one.

An item is `(kind, url, charset)`. The kinds (`KINDS`, in the order the report prints them):

- IDN host: a label replaced or prefixed by a non-ASCII word, or a letter by an accented one
- bracketed IPv6: the host an IPv6 literal in brackets, in the forms pages write (zeros, case, `::`, IPv4 tail)
- non-ASCII path/query/fragment: words of several scripts in a segment, a query value or the fragment
- IPv4 forms: dotted decimal with leading zeros, octal, hexadecimal, one number, short forms, a final dot
- space: spaces inside the path, query or fragment, or around the URL
- backslashes: `\\` for some `/` of the path, or after the scheme
- dot segments: `.` and `..` segments in the path
- upper case: the scheme and the host (or a part of them) in upper case
- escaped unreserved: letters, digits, `-._~` of the path written as `%XX` (either case of hex digit)
- default port / empty query: the scheme's default port, an empty query, an empty fragment
- tab/newline: TAB, LF or CR inside the URL (a copy-paste over lines)
- userinfo `:@`: an empty user or password (`user:@`, `:@`, `@`) before the host
- mixed-case escapes: non-ASCII path characters escaped as UTF-8 with the hex in either case, `%2f`, `%3a`
- `%2e` segments: dot segments spelled `%2e`, `%2E%2e`, `.%2E`
- file: / Windows: `file:` URLs (drive letters, `|`, `localhost`) and Windows and UNC paths built on the path
- long query: 10-40 parameters joined by `&`, words joined by `+`, some non-ASCII, in a legacy charset
"""
from __future__ import annotations

import argparse
import os
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = os.environ.get('WEBURL_BENCHDATA') or str(ROOT.parent / 'shared' / 'bench')
DEFAULT_SEED = 18
SECOND_SEED = 1018
DEFAULT_COUNT = 16_000

_URL_RE = re.compile(r'([A-Za-z][A-Za-z0-9+.\-]*)://([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#(.*))?\Z', re.DOTALL)

# Words pages carry, in several scripts (host labels are lowercased by Nameprep: some are given upper case).
WORDS = ['bücher', 'müller', 'café', 'résumé', 'straße', 'Zürich', 'ÉCOLE', 'niño', 'smörgås', 'łódź',
         'пример', 'москва', 'ΑΘΗΝΑ', 'ελλάδα', '日本語', '東京', '中国', '例え', 'テスト', '한국',
         'مثال', 'שלום', 'हिन्दी', 'ไทย', 'việt', 'İstanbul', 'ﬁnance', 'ｆｕｌｌ', 'ǅemal', '😀']
HOST_WORDS = [w for w in WORDS if w not in ('😀', 'שלום', 'مثال')]      # bidi, emoji: mostly invalid
ACCENTS = {'a': 'áàâäå', 'e': 'éèêë', 'i': 'íìîï', 'o': 'óòôöø', 'u': 'úùûü', 'n': 'ñ', 'c': 'ç', 's': 'ß'}
CHARSETS = ['shift_jis', 'euc-jp', 'windows-1252', 'iso-8859-2', 'gbk', 'euc-kr', 'big5', 'koi8-r',
            'windows-1251', 'iso-8859-15', 'gb18030', 'utf-8']
DEFAULT_PORTS = {'http': '80', 'https': '443', 'ftp': '21', 'ws': '80', 'wss': '443'}
SLASHES = '/\\'
UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~'


class Parts:
    "A URL being mutated, component by component; `form` says how it is written out."
    __slots__ = ('scheme', 'sep', 'user', 'password', 'host', 'port', 'path', 'query', 'fragment', 'form',
                 'charset', 'around')

    def __init__(self, scheme, host, path, query, fragment):
        self.scheme, self.sep, self.host, self.path = scheme, '://', host, path
        self.user = self.password = self.port = self.charset = None
        self.query, self.fragment, self.form, self.around = query, fragment, 'url', ('', '')

    def text(self) -> str:
        tail = ('' if self.query is None else '?' + self.query) + \
               ('' if self.fragment is None else '#' + self.fragment)
        if self.form == 'windows':                       # C:\dir\file
            return self.around[0] + self.path + tail + self.around[1]
        auth = ''
        if self.user is not None or self.password is not None:
            auth = (self.user or '') + ('' if self.password is None else ':' + self.password) + '@'
        port = '' if self.port is None else ':' + self.port
        return self.around[0] + self.scheme + self.sep + auth + self.host + port + self.path + tail + self.around[1]


def split(url: str) -> Parts | None:
    "A real URL as `Parts` (its user-info and port kept), or `None` for one of another shape."
    m = _URL_RE.match(url)
    if m is None:
        return None
    scheme, authority, path, query, fragment = m.groups()
    p = Parts(scheme, authority, path, query, fragment)
    userinfo, at, hostport = authority.rpartition('@')
    if at:
        p.user, colon, password = userinfo.partition(':')
        p.password = password if colon else None
    host, colon, port = hostport.rpartition(':')
    if colon and port.isdigit():
        p.host, p.port = host, port
    else:
        p.host = hostport
    return p if p.host else None


def _segments(p: Parts) -> list[str]:
    return p.path.split('/') if p.path else ['']


def _insert_segment(p: Parts, rng: random.Random, seg: str) -> None:
    "`seg` put between two segments of the path (or at its end)."
    segs = _segments(p)
    i = rng.randint(1, max(1, len(segs)))
    segs.insert(i, seg)
    p.path = '/'.join(segs) if segs[0] == '' else '/' + '/'.join(segs)


def _word(rng, words=WORDS) -> str:
    return rng.choice(words)


# --- the faults: each changes `p` in place ------------------------------------------------------------

def idn_host(p, rng):
    labels = p.host.split('.')
    how = rng.randrange(4)
    if how == 0 and len(labels) > 1:                    # a label replaced
        labels[rng.randrange(len(labels) - 1)] = _word(rng, HOST_WORDS)
    elif how == 1:                                      # a label in front
        labels.insert(0, _word(rng, HOST_WORDS))
    elif how == 2:                                      # a letter accented
        i = rng.randrange(len(labels[0]) or 1)
        first = labels[0]
        if first and first[i:i + 1] in ACCENTS:
            labels[0] = first[:i] + rng.choice(ACCENTS[first[i]]) + first[i + 1:]
        else:
            labels[0] = first + rng.choice('äöüéñ')
    else:                                               # a word label and an ideographic full stop
        labels.insert(0, _word(rng, HOST_WORDS))
        p.host = labels[0] + rng.choice(['.', '\u3002', '\uff0e']) + '.'.join(labels[1:])
        return
    p.host = '.'.join(labels)


def ipv6_host(p, rng):
    groups = [f'{rng.randrange(0x10000):x}' for _ in range(8)]
    how = rng.randrange(6)
    if how == 0:
        text = ':'.join(g.zfill(4) for g in groups).upper()            # full, leading zeros, upper case
    elif how == 1:
        text = '2001:db8::' + ':'.join(groups[:rng.randint(1, 3)])     # compressed
    elif how == 2:
        text = rng.choice(['::1', '::', '0:0:0:0:0:0:0:1', 'FE80::1', 'fe80:0:0:0::abcd'])
    elif how == 3:
        text = f'::ffff:{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)}'
    elif how == 4:
        text = ':'.join(groups[:3]) + '::' + groups[7].upper()
    else:
        text = ':'.join(groups[:2]) + ':0:0:' + ':'.join(groups[4:])     # zeros the canonical form compresses
    p.host = '[' + text + ']'


def non_ascii_pqf(p, rng):
    where = rng.randrange(3)
    if where == 0:
        _insert_segment(p, rng, _word(rng) + rng.choice(['', '.html', '-' + _word(rng)]))
    elif where == 1:
        q = f'{rng.choice(["q", "s", "name", "title"])}={_word(rng)}'
        p.query = q if not p.query else p.query + '&' + q
    else:
        p.fragment = _word(rng) + rng.choice(['', '_' + _word(rng)])


def ipv4_host(p, rng):
    a = [rng.randrange(256) for _ in range(4)]
    how = rng.randrange(7)
    if how == 0:
        text = '.'.join(f'{x:03d}' for x in a)                          # leading zeros (octal!)
    elif how == 1:
        text = '.'.join(f'0{x:o}' for x in a)                           # octal
    elif how == 2:
        text = '.'.join(rng.choice(['0x%x', '0X%X', '%d']) % x for x in a)
    elif how == 3:
        text = str(int.from_bytes(bytes(a), 'big'))                     # one number
    elif how == 4:
        text = f'{a[0]}.{a[1] << 16 | a[2] << 8 | a[3]}'                # a.b
    elif how == 5:
        text = rng.choice(['127.1', '127.0.0.1.', '0x7f.1', '10.0.0.1.', '192.168.1'])
    else:
        text = '.'.join(map(str, a)) + '.'                              # a final dot
    p.host = text


def space(p, rng):
    how = rng.randrange(4)
    if how == 0:
        _insert_segment(p, rng, rng.choice(['a b', 'my file.pdf', ' x', 'New Folder ']))
    elif how == 1:
        p.query = (p.query + '&' if p.query else '') + rng.choice(['q=a b', 'x= ', 'title=Hello World'])
    elif how == 2:
        p.fragment = rng.choice(['see also', 'a b c', ' top'])
    else:
        p.around = (rng.choice(['', ' ', '  ', '\x0c']), rng.choice([' ', '  ', '\x0b ']))


def backslashes(p, rng):
    if rng.random() < 0.3:
        p.sep = rng.choice([':\\\\', ':/\\', ':\\/'])
    if p.path.count('/') < 2:
        p.path += '/' + rng.choice(['a', 'index.html', 'docs/x'])
    chars = list(p.path)
    slashes = [i for i, c in enumerate(chars) if c == '/']
    for i in rng.sample(slashes, rng.randint(1, len(slashes))):
        chars[i] = '\\'
    p.path = ''.join(chars)


def dot_segments(p, rng):
    for _ in range(rng.randint(1, 2)):
        how = rng.randrange(4)
        if how == 0:
            _insert_segment(p, rng, '.')
        elif how == 1:
            _insert_segment(p, rng, '..')
        elif how == 2:
            _insert_segment(p, rng, rng.choice(['x/..', 'a/b/../..', './.']))
        else:
            p.path = (p.path or '/') + rng.choice(['/.', '/..', '/./', '/../'])


def upper_case(p, rng):
    how = rng.randrange(3)
    if how != 1:
        p.scheme = p.scheme.upper() if rng.random() < 0.7 else p.scheme.capitalize()
    if how != 0:
        labels = p.host.split('.')
        i = rng.randrange(len(labels))
        labels[i] = labels[i].upper()
        if rng.random() < 0.5:
            labels = [x.capitalize() for x in labels]
        p.host = '.'.join(labels)


def escaped_unreserved(p, rng):
    if not any(c in UNRESERVED for c in p.path):
        p.path += '/' + rng.choice(['docs', 'index.html', 'a-b_c~d'])
    chars = list(p.path)
    spots = [i for i, c in enumerate(chars) if c in UNRESERVED]
    for i in rng.sample(spots, min(len(spots), rng.randint(1, 4))):
        h = f'%{ord(chars[i]):02X}'
        chars[i] = h if rng.random() < 0.6 else h.lower()
    p.path = ''.join(chars)


def default_port(p, rng):
    how = rng.randrange(4)
    if how != 1:
        p.port = DEFAULT_PORTS.get(p.scheme.lower(), '80')
        if rng.random() < 0.2:
            p.port = '0' + p.port
    if how != 0:
        if p.query is None and rng.random() < 0.7:
            p.query = ''
        elif p.fragment is None:
            p.fragment = ''
        else:
            p.port = DEFAULT_PORTS.get(p.scheme.lower(), '80')


def tab_newline(p, rng):
    for _ in range(rng.randint(1, 2)):
        c = rng.choice(['\t', '\n', '\r\n', '\n  '.rstrip(' ')])
        where = rng.randrange(3)
        if where == 0 and len(p.path) > 1:
            i = rng.randrange(1, len(p.path))
            p.path = p.path[:i] + c + p.path[i:]
        elif where == 1:
            i = rng.randrange(len(p.host) + 1)
            p.host = p.host[:i] + c + p.host[i:]
        else:
            p.around = (p.around[0], p.around[1] + c)


def userinfo(p, rng):
    p.user, p.password = rng.choice([('user', ''), ('', ''), ('', None), ('anonymous', ''),
                                     ('user', 'pass'), ('', 'x'), ('me@example.com', '')])


def mixed_case_escapes(p, rng):
    word = _word(rng, [w for w in WORDS if not w.isascii()])
    esc = ''.join(f'%{b:02X}' if rng.random() < 0.5 else f'%{b:02x}' for b in word.encode('utf-8'))
    extra = rng.choice(['', '%2f', '%3a', '%2F', '%3A', '%25', '%7e'])
    _insert_segment(p, rng, esc + extra)


def pct2e_segments(p, rng):
    _insert_segment(p, rng, rng.choice(['%2e', '%2E', '%2e%2e', '%2E%2e', '.%2E', '%2e.', 'x/%2e%2e']))


def file_windows(p, rng):
    path = p.path if p.path not in ('', '/') else '/index.html'
    drive = rng.choice('CcDdZ')
    how = rng.randrange(6)
    p.user = p.password = p.port = None
    if how == 0:
        p.scheme, p.host, p.path = 'file', '', f'/{drive}:{path}'
    elif how == 1:
        p.scheme, p.host, p.path = 'file', '', f'/{drive}|{path}'
    elif how == 2:
        p.scheme, p.host = rng.choice(['file', 'FILE']), 'localhost'
    elif how == 3:
        sep = rng.choice(SLASHES)
        p.scheme, p.sep, p.host, p.path = 'file', ':', '', drive + ':' + path.replace('/', sep)
    elif how == 4:
        p.form, p.path = 'windows', drive + ':' + path.replace('/', '\\')
    else:
        p.form, p.path = 'windows', '\\\\' + p.host.split('.')[0] + path.replace('/', '\\')


def long_query(p, rng):
    params = []
    for _ in range(rng.randint(10, 40)):
        words = [rng.choice(['search', 'term', 'a', 'b', 'page', '2', 'news', 'x-y', _word(rng)])
                 for _ in range(rng.randint(1, 4))]
        params.append(f'{rng.choice(["q", "s", "f", "utm_source", "id", "lang", "k"])}={"+".join(words)}')
    p.query = '&'.join(params)
    p.charset = rng.choice(CHARSETS)


# kind -> (fault, parts of the URL it changes: two faults of one URL touch different parts)
KINDS = {
    'IDN host': (idn_host, {'host'}),
    'bracketed IPv6': (ipv6_host, {'host'}),
    'non-ASCII path/query/fragment': (non_ascii_pqf, {'path', 'query'}),
    'IPv4 forms': (ipv4_host, {'host'}),
    'space': (space, {'path', 'around'}),
    'backslashes': (backslashes, {'path', 'sep'}),
    'dot segments': (dot_segments, {'path'}),
    'upper case': (upper_case, {'host', 'scheme'}),
    'escaped unreserved': (escaped_unreserved, {'path'}),
    'default port / empty query': (default_port, {'port', 'query'}),
    'tab/newline': (tab_newline, {'around'}),
    'userinfo :@': (userinfo, {'userinfo'}),
    'mixed-case escapes': (mixed_case_escapes, {'path'}),
    '%2e segments': (pct2e_segments, {'path'}),
    'file: / Windows': (file_windows, {'scheme', 'host', 'sep', 'port', 'userinfo'}),
    'long query': (long_query, {'query'}),
}


def source_urls(data: Path) -> list[str]:
    "The real absolute URLs: `absolute.txt` and the bases of `hrefs.tsv`, deduplicated, in a fixed order."
    urls = set()
    with open(data / 'absolute.txt', encoding='utf-8', newline='\n') as f:
        urls.update(line.rstrip('\n') for line in f if line.strip())
    hrefs = data / 'hrefs.tsv'
    if hrefs.is_file():
        with open(hrefs, encoding='utf-8', newline='\n') as f:
            urls.update(line.partition('\t')[0] for line in f if '://' in line.partition('\t')[0])
    return sorted(urls)


def generate(data: Path | str = DEFAULT_DATA, seed: int = DEFAULT_SEED,
             count: int = DEFAULT_COUNT) -> list[tuple[str, str, str | None]]:
    "`count` items `(kind, url, charset)` from the real URLs of `data`, all chosen by `random.Random(seed)`."
    rng = random.Random(seed)
    real = [p for p in map(split, source_urls(Path(data))) if p is not None]
    kinds = list(KINDS)
    items = []
    for i in range(count):
        kind = kinds[i % len(kinds)]
        src = rng.choice(real)
        p = split(src.text())                           # a fresh copy
        chosen, touched = [kind], set(KINDS[kind][1])
        for _ in range(rng.choice([0, 1, 1, 2]) if rng.random() < 0.75 else 0):
            others = [k for k in kinds if k not in chosen and not (KINDS[k][1] & touched)]
            if not others:
                break
            k = rng.choice(others)
            chosen.append(k)
            touched |= KINDS[k][1]
        for k in chosen:
            KINDS[k][0](p, rng)
        items.append((kind, p.text(), p.charset))
    return items


def summary(items, canon=None) -> dict:
    "Per kind: the number of items and the share whose canonical form differs from the input."
    if canon is None:
        from weburl_nb import url_to_canon_url as canon
    out = {}
    for kind, url, charset in items:
        row = out.setdefault(kind, {'count': 0, 'differ': 0, 'invalid': 0})
        row['count'] += 1
        c = canon(url, None, charset)
        row['differ'] += c != url
        row['invalid'] += c is None
    total = {k: sum(r[k] for r in out.values()) for k in ('count', 'differ', 'invalid')}
    return {'kinds': out, 'total': total, 'differ_share': total['differ'] / max(1, total['count'])}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--data', default=DEFAULT_DATA, help='folder with absolute.txt (and hrefs.tsv)')
    ap.add_argument('--seed', type=int, default=DEFAULT_SEED, help=f'the corpus seed (default {DEFAULT_SEED})')
    ap.add_argument('--count', type=int, default=DEFAULT_COUNT, help=f'URLs (default {DEFAULT_COUNT:,})')
    ap.add_argument('--show', type=int, default=0, help='print this many examples of each kind')
    ap.add_argument('--write', help='write the items to this file (kind TAB charset TAB repr(url))')
    args = ap.parse_args(argv)
    items = generate(args.data, args.seed, args.count)
    s = summary(items)
    print(f'messy corpus, seed {args.seed}: {len(items):,} URLs; canonical form differs from the input for '
          f'{s["differ_share"]:.1%} (invalid: {s["total"]["invalid"]:,})')
    for kind, row in s['kinds'].items():
        print(f'  {kind:<32}{row["count"]:>7,}  differ {row["differ"] / row["count"]:>6.1%}  '
              f'invalid {row["invalid"] / row["count"]:>6.1%}')
    if args.show:
        from weburl_nb import url_to_canon_url
        shown = {}
        for kind, url, charset in items:
            if shown.get(kind, 0) < args.show:
                shown[kind] = shown.get(kind, 0) + 1
                print(f'{kind}: {url!r}' + (f' [{charset}]' if charset else '')
                      + f'\n    -> {url_to_canon_url(url, None, charset)!r}')
    if args.write:
        with open(args.write, 'w', encoding='utf-8') as f:
            for kind, url, charset in items:
                f.write(f'{kind}\t{charset or ""}\t{url!r}\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
