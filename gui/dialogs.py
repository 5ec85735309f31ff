"""The referee's dialogs: each asks only what its action needs and will not accept half of it.

A dialog's OK button stays disabled until every required field is filled (a time
adjustment needs a reason; an override needs a winner, a category and a reason), so an
action never leaves the desk incomplete. ``action()`` returns the core's action itself
(:mod:`clockd.core.actions`), built from exactly what was asked — the same class the
daemon journals and applies. Whether it may be done is the daemon's word: a dialog lists
what the views allow (the matches that may be put on a table) and decides nothing else.
"""

from __future__ import annotations

import secrets

from PySide6.QtCore import QRegularExpression, Qt
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from clockd.core.actions import Action, CreateEvent
from clockd.core.bracket import Assign, Override, OverrideReason, StartTiebreak, Toss, Walkover
from clockd.core.clock import Adjust, Side
from clockd.core.hall import FinishEntry
from clockd.core.ids import KEY_PATTERN, local_name
from clockd.core.program import AddNote
from clockd.core.puzzle_duel import MakeDraw
from clockd.core.registration import AddPlayer
from clockd.core.switcher import ReplacePerson, TableDone
from clockd.core.zone import CountEntry, MissingPieces, SplitEntry, VoidEntry
from clockd.i18n import text
from gui import terms
from gui.hallconfig import config_toml
from gui.model import DeskState, Hall, Match
from gui.widgets.painted import font

#: A typed reason's longest form (the actions' own limit).
REASON_MAX = 500


class _Form(QDialog):
    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setModal(True)
        self.form = QFormLayout()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(460)

    def ok_button(self) -> QPushButton:
        button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert button is not None
        return button

    def revalidate(self) -> None:
        self.ok_button().setEnabled(self.valid())

    def valid(self) -> bool:
        return True

    def _reason(self, placeholder: str) -> QLineEdit:
        edit = QLineEdit(self)
        edit.setMaxLength(REASON_MAX)
        edit.setPlaceholderText(placeholder)
        edit.textChanged.connect(self.revalidate)
        return edit


def _names_at_clock(state: DeskState, table: int) -> tuple[str, str]:
    """Who sits at the clock's sides ``a`` and ``b`` of ``table`` (when an event's match is on it)."""
    duel = state.duel_at(table)
    if duel is None:
        return "", ""
    event, m = duel
    players = event.session.players if event.session is not None else {}

    def name(pid: int | None) -> str:
        p = players.get(pid) if pid is not None else None
        return p.display_name if p is not None else ("" if pid is None else f"#{pid}")

    return name(m.at_clock(Side.A)), name(m.at_clock(Side.B))


class AdjustDialog(_Form):
    """Add or remove time on one side of a table's clock, with a reason (it is journaled)."""

    def __init__(self, state: DeskState, table: int, parent: QWidget | None = None) -> None:
        super().__init__(text("gui.dialogs.adjust-the-time-table", table=str(table)), parent)
        self.table = table
        self.sides = QButtonGroup(self)
        box = QWidget(self)
        row = QVBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        for side, player in zip((Side.A, Side.B), _names_at_clock(state, table), strict=True):
            label = text("gui.dialogs.side-letter", side=side.value.upper())
            r = QRadioButton(f"{label} — {player}" if player else label, box)
            r.setProperty("side", side.value)
            self.sides.addButton(r)
            row.addWidget(r)
            r.toggled.connect(self.revalidate)
        self.form.addRow(text("gui.dialogs.side"), box)
        self.seconds = QSpinBox(self)
        self.seconds.setRange(-3600, 3600)
        self.seconds.setSuffix(" s")
        self.seconds.setValue(10)
        self.seconds.valueChanged.connect(self.revalidate)
        self.form.addRow(text("gui.dialogs.add-negative-remove"), self.seconds)
        self.reason = self._reason(text("gui.dialogs.why-required-it-is-journaled"))
        self.form.addRow(text("gui.dialogs.reason"), self.reason)
        self.revalidate()

    def valid(self) -> bool:
        return (
            self.sides.checkedButton() is not None
            and self.seconds.value() != 0
            and bool(self.reason.text().strip())
        )

    def action(self) -> Adjust:
        button = self.sides.checkedButton()
        assert button is not None
        return Adjust(
            side=Side(str(button.property("side"))),
            delta_ms=self.seconds.value() * 1000,
            reason=self.reason.text().strip(),
        )


class NoteDialog(_Form):
    def __init__(self, table: int, parent: QWidget | None = None) -> None:
        super().__init__(text("gui.dialogs.note-in-the-timeline-table", table=str(table)), parent)
        self.table = table
        self.text = QLineEdit(self)
        self.text.setMaxLength(2000)
        self.text.textChanged.connect(self.revalidate)
        self.form.addRow(text("gui.dialogs.note"), self.text)
        self.revalidate()

    def valid(self) -> bool:
        return bool(self.text.text().strip())

    def action(self) -> AddNote:
        return AddNote(text=self.text.text().strip())


def _player_choice(form: _Form, label: str, state: DeskState, match: Match) -> QButtonGroup:
    """A row of the form with one radio button per entrant of ``match``; each choice revalidates."""
    group = QButtonGroup(form)
    box = QWidget(form)
    col = QVBoxLayout(box)
    col.setContentsMargins(0, 0, 0, 0)
    for player in match.entrants:
        b = QRadioButton(state.name(player), box)
        b.setProperty("player", player)
        group.addButton(b)
        col.addWidget(b)
        b.toggled.connect(form.revalidate)
    form.form.addRow(label, box)
    return group


class OverrideDialog(_Form):
    """The referee decides a match (disqualification §8.1, a dispute §2.2.19)."""

    CATEGORIES = (OverrideReason.DISPUTE, OverrideReason.DISQUALIFICATION, OverrideReason.OTHER)

    def __init__(self, state: DeskState, match: Match, parent: QWidget | None = None) -> None:
        super().__init__(text("gui.dialogs.decide-match", match=terms.match_label(match)), parent)
        self.match = match
        self.winners = _player_choice(self, text("gui.dialogs.winner"), state, match)
        self.category = QComboBox(self)
        labels = {
            OverrideReason.DISPUTE: text("gui.dialogs.dispute-2-2-19"),
            OverrideReason.DISQUALIFICATION: text("gui.dialogs.disqualification-8-1"),
            OverrideReason.OTHER: text("gui.dialogs.other"),
        }
        for c in self.CATEGORIES:
            self.category.addItem(labels[c], c.value)
        self.form.addRow(text("gui.dialogs.why"), self.category)
        self.reason = self._reason(text("gui.dialogs.what-happened-required-it-is"))
        self.form.addRow(text("gui.dialogs.reason"), self.reason)
        self.revalidate()

    def valid(self) -> bool:
        return self.winners.checkedButton() is not None and bool(self.reason.text().strip())

    def action(self) -> Override:
        button = self.winners.checkedButton()
        assert button is not None
        return Override(
            winner=int(button.property("player")),
            category=OverrideReason(self.category.currentData()),
            reason=self.reason.text().strip(),
        )


class WalkoverDialog(_Form):
    """A player did not come to the table: the other advances."""

    def __init__(self, state: DeskState, match: Match, parent: QWidget | None = None) -> None:
        super().__init__(text("gui.dialogs.walkover-in", match=terms.match_label(match)), parent)
        self.match = match
        self.absent = _player_choice(self, text("gui.dialogs.absent"), state, match)
        self.reason = self._reason("")
        self.form.addRow(text("gui.dialogs.reason"), self.reason)
        self.revalidate()

    def valid(self) -> bool:
        return self.absent.checkedButton() is not None and bool(self.reason.text().strip())

    def action(self) -> Walkover:
        button = self.absent.checkedButton()
        assert button is not None
        return Walkover(absent=int(button.property("player")), reason=self.reason.text().strip())


class AssignDialog(_Form):
    """Put a match (or a tie-break) on a table: the table's clock is set for its round.

    ``matches`` are those the daemon allows to be put on a table now. A table that runs
    another program says so (whose), for the referee to see; whether it may take the match
    is the daemon's to say when asked.
    """

    def __init__(
        self,
        state: DeskState,
        matches: list[Match],
        *,
        table: int | None = None,
        match: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(text("gui.dialogs.put-a-match-on-a"), parent)
        self.state = state
        self.matches = {m.id: m for m in matches}
        self.match = QComboBox(self)
        for m in sorted(matches, key=lambda m: (m.round, m.slot, m.id)):
            self.match.addItem(f"{terms.match_label(m)}: {state.name(m.a)} – {state.name(m.b)}", m.id)
        if match is not None:
            i = self.match.findData(match)
            if i >= 0:
                self.match.setCurrentIndex(i)
        self.form.addRow(text("gui.dialogs.match"), self.match)
        self.table = QComboBox(self)
        for t in sorted(state.tables):
            label = text("gui.dialogs.table-number", table=str(t))
            busy = self._busy(t)
            if busy:
                label += " — " + text("gui.dialogs.busy", busy=busy)
            self.table.addItem(label, t)
        if table is not None:
            i = self.table.findData(table)
            if i >= 0:
                self.table.setCurrentIndex(i)
        self.form.addRow(text("gui.dialogs.table"), self.table)
        self.side_a = QComboBox(self)
        self.side_a_label = text("gui.dialogs.sits-at-side-a")
        self.form.addRow(self.side_a_label, self.side_a)
        self.match.currentIndexChanged.connect(self._match_changed)
        self.table.currentIndexChanged.connect(self.revalidate)
        self._match_changed()

    @classmethod
    def for_tiebreak(
        cls, state: DeskState, match: Match, *, table: int | None = None, parent: QWidget | None = None
    ) -> AssignDialog:
        """The tie-break of ``match`` (or of the one a tie-break settles) on a table: only that is asked."""
        bracket = state.bracket
        root = bracket.matches.get(match.tiebreak_of, match) if bracket and match.tiebreak_of else match
        dialog = cls(
            state, [root], table=table if table is not None else root.table, match=root.id, parent=parent
        )
        dialog.setWindowTitle(text("gui.dialogs.start-the-tie-break-of", match=terms.match_label(root)))
        dialog.side_a.setEnabled(False)  # the players keep their seats (the root match's)
        return dialog

    def _busy(self, table: int) -> str:
        """What another program runs on ``table`` now (its owner's item), "" if nothing is owned there."""
        t = self.state.tables.get(table)
        if t is None or t.owner is None:
            return ""
        duel = self.state.duel_at(table)
        if duel is not None:
            event, m = duel
            if m.status not in ("assigned", "result"):
                return ""
            return terms.match_label(m) if event.id == self.state.shown else f"{event.key}/{m.id}"
        return local_name(t.owner)

    def _match_changed(self) -> None:
        self.side_a.clear()
        m = self.matches.get(self.match.currentData())
        if m is not None:
            for p in m.entrants:
                self.side_a.addItem(self.state.name(p), p)
        self.revalidate()

    def valid(self) -> bool:
        return self.match.currentData() is not None and self.table.currentData() is not None

    def action(self) -> tuple[str, Assign]:
        """The match to put on a table, and the action."""
        return str(self.match.currentData()), Assign(
            table=int(self.table.currentData()), clock_a=self.side_a.currentData()
        )

    def tiebreak_action(self) -> StartTiebreak:
        return StartTiebreak(table=int(self.table.currentData()))


class TossDialog(QDialog):
    """The puzzle toss (§2.2.7): one button per player; the winner's time runs first."""

    def __init__(self, state: DeskState, match: Match, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(text("gui.dialogs.toss", match=terms.match_label(match)))
        self.match = match
        self.winner: int | None = None
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(text("gui.dialogs.who-won-the-toss-their"), self))
        grid = QGridLayout()
        for i, player in enumerate(match.entrants):
            b = QPushButton(state.name(player), self)
            b.setMinimumHeight(48)
            b.clicked.connect(lambda _=False, p=player: self._choose(p))
            grid.addWidget(b, 0, i)
        layout.addLayout(grid)
        cancel = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        cancel.rejected.connect(self.reject)
        layout.addWidget(cancel)

    def _choose(self, player: int) -> None:
        self.winner = player
        self.accept()

    def action(self) -> Toss:
        assert self.winner is not None
        return Toss(winner=self.winner)


class DrawDialog(_Form):
    """The draw (§2.2.1): by the app with a recorded seed, or the lines the players drew by hand."""

    def __init__(self, state: DeskState, parent: QWidget | None = None) -> None:
        super().__init__(text("gui.dialogs.the-draw"), parent)
        self.state = state
        self.tabs = QTabWidget(self)
        seeded = QWidget(self)
        seeded_form = QFormLayout(seeded)
        self.seed = QSpinBox(seeded)
        self.seed.setRange(1, 2_000_000_000)
        self.seed.setValue(secrets.randbelow(999_999) + 1)
        seeded_form.addRow(text("gui.dialogs.seed-recorded-anyone-can-re"), self.seed)
        self.tabs.addTab(seeded, text("gui.dialogs.drawn-by-the-app"))
        physical = QWidget(self)
        grid = QFormLayout(physical)
        self.lines: list[QComboBox] = []
        field = sorted((p for p in state.players.values() if p.in_field), key=lambda p: p.display_name)
        for line in range(1, max(2, len(field)) + 1):
            box = QComboBox(physical)
            box.addItem("—", None)
            for p in field:
                box.addItem(p.display_name, p.id)
            box.currentIndexChanged.connect(self.revalidate)
            self.lines.append(box)
            grid.addRow(text("gui.dialogs.line", line=str(line)), box)
        self.tabs.addTab(physical, text("gui.dialogs.drawn-at-the-table"))
        self.tabs.currentChanged.connect(self.revalidate)
        self.form.addRow(self.tabs)
        self.revalidate()

    def valid(self) -> bool:
        if self.tabs.currentIndex() == 0:
            return True
        chosen = [b.currentData() for b in self.lines]
        return None not in chosen and len(set(chosen)) == len(chosen)

    def action(self) -> MakeDraw:
        if self.tabs.currentIndex() == 0:
            return MakeDraw(seed=self.seed.value())
        return MakeDraw(lines={i + 1: int(b.currentData()) for i, b in enumerate(self.lines)})


class ShortcutsDialog(QDialog):
    """The keyboard shortcuts, as the actions themselves define them (so this never goes stale)."""

    def __init__(self, rows: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(text("gui.dialogs.keyboard-shortcuts"))
        layout = QGridLayout(self)
        for i, (keys, what) in enumerate(rows):
            k = QLabel(f"<b>{keys}</b>", self)
            k.setTextFormat(Qt.TextFormat.RichText)
            layout.addWidget(k, i, 0)
            layout.addWidget(QLabel(what, self), i, 1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        layout.addWidget(close, len(rows), 0, 1, 2)


class AddPlayerDialog(_Form):
    """A person typed in at the desk: a late sign-up, or a walk-in on the day (§1.19)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(text("gui.dialogs.add-a-player"), parent)
        self.first = QLineEdit(self)
        self.first.setMaxLength(100)
        self.first.textChanged.connect(self.revalidate)
        self.form.addRow(text("gui.dialogs.first-name"), self.first)
        self.last = QLineEdit(self)
        self.last.setMaxLength(100)
        self.form.addRow(text("gui.dialogs.surname"), self.last)
        self.nickname = QLineEdit(self)
        self.nickname.setMaxLength(100)
        self.nickname.setPlaceholderText(text("gui.dialogs.optional-the-name-on-the"))
        self.form.addRow(text("gui.dialogs.nickname"), self.nickname)
        self.age = QSpinBox(self)
        self.age.setRange(0, 130)
        self.age.setValue(18)
        self.form.addRow(text("gui.dialogs.age"), self.age)
        self.email = QLineEdit(self)
        self.email.setMaxLength(200)
        self.form.addRow(text("gui.dialogs.e-mail"), self.email)
        self.phone = QLineEdit(self)
        self.phone.setMaxLength(50)
        self.form.addRow(text("gui.dialogs.phone"), self.phone)
        self.walk_in = QCheckBox(text("gui.dialogs.walk-in-waiting-at-the"), self)
        self.walk_in.setChecked(True)
        self.form.addRow("", self.walk_in)
        self.revalidate()

    def valid(self) -> bool:
        return bool(self.first.text().strip())

    def action(self) -> AddPlayer:
        return AddPlayer(
            first_name=self.first.text().strip(),
            last_name=self.last.text().strip(),
            nickname=self.nickname.text().strip(),
            age=self.age.value(),
            email=self.email.text().strip(),
            phone=self.phone.text().strip(),
            walk_in=self.walk_in.isChecked(),
        )


def _key_edit(form: _Form) -> QLineEdit:
    """An event's key, typed as the daemon takes it (a letter, then letters, digits, - or _)."""
    key = QLineEdit(form)
    key.setPlaceholderText(text("gui.dialogs.e-g-pt-sb-relay"))
    key.setValidator(QRegularExpressionValidator(QRegularExpression(KEY_PATTERN.pattern), key))
    key.textChanged.connect(form.revalidate)
    return key


class NewSessionDialog(_Form):
    """A new Puzzle Duel session on the festival's rules: a short key and the name screens show."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(text("gui.dialogs.new-puzzle-duel-session"), parent)
        self.key = _key_edit(self)
        self.form.addRow(text("gui.dialogs.key"), self.key)
        self.name = QLineEdit(self)
        self.name.setMaxLength(200)
        self.name.setPlaceholderText(text("gui.dialogs.e-g-friday-19-06"))
        self.form.addRow(text("gui.dialogs.name"), self.name)
        self.revalidate()

    def valid(self) -> bool:
        return bool(self.key.text())

    def action(self) -> CreateEvent:
        return CreateEvent(event_kind="puzzle-duel", key=self.key.text(), name=self.name.text().strip())


class NewTimerDialog(_Form):
    """A new timed hall event: its length (none: it counts up), its signals and its stations.

    The stations are typed as ``entry = table`` pairs, one per line (``Para 1 = 5``): each
    entry's table, whose button then records its finish.
    """

    def __init__(self, tables: list[int], parent: QWidget | None = None) -> None:
        super().__init__(text("gui.dialogs.new-timed-event"), parent)
        self.key = _key_edit(self)
        self.form.addRow(text("gui.dialogs.key"), self.key)
        self.name = QLineEdit(self)
        self.name.setMaxLength(200)
        self.name.setPlaceholderText(text("gui.dialogs.e-g-pairs-relay"))
        self.form.addRow(text("gui.dialogs.name"), self.name)
        self.duration = QSpinBox(self)
        self.duration.setRange(0, 24 * 60)
        self.duration.setValue(60)
        self.duration.setSuffix(" min")
        self.duration.setSpecialValueText(text("gui.dialogs.none-count-up"))
        self.form.addRow(text("gui.dialogs.length"), self.duration)
        self.every = QSpinBox(self)
        self.every.setRange(0, 24 * 60)
        self.every.setValue(5)
        self.every.setSuffix(" min")
        self.every.setSpecialValueText(text("gui.dialogs.no-signals"))
        self.form.addRow(text("gui.dialogs.a-signal-every"), self.every)
        self.stations = QLineEdit(self)
        first = tables[:2] if tables else [1, 2]
        self.stations.setPlaceholderText(", ".join(f"Para {i + 1} = {t}" for i, t in enumerate(first)))
        self.stations.textChanged.connect(self.revalidate)
        self.form.addRow(text("gui.dialogs.stations-entry-table"), self.stations)
        self.revalidate()

    def parsed_stations(self) -> dict[str, int] | None:
        """The stations typed, or ``None`` if one is not ``entry = table``."""
        out: dict[str, int] = {}
        for part in self.stations.text().split(","):
            if not part.strip():
                continue
            entry, sep, table = part.partition("=")
            if not sep or not entry.strip() or not table.strip().isdigit():
                return None
            out[entry.strip()] = int(table)
        return out

    def valid(self) -> bool:
        return bool(self.key.text()) and self.parsed_stations() is not None

    def config_toml(self) -> str:
        return config_toml(
            duration_min=self.duration.value() or None,
            every_min=self.every.value() or None,
            stations=self.parsed_stations() or {},
        )

    def action(self) -> CreateEvent:
        return CreateEvent(
            event_kind="timer",
            key=self.key.text(),
            name=self.name.text().strip(),
            config_toml=self.config_toml(),
        )


class NewZoneDialog(_Form):
    """A new contest of the puzzle zone — the pairs relay, blind puzzling, the team event, the
    S(witcher) rotation — with the regulations' rules (``clockd/data``); pairs join later."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(text("gui.dialogs.new-contest-of-the-puzzle"), parent)
        self.kind = QComboBox(self)
        for kind, label in (
            ("relay", text("gui.dialogs.pairs-relay-60-min-zmiana")),
            ("blind", text("gui.dialogs.blind-puzzling-60-min-bag")),
            ("team", text("gui.dialogs.team-event-180-min-teams")),
            ("switcher", text("gui.dialogs.s-witcher-rotation-a-change")),
        ):
            self.kind.addItem(label, kind)
        self.form.addRow(text("gui.dialogs.contest"), self.kind)
        self.key = _key_edit(self)
        self.key.textChanged.connect(self.revalidate)
        self.form.addRow(text("gui.dialogs.key"), self.key)
        self.name = QLineEdit(self)
        self.name.setMaxLength(200)
        self.name.setPlaceholderText(text("gui.dialogs.as-the-regulations-name-it"))
        self.form.addRow(text("gui.dialogs.name"), self.name)
        self.revalidate()

    def valid(self) -> bool:
        return bool(self.key.text())

    def action(self) -> CreateEvent:
        return CreateEvent(
            event_kind=str(self.kind.currentData()), key=self.key.text(), name=self.name.text().strip()
        )


class FinishDialog(_Form):
    """The referee records an entry's finish now (a table without a button, a team that called)."""

    def __init__(self, hall: Hall, parent: QWidget | None = None) -> None:
        super().__init__(text("gui.dialogs.record-a-finish"), parent)
        self.entry = QComboBox(self)
        for entry, label, finished in hall.finishable():
            if not finished:
                self.entry.addItem(label, entry)
        self.form.addRow(text("gui.dialogs.entry-team"), self.entry)
        self.missing: QSpinBox | None = None
        if hall.kind == "team":  # the time is recorded with the pieces missing (§5.2.6)
            self.missing = QSpinBox(self)
            self.missing.setRange(0, 1_000)
            self.form.addRow(text("gui.dialogs.missing-pieces"), self.missing)
        self.revalidate()

    def valid(self) -> bool:
        return self.entry.currentData() is not None

    def action(self) -> FinishEntry:
        return FinishEntry(entry=str(self.entry.currentData()))

    def missing_action(self) -> MissingPieces | None:
        """The pieces missing from the finished picture, if any were entered."""
        if self.missing is None or not self.missing.value():
            return None
        return MissingPieces(entry=str(self.entry.currentData()), missing=self.missing.value())


class ZoneEntryDialog(_Form):
    """One entry of the relay, blind puzzling or the team event, and what the referee records for
    it: bag 2 verified (``split``), counted pieces (``count``), missing pieces (``missing``), a
    void with its reason (``void``); for the rotation a replacement (``replace``) or a table done
    (``done``)."""

    def __init__(self, what: str, hall: Hall, parent: QWidget | None = None) -> None:
        titles = {
            "split": text("gui.dialogs.bag-2-verified-split"),
            "count": text("gui.dialogs.pieces-counted-after-the-end"),
            "missing": text("gui.dialogs.missing-pieces"),
            "void": text("gui.dialogs.void-not-classified"),
            "replace": text("gui.dialogs.a-person-leaves-another-takes"),
            "done": text("gui.dialogs.a-tables-puzzle-is-done"),
        }
        super().__init__(titles[what], parent)
        self.what = what
        self.entry = QComboBox(self)
        self.number = QSpinBox(self)
        self.text = self._reason(text("gui.dialogs.why-required-it-is-journaled"))
        if what == "replace":
            for s in hall.seats:
                label = text("gui.dialogs.no-table", seat=str(s.seat), table=str(s.table), name=s.name or "—")
                self.entry.addItem(label, s.seat)
            self.form.addRow(text("gui.dialogs.seat-number"), self.entry)
            self.text.setPlaceholderText(text("gui.dialogs.who-takes-the-seat-empty"))
            self.form.addRow(text("gui.dialogs.name-person"), self.text)
        elif what == "done":
            for t in hall.rotation_tables:
                if t.done_ms is None:
                    self.entry.addItem(text("gui.dialogs.table-item", table=str(t.table)), t.table)
            self.form.addRow(text("gui.dialogs.table"), self.entry)
        else:
            for r in hall.ranking:
                finished = r.finished_ms is not None
                if (what == "count" and finished) or (what == "missing" and not finished):
                    continue
                if what == "split" and (finished or r.split_ms is not None):
                    continue
                self.entry.addItem(r.name if r.table is None else f"{r.name} · {r.table}", r.entry)
            self.form.addRow(text("gui.dialogs.entry"), self.entry)
        self.per_picture: list[QSpinBox] = []
        if what == "count" and hall.pictures > 1:  # the relay: each picture counted on its own
            for n in range(1, hall.pictures + 1):
                spin = QSpinBox(self)
                spin.setRange(0, 100_000)
                spin.setFont(font(16))
                self.per_picture.append(spin)
                self.form.addRow(text("gui.dialogs.picture-groups-of-3-or", picture=str(n)), spin)
        elif what in ("count", "missing"):
            self.number.setRange(0, 100_000 if what == "count" else 1_000)
            self.number.setFont(font(16))
            label = (
                text("gui.dialogs.pieces-groups-of-3-or") if what == "count" else text("gui.dialogs.missing")
            )
            self.form.addRow(label, self.number)
        if what == "void":
            self.form.addRow(text("gui.dialogs.reason"), self.text)
        self.entry.currentIndexChanged.connect(self.revalidate)
        self.revalidate()

    def valid(self) -> bool:
        if self.entry.currentData() is None:
            return False
        return self.what != "void" or bool(self.text.text().strip())

    def action(self) -> Action:
        data = self.entry.currentData()
        if self.what == "split":
            return SplitEntry(entry=str(data))
        if self.what == "count" and self.per_picture:
            return CountEntry(entry=str(data), per_picture=tuple(s.value() for s in self.per_picture))
        if self.what == "count":
            return CountEntry(entry=str(data), pieces=self.number.value())
        if self.what == "missing":
            return MissingPieces(entry=str(data), missing=self.number.value())
        if self.what == "void":
            return VoidEntry(entry=str(data), reason=self.text.text().strip())
        if self.what == "replace":
            return ReplacePerson(seat=int(data), name=self.text.text().strip())
        return TableDone(table=int(data))


__all__ = [
    "AddPlayerDialog",
    "AdjustDialog",
    "AssignDialog",
    "DrawDialog",
    "FinishDialog",
    "NewSessionDialog",
    "NewTimerDialog",
    "NewZoneDialog",
    "NoteDialog",
    "OverrideDialog",
    "ShortcutsDialog",
    "TossDialog",
    "WalkoverDialog",
    "ZoneEntryDialog",
]
