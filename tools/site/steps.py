"""Step anchors: every numbered step of the spec's algorithms gets a stable id on its page, so that
`host.html#step-28` and `canonicalization.html#c6` lead to the step itself.

The ids are made at build time from the prose the notebooks already have, in two forms:

- a paragraph that opens with a bold label, `**Step 28.**`, `**Steps 3-6.**`, `**Step 4 (GECKO).**`,
  `**C6.**`, `**C4 (HOSTPATH), ...**`, `**K5.**`: ids `step-28`, `step-3` ... `step-6`, `step-4`, `c6`,
  `c4`, `k5` (a lettered label: canonicalization's C-steps, the keys' K-steps);
- a numbered list under the heading of an algorithm registered in `ALGORITHMS` below
  (`1. Preprocess ...`, `1.–3. Name the inputs ...`): ids `step-1`, `step-1` ... `step-3`.

A page that writes up several algorithms gives each but its main one a prefix, taken from the heading
the step sits under (`resolution.html#relative-step-2`, `ipaddr.html#ipv6-step-2`). The label is
followed by a `¶` link to the step, shown when the pointer is over it (as the WHATWG Standard shows
its anchors). The package's `weburl_nb.trace.step_anchor` gives the same addresses for the steps the
tracer reports; tests/site/test_site.py checks that each of them exists.
"""
from __future__ import annotations

import html
import re

# page -> [(text in the heading, id prefix, whether its numbered lists are steps)], first match wins;
# a prefix of None is made from the heading's words.
# A heading that matches none resets to ('', False): bold step labels get no prefix, lists no ids.
ALGORITHMS = {
    "charclasses": [("The steps to preprocess", "", True)],
    "parsing": [("The steps to parse a URL", "", True), ("Finding the authority", "authority-", True),
                ("Finding the user-info", "userinfo-", True), ("Parsing a drive URL", "drive-", True),
                ("Parsing a `file:` URL", "file-", True), ("Parsing a UNC path", "unc-", True)],
    "resolution": [("The steps to resolve a relative URL", "relative-", True),
                   ("The steps to resolve a URL", "", True),
                   ("The steps to remove dot-segments", "dots-", True)],
    "ipaddr": [("IPv4", "ipv4-", False), ("IPv6", "ipv6-", False)],
    "canonicalization": [("Character encodings", "percent-encode-", False),
                         ("The steps to percent-encode", "percent-encode-", True)],
    "serialization": [("The steps to serialize", "", True)],
    "encodings": [("", None, True)],          # one encoder per heading: ids like shift-jis-step-2
    "site_keys": [("The steps to find the public suffix", "", True)],
}

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
# `**Step 28.**`, `**Steps 3-6.**`, `**Step 4 (GECKO).**`, `**C6.**`, `**C4 (HOSTPATH), `file:` only.**`
_BOLD = re.compile(r"^(?P<lead>(?:>\s*)?)\*\*(?:Steps? (?P<n>\d+)(?:\s*[-\u2013]\s*(?P<m>\d+))?"
                   r"|(?P<c>[CK]\d+)(?:\s*[-\u2013]\s*[CK]?(?P<cm>\d+))?)(?=[ .,(*])")
# `1. text`, `10. text`, `1.\u20133. text` (top-level items only: no indentation)
_ITEM = re.compile(r"^(?P<n>\d+)\.(?:\s*[-\u2013]\s*(?P<m>\d+)\.)?(?=\s)")


def _target(ids: list[str]) -> str:
    "Empty elements carrying the ids."
    return "".join(f'<span class="step-target" id="{html.escape(i)}"></span>' for i in ids)


def _link(anchor: str, label: str, cls: str = "step-link") -> str:
    return (f'<a class="{cls}" href="#{html.escape(anchor)}" '
            f'title="Link to {html.escape(label)}">\u00b6</a>')


class Anchors:
    "Adds step ids to the markdown cells of one page, in order (it remembers the current heading)."

    def __init__(self, page: str):
        self.rules = ALGORITHMS.get(page, [])
        self.prefix, self.lists = "", False
        self.ids: list[str] = []          # every id made on this page, in order

    def _heading(self, text: str) -> None:
        for pattern, prefix, lists in self.rules:
            if pattern in text:
                if prefix is None:   # the heading's own words: `## Shift_JIS` -> `shift-jis-`
                    prefix = re.sub(r"[^a-z0-9]+", "-", re.sub(r"[`*]", "", text).lower()).strip("-") + "-"
                self.prefix, self.lists = prefix, lists
                return
        self.prefix, self.lists = "", False

    def _new(self, ids: list[str]) -> list[str]:
        fresh = [i for i in ids if i not in self.ids]   # a later mention of a step keeps no id
        self.ids += fresh
        return fresh

    def cell(self, text: str) -> str:
        out, fence = [], False
        for line in text.split("\n"):
            if line.lstrip().startswith(("```", "~~~")):
                fence = not fence
            if fence:
                out.append(line)
                continue
            h = _HEADING.match(line)
            if h:
                self._heading(h.group(2))
                out.append(line)
                continue
            m = _BOLD.match(line)
            if m:
                if m.group("c"):
                    letter, first = m.group("c")[0].lower(), int(m.group("c")[1:])
                    last = int(m.group("cm") or first)
                    ids = [f"{letter}{k}" for k in range(first, max(first, last) + 1)]
                else:
                    first = int(m.group("n"))
                    last = int(m.group("m") or first)
                    ids = [f"{self.prefix}step-{k}" for k in range(first, max(first, last) + 1)]
                ids = self._new(ids)
                if ids:
                    end = line.index("**", m.end()) + 2 if "**" in line[m.end():] else m.end()
                    label = re.sub(r"[*`]", "", line[len(m.group("lead")):end]).strip().rstrip(".")
                    line = (m.group("lead") + _target(ids) + line[len(m.group("lead")):end]
                            + _link(ids[0], label) + line[end:])
                out.append(line)
                continue
            m = _ITEM.match(line)
            if m and self.lists:
                first, last = int(m.group("n")), int(m.group("m") or m.group("n"))
                ids = self._new([f"{self.prefix}step-{k}" for k in range(first, max(first, last) + 1)])
                if ids:
                    label = f"step {first}" if first == last else f"steps {first}-{last}"
                    line = line[:m.end()] + " " + _target(ids) + _link(ids[0], label, "step-link lead") + line[m.end():]
            out.append(line)
        return "\n".join(out)
