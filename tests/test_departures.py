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
