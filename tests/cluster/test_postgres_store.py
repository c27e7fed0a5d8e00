"""The PostgreSQL store: the same records as SQLite, the log's compare-and-set, and fencing of stale writers."""

from __future__ import annotations

import threading

import psycopg
import pytest

from dataclasses import replace

from intrigue.store import (CHAT_KEPT, ChatRecord, ChoiceRecord, Conflict, Fenced, MatchRecord, RoomRecord,
                            SeatRecord, StoreError, open_store)
from intrigue.store.postgres import SCHEMA_VERSION, PostgresStore


ROOM = RoomRecord("ABCD", "coup", 0, False, {"turn_timer": 30}, "playing", "now", "1.2.3.4", None,
                  [SeatRecord(0, "A", None, "h" * 64), SeatRecord(1, "B", "random", left=True)])


def new_match(room="ABCD", players=("A", "B")):
    return MatchRecord(0, room, "coup", "v1", list(players), [None, "random"][:len(players)], 42, {"x": 1}, "playing",
                       [], "2026-01-01T00:00:00Z")


def filled(url):
    store = open_store(url)
    match = store.start_match(ROOM, new_match())  # the match and its room's pointer, together
    for version, option in enumerate(["Income", "Income", "Tax"]):
        store.append_choice(match, ChoiceRecord(version, version % 2, option, "player", f"t{version}"))
    store.add_chat(ChatRecord("ABCD", 0, "A", "hello", "t"))
    return store, match


def test_a_new_database_gets_the_schema_and_keeps_every_record(pg_url):
    store, match = filled(pg_url)
    store.close()
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    again = open_store(pg_url)  # reopening migrates nothing twice and loses nothing
    assert [c.option for c in again.choices(match)] == ["Income", "Income", "Tax"]
    room = again.load_room("ABCD")
    assert room.seats[0].token_hash == "h" * 64 and room.seats[1].bot == "random" and room.seats[1].left
    assert room.match == match and room.options == {"turn_timer": 30} and room.private is False
    record = again.load_match(match)
    assert (record.players, record.bots, record.seed, record.options, record.moves) == \
        (["A", "B"], [None, "random"], 42, {"x": 1}, 3)
    assert [c.text for c in again.recent_chat("ABCD")] == ["hello"]
    assert {room: [c.text for c in lines] for room, lines in again.recent_chats(["ABCD", "NONE"]).items()} == \
        {"ABCD": ["hello"], "NONE": []}  # what a node taking rooms over replays, in one query
    assert [r.code for r in again.open_rooms()] == ["ABCD"]
    finished = replace(room, status="finished", votes=[0])
    again.finish_match(match, [1], "end", finished)  # the result and the room's status, together
    assert again.list_matches("finished")[0].winners == [1]
    assert again.load_room("ABCD").status == "finished" and again.load_room("ABCD").votes == [0]
    imported = again.import_match(replace(again.load_match(match), room="ABCD"), again.choices(match))
    assert again.load_match(imported).room is None and len(again.choices(imported)) == 3


def test_nodes_opening_a_new_database_together_migrate_it_once(pg_url):
    opened, failed = [], []

    def open_one():
        try:
            opened.append(PostgresStore(pg_url))
        except Exception as exc:  # noqa: BLE001
            failed.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failed and len(opened) == 4
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]


def test_two_writes_of_the_same_version_cannot_both_succeed(pg_url):
    store, match = filled(pg_url)
    with pytest.raises(Conflict, match="already has a choice at version 1"):
        store.append_choice(match, ChoiceRecord(1, 0, "Tax", "player", "t"))
    assert [c.option for c in store.choices(match)] == ["Income", "Income", "Tax"]


def test_a_database_from_a_newer_intrigue_or_a_foreign_one_is_refused(pg_url):
    store, _ = filled(pg_url)
    store.close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(StoreError, match="schema version 99, newer than this Intrigue"):
        open_store(pg_url)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP TABLE schema_version")
    with pytest.raises(StoreError, match="no Intrigue schema version: it is not an Intrigue database"):
        open_store(pg_url)


def test_an_unreachable_server_is_a_clear_error(postgres):
    with pytest.raises(StoreError, match="cannot connect to postgresql://postgres@127.0.0.1:1/"):
        open_store("postgresql://postgres@127.0.0.1:1/intrigue")


def test_a_stale_writer_is_fenced_out_of_every_write(pg_url):
    store, match = filled(pg_url)
    first = store.claim("ABCD", "node-a")
    old = store.fenced("ABCD", first)
    old.append_choice(match, ChoiceRecord(3, 1, "Income", "player", "t"))  # the holder writes
    second = store.claim("ABCD", "node-b", holders=["node-a"])  # node-a's lease expired: node-b takes the room
    assert second > first and store.holder("ABCD") == ("node-b", second)
    new = store.fenced("ABCD", second)
    room = store.load_room("ABCD")
    for write in (lambda: old.append_choice(match, ChoiceRecord(4, 0, "Tax", "player", "t")),
                  lambda: old.save_room(room),
                  lambda: old.finish_match(match, [0], "x"),
                  lambda: old.start_match(room, new_match(players=("A",))),
                  lambda: old.add_chat(ChatRecord("ABCD", 0, "A", "stale", "t"))):
        with pytest.raises(Fenced, match="fencing token .* is no longer the room's"):
            write()
    assert len(store.choices(match)) == 4 and store.load_match(match).status == "playing"
    assert [c.text for c in store.recent_chat("ABCD")] == ["hello"]
    new.append_choice(match, ChoiceRecord(4, 0, "Tax", "player", "t"))  # the new holder writes
    assert [c.option for c in store.choices(match)][-1] == "Tax"
    # a takeover is a compare-and-set on the holder: a node that lost the race gets nothing
    assert store.claim("ABCD", "node-c", holders=["node-a"]) is None
    assert store.holder("ABCD") == ("node-b", second)


def test_a_claim_waits_for_a_write_in_flight_and_fences_the_ones_after(pg_url):
    store, match = filled(pg_url)
    token = store.claim("ABCD", "node-a")
    # a write of node-a holds the fence row's share lock in an open transaction…
    slow = psycopg.connect(pg_url)
    slow.execute("SELECT 1 FROM fences WHERE room = 'ABCD' AND token = %s FOR SHARE", (token,))
    slow.execute("INSERT INTO choices VALUES (%s, 3, 1, 'Income', 'player', 't')", (match,))
    claimed: list[int | None] = []
    claimer = threading.Thread(target=lambda: claimed.append(open_store(pg_url).claim("ABCD", "node-b", ["node-a"])))
    claimer.start()
    claimer.join(0.5)
    assert claimer.is_alive(), "the claim must wait for node-a's write in flight"
    slow.commit()  # …so the claim sees it committed, and the new holder's log has it
    claimer.join(5)
    assert claimed and claimed[0] > token
    assert [c.version for c in store.choices(match)] == [0, 1, 2, 3]
    with pytest.raises(Fenced):
        store.fenced("ABCD", token).append_choice(match, ChoiceRecord(4, 0, "Tax", "player", "t"))
    slow.close()


def test_claiming_many_rooms_takes_only_those_of_dead_holders(pg_url):
    store = open_store(pg_url)
    store.claim_many(["R1", "R2"], "dead")
    store.claim("R3", "alive")
    taken = store.claim_many(["R1", "R2", "R3", "R4"], "me", holders=["dead"])
    assert sorted(taken) == ["R1", "R2", "R4"]  # R4 was never claimed; R3 belongs to a live node
    assert store.holder("R3")[0] == "alive" and store.holder("R1")[0] == "me"


def test_a_room_keeps_its_newest_chat_lines_only(pg_url):
    """As the SQLite store (tests/server/test_hostile_chat.py): a room keeps its newest ``CHAT_KEPT`` lines, the
    older deleted as each is added; another room's are untouched."""
    store, _ = filled(pg_url)
    for n in range(CHAT_KEPT + 5):
        store.add_chat(ChatRecord("WXYZ", 0, "A", f"line {n}", "t"))
    assert [c.text for c in store.recent_chat("WXYZ", 10**9)] == [f"line {n}" for n in range(5, CHAT_KEPT + 5)]
    assert [c.text for c in store.recent_chat("ABCD", 10**9)] == ["hello"]
    store.close()
