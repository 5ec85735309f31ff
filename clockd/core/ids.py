"""Names that stay unique across machines: halls, tables, events, items in events, people.

A festival may run several daemons — a Raspberry Pi per group of tables, the referee's
laptop as the desk — so a bare "table 3" or "session pt" is only unique on one machine.
Every daemon has a **hall** name (``[daemon] hall`` in its configuration, kept in its
journal from the first start), and everything it holds is named under it:

========================= ===================================================
``strefa/3``              table 3 of hall ``strefa`` (a number)
``strefa/pt``             the event ``pt`` (a key: starts with a letter)
``strefa/pt/R1-1``        match R1-1 of that event (an item of an event)
========================= ===================================================

On its own machine a referee types the short form (``3``, ``pt``, ``pt/R1-1``); the
daemon reads it against its own hall (:func:`parse_ref`). People get ids of their own
(:func:`new_person_id`): random, so two machines never hand out the same one, and
meaningless, so an id says nothing about the person (DESIGN.md, principle 9).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

from clockd.i18n import Problem

#: A hall's name: lower-case letters, digits and dashes, as MQTT topics and URLs take them.
HALL_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
#: An event's key ("pt", "relay-sat", "chess-g05"): starts with a letter.
KEY_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,39}")
#: An item inside an event (a match "R1-1", a group's board "b12", a station "s3").
ITEM_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")

DEFAULT_HALL = "desk"


def check_hall(name: str) -> str:
    """``name`` if it is a valid hall name; else :class:`Problem` ``ids.bad-hall``."""
    if not HALL_PATTERN.fullmatch(name):
        raise Problem("ids.bad-hall", name=name)
    return name


def check_key(key: str) -> str:
    """``key`` if it is a valid event key; else :class:`Problem` ``ids.bad-key``."""
    if not KEY_PATTERN.fullmatch(key):
        raise Problem("ids.bad-key", key=key)
    return key


@dataclass(frozen=True, slots=True)
class Ref:
    """A qualified name: a table (``number``), an event (``key``) or an item of an event."""

    hall: str
    number: int | None = None
    key: str | None = None
    item: str | None = None

    @property
    def is_table(self) -> bool:
        return self.number is not None

    @property
    def is_event(self) -> bool:
        return self.key is not None and self.item is None

    @property
    def event(self) -> str:
        """The event part (``pt`` of ``desk/pt/R1-1``)."""
        if self.key is None:
            raise Problem("ids.not-an-event", ref=str(self))
        return self.key

    @property
    def event_id(self) -> str:
        """The qualified event (``desk/pt`` of ``desk/pt/R1-1``)."""
        return event_ref(self.hall, self.event)

    @property
    def local(self) -> str:
        """The name within its hall (``3``, ``pt``, ``pt/R1-1``): the short form on its own machine."""
        if self.number is not None:
            return str(self.number)
        return str(self.key) if self.item is None else f"{self.key}/{self.item}"

    def __str__(self) -> str:
        return f"{self.hall}/{self.local}"

    def short(self, hall: str) -> str:
        """The short form on hall ``hall``'s own machine (``3``, ``pt/R1-1``)."""
        return self.local if self.hall == hall else str(self)


def table_ref(hall: str, number: int) -> str:
    return f"{hall}/{number}"


def event_ref(hall: str, key: str, item: str | None = None) -> str:
    return f"{hall}/{key}" if item is None else f"{hall}/{key}/{item}"


def parse_ref(text: str | int, hall: str) -> Ref:
    """Read a name a person or a client gave, against the local ``hall``.

    ``3`` → table 3 here; ``pt`` → event pt here; ``pt/R1-1`` → its item; a name whose
    first part is a known hall form (``pi2/3``, ``desk/pt``, ``desk/pt/R1-1``) is taken as
    qualified when it has one part more than the short form would.
    """
    if isinstance(text, int) and not isinstance(text, bool):
        if text < 1:
            raise Problem("ids.bad-table", ref=str(text))
        return Ref(hall=hall, number=text)
    raw = str(text).strip()
    parts = raw.split("/")
    if not raw or any(not p for p in parts) or len(parts) > 3:
        raise Problem("ids.bad-ref", ref=raw)
    if len(parts) == 1:
        return _local(hall, parts[0], None, raw)
    if len(parts) == 3:
        return _local(check_hall(parts[0]), parts[1], parts[2], raw)
    first, second = parts
    # "pt/R1-1" (an item here) or "pi2/3" / "desk/pt" (qualified)? A number in second place
    # is a table of that hall; a first part that is an event key here reads as event/item.
    if second.isdigit():
        return _local(check_hall(first), second, None, raw)
    if HALL_PATTERN.fullmatch(first) and first == hall:
        return _local(hall, second, None, raw)
    return _local(hall, first, second, raw)


def parse_id(full: str) -> Ref:
    """Read an id as the daemon writes it — qualified, the hall first (``desk/3``, ``desk/pt``,
    ``desk/pt/R1-1``): a table's owner, an action's target, an event's ``id``.

    Unlike :func:`parse_ref` (a person's short form, read against the local hall) nothing is
    guessed: the first part is the hall, the second a table number or an event key, and the
    item is all that follows the second ``/``, as it is (an entry of a zone contest is named
    by its organisers: any text). Anything else: :class:`Problem` ``ids.bad-ref``.
    """
    hall, has_rest, rest = full.partition("/")
    head, has_item, item = rest.partition("/")
    if not has_rest or not HALL_PATTERN.fullmatch(hall) or (has_item and not item):
        raise Problem("ids.bad-ref", ref=full)
    if head.isascii() and head.isdigit() and not has_item and int(head) >= 1:
        return Ref(hall=hall, number=int(head))
    if not KEY_PATTERN.fullmatch(head):
        raise Problem("ids.bad-ref", ref=full)
    return Ref(hall=hall, key=head, item=item if has_item else None)


def read_id(full: object) -> Ref | None:
    """:func:`parse_id` for a reader of the daemon's data that shows what it can: ``None`` for
    no id (a free table's owner) or for a text that is not one."""
    if not isinstance(full, str):
        return None
    try:
        return parse_id(full)
    except Problem:
        return None


def local_name(full: str) -> str:
    """An id without its hall (``desk/pt/R1-7`` → ``pt/R1-7``), as a referee reads it in a table's
    line; a text that is no id comes back as it is."""
    ref = read_id(full)
    return full if ref is None else ref.local


def _local(hall: str, head: str, item: str | None, raw: str) -> Ref:
    if head.isdigit():
        if item is not None:
            raise Problem("ids.bad-ref", ref=raw)
        number = int(head)
        if number < 1:
            raise Problem("ids.bad-table", ref=raw)
        return Ref(hall=hall, number=number)
    if not KEY_PATTERN.fullmatch(head):
        raise Problem("ids.bad-ref", ref=raw)
    if item is not None and not ITEM_PATTERN.fullmatch(item):
        raise Problem("ids.bad-ref", ref=raw)
    return Ref(hall=hall, key=head, item=item)


#: A person's id: ``P`` and 12 characters of a random base-32 number (60 bits).
PERSON_PATTERN = re.compile(r"P[0-9A-HJKMNP-TV-Z]{12}")
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_person_id() -> str:
    """A fresh person id (random: unique across machines, saying nothing about the person)."""
    return _person_id(secrets.randbits(60))


def derived_person_id(seed: str) -> str:
    """A person id derived from ``seed`` (the same every time), for an entry journaled before
    its people had ids: a replay gives them the same one. ``seed`` must say nothing about the
    person (an event's key and a start number)."""
    return _person_id(int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8]) >> 4)


def _person_id(value: int) -> str:
    chars = [_CROCKFORD[(value >> shift) & 31] for shift in range(55, -1, -5)]
    return "P" + "".join(chars)


__all__ = [
    "DEFAULT_HALL",
    "Ref",
    "check_hall",
    "check_key",
    "derived_person_id",
    "event_ref",
    "local_name",
    "new_person_id",
    "parse_id",
    "parse_ref",
    "read_id",
    "table_ref",
]
