"""Polish first, English available: two catalogues, switched together.

* **What the daemon and the core say** — refusals, alerts, round names, the core's terms —
  arrives as :class:`clockd.i18n.Msg` values and is rendered from the project's one message
  catalogue (``clockd/i18n``), in the language :func:`clockd.i18n.set_language` chose.
* **What only the widgets show** — menus, button labels, dialogs' own words — is English in
  the code, wrapped in ``self.tr()`` or ``QCoreApplication.translate()`` (or marked with
  ``QT_TRANSLATE_NOOP``), translated by Qt: ``gui/i18n/duelclock_pl.ts`` holds the Polish
  translations and ``duelclock_pl.qm`` their compiled form. English needs no file.

:func:`install` switches both, so a window never shows Qt's Polish beside the catalogue's
English.

The language comes from ``--lang``, else the settings (``Settings → Language`` in the
referee window, stored with ``QSettings``), else ``DUELCLOCK_LANG``, else Polish.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QSettings, QTranslator

import clockd.i18n

I18N_DIR = Path(__file__).resolve().parent / "i18n"
LANGUAGES = ("pl", "en")
DEFAULT_LANGUAGE = "pl"

ORGANIZATION = "duelclock"
APPLICATION = "duelclock-gui"

_translators: list[QTranslator] = []


def qm_path(lang: str) -> Path:
    return I18N_DIR / f"duelclock_{lang}.qm"


def ts_path(lang: str) -> Path:
    return I18N_DIR / f"duelclock_{lang}.ts"


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
    """Make ``lang`` the application's language (Qt's and the catalogue's); returns it.

    Widgets that were built already get a ``LanguageChange`` event and retranslate; the
    catalogue's messages they draw are rendered again in the new language.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    app = QCoreApplication.instance()
    if app is None:
        raise RuntimeError("create the QApplication before installing a translation")
    clockd.i18n.set_language(lang)  # before Qt's LanguageChange: the widgets redraw in the new one
    while _translators:
        app.removeTranslator(_translators.pop())
    if lang != "en":
        ours = QTranslator(app)
        path = qm_path(lang)
        if not ours.load(str(path)):
            raise RuntimeError(f"cannot load the translation {path}")
        # Qt's own words (OK, Cancel, Close) from the translations shipped with Qt, if present
        qt = QTranslator(app)
        if qt.load(f"qtbase_{lang}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
            app.installTranslator(qt)
            _translators.append(qt)
        app.installTranslator(ours)
        _translators.append(ours)
    QLocale.setDefault(QLocale(QLocale.Language.Polish if lang == "pl" else QLocale.Language.English))
    return lang
