"""Messages between nodes over Redis pub/sub: one channel per node lease, in order, with request/reply.

A node subscribes to ``<prefix>to:<lease name>``. :meth:`Bus.send` may be
called from synchronous code (a room method): it queues the message and one
task publishes the queue in order, many messages per round trip (a pipeline;
the messages queued for one node go in one PUBLISH, as a JSON array),
so a room never waits for Redis and the messages of one connection arrive in
the order they were sent. :meth:`Bus.request` sends a message carrying a
reply address and waits (with a time limit) for the answer.

Pub/sub delivers at most once: a message to a node that just died is lost.
That is safe here because nothing durable travels on the bus (moves are
committed by the owner before it says anything); a lost message is a lost
view or command, which the client sees as a closed connection and retries.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections import deque
from typing import Any, Callable

import orjson

log = logging.getLogger("intrigue.cluster")


def dumps(message: Any) -> str:
    """A bus message's JSON (orjson: a relayed view is 10 KB; the standard library for what orjson refuses)."""
    try:
        return orjson.dumps(message).decode("utf-8")
    except TypeError:  # orjson.JSONEncodeError: an int past 64 bits, a lone surrogate
        return json.dumps(message, separators=(",", ":"))


def loads(data: str | bytes) -> Any:
    try:
        return orjson.loads(data)
    except ValueError:  # what orjson refuses to read (an escaped lone surrogate) the standard library reads
        return json.loads(data)


def channel(prefix: str, lease: str) -> str:
    """The channel the node holding ``lease`` listens on (subscribed while it is alive)."""
    return f"{prefix}to:{lease}"


class Bus:
    """See the module docstring. ``handler(message)`` runs on the event loop for each message received."""

    def __init__(self, redis: Any, me: str, handler: Callable[[dict[str, Any]], None], prefix: str = "intrigue:"):
        self.redis = redis
        self.me = me
        self.handler = handler
        self.prefix = prefix
        self.queue: deque[tuple[str, str]] = deque()
        self.wake = asyncio.Event()
        self.waiting: dict[int, asyncio.Future[dict[str, Any] | None]] = {}
        self.asked: dict[int, str] = {}  # request id → the node it was sent to
        self.ids = itertools.count(1)
        self.tasks: list[asyncio.Task[None]] = []
        self.pubsub: Any = None
        self.sent = 0
        self.received = 0

    def channel(self, name: str) -> str:
        return channel(self.prefix, name)

    async def start(self) -> None:
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self.pubsub.subscribe(self.channel(self.me))
        self.tasks = [asyncio.create_task(self._publish()), asyncio.create_task(self._listen())]

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(BaseException):
                await task
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()

    def send(self, to: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for the node holding lease ``to`` (returns at once)."""
        self.queue.append((self.channel(to), dumps(message)))
        self.wake.set()

    async def request(self, to: str, message: dict[str, Any], timeout: float,
                      still: Callable[[], bool] | None = None, every: float = 1.0) -> dict[str, Any] | None:
        """Send ``message`` with a reply address and wait for the answer; None if none came
        (or :meth:`abandon` gave up on the node).

        Without ``still`` it waits ``timeout`` seconds. With it, it asks
        ``still()`` every ``every`` seconds (is the other node alive?) and keeps
        waiting, up to ``timeout``, as long as the answer is True: a busy node
        answers late, and asking it again would only add to its queue.
        """
        ident = next(self.ids)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[dict[str, Any] | None] = loop.create_future()
        self.waiting[ident] = future
        self.asked[ident] = to
        self.send(to, {**message, "rid": ident, "reply": self.me})
        deadline = loop.time() + timeout
        try:
            while True:
                left = deadline - loop.time()
                if left <= 0:
                    return None
                try:
                    return await asyncio.wait_for(asyncio.shield(future), min(left, every if still else left))
                except asyncio.TimeoutError:
                    if still is None or not still():
                        return None
        finally:
            self.waiting.pop(ident, None)
            self.asked.pop(ident, None)

    def abandon(self, to: str) -> None:
        """The node holding lease ``to`` is dead: every request waiting for its answer gets None now."""
        for ident, node in list(self.asked.items()):
            future = self.waiting.get(ident)
            if node == to and future is not None and not future.done():
                future.set_result(None)

    def answer(self, request: dict[str, Any], message: dict[str, Any]) -> None:
        self.send(request["reply"], {**message, "k": "answer", "rid": request["rid"]})

    async def _publish(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.queue:
                batch = [self.queue.popleft() for _ in range(min(len(self.queue), 500))]
                try:
                    grouped: dict[str, list[str]] = {}  # one PUBLISH per node: a JSON array, in order
                    for channel, data in batch:
                        grouped.setdefault(channel, []).append(data)
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for channel, items in grouped.items():
                            pipe.publish(channel, items[0] if len(items) == 1 else "[" + ",".join(items) + "]")
                        await pipe.execute()
                    self.sent += len(batch)
                except Exception:  # noqa: BLE001 - Redis away: these messages are lost, the next may pass
                    log.exception("could not publish %d messages", len(batch))
                    await asyncio.sleep(0.1)

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - Redis away: try again shortly
                log.exception("reading the bus failed")
                await asyncio.sleep(0.2)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                data = loads(message["data"])
            except ValueError:
                log.error("a message on the bus is not JSON; ignored")
                continue
            for item in data if isinstance(data, list) else [data]:
                self._receive(item)

    def _receive(self, data: Any) -> None:
        self.received += 1
        if not isinstance(data, dict):
            log.error("a message on the bus is not an object; ignored")
            return
        if data.get("k") == "answer":
            future = self.waiting.get(data.get("rid"))
            if future is not None and not future.done():
                future.set_result(data)
            return
        try:
            self.handler(data)
        except Exception:  # noqa: BLE001 - one bad message must not stop the bus
            log.exception("handling a bus message failed: %s", str(data)[:200])
