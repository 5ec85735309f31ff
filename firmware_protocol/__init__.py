"""The clock wire protocol: frames ⇄ typed messages. Pure: no I/O, no threads, no clock (see SPEC.md).

* :mod:`firmware_protocol.framing` — COBS frames with CRC-16 between 0x00 delimiters.
* :mod:`firmware_protocol.messages` — the typed messages (pydantic) and their JSON form.
* :mod:`firmware_protocol.codec` — messages ⇄ bytes; :class:`MessageParser` for streams.
* :mod:`firmware_protocol.errors` — bad input as a code and parameters (and an English sentence).
* :mod:`firmware_protocol.timesync` — device µs → host ns (offset and drift from the stream).
* :mod:`firmware_protocol.device` / :mod:`firmware_protocol.host` — both ends' protocol logic,
  as pure state machines (the simulator runs the first, the serial driver the second).
"""

from firmware_protocol.codec import (
    Decoded,
    MessageParser,
    decode_payload,
    encode,
    encode_payload,
)
from firmware_protocol.errors import JsonMessageError, MalformedError, WireError
from firmware_protocol.framing import FrameError, FrameErrorKind
from firmware_protocol.messages import (
    PROTOCOL_MAJOR,
    PROTOCOL_MINOR,
    Ack,
    BeepPattern,
    Capability,
    Heartbeat,
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
    message_from_json,
)

__all__ = [
    "PROTOCOL_MAJOR",
    "PROTOCOL_MINOR",
    "Ack",
    "BeepPattern",
    "Capability",
    "Decoded",
    "FrameError",
    "FrameErrorKind",
    "Heartbeat",
    "Hello",
    "HelloAck",
    "JsonMessageError",
    "MalformedError",
    "MessageParser",
    "Reject",
    "RejectReason",
    "Set",
    "Sync",
    "Unknown",
    "WireBeep",
    "WireDelayMode",
    "WireError",
    "WireFace",
    "WireMessage",
    "WirePress",
    "WireShow",
    "WireShowFace",
    "WireSide",
    "WireStatus",
    "decode_payload",
    "encode",
    "encode_payload",
    "message_from_json",
]
