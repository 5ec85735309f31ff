"""The daemon's API as a client sees it: message models and a client. Nothing of the daemon itself.

* :mod:`clockd.api.messages` — every request, reply and push (versioned pydantic models).
* :mod:`clockd.api.client` — :class:`Client` (requests) and :class:`Subscription` (the live
  stream; blocking, non-blocking for Qt's ``QSocketNotifier``, or in a thread).
* :mod:`clockd.api.local` — finding the local daemon (``daemon.json``: port and token).

The wire format and examples: ``docs/api.md``.
"""

from clockd import kinds
from clockd.api import chess, describe, hall, puzzle, switcher, zone  # noqa: F401  (every event kind's view, so a client reads them)
from clockd.api.client import Client, DaemonUnreachable, Subscription
from clockd.api.local import DaemonInfo, read_info, resolve, state_dir
from clockd.api.messages import (
    API_VERSION,
    DEFAULT_PORT,
    MAX_LINE_BYTES,
    ActionRequest,
    AlertView,
    ApiError,
    Done,
    ErrorReply,
    EventsReply,
    EventStatePush,
    EventView,
    Push,
    Reply,
    Request,
    Signal,
    StatusReply,
    TableStatePush,
    TableView,
    TimelineEntry,
    TimelinePush,
    TimelineReply,
    message_type,
    parse_message,
    parse_request,
    request_type,
)

kinds.load("api")  # the views of the kinds that are packages (clockd.kinds)

__all__ = [
    "API_VERSION",
    "DEFAULT_PORT",
    "MAX_LINE_BYTES",
    "ActionRequest",
    "AlertView",
    "ApiError",
    "Client",
    "DaemonInfo",
    "DaemonUnreachable",
    "Done",
    "ErrorReply",
    "EventStatePush",
    "EventView",
    "EventsReply",
    "Push",
    "Reply",
    "Request",
    "Signal",
    "StatusReply",
    "Subscription",
    "TableStatePush",
    "TableView",
    "TimelineEntry",
    "TimelinePush",
    "TimelineReply",
    "message_type",
    "parse_message",
    "parse_request",
    "read_info",
    "request_type",
    "resolve",
    "state_dir",
]
