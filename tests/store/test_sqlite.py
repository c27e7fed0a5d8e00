"""The SQLite store: schema and migrations, the unique log, and damaged files that are refused, not lost."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from intrigue.store import (ChatRecord, ChoiceRecord, Conflict, CorruptStore, MatchRecord, RoomRecord, SeatRecord,
                            StoreError, open_store)
from intrigue.store.sqlite import SCHEMA_VERSION

DATA = Path(__file__).parent / "data"


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def room(status: str = "playing", votes: list[int] | None = None) -> RoomRecord:
    return RoomRecord("ABCD", "coup", 0, False, {"turn_timer": 30}, status, "now", "1.2.3.4", None,
                      [SeatRecord(0, "A", None, "h" * 64), SeatRecord(1, "B", "random")], votes or [])


def new_match(seed: int = 42) -> MatchRecord:
    return MatchRecord(0, "ABCD", "coup", "v1", ["A", "B"], [None, "random"], seed, {}, "playing", [],
                       "2026-01-01T00:00:00Z")


def filled(path):
    store = open_store(str(path))
    match = store.start_match(room(), new_match())
    for version, option in enumerate(["Income", "Income", "Tax"]):
        store.append_choice(match, ChoiceRecord(version, version % 2, option, "player", "t"))
    store.add_chat(ChatRecord("ABCD", 0, "A", "hello", "t"))
    return store, match


def test_a_new_database_has_the_current_schema_in_wal_mode(tmp_path):
    store, match = filled(tmp_path / "a.db")
    store.close()
    db = sqlite3.connect(tmp_path / "a.db")
    assert db.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()
    again = open_store(str(tmp_path / "a.db"))  # reopening runs no migration twice and loses nothing
    assert [c.option for c in again.choices(match)] == ["Income", "Income", "Tax"]
    room = again.load_room("ABCD")
    assert room.seats[0].token_hash == "h" * 64 and room.seats[1].bot == "random" and room.match == match
    assert [c.text for c in again.recent_chat("ABCD")] == ["hello"]
    assert again.load_match(match).moves == 3


def test_two_writes_of_the_same_version_cannot_both_succeed(tmp_path):
    store, match = filled(tmp_path / "a.db")
    with pytest.raises(Conflict, match="already has a choice at version 1"):
        store.append_choice(match, ChoiceRecord(1, 0, "Tax", "player", "t"))
    assert [c.option for c in store.choices(match)] == ["Income", "Income", "Tax"]


def test_a_database_from_a_newer_intrigue_is_refused(tmp_path):
    store, _ = filled(tmp_path / "a.db")
    store.close()
    db = sqlite3.connect(tmp_path / "a.db")
    db.execute("UPDATE schema_version SET version = 99")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="schema version 99, newer than this Intrigue"):
        open_store(str(tmp_path / "a.db"))


def test_random_bytes_are_not_a_database_and_are_left_untouched(tmp_path):
    path = tmp_path / "garbage.db"
    path.write_bytes(bytes(range(256)) * 40)
    before = digest(path)
    with pytest.raises(CorruptStore, match="garbage.db is damaged or not an Intrigue database"):
        open_store(str(path))
    assert digest(path) == before


def test_a_truncated_database_is_refused_with_a_clear_error(tmp_path):
    path = tmp_path / "cut.db"
    store, _ = filled(path)
    store.close()
    data = path.read_bytes()
    for size in (50, len(data) // 2, len(data) - 1000):
        path.write_bytes(data[:size])
        with pytest.raises(CorruptStore, match="cut.db"):
            open_store(str(path))


def test_another_programs_database_is_not_taken_over(tmp_path):
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE invoices (id INTEGER)")
    db.commit()
    db.close()
    with pytest.raises(CorruptStore, match="not an Intrigue database"):
        open_store(str(path))


def test_a_gap_in_a_log_is_reported_not_skipped(tmp_path):
    store, match = filled(tmp_path / "a.db")
    store.close()
    db = sqlite3.connect(tmp_path / "a.db")
    db.execute("DELETE FROM choices WHERE version = 1")
    db.commit()
    db.close()
    with pytest.raises(CorruptStore, match="version 1 is missing"):
        open_store(str(tmp_path / "a.db")).choices(match)


# -- one transaction per state change ------------------------------------------------------------
def test_a_new_match_and_its_rooms_pointer_are_stored_together(tmp_path):
    store, first = filled(tmp_path / "a.db")
    store.finish_match(first, [0], "t2", room("finished", votes=[0]))
    assert store.load_room("ABCD").votes == [0] and store.load_room("ABCD").status == "finished"
    second = store.start_match(room("playing"), new_match(43))
    stored = store.load_room("ABCD")
    assert stored.match == second and stored.status == "playing" and stored.votes == []
    assert store.load_match(second).status == "playing" and store.load_match(second).seed == 43
    # a room that cannot be written (two seats numbered 0) takes its new match down with it
    broken = room("playing")
    broken.seats.append(SeatRecord(0, "Twin"))
    with pytest.raises(StoreError):
        store.start_match(broken, new_match(44))
    assert [m.id for m in store.list_matches()] == [second, first], "no match was left without its room"
    assert store.load_room("ABCD").match == second


def test_a_result_and_its_rooms_status_are_stored_together(tmp_path):
    store, match = filled(tmp_path / "a.db")
    broken = room("finished")
    broken.seats.append(SeatRecord(1, "Twin"))
    with pytest.raises(StoreError):
        store.finish_match(match, [1], "t2", broken)
    assert store.load_match(match).status == "playing" and store.load_room("ABCD").status == "playing"
    store.finish_match(match, [1], "t2", room("closed"))
    assert store.load_match(match).status == "finished" and store.load_match(match).winners == [1]
    assert store.load_room("ABCD").status == "closed"


def test_rematch_votes_are_stored_with_their_room(tmp_path):
    store, match = filled(tmp_path / "a.db")
    store.finish_match(match, [0], "t2", room("finished"))
    store.save_room(room("finished", votes=[1, 0]))
    store.close()
    again = open_store(str(tmp_path / "a.db"))
    assert again.load_room("ABCD").votes == [0, 1]
    assert again.open_rooms()[0].votes == [0, 1]


def test_an_imported_match_is_stored_with_its_whole_log_or_not_at_all(tmp_path):
    store, _ = filled(tmp_path / "a.db")
    done = MatchRecord(0, None, "coup", "v1", ["A", "B"], [None, None], 7, {}, "finished", [1], "t0", "t9")
    log = [ChoiceRecord(0, 0, "Income", "player", "t"), ChoiceRecord(1, 1, "Tax", "player", "t")]
    imported = store.import_match(done, log)
    assert store.load_match(imported).status == "finished" and store.load_match(imported).room is None
    assert [c.option for c in store.choices(imported)] == ["Income", "Tax"]
    before = len(store.list_matches())
    with pytest.raises(Conflict):
        store.import_match(done, log + [ChoiceRecord(1, 0, "Coup B", "player", "t")])
    assert len(store.list_matches()) == before, "a half-imported match was left behind"


CRASH = """
import sys
from intrigue.store import open_store, MatchRecord, RoomRecord, SeatRecord
store = open_store(sys.argv[1])
room = RoomRecord("ABCD", "coup", 0, False, {}, "playing", "now", "", None, [SeatRecord(0, "A"), SeatRecord(1, "B")])
store.{call}
print("survived")
"""


@pytest.mark.parametrize("point,call", [
    ("start_match", 'start_match(room, MatchRecord(0, "ABCD", "coup", "v1", ["A", "B"], [None, None], 9, {}, '
                    '"playing", [], "t"))'),
    ("finish_match", 'finish_match(1, [0], "t9", room)'),
])
def test_a_kill_inside_a_state_change_leaves_none_of_it(tmp_path, point, call):
    """The process dies (SIGKILL) between the two writes of one change: after restart neither is there."""
    path = tmp_path / "a.db"
    store, match = filled(path)
    store.close()
    before = [open_store(str(path)).load_match(match), open_store(str(path)).load_room("ABCD")]
    run = subprocess.run([sys.executable, "-c", CRASH.replace("{call}", call), str(path)], capture_output=True,
                         text=True, timeout=60, env={**os.environ, "INTRIGUE_TEST_CRASH_AT": point})
    assert run.returncode == -signal.SIGKILL and "survived" not in run.stdout, run.stderr
    again = open_store(str(path))
    assert [again.load_match(match), again.load_room("ABCD")] == before
    assert [m.id for m in again.list_matches()] == [match], "a match the crash interrupted was kept"


# -- migrations ------------------------------------------------------------------------------------
def test_a_database_written_by_schema_version_1_opens_and_is_upgraded(tmp_path):
    """tests/store/data/schema1.db was written by the release before rematch votes were stored."""
    path = tmp_path / "old.db"
    shutil.copy(DATA / "schema1.db", path)
    store = open_store(str(path))
    assert store.path == str(path)
    store.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    db.close()
    store = open_store(str(path))
    old1, old2 = store.load_room("OLD1"), store.load_room("OLD2")
    assert (old1.status, old1.votes, old2.status, old2.votes) == ("finished", [], "playing", [])
    assert [s.name for s in old2.seats] == ["Aria", "Blake", "Casey"]
    assert store.load_match(old1.match).status == "finished" and store.load_match(old2.match).moves == 7
    assert [c.text for c in store.recent_chat("OLD2")] == ["from the old days"]
    store.save_room(room("finished", votes=[1]))  # the new column takes votes
    assert store.load_room("ABCD").votes == [1]
