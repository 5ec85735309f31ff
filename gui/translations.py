"""Polish first, English available: the project's one catalogue, and Qt's own words beside it.

Every sentence the desk shows — menus, button labels, dialogs' words, and what the daemon and
the core say (refusals, alerts, round names, terms) — comes from the project's message
catalogue (``clockd/i18n``, codes ``gui.*`` for the widgets' own words), rendered with
:func:`clockd.i18n.text` in the language :func:`clockd.i18n.set_language` chose. The widgets
keep no second catalogue: a translator edits one ``.po`` file.

Only Qt's own words in its standard dialogs (OK, Cancel, Close) come from the translations
shipped with Qt (``qtbase_pl.qm``), if present: :func:`install` switches both, so a window
never shows Qt's Polish beside the catalogue's English.

The language comes from ``--lang``, else the settings (``Settings → Language`` in the
referee window, stored with ``QSettings``), else ``DUELCLOCK_LANG``, else Polish.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QCoreApplication, QEvent, QLibraryInfo, QLocale, QSettings, QTranslator

import clockd.i18n

LANGUAGES = ("pl", "en")
DEFAULT_LANGUAGE = "pl"

ORGANIZATION = "duelclock"
APPLICATION = "duelclock-gui"

_translators: list[QTranslator] = []


def settings() -> QSettings:
    """The GUI's settings (language, last port), per user."""
    return QSettings(ORGANIZATION, APPLICATION)


def chosen_language(cli: str | None = None) -> str:
    """``--lang`` if given, else the saved setting, else ``DUELCLOCK_LANG``, else Polish."""
    for candidate in (cli, str(settings().value("language", "") or ""), os.environ.get("DUELCLOCK_LANG", "")):
        lang = (candidate or "").strip().lower()[:2]
        if lang in LANGUAGES:
            return lang
    return DEFAULT_LANGUAGE


def save_language(lang: str) -> None:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    settings().setValue("language", lang)


def install(lang: str) -> str:
    """Make ``lang`` the application's language (the catalogue's and Qt's own words); returns it.

    Widgets that were built already get a ``LanguageChange`` event and retranslate: they
    render their texts from the catalogue again, in the new language.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    app = QCoreApplication.instance()
    if app is None:
        raise RuntimeError("create the QApplication before installing a translation")
    clockd.i18n.set_language(lang)  # before Qt's LanguageChange: the widgets redraw in the new one
    changed = bool(_translators)
    while _translators:
        app.removeTranslator(_translators.pop())
    if lang != "en":
        # Qt's own words (OK, Cancel, Close) from the translations shipped with Qt, if present
        qt = QTranslator(app)
        if qt.load(f"qtbase_{lang}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
            app.installTranslator(qt)
            _translators.append(qt)
            changed = True
    QLocale.setDefault(QLocale(QLocale.Language.Polish if lang == "pl" else QLocale.Language.English))
    if not changed:
        # Qt sends LanguageChange when a translator comes or goes; without Qt's own file
        # nothing came or went, and the catalogue's switch still needs the widgets to redraw.
        QCoreApplication.postEvent(app, QEvent(QEvent.Type.LanguageChange))
    return lang
