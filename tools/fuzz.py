"""Coverage-guided fuzzing of `url_to_canon_url` with atheris (libFuzzer for Python): `make fuzz`.

    python tools/fuzz.py --seconds 600          # a long run (`make fuzz FUZZ_SECONDS=600`)
    python tools/fuzz.py --smoke                # the short run of `make test` (about 20 seconds)

Every input is checked by `tests/invariants.py` (no exception, shortcut route = steps route, the answer
is a fixed point), then by `check_site` where the `site` extra is installed (the site functions give a
`str` or `None`, the same for the URL and its canonical URL, and Common Crawl's columns agree) and timed: an input whose check takes over 100 ms under instrumentation is kept in
`WORK/slow/` and judged after the run, without instrumentation, by a ratio rather than a time: it is
timed alternately with a plain input of the same length that takes the whole route (a non-ASCII
path with escapes and dot-segments, about 0.7 us a character here), once each, then best of five
each if it took over half the ratio, and it is slow only if it takes over `SLOW_RATIO` times as
long. The slowest under instrumentation are timed first, the progress is printed every
`PROGRESS_SECONDS`, and the re-timing stops after `RECHECK_SECONDS` (the inputs left, the fastest
under instrumentation, are counted and reported). A busy machine slows both alike, so the
verdict does not depend on the machine's load (a long run fails on a slow input; the smoke run of
`make test` only reports it, since the test suite times nothing). A broken promise stops the run; libFuzzer keeps the input in `WORK/artifacts/`.

The seed corpus is built at run time, into `WORK/seeds/`, from the benchmark corpora (`../shared/bench`,
or `WEBURL_BENCHDATA`), the messy corpus made from them (`bench/messy.py`, a random seed), the conformance inputs (`../shared/testdata`, or `WEBURL_TESTDATA`) and a
few hostile shapes; nothing of it is stored in the repository. `WORK` defaults to `build/fuzz/`.
Where atheris cannot be installed (`pip install -e .[fuzz]`), the same check runs over the seeds and
random mutations of them, without coverage guidance, and says so.

An input is bytes: `url [NUL base [NUL charset]]`, each part UTF-8 (lone surrogates allowed; in a
part that is not UTF-8, the bad bytes become lone surrogates); the charset is the byte's position, modulo their number, in `invariants.CHARSETS`.

After the timed checks, `check_chain_in_a_profile` checks the public chain: `parse_url`, `resolve_url`,
`canonicalize_parsed_url` and `serialize_parsed_url` in turn give `url_to_canon_url`'s answer, in the
profile (`this`, `chrome`, `gecko` or `ie`) that the input's length picks; and `invariants.check_profiles`
checks that in each of the four profiles the answer is a fixed point, but for the exception the README
states (`invariants.host_not_kept`: a browser's record keeps a host that a second reading changes).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tests'))
SLOW_SECONDS = 0.1      # under instrumentation: kept, to be judged after the run
# Slow means over SLOW_RATIO times a plain input of the same length. The most hostile shapes known
# (thousands of IDN labels or combining marks) take 4 to 17 times as long as the yardstick, the
# spread being the load of a shared machine; a quadratic step at 8 KB would take hundreds of times.
SLOW_RATIO = 25
RECHECK_SECONDS = 300   # the most the re-timing after a run may take (`--recheck-seconds`)
PROGRESS_SECONDS = 10   # how often the re-timing says how far it is
STATS_RE = re.compile(rb'stat::number_of_executed_units:\s*(\d+)')
HOSTILE = ['\\\\/h', 'http://h:' + '0' * 5000, 'http://h/%7%41', 'http://h/a/%2%45%2%45/b', 'file:%5C/',
           'http://a' + '\u0301\u0316' * 2000, 'http://[::1]:0/%2e%2E/', 'c|\\x\\..\\y', 'mailto:a?b#c',
           'http://xn--a.xn--b/', 'http://0x7f.1/', 'javascript:a#b', '\x00\x01 \t\n', 'http://h/?\u00e9']


TOKENS = ['://', '//', '\\\\', 'file:', 'http:', 'https:', 'mailto:', 'javascript:', 'ftp:', 'ws:', 'c:', 'C|',
          '%2E', '%2e', '%2F', '%5C', '%25', '%3A', '%5B', '%', '..', './', '../', '/.', '?', '#', '@', ':',
          '[', ']', '::', 'localhost', 'xn--', '0x', '%00', '\u3002', '\uff0e', '\u0301', '\u00df', '\ufffd']


def write_dictionary(work: Path) -> Path:
    "libFuzzer's dictionary of URL tokens, written at run time."
    path = work / 'url.dict'
    lines = ['"' + ''.join('\\x%02x' % b for b in t.encode()) + '"\n' for t in TOKENS]
    path.write_text(''.join(lines), encoding='ascii')
    return path


def _text(data: bytes) -> str:
    "UTF-8 with lone surrogates allowed; other bytes that are not UTF-8 become lone surrogates too."
    try:
        return data.decode('utf-8', 'surrogatepass')
    except UnicodeDecodeError:
        return data.decode('utf-8', 'surrogateescape')


def decode_input(data: bytes):
    "`(url, base, charset)` from the bytes of one input (see the module's docstring)."
    from invariants import CHARSETS
    parts = data.split(b'\x00', 2)
    url, base, charset = _text(parts[0]), None, None
    if len(parts) > 1:
        base = _text(parts[1])
    if len(parts) > 2 and parts[2]:
        charset = CHARSETS[parts[2][0] % len(CHARSETS)]
    return url, base, charset


def encode_input(url: str, base: str | None = None, charset_index: int | None = None) -> bytes:
    "The inverse of `decode_input`."
    data = url.encode('utf-8', 'surrogatepass')
    if base is not None or charset_index is not None:
        data += b'\x00' + (base or '').encode('utf-8', 'surrogatepass')
    if charset_index is not None:
        data += b'\x00' + bytes([charset_index])
    return data


def seed_inputs(bench: Path, testdata: Path, per_file: int, rng: random.Random) -> list[bytes]:
    "The seeds: a sample of the benchmark lines and conformance inputs, and the hostile shapes."
    seeds = [encode_input(s) for s in HOSTILE]
    hrefs = bench / 'hrefs.tsv'
    if hrefs.is_file():
        lines = hrefs.read_text(encoding='utf-8').splitlines()
        for line in rng.sample(lines, min(per_file, len(lines))):
            base, _, href = line.partition('\t')
            seeds.append(encode_input(href, base, rng.choice([None, rng.randrange(256)])))
    absolute = bench / 'absolute.txt'
    if absolute.is_file():
        lines = absolute.read_text(encoding='utf-8').splitlines()
        seeds += [encode_input(u) for u in rng.sample(lines, min(per_file, len(lines)))]
    if (bench / 'absolute.txt').is_file():              # the messy corpus (bench/messy.py), a random seed
        import importlib.util
        spec = importlib.util.spec_from_file_location('messy', ROOT / 'bench' / 'messy.py')
        messy = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(messy)
        for _, url, charset in messy.generate(bench, rng.randrange(1 << 30), per_file):
            if charset is None:
                seeds.append(encode_input(url))
            else:                           # a charset needs a base in the input's format: the URL itself
                seeds.append(encode_input(url, url, rng.randrange(256)))
    if testdata.is_dir():
        os.environ.setdefault('WEBURL_TESTDATA', str(testdata))
        from datfile import files, load
        cases = []
        for f in files():
            try:
                cases += load(f)
            except ValueError:
                continue
        for c in rng.sample(cases, min(per_file, len(cases))):
            seeds.append(encode_input(c.get('data', ''), c.get('base') or None,
                                      rng.randrange(256) if c.get('charset') else None))
    return seeds


def write_seeds(work: Path, seeds: list[bytes]) -> Path:
    "Write the seeds as one file each (named by their hash) into `work/seeds/`."
    folder = work / 'seeds'
    folder.mkdir(parents=True, exist_ok=True)
    for data in seeds:
        (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
    return folder


def check_site(url: str, base: str | None, charset: str | None, canon: str | None) -> None:
    "The site functions: a value or None for any input, and one answer for a URL and its canonical URL."
    try:
        from weburl_nb import site_keys as sk
        sk.suffix_list()
    except ImportError:                         # the `site` extra is not installed: nothing to check
        return
    for private in (False, True):
        domain = sk.registrable_domain(url, base, charset, icann_only=private)
        suffix = sk.public_suffix(url, base, charset, icann_only=private)
        key = sk.site_key(url, base, charset, icann_only=private)
        if not all(v is None or type(v) is str for v in (domain, suffix, key)):
            raise AssertionError(f'site: not a str or None for {(url, base, charset)!r}')
        if canon is None:
            if (domain, suffix, key) != (None, None, None):
                raise AssertionError(f'site: an answer for an invalid URL {(url, base, charset)!r}')
        elif (sk.registrable_domain(canon, icann_only=private), sk.site_key(canon, icann_only=private)) != (domain, key):
            raise AssertionError(f'site: the canonical URL {canon!r} answers otherwise, {(url, base, charset)!r}')
    cols = sk.cc_index_columns(url, base, charset, surt_style='precise')
    if (cols is None) != (canon is None) or (cols is not None and cols
                                              != sk.cc_index_columns(canon, surt_style='precise')):
        raise AssertionError(f'site: Common Crawl columns disagree for {(url, base, charset)!r}')


def check_chain_in_a_profile(data: bytes, url: str, base: str | None, charset: str | None) -> None:
    "The public chain gives the pipeline's answer (`invariants.check_chain`), in the profile the input's length picks."
    from invariants import check_chain
    from weburl_nb.host import PROFILES
    browsers = sorted(PROFILES)
    check_chain(url, base, charset, browsers[len(data) % len(browsers)])


def one_input(data: bytes, slow_dir: Path | None = None) -> None:
    "The fuzz target: check one input, and keep it when it was slow (named by its time, then its hash)."
    from invariants import check, check_profiles
    url, base, charset = decode_input(data)
    start = time.perf_counter()
    check_site(url, base, charset, check(url, base, charset))
    elapsed = time.perf_counter() - start
    if slow_dir is not None and elapsed > SLOW_SECONDS:
        slow_dir.mkdir(parents=True, exist_ok=True)
        (slow_dir / f'{min(int(elapsed * 1000), 9_999_999):07d}ms-{hashlib.sha1(data).hexdigest()}').write_bytes(data)
    check_chain_in_a_profile(data, url, base, charset)
    check_profiles(url, base, charset)


def run_atheris(work: Path, libfuzzer_args: list[str]) -> None:
    "In the child process: instrument the package, then hand over to libFuzzer."
    import atheris
    with atheris.instrument_imports(include=['weburl_nb']):
        import invariants  # noqa: F401  (the package modules it imports are the ones instrumented)
        import weburl_nb  # noqa: F401
        import weburl_nb.site_keys  # noqa: F401  (the site functions, checked when the list is there)
    slow_dir = work / 'slow'
    atheris.Setup([sys.argv[0], *libfuzzer_args], lambda data: one_input(data, slow_dir))
    atheris.Fuzz()


def mutate(data: bytes, seeds: list[bytes], rng: random.Random) -> bytes:
    "A few byte-level edits (insert, delete, copy from another seed), for the run without atheris."
    b = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        i = rng.randint(0, len(b))
        op = rng.random()
        if op < 0.4:
            b[i:i] = rng.choice([b'%', b'/', b'\\', b'.', b'?', b'#', b':', b'@', b'\x00', b'%2', b'%41',
                                 bytes([rng.randrange(256)]), 'é'.encode(), '\u0301'.encode()])
        elif op < 0.7:
            del b[i:i + rng.randint(1, 4)]
        else:
            other = rng.choice(seeds)
            j = rng.randint(0, len(other))
            b[i:i] = other[j:j + rng.randint(1, 16)]
    return bytes(b)


def run_plain(work: Path, seeds: list[bytes], seconds: float, rng: random.Random) -> int:
    "The same checks without atheris: every seed, then random mutations until the time is up."
    count, end = 0, time.monotonic() + seconds
    for data in seeds:
        one_input(data, work / 'slow')
        count += 1
    while time.monotonic() < end:
        for _ in range(200):
            data = mutate(rng.choice(seeds), seeds, rng)
            try:
                one_input(data, work / 'slow')
            except BaseException:
                (work / 'artifacts').mkdir(parents=True, exist_ok=True)
                (work / 'artifacts' / ('crash-' + hashlib.sha1(data).hexdigest())).write_bytes(data)
                raise
            count += 1
    return count


def plain_input(n: int) -> str:
    "A plain URL of length `n` that no shortcut takes: the yardstick of `recheck_slow`."
    return ('http://example.com/' + 'a\u00e9%41/./' * (n // 8 + 1))[:max(n, 19)]


def _best(url: str, base: str | None, charset: str | None) -> float:
    from invariants import check
    start = time.perf_counter()
    check(url, base, charset)
    return time.perf_counter() - start


def _ratio(url: str, base: str | None, charset: str | None, rounds: int) -> tuple[float, float]:
    "`(best seconds, ratio)`: the input against a plain input of its length, alternately, best of `rounds` each."
    plain = plain_input(len(url) + len(base or ''))
    best = yard = float('inf')
    for _ in range(rounds):
        best = min(best, _best(url, base, charset))
        yard = min(yard, _best(plain, None, None))
    return best, best / yard


def recheck_slow(work: Path, budget: float = RECHECK_SECONDS) -> tuple[list[tuple[str, float, float]], int, int]:
    """Each input kept as slow, without instrumentation, against a plain input of its length timed
    alternately with it: `(slow, judged, left)`, `slow` the `(name, seconds, ratio)` over `SLOW_RATIO`.

    The slowest under instrumentation first. One round each screens; an input over half the ratio
    gets the verdict of the best of five. Progress is printed every `PROGRESS_SECONDS`; after `budget`
    seconds the inputs left (the fastest under instrumentation) are counted, not timed."""
    paths = sorted((work / 'slow').glob('*'), reverse=True) if (work / 'slow').is_dir() else []
    still_slow, start, shown = [], time.monotonic(), time.monotonic()
    for i, path in enumerate(paths):
        if time.monotonic() - start > budget:
            return still_slow, i, len(paths) - i
        if time.monotonic() - shown > PROGRESS_SECONDS:
            shown = time.monotonic()
            print(f'fuzz: re-timing kept inputs: {i:,} of {len(paths):,} in {shown - start:.0f} s, '
                  f'{len(still_slow)} over {SLOW_RATIO} x so far', flush=True)
        url, base, charset = decode_input(path.read_bytes())
        best, ratio = _ratio(url, base, charset, 1)
        if ratio > SLOW_RATIO / 2:
            best, ratio = _ratio(url, base, charset, 5)
        if ratio > SLOW_RATIO:
            still_slow.append((path.name, best, ratio))
    return still_slow, len(paths), 0


def _record(work: Path, **run) -> None:
    "Append one run's figures to `work/runs.jsonl` (the totals over all runs are summed from it)."
    when = time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())
    with open(work / 'runs.jsonl', 'a', encoding='utf-8') as f:
        f.write(json.dumps({'when': when, **run}) + '\n')


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--seconds', type=float, default=600, help='time budget of the run (default 600)')
    p.add_argument('--smoke', action='store_true', help='the short run of `make test`: 20 s, few seeds')
    p.add_argument('--work', type=Path, default=ROOT / 'build' / 'fuzz', help='corpus, artifacts, stats')
    p.add_argument('--seeds', type=int, default=3000, help='seeds taken from each corpus file')
    p.add_argument('--plain', action='store_true', help='do not use atheris even if it is installed')
    p.add_argument('--recheck-seconds', type=float, default=RECHECK_SECONDS,
                   help=f'the most the re-timing of slow inputs may take (default {RECHECK_SECONDS})')
    p.add_argument('--child', action='store_true', help=argparse.SUPPRESS)
    args, libfuzzer_args = p.parse_known_args(argv)
    if args.child:
        run_atheris(args.work, libfuzzer_args)
        return 0
    if args.smoke:
        args.seconds, args.seeds = min(args.seconds, 20), min(args.seeds, 100)
    rng = random.Random(int(time.time()))
    bench = Path(os.environ.get('WEBURL_BENCHDATA') or ROOT.parent / 'shared' / 'bench')
    testdata = Path(os.environ.get('WEBURL_TESTDATA') or ROOT.parent / 'shared' / 'testdata' / 'tests-web-url')
    seeds = seed_inputs(bench, testdata, args.seeds, rng)
    seed_dir = write_seeds(args.work, seeds)
    shutil.rmtree(args.work / 'slow', ignore_errors=True)       # this run's slow inputs only
    try:
        import atheris  # noqa: F401
        have_atheris = not args.plain
    except ImportError:
        have_atheris = False
    started = time.monotonic()
    if have_atheris:
        corpus = args.work / 'corpus'
        corpus.mkdir(parents=True, exist_ok=True)
        (args.work / 'artifacts').mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, __file__, '--child', '--work', str(args.work),
               f'-max_total_time={int(args.seconds)}', '-max_len=8192', '-timeout=10', '-rss_limit_mb=4096',
               '-print_final_stats=1', f'-dict={write_dictionary(args.work)}', f'-artifact_prefix={args.work / "artifacts"}/', *libfuzzer_args,
               str(corpus), str(seed_dir)]
        with open(args.work / 'last-run.log', 'wb') as out:       # libFuzzer's progress, as it goes
            proc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT)
        log = (args.work / 'last-run.log').read_bytes()
        counts = STATS_RE.findall(log)
        count = sum(int(c) for c in counts)
        if proc.returncode != 0:
            sys.stdout.write(log[-6000:].decode('utf-8', 'replace'))
            _record(args.work, how='atheris (coverage-guided)', inputs=count, failed=True)
            print(f'fuzz: FAILED after {count:,} inputs; the input is in {args.work / "artifacts"}')
            return 1
        how = 'atheris (coverage-guided)'
    else:
        count = run_plain(args.work, seeds, args.seconds, rng)
        how = 'plain random mutation (atheris not installed: no coverage guidance)'
    elapsed = time.monotonic() - started
    still_slow, judged, left = recheck_slow(args.work, args.recheck_seconds)
    _record(args.work, how=how, inputs=count, seconds=round(elapsed, 1), seeds=len(seeds),
            still_slow=len(still_slow), retimed=judged, not_retimed=left)
    total = sum(json.loads(line)['inputs'] for line in open(args.work / 'runs.jsonl', encoding='utf-8'))
    print(f'fuzz: {count:,} inputs in {elapsed:.0f} s by {how}, {len(seeds)} seeds; no exception, '
          f'shortcut = steps, every answer a fixed point in all four profiles (the README\'s host '
          f'exception apart), the public chain = the pipeline ({total:,} inputs in all runs in {args.work})')
    if still_slow:
        for name, seconds, ratio in still_slow:
            print(f'fuzz: SLOW {name}: {seconds * 1000:.1f} ms without instrumentation, '
                  f'{ratio:.1f} x a plain input of its length')
        if args.smoke:                  # the test suite times nothing (a loaded machine is no failure)
            print(f'fuzz: {len(still_slow)} slow inputs reported, not failed, in a smoke run ({args.work}/slow)')
            return 0
        return 1
    print(f'fuzz: no input over {SLOW_RATIO} x a plain input of its length '
          f'({judged} over {SLOW_SECONDS * 1000:.0f} ms under instrumentation, timed again)')
    if left:
        print(f'fuzz: {left} kept inputs, the fastest under instrumentation, not timed again: the '
              f're-timing stops after {args.recheck_seconds:.0f} s (--recheck-seconds)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
