"""Garbage collection without long pauses for a server holding thousands of live matches.

CPython's full (generation 2) collection walks every container object the process
holds, and the event loop, so every room, waits for it. With 1,000 live Coup
matches and their 4,000 WebSockets that is about 900,000 objects and 0.6 s of CPU,
which ``intrigue bench server`` hit twice in 15 s of play, finding nothing to free
(docs/performance.md). Here the objects that survive any collection are frozen
(:func:`gc.freeze`: collections skip the permanent generation, and freezing empties
the older generations and resets their counts), so every collection is one of the
youngest generation and each object is walked once, by the first collection after
it was made. A served move leaves about 45 container objects that live on (its log
lines, components, the match's new state); when only the survivors of full
collections were frozen each of them was walked three times, once per generation,
and collecting took 12% of the server's CPU at 400 matches (7% now). A takeover's
thousand re-executed matches are walked once the same way.

A frozen object is still freed as usual when its last reference goes; only a
garbage *cycle* that outlived the collection after it was made waits, for the next
reclaim: every :data:`RECLAIM_EVERY` seconds everything is unfrozen and collected
once (one full pause, logged with what it freed and how long it took). A served
move makes no garbage cycle (``benchmarks/server_moves.py``'s rooms leave none).
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


class Heap:
    """Freeze the survivors of every collection; reclaim frozen garbage cycles now and then."""

    def __init__(self, every: float = RECLAIM_EVERY):
        self.every = every
        self.reclaiming = False
        self.timer: asyncio.TimerHandle | None = None
        self.installed = False
        #: Reclaims run, and the objects the last one freed and the seconds it took.
        self.reclaims = 0
        self.last_reclaim: tuple[int, float] = (0, 0.0)

    def install(self) -> None:
        """Collect and freeze what start-up built (the recovered rooms), then freeze after every collection."""
        self.installed = True
        self._freeze()
        gc.callbacks.append(self._collected)
        self.timer = asyncio.get_running_loop().call_later(self.every, self.reclaim)

    def uninstall(self) -> None:
        """Stop freezing and hand everything back to the ordinary collector."""
        if self.timer is not None:
            self.timer.cancel()
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
        if self.installed:
            gc.unfreeze()
            self.installed = False

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        # Runs inside the collector, in whatever thread triggered it; the collection has stopped.
        if phase == "stop" and not self.reclaiming:
            gc.freeze()

    def _freeze(self) -> int:
        """Collect everything once, then freeze what is left; returns the objects freed."""
        quiet, self.reclaiming = self.reclaiming, True
        try:
            freed = gc.collect()
            gc.freeze()
        finally:
            self.reclaiming = quiet
        return freed

    def reclaim(self) -> int:
        """Unfreeze, collect everything once, freeze again; returns the objects freed."""
        self.reclaiming = True
        started = time.perf_counter()
        try:
            gc.unfreeze()
            freed = self._freeze()
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
