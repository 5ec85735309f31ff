"""Event kinds as packages: each kind is one folder, found here and loaded layer by layer.

A kind — the Puzzle Duel, the relay, a chess group, a countdown with laps — is a folder
holding everything it is, split by *layer*, each a module of its own so that every client
imports only what it may::

    countdown/
        __init__.py     what it is, in one docstring (imports nothing)
        rules.py        the pure rules (no I/O): state, actions
        service.py      the daemon's part: its :class:`~clockd.service.events.EventKind`
        api.py          what clients read of it: its view body (message models only)
        desk.py         its widget for the referee's desk (optional)
        audience.py     its widget for the audience screen (optional)
        cli.py          its ``duelclock`` words (optional): ``COMMANDS`` (word → summary
                        code) and ``register(sub)``; only argparse and the catalogue at its top
        web.html        its public page's body (optional, a Jinja template)
        messages.po     its sentences, Polish and English (merged into the one catalogue)

Nothing outside the folder names the kind: the daemon loads every kind's ``service``
(:func:`load` ``("service")``), the API package every ``api``, the catalogue every
``messages.po``, the desk every ``desk`` — each layer asks for its own modules here, so the
desk never imports the daemon's half of a kind, nor the daemon the desk's.

The built-in kinds are the folders beside this file. More come from the folders named in
``DUELCLOCK_KINDS`` (separated by ``os.pathsep``, like ``PATH``): an organiser's own kind,
or a test's, is added without a change anywhere else. Each is imported under its own name
(``duelclock_kind_<folder>``), so two kinds' modules never clash.

This module imports only the standard library: every layer may use it.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

#: Where more kinds are found: folders, separated by ``os.pathsep``.
KINDS_ENV = "DUELCLOCK_KINDS"

#: The folder of the built-in kinds (this package).
BUILTIN = Path(__file__).resolve().parent


@dataclass(frozen=True, slots=True)
class KindPackage:
    """One kind's folder and the module name its layers are imported under."""

    folder: Path
    module: str

    @property
    def name(self) -> str:
        return self.folder.name

    def has(self, layer: str) -> bool:
        """Whether the kind has the layer's module (``desk`` → ``desk.py``)."""
        return (self.folder / f"{layer}.py").is_file()

    def file(self, name: str) -> Path | None:
        """One of the kind's own files (``messages.po``, ``web.html``), if it has it."""
        path = self.folder / name
        return path if path.is_file() else None


class KindFolderError(RuntimeError):
    """A folder named as a kind is not one (no ``__init__.py``): an installation mistake."""


_LOCK = threading.RLock()
_FOUND: dict[tuple[str, ...], tuple[KindPackage, ...]] = {}


def _extra_folders() -> tuple[str, ...]:
    return tuple(p for p in os.environ.get(KINDS_ENV, "").split(os.pathsep) if p.strip())


def packages() -> tuple[KindPackage, ...]:
    """Every kind's package: the built-in ones, then those of ``DUELCLOCK_KINDS``, in order."""
    extra = _extra_folders()
    with _LOCK:
        found = _FOUND.get(extra)
        if found is None:
            builtin = [
                KindPackage(folder, f"{__name__}.{folder.name}")
                for folder in sorted(BUILTIN.iterdir())
                if folder.is_dir() and (folder / "__init__.py").is_file()
            ]
            more = [_outside(Path(p)) for p in extra]
            found = _FOUND[extra] = (*builtin, *more)
    return found


def _outside(folder: Path) -> KindPackage:
    """A kind's folder outside the project, importable as ``duelclock_kind_<name>``."""
    folder = folder.resolve()
    init = folder / "__init__.py"
    if not init.is_file():
        raise KindFolderError(f"{KINDS_ENV}: {folder} is not a kind's folder (it has no __init__.py)")
    module = f"duelclock_kind_{folder.name.replace('-', '_')}"
    if module not in sys.modules:
        spec = importlib.util.spec_from_file_location(module, init, submodule_search_locations=[str(folder)])
        if spec is None or spec.loader is None:
            raise KindFolderError(f"{KINDS_ENV}: {folder} cannot be imported")
        package = importlib.util.module_from_spec(spec)
        sys.modules[module] = package
        spec.loader.exec_module(package)
    return KindPackage(folder, module)


def load(layer: str) -> list[ModuleType]:
    """Import every kind's ``layer`` module (those that have one), in the kinds' order.

    Importing a layer registers what it defines (an event kind, a view body, a widget);
    calling this again imports nothing new.
    """
    with _LOCK:
        return [importlib.import_module(f"{p.module}.{layer}") for p in packages() if p.has(layer)]


def files(name: str) -> list[Path]:
    """Every kind's own file called ``name`` (``messages.po``), in the kinds' order."""
    return [path for p in packages() if (path := p.file(name)) is not None]
