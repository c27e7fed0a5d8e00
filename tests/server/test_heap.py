"""The server's garbage-collection policy (server/heap.py): survivors frozen, cycles still reclaimed."""

import asyncio
import contextlib
import gc
from typing import AsyncIterator

from intrigue.server.heap import Heap


class Node:
    def __init__(self) -> None:
        self.other: "Node | None" = None


@contextlib.asynccontextmanager
async def installed() -> AsyncIterator[Heap]:
    """A heap policy for the block; afterwards the collector is as it was (nothing frozen, same thresholds)."""
    before = gc.get_threshold()
    heap = Heap(every=3600)
    heap.install()
    try:
        yield heap
    finally:
        heap.uninstall()
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before


def test_survivors_of_a_collection_are_frozen_and_frozen_cycles_are_reclaimed() -> None:
    async def scenario() -> None:
        async with installed() as heap:
            kept = [Node() for _ in range(1000)]
            gc.collect(0)  # a collection of the youngest generation: what survives it is frozen
            frozen = gc.get_freeze_count()
            assert frozen >= 1000
            a, b = kept[0], kept[1]
            a.other, b.other = b, a  # a garbage cycle among frozen objects: no ordinary collection frees it
            del kept, a, b
            assert gc.collect() == 0
            assert heap.reclaim() >= 2  # the hourly reclaim does
            assert heap.reclaims == 1

    asyncio.run(scenario())


def test_a_young_garbage_cycle_is_still_collected() -> None:
    async def scenario() -> None:
        async with installed():
            a, b = Node(), Node()
            a.other, b.other = b, a
            del a, b
            assert gc.collect(0) >= 2  # made and dropped between two collections: freed as ever

    asyncio.run(scenario())


def test_many_long_lived_objects_are_walked_once_then_never_again() -> None:
    """A burst of long-lived objects (a cluster node re-executing a dead node's thousand rooms) is frozen by
    the first collection after it: no later collection walks it again, and none is a full one."""
    async def scenario() -> None:
        async with installed():
            generations: list[int] = []
            walked: list[int] = []

            def count(phase: str, info: dict) -> None:
                if phase == "start":
                    generations.append(info["generation"])
                    walked.append(sum(len(gc.get_objects(g)) for g in range(3)))

            gc.callbacks.insert(0, count)
            try:
                kept = [[Node() for _ in range(50)] for _ in range(2000)]  # many young objects: collections
                assert generations and set(generations) == {0}
                assert max(walked) < 20_000  # each walked only what was made since the one before
                assert gc.get_freeze_count() >= 100_000
                del kept
            finally:
                gc.callbacks.remove(count)

    asyncio.run(scenario())
