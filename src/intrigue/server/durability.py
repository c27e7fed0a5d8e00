"""Group commit: nobody is told of a change before it is on disk, and the event loop never waits for the disk.

With a store that syncs later (``SQLiteStore(sync_later=True)``, what ``intrigue
serve`` opens), a room's change is committed on the event loop without an fsync
and every message queued after it carries a ticket: the store's commit count.
A connection writes a message only once a flush (one ``fdatasync`` of the WAL,
in a thread of its own) started after that commit has finished, so one fsync
covers the moves of every room made meanwhile, where each commit used to hold
the event loop, and with it every other room, for its own fsync. HTTP answers
that report a change (a room created, a seat joined) wait the same way.

With any other store every ticket is 0 and nothing waits.

Such a store's checkpoints (``SQLiteStore.checkpoint``: the WAL's pages copied
into the database file, an fsync of each) run in a second thread of their own,
when a flush finds one due, so neither the event loop nor the flushes wait for
them.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

log = logging.getLogger("intrigue.server")


class Durability:
    """Tickets and the flushes that honour them (see the module docstring)."""

    def __init__(self, store: Any):
        self.store = store
        self.deferred = bool(getattr(store, "sync_later", False))
        #: Commits known to be on disk.
        self.synced = store.commits if self.deferred else 0
        self._waiters: list[tuple[int, asyncio.Future[None] | asyncio.Event]] = []
        self._flushing: asyncio.Task[None] | None = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="intrigue-fsync") if self.deferred \
            else None
        self._checkpoints = ThreadPoolExecutor(max_workers=1, thread_name_prefix="intrigue-checkpoint") \
            if self.deferred and hasattr(store, "checkpoint") else None
        self._checkpointing: asyncio.Future[Any] | None = None

    def ticket(self) -> int:
        """What a message queued now waits for: every commit made so far."""
        return self.store.commits if self.deferred else 0

    async def wait(self, ticket: int) -> None:
        """Return once every commit up to ``ticket`` is on disk."""
        if ticket <= self.synced:
            return
        done = asyncio.get_running_loop().create_future()
        self._waiters.append((ticket, done))
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.create_task(self._flush())
        await done

    def wake(self, ticket: int, ready: asyncio.Event) -> None:
        """Set ``ready`` once every commit up to ``ticket`` is on disk (a connection's outbox: its pump
        wakes once, when it can write, instead of waking to wait for the flush)."""
        if ticket <= self.synced:
            ready.set()
            return
        self._waiters.append((ticket, ready))
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.create_task(self._flush())

    async def acknowledged(self) -> None:
        """Wait until everything committed so far is on disk (before an HTTP answer reports it)."""
        await self.wait(self.ticket())

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        while self._waiters:
            target = self.store.commits
            try:
                await loop.run_in_executor(self._thread, self.store.flush)
            except OSError as exc:  # nothing is told until the disk has it: try again
                log.error("syncing the store failed (%s); messages wait and it is tried again", exc)
                await asyncio.sleep(1.0)
                continue
            self.synced = max(self.synced, target)
            self._checkpoint_if_due(loop)
            waiting = []
            for ticket, done in self._waiters:
                if ticket <= self.synced:
                    if isinstance(done, asyncio.Event):
                        done.set()
                    elif not done.done():
                        done.set_result(None)
                else:
                    waiting.append((ticket, done))
            self._waiters = waiting

    def _checkpoint_if_due(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start a checkpoint in its thread if the store wants one and none is running."""
        if self._checkpoints is None or not self.store.checkpoint_due():
            return
        if self._checkpointing is not None and not self._checkpointing.done():
            return
        self._checkpointing = loop.run_in_executor(self._checkpoints, self.store.checkpoint)
        self._checkpointing.add_done_callback(_checked)


def _checked(done: "asyncio.Future[Any]") -> None:
    if not done.cancelled() and done.exception() is not None:  # the fallback autocheckpoint still bounds the WAL
        log.error("checkpointing the store failed: %s", done.exception())
