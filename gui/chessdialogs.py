"""The chess arbiter's dialogs: an illegal-move claim, an appeal, a withdrawal — and pairing
every ready group at once, with its progress.

Each form dialog asks only what its action needs (OK stays disabled until it is complete)
and returns the core's action (:mod:`clockd.core.chessday.group`). The players offered are
the group's as the daemon's view names them. :class:`PairAllDialog` sends one ``chess-pair``
per group, in turn — the next once the daemon has answered the last — so it can be watched
group by group, and lists at the end the groups the daemon refused, with its reasons.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

from clockd.api.chess import ChessBody, ChessPlayerView
from clockd.core.chessday.group import ClaimIllegalMove, PairRound, RecordAppeal, WithdrawPlayer
from clockd.i18n import render, text
from gui.commands import Command, CommandResult, CommandSink
from gui.dialogs import _Form
from gui.widgets.chess import result_text
from gui.widgets.painted import font

#: The results an appeal's decision may set (none: the decision changes no result).
APPEAL_RESULTS = ("", "1-0", "0-1", "½-½", "+-", "-+", "0-0")


def known_players(body: ChessBody) -> list[ChessPlayerView]:
    """Every player the group's view names (boards, bye, absent, standings), by start number."""
    out: dict[int, ChessPlayerView] = {}
    for b in body.boards:
        out[b.white.start], out[b.black.start] = b.white, b.black
    for p in (body.bye, *body.absent, *body.to_withdraw, *(s.player for s in body.standings)):
        if p is not None:
            out.setdefault(p.start, p)
    return [out[k] for k in sorted(out)]


class _BoardForm(_Form):
    """A board of the round and one of its two players."""

    def __init__(self, title: str, body: ChessBody, board: int | None, parent: QWidget | None) -> None:
        super().__init__(title, parent)
        self.body = body
        self.board = QComboBox(self)
        for b in body.boards:
            self.board.addItem(f"{b.board}: {b.white.name} – {b.black.name} {result_text(b.result)}", b.board)
        if board is not None:
            self.board.setCurrentIndex(max(0, self.board.findData(board)))
        self.board.currentIndexChanged.connect(self._players)
        self.form.addRow(text("gui.chessdialogs.board"), self.board)
        self.player = QComboBox(self)
        self.form.addRow(text("gui.chessdialogs.player"), self.player)
        self._players()

    def _players(self) -> None:
        self.player.clear()
        number = self.board.currentData()
        b = next((b for b in self.body.boards if b.board == number), None)
        if b is not None:
            self.player.addItem(text("gui.chessdialogs.white", name=b.white.name), b.white.start)
            self.player.addItem(text("gui.chessdialogs.black", name=b.black.name), b.black.start)
        self.revalidate()

    def valid(self) -> bool:
        return self.board.currentData() is not None and self.player.currentData() is not None


class ClaimDialog(_BoardForm):
    """An illegal move correctly claimed (§H: the first has no consequence, the second loses)."""

    def __init__(self, body: ChessBody, board: int | None = None, parent: QWidget | None = None) -> None:
        super().__init__(text("gui.chessdialogs.illegal-move-claimed"), body, board, parent)
        note = QLabel(text("gui.chessdialogs.the-first-claimed-illegal-move"), self)  # fmt: skip
        note.setWordWrap(True)
        self.form.addRow(note)

    def action(self) -> ClaimIllegalMove:
        return ClaimIllegalMove(board=int(self.board.currentData()), player=int(self.player.currentData()))


class AppealDialog(_BoardForm):
    """An appeal to the chief arbiter, with the decision (final) and the result it sets, if any."""

    def __init__(self, body: ChessBody, board: int | None = None, parent: QWidget | None = None) -> None:
        super().__init__(text("gui.chessdialogs.appeal-to-the-chief-arbiter"), body, board, parent)
        self.text = self._reason(text("gui.chessdialogs.what-the-player-appeals-against"))
        self.form.addRow(text("gui.chessdialogs.appeal"), self.text)
        self.decision = self._reason(text("gui.chessdialogs.the-chief-arbiters-decision-required"))
        self.form.addRow(text("gui.chessdialogs.decision"), self.decision)
        self.result_box = QComboBox(self)
        for r in APPEAL_RESULTS:
            self.result_box.addItem(result_text(r) if r else text("gui.chessdialogs.no-change-of-result"), r)
        self.form.addRow(text("gui.chessdialogs.result-set"), self.result_box)
        self.revalidate()

    def valid(self) -> bool:
        if not hasattr(self, "decision"):  # the base asks while the form is still being built
            return False
        return super().valid() and bool(self.text.text().strip()) and bool(self.decision.text().strip())

    def action(self) -> RecordAppeal:
        result = str(self.result_box.currentData() or "")
        return RecordAppeal(
            board=int(self.board.currentData()),
            player=int(self.player.currentData()),
            text=self.text.text().strip(),
            decision=self.decision.text().strip(),
            result=result or None,
        )


class ChessWithdrawDialog(_Form):
    """A player leaves the group: not paired in the rounds to come (the reason is journaled)."""

    def __init__(self, body: ChessBody, parent: QWidget | None = None) -> None:
        super().__init__(text("gui.chessdialogs.withdraw-a-player"), parent)
        self.player = QComboBox(self)
        players = known_players(body)
        names = {p.start: p.name for p in players}
        for start in range(1, body.players + 1):
            self.player.addItem(f"{start}. {names.get(start, '')}".rstrip(), start)
        self.form.addRow(text("gui.chessdialogs.player"), self.player)
        self.reason = self._reason(text("gui.chessdialogs.why-required-it-is-journaled"))
        self.form.addRow(text("gui.chessdialogs.reason"), self.reason)
        self.revalidate()

    def valid(self) -> bool:
        return bool(self.reason.text().strip())

    def action(self) -> WithdrawPlayer:
        return WithdrawPlayer(player=int(self.player.currentData()), reason=self.reason.text().strip())


@dataclass(frozen=True)
class ReadyGroup:
    """A group whose next round may be paired now: its event, its name, the round to pair."""

    event: str
    title: str
    round: int


class PairAllDialog(QDialog):
    """Pair the next round of every ready group, one ``chess-pair`` after another, watched.

    The dialog shows which group is being paired and how many are done; at the end, the
    groups the daemon refused and why. ``done_all`` is True once every group has its answer.
    """

    def __init__(
        self,
        groups: list[ReadyGroup],
        commands: CommandSink,
        parent: QWidget | None = None,
        *,
        finished: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(text("gui.chessdialogs.pair-all-ready-groups"))
        self.setMinimumWidth(560)
        self.groups = list(groups)
        self.commands = commands
        self.on_finished = finished
        self.index = 0
        self.paired: list[ReadyGroup] = []
        self.failed: list[tuple[ReadyGroup, str]] = []
        self.done_all = False
        layout = QVBoxLayout(self)
        self.current = QLabel(self)
        self.current.setFont(font(15, bold=True))
        self.current.setWordWrap(True)
        layout.addWidget(self.current)
        self.bar = QProgressBar(self)
        self.bar.setRange(0, max(1, len(self.groups)))
        self.bar.setValue(0)
        layout.addWidget(self.bar)
        self.report = QLabel(self)
        self.report.setWordWrap(True)
        layout.addWidget(self.report)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.buttons.rejected.connect(self.reject)
        self.close_button = self.buttons.button(QDialogButtonBox.StandardButton.Close)
        layout.addWidget(self.buttons)

    def start(self) -> None:
        """Send the first pairing (the rest follow, each when the last is answered)."""
        if self.close_button is not None:
            self.close_button.setEnabled(False)
        self._next()

    def _next(self) -> None:
        if self.index >= len(self.groups):
            self._finish()
            return
        g = self.groups[self.index]
        self.current.setText(
            text(
                "gui.chessdialogs.pairing-round-of",
                group=g.title,
                round=str(g.round),
                index=str(self.index + 1),
                groups=str(len(self.groups)),
            )
        )
        why = self.commands.available("chess-pair")
        if why is not None:
            self._answered(CommandResult(Command(g.event, PairRound(round=g.round)), ok=False, reason=why))
            return
        self.commands.send(Command(g.event, PairRound(round=g.round)), self._answered)

    def _answered(self, outcome: CommandResult) -> None:
        g = self.groups[self.index]
        if outcome.ok:
            self.paired.append(g)
        else:
            why = render(outcome.reason) if outcome.reason is not None else outcome.code
            self.failed.append((g, why))
        self.index += 1
        self.bar.setValue(self.index)
        self._next()

    def _finish(self) -> None:
        self.done_all = True
        self.current.setText(
            text(
                "gui.chessdialogs.paired-of-groups",
                paired=str(len(self.paired)),
                groups=str(len(self.groups)),
            )
        )
        if self.failed:
            lines = [text("gui.chessdialogs.not-paired")] + [f"• {g.title}: {why}" for g, why in self.failed]
            self.report.setText("\n".join(lines))
            self.report.setStyleSheet("color: #c62828;")
        if self.close_button is not None:
            self.close_button.setEnabled(True)
        if self.on_finished is not None:
            self.on_finished()


__all__ = [
    "AppealDialog",
    "ChessWithdrawDialog",
    "ClaimDialog",
    "PairAllDialog",
    "ReadyGroup",
    "known_players",
]
