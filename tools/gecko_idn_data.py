"""Make weburl_nb/gecko_idn.json, the Gecko IDN lists of the host algorithm's step 20.1.

Source: ../shared/data/gecko-idn-whitelist-tlds.txt (the TLDs set to true by
`network.IDN.whitelist.*` in Firefox's default preferences of 2011) and
../shared/data/gecko-idn-blacklist-chars.txt (Firefox's `network.IDN.blacklist_chars`
preference), both from Mozilla's Firefox source (modules/libpref/init/all.js),
licensed under the Mozilla Public License 2.0. The spec names them [WHITELIST] and
[BLACKLIST]. The package reads only the JSON this script writes, never ../shared.

    python tools/gecko_idn_data.py [SHARED_DATA_DIR]
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "weburl_nb" / "gecko_idn.json"


def _lines(path: Path) -> list[str]:
    "The non-comment, non-empty lines of a list file."
    text = path.read_text(encoding="utf-8")
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


def main(argv: list[str]) -> int:
    src = Path(argv[0]) if argv else ROOT.parent / "shared" / "data"
    tlds = sorted(set(t.lower() for t in _lines(src / "gecko-idn-whitelist-tlds.txt")))
    chars = "".join(sorted(set(chr(int(h, 16)) for h in _lines(src / "gecko-idn-blacklist-chars.txt"))))
    data = {
        "source": "Firefox default preferences (modules/libpref/init/all.js): "
                  "network.IDN.whitelist.* (2011) and network.IDN.blacklist_chars; "
                  "Mozilla Public License 2.0; made by tools/gecko_idn_data.py",
        "whitelist_tlds": tlds,
        "blacklist_chars": chars,
    }
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(tlds)} TLDs, {len(chars)} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
