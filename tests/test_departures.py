"""Departures from the spec's text come in one form: a Note `> **Note (departure: topic).**` in the prose,
and a mark `# departure: topic` at the code line it concerns (in the notebook, so also in the exported
module). Every note has at least one mark in its notebook, every mark names the topic of a note (of
any notebook: a step can depart at a line of another section's code), and no other spelling is used."""
import json
import re
from pathlib import Path

NBS = Path(__file__).resolve().parent.parent / "nbs"
NOTE = re.compile(r"^> \*\*Note \(departure: (.+?)\)\.\*\*", re.MULTILINE)
ANY_NOTE = re.compile(r"\*\*Note \(departure: (.+?)\)\.\*\*")
MARK = re.compile(r"#\s*departure:\s*(.+)$", re.MULTILINE)
OTHER = re.compile(r"#\s*(?:Departure\b|departure\b(?!:))[^\n]*")


def _cells():
    for nb in sorted(NBS.glob("*.ipynb")):
        for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
            yield nb.name, cell["cell_type"], "".join(cell["source"])


def _notes_and_marks():
    notes, marks, other = {}, [], []
    for nb, kind, src in _cells():
        if kind == "markdown":
            for topic in NOTE.findall(src):
                notes.setdefault(topic, nb)
        elif kind == "code":
            marks += [(nb, m.strip()) for m in MARK.findall(src)]
            other += [(nb, m) for m in OTHER.findall(src)]
    return notes, marks, other


def test_every_departure_note_has_a_mark_in_its_notebook():
    notes, marks, _ = _notes_and_marks()
    unmarked = [f"{nb}: {t}" for t, nb in notes.items()
                if not any(mnb == nb and m.startswith(t) for mnb, m in marks)]
    assert not unmarked, f"departure notes with no `# departure: topic` mark at their code: {unmarked}"


def test_every_mark_names_a_note():
    notes, marks, _ = _notes_and_marks()
    orphans = [f"{nb}: # departure: {m}" for nb, m in marks if not any(m.startswith(t) for t in notes)]
    assert not orphans, f"marks that name no departure note: {orphans}"


def test_one_spelling_of_marks():
    _, _, other = _notes_and_marks()
    assert not other, f"marks not written `# departure: topic`: {other}"


def test_departure_notes_are_set_apart():
    "A departure note is a block quote of its own (`> **Note (departure: topic).**`), not a clause."
    loose = [f"{nb}: {t}" for nb, kind, src in _cells() if kind == "markdown"
             for t in ANY_NOTE.findall(src) if t not in NOTE.findall(src)]
    assert not loose, f"departure notes not written as `> **Note (departure: topic).**`: {loose}"


# A departure is said in one form: prose that says the code goes with the data or
# the browsers rather than the spec's text ("we follow the data") sits in the block quote of a
# `> **Note (departure: topic).**`, so that it has a topic, a mark at its code line and a place in
# the list of departures. Said anywhere else (a plain paragraph, a `**Note.**`) it is a departure
# no reader can find.
DEPARTURE_WORDING = re.compile(
    r"\b(?:we|the code|our steps|this module|the module|it)\s+(?:follows?|keeps? to|sides? with|"
    r"goes with|go with)\s+the\s+(?:conformance\s+|test\s+)?(?:data|records?)\b"
    r"|\bthe\s+(?:conformance\s+|test\s+)?data\s+goes?\s+(?:one\s+step\s+)?further\s+than\s+the\s+text"
    r"|\bdepart(?:s|ing|ed)?\s+from\s+the\s+(?:spec|text)"
    r"|\bour\s+rule\s+for\s+conflicts\s+between\s+the\s+text\s+and\s+the\s+data",
    re.IGNORECASE)


def _note_blocks(text: str) -> list[str]:
    "The block quotes of departure notes in a markdown cell: from the note's first line to a line not quoted."
    blocks, current = [], None
    for line in text.splitlines():
        if NOTE.match(line):
            current = [line]
            blocks.append(current)
        elif current is not None and line.startswith(">"):
            current.append(line)
        else:
            current = None
    return [" ".join(b) for b in blocks]


def unmarked_departures(text: str) -> list[str]:
    "The departure wordings of one markdown cell that stand outside a departure note's block quote."
    inside = " ".join(_note_blocks(text))
    inside = re.sub(r"\s*\n>\s*|\s+>\s+|\s+", " ", inside)
    found = []
    for m in DEPARTURE_WORDING.finditer(re.sub(r"\s*\n>?\s*", " ", text)):
        if m.group(0) not in inside:
            found.append(m.group(0))
    return found


def test_departure_wording_is_recognised():
    "The check can fail: departure wording in a plain paragraph or a plain Note is found."
    assert unmarked_departures("The data say otherwise. We follow the data.") == ["We follow the data"]
    assert unmarked_departures("> **Note.** The conformance data goes one step further than the text:\n"
                               "> it accepts `01`. We follow the data.") == [
        "The conformance data goes one step further than the text", "We follow the data"]
    assert unmarked_departures("Our steps\nfollow the records here.") == ["Our steps follow the records"]
    assert unmarked_departures("> **Note (departure: octets).** The data accept `01`; we follow\n"
                               "> the data.\n\nThe next paragraph.") == []
    assert unmarked_departures("We follow the spec's text here; the browsers follow their own.") == []


def test_departure_wording_sits_in_a_departure_note():
    loose = [f"{nb}: {w!r}" for nb, kind, src in _cells() if kind == "markdown"
             for w in unmarked_departures(src)]
    assert not loose, ("prose that says we go with the data, outside a `> **Note (departure: topic).**` "
                       f"block quote: {loose}")
