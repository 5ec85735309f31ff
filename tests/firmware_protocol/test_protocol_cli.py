"""``duelclock protocol decode|encode``, run as a person runs them (stdin → stdout)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from clockd.cli import main
from clockd.i18n import set_language

ROOT = Path(__file__).parents[2]
VECTORS = json.loads((ROOT / "firmware_protocol" / "vectors.json").read_text("utf-8"))
ALL_FRAMES = b"".join(bytes.fromhex(v["frame"]) for v in VECTORS["messages"])
ALL_JSON = [v["json"] for v in VECTORS["messages"]]


@pytest.fixture
def run(monkeypatch, capsysbinary):
    set_language("en")

    def call(*argv: str, stdin: bytes) -> tuple[int, bytes, str]:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
        status = main(["protocol", *argv])
        out, err = capsysbinary.readouterr()
        return status, out, err.decode("utf-8")

    yield call
    set_language(None)


def xxd(data: bytes) -> str:
    """What ``xxd`` prints for ``data``."""
    out = []
    for i in range(0, len(data), 16):
        row = data[i : i + 16]
        pairs = " ".join(row[j : j + 2].hex() for j in range(0, len(row), 2))
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in row)
        out.append(f"{i:08x}: {pairs:<39}  {text}")
    return "\n".join(out) + "\n"


def hexdump_c(data: bytes) -> str:
    """What ``hexdump -C`` prints for ``data``."""
    out = []
    for i in range(0, len(data), 16):
        row = data[i : i + 16]
        left = " ".join(f"{b:02x}" for b in row[:8])
        right = " ".join(f"{b:02x}" for b in row[8:])
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in row)
        out.append(f"{i:08x}  {left:<23}  {right:<23}  |{text}|")
    out.append(f"{len(data):08x}")
    return "\n".join(out) + "\n"


def lines(out: bytes) -> list[dict]:
    return [json.loads(line) for line in out.decode("utf-8").splitlines()]


def test_decode_prints_every_golden_message(run) -> None:
    status, out, _ = run("decode", stdin=ALL_FRAMES)
    assert status == 0 and lines(out) == ALL_JSON


def test_decode_reports_errors_with_their_offset_and_carries_on(run) -> None:
    noisy = VECTORS["streams"][0]
    status, out, _ = run("decode", "--raw", stdin=bytes.fromhex(noisy["stream"]))
    got = lines(out)
    assert status == 0 and [g.get("error", g.get("type")) for g in got] == ["bad-cobs", "press", "bad-cobs"]
    assert [g["offset"] for g in got if "error" in g] == [0, 26]


@pytest.mark.parametrize("dump", ["xxd", "hexdump -C", "plain"])
def test_decode_reads_the_usual_hex_dumps(run, dump: str) -> None:
    if dump == "plain":
        text = "\n".join(
            " ".join(f"0x{b:02x}," for b in ALL_FRAMES[i : i + 16]) for i in range(0, len(ALL_FRAMES), 16)
        )
    else:
        text = xxd(ALL_FRAMES) if dump == "xxd" else hexdump_c(ALL_FRAMES)
    status, out, _ = run("decode", stdin=text.encode())
    assert status == 0 and lines(out) == ALL_JSON


def test_decode_refuses_a_broken_hex_dump_naming_the_line(run) -> None:
    status, out, err = run("decode", "--hex", stdin=b"00 03 40 01\n00 0g 00\n")
    assert status == 2 and out == b"" and "line 2" in err and "'g'" in err


def test_encode_writes_the_golden_frames(run) -> None:
    stdin = "\n".join(json.dumps(j, ensure_ascii=False) for j in ALL_JSON).encode()
    status, out, _ = run("encode", stdin=stdin)
    assert status == 0 and out == ALL_FRAMES


def test_encode_then_decode_round_trips_with_offsets_and_comments(run) -> None:
    stdin = b"# a SHOW by hand\n" + json.dumps(ALL_JSON[8]).encode() + b"\n\n"
    _, frames, _ = run("encode", "--hex", stdin=stdin)
    status, out, _ = run("decode", "--offsets", stdin=frames)
    (line,) = lines(out)
    assert status == 0 and line.pop("offset") == 1 and line == ALL_JSON[8]
    # decode's output (offsets included) is encode's input
    _, again, _ = run("encode", stdin=out)
    assert again.hex() == VECTORS["messages"][8]["frame"]


def test_encode_writes_nothing_when_any_line_is_bad(run) -> None:
    good = json.dumps(ALL_JSON[1])
    status, out, err = run("encode", stdin=f'{good}\n{{"type": "beep", "pattern": "loud"}}\n'.encode())
    assert status == 1 and out == b""
    assert "line 2" in err and "pattern" in err
    status, out, err = run("encode", stdin=b'{"error": "bad-crc", "offset": 3}\n')
    assert status == 1 and out == b"" and "not a message" in err


# -- errors in the reader's language ----------------------------------------------------------

BAD_FACE = next(s for s in VECTORS["streams"] if s["name"].startswith("SHOW_FACE of a countdown with a time"))


def test_decode_gives_a_malformed_show_face_its_problem_and_a_polish_detail(run) -> None:
    set_language("pl")
    status, out, _ = run("decode", "--raw", stdin=bytes.fromhex(BAD_FACE["stream"]))
    (line,) = lines(out)
    assert status == 0 and line["error"] == "malformed" and line["problem"] == "wire.face-unused"
    assert line["params"] == {
        "message": "SHOW_FACE",
        "field": "time_ms_b",
        "value": 5000,
        "face": "countdown",
    }
    assert line["detail"] == "SHOW_FACE: pole 'time_ms_b' ma wartość 5000, a tarcza countdown go nie używa"


def test_encode_refuses_a_show_face_naming_the_field_in_either_language(run) -> None:
    bad = b'{"type": "show-face", "face": "text", "time_ms_a": 60000, "text": "ZMIANA"}\n'
    status, out, err = run("encode", stdin=bad)
    assert status == 1 and out == b""
    assert err.strip() == (
        "duelclock protocol encode: line 1: "
        "SHOW_FACE: field 'time_ms_a' is 60000, but a text face does not use it"
    )
    set_language("pl")
    status, out, err = run("encode", stdin=bad)
    assert status == 1 and out == b""
    assert err.strip() == (
        "duelclock protocol encode: wiersz 1: SHOW_FACE: pole 'time_ms_a' ma wartość 60000, "
        "a tarcza text go nie używa"
    )


def test_encode_and_decode_refusals_of_their_own_come_from_the_catalogue_too(run) -> None:
    set_language("pl")
    status, _, err = run("encode", stdin=b'{"type": "beep",\n')
    assert status == 1 and err.startswith("duelclock protocol encode: wiersz 1: to nie jest JSON: ")
    status, _, err = run("encode", stdin=b'{"error": "bad-crc", "offset": 3}\n')
    assert status == 1 and "to błąd dekodowania (bad-crc), a nie komunikat" in err
    status, _, err = run("decode", "--hex", stdin=b"00 03 40 01\n00 0g 00\n")
    assert status == 2 and "wiersz 2: 'g' nie jest cyfrą szesnastkową" in err
