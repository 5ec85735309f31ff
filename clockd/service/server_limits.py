"""What one client may cost the daemon, and what the API server counts.

Apart from :mod:`clockd.service.server` because the limits are the policy
(``docs/architecture.md``, "The API under hostile clients"), set by the runtime and the
CLI and by tests that tighten them, without the server's loop; the counts are what the
server reports. :mod:`clockd.service.server` re-exports both.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from clockd.api.messages import MAX_LINE_BYTES

__all__ = ["ServerLimits", "ServerStats"]


@dataclass(frozen=True)
class ServerLimits:
    """What one client may cost the daemon (the policy: ``docs/architecture.md``)."""

    #: Connections without the token, at once.
    max_clients: int = 256
    #: Connections with the token (the desk, its commands), beyond ``max_clients``.
    max_referee_clients: int = 32
    #: Subscriptions without the token (audience screens), at once.
    max_subscribers: int = 64
    #: A tokenless connection that sends no request for this long (and is not subscribed),
    #: or whose reply is not read for this long, is closed.
    idle_timeout_s: float = 60.0
    #: When the public slots are full: how long a new connection has to show the token.
    first_line_timeout_s: float = 5.0
    #: A trusted subscriber's unsent output before it is dropped.
    max_backlog_bytes: int = 1 << 20
    #: The same for a tokenless subscriber.
    public_backlog_bytes: int = 256 << 10
    #: The unsent output of every connection together.
    total_backlog_bytes: int = 64 << 20
    #: The kernel's send buffer for each connection (beyond it, output waits in the backlog).
    socket_buffer_bytes: int = 128 << 10
    #: A trusted connection's longest request line (a sign-up file travels in one).
    max_line_bytes: int = MAX_LINE_BYTES
    #: A tokenless connection's longest request line, without a big-line slot.
    public_line_bytes: int = 64 << 10
    #: Tokenless connections that may be reading a longer line at once.
    big_lines: int = 4
    #: Requests a second one tokenless connection may send (and as many at once).
    public_rate: float = 100.0
    #: Seconds of the API thread's time a second for every tokenless request together …
    public_work: float = 0.25
    #: … of which at most this much at once (what a trusted request may have to wait behind).
    public_work_burst: float = 0.02
    #: Tokenless requests carried out at once (the rest wait their turn): what their replies
    #: may hold while they are built, and the debt the budget can run up before their cost is known.
    public_at_once: int = 4
    #: The unsent output of every tokenless connection together (replies and pushes).
    public_output_bytes: int = 16 << 20


@dataclass
class ServerStats:
    connections: int = 0
    requests: int = 0
    errors: int = 0
    dropped_subscribers: int = 0
    refused_connections: int = 0
    idle_closed: int = 0
    paced_s: float = 0.0  # time tokenless connections were made to wait, in all
    abandoned: int = 0  # tokenless requests not carried out: their connection closed while they waited
    pushes: int = 0
    by_code: dict[str, int] = field(default_factory=dict)
