"""The SQLite store: schema and migrations, the unique log, and damaged files that are refused, not lost."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from intrigue.store import ChatRecord, ChoiceRecord, Conflict, CorruptStore, RoomRecord, SeatRecord, StoreError, open_store
from intrigue.store.sqlite import SCHEMA_VERSION


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def filled(path):
    store = open_store(str(path))
    match = store.create_match("ABCD", "coup", "v1", ["A", "B"], [None, "random"], 42, {}, "2026-01-01T00:00:00Z")
    for version, option in enumerate(["Income", "Income", "Tax"]):
        store.append_choice(match, ChoiceRecord(version, version % 2, option, "player", "t"))
    store.save_room(RoomRecord("ABCD", "coup", 0, False, {"turn_timer": 30}, "playing", "now", "1.2.3.4", match,
                               [SeatRecord(0, "A", None, "h" * 64), SeatRecord(1, "B", "random")]))
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
