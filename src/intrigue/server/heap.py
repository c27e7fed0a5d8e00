"""Garbage collection without long pauses for a server holding thousands of live matches.

CPython's full (generation 2) collection walks every container object the process
holds, and the event loop, so every room, waits for it. With 1,000 live Coup
matches and their 4,000 WebSockets that is about 900,000 objects and 0.6 s of CPU,
which ``intrigue bench server`` hit twice in 15 s of play, finding nothing to free
(docs/performance.md). Here the objects that survive a full collection are frozen
(:func:`gc.freeze`: collections skip the permanent generation), so the next full
collection walks only what was promoted since the last one, and a full collection
comes after every :data:`FULL_EVERY` collection of generation 1 (CPython's default
is 10), each walking that much less.

A frozen object is still freed as usual when its last reference goes; only a
garbage *cycle* among frozen objects waits, for the next reclaim: every
:data:`RECLAIM_EVERY` seconds everything is unfrozen and collected once (one full
pause, logged with what it freed and how long it took).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from typing import Any

log = logging.getLogger("intrigue.server")

#: Seconds between reclaims (the one full pause: 0.3–1.3 s with 1,000 live matches and their connections).
RECLAIM_EVERY = 3600.0
#: A full collection (of what is not frozen) after this many collections of generation 1.
FULL_EVERY = 1
#: …and while full collections are paused (:meth:`Heap.pause_full`): as good as never.
PAUSED = 1_000_000


class Heap:
    """Freeze the survivors of each full collection; reclaim frozen garbage cycles now and then."""

    def __init__(self, every: float = RECLAIM_EVERY):
        self.every = every
        self.reclaiming = False
        self.timer: asyncio.TimerHandle | None = None
        self.thresholds: tuple[int, int, int] | None = None
        self.resume: asyncio.TimerHandle | None = None  # when paused full collections come back
        self.paused_from = FULL_EVERY  # the full-collection threshold a pause puts back
        #: Reclaims run, and the objects the last one freed and the seconds it took.
        self.reclaims = 0
        self.last_reclaim: tuple[int, float] = (0, 0.0)

    def install(self) -> None:
        """Collect and freeze what start-up built (the recovered rooms), then freeze after every full collection."""
        self.thresholds = gc.get_threshold()
        gc.set_threshold(self.thresholds[0], self.thresholds[1], FULL_EVERY)
        gc.collect()
        self._freeze()
        gc.callbacks.append(self._collected)
        self.timer = asyncio.get_running_loop().call_later(self.every, self.reclaim)

    def uninstall(self) -> None:
        """Stop freezing and hand everything back to the ordinary collector."""
        if self.timer is not None:
            self.timer.cancel()
        if self.resume is not None:
            self.resume.cancel()
            self.resume = None
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
        if self.thresholds is not None:
            gc.set_threshold(*self.thresholds)
        gc.unfreeze()

    def pause_full(self, seconds: float) -> None:
        """No full collection for ``seconds`` (younger generations are still collected). For a burst
        that makes many long-lived objects at once — a cluster node re-executing a dead node's rooms —
        where full collections would set off again and again, each walking every new room to free
        next to nothing (0.2-0.4 s each with a thousand rooms, docs/scaling.md). A second pause
        while one runs extends it."""
        first, second, third = gc.get_threshold()
        if self.resume is not None:
            self.resume.cancel()
        else:  # a second pause keeps the threshold the first one paused from
            self.paused_from = third
        gc.set_threshold(first, second, PAUSED)
        self.resume = asyncio.get_running_loop().call_later(seconds, self._resume_full)

    def _resume_full(self) -> None:
        self.resume = None
        first, second, _ = gc.get_threshold()
        gc.set_threshold(first, second, self.paused_from)

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        # Runs inside the collector, in whatever thread triggered it; the collection has stopped.
        if phase == "stop" and info["generation"] == 2 and not self.reclaiming:
            gc.freeze()

    def _freeze(self) -> None:
        """Freeze everything, then collect the (now empty) generations once: CPython starts a full
        collection only once a quarter as many objects as the last one kept have been promoted since,
        so after this one, which keeps none, that rule never holds one back."""
        quiet, self.reclaiming = self.reclaiming, True
        try:
            gc.freeze()
            gc.collect()
        finally:
            self.reclaiming = quiet

    def reclaim(self) -> int:
        """Unfreeze, collect everything once, freeze again; returns the objects freed."""
        self.reclaiming = True
        started = time.perf_counter()
        try:
            gc.unfreeze()
            freed = gc.collect()
            self._freeze()
        finally:
            self.reclaiming = False
        seconds = time.perf_counter() - started
        self.reclaims += 1
        self.last_reclaim = (freed, seconds)
        log.info("garbage collection: reclaimed %d objects in %.0f ms; %d kept", freed, 1000 * seconds,
                 gc.get_freeze_count())
        if self.timer is not None:
            self.timer = asyncio.get_running_loop().call_later(self.every, self.reclaim)
        return freed
