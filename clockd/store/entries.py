"""What the journal records: one :class:`Entry` per input, each a small frozen pydantic model.

Every input to the daemon — a press, a referee's action, a device (dis)connecting, a
decision such as a fallen flag — becomes a journal entry, is appended and committed, and
only then changes any state (DESIGN.md, principle 2). The daemon's state is a fold of
these entries, so an entry type is also a piece of the file format: once a kind has been
written to a real tournament's database it must stay readable.

(An *event* in duelclock is what people take part in — a Puzzle Duel session, a relay, a
chess group; what the journal holds are *entries*.)

Adding an entry type is one class::

    @entry_type
    class FlagFell(Entry):
        kind: Literal["flag"] = "flag"
        side: Side

A referee's action needs no entry class of its own: it is derived from the action
(:mod:`clockd.service.actions`). The ``kind`` string is stored in the journal next to the
entry's JSON and picks the class back when the journal is read (:func:`decode_entry`).
Kinds are unique; registering one twice is a programming error and raises at import
time. The module defining an entry type must be imported before a journal holding such
entries is replayed (the component that applies them imports it, and the composition
root imports the component).

Entries carry no transport: the same models are published over MQTT by table nodes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from clockd.i18n import Problem


class Origin(BaseModel):
    """Where an entry taken from a table node's journal came from (``docs/mqtt.md``).

    ``node`` and ``journal`` (the node's journal id) name the journal, ``seq`` the row in it:
    the desk takes each row exactly once by these three. ``t_ns`` is the instant on the
    node's own time base (the entry's ``t_ns`` is on the desk's). ``digest`` is the row as
    the node sent it (its kind and text, hashed): a copy sent again must be the same row, or
    the node's table and the desk's copy differ (``""``: a row taken before it was kept).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    node: str
    journal: str
    seq: int
    t_ns: int
    digest: str = ""


class Entry(BaseModel):
    """The base of every journal entry.

    ``t_ns`` is the instant the entry takes effect on the *journal's time base*: the
    daemon's ``time.monotonic_ns()`` plus an offset that changes only when the machine
    has rebooted (see ``docs/architecture.md``, "Time"). It is stamped by the runtime,
    never by a client. ``table`` is the table the entry concerns (its timeline), ``event``
    the event (its key), or ``None`` for entries about the daemon as a whole.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str
    t_ns: int = 0
    table: int | None = None
    event: str | None = None
    #: Set on the desk for a row taken from a table node's journal; ``None`` for the daemon's own.
    origin: Origin | None = None

    def at(self, t_ns: int) -> Entry:
        """This entry stamped with the instant it takes effect."""
        return self.model_copy(update={"t_ns": t_ns})

    # -- the vault (``docs/architecture.md``, "The vault"): personal data kept beside the journal's rows ----
    def vault_records(self) -> Mapping[str, Any]:
        """Personal data this entry brought, by person id: stored in the vault, not the row."""
        return {}

    def vault_erases(self) -> str | None:
        """The person whose vault records this entry erases, if it is an erasure."""
        return None

    def vault_drops(self) -> tuple[str, tuple[str, ...]] | None:
        """The person and the fields of theirs this entry drops from every vault record, if any."""
        return None

    def with_vault(self, records: Mapping[str, Any]) -> Entry:
        """This entry as read back, with what the vault still holds for it (nothing: erased)."""
        return self


E = TypeVar("E", bound=type[Entry])

_ENTRY_TYPES: dict[str, type[Entry]] = {}


class UnknownEntryKind(Problem):
    """The journal holds an entry kind this program does not know (a newer version wrote it?)."""


class UnreadableEntry(Problem):
    """An entry of a known kind whose JSON does not read back as that kind (a damaged or hand-edited row)."""


def entry_type(cls: E) -> E:
    """Class decorator: make ``cls`` readable back from the journal by its ``kind``."""
    field = cls.__pydantic_fields__.get("kind")
    kind = field.default if field is not None else None
    if not isinstance(kind, str) or not kind:
        raise TypeError(f"{cls.__name__} needs a default for its 'kind' field (a Literal string)")
    known = _ENTRY_TYPES.get(kind)
    if known is not None and known is not cls:
        raise TypeError(f"entry kind {kind!r} is already taken by {known.__module__}.{known.__qualname__}")
    _ENTRY_TYPES[kind] = cls
    return cls


def entry_kinds() -> dict[str, type[Entry]]:
    """Every registered kind and its class (a copy)."""
    return dict(_ENTRY_TYPES)


def decode_entry(kind: str, body: str | bytes, *, where: str = "") -> Entry:
    """The entry stored as ``body`` (JSON) under ``kind``.

    Raises :class:`UnknownEntryKind` or :class:`UnreadableEntry` (a ``ValueError``) with a
    message naming ``where`` (e.g. ``"journal seq 1234"``) — a journal that cannot be read is
    never silently skipped.
    """
    cls = _ENTRY_TYPES.get(kind)
    if cls is None:
        known = ", ".join(sorted(_ENTRY_TYPES))
        if where:
            raise UnknownEntryKind("journal.unknown-kind-at", kind=repr(kind), where=where, known=known)
        raise UnknownEntryKind("journal.unknown-kind", kind=repr(kind), known=known)
    try:
        return cls.model_validate_json(body)
    except ValidationError as exc:
        if where:
            raise UnreadableEntry(
                "journal.unreadable-entry-at", kind=repr(kind), where=where, problem=_first_error(exc)
            ) from exc
        raise UnreadableEntry("journal.unreadable-entry", kind=repr(kind), problem=_first_error(exc)) from exc


def encode_entry(entry: Entry) -> str:
    """The JSON text stored for ``entry`` (an entry of the daemon's own has no ``origin`` in it,
    so that a journal written before table nodes existed reads and hashes the same)."""
    return entry.model_dump_json(exclude=_NO_ORIGIN if entry.origin is None else None)


_NO_ORIGIN = {"origin"}


def _first_error(exc: ValidationError) -> str:
    errors: list[Any] = exc.errors()
    if not errors:
        return str(exc)
    e = errors[0]
    loc = ".".join(str(p) for p in e.get("loc", ())) or "(entry)"
    return f"{loc}: {e.get('msg', '')}"
