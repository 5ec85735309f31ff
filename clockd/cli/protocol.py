"""``duelclock protocol decode|encode``: the clock wire protocol, for a person debugging a clock.

``decode`` reads what a clock sent — raw bytes (e.g. captured with ``cat /dev/ttyUSB0``
or pyserial's ``spy://``) or a hex dump (plain hex, ``xxd``, ``hexdump -C``) — and prints
one JSON line per message or per error (with the byte offset where it was found).
``encode`` reads JSON lines in the same form and writes the frames, e.g. to send a clock
a SHOW by hand::

    echo '{"type": "show", "remaining_ms_a": 300000, "remaining_ms_b": 300000}' \\
        | duelclock protocol encode > /dev/ttyUSB0
    duelclock protocol decode < capture.bin

Errors are the protocol package's (:mod:`firmware_protocol.errors`): a code and its
parameters, rendered here from the message catalogue in the user's language, after the
command's name and the input line they are about. ``decode`` prints a malformed frame's
code (as ``problem``) and ``params`` too, and its ``detail`` in the user's language.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

from clockd import i18n
from clockd.i18n import Msg, render, render_error
from firmware_protocol.errors import WireError


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "protocol",
        help=i18n.text("cli.protocol.decode-and-encode-the-clock-wire"),
        description=i18n.text("cli.protocol.the-usb-clocks-wire-protocol-firmware"),
    )
    psub = parser.add_subparsers(dest="protocol_command", required=True, metavar="ACTION")
    dec = psub.add_parser(
        "decode",
        help=i18n.text("cli.protocol.bytes-or-a-hex-dump-on"),
        description=i18n.text("cli.protocol.reads-bytes-or-a-hex-dump"),
    )
    form = dec.add_mutually_exclusive_group()
    form.add_argument("--hex", action="store_true", help=i18n.text("cli.protocol.the-input-is-a-hex-dump"))
    form.add_argument("--raw", action="store_true", help=i18n.text("cli.protocol.the-input-is-raw-bytes"))
    dec.add_argument(
        "--offsets",
        action="store_true",
        help=i18n.text("cli.protocol.add-every-messages-offset"),
    )
    dec.set_defaults(func=_decode)
    enc = psub.add_parser(
        "encode",
        help=i18n.text("cli.protocol.json-lines-on-stdin-frames-on"),
        description=i18n.text("cli.protocol.reads-json-lines-as-decode-prints"),
    )
    enc.add_argument(
        "--hex",
        action="store_true",
        help=i18n.text("cli.protocol.write-hex-a-frame-a-line"),
    )
    enc.set_defaults(func=_encode)


class HexDumpError(WireError):
    """A hex dump that is not one: the line and what is wrong with it (``wire.hex-*`` codes)."""


_XXD = re.compile(r"^[0-9a-fA-F]{4,}:\s")  # 00000010: 0007 0234 ...  ascii
_HEXDUMP_C = re.compile(r"^[0-9a-fA-F]{7,8}(\s\s|$)")  # 00000010  00 07 02 ...  |ascii|


def parse_hex_dump(text: str) -> bytes:
    """Bytes from plain hex (any spacing, ``0x`` prefixes, commas), ``xxd`` or ``hexdump -C`` output."""
    out = bytearray()
    for number, line in enumerate(text.splitlines(), start=1):
        body = line.split("#", 1)[0]
        if _XXD.match(body):
            body = body.split(":", 1)[1]
            body = re.split(r"\s{2,}", body.strip(), maxsplit=1)[0]  # drop the ASCII column
        elif _HEXDUMP_C.match(body):
            body = body.split("|", 1)[0]
            body = body.strip()[8:] if len(body.strip()) > 8 else ""
        body = re.sub(r"0[xX]", "", body)
        digits = re.sub(r"[\s,:]", "", body)
        bad = re.search(r"[^0-9a-fA-F]", digits)
        if bad:
            raise HexDumpError("wire.hex-not-digit", line=number, char=repr(bad.group()))
        if len(digits) % 2:
            raise HexDumpError("wire.hex-odd", line=number, n=len(digits))
        out += bytes.fromhex(digits)
    return bytes(out)


def looks_like_hex(data: bytes) -> bool:
    """Frames always contain 0x00 and mostly unprintable bytes; a hex dump is printable text."""
    return bool(data) and all(32 <= b < 127 or b in b"\t\r\n" for b in data)


def _decode(args: argparse.Namespace) -> int:
    from firmware_protocol.codec import MessageParser, decoded_to_json

    data = sys.stdin.buffer.read()
    if args.hex or (not args.raw and looks_like_hex(data)):
        try:
            data = parse_hex_dump(data.decode("ascii", errors="replace"))
        except HexDumpError as exc:
            problem = render_error(exc)
            print(
                i18n.text("cli.protocol.duelclock-protocol-decode-hex-dump", problem=problem),
                file=sys.stderr,
            )
            return 2
    parser = MessageParser()
    results = parser.feed_located(data)
    if data and data[-1] != 0:
        results += parser.feed_located(b"\x00")  # the input's end ends its last frame
    out = sys.stdout
    for offset, item in results:
        line = decoded_to_json(item)
        if "problem" in line:  # a malformed frame: its problem in the reader's language
            line["detail"] = render(Msg(code=line["problem"], params=line["params"]))
        if args.offsets and "offset" not in line:
            line = {"offset": offset, **line}
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return 0


def _encode(args: argparse.Namespace) -> int:
    from firmware_protocol.codec import encode
    from firmware_protocol.errors import JsonMessageError
    from firmware_protocol.messages import message_from_json

    frames: list[bytes] = []
    for number, line in enumerate(sys.stdin.read().splitlines(), start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                raise JsonMessageError("wire.json-syntax", reason=exc.msg, column=exc.colno) from None
            if isinstance(obj, dict):
                if "error" in obj:
                    raise JsonMessageError("wire.json-is-error", error=str(obj["error"]))
                obj.pop("offset", None)
            frames.append(encode(message_from_json(obj)))
        except ValueError as exc:
            problem = render_error(exc)
            print(
                i18n.text("cli.protocol.duelclock-protocol-encode-line", number=number, problem=problem),
                file=sys.stderr,
            )
            return 1
    if args.hex:
        sys.stdout.write("".join(" ".join(f"{b:02x}" for b in f) + "\n" for f in frames))
    else:
        sys.stdout.buffer.write(b"".join(frames))
        sys.stdout.buffer.flush()
    return 0
