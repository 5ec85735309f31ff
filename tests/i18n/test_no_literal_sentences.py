"""No sentence a person reads is written in the code: each one is the catalogue's.

A sentence typed into a ``setText("…")``, a ``help="…"`` or a ``print("…")`` reads in one
language whatever the referee chose, and no translator sees it. This test reads the source
of ``clockd``, ``gui`` and ``web`` (the syntax tree: nothing runs) and lists every string
literal that reaches a place a person reads — a Qt widget's text, title, tooltip or a
message box, argparse's help and descriptions, what the command line prints or exits with
— and still holds a word after what is not prose is taken away (placeholders, options,
HTML tags, the program's own name and commands, units). What is left must come from
:func:`clockd.i18n.text` instead; the few literals that are not prose for the reader (a
developer's trace) are listed in :data:`ALLOWED` with the reason.

Logs (``logger.error(…)``) and exceptions for developers are English by design
(``clockd/i18n``: ``str(problem)`` is the English sentence for logs), and pydantic's
``Field(description=…)`` documents a schema for developers: neither is looked at.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("clockd", "gui", "web")

#: Qt calls and the index of the argument a person reads.
QT_TEXTS = {
    "setText": 0,
    "setToolTip": 0,
    "setWindowTitle": 0,
    "setPlaceholderText": 0,
    "setStatusTip": 0,
    "setWhatsThis": 0,
    "showMessage": 0,
    "setTitle": 0,
    "addItem": 0,
    "addTab": 1,
    "insertTab": 2,
    "setTabText": 1,
    "addAction": 0,
    "addMenu": 0,
    "addRow": 0,
    "setHeaderLabels": 0,
    "setHorizontalHeaderLabels": 0,
    "setVerticalHeaderLabels": 0,
    "setLabelText": 0,
    "setSpecialValueText": 0,
    "setSuffix": 0,
    "setPrefix": 0,
    "setInformativeText": 0,
    "setDetailedText": 0,
    "setHtml": 0,
    "setPlainText": 0,
    "setMarkdown": 0,
}
#: Qt widgets whose first argument is their text.
QT_WIDGETS = {
    "QLabel",
    "QPushButton",
    "QCheckBox",
    "QRadioButton",
    "QGroupBox",
    "QAction",
    "QToolButton",
    "QMenu",
    "QTableWidgetItem",
    "QListWidgetItem",
    "QTreeWidgetItem",
}
#: Static dialogs: ``QMessageBox.question(parent, title, text)``, ``QInputDialog.getText(…)``.
QT_DIALOGS = {"QMessageBox": slice(1, 3), "QInputDialog": slice(1, 3), "QFileDialog": slice(1, 4)}
#: argparse's calls and their keywords a person reads in ``--help``.
ARGPARSE_CALLS = {
    "Parser",
    "ArgumentParser",
    "add_argument",
    "add_parser",
    "add_subparsers",
    "add_argument_group",
    "add_mutually_exclusive_group",
}
ARGPARSE_WORDS = {"help", "description", "epilog", "title", "usage"}
#: What the command line says: printed, written to a stream, or exited with.
OUTPUT_CALLS = {"print", "write", "SystemExit", "exit"}

#: Not prose: a placeholder, an option, an HTML tag or entity, the program with its
#: commands ("duelclock swiss pair"), an identifier (``t_ms``), a file's ending (``*.csv``).
_NOT_PROSE = re.compile(
    r"\{[^{}]*\}|(?<!\w)--?[a-z][\w-]*|<[^>]*>|&\w+;|\bduelclock(?: [a-z][a-z-]*)*|\w*_\w*|\*?(?<!\w)\.\w+"
)
_WORD = re.compile(r"[^\W\d_]{2,}")
#: Words that read the same in every language the desk speaks (units, abbreviations).
UNITS = {"ms", "min", "px", "API", "TLS", "MQTT", "CSV", "PDF", "PNG", "TOML", "JSON"}

#: ``(file, literal)`` pairs that are not a sentence for the reader, with the reason.
ALLOWED = {
    # a developer's trace of a duel's events (``duelclock duel --trace``), in the model's names
    ("clockd/kinds/duel/cli_replay.py", "events[ ] t_ms=    -> "),
}


def literal(node: ast.AST) -> str | None:
    """The literal text of an expression: a string, an f-string's fixed parts, a sum or a list
    of them, either branch of ``a if c else b``, Qt's ``tr("…")``; ``None`` if no part is literal."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return " ".join(
            v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        )
    parts: list[ast.AST] = []
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "tr":
        parts = node.args[:1]  # Qt's tr("…") is a literal too: no catalogue sees it
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
        parts = [node.left, node.right]
    elif isinstance(node, ast.List | ast.Tuple):
        parts = list(node.elts)
    elif isinstance(node, ast.IfExp):
        parts = [node.body, node.orelse]
    texts = [t for t in map(literal, parts) if t]
    return " ".join(texts) if texts else None


def prose(text: str) -> bool:
    """Whether ``text`` holds a word a reader reads (anything left once what is not prose goes)."""
    return any(w not in UNITS for w in _WORD.findall(_NOT_PROSE.sub(" ", text)))


def _read(node: ast.Call) -> Iterator[ast.AST]:
    """The arguments of ``node`` that a person reads, if it is one of the calls above."""
    f = node.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    owner = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else ""
    if name in QT_TEXTS and len(node.args) > QT_TEXTS[name]:
        yield node.args[QT_TEXTS[name]]
    if name in QT_WIDGETS and node.args:
        yield node.args[0]
    if owner in QT_DIALOGS:
        yield from node.args[QT_DIALOGS[owner]]
    if name in OUTPUT_CALLS or (name == "error" and "parser" in owner.lower()):
        yield from node.args[:1]
    if name in ARGPARSE_CALLS:
        yield from (k.value for k in node.keywords if k.arg in ARGPARSE_WORDS)


def literal_sentences(source: str, filename: str) -> list[tuple[int, str]]:
    """``(line, text)`` of each literal sentence that reaches a reader in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Call):
            for arg in _read(node):
                text = literal(arg)
                if text is not None and prose(text):
                    found.append((arg.lineno, text))
    return found


def test_no_sentence_is_written_in_the_code_instead_of_the_catalogue() -> None:
    found = []
    scanned = 0
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")):
            scanned += 1
            name = path.relative_to(ROOT).as_posix()
            for line, text in literal_sentences(path.read_text(encoding="utf-8"), name):
                if (name, text) not in ALLOWED:
                    found.append(f"{name}:{line}: {text!r}")
    assert scanned > 150  # the walk read the program, not an empty folder
    assert found == [], "say these with clockd.i18n.text(code) and a catalogue entry:\n" + "\n".join(found)


def test_the_allowed_literals_are_still_there() -> None:
    """An allowance nobody needs any more goes (the list stays the few that are not prose)."""
    seen = set()
    for name, _ in ALLOWED:
        source = (ROOT / name).read_text(encoding="utf-8")
        seen |= {(name, text) for _, text in literal_sentences(source, name)}
    assert seen >= ALLOWED


def test_the_scan_finds_a_sentence_wherever_a_person_reads_it() -> None:
    """The scan is not blind: each kind of place, with a sentence typed in, is found; the
    catalogue's lookups and what is not prose are not."""
    source = """
label.setText("Start the session")
QPushButton(f"Pause table {n}", self)
QMessageBox.question(self, "Close the round", question)
tabs.addTab(page, "Bracket and tables")
parser.add_argument("--port", type=int, help="the daemon's port")
print(f"duelclock run: cannot open {path}", file=sys.stderr)
parser.error("no such table")
raise SystemExit("not connected")
label.setText(text("gui.referee.start-session"))
print(f"duelclock run: {text('cli.run.tables')}: {n}")
spin.setSuffix(" min")
label.setText(f"<b>{name}</b> · {seats}")
parser.add_argument("--lang", help=text("cli.gui.lang-help"), metavar="pl|en")
logger.error("journal %s: the rescue checkpoint failed: %s", path, exc)
self.act_pause.setText(self.tr("Pause"))
"""
    assert [line for line, _ in literal_sentences(source, "example.py")] == [2, 3, 4, 5, 6, 7, 8, 9, 16]
