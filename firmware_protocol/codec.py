"""Messages ⇄ bytes.

A payload is one type byte followed by the message's fields in the order of
:data:`LAYOUTS`, integers little-endian (the byte order of every microcontroller a clock
is likely to run on), strings as a length byte and UTF-8. A receiver reads the fields it
knows and ignores any bytes after them: a later minor version may append fields to a
message without breaking older hosts and devices. HELLO's ``held`` list (1.1) and
STATUS's ``face`` and ``ticking`` (1.2) are such fields, and *optional* besides
(:data:`OPTIONAL_FROM`): a sender leaves them out when they all hold their defaults,
so a 1.1 HELLO that holds nothing is a 1.0 HELLO but for its version byte, and a 1.2
STATUS of two clocks is a 1.1 STATUS.

Bad input is refused with a :class:`~firmware_protocol.errors.MalformedError` naming the
message and the field, with a ``code`` and ``params`` for the user's language.

:func:`encode` gives the bytes to write for a message; :class:`MessageParser` turns a byte
stream into messages, :class:`~firmware_protocol.messages.Unknown` results and
:class:`~firmware_protocol.framing.FrameError` results. It never raises on any input.
"""

from __future__ import annotations

import struct
from typing import Any

from pydantic import ValidationError

from firmware_protocol.errors import MalformedError, from_validation
from firmware_protocol.framing import FrameError, FrameErrorKind, FrameParser, encode_frame
from firmware_protocol.messages import (
    BY_CODE,
    Ack,
    BeepPattern,
    Capability,
    Heartbeat,
    HeldEpoch,
    Hello,
    HelloAck,
    Reject,
    RejectReason,
    Set,
    Sync,
    Unknown,
    WireBeep,
    WireDelayMode,
    WireFace,
    WireMessage,
    WirePress,
    WireShow,
    WireShowFace,
    WireSide,
    WireStatus,
    _Message,
)

# -- field kinds: how each is written ------------------------------------------------------
# Integers: struct format. Enumerations: a byte, through a table. Strings: "str8".

_SIDE = {WireSide.A: 1, WireSide.B: 2}
_SIDE_OR_NONE: dict[WireSide | None, int] = {None: 0, WireSide.A: 1, WireSide.B: 2}
_BEEP = {BeepPattern.SHORT: 1, BeepPattern.FLAG: 2, BeepPattern.TIE: 3, BeepPattern.CHANGE: 4}
_DELAY = {WireDelayMode.NONE: 0, WireDelayMode.BRONSTEIN: 1, WireDelayMode.SIMPLE: 2}
_REASON = {RejectReason.VERSION: 1, RejectReason.WRONG_DEVICE: 2, RejectReason.OTHER: 3}
_FACE = {WireFace.TWO_CLOCKS: 1, WireFace.COUNTDOWN: 2, WireFace.COUNT_UP: 3, WireFace.TEXT: 4}
_BOOL = {False: 0, True: 1}
_CAPABILITY_BIT = {
    Capability.DISPLAY: 0,
    Capability.BEEP: 1,
    Capability.TEXT: 2,
    Capability.KEEPS_TIME: 3,
    Capability.BATTERY: 4,
}
_LOW_BATTERY = 0x01

_ENUMS: dict[str, dict[Any, int]] = {
    "side": _SIDE,
    "side0": _SIDE_OR_NONE,  # a side, or 0 for "none"
    "beep": _BEEP,
    "delay": _DELAY,
    "reason": _REASON,
    "face": _FACE,
    "bool8": _BOOL,  # 0 or 1, nothing else
}
_FORMAT = {"u8": "B", "u16": "H", "u32": "I", "u64": "Q"}
#: one entry of HELLO's ``held`` list: boot_id u32, acked_seq u32, last_seq u32, last_t_us u64
_HELD = struct.Struct("<IIIQ")

#: Every message's fields, in wire order, with their kind (SPEC.md has the same tables).
LAYOUTS: dict[type[_Message], tuple[tuple[str, str], ...]] = {
    Hello: (
        ("major", "u8"),
        ("minor", "u8"),
        ("boot_id", "u32"),
        ("t_us", "u64"),
        ("acked_seq", "u32"),
        ("heartbeat_ms", "u16"),
        ("capabilities", "caps16"),
        ("device_id", "str8"),
        ("firmware", "str8"),
        ("held", "held8"),  # 1.1
    ),
    WirePress: (("boot_id", "u32"), ("seq", "u32"), ("side", "side"), ("t_us", "u64")),
    WireStatus: (
        ("boot_id", "u32"),
        ("t_us", "u64"),
        ("remaining_ms_a", "u32"),
        ("remaining_ms_b", "u32"),
        ("running", "side0"),
        ("low_battery", "flags8"),
        ("text", "str8"),
        ("face", "face"),  # 1.2
        ("ticking", "bool8"),  # 1.2
    ),
    Heartbeat: (("boot_id", "u32"), ("t_us", "u64"), ("acked_seq", "u32"), ("last_seq", "u32")),
    Sync: (("major", "u8"), ("minor", "u8")),
    HelloAck: (("major", "u8"), ("minor", "u8"), ("boot_id", "u32")),
    Ack: (("boot_id", "u32"), ("seq", "u32")),
    WireShow: (("remaining_ms_a", "u32"), ("remaining_ms_b", "u32"), ("running", "side0"), ("text", "str8")),
    WireShowFace: (
        ("face", "face"),
        ("time_ms_a", "u32"),
        ("time_ms_b", "u32"),
        ("running", "side0"),
        ("ticking", "bool8"),
        ("text", "str8"),
    ),
    WireBeep: (("pattern", "beep"),),
    Set: (
        ("initial_ms_a", "u32"),
        ("initial_ms_b", "u32"),
        ("increment_ms", "u32"),
        ("delay_ms", "u32"),
        ("delay_mode", "delay"),
    ),
    Reject: (("reason", "reason"), ("major", "u8"), ("minor", "u8"), ("text", "str8")),
}

#: Fields that a later minor version appended and a sender may leave out: this one and
#: every field after it. A sender leaves them all out when all hold their defaults, and
#: writes them all otherwise; a receiver whose body ends before one reads the defaults.
OPTIONAL_FROM: dict[type[_Message], str] = {Hello: "held", WireStatus: "face"}


# -- compiled codecs ------------------------------------------------------------------------
# Each layout becomes segments: runs of fixed-size fields (one struct.Struct each), strings,
# HELLO's held list. An optional field is a segment of its own, as it may be left out alone.


def _struct_char(kind: str) -> str:
    if kind in _FORMAT:
        return _FORMAT[kind]
    if kind in _ENUMS or kind == "flags8":
        return "B"
    if kind == "caps16":
        return "H"
    raise AssertionError(kind)


class _Segment:
    __slots__ = ("default", "fields", "kind", "optional", "struct")

    def __init__(self, kind: str, fields: tuple[tuple[str, str], ...], optional: bool, default: Any) -> None:
        self.kind = kind  # "struct", "str8" or "held8"
        self.fields = fields
        self.optional = optional
        self.default = default  # an optional segment's value when left out
        self.struct = (
            struct.Struct("<" + "".join(_struct_char(k) for _, k in fields)) if kind == "struct" else None
        )

    @property
    def name(self) -> str:
        return self.fields[0][0]


class _Codec:
    __slots__ = ("cls", "code", "segments")

    def __init__(self, cls: type[_Message], layout: tuple[tuple[str, str], ...]) -> None:
        self.cls = cls
        self.code = cls.CODE
        self.segments: list[_Segment] = []
        names = [name for name, _ in layout]
        first_optional = names.index(OPTIONAL_FROM[cls]) if cls in OPTIONAL_FROM else len(layout)
        run: list[tuple[str, str]] = []
        for i, (name, kind) in enumerate(layout):
            optional = i >= first_optional
            if kind in ("str8", "held8") or optional:
                self._close(run)
                run = []
                default = cls.model_fields[name].default if optional else None
                self.segments.append(
                    _Segment(
                        kind if kind in ("str8", "held8") else "struct", ((name, kind),), optional, default
                    )
                )
            else:
                run.append((name, kind))
        self._close(run)
        assert all(seg.kind != "held8" or seg.optional for seg in self.segments), "held8 is optional"

    def _close(self, run: list[tuple[str, str]]) -> None:
        if run:
            self.segments.append(_Segment("struct", tuple(run), False, None))

    def encode(self, msg: _Message) -> bytes:
        out = bytearray((self.code,))
        segments = self.segments
        optional = [seg for seg in segments if seg.optional]
        if optional and all(getattr(msg, seg.name) == seg.default for seg in optional):
            segments = segments[: len(segments) - len(optional)]  # all at their defaults: left out
        for seg in segments:
            if seg.kind == "held8":
                held: tuple[HeldEpoch, ...] = getattr(msg, seg.name)
                out.append(len(held))
                for h in held:
                    out += _HELD.pack(h.boot_id, h.acked_seq, h.last_seq, h.last_t_us)
            elif seg.kind == "str8":
                raw = getattr(msg, seg.name).encode("utf-8")
                out.append(len(raw))
                out += raw
            else:
                assert seg.struct is not None
                out += seg.struct.pack(*(_to_wire(kind, getattr(msg, name)) for name, kind in seg.fields))
        return bytes(out)

    def decode(self, payload: bytes) -> _Message:
        message = self.cls.NAME
        fields: dict[str, Any] = {}
        pos = 1
        n = len(payload)
        for seg in self.segments:
            if seg.optional and pos >= n:
                break  # left out: this field and every later one take their defaults
            if seg.kind == "held8":
                fields[seg.name], pos = self._decode_held(payload, pos, seg.name)
            elif seg.kind == "str8":
                name = seg.name
                if pos >= n:
                    raise MalformedError("wire.body-ends", message=message, field=name)
                size = payload[pos]
                end = pos + 1 + size
                if end > n:
                    raise MalformedError(
                        "wire.text-overrun", message=message, field=name, size=size, remain=n - pos - 1
                    )
                try:
                    fields[name] = payload[pos + 1 : end].decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise MalformedError("wire.not-utf8", message=message, field=name, at=exc.start) from None
                pos = end
            else:
                assert seg.struct is not None
                if pos + seg.struct.size > n:
                    missing = _field_cut_at(seg.fields, n - pos)
                    raise MalformedError("wire.too-short", message=message, field=missing, size=n - 1)
                for (name, kind), value in zip(seg.fields, seg.struct.unpack_from(payload, pos), strict=True):
                    fields[name] = _from_wire(self.cls, name, kind, value)
                pos += seg.struct.size
        try:
            return self.cls(**fields)
        except ValidationError as exc:
            code, params = from_validation(exc, message)
            raise MalformedError(code, **params) from None

    def _decode_held(self, payload: bytes, pos: int, name: str) -> tuple[tuple[HeldEpoch, ...], int]:
        message = self.cls.NAME
        n = len(payload)
        count = payload[pos]
        end = pos + 1 + count * _HELD.size
        if end > n:
            raise MalformedError(
                "wire.held-overrun",
                message=message,
                field=name,
                n=count,
                size=count * _HELD.size,
                remain=n - pos - 1,
            )
        held = []
        for i in range(count):
            boot_id, acked, last, last_t_us = _HELD.unpack_from(payload, pos + 1 + i * _HELD.size)
            if acked >= last:  # last_seq 0 too: an epoch that holds nothing is never listed
                raise MalformedError(
                    "wire.held-empty", message=message, field=name, epoch=i + 1, acked=acked, last=last
                )
            held.append(HeldEpoch(boot_id=boot_id, acked_seq=acked, last_seq=last, last_t_us=last_t_us))
        return tuple(held), end


def _field_cut_at(run: tuple[tuple[str, str], ...], available: int) -> str:
    """The first field of ``run`` that does not fit in ``available`` bytes."""
    end = 0
    for name, kind in run:
        end += struct.calcsize("<" + _struct_char(kind))
        if end > available:
            return name
    raise AssertionError("the run fits")


def _to_wire(kind: str, value: Any) -> int:
    table = _ENUMS.get(kind)
    if table is not None:
        return table[value]
    if kind == "caps16":
        return sum(1 << _CAPABILITY_BIT[c] for c in value)
    if kind == "flags8":
        return _LOW_BATTERY if value else 0
    return int(value)


_FROM_WIRE: dict[str, dict[int, Any]] = {k: {v: e for e, v in t.items()} for k, t in _ENUMS.items()}


def _from_wire(cls: type[_Message], name: str, kind: str, value: int) -> Any:
    table = _FROM_WIRE.get(kind)
    if table is not None:
        if value not in table:
            raise MalformedError("wire.no-value", message=cls.NAME, field=name, value=value)
        return table[value]
    if kind == "caps16":
        # bits a newer minor version defines are ignored
        return frozenset(c for c, bit in _CAPABILITY_BIT.items() if value >> bit & 1)
    if kind == "flags8":
        return bool(value & _LOW_BATTERY)
    return value


_CODECS: dict[int, _Codec] = {cls.CODE: _Codec(cls, layout) for cls, layout in LAYOUTS.items()}
_BY_CLASS: dict[type[_Message], _Codec] = {c.cls: c for c in _CODECS.values()}
assert set(_CODECS) == set(BY_CODE)


# -- public API -----------------------------------------------------------------------------


def encode_payload(msg: WireMessage | Unknown) -> bytes:
    """The payload (type byte + body) of ``msg``."""
    if isinstance(msg, Unknown):
        if msg.code in BY_CODE or msg.code == 0:
            raise ValueError(f"code {msg.code:#04x} is not an unknown message type")
        try:
            body = bytes.fromhex(msg.body_hex)
        except ValueError:
            raise ValueError(f"body_hex {msg.body_hex!r} is not hexadecimal") from None
        return bytes((msg.code,)) + body
    return _BY_CLASS[type(msg)].encode(msg)


def encode(msg: WireMessage | Unknown) -> bytes:
    """The bytes to write for ``msg``: one whole frame, delimiters included."""
    return encode_frame(encode_payload(msg))


def decode_payload(payload: bytes) -> WireMessage | Unknown:
    """The message in ``payload``. Raises :class:`MalformedError` for an unreadable body."""
    if not payload:
        raise MalformedError("wire.empty-payload")
    codec = _CODECS.get(payload[0])
    if codec is None:
        return Unknown(code=payload[0], body_hex=payload[1:].hex())
    msg = codec.decode(payload)
    return msg  # type: ignore[return-value]


Decoded = WireMessage | Unknown | FrameError


class MessageParser:
    """Bytes in any chunking → messages, unknown messages and frame errors, in stream order.

    ``feed`` never raises: whatever arrives is either a message or a typed result that
    says what was wrong and at which byte of the stream.
    """

    __slots__ = ("_frames",)

    def __init__(self) -> None:
        self._frames = FrameParser()

    def reset(self) -> None:
        self._frames.reset()

    def feed(self, data: bytes) -> list[Decoded]:
        return [item for _, item in self.feed_located(data)]

    def feed_located(self, data: bytes) -> list[tuple[int, Decoded]]:
        """Like :meth:`feed`, with each result's stream offset (its frame's first byte)."""
        out: list[tuple[int, Decoded]] = []
        for offset, item in self._frames.feed(data):
            if isinstance(item, FrameError):
                out.append((offset, item))
                continue
            try:
                out.append((offset, decode_payload(item)))
            except MalformedError as exc:
                error = FrameError(
                    FrameErrorKind.MALFORMED, str(exc), offset, encode_frame(item)[1:-1], exc.code, exc.params
                )
                out.append((offset, error))
        return out


def decoded_to_json(item: Decoded) -> dict[str, Any]:
    """One line of ``duelclock protocol decode``'s output."""
    if isinstance(item, FrameError):
        line: dict[str, Any] = {
            "error": item.kind.value,
            "offset": item.offset,
            "detail": item.detail,
            "frame_hex": item.frame.hex(),
        }
        if item.code is not None:  # "problem", as "code" is an unknown message's type byte
            line.update(problem=item.code, params=item.params)
        return line
    return item.to_json()
