"""A connection's outbox: the newest view replaces a waiting one, and its counts can be read from any thread."""

from __future__ import annotations

import asyncio
import threading

from intrigue.server.app import Outbox
from intrigue.server.protocol import encode


def test_a_waiting_view_is_replaced_by_the_newer_one_and_other_messages_keep_their_order():
    async def scenario() -> list[str | None]:
        box = Outbox(10)
        box.put("room 1")
        box.put("view 1", view=True)
        box.put("chat")
        box.put("view 2", view=True)
        assert box.views() == 1 and box.qsize() == 3
        return [(await box.get())[0] for _ in range(3)]

    assert asyncio.run(scenario()) == ["room 1", "chat", "view 2"]


def test_a_delta_view_that_replaces_a_waiting_view_carries_its_lines_too():
    """On a connection that asked for log deltas, dropping the waiting view would drop its lines."""
    def view(version: int, log: list[int], after: int | None) -> str:
        return encode({"type": "view", "match": 4, "view": {"version": version, "log": [{"version": n, "text": str(n)}
                                                                                        for n in log]},
                       "timer": None, "log_after": after})

    async def scenario() -> list[str | None]:
        box = Outbox(10)
        box.put(view(5, [4, 5], 3), view=True, delta=True)
        box.put("chat")
        box.put(view(6, [6], 5), view=True, delta=True)
        box.put(view(7, list(range(1, 81)), 6), view=True, delta=True)  # 80 new lines: the last 80 are kept
        return [(await box.get())[0] for _ in range(2)]

    chat, merged = asyncio.run(scenario())
    assert chat == "chat"
    assert merged == view(7, list(range(1, 81)), 3)

    async def full_then_delta() -> str | None:
        box = Outbox(10)
        box.put(view(5, [1, 2, 3], None), view=True)
        box.put(view(6, [4], 5), view=True, delta=True)
        return (await box.get())[0]

    assert asyncio.run(full_then_delta()) == view(6, [1, 2, 3, 4], None)


def test_counting_the_waiting_views_from_another_thread_while_the_loop_queues_never_fails():
    """The flaky test_faults failure: a thread counting views while the loop queued raised
    "deque mutated during iteration"."""
    failures: list[BaseException] = []
    seen: list[int] = []

    async def scenario() -> None:
        box = Outbox(512)
        stop = threading.Event()

        def monitor() -> None:
            while not stop.is_set():
                try:
                    seen.append(box.views())
                    box.qsize()
                except BaseException as exc:  # noqa: BLE001 - the failure this test is about
                    failures.append(exc)
                    return

        watcher = threading.Thread(target=monitor)
        watcher.start()
        try:
            for n in range(100_000):
                box.put(f"message {n}", view=n % 3 == 0)
                if box.qsize() > 400:
                    while box.qsize():
                        await box.get()
        finally:
            stop.set()
            watcher.join()

    asyncio.run(scenario())
    assert failures == []
    assert seen and max(seen) <= 1


def test_a_delta_view_replacing_a_waiting_one_continues_what_the_client_held_before_it():
    """A local connection's newer view replaces the waiting one as the form that continues the view the
    client has read (no line lost, nothing decoded)."""
    import json

    from intrigue.server.app import Connection
    from intrigue.server.protocol import Deltas, LogLines, Prepared
    from intrigue.server.settings import Settings

    entries = [{"version": n, "text": f"line {n}"} for n in range(8)]
    lines = LogLines()

    def view(version: int, count: int) -> Prepared:
        return Prepared({"type": "view", "match": 1, "view": {"version": version, "log": entries[:count]},
                         "timer": None}, lines)

    async def scenario() -> list[dict]:
        conn = Connection(None, Settings())  # type: ignore[arg-type]  # the pump never runs: nothing is written
        conn.deltas = Deltas()
        conn.send(view(0, 3))
        read = [json.loads(conn.outbox.take()[0])]  # the client reads it
        conn.send(view(1, 5))
        conn.send({"type": "chat", "text": "hi"})
        conn.send(view(2, 6))  # the view at version 1 is still waiting: this one replaces it
        while conn.outbox.qsize():
            read.append(json.loads(conn.outbox.take()[0]))
        return read

    first, chat, latest = asyncio.run(scenario())
    assert first["log_after"] is None and first["view"]["log"] == entries[:3]
    assert chat["type"] == "chat"
    assert latest["log_after"] == 0 and latest["view"]["log"] == entries[3:6]
