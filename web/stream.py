"""A Server-Sent Events response that never waits long for a phone.

Starlette's ``StreamingResponse`` awaits every write: a phone that stopped reading (asleep,
out of range, or hostile) would keep its stream's task waiting on a full socket for ever.
Here each write has ``write_timeout_s``; a stream whose phone has not taken a message in
that time ends (its browser reconnects when it wakes, and gets the whole state again).
Together with the hub's bounded queues, no page can hold up another or the daemon.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Mapping

from starlette.responses import Response
from starlette.types import Receive, Scope, Send


class EventStream(Response):
    media_type = "text/event-stream"

    def __init__(
        self,
        messages: AsyncIterator[bytes],
        *,
        headers: Mapping[str, str] | None = None,
        write_timeout_s: float = 10.0,
    ) -> None:
        super().__init__(content=None, status_code=200, headers=headers, media_type=self.media_type)
        self.raw_headers = [
            (k, v) for k, v in self.raw_headers if k != b"content-length"
        ]  # a stream has none
        self.messages = messages
        self.write_timeout_s = write_timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        gone = asyncio.Event()

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            gone.set()

        watcher = asyncio.create_task(watch())
        try:
            await send(
                {"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers}
            )
            async for chunk in self.messages:
                if gone.is_set():
                    break
                body = {"type": "http.response.body", "body": chunk, "more_body": True}
                try:
                    await asyncio.wait_for(send(body), self.write_timeout_s)
                except (TimeoutError, OSError):
                    return  # the phone stopped reading: end its stream, wait for nobody
            if not gone.is_set():  # the server ends the stream (it is stopping): end it properly
                end = {"type": "http.response.body", "body": b"", "more_body": False}
                with contextlib.suppress(TimeoutError, OSError):
                    await asyncio.wait_for(send(end), 1.0)
        finally:
            watcher.cancel()
            aclose = getattr(self.messages, "aclose", None)
            if aclose is not None:
                with contextlib.suppress(Exception):
                    await aclose()
