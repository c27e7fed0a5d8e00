"""The server's garbage-collection policy (server/heap.py): survivors frozen, cycles still reclaimed."""

import asyncio
import contextlib
import gc
from typing import AsyncIterator

from intrigue.server.heap import FULL_EVERY, Heap


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


def test_survivors_of_a_full_collection_are_frozen_and_frozen_cycles_are_reclaimed() -> None:
    async def scenario() -> None:
        async with installed() as heap:
            assert gc.get_threshold()[2] == FULL_EVERY
            kept = [Node() for _ in range(1000)]
            gc.collect()  # a full collection: what survives it is frozen, later full collections skip it
            frozen = gc.get_freeze_count()
            assert frozen >= 1000
            a, b = kept[0], kept[1]
            a.other, b.other = b, a  # a garbage cycle among frozen objects: no ordinary collection frees it
            del kept, a, b
            assert gc.collect() == 0
            assert heap.reclaim() >= 2  # the hourly reclaim does
            assert heap.reclaims == 1

    asyncio.run(scenario())


def test_a_takeover_pauses_full_collections_for_a_while_then_they_come_back() -> None:
    async def scenario() -> None:
        async with installed() as heap:
            heap.pause_full(0.05)
            collected: list[int] = []

            def count(phase: str, info: dict) -> None:
                if phase == "stop":
                    collected.append(info["generation"])

            gc.callbacks.append(count)
            try:
                kept = [[Node() for _ in range(50)] for _ in range(2000)]  # many young objects: collections
                assert 2 not in collected and 1 in collected  # younger ones ran, no full one
                await asyncio.sleep(0.1)
                assert gc.get_threshold()[2] == FULL_EVERY  # full collections are back
                del kept
            finally:
                gc.callbacks.remove(count)

    asyncio.run(scenario())


def test_a_pause_puts_back_the_threshold_it_paused_from_even_when_paused_twice() -> None:
    async def scenario() -> None:
        before = gc.get_threshold()
        gc.set_threshold(before[0], before[1], 7)  # whatever the process had: here, not the heap's policy
        try:
            heap = Heap(every=3600)
            heap.pause_full(0.05)
            heap.pause_full(0.05)  # a second takeover while the first pause runs extends it
            assert gc.get_threshold()[2] != 7
            await asyncio.sleep(0.1)
            assert gc.get_threshold()[2] == 7
        finally:
            gc.set_threshold(*before)

    asyncio.run(scenario())
