"""duelclock's web pages: live results on every phone, and result entry at the tables.

Another client of the daemon's API, like the referee's window (it imports ``clockd.api``,
``clockd.core`` and ``clockd.i18n`` only, an import-linter contract holds it to that):

* :mod:`web.hub` — one public subscription to the daemon, fanned out to every open page
  through bounded queues (a slow browser is dropped, never waited for);
* :mod:`web.pages` — the public pages, server-rendered, live over Server-Sent Events;
* :mod:`web.access` — arbiters' PINs and one-time QR codes, sessions, the lock-out;
* :mod:`web.entry` — result entry, through the daemon's own actions (journaled first);
* :mod:`web.app` — the Starlette application; :mod:`web.serve` — uvicorn beside the daemon;
* :mod:`web.publish` — the public pages as plain files for the organiser's website.

``docs/web.md`` says how to start it, print codes, serve over TLS and publish.
"""
