"""The functions on the engine's route, and whether each is a piece or a registered part of one.

`url_to_canon_url` runs through the engine modules (`engine_*.py`), `shortcuts` and `entry`. Every
function of theirs that runs must be a piece of `tools/proofs.py`'s `PAIRED_TEST` (argued, paired
with a test, given a planted fault by `make proofs`) or a part of one in `PARTS` (the fault is
planted in it too, and the piece's pairing test must catch it). This tool runs `url_to_canon_url`
under a profiler (`sys.setprofile`) over the conformance inputs (with and without their bases,
with their charsets and with legacy charsets, in the four profiles) and over the benchmark corpora
(`absolute.txt`, `hrefs.tsv`), records each function of those modules that is called, and lists the
ones in neither map.

    python tools/route_census.py            # the census: exit 1 if a function is in neither map
    python tools/route_census.py --list     # every function on the route, with its piece
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tools"), str(ROOT / "tests")]
from proofs import PAIRED_TEST, PARTS  # noqa: E402

ROUTE_MODULES = ("engine_", "shortcuts", "entry")
PROFILES = ("this", "chrome", "gecko", "ie")
LEGACY_CHARSETS = ("windows-1252", "shift_jis", "euc-jp", "iso-2022-jp", "gb18030", "big5",
                   "koi8-r", "utf-16le")
BENCH = Path(os.environ.get("WEBURL_BENCHDATA") or ROOT.parent / "shared" / "bench")


def on_route(filename: str) -> str | None:
    "The route module a code object's file belongs to (`engine_paths`, ...), else `None`."
    p = Path(filename)
    if p.parent.name != "weburl_nb" or p.suffix != ".py":
        return None
    return p.stem if p.stem.startswith(ROUTE_MODULES) else None


def inputs(bench_lines: int | None = None) -> list[tuple[str, str | None, str | None, str]]:
    "`(url, base, charset, browser)`: the calls the census makes."
    from datfile import data_dir, files, load
    out: set[tuple[str, str | None, str | None, str]] = set()
    cases = [c for f in files() for c in load(f)] if data_dir().is_dir() else []
    for c in cases:
        data, base, charset = c.get("data", ""), c.get("base") or None, c.get("charset") or None
        for browser in PROFILES:
            for b in {base, None}:
                for cs in {charset, None}:
                    out.add((data, b, cs, browser))
    datas = sorted({c.get("data", "") for c in cases})
    for i, data in enumerate(datas):                # legacy charsets, in turn
        out.add((data, None, LEGACY_CHARSETS[i % len(LEGACY_CHARSETS)], "this"))
    for name in ("absolute.txt", "hrefs.tsv"):
        path = BENCH / name
        if not path.is_file():
            continue
        with open(path, encoding="utf-8", newline="\n") as f:
            for i, line in enumerate(f):
                if bench_lines is not None and i >= bench_lines:
                    break
                base, tab, href = line.rstrip("\n").partition("\t")
                url, base_ = (href, base) if tab else (base, None)
                out.add((url, base_, None, "this"))
                if i % 50 == 0:                     # a sample in the other profiles and charsets
                    out.add((url, base_, LEGACY_CHARSETS[i // 50 % len(LEGACY_CHARSETS)],
                             PROFILES[i // 50 % len(PROFILES)]))
    return sorted(out, key=repr)


def census(calls) -> dict[tuple[str, str], int]:
    "`(module, qualified name)` -> calls, for each route function that runs on `calls`."
    from weburl_nb.entry import url_to_canon_url
    seen: dict[object, int] = {}

    def profile(frame, event, arg):
        if event == "call":
            code = frame.f_code
            seen[code] = seen.get(code, 0) + 1

    sys.setprofile(profile)
    try:
        for url, base, charset, browser in calls:
            url_to_canon_url(url, base, charset, browser)
    finally:
        sys.setprofile(None)
    out: dict[tuple[str, str], int] = {}
    for code, n in seen.items():
        module = on_route(code.co_filename)
        if module is not None:
            key = (module, code.co_qualname)
            out[key] = out.get(key, 0) + n
    return out


def registered(qualname: str) -> str | None:
    "The piece a route function belongs to: itself, the piece it is a part of, else `None`."
    name = qualname.split(".")[0]           # a method: its class; a nested function: its own
    if name in PAIRED_TEST:
        return name
    return PARTS.get(name)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true", help="every route function, with its piece")
    ap.add_argument("--bench-lines", type=int, default=None,
                    help="read only the first N lines of each corpus (default: all)")
    a = ap.parse_args(argv)
    found = census(inputs(a.bench_lines))
    missing = sorted(k for k in found if registered(k[1]) is None)
    if a.list:
        for (module, name), n in sorted(found.items()):
            piece = registered(name)
            tag = "piece" if piece == name.split(".")[0] else (
                f"part of {piece}" if piece else "NEITHER")
            print(f"{module:18s} {name:40s} {n:9d}  {tag}")
    print(f"route functions: {len(found)}; in neither PAIRED_TEST nor PARTS: {len(missing)}")
    for module, name in missing:
        print(f"  not a piece nor a part: {module}.{name}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
