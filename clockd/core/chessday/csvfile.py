"""Reading an organiser's CSV into rows, and saying exactly where a file is wrong.

Both the form export and the bank statements are read the same way: decoded by the caller
(:func:`clockd.core.registration.decode_signups`: UTF-8 or Windows-1250, never a guess),
the separator sniffed (``,`` ``;`` or tab), and every problem collected with its file, its
line and its column, so the organiser fixes the file in one go (:class:`ChessFileError`).
Lines are the file's own (line 1 is its first line, as a text editor numbers them); the
entries of the result count data rows instead (``form_line`` 1 = the first row under the
header), as the issue asks.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass

from clockd.core.csvtext import csv_error, sniff_delimiter
from clockd.i18n import Msg, Problem, msg


@dataclass(frozen=True, slots=True)
class FileProblem:
    """One thing wrong in a file: its line, the column's header (``""``: the whole row), what."""

    line: int
    column: str
    message: Msg

    def as_msg(self) -> Msg:
        if self.column:
            return msg("chess.reg.at-column", line=self.line, column=self.column, problem=self.message)
        return msg("chess.reg.at-line", line=self.line, problem=self.message)


class ChessFileError(Problem):
    """A form export or a bank statement that cannot be read; nothing was read from it.

    ``problems`` are all the bad places of the file at once (``chess.reg.bad-file``)."""

    def __init__(self, source: str, problems: list[FileProblem]) -> None:
        self.source = source
        self.problems = tuple(problems)
        super().__init__(
            "chess.reg.bad-file", source=source, n=len(problems), problems=[p.as_msg() for p in problems]
        )


@dataclass(frozen=True, slots=True)
class Row:
    """One row of a CSV file: the file line it starts on and its cells."""

    line: int
    cells: tuple[str, ...]


def read_rows(text: str, source: str, delimiter: str | None = None) -> list[Row]:
    """The non-blank rows of ``text`` with the line each starts on; a row the ``csv`` module
    cannot read (an unclosed quote, a cell too long) is a :class:`ChessFileError` naming it."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise ChessFileError(source, [FileProblem(1, "", msg("chess.reg.empty-file"))])
    reader = csv.reader(io.StringIO(text), delimiter=delimiter or sniff_delimiter(text))
    rows: list[Row] = []
    start = 1
    iterator: Iterator[list[str]] = iter(reader)
    while True:
        try:
            cells = next(iterator)
        except StopIteration:
            break
        except csv.Error as exc:
            raise ChessFileError(source, [FileProblem(reader.line_num, "", csv_error(exc))]) from None
        line, start = start, reader.line_num + 1
        if any(c.strip() for c in cells):
            rows.append(Row(line, tuple(c.strip() for c in cells)))
    return rows


__all__ = ["ChessFileError", "FileProblem", "Row", "read_rows"]
