"""The engine's memory of request ids: a request sent again is answered, not applied twice.

A client (the desk, a web page, the CLI) that loses the reply to an action sends it again
with the same request id; the engine looks the id up here and answers with the seq of the
action it journaled then (or refuses, if the same id now carries another request). Apart
from :mod:`clockd.service.engine` because it is a plain bounded map with its own snapshot
form (:meth:`RequestMemory.dump`, :meth:`RequestMemory.load`) and its fold over the
journal's records; the engine only consults and feeds it.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from clockd.store.journal import Record

__all__ = ["REQUEST_MEMORY", "RequestMemory"]

#: How many request ids the engine remembers (with the seq of the action each journaled): a
#: request sent again within this many later requests is answered with that seq, not applied.
REQUEST_MEMORY = 10_000


class RequestMemory:
    """The request ids of the last journaled actions: id → (digest of the request, seq)."""

    def __init__(self, size: int = REQUEST_MEMORY) -> None:
        self.size = size
        self._seen: OrderedDict[str, tuple[str, int]] = OrderedDict()

    @staticmethod
    def key(request_id: int | str) -> str:
        return json.dumps(request_id)  # 7 and "7" are two ids

    def get(self, request_id: int | str) -> tuple[str, int] | None:
        return self._seen.get(self.key(request_id))

    def add(self, request_id: int | str, digest: str, seq: int) -> None:
        key = self.key(request_id)
        self._seen.setdefault(key, (digest, seq))
        while len(self._seen) > self.size:
            self._seen.popitem(last=False)

    def fold(self, records: Sequence[Record]) -> None:
        for record in records:
            request = getattr(record.entry, "request", None)
            if request is not None:
                self.add(request.id, request.digest, record.seq)

    def dump(self) -> list[list[Any]]:
        return [[json.loads(k), digest, seq] for k, (digest, seq) in self._seen.items()]

    def load(self, data: Sequence[Sequence[Any]]) -> None:
        self._seen.clear()
        for request_id, digest, seq in data:
            self.add(request_id, str(digest), int(seq))
