"""How one tests-web-url case is checked (shared/testdata/FORMAT.md, "How a case is checked").

`check(case)` returns a list of readable mismatches (empty when the case passes);
`check_idempotent(case)` does the same for the idempotency rule of the
canonicalization files. The pytest suite and the site's conformance page use both.
"""
from __future__ import annotations

from datfile import COMPONENTS, Case, expected

from weburl_nb import (canonicalize_parsed_url, parse_url, resolve_url,
                       serialize_parsed_url)

NOT_COMPARED_WHEN_INVALID = {"scheme", "host", "path", "query", "fragment"}


def kind_of(file: str) -> str:
    "`parse`, `resolve` or `canon`: what a data file checks."
    return {"parsing.dat": "parse", "resolving.dat": "resolve"}.get(file, "canon")


def run(case: Case):
    "The `ParsedURL` and serialization the case's file asks for."
    data = case.get("data", "")
    base_text = case.get("base") or data
    kind = kind_of(case.file)
    if kind == "parse":
        return parse_url(data), None
    url = resolve_url(data, parse_url(base_text))
    if kind == "resolve":
        return url, None
    url = canonicalize_parsed_url(url, case.get("charset") or None)
    return url, serialize_parsed_url(url)


def check(case: Case) -> list[str]:
    "Mismatches between what the code gives and what the case expects."
    url, canon = run(case)
    want_invalid = case.get("invalid") == "1"
    problems = []
    if url.invalid != want_invalid:
        problems.append(f"invalid: got {url.invalid}, want {want_invalid}")
    for name in COMPONENTS:
        if want_invalid and name in NOT_COMPARED_WHEN_INVALID:
            continue
        want, got = expected(case, name), getattr(url, name)
        if got != want:
            problems.append(f"{name}: got {got!r}, want {want!r}")
    if kind_of(case.file) == "canon" and not want_invalid:
        want = expected(case, "canon")
        if want is None:
            want = case.get("data", "")
        if canon != want:
            problems.append(f"canon: got {canon!r}, want {want!r}")
    return problems


def check_idempotent(case: Case) -> list[str]:
    "Resolving and canonicalizing a canonical result against the same base gives it back."
    url, canon = run(case)
    if canon is None:
        return []
    base = parse_url(case.get("base") or case.get("data", ""))
    again = serialize_parsed_url(canonicalize_parsed_url(resolve_url(canon, base), case.get("charset") or None))
    return [] if again == canon else [f"not idempotent: {canon!r} -> {again!r}"]
