"""The route-level differential of `make proofs`: `url_to_canon_url` against the steps' answers.

    python tools/route_differential.py build REF   # the calls and the steps' answers, into REF
    python tools/route_differential.py check REF   # the route on REF's calls: exit 1 on a difference

`build` runs in the clean tree: it makes the calls, computes `url_to_canon_url_steps` of each and
checks that `url_to_canon_url` gives the same (exit 1 if not). `check` runs in a copy with a fault
planted in one engine piece: it calls `url_to_canon_url` alone and compares with the stored answers,
so a fault in what both functions share (the checks of the arguments) is seen too. An exception
counts as a difference. Both also run the Arrow route (`weburl_nb.arrow.canonicalize_arrow`, its tiers
forced at every batch size) on THIS's calls, by charset and base, against the same answers.

The calls: every conformance input with and without its base, with its charset and with none, in the
four profiles (this, chrome, gecko, ie); a seeded messy corpus (`bench/messy.py`); and seeded inputs
of the rare shapes the engine's pieces exist for: paths and queries over 8,192 characters, lone
surrogates, `file:` URLs with `///localhost` rounds and `file:` bases with a host, paths whose
escapes C8's note may hold back, long and mixed-script hosts.
"""
from __future__ import annotations

import argparse
import os
import pickle
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

PROFILES = ("this", "chrome", "gecko", "ie")
BENCH = Path(os.environ.get("WEBURL_BENCHDATA") or ROOT.parent / "shared" / "bench")
MESSY_SEED, MESSY_COUNT = 38, 3000
Call = tuple[str, "str | None", "str | None", str]


def conformance_calls() -> list[Call]:
    "Every conformance input, with and without its base and charset, in the four profiles."
    from datfile import data_dir, files, load
    if not data_dir().is_dir():
        raise SystemExit(f"route_differential: no conformance data at {data_dir()}")
    out: set[Call] = set()
    for c in (c for f in files() for c in load(f)):
        data, base, charset = c.get("data", ""), c.get("base") or None, c.get("charset") or None
        for browser in PROFILES:
            for b in {base, None}:
                for cs in {charset, None}:
                    out.add((data, b, cs, browser))
    return sorted(out, key=repr)


def messy_calls() -> list[Call]:
    "The seeded messy corpus, without a base and against a few, in THIS's profile."
    import importlib.util
    spec = importlib.util.spec_from_file_location("messy", ROOT / "bench" / "messy.py")
    messy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(messy)
    bases = [None, None, "http://example.com/a/b?q#f", "file:///c:/d/e"]
    return [(url, bases[i % 4], charset, "this")
            for i, (_, url, charset) in enumerate(messy.generate(BENCH, MESSY_SEED, MESSY_COUNT))]


def rare_calls(seed: int = 38) -> list[Call]:
    "Inputs of the shapes that few real URLs have, each piece's rare branches among them."
    rng = random.Random(seed)
    seg = ["a", "bc", ".", "..", "%2e", "%2E%2e", "x.y", "\u00e9", "%41", "d e"]
    out: list[Call] = []
    for _ in range(24):                                     # paths over 8,192 characters
        n = rng.choice([900, 2100, 4000])
        path = "/".join(rng.choice(seg) for _ in range(n))
        out.append((f"http://h/{path}?q", None, None, rng.choice(PROFILES)))
        out.append((f"{path}#f", "http://h/a/b/c", None, "this"))
    for _ in range(12):                                     # long queries and fragments
        text = "".join(rng.choice(["a", "\u00e9", "\u6771", " ", "%", "\U0001f600", "+"])
                       for _ in range(rng.choice([5000, 9000, 17000])))
        charset = rng.choice([None, "shift_jis", "iso-2022-jp", "windows-1252", "gb18030"])
        out.append((f"http://h/p?{text}#{text[:9000]}", None, charset, "this"))
        out.append((f"http://h/{text}", None, None, "this"))
    for s in ("\ud800", "a\udc00b", "\udbff\udfff"):       # lone surrogates
        for charset in (None, "utf-8", "shift_jis", "big5"):
            out.append((f"http://h/{s}?{s}#{s}", None, charset, "this"))
            out.append((f"?{s}", "http://h/a", charset, "this"))
    for k in range(1, 8):                                   # `///localhost` rounds
        out.append(("file://" + "/localhost/" * k + "c:/x", None, None, "this"))
        out.append(("file:" + "///LOCALHOST" * k + "///c|/%41", None, None, rng.choice(PROFILES)))
    links = ["c:/x", "c|/x", "/c|/d", "x%2Fy/../z", "..%2f..%2fx", "a\\b", "D|", "../../x", "?q",
             "#f", "", "%2e%2e/y", "//h/x"]
    for base in ("file://srv/share/a/b", "FILE://SRV/x/y", "file://localhost/c:/a", "file:///c:/d/"):
        out += [(link, base, None, "this") for link in links]   # `file:` bases with a host
    escapes = ["%", "%2", "%%41", "%2%45", "%%2e", "%252e", "%2e", "%2E%2e", "..", ".", "a", "%41",
               "%5c", "%2F", "%7e", "%%", "%3%34%31", "b%"]
    for _ in range(600):                                    # where C8's note may hold an escape
        path = "/".join(rng.choice(escapes) for _ in range(rng.randint(1, 6)))
        scheme = rng.choice(["http", "file", "ftp", "x-y"])
        out.append((f"{scheme}://h/{path}", None, None, rng.choice(PROFILES)))
        out.append((path, f"{scheme}://h/a/b", None, "this"))
    labels = ["b\u00fccher", "xn--bcher-kva", "\u6771\u4eac", "\u0627\u0644", "a\u200db", "EXAMPLE",
              "\uff21", "a" * 70, "0x7f", "1", "[::1]", "[1:2:3:4:5:6:7:8]", "\u00df", "\u0130"]
    for _ in range(400):                                    # hosts of many shapes
        host = ".".join(rng.choice(labels) for _ in range(rng.randint(1, 4)))
        out.append((f"http://{host}/", None, None, rng.choice(PROFILES)))
    return out


def calls() -> list[Call]:
    return conformance_calls() + messy_calls() + rare_calls()


def arrow_route(cs: list[Call], answers: list) -> list[Call]:
    """The calls on which the Arrow route (`canonicalize_arrow`, its tiers at every batch size) differs
    from `answers` or raises: THIS's calls that Arrow can hold (no lone surrogate), by charset and by
    whether a base is given, in batches of 1,000. An empty list also when pyarrow is missing."""
    try:
        import pyarrow as pa

        from weburl_nb import arrow
    except ImportError:
        return []
    arrow.SMALL_BATCH = 0
    groups: dict = {}
    for (url, base, charset, browser), a in zip(cs, answers, strict=True):
        try:
            (url + (base or "")).encode("utf-8")
        except UnicodeEncodeError:
            continue
        if browser == "this":
            groups.setdefault((base is None, charset), []).append(((url, base, charset, browser), a))
    bad = []
    for (no_base, charset), rows in groups.items():
        for i in range(0, len(rows), 1000):
            chunk = rows[i:i + 1000]
            bases = None if no_base else pa.array([c[1] for c, _ in chunk], pa.string())
            try:
                out = arrow.canonicalize_arrow(pa.array([c[0] for c, _ in chunk], pa.string()), bases,
                                               charset).to_pylist()
            except Exception as e:
                print(f"the Arrow route raised {type(e).__name__} on a batch of {len(chunk)}")
                return [c for c, _ in chunk]
            bad += [c for (c, a), o in zip(chunk, out, strict=True) if o != a]
    return bad


def build(ref: Path) -> int:
    from weburl_nb.entry import url_to_canon_url, url_to_canon_url_steps
    cs = calls()
    answers = [url_to_canon_url_steps(*c) for c in cs]
    bad = [(c, a) for c, a in zip(cs, answers, strict=True) if url_to_canon_url(*c) != a]
    for c, a in bad[:5]:
        print("route differs from the steps:", c, a)
    off = arrow_route(cs, answers)
    for c in off[:5]:
        print("the Arrow route differs from the steps:", c)
    with open(ref, "wb") as f:
        pickle.dump((cs, answers), f)
    print(f"route differential: {len(cs)} calls, {len(bad)} differ; the Arrow route: {len(off)} differ")
    return 1 if bad or off else 0


def check(ref: Path) -> int:
    from weburl_nb.entry import url_to_canon_url
    with open(ref, "rb") as f:
        cs, answers = pickle.load(f)
    for c, a in zip(cs, answers, strict=True):
        try:
            out = url_to_canon_url(*c)
        except Exception as e:
            print(f"route raised {type(e).__name__} on {c!r:.200}")
            return 1
        if out != a:
            print(f"route differs on {c!r:.200}")
            return 1
    off = arrow_route(cs, answers)
    if off:
        print(f"the Arrow route differs on {off[0]!r:.200}")
        return 1
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=("build", "check"))
    ap.add_argument("ref", type=Path)
    a = ap.parse_args(argv)
    return build(a.ref) if a.mode == "build" else check(a.ref)


if __name__ == "__main__":
    sys.exit(main())
