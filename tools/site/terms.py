"""The defined terms of the spec: one registry, from which the site's term links are generated.

Each term is defined once, on the page of its section: by the section whose heading the registry
names (an anchor `term-<slug>` under that heading), or, with no heading given, where that page first
uses it (`<dfn id="term-nameprep">`).
Every other use in prose, on any page, becomes a link to it. Prose means outside headings, code,
links, HTML and bold step labels, so nothing a notebook writes by hand is touched.

A notebook can also point at a term with words of its own: `[the sets of octets](#term-encode-set)`.
The build turns that into a link to the term's page; a `#term-...` name that is not in the registry
stops the build (and tests/site/test_site.py checks the notebooks for such names).
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    slug: str         # the id on the defining page: term-<slug>
    page: str         # the page that defines it
    heading: str      # the section defining it: the first heading holding this text ('': first use)
    forms: str        # a regular expression for the term's uses (word boundaries are added)
    case: bool = False  # match case (proper names), else ASCII case-insensitively


TERMS = [
    Term("preprocess", "charclasses", "The steps to preprocess", r"preprocess(?:es|ed|ing)?"),
    Term("unreserved", "charclasses", "Unreserved characters", r"unreserved(?: characters?)?"),
    Term("scheme-character", "charclasses", "Valid scheme characters", r"(?:valid )?scheme characters?"),
    Term("slash-character", "charclasses", "Slash characters", r"slash characters?"),
    Term("authority-terminating-character", "charclasses", "Slash characters",
         r"authority terminating characters?"),
    Term("control-character", "charclasses", "Control characters", r"control characters?"),
    Term("hierarchical", "charclasses", "Hierarchical and non-hierarchical", r"hierarchical"),
    Term("parsed-url", "parsing", "The parsed URL", r"parsed URLs?"),
    Term("unc-path", "parsing", "Parsing a UNC path", r"UNC paths?", True),
    Term("base-url", "resolution", "", r"base URLs?"),
    Term("dot-segment", "resolution", "Remove dot-segments", r"dot-segments?"),
    Term("drive-specification", "resolution", "drive specifications", r"drive specifications?"),
    Term("ipv4-address", "ipaddr", "IPv4 addresses", r"IPv4 address(?:es)?", True),
    Term("ipv6-address", "ipaddr", "IPv6 addresses", r"IPv6 (?:address(?:es)?|literals?)", True),
    Term("nameprep", "nameprep", "", r"Nameprep", True),
    Term("canonicalizehost", "host", "The CanonicalizeHost algorithm", r"CanonicalizeHost", True),
    Term("percent-decode", "host", "", r"percent-decod(?:e|es|ed|ing)"),
    Term("profile", "host", "Domain names and the four behaviours", r"(?:browser )?profiles?"),
    Term("punycode", "host", "The CanonicalizeHost algorithm", r"Punycode", True),
    Term("label-separator", "host", "The CanonicalizeHost algorithm", r"label separators?"),
    Term("root-dot", "host", "The CanonicalizeHost algorithm", r"root dot"),
    Term("encoding-label", "encodings", "Labels", r"encoding labels?"),
    Term("charset", "encodings", "Which encoding a charset means", r"charsets?"),
    Term("percent-encode", "canonicalization", "The steps to percent-encode",
         r"percent-encod(?:e|es|ed|ing)"),
    Term("encode-set", "canonicalization", "The sets of octets", r"sets? of octets"),
    Term("default-port", "canonicalization", "Default ports", r"default ports?"),
    Term("serialize", "serialization", "The steps to serialize", r"serializ(?:e|es|ed|ing|ation)"),
]
BY_SLUG = {t.slug: t for t in TERMS}

# Regions left alone: fenced code is handled by lines; inline code, links and images, HTML tags,
# bold text (step labels, notes' titles), bare URLs.
_PROTECT = re.compile(r"`+[^`]*`+|!?\[[^\]]*\]\([^)]*\)|<[^>]+>|\*\*[^*]+\*\*|https?://\S+")
_REF = re.compile(r"\[([^\]]+)\]\(#term-([\w-]+)\)")
_TERM_SPLIT = re.compile(r"(<a [^>]*>.*?</a>|<dfn [^>]*>.*?</dfn>)")


def _pattern(t: Term) -> re.Pattern:
    return re.compile(r"(?<![\w-])(?:" + t.forms + r")(?![\w-])", 0 if t.case else re.IGNORECASE)


PATTERNS = [(t, _pattern(t)) for t in TERMS]


class UnknownTerm(ValueError):
    pass


def href(t: Term, page: str) -> str:
    return f"#term-{t.slug}" if t.page == page else f"{t.page}.html#term-{t.slug}"


class Linker:
    "Marks definitions and links uses in the markdown cells of one page, in order."

    def __init__(self, page: str):
        self.page = page
        self.heading = ""
        self.defined: set[str] = set()
        self.links: list[str] = []         # slugs linked on this page

    def _heading(self, text: str) -> str:
        "The targets of the terms this heading defines (an empty element each, after the heading)."
        made = []
        for t in TERMS:
            if t.page == self.page and t.heading and t.heading in text and t.slug not in self.defined:
                self.defined.add(t.slug)
                made.append(f'<span class="term-target" id="term-{t.slug}"></span>')
        return "".join(made)

    def _refs(self, text: str) -> str:
        "Hand-written `[words](#term-slug)` references: a link to the term's page."
        def repl(m):
            t = BY_SLUG.get(m.group(2))
            if t is None:
                raise UnknownTerm(f"{self.page}: [{m.group(1)}](#term-{m.group(2)}) names no term of "
                                  f"tools/site/terms.py")
            self.links.append(t.slug)
            return f'<a class="term" href="{href(t, self.page)}">{m.group(1)}</a>'
        return _REF.sub(repl, text)

    def _prose(self, text: str) -> str:
        "Terms in a stretch of plain prose: a definition or a link each."
        for t, pat in PATTERNS:
            pieces = _TERM_SPLIT.split(text)   # never inside a link or a definition made just now
            for i in range(0, len(pieces), 2):
                pieces[i] = pat.sub(lambda m: self._use(t, m.group(0)), pieces[i])
            text = "".join(pieces)
        return text

    def _use(self, t: Term, words: str) -> str:
        if t.page == self.page and t.slug not in self.defined:
            if not t.heading:       # defined where the page first uses it
                self.defined.add(t.slug)
                return f'<dfn class="term" id="term-{t.slug}">{words}</dfn>'
            return words            # a use before its section, on the defining page, stays as it is
        self.links.append(t.slug)
        return f'<a class="term" href="{href(t, self.page)}">{words}</a>'

    def line(self, line: str) -> str:
        out, last = [], 0
        for m in _PROTECT.finditer(line):
            out.append(self._prose(line[last:m.start()]))
            out.append(m.group(0))
            last = m.end()
        out.append(self._prose(line[last:]))
        return "".join(out)

    def cell(self, text: str) -> str:
        text = self._refs(text)
        out, fence, title = [], False, False
        for line in text.split("\n"):
            if line.startswith("# "):
                title = True            # the page's title and its one-line summary: left as written
            if title and line.startswith(">"):
                out.append(line)
                continue
            if line.lstrip().startswith(("```", "~~~")):
                fence = not fence
                out.append(line)
                continue
            if fence:
                out.append(line)
                continue
            h = re.match(r"^#{1,6}\s+(.*)$", line)
            if h:
                out.append(line)
                targets = self._heading(h.group(1))
                if targets:
                    out += ["", targets, ""]
                continue
            if line.lstrip().startswith("|") and re.fullmatch(r"[\s|:-]+", line):
                out.append(line)
                continue
            out.append(self.line(line))
        return "\n".join(out)

    def missing(self) -> list[str]:
        "Terms this page should define but did not (no use of the term in prose after its heading)."
        return [t.slug for t in TERMS if t.page == self.page and t.slug not in self.defined]

