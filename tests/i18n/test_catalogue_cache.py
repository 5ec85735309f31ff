"""The catalogue read through its cache says what Babel reads in the file, and follows an edit."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from clockd.i18n.catalogue import CATALOGUE_FILE, parse, read

SOURCE = Path(__file__).resolve().parents[2] / "clockd" / "i18n" / Path(*CATALOGUE_FILE)


def test_the_cached_catalogue_is_the_parsed_one(tmp_path: Path) -> None:
    po = tmp_path / "duelclock.po"
    shutil.copyfile(SOURCE, po)
    first, again = read(po), read(po)  # the second from the cache
    assert (tmp_path / "__pycache__" / "duelclock.po.marshal").is_file()
    parsed = parse(po.read_text(encoding="utf-8"))
    assert first.entries == again.entries == parsed.entries
    assert [again.plural_pl(n) for n in range(40)] == [parsed.plural_pl(n) for n in range(40)]


def test_an_edited_file_is_read_again(tmp_path: Path) -> None:
    po = tmp_path / "duelclock.po"
    shutil.copyfile(SOURCE, po)
    read(po)
    text = po.read_text(encoding="utf-8")
    po.write_text(text.replace('msgstr "Stolik"', 'msgstr "Stół"', 1), encoding="utf-8")
    os.utime(po, ns=(1, 1))  # a different time, however fast the edit
    assert read(po).entries == parse(po.read_text(encoding="utf-8")).entries
    assert read(po).entries != parse(text).entries


def test_a_folder_that_cannot_be_written_costs_only_the_parse(tmp_path: Path) -> None:
    po = tmp_path / "duelclock.po"
    shutil.copyfile(SOURCE, po)
    (tmp_path / "__pycache__").write_text("not a folder")
    assert read(po).entries == parse(po.read_text(encoding="utf-8")).entries
