"""The two builds give the same answers, byte for byte: `python tools/differential.py COMPILED_PYTHON`.

The cases are made here, once, and written to a file; two processes run them: the pure package
(the Python running this, or `--pure PATH`) and the compiled build (`COMPILED_PYTHON`, the venv
`tools/compiled.py` makes). Each writes, per case, one JSON line of what it saw:

- `url_to_canon_url` and `url_to_canon_url_steps` (`url`, `base`, `charset`, `browser`);
- `parse_url(url, browser)`: its `repr`, its pickle (hex), `str`, `netloc`, `hostname`, `port_number`;
- for a `str` base: `resolve_url(url, parse_url(base))` and `canonicalize_parsed_url` of it;
- for a share of the cases, `explain`: the result and every step's reason and change (`as_dict`).

A value is written as its `repr`, an exception as its type and message, `None` as `None`; the two
files are compared line by line, and each mismatch is printed with its inputs (exit status 1).

The cases: every input of the conformance data with its base and charset, in each of the four
profiles (this, chrome, gecko, ie); the bench corpora (`hrefs.tsv`, `absolute.txt`); a seeded messy
corpus (`bench/messy.py`); and text from Hypothesis (seeded, so the same each run), arguments of
the wrong type included (bytes, `None`, numbers, a `ParsedURL` where a `str` goes, a `str` subclass).
"""
from __future__ import annotations

import argparse
import json
import os
import pickle
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROFILES = ("this", "chrome", "gecko", "ie")
EXPLAIN_EVERY = 7          # explain runs the traced steps: one case in 7 (and every wrong type)
# The one documented difference (README, "The compiled build"): mypyc checks each argument's type
# where the call enters a compiled function, so a call with an argument of the wrong type raises
# mypyc's `TypeError` ("str object expected; got bytes") where the pure build raises its own, which
# names the argument, or, when another argument is checked first there, that one's `LookupError` or
# `ValueError`. Such cases are counted and reported apart, and only these: a case holding an argument
# of a type its parameter does not take, the compiled build raising mypyc's message, the pure build
# raising one of those three.
MYPYC_TYPE_ERROR = re.compile(r"!builtins\.TypeError: [\w. ]+ object expected; got [\w.]+")
PURE_ERROR = re.compile(r"!builtins\.(TypeError|LookupError|ValueError): ")


# --- the worker: runs in each build ---------------------------------------------------------------

def outcome(call, *args, **kw) -> str:
    try:
        return repr(call(*args, **kw))
    except Exception as e:
        return f"!{type(e).__module__}.{type(e).__qualname__}: {e}"


def parsed_view(u) -> list:
    return [repr(u), pickle.dumps(u, protocol=pickle.HIGHEST_PROTOCOL).hex(), str(u),
            repr(u.netloc), repr(u.hostname), repr(u.port_number)]


def record(case: tuple, explain_too: bool) -> list:
    from weburl_nb import canonicalize_parsed_url, explain, parse_url, resolve_url, url_to_canon_url
    from weburl_nb.entry import url_to_canon_url_steps
    url, base, charset, browser = case
    out = [outcome(url_to_canon_url, url, base, charset, browser),
           outcome(url_to_canon_url_steps, url, base, charset, browser),
           outcome(lambda: parsed_view(parse_url(url, browser)))]
    if isinstance(base, str):
        def resolved():
            r = resolve_url(url, parse_url(base, browser), browser)
            return [parsed_view(r), outcome(canonicalize_parsed_url, r, charset, browser)]
        out.append(outcome(resolved))
    if explain_too:
        out.append(outcome(lambda: json.dumps(explain(url, base, charset, browser).as_dict(),
                                              sort_keys=True)))
    return out


def worker(cases_path: str, out_path: str) -> None:
    import weburl_nb
    with open(cases_path, "rb") as f:
        cases = pickle.load(f)
    t0 = time.process_time()
    with open(out_path, "w", encoding="utf-8") as out:
        out.write(json.dumps({"compiled": weburl_nb.COMPILED}) + "\n")
        for i, (case, explain_too) in enumerate(cases):
            out.write(json.dumps([i, record(case, explain_too)]) + "\n")
    print(f"{'compiled' if weburl_nb.COMPILED else 'pure'}: {len(cases):,} cases in "
          f"{time.process_time() - t0:.1f} s CPU", file=sys.stderr)


# --- the cases --------------------------------------------------------------------------------

class Str(str):
    "A `str` subclass: the package answers as for the plain `str`."


def conformance_cases() -> list:
    sys.path.insert(0, str(ROOT / "tests"))
    from datfile import files, load
    seen, cases = set(), []
    for name in files():
        for c in load(name):
            if c.not_applicable:
                continue
            triple = (c.fields.get("data", ""), c.fields.get("base"), c.fields.get("charset") or None)
            for t in (triple, (triple[0], None, triple[2])):
                if t not in seen:
                    seen.add(t)
                    cases += [(*t, p) for p in PROFILES]
    return cases


def bench_cases(data: Path) -> list:
    cases = []
    hrefs, absolute = data / "hrefs.tsv", data / "absolute.txt"
    if hrefs.is_file():
        for line in hrefs.read_text(encoding="utf-8").splitlines()[1:]:
            base, _, href = line.partition("\t")
            cases.append((href, base, None, "this"))
    if absolute.is_file():
        cases += [(u, None, None, "this") for u in absolute.read_text(encoding="utf-8").splitlines()]
    return cases


def messy_cases(data: Path, seed: int, count: int) -> list:
    sys.path.insert(0, str(ROOT / "bench"))
    import messy
    items = messy.generate(data, seed, count)
    return [(u, None, c, p) for (_, u, c), p in zip(items, PROFILES * (count // 4 + 1), strict=False)]


def hypothesis_cases(count: int) -> list:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from weburl_nb import parse_url
    alphabet = st.sampled_from(list(":/?#[]@!$&'()*+,;=%.\\-_~ \t\n\x00AaZz09") + ["%2e", "%41", "xn--",
                               "\u00e9", "\u0130", "\ufb01", "\u3002", "\ud800", "\udfff", "\U0001f600",
                               "\ufdd0", "\uffff", "file:", "http://", "//", "[::1]", "0x7f.1"])
    url_text = st.one_of(st.text(), st.lists(alphabet, max_size=24).map("".join),
                         st.builds(lambda a, b: a + b, st.sampled_from(["http://", "HTTP://h", "file:",
                                   "mailto:", "javascript:", "//", "", "ftp://u:p@"]),
                                   st.lists(alphabet, max_size=20).map("".join)))
    wrong = st.sampled_from([b"http://a/", None, 0, 1.5, ["http://a/"], Str("http://a/B/../c"),
                             parse_url("http://a/")])
    charset = st.sampled_from([None, "utf-8", "shift_jis", "iso-2022-jp", "gb18030", "windows-1252",
                               "big5", "euc-kr", "utf-16", "nonsense", "", b"utf-8", 8])
    browser = st.sampled_from([*PROFILES, "CHROME", "opera", "", None, b"ie"])
    base = st.one_of(st.none(), url_text, st.just("http://h/a/b?q#f"), wrong)
    cases = []

    @settings(max_examples=count, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.one_of(url_text, wrong), base, charset, browser)
    def collect(url, base, charset, browser):
        cases.append((url, base, charset, browser))
    collect()
    return cases


def make_cases(data: Path, hypothesis_count: int, messy_count: int) -> dict[str, list]:
    return {"conformance (4 profiles)": conformance_cases(),
            "bench corpora": bench_cases(data),
            "messy (seed 33)": messy_cases(data, 33, messy_count),
            "hypothesis (wrong types included)": hypothesis_cases(hypothesis_count)}


# --- the comparison ---------------------------------------------------------------------------

def wrong_type(case: tuple) -> bool:
    "Whether an argument is of a type its parameter does not take (`url`, `browser`: `str`; the others: or `None`)."
    url, base, charset, browser = case
    return (not isinstance(url, str) or not isinstance(browser, str)
            or any(x is not None and not isinstance(x, str) for x in (base, charset)))


def type_message_only(u: str, v: str) -> bool:
    "`u` (pure) and `v` (compiled) the same but where `v` holds mypyc's `TypeError` and `u` an error."
    if u == v:
        return True
    parts_u, parts_v = re.split(r"('!builtins\.\w+: [^']*')", u), re.split(r"('!builtins\.\w+: [^']*')", v)
    if len(parts_u) == 1:                      # the outcome itself, not a repr holding outcomes
        return bool(PURE_ERROR.match(u) and MYPYC_TYPE_ERROR.fullmatch(v))
    return len(parts_u) == len(parts_v) and all(
        a == b or type_message_only(a.strip("'"), b.strip("'")) for a, b in zip(parts_u, parts_v, strict=True))


def run_both(pure: str, compiled: str, cases: list, work: Path) -> tuple[list, list]:
    path = work / "cases.pickle"
    with open(path, "wb") as f:
        pickle.dump(cases, f, protocol=pickle.HIGHEST_PROTOCOL)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    procs, outs = [], []
    for name, python in (("pure", pure), ("compiled", compiled)):
        out = work / f"{name}.jsonl"
        procs.append(subprocess.Popen([python, "-I", __file__, "--worker", str(path), str(out)],
                                      cwd=work, env=env))
        outs.append(out)
    codes = [p.wait() for p in procs]
    if any(codes):
        sys.exit(f"differential: a worker failed: exit status {codes}")
    a, b = ([json.loads(line) for line in o.read_text(encoding="utf-8").splitlines()] for o in outs)
    if a[0] != {"compiled": False} or b[0] != {"compiled": True}:
        sys.exit(f"differential: the builds are not what they should be: pure {a[0]}, compiled {b[0]}")
    return a[1:], b[1:]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("compiled", nargs="?", help="the python of the compiled build")
    p.add_argument("--pure", default=sys.executable, help="the python of the pure build (default: this)")
    p.add_argument("--data", type=Path, default=Path(os.environ.get("WEBURL_BENCHDATA") or ROOT.parent / "shared" / "bench"))
    p.add_argument("--hypothesis", type=int, default=4000, help="Hypothesis examples (default 4,000)")
    p.add_argument("--messy", type=int, default=8000, help="messy URLs (default 8,000)")
    p.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.worker:
        worker(*a.worker)
        return 0
    if not a.compiled:
        p.error("the compiled build's python is needed (python tools/compiled.py build prints it)")
    t0 = time.monotonic()
    groups = make_cases(a.data, a.hypothesis, a.messy)
    cases, origin = [], []
    for name, group in groups.items():
        for case in group:
            cases.append((case, len(cases) % EXPLAIN_EVERY == 0 or not all(
                isinstance(x, str) or x is None for x in case)))
            origin.append(name)
    with tempfile.TemporaryDirectory(prefix="weburl-differential-") as work:
        pure, compiled = run_both(a.pure, a.compiled, cases, Path(work))
    mismatches, compared, nones, raised, type_messages = 0, 0, 0, 0, 0
    for (case, _), name, x, y in zip(cases, origin, pure, compiled, strict=True):
        compared += len(x[1])
        nones += sum(v == "None" for v in x[1])
        raised += sum(isinstance(v, str) and v.startswith("!") for v in x[1])
        if x != y and wrong_type(case) and len(x[1]) == len(y[1]) and all(
                u == v or type_message_only(u, v) for u, v in zip(x[1], y[1], strict=True)):
            type_messages += 1
            continue
        if x != y:
            mismatches += 1
            if mismatches <= int(os.environ.get("DIFF_SHOW", "20")):
                print(f"MISMATCH ({name}) url={case[0]!a} base={case[1]!a} charset={case[2]!a} "
                      f"browser={case[3]!a}")
                for i, (u, v) in enumerate(zip(x[1], y[1], strict=False)):
                    if u != v:
                        print(f"    [{i}] pure:     {u!a:.300}\n        compiled: {v!a:.300}")
    for name, group in groups.items():
        print(f"  {len(group):>7,} cases: {name}")
    print(f"differential: {len(cases):,} cases, {compared:,} outcomes compared ({nones:,} None, "
          f"{raised:,} exceptions, {sum(e for _, e in cases):,} explain), {mismatches} mismatching "
          f"cases; {type_messages:,} cases of a wrong type meet mypyc's TypeError at the call "
          f"(documented) ({time.monotonic() - t0:.0f} s)")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
