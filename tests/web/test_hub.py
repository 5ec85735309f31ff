"""The hub: one subscription's changes, coalesced, to every page; a page that stops reading is
dropped, never waited for (real views from a real daemon)."""

from __future__ import annotations

import asyncio

from clockd.api import EventStatePush, TableStatePush
from tests.web.conftest import SESSION, Desk
from web.hub import Hub, event_topic


def test_changes_are_coalesced_and_a_page_that_stops_reading_is_dropped(desk: Desk) -> None:
    view = desk.event(SESSION)
    table = desk.client.status([1]).tables[0]

    async def scenario() -> tuple[int, int, bool, int]:
        hub = Hub("127.0.0.1", desk.port, coalesce_s=0.01)
        hub._loop = asyncio.get_running_loop()
        reader = hub.listen(event_topic(SESSION), "pl")
        asleep = hub.listen(event_topic(SESSION), "pl")
        got = 0
        for _ in range(40):
            for _ in range(5):  # five changes within one window: one message
                hub.apply([EventStatePush(event=view), TableStatePush(table=table)])
            hub.flush()
            while not reader.queue.empty():
                assert reader.queue.get_nowait() == "html"
                got += 1
        return got, asleep.queue.qsize(), asleep.dropped, len(hub.listeners)

    got, left, dropped, listening = asyncio.run(scenario())
    assert got == 40  # one message per window, whatever the number of changes in it
    assert dropped and left == 1  # the sleeping page: its queue emptied but for the "end" mark
    assert listening == 1  # the reader goes on
    # the hub knows which event a table's program belongs to (the duel of desk/pokaz/R1-1)
    assert Hub("x", 1).owner_event(table) == SESSION
