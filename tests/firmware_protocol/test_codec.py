"""Messages ⇄ frames: the golden vectors, and properties over every message and any bytes."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_protocol import messages as m
from firmware_protocol.codec import (
    LAYOUTS,
    MessageParser,
    decode_payload,
    decoded_to_json,
    encode,
    encode_payload,
)
from firmware_protocol.framing import MAX_ENCODED, FrameError, FrameErrorKind

ROOT = Path(__file__).parents[2]
VECTORS = json.loads((ROOT / "firmware_protocol" / "vectors.json").read_text("utf-8"))

u8 = st.integers(0, 0xFF)
u16 = st.integers(0, 0xFFFF)
u32 = st.integers(0, 0xFFFF_FFFF)
u64 = st.integers(0, 0xFFFF_FFFF_FFFF_FFFF)
side = st.sampled_from(m.WireSide)
side0 = st.none() | side


def text(limit: int) -> st.SearchStrategy[str]:
    return st.text(max_size=limit).filter(lambda s: len(s.encode("utf-8")) <= limit)


@st.composite
def held_epochs(draw: st.DrawFn, boot_id: int) -> tuple[m.HeldEpoch, ...]:
    boots = draw(st.lists(u32.filter(lambda b: b != boot_id), max_size=m.MAX_HELD_EPOCHS, unique=True))
    held = []
    for boot in boots:
        last = draw(st.integers(1, 0xFFFF_FFFF))
        acked = draw(st.integers(0, last - 1))
        held.append(m.HeldEpoch(boot_id=boot, acked_seq=acked, last_seq=last, last_t_us=draw(u64)))
    return tuple(held)


@st.composite
def hellos(draw: st.DrawFn) -> m.Hello:
    boot_id = draw(u32)
    return m.Hello(
        major=draw(u8),
        minor=draw(u8),
        boot_id=boot_id,
        t_us=draw(u64),
        acked_seq=draw(u32),
        heartbeat_ms=draw(u16),
        capabilities=draw(st.frozensets(st.sampled_from(m.Capability))),
        device_id=draw(text(32)),
        firmware=draw(text(32)),
        held=draw(held_epochs(boot_id)),
    )


@st.composite
def faces(draw: st.DrawFn) -> dict[str, Any]:
    """A face's fields as SHOW_FACE names them, consistent: what a face leaves unused is empty."""
    face = draw(st.sampled_from(m.WireFace))
    fields: dict[str, Any] = {"face": face, "time_ms_a": 0, "time_ms_b": 0, "running": None, "ticking": False}
    if face is m.WireFace.TWO_CLOCKS:
        fields.update(time_ms_a=draw(u32), time_ms_b=draw(u32), running=draw(side0))
    elif face is not m.WireFace.TEXT:
        fields.update(time_ms_a=draw(u32), ticking=draw(st.booleans()))
    return fields


@st.composite
def statuses(draw: st.DrawFn) -> m.WireStatus:
    f = draw(faces())
    return m.WireStatus(
        boot_id=draw(u32),
        t_us=draw(u64),
        remaining_ms_a=f["time_ms_a"],
        remaining_ms_b=f["time_ms_b"],
        running=f["running"],
        low_battery=draw(st.booleans()),
        text=draw(text(64)),
        face=f["face"],
        ticking=f["ticking"],
    )


@st.composite
def show_faces(draw: st.DrawFn) -> m.WireShowFace:
    return m.WireShowFace(**draw(faces()), text=draw(text(64)))


MESSAGES: st.SearchStrategy[Any] = st.one_of(
    hellos(),
    st.builds(m.WirePress, boot_id=u32, seq=st.integers(1, 0xFFFF_FFFF), side=side, t_us=u64),
    statuses(),
    st.builds(m.Heartbeat, boot_id=u32, t_us=u64, acked_seq=u32, last_seq=u32),
    st.builds(m.Sync, major=u8, minor=u8),
    st.builds(m.HelloAck, major=u8, minor=u8, boot_id=u32),
    st.builds(m.Ack, boot_id=u32, seq=u32),
    st.builds(m.WireShow, remaining_ms_a=u32, remaining_ms_b=u32, running=side0, text=text(64)),
    show_faces(),
    st.builds(m.WireBeep, pattern=st.sampled_from(m.BeepPattern)),
    st.builds(
        m.Set,
        initial_ms_a=u32,
        initial_ms_b=u32,
        increment_ms=u32,
        delay_ms=u32,
        delay_mode=st.sampled_from(m.WireDelayMode),
    ),
    st.builds(m.Reject, reason=st.sampled_from(m.RejectReason), major=u8, minor=u8, text=text(64)),
)


def test_every_message_type_has_a_strategy_and_a_layout() -> None:
    assert set(LAYOUTS) == set(m.MESSAGE_TYPES)
    assert {t.CODE for t in m.MESSAGE_TYPES} == {
        0x01, 0x02, 0x03, 0x04, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47
    }  # fmt: skip


# -- golden vectors ---------------------------------------------------------------------------


@pytest.mark.parametrize("vector", VECTORS["messages"], ids=lambda v: v["name"])
def test_golden_messages(vector: dict[str, Any]) -> None:
    msg = m.message_from_json(vector["json"])
    assert encode_payload(msg).hex() == vector["payload"]
    assert encode(msg).hex() == vector["frame"]
    assert [decoded_to_json(x) for x in MessageParser().feed(bytes.fromhex(vector["frame"]))] == [
        vector["json"]
    ]


@pytest.mark.parametrize("vector", VECTORS["streams"], ids=lambda v: v["name"])
def test_golden_streams(vector: dict[str, Any]) -> None:
    got = [decoded_to_json(x) for x in MessageParser().feed(bytes.fromhex(vector["stream"]))]
    want = vector["results"]
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        if "error" in w:
            assert (g["error"], g["offset"]) == (w["error"], w["offset"])
            assert g["detail"]  # a sentence for a person
            if w["error"] == "malformed":
                assert g["problem"] == w["problem"]  # and its problem as data
        else:
            assert g == w


def test_the_spec_shows_every_golden_frame() -> None:
    """SPEC.md's examples are the vectors file's; a change to one must reach the other."""
    spec = (ROOT / "firmware_protocol" / "SPEC.md").read_text("utf-8")
    for vector in VECTORS["messages"]:
        spaced = " ".join(vector["frame"][i : i + 2] for i in range(0, len(vector["frame"]), 2))
        assert spaced in spec, f"SPEC.md lacks the frame of {vector['name']!r}"


def _spec_fields(spec: str, msg: type[m._Message]) -> list[str]:
    """The field names SPEC.md's section 4 gives ``msg``, in order (a table, or a "Fields:" line)."""
    start = spec.index(f"**{msg.NAME}** `0x{msg.CODE:02X}`")
    end = spec.find("\n**", start + 1)
    section = spec[start : end if end > 0 else None]
    names: list[str] = []
    lines = section.splitlines()
    first = next((i for i, line in enumerate(lines) if line.startswith("| field |")), len(lines))
    table = [line for line in itertools.takewhile(lambda x: x.startswith("|"), lines[first:])]
    rows = table[2:]  # the field table right under the heading (not a later one)
    if rows and "Fields:" not in section and "Field:" not in section:
        for row in rows:
            names += [n.strip() for n in row.split("|")[1].split(",")]
        return [{"flags": "low_battery", "capabilities": "capabilities"}.get(n, n) for n in names]
    fields = section.split("Field", 1)[1].split(".", 1)[0]
    return re.findall(r"`(\w+)` (?:u8|u16|u32|side0|str8)", fields)


@pytest.mark.parametrize("msg", m.MESSAGE_TYPES, ids=lambda t: t.NAME)
def test_the_spec_lists_every_message_with_its_code_and_fields_in_wire_order(msg: type[m._Message]) -> None:
    """SPEC.md section 4 is the codec's LAYOUTS: a field added to one must reach the other."""
    spec = (ROOT / "firmware_protocol" / "SPEC.md").read_text("utf-8")
    assert _spec_fields(spec, msg) == [name for name, _ in LAYOUTS[msg]]


@pytest.mark.parametrize(
    ("row", "msg"),
    [
        ("PRESS", m.WirePress(boot_id=1, seq=1, side=m.WireSide.A, t_us=1)),
        ("HEARTBEAT", m.Heartbeat(boot_id=1, t_us=1, acked_seq=1, last_seq=1)),
        ("ACK", m.Ack(boot_id=1, seq=1)),
        ("SHOW (no text)", m.WireShow(remaining_ms_a=1, remaining_ms_b=1)),
        ("SHOW_FACE (no text)", m.WireShowFace(face=m.WireFace.COUNTDOWN, time_ms_a=1, ticking=True)),
        ('SHOW_FACE "ZMIANA"', m.WireShowFace(face=m.WireFace.TEXT, text="ZMIANA")),
        ("STATUS (no text), two clocks", m.WireStatus(boot_id=1, t_us=1, remaining_ms_a=1, remaining_ms_b=1)),
        (
            "STATUS (no text), a countdown (1.2: `face`, `ticking`)",
            m.WireStatus(boot_id=1, t_us=1, remaining_ms_a=1, remaining_ms_b=0, face=m.WireFace.COUNTDOWN),
        ),
    ],
)
def test_the_wire_budget_is_the_codecs(row: str, msg: m.WireMessage) -> None:
    spec = (ROOT / "firmware_protocol" / "SPEC.md").read_text("utf-8")
    frame = len(encode(msg))
    ms = f"{frame * 10 / 115.2:.1f}"
    assert f"| {row} | {len(encode_payload(msg))} | {frame} bytes | {ms} ms |" in spec


# -- properties ------------------------------------------------------------------------------


@given(MESSAGES)
def test_encode_then_decode_is_the_identity(msg: m.WireMessage) -> None:
    assert decode_payload(encode_payload(msg)) == msg
    assert MessageParser().feed(encode(msg)) == [msg]
    assert m.message_from_json(json.loads(json.dumps(msg.to_json()))) == msg


@given(st.lists(st.binary(max_size=80), max_size=20))
def test_arbitrary_bytes_never_raise_and_give_only_typed_results(chunks: list[bytes]) -> None:
    parser = MessageParser()
    for chunk in chunks:
        for item in parser.feed(chunk):
            assert isinstance(item, (FrameError, m.Unknown, *m.MESSAGE_TYPES))
            if isinstance(item, FrameError):
                assert item.detail and item.offset >= 0


@given(st.binary(max_size=60), MESSAGES, st.binary(max_size=60))
def test_a_frame_surrounded_by_garbage_is_recovered(before: bytes, msg: m.WireMessage, after: bytes) -> None:
    results = MessageParser().feed(before + encode(msg) + after)
    assert msg in results


@given(st.lists(MESSAGES, min_size=1, max_size=6), st.binary(max_size=20), st.data())
@settings(max_examples=60)
def test_any_chunking_of_a_stream_gives_the_same_results(
    msgs: list[m.WireMessage], noise: bytes, data
) -> None:
    stream = noise + b"".join(encode(x) for x in msgs)
    whole = MessageParser().feed(stream)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=12)))
    parser = MessageParser()
    pieces = []
    for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        pieces += parser.feed(stream[a:b])
    assert pieces == whole
    assert [x for x in whole if not isinstance(x, FrameError)][-len(msgs) :] == msgs


@given(MESSAGES, st.binary(min_size=1, max_size=16))
def test_fields_a_newer_minor_version_appends_are_ignored(msg: m.WireMessage, extra: bytes) -> None:
    payload = encode_payload(msg)
    if isinstance(msg, m.Hello) and not msg.held:
        payload += b"\x00"  # HELLO's optional ``held`` is written (empty) when later fields follow it
    if isinstance(msg, m.WireStatus) and msg.face is m.WireFace.TWO_CLOCKS:
        payload += b"\x01\x00"  # so are STATUS's optional ``face`` and ``ticking``
    payload += extra
    if len(payload) <= 250:
        assert decode_payload(payload) == msg


def test_an_unknown_type_is_skipped_and_what_follows_still_decodes() -> None:
    press = m.WirePress(boot_id=1, seq=1, side=m.WireSide.A, t_us=5)
    results = MessageParser().feed(encode(m.Unknown(code=0x7F, body_hex="aabb")) + encode(press))
    assert results == [m.Unknown(code=0x7F, body_hex="aabb"), press]


def test_a_run_without_delimiters_is_one_too_long_error_and_parsing_resumes() -> None:
    press = m.WirePress(boot_id=1, seq=9, side=m.WireSide.B, t_us=5)
    parser = MessageParser()
    results = parser.feed(b"\x00" + b"\x01" * 300)
    results += parser.feed(b"\x01" * 300 + encode(press))
    assert len(results) == 2 and results[1] == press
    error = results[0]
    assert isinstance(error, FrameError) and error.kind is FrameErrorKind.TOO_LONG
    assert error.offset == 1 and "600 bytes" in error.detail and str(MAX_ENCODED) in error.detail


@pytest.mark.parametrize(
    ("payload", "says"),
    [
        (bytes([0x02, 1, 0, 0, 0]), "too short for field 'seq'"),
        (bytes([0x44, 9]), "field 'pattern' has no value 9"),
        (bytes([0x43]) + bytes(9) + bytes([5, 0x41]), "field 'text' claims 5 bytes, 1 remain"),
        (bytes([0x43]) + bytes(9) + bytes([2, 0xC3, 0x28]), "field 'text' is not UTF-8"),
        (bytes([0x02]) + bytes(4) + bytes(4) + bytes([1]) + bytes(8), "field 'seq'"),  # seq 0 is not a press
    ],
)
def test_a_malformed_body_names_the_message_and_the_field(payload: bytes, says: str) -> None:
    from firmware_protocol.framing import encode_frame

    (result,) = MessageParser().feed(encode_frame(payload))
    assert isinstance(result, FrameError) and result.kind is FrameErrorKind.MALFORMED
    assert says in result.detail


def test_json_input_errors_name_the_field() -> None:
    with pytest.raises(ValueError, match=r"press message: seq: .*greater than or equal to 1"):
        m.message_from_json({"type": "press", "boot_id": 1, "seq": 0, "side": "a", "t_us": 1})
    with pytest.raises(ValueError, match=r"text: .*at most 64 bytes of UTF-8, not 66"):
        m.message_from_json({"type": "show", "remaining_ms_a": 1, "remaining_ms_b": 1, "text": "ż" * 33})
    with pytest.raises(ValueError, match=r"unknown message type 'pres'; one of hello, press"):
        m.message_from_json({"type": "pres"})


def _show_face(
    face: int, a: int = 0, b: int = 0, running: int = 0, ticking: int = 0, text: bytes = b""
) -> bytes:
    return bytes([0x47, face]) + a.to_bytes(4, "little") + b.to_bytes(4, "little") + bytes([running, ticking])


@pytest.mark.parametrize(
    ("payload", "code", "field", "says"),
    [
        (_show_face(2, 60_000, 5) + b"\x00", "wire.face-unused", "time_ms_b", "is 5, but a countdown face"),
        (_show_face(3, 9, running=1) + b"\x00", "wire.face-unused", "running", "is a, but a count-up face"),
        (_show_face(4, a=1) + b"\x00", "wire.face-unused", "time_ms_a", "a text face does not use it"),
        (_show_face(1, 1, 2, ticking=1) + b"\x00", "wire.face-unused", "ticking", "a two-clocks face"),
        (_show_face(2, 60_000, ticking=2) + b"\x00", "wire.no-value", "ticking", "has no value 2"),
        (_show_face(0) + b"\x00", "wire.no-value", "face", "field 'face' has no value 0"),
        (_show_face(2, 60_000)[:8], "wire.too-short", "time_ms_b", "too short for field 'time_ms_b'"),
        (_show_face(2, 60_000), "wire.body-ends", "text", "body ends before field 'text'"),
        (_show_face(4) + b"\x03ZM", "wire.text-overrun", "text", "claims 3 bytes, 2 remain"),
        (_show_face(4) + b"\x41" + b"x" * 65, "wire.text-too-long", "text", "65 bytes of UTF-8, at most 64"),
        # a STATUS names its own field for the face's unused time
        (bytes([0x03]) + bytes(12) + bytes([1, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 2, 1]), "wire.face-unused",
         "remaining_ms_b", "STATUS: field 'remaining_ms_b' is 9"),
    ],
)  # fmt: skip
def test_a_malformed_show_face_is_refused_naming_the_message_and_the_field(
    payload: bytes, code: str, field: str, says: str
) -> None:
    from firmware_protocol.errors import MalformedError
    from firmware_protocol.framing import encode_frame

    (result,) = MessageParser().feed(encode_frame(payload))
    assert isinstance(result, FrameError) and result.kind is FrameErrorKind.MALFORMED
    assert result.code == code and result.params["field"] == field and says in result.detail
    assert result.params["message"] == ("STATUS" if payload[0] == 0x03 else "SHOW_FACE")
    with pytest.raises(MalformedError) as refused:
        decode_payload(payload)
    assert (refused.value.code, refused.value.params, str(refused.value)) == (
        code,
        result.params,
        result.detail,
    )


def test_every_malformed_error_carries_its_code_and_params() -> None:
    """The older messages' errors, too: the CLI renders them from the catalogue by code."""
    from firmware_protocol.framing import encode_frame

    cases = {
        bytes([0x02, 1, 0, 0, 0]): ("wire.too-short", {"message": "PRESS", "field": "seq", "size": 4}),
        bytes([0x44, 9]): ("wire.no-value", {"message": "BEEP", "field": "pattern", "value": 9}),
        bytes([0x43]) + bytes(9) + bytes([2, 0xC3, 0x28]): (
            "wire.not-utf8",
            {"message": "SHOW", "field": "text", "at": 0},
        ),
        bytes([0x02]) + bytes(8) + bytes([1]) + bytes(8): (
            "wire.too-small",
            {"message": "PRESS", "field": "seq", "value": 0, "least": 1},
        ),
    }
    for payload, (code, params) in cases.items():
        (result,) = MessageParser().feed(encode_frame(payload))
        assert isinstance(result, FrameError) and (result.code, result.params) == (code, params)
        assert decoded_to_json(result)["problem"] == code


def test_json_input_errors_carry_the_first_problem_as_code_and_params() -> None:
    from firmware_protocol.errors import JsonMessageError

    with pytest.raises(JsonMessageError) as refused:
        m.message_from_json({"type": "show-face", "face": "text", "time_ms_b": 7, "text": "ZMIANA"})
    assert refused.value.code == "wire.face-unused"
    assert refused.value.params == {"message": "SHOW_FACE", "field": "time_ms_b", "value": 7, "face": "text"}
    assert str(refused.value) == "show-face message: field 'time_ms_b' is 7, but a text face does not use it"
    with pytest.raises(JsonMessageError) as refused:
        m.message_from_json({"type": "show-face", "face": "sideways"})
    assert refused.value.code == "wire.not-one-of" and refused.value.params["field"] == "face"
    assert "'two-clocks'" in refused.value.params["expected"]  # the choices, named by pydantic
    with pytest.raises(JsonMessageError) as refused:
        m.message_from_json({"type": "press", "side": "a", "seq": 1, "t_us": 5})
    assert (refused.value.code, refused.value.params) == (
        "wire.missing",
        {"message": "PRESS", "field": "boot_id"},
    )
    with pytest.raises(JsonMessageError) as refused:
        m.message_from_json(["show-face"])
    assert (refused.value.code, refused.value.params) == ("wire.json-not-object", {"found": "list"})


def test_a_face_leaves_what_it_does_not_use_empty() -> None:
    """What each face uses, as SPEC.md's SHOW_FACE table says (and the JSON defaults make easy)."""
    countdown = m.WireShowFace(face=m.WireFace.COUNTDOWN, time_ms_a=10_800_000, ticking=True, text="Sztafeta")
    assert (countdown.time_ms_b, countdown.running) == (0, None)
    assert m.WireShowFace(face=m.WireFace.TEXT, text="ZMIANA").time_ms_a == 0
    for face, unused in m.FACE_UNUSED.items():
        for name, empty in unused:
            bad = {"time_ms_b": 1, "time_ms_a": 1, "running": m.WireSide.A, "ticking": True}[name]
            assert bad != empty
            with pytest.raises(ValueError, match=name):
                m.WireShowFace(face=face, **{name: bad})
