"""Strangers after a flood that left: 200 tokenless connections ask for 50 big timelines each and go.

    python -m benchmarks.bench_stranger_flood            # ~15 s
    python -m benchmarks.bench_stranger_flood --connections 50 --notes 2000

A daemon in this process (one table, a journal on disk) gets ``--notes`` notes on its table
from the referee (a timeline of ~1.6 MB at the default), then ``--connections`` strangers
each send ``--requests`` requests for that timeline at once and close after a second. Then
another stranger (an audience screen, the web pages' hub subscribing again) pings. Before
this change (issue 29, item 4) it waited 31 minutes, and the dead connections and 300 MB
stayed. Figures, one JSON line each: how long after they left the stranger was answered
(capped at ``--wait-s``), the connections still held 3 s later, the requests the daemon
dropped unanswered, and the daemon's memory before, at the flood and after.
"""

from __future__ import annotations

import argparse
import json
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from clockd.api import Client
from clockd.core.program import AddNote
from clockd.service.runtime import Daemon, TableSpec


def rss_mb() -> float:
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return int(status["VmRSS"].split()[0]) / 1024


def _emit(figure: str, value: Any, unit: str, **extra: Any) -> None:
    line = {"bench": "stranger_flood", "figure": figure, "value": value, "unit": unit, **extra}
    print(json.dumps(line), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--notes", type=int, default=6000)
    parser.add_argument("--wait-s", type=float, default=120.0)
    args = parser.parse_args()
    daemon = Daemon(
        Path(tempfile.mkdtemp(prefix="bench-flood-")) / "hall.db",
        tables=[TableSpec(1, control="10m")],
        port=0,
        write_daemon_info=False,
    )
    started = daemon.start()
    try:

        def fill(n: int) -> None:
            with Client(port=started.port, token=started.token) as desk:
                for i in range(n):
                    desk.act(1, AddNote(text=f"note {i}"))

        writers = [threading.Thread(target=fill, args=(args.notes // 20,)) for _ in range(20)]
        for t in writers:
            t.start()
        for t in writers:
            t.join()
        with Client(port=started.port) as stranger:
            size = len(stranger.timeline(1, limit=10_000).model_dump_json())
        before = rss_mb()
        line = b'{"type": "timeline", "table": 1, "limit": 10000}\n' * args.requests
        flood = []
        for _ in range(args.connections):
            sock = socket.create_connection(("127.0.0.1", started.port))
            sock.sendall(line)
            flood.append(sock)
        time.sleep(1.0)
        at_flood = rss_mb()
        for sock in flood:
            sock.close()
        left = time.monotonic()
        screen = socket.create_connection(("127.0.0.1", started.port))
        screen.settimeout(args.wait_s)
        screen.sendall(b'{"type": "ping", "id": 1}\n')
        try:
            answered: float | None = round(time.monotonic() - left, 2) if screen.recv(256) else None
        except TimeoutError:
            answered = None
        screen.close()
        time.sleep(3.0)
        assert daemon.server is not None
        stats = daemon.server.stats
        kept = len(daemon.server._connections)
        after = rss_mb()
    finally:
        daemon.stop()
    _emit("timeline_bytes", size, "bytes", entries_asked=10_000)
    _emit(
        "stranger_answered_after",
        answered,
        "s",
        waited_at_most=args.wait_s,
        connections=args.connections,
        requests_each=args.requests,
    )
    _emit("connections_kept_3s_after", kept, "connections")
    _emit("requests_dropped_unanswered", getattr(stats, "abandoned", None), "requests")
    _emit("daemon_rss", round(after, 1), "MB", before=round(before, 1), at_flood=round(at_flood, 1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
