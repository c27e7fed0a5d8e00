"""Group commit: a change is told only once a flush that started after its commit has finished."""

from __future__ import annotations

import asyncio
import threading

from intrigue.server.durability import Durability
from intrigue.store import ChoiceRecord, MatchRecord, RoomRecord
from intrigue.store.sqlite import SQLiteStore


class SlowDisk:
    """A store whose flush waits until the test lets it finish."""

    sync_later = True

    def __init__(self) -> None:
        self.commits = 0
        self.flushes = 0
        self.release = threading.Event()

    def flush(self) -> None:
        self.release.wait(5)
        self.flushes += 1


def test_messages_wait_for_the_flush_that_covers_their_commit_and_one_flush_covers_many():
    disk = SlowDisk()

    async def scenario() -> tuple[list[bool], list[bool], int]:
        durable = Durability(disk)
        disk.commits = 3  # three rooms committed a move each
        waiting = [asyncio.create_task(durable.wait(ticket)) for ticket in (1, 2, 3)]
        await asyncio.sleep(0.05)
        before = [task.done() for task in waiting]
        disk.release.set()
        await asyncio.wait_for(asyncio.gather(*waiting), 5)
        after = [task.done() for task in waiting]
        await durable.acknowledged()  # nothing committed since: no new flush
        return before, after, disk.flushes

    before, after, flushes = asyncio.run(scenario())
    assert before == [False, False, False]
    assert after == [True, True, True]
    assert flushes == 1


def test_nothing_waits_with_a_store_that_syncs_each_commit(tmp_path):
    store = SQLiteStore(tmp_path / "full.db")
    durable = Durability(store)
    store.save_room(RoomRecord("ABCD", "coup", 0, True, {}, "waiting", "t", "c"))
    assert durable.ticket() == 0
    asyncio.run(asyncio.wait_for(durable.acknowledged(), 1))


def test_a_store_that_syncs_later_commits_without_fsync_and_its_flush_syncs_the_log(tmp_path):
    store = SQLiteStore(tmp_path / "later.db", sync_later=True)
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL: COMMIT does not fsync
    before = store.commits
    room = RoomRecord("ABCD", "coup", 0, True, {}, "waiting", "t", "c")
    match = store.start_match(room, MatchRecord(0, "ABCD", "coup", "v", ["a", "b"], [None, None], 1, {},
                                                "playing", [], "t"))
    store.append_choice(match, ChoiceRecord(0, 0, "Income", "player", "t"))
    assert store.commits == before + 2
    store.flush()
    assert [c.option for c in store.choices(match)] == ["Income"]
    assert not SQLiteStore(tmp_path / "normal.db", synchronous="normal", sync_later=True).sync_later


def test_checkpoints_leave_the_committing_thread_and_copy_the_log_into_the_database(tmp_path):
    """SQLite's own checkpoints (an fsync of the WAL and of the database, on whichever thread commits: the
    event loop) wait until the WAL is very long; the server's durability runs them in a thread of their own
    every CHECKPOINT_EVERY commits, while the loop goes on committing."""
    from intrigue.store.sqlite import CHECKPOINT_EVERY, FALLBACK_PAGES

    path = tmp_path / "later.db"
    store = SQLiteStore(path, sync_later=True)
    assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == FALLBACK_PAGES
    room = RoomRecord("ABCD", "coup", 0, True, {}, "waiting", "t", "c")
    match = store.start_match(room, MatchRecord(0, "ABCD", "coup", "v", ["a", "b"], [None, None], 1, {},
                                                "playing", [], "t"))

    async def scenario() -> None:
        durable = Durability(store)
        for version in range(CHECKPOINT_EVERY + 5):
            store.append_choice(match, ChoiceRecord(version, version % 2, "Income", "player", "t"))
        assert store.checkpoint_due()
        await asyncio.wait_for(durable.wait(durable.ticket()), 5)  # the flush starts the checkpoint
        assert durable._checkpointing is not None
        busy, frames, copied = await asyncio.wait_for(durable._checkpointing, 5)
        assert not busy and frames > 0 and copied == frames  # every committed page is in the database file
        assert not store.checkpoint_due()

    asyncio.run(scenario())
    store.close()
    assert store.checkpoint() is None  # closed: nothing to do
    again = SQLiteStore(path)
    assert len(again.choices(match)) == CHECKPOINT_EVERY + 5


def test_a_store_that_syncs_each_commit_keeps_sqlites_own_checkpoints(tmp_path):
    store = SQLiteStore(tmp_path / "full.db")
    assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000
    assert not store.checkpoint_due()
