"""The messages of the clock protocol, as typed, validated, immutable values.

Device → host: :class:`Hello`, :class:`WirePress`, :class:`WireStatus`, :class:`Heartbeat`.
Host → device: :class:`Sync`, :class:`HelloAck`, :class:`Ack`, :class:`WireShow`,
:class:`WireShowFace` (1.2), :class:`WireBeep`, :class:`Set`, :class:`Reject`.

**Names.** A name the daemon's own layers use for something else carries a ``Wire``
prefix here (``WirePress`` is the PRESS message; ``clockd.core.clock.Press`` is a clock's
input, ``clockd.devices.base.DevicePress`` a driver's report), so one name means one thing
across the code base. ``NAME`` is each message's name in SPEC.md.

Field names carry their unit (``t_us``, ``remaining_ms_a``). Every integer field has the
range of its wire width, so a message that validates always encodes. The JSON form
(``message.to_json()`` / :func:`message_from_json`) is what ``duelclock protocol`` reads
and writes and what ``vectors.json`` holds.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_serializer,
    model_serializer,
    model_validator,
)
from pydantic_core import PydanticCustomError

from firmware_protocol.errors import JsonMessageError, from_validation

PROTOCOL_MAJOR = 1
#: 1.1 added HELLO's ``held`` (presses kept across a reboot, re-sent under their own epoch)
#: 1.2 added SHOW_FACE (what the table's program shows: two clocks, a countdown, a count-up,
#: a text) and STATUS's ``face`` and ``ticking``
PROTOCOL_MINOR = 2
#: the first version whose devices take SHOW_FACE (an older one is sent plain SHOW)
FACES_SINCE = (1, 2)
#: the most earlier epochs whose presses a device may hold (and HELLO may list) at once
MAX_HELD_EPOCHS = 4

U8 = Annotated[int, Field(ge=0, le=0xFF)]
U16 = Annotated[int, Field(ge=0, le=0xFFFF)]
U32 = Annotated[int, Field(ge=0, le=0xFFFF_FFFF)]
U64 = Annotated[int, Field(ge=0, le=0xFFFF_FFFF_FFFF_FFFF)]


def _utf8_at_most(limit: int) -> AfterValidator:
    def check(text: str) -> str:
        size = len(text.encode("utf-8"))
        if size > limit:
            raise PydanticCustomError(
                "wire.text-too-long",
                "at most {most} bytes of UTF-8, not {size}",
                {"most": limit, "size": size},
            )
        return text

    return AfterValidator(check)


#: Identifiers (device id, firmware version): at most 32 bytes of UTF-8.
Ident = Annotated[str, _utf8_at_most(32)]
#: Display text: at most 64 bytes of UTF-8.
WireText = Annotated[str, _utf8_at_most(64)]


class WireSide(StrEnum):
    """A clock's two sides: ``a`` (left) and ``b`` (right). Wire code 1 and 2."""

    A = "a"
    B = "b"


class Capability(StrEnum):
    """What a device can do (a bit each in HELLO's ``capabilities``)."""

    DISPLAY = "display"  # shows both times (SHOW)
    BEEP = "beep"  # has a buzzer (BEEP)
    TEXT = "text"  # can show SHOW's text line
    KEEPS_TIME = "keeps-time"  # times a game itself from SET (the host still timestamps presses)
    BATTERY = "battery"  # runs on battery: keeps presses while unplugged, reports low battery


class BeepPattern(StrEnum):
    SHORT = "short"
    FLAG = "flag"
    TIE = "tie"
    CHANGE = "change"


class WireDelayMode(StrEnum):
    NONE = "none"
    BRONSTEIN = "bronstein"
    SIMPLE = "simple"


class WireFace(StrEnum):
    """What a device is asked to show (SHOW_FACE, 1.2): the face of the program its table runs.

    ``two-clocks``: both players' times, one of them running (a duel, a chess game);
    ``countdown``: one time counting down (a hall event's time left); ``count-up``: one
    time counting up (a hall event's time so far); ``text``: a line of text alone
    ("ZMIANA", "META 12:31").
    """

    TWO_CLOCKS = "two-clocks"
    COUNTDOWN = "countdown"
    COUNT_UP = "count-up"
    TEXT = "text"


#: For each face, the fields it leaves unused, each with the only value it may then have.
#: Spelled with SHOW_FACE's names; STATUS maps its own (``remaining_ms_a``) onto them.
FACE_UNUSED: dict[WireFace, tuple[tuple[str, Any], ...]] = {
    WireFace.TWO_CLOCKS: (("ticking", False),),  # the running side says what runs
    WireFace.COUNTDOWN: (("time_ms_b", 0), ("running", None)),
    WireFace.COUNT_UP: (("time_ms_b", 0), ("running", None)),
    WireFace.TEXT: (("time_ms_a", 0), ("time_ms_b", 0), ("running", None), ("ticking", False)),
}


#: The fields a face may leave unused, as SHOW_FACE names them.
_FACE_FIELDS = ("time_ms_a", "time_ms_b", "running", "ticking")
assert all(name in _FACE_FIELDS for unused in FACE_UNUSED.values() for name, _ in unused)


def _check_face(face: WireFace, values: dict[str, tuple[str, Any]]) -> None:
    """Refuse a face whose unused fields are set: ``values`` maps a SHOW_FACE field name to
    (this message's name for it, its value). A device cannot guess what a set but unused
    field meant, so a sender that sets one has a bug worth hearing about."""
    for name, empty in FACE_UNUSED[face]:
        field, value = values[name]
        if value != empty:
            shown = value.value if isinstance(value, StrEnum) else value
            raise PydanticCustomError(
                "wire.face-unused",
                "field '{field}' is {value}, but a {face} face does not use it",
                {"field": field, "value": shown, "face": face.value},
            )


class RejectReason(StrEnum):
    VERSION = "version"  # no protocol version both sides speak
    WRONG_DEVICE = "wrong-device"  # not the device the host expects on this port
    OTHER = "other"


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    #: the wire's message type byte (see SPEC.md)
    CODE: ClassVar[int]
    #: the message's name in SPEC.md (``HELLO_ACK``), which errors about it use
    NAME: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        """The JSON-ready form, ``{"type": ..., field: value, ...}``."""
        return self.model_dump(mode="json")


# -- device → host ------------------------------------------------------------------------


class HeldEpoch(BaseModel):
    """Presses an earlier epoch left unacknowledged, which the device kept across its reboot.

    A conforming device (protocol 1.1) stores every press in non-volatile memory before it
    counts it, so a power cut loses none: after the reboot it holds presses
    ``acked_seq + 1 … last_seq`` of epoch ``boot_id`` and re-sends them under that boot id,
    with their original sequence numbers and device times. ``last_t_us`` is press
    ``last_seq``'s device time (in *that* epoch's clock): a host that never knew that clock
    can still keep the presses' spacing (SPEC.md, section 6).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    boot_id: U32
    acked_seq: U32
    last_seq: Annotated[int, Field(ge=1, le=0xFFFF_FFFF)]
    last_t_us: U64

    @model_validator(mode="after")
    def _holds_something(self) -> HeldEpoch:
        if self.acked_seq >= self.last_seq:
            raise PydanticCustomError(
                "wire.held-empty",
                "an epoch held across a reboot holds presses acked_seq+1 … last_seq; "
                "acked_seq {acked} is not below last_seq {last}",
                {"field": "held", "epoch": 1, "acked": self.acked_seq, "last": self.last_seq},
            )
        return self

    @property
    def presses(self) -> int:
        return self.last_seq - self.acked_seq


class Hello(_Message):
    """Who the device is and what it speaks; sent at boot, on plug-in and in answer to SYNC.

    ``boot_id`` is random at every power-on: it names the device's *epoch*, in which
    ``seq`` counts presses from 1 and ``t_us`` counts from boot. ``acked_seq`` is the
    highest sequence number the host has acknowledged in this epoch (0: none yet).
    ``held`` (protocol 1.1) lists earlier epochs whose unacknowledged presses the device
    kept across a reboot, oldest first; they are delivered before this epoch's presses.
    """

    CODE: ClassVar[int] = 0x01
    NAME: ClassVar[str] = "HELLO"
    type: Literal["hello"] = "hello"
    major: U8
    minor: U8
    boot_id: U32
    t_us: U64
    acked_seq: U32 = 0
    heartbeat_ms: U16 = 500
    capabilities: frozenset[Capability] = frozenset()
    device_id: Ident
    firmware: Ident = ""
    held: Annotated[tuple[HeldEpoch, ...], Field(max_length=MAX_HELD_EPOCHS)] = ()

    @field_serializer("capabilities")
    def _sorted(self, caps: frozenset[Capability]) -> list[str]:
        return sorted(c.value for c in caps)

    @model_serializer(mode="wrap")
    def _omit_empty_held(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # As on the wire: a HELLO that holds nothing reads exactly like a 1.0 HELLO.
        data: dict[str, Any] = handler(self)
        if not self.held:
            data.pop("held", None)
        return data

    @model_validator(mode="after")
    def _distinct_epochs(self) -> Hello:
        boots = [h.boot_id for h in self.held]
        if self.boot_id in boots:
            raise PydanticCustomError(
                "wire.held-current",
                "held lists the current boot id {boot_id} as an earlier epoch",
                {"field": "held", "boot_id": f"{self.boot_id:#010x}"},
            )
        twice = next((b for i, b in enumerate(boots) if b in boots[:i]), None)
        if twice is not None:
            raise PydanticCustomError(
                "wire.held-twice",
                "held lists the earlier epoch {boot_id} twice",
                {"field": "held", "boot_id": f"{twice:#010x}"},
            )
        return self


class WirePress(_Message):
    """A button went down: the ``seq``-th press of epoch ``boot_id``, at device time ``t_us``."""

    CODE: ClassVar[int] = 0x02
    NAME: ClassVar[str] = "PRESS"
    type: Literal["press"] = "press"
    boot_id: U32
    seq: Annotated[int, Field(ge=1, le=0xFFFF_FFFF)]
    side: WireSide
    t_us: U64


class WireStatus(_Message):
    """What the device displays now (sent after it applies SHOW, SHOW_FACE or SET, and when it changes).

    ``face`` and ``ticking`` (1.2, optional on the wire) say which face it shows, as in
    SHOW_FACE: for a countdown or a count-up its one time is ``remaining_ms_a`` and
    ``ticking`` says it changes by itself. A 1.1 device's STATUS reads as two clocks.
    """

    CODE: ClassVar[int] = 0x03
    NAME: ClassVar[str] = "STATUS"
    type: Literal["status"] = "status"
    boot_id: U32
    t_us: U64
    remaining_ms_a: U32
    remaining_ms_b: U32
    running: WireSide | None = None
    low_battery: bool = False
    text: WireText = ""
    face: WireFace = WireFace.TWO_CLOCKS
    ticking: bool = False

    @model_serializer(mode="wrap")
    def _omit_two_clocks(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # As on the wire: a STATUS of two clocks reads exactly like a 1.1 STATUS.
        data: dict[str, Any] = handler(self)
        if self.face is WireFace.TWO_CLOCKS:
            data.pop("face", None)
            data.pop("ticking", None)
        return data

    @model_validator(mode="after")
    def _unused_fields_are_empty(self) -> WireStatus:
        _check_face(
            self.face,
            {
                "time_ms_a": ("remaining_ms_a", self.remaining_ms_a),
                "time_ms_b": ("remaining_ms_b", self.remaining_ms_b),
                "running": ("running", self.running),
                "ticking": ("ticking", self.ticking),
            },
        )
        return self


class Heartbeat(_Message):
    """Device time, sent every ``heartbeat_ms`` once the host answered HELLO.

    It lets the host keep estimating the device clock's offset and drift when nobody
    presses, and tells the host what the device still holds: presses
    ``acked_seq + 1 … last_seq`` are waiting for an ACK.
    """

    CODE: ClassVar[int] = 0x04
    NAME: ClassVar[str] = "HEARTBEAT"
    type: Literal["heartbeat"] = "heartbeat"
    boot_id: U32
    t_us: U64
    acked_seq: U32
    last_seq: U32


# -- host → device ------------------------------------------------------------------------


class Sync(_Message):
    """The host opened the port: "please say HELLO". Carries the host's highest version."""

    CODE: ClassVar[int] = 0x40
    NAME: ClassVar[str] = "SYNC"
    type: Literal["sync"] = "sync"
    major: U8
    minor: U8


class HelloAck(_Message):
    """The host accepts epoch ``boot_id`` at version ``major.minor``; the device may now send presses."""

    CODE: ClassVar[int] = 0x41
    NAME: ClassVar[str] = "HELLO_ACK"
    type: Literal["hello-ack"] = "hello-ack"
    major: U8
    minor: U8
    boot_id: U32


class Ack(_Message):
    """Cumulative: every press of epoch ``boot_id`` up to and including ``seq`` is safe."""

    CODE: ClassVar[int] = 0x42
    NAME: ClassVar[str] = "ACK"
    type: Literal["ack"] = "ack"
    boot_id: U32
    seq: U32


class WireShow(_Message):
    """Show both remaining times; ``running`` is the side whose time runs (None: stopped)."""

    CODE: ClassVar[int] = 0x43
    NAME: ClassVar[str] = "SHOW"
    type: Literal["show"] = "show"
    remaining_ms_a: U32
    remaining_ms_b: U32
    running: WireSide | None = None
    text: WireText = ""


class WireShowFace(_Message):
    """Show the face of the table's program (1.2): two clocks, a countdown, a count-up or a text.

    ``time_ms_a`` and ``time_ms_b`` are the faces' times: both players' for two clocks
    (``running``: whose runs, None: stopped), the one time of a countdown (time left) or
    a count-up (time so far) in ``time_ms_a`` (``ticking``: it changes by itself until
    the next SHOW_FACE). A text face shows ``text`` alone; every other face may show it
    below the times. Fields a face does not use must be zero (``FACE_UNUSED``).
    """

    CODE: ClassVar[int] = 0x47
    NAME: ClassVar[str] = "SHOW_FACE"
    type: Literal["show-face"] = "show-face"
    face: WireFace
    time_ms_a: U32 = 0
    time_ms_b: U32 = 0
    running: WireSide | None = None
    ticking: bool = False
    text: WireText = ""

    @model_validator(mode="after")
    def _unused_fields_are_empty(self) -> WireShowFace:
        _check_face(self.face, {name: (name, getattr(self, name)) for name in _FACE_FIELDS})
        return self


class WireBeep(_Message):
    CODE: ClassVar[int] = 0x44
    NAME: ClassVar[str] = "BEEP"
    type: Literal["beep"] = "beep"
    pattern: BeepPattern


class Set(_Message):
    """A time control, for devices that keep time themselves (capability ``keeps-time``)."""

    CODE: ClassVar[int] = 0x45
    NAME: ClassVar[str] = "SET"
    type: Literal["set"] = "set"
    initial_ms_a: U32
    initial_ms_b: U32
    increment_ms: U32 = 0
    delay_ms: U32 = 0
    delay_mode: WireDelayMode = WireDelayMode.NONE


class Reject(_Message):
    """The host will not talk to this device, and why (a device may show ``text``)."""

    CODE: ClassVar[int] = 0x46
    NAME: ClassVar[str] = "REJECT"
    type: Literal["reject"] = "reject"
    reason: RejectReason
    major: U8
    minor: U8
    text: WireText = ""


class Unknown(_Message):
    """A well-framed message of a type this side does not know (a newer minor version's).

    Receivers skip it; it is reported so a person debugging a clock can see it.
    """

    CODE: ClassVar[int] = -1
    NAME: ClassVar[str] = "UNKNOWN"
    type: Literal["unknown"] = "unknown"
    code: U8
    body_hex: str = ""


DeviceMessage = Hello | WirePress | WireStatus | Heartbeat
HostMessage = Sync | HelloAck | Ack | WireShow | WireShowFace | WireBeep | Set | Reject
WireMessage = DeviceMessage | HostMessage

MESSAGE_TYPES: tuple[type[_Message], ...] = (
    Hello,
    WirePress,
    WireStatus,
    Heartbeat,
    Sync,
    HelloAck,
    Ack,
    WireShow,
    WireBeep,
    Set,
    Reject,
    WireShowFace,
)
BY_CODE: dict[int, type[_Message]] = {t.CODE: t for t in MESSAGE_TYPES}

_JSON_TYPES: tuple[type[_Message], ...] = (*MESSAGE_TYPES, Unknown)
#: every message class by its JSON ``type``
BY_TYPE: dict[str, type[_Message]] = {t.model_fields["type"].default: t for t in _JSON_TYPES}


def message_from_json(data: Any) -> WireMessage | Unknown:
    """A message from its JSON form.

    Raises :class:`~firmware_protocol.errors.JsonMessageError` (a ``ValueError``) naming
    the message and the bad field: its text lists every problem, its ``code`` and
    ``params`` the first.
    """
    if not isinstance(data, dict):
        raise JsonMessageError("wire.json-not-object", found=type(data).__name__)
    cls = BY_TYPE.get(data.get("type"))  # type: ignore[arg-type]
    if cls is None:
        raise JsonMessageError(
            "wire.json-unknown-type", found=repr(data.get("type")), known=", ".join(BY_TYPE)
        )
    try:
        result = cls.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors(include_url=False):
            where = ".".join(str(p) for p in err["loc"])
            problems.append(f"{where}: {err['msg']}" if where else err["msg"])
        code, params = from_validation(exc, cls.NAME)
        text = f"{data['type']} message: " + "; ".join(problems)
        raise JsonMessageError(code, text=text, **params) from None
    return result  # type: ignore[return-value]
