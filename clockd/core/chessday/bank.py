"""Bank statements (§H "Zgłoszenia", condition 2: the entry fee on the organiser's account).

A Polish bank's CSV export: a few lines about the account first (mBank, ING), then a header
and one row per operation — its date, amount (decimal comma: ``30,00``, ``1 050,00``,
``+50,00 PLN``), title and sender. Each bank words the header its own way ("Data operacji",
"Data księgowania", "Kwota", "Tytuł", "Opis operacji", "Nadawca", "Kontrahent", "Dane
kontrahenta"…): the columns are found by their words like the form's (:mod:`.columns`), the
header row by being the first row that has a date and an amount column. Outgoing operations
(a negative amount: a refund, the bank's fee) are not payments; they are counted, not read.

A payment is named ``FILE:ROW`` (``payment_line``): the statement's file name and its data
row, 1 = the first row under the header.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from functools import cached_property

from pydantic import BaseModel, ConfigDict, Field

from clockd.core.chessday.columns import map_columns
from clockd.core.chessday.csvfile import ChessFileError, FileProblem, Row, read_rows
from clockd.core.csvtext import sniff_delimiter
from clockd.core.people import fold_name
from clockd.i18n import msg

BANK_ALIASES: dict[str, tuple[str, ...]] = {
    "date": (
        "data operacji",
        "data transakcji",
        "data zlecenia",
        "data ksiegowania",
        "data wplywu",
        "transaction date",
        "booking date",
        "posting date",
        "data",
        "date",
    ),
    "amount": (
        "kwota",
        "kwota operacji",
        "kwota transakcji",
        "kwota w walucie rachunku",
        "amount",
        "uznania",
        "wplyw",
        "wplywy",
        "credit",
    ),
    "title": (
        "tytul",
        "tytul operacji",
        "tytul przelewu",
        "tytulem",
        "opis",
        "opis operacji",
        "opis transakcji",
        "szczegoly",
        "title",
        "description",
        "details",
        "reference",
    ),
    "sender": (
        "nadawca",
        "nazwa nadawcy",
        "dane nadawcy",
        "kontrahent",
        "nazwa kontrahenta",
        "dane kontrahenta",
        "nadawca odbiorca",
        "zleceniodawca",
        "platnik",
        "sender",
        "payer",
        "counterparty",
    ),
}

#: How far down a statement its header may be (the account's lines above it).
HEADER_SEARCH_ROWS = 30


class PaymentRef(BaseModel):
    """Where a payment is: the statement's file name and its data row (1 = the first)."""

    model_config = ConfigDict(frozen=True)

    file: str
    row: int = Field(ge=1)

    def __str__(self) -> str:
        return f"{self.file}:{self.row}"


class Payment(BaseModel):
    """One incoming transfer."""

    model_config = ConfigDict(frozen=True)

    ref: PaymentRef
    file_line: int
    day: date
    amount: int = Field(gt=0)  # grosze: 30 zł = 3000
    title: str = ""
    sender: str = ""

    @cached_property
    def words(self) -> frozenset[str]:
        return frozenset(fold_name(self.title).split())

    @cached_property
    def sender_words(self) -> frozenset[str]:
        return frozenset(fold_name(self.sender).split())


class Statement(BaseModel):
    model_config = ConfigDict(frozen=True)

    source: str  # the file name payments are named by
    payments: tuple[Payment, ...]
    columns: dict[str, str]
    ignored: tuple[str, ...]
    outgoing: int = 0  # rows with a negative amount: not payments


_AMOUNT = re.compile(r"[+-]?\d+(?:[.,]\d{1,2})?")


def parse_amount(text: str) -> int | None:
    """Grosze of an amount as banks write it: ``30,00``, ``1 050,00``, ``1.050,00``,
    ``+50,00 PLN``, ``30.00``, ``-30,00``; ``None`` if it is not one."""
    t = re.sub(r"(?i)^\s*(pln|zł|zl)\s*|\s*(pln|zł|zl)\s*$", "", text.strip())
    t = t.replace("\u00a0", "").replace("\u202f", "").replace(" ", "").replace("'", "")
    if "," in t and "." in t:  # the later one is the decimal separator
        t = t.replace(".", "") if t.rfind(",") > t.rfind(".") else t.replace(",", "")
    elif t.count(".") > 1 or re.fullmatch(r"[+-]?\d{1,3}(\.\d{3})+", t):
        t = t.replace(".", "")
    if not _AMOUNT.fullmatch(t):
        return None
    sign = -1 if t.startswith("-") else 1
    whole, _, frac = t.lstrip("+-").replace(",", ".").partition(".")
    return sign * (int(whole) * 100 + int((frac + "00")[:2]))


_DATES = (
    re.compile(r"(?P<y>\d{4})[-./](?P<m>\d{1,2})[-./](?P<d>\d{1,2})"),
    re.compile(r"(?P<d>\d{1,2})[-./](?P<m>\d{1,2})[-./](?P<y>\d{4})"),
)


def parse_day(text: str) -> date | None:
    """The date of an operation (``2026-09-15``, ``15.09.2026``, ``15-09-2026``; a time after
    it is ignored: statements give the day)."""
    first = text.strip().split(" ")[0].split("T")[0]
    for pattern in _DATES:
        m = pattern.fullmatch(first)
        if m:
            try:
                return date(int(m["y"]), int(m["m"]), int(m["d"]))
            except ValueError:
                return None
    return None


def _header_at(rows: list[Row], explicit: Mapping[str, str]) -> int | None:
    for i, row in enumerate(rows[:HEADER_SEARCH_ROWS]):
        cmap, _ = map_columns(row.cells, BANK_ALIASES, {})
        found = set(cmap.index) | set(explicit)
        if {"date", "amount"} <= found and ({"title", "sender"} & found):
            return i
    return None


def _unnamed(row: Row, header: tuple[str, ...]) -> list[str]:
    """The row's cells under no header (PKO BP writes "Tytuł: …", "Nazwa nadawcy: …" in cells
    beyond its header's width): part of the description, so read with the title."""
    return [
        " ".join(c.split())
        for i, c in enumerate(row.cells)
        if c.strip() and (i >= len(header) or not header[i].strip())
    ]


def read_statement(text: str, source: str, columns: Mapping[str, str] | None = None) -> Statement:
    """The incoming payments of a statement's text (decoded); :class:`ChessFileError` names
    every bad cell. ``columns`` maps fields (date, amount, title, sender) to headers by hand."""
    explicit = dict(columns or {})
    rows: list[Row] = []
    start: int | None = None
    for delimiter in dict.fromkeys((sniff_delimiter(text), ";", ",", "\t")):
        rows = read_rows(text, source, delimiter)
        start = _header_at(rows, explicit)
        if start is not None:
            break
    if start is None:
        first = rows[0].cells if rows else ()
        raise ChessFileError(
            source,
            [
                FileProblem(
                    rows[0].line if rows else 1, "", msg("chess.reg.no-bank-header", header=" | ".join(first))
                )
            ],
        )
    head = rows[start]
    cmap, header_problems = map_columns(head.cells, BANK_ALIASES, explicit)
    problems = [FileProblem(head.line, "", p.message) for p in header_problems]
    for field in ("date", "amount"):
        if field not in cmap.index and not header_problems:
            problems.append(
                FileProblem(
                    head.line, "", msg("chess.reg.no-column", field=field, header=" | ".join(head.cells))
                )
            )
    if problems:
        raise ChessFileError(source, problems)
    index, header = cmap.index, cmap.header
    payments: list[Payment] = []
    outgoing = 0
    for number, row in enumerate(rows[start + 1 :], start=1):

        def cell(field: str, row: Row = row) -> str:
            i = index.get(field)
            return " ".join(row.cells[i].split()) if i is not None and i < len(row.cells) else ""

        day, amount = parse_day(cell("date")), parse_amount(cell("amount"))
        if amount is None:
            if not cell("amount") and not cell("date"):
                continue  # a summary line under the table ("Saldo końcowe")
            if not cell("amount"):  # "Uznania" empty: a debit in a statement with two columns
                outgoing += 1
                continue
            problems.append(
                FileProblem(
                    row.line, header[index["amount"]], msg("chess.reg.bad-amount", text=cell("amount"))
                )
            )
            continue
        if day is None:
            problems.append(
                FileProblem(row.line, header[index["date"]], msg("chess.reg.bad-date", text=cell("date")))
            )
            continue
        if amount <= 0:
            outgoing += 1
            continue
        payments.append(
            Payment(
                ref=PaymentRef(file=source, row=number),
                file_line=row.line,
                day=day,
                amount=amount,
                title=" ".join([cell("title"), *_unnamed(row, header)]).strip(),
                sender=cell("sender"),
            )
        )
    if problems:
        raise ChessFileError(source, problems)
    return Statement(
        source=source,
        payments=tuple(payments),
        columns=cmap.named(),
        ignored=cmap.ignored(),
        outgoing=outgoing,
    )


__all__ = [
    "BANK_ALIASES",
    "Payment",
    "PaymentRef",
    "Statement",
    "parse_amount",
    "parse_day",
    "read_statement",
]
