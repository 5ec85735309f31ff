"""Qt translation files: ``duelclock_pl.ts`` (the source) and ``duelclock_pl.qm`` (compiled).

The code's strings are English; Polish is the translation and the default language.
Regenerate after changing a string (``docs/gui.md``)::

    .venv/bin/pyside6-lupdate gui -extensions py -ts gui/i18n/duelclock_pl.ts -no-obsolete
    # translate the new entries in the .ts, then
    .venv/bin/pyside6-lrelease gui/i18n/duelclock_pl.ts -qm gui/i18n/duelclock_pl.qm
"""
