"""The protocol's error codes and the daemon's message catalogue say the same, in both languages.

``firmware_protocol`` is pure and cannot read the catalogue, so it keeps each code's
English sentence itself (:data:`firmware_protocol.errors.TEXTS`, for ``str()`` and logs);
the catalogue (``clockd/i18n/locale/pl/LC_MESSAGES/duelclock.po``) must have the same
English as its ``msgid`` and a Polish ``msgstr`` with the same placeholders.
"""

from __future__ import annotations

import pytest

from clockd.i18n import render_error
from clockd.i18n.catalogue import catalogue, placeholders
from firmware_protocol.codec import decode_payload
from firmware_protocol.errors import TEXTS, MalformedError


@pytest.mark.parametrize("code", sorted(TEXTS))
def test_every_wire_code_is_in_the_catalogue_with_the_same_english_and_a_polish_text(code: str) -> None:
    assert code.startswith("wire.")
    entry = catalogue().entries.get(code)
    assert entry is not None, f"the catalogue has no entry for {code!r}"
    assert entry.en == (TEXTS[code],)
    (polish,) = entry.pl
    assert polish and polish != TEXTS[code]
    assert placeholders(polish) == placeholders(TEXTS[code])


def test_a_malformed_frame_is_rendered_for_its_reader() -> None:
    payload = bytes([0x47, 4, 1, 0, 0, 0]) + bytes(4) + bytes([0, 0, 0])  # a text face with a time
    with pytest.raises(MalformedError) as refused:
        decode_payload(payload)
    assert render_error(refused.value, "en") == str(refused.value)
    assert (
        render_error(refused.value, "en")
        == "SHOW_FACE: field 'time_ms_a' is 1, but a text face does not use it"
    )
    assert (
        render_error(refused.value, "pl")
        == "SHOW_FACE: pole 'time_ms_a' ma wartość 1, a tarcza text go nie używa"
    )
