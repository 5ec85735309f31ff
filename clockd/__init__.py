"""clockd — the daemon that owns the time of every duel table.

Sub-packages, in the order they may import each other (DESIGN.md, "The house"):

* :mod:`clockd.core` — the pure domain: clocks, time controls, duel rules, brackets, Swiss.
* :mod:`clockd.devices` — drivers that turn hardware into :class:`~clockd.devices.base.Press` events.
* :mod:`clockd.store` — the SQLite journal.
* :mod:`clockd.api` — the API's message models and client (the GUI imports only these).
* :mod:`clockd.service` — the runtime: tables, recovery, the API server.
* :mod:`clockd.cli` — the ``duelclock`` command; the one place that wires everything together.
"""

__version__ = "0.1.0"
