"""Derive the package data `weburl_nb/data/whatwg_encoding.zip` from the WHATWG Encoding Standard.

Source: ../shared/data/whatwg-encoding (the files of the public repository whatwg/encoding at
commit a985b62: `index-*.txt` and `encodings.json`), licensed CC BY 4.0
(https://creativecommons.org/licenses/by/4.0/), copyright WHATWG (Apple, Google, Mozilla,
Microsoft). Run from the project root:

    python tools/make_encoding_data.py [SOURCE_DIR]

The archive holds, uncompressed as one would read them, per index the code point of each
pointer and nothing else (no encoder rule lives here; the rules are in nbs/05a_encodings.ipynb):

- `index-NAME.u32`: little-endian unsigned 32-bit code points, the value at position *p* being
  the index's code point for pointer *p*, or 0 where the index has no pointer *p* (U+0000 is in
  no index);
- `index-gb18030-ranges.u32`: the pairs (pointer, code point) of that index, in its order;
- `labels.tsv`: one `label<TAB>encoding name` line per label of `encodings.json`, in its order.

The output is byte-for-byte reproducible: members are sorted and carry a fixed date.
`index-jis0212.txt` is left out: only the EUC-JP decoder reads it, and we need encoders only.
"""
from __future__ import annotations

import json
import sys
import zipfile
from array import array
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = ROOT.parent / 'shared' / 'data' / 'whatwg-encoding'
TARGET = ROOT / 'weburl_nb' / 'data' / 'whatwg_encoding.zip'
SKIP = {'index-jis0212.txt'}
COMMENT = (b'Derived by tools/make_encoding_data.py from the WHATWG Encoding Standard '
           b'(whatwg/encoding a985b62), CC BY 4.0, https://creativecommons.org/licenses/by/4.0/')


def read_index(path: Path) -> list[tuple[int, int]]:
    "The (pointer, code point) rows of an index file, comments and blank lines skipped."
    rows = []
    for line in path.read_text(encoding='utf-8').split('\n'):
        if line.strip() and not line.lstrip().startswith('#'):
            pointer, code_point = line.split('\t')[:2]
            rows.append((int(pointer), int(code_point, 16)))
    return rows


def members(source: Path) -> dict[str, bytes]:
    "Every member of the archive, by name."
    out = {}
    for path in sorted(source.glob('index-*.txt')):
        if path.name in SKIP:
            continue
        rows = read_index(path)
        if path.name == 'index-gb18030-ranges.txt':
            values = array('I', [v for row in rows for v in row])
        else:
            values = array('I', [0]) * (max(p for p, _ in rows) + 1)
            for pointer, code_point in rows:
                values[pointer] = code_point
        if sys.byteorder != 'little':
            values.byteswap()
        out[path.stem + '.u32'] = values.tobytes()
    groups = json.loads((source / 'encodings.json').read_text(encoding='utf-8'))
    labels = [f'{label}\t{enc["name"]}\n' for group in groups
              for enc in group['encodings'] for label in enc['labels']]
    out['labels.tsv'] = ''.join(labels).encode('ascii')
    return out


def write(target: Path, data: dict[str, bytes]) -> None:
    with zipfile.ZipFile(target, 'w') as z:
        z.comment = COMMENT
        for name in sorted(data):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data[name], compresslevel=9)


if __name__ == '__main__':
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_SOURCE
    data = members(source)
    write(TARGET, data)
    print(f'{TARGET.relative_to(ROOT)}: {len(data)} members, '
          f'{sum(map(len, data.values()))} bytes -> {TARGET.stat().st_size} bytes')
