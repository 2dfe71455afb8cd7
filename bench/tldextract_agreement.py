"""Registrable domains against tldextract 5.x: how often `registrable_domain` and tldextract agree,
and why they differ where they do.

    python bench/tldextract_agreement.py                 # the table (data: $WEBURL_BENCHDATA)
    python bench/tldextract_agreement.py --show 3        # and three examples of each class
    python bench/tldextract_agreement.py --json out.json

tldextract runs offline on the snapshot of the list it ships (`suffix_list_urls=()`, no cache
directory), ICANN section alone and with the private section (`include_psl_private_domains`), as
`registrable_domain(..., icann_only=)` does. Two comparisons, per corpus:

- **same host**: tldextract given our canonical URL. Both read one host; a difference is about the
  list (its version; the rule `*` for a TLD the list does not name, which tldextract does not apply).
  The unit is a distinct canonical host.
- **as written**: tldextract given the URL as the corpus has it (a link resolved with `urljoin`), the
  way a program using it beside another canonicalizer calls it. A difference is then also about what
  a host is: IDN, IP address forms, a final dot, and what tldextract does not canonicalize (escapes,
  backslashes, spaces, upper case). The unit is a distinct input URL.

The corpora: `absolute.txt`, `hrefs.tsv` (every link with its page), the messy corpus of
`bench/messy.py` (seeds 18 and 26), and hosts made from every name of the list's rules (the name, a
label under it, and `www.` under that), where wildcard bases and the lists' versions show. Inputs without a canonical URL or without a host are left out:
neither function has anything to say of them. Needs the `bench` extra (tldextract, publicsuffixlist).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter, defaultdict
from importlib import resources
from pathlib import Path
from urllib.parse import urljoin

import tldextract

sys.path.insert(0, str(Path(__file__).resolve().parent))
import messy

from weburl_nb.entry import url_to_canon_url
from weburl_nb.site_keys import _IPV4, _ascii_name, canonical_host, parse_suffix_list, site_parts, suffix_list, suffix_start

DATA = Path(os.environ.get('WEBURL_BENCHDATA') or Path(__file__).resolve().parents[2] / 'shared' / 'bench')
TARGET = 0.995
UNLISTED = 'TLD not in the list: the rule `*` (tldextract: none)'


def corpora(data: Path) -> dict[str, list[tuple[str, str | None, str | None, str]]]:
    "Per corpus, its items `(url, base, charset, as written)`."
    absolute = [u for u in (data / 'absolute.txt').read_text(encoding='utf-8').split('\n') if u]
    pairs = [line.split('\t') for line in (data / 'hrefs.tsv').read_text(encoding='utf-8').split('\n')]
    hrefs = []
    for page, href in (p for p in pairs if len(p) == 2):
        try:
            written = urljoin(page, href)
        except ValueError:                      # urljoin refuses some links (bad brackets)
            written = href
        hrefs.append((href, page, None, written))
    messy_items = [(u, None, cs, u) for seed in (18, 26) for _, u, cs in messy.generate(data, seed)]
    return {'absolute.txt': [(u, None, None, u) for u in absolute], 'hrefs.tsv': hrefs,
            'messy (seeds 18, 26)': messy_items, "the list's own names": list_hosts()}


def list_hosts() -> list[tuple[str, str | None, str | None, str]]:
    "A URL for every name of the list's rules, and one for a label under it (`*` made a label)."
    psl, urls = suffix_list(), []
    for name in sorted(psl.both.plain | psl.both.wildcard | psl.both.exception):
        for host in (name, 'x.' + name, 'www.x.' + name):
            urls.append(f'http://{host}/')
    return [(u, None, None, u) for u in urls]


def theirs(ext: tldextract.TLDExtract, url: str) -> str | None:
    "tldextract's registrable domain of `url`; `None` for none."
    try:
        return ext(url).top_domain_under_public_suffix or None
    except Exception as e:
        return f'<{type(e).__name__}>'


def their_list():
    "tldextract's snapshot, read by our steps: what the list version alone explains."
    text = (resources.files('tldextract') / '.tld_set_snapshot').read_text(encoding='utf-8')
    return parse_suffix_list(text)


def ours_with(rules, host: str) -> str | None:
    "The registrable domain of a canonical name `host` under `rules` (steps 2-7)."
    name = _ascii_name(host.rstrip('.')).lower()
    start = suffix_start(name, rules)
    return name[name.rfind('.', 0, start - 1) + 1:] if start else None


def same_host_class(host: str, ours: str | None, them: str | None, old_rules, private: bool) -> str:
    "Why tldextract, given our canonical host, differs."
    if them is not None and them.startswith('<'):
        return 'tldextract raised an exception'
    if host.endswith('.'):
        return 'trailing dot (kept by the URL Standard, dropped by tldextract)'
    rules = suffix_list().both if private else suffix_list().icann
    if host in rules.wildcard:
        return 'a wildcard base (`kawasaki.jp` under `*.kawasaki.jp`): read by the algorithm here'
    if ours_with(old_rules, host) == them:
        return "list version (tldextract's snapshot is older)"
    name = _ascii_name(host.rstrip('.')).lower()
    if suffix_start(name, rules) == name.rfind('.') + 1 and name.rpartition('.')[2] not in rules.plain:
        return UNLISTED
    if them is None and name.rpartition('.')[2] not in old_rules.plain:
        return "list version: a TLD newer than tldextract's snapshot, which has no rule `*`"
    return 'other'


def as_written_class(written: str, host: str, ours: str | None, them: str | None,
                     same: str | None) -> str:
    "Why tldextract, given the URL as written, differs."
    if them is not None and them.startswith('<'):
        return 'tldextract raised an exception'
    if host.startswith('[') or _IPV4.fullmatch(host):
        return 'IP address (ours: none; tldextract reads another form as a name)'
    if them is not None and _ascii_name(them.lower()) == ours:
        return ('IDN: tldextract keeps the Unicode form' if not them.isascii()
                else 'upper case: tldextract keeps it')
    if host.endswith('.'):
        return 'trailing dot (kept by the URL Standard, dropped by tldextract)'
    if same != ours:
        return 'the list (as in the same-host comparison)'
    if not written.isascii():
        return 'IDN: not mapped by tldextract (Unicode, full stops, width)'
    return 'not canonicalized by tldextract (escapes, backslashes, spaces, case, IPv4 forms)'


def compare(data: Path, show: int = 0) -> dict:
    "The agreement table and the classes of the differences, ICANN and private."
    old = their_list()
    out: dict = {'tldextract': tldextract.__version__, 'their_list': old.version,
                 'our_list': suffix_list().version, 'package': suffix_list().package, 'corpora': {}}
    for corpus, items in corpora(data).items():
        for private in (False, True):
            ext = tldextract.TLDExtract(cache_dir=None, suffix_list_urls=(),
                                        include_psl_private_domains=private)
            same_hosts: dict[str, tuple] = {}
            written_rows: dict[str, tuple] = {}
            for url, base, charset, written in items:
                canon = url_to_canon_url(url, base, charset)
                host = None if canon is None else canonical_host(canon)
                if host is None:
                    continue
                ours = site_parts(host, icann_only=not private).domain
                if host not in same_hosts:
                    them = theirs(ext, canon)
                    same_hosts[host] = (ours, them, same_host_class(host, ours, them, old.both
                                                                     if private else old.icann, private)
                                        if ours != them else None)
                if written not in written_rows:
                    them_w = theirs(ext, written)
                    cls = (None if them_w == ours else
                           as_written_class(written, host, ours, them_w, same_hosts[host][1]))
                    written_rows[written] = (host, ours, them_w, cls)
            key = f'{corpus} / {"private" if private else "ICANN"}'
            row = {}
            for name, rows, cls_at in (('same host', same_hosts, 2), ('as written', written_rows, 3)):
                classes = Counter(r[cls_at] for r in rows.values() if r[cls_at] is not None)
                examples = defaultdict(list)
                for k, r in rows.items():
                    if r[cls_at] is not None and len(examples[r[cls_at]]) < show:
                        examples[r[cls_at]].append((k, *r[:cls_at]))
                n, differ = len(rows), sum(classes.values())
                row[name] = {'units': n, 'identical': n - differ, 'share': (n - differ) / max(n, 1),
                             'classes': dict(classes.most_common()), 'examples': dict(examples)}
            out['corpora'][key] = row
    return out


def report(res: dict) -> str:
    "The table as Markdown, then the classes."
    lines = [f"tldextract {res['tldextract']} (its list: {res['their_list']}) against registrable_domain "
             f"(the list {res['our_list']}, publicsuffixlist {res['package']})", '',
             '| corpus / section | same host: identical | same host, TLD in the list | as written: identical |',
             '|---|---|---|---|']
    for key, row in res['corpora'].items():
        same, written = row['same host'], row['as written']
        unlisted = same['classes'].get(UNLISTED, 0)
        listed = (same['identical'] / max(1, same['units'] - unlisted))
        cells = [f"{r['identical']:,} of {r['units']:,} ({100 * r['share']:.2f}%)"
                 + ('' if r['share'] >= TARGET else ' **below 99.5%**') for r in (same, written)]
        lines.append(f"| {key} | {cells[0]} | {same['identical']:,} of {same['units'] - unlisted:,} "
                     f"({100 * listed:.2f}%) | {cells[1]} |")
    for key, row in res['corpora'].items():
        for name in ('same host', 'as written'):
            r = row[name]
            if r['classes']:
                lines.append(f'\n{key}, {name}: {r["units"] - r["identical"]:,} differences')
                for cls, n in r['classes'].items():
                    lines.append(f'  {n:>6,}  {cls}')
                    for ex in r['examples'].get(cls, []):
                        lines.append(f'          {ex!r}')
    return '\n'.join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--data', type=Path, default=DATA)
    ap.add_argument('--show', type=int, default=0, help='examples of each class')
    ap.add_argument('--json', type=Path, help='write the figures here')
    args = ap.parse_args(argv)
    res = compare(args.data, args.show)
    print(report(res))
    if args.json:
        args.json.write_text(json.dumps(res, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    return 0


if __name__ == '__main__':
    sys.exit(main())
