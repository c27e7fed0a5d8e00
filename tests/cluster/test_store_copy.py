"""``intrigue store copy``: SQLite → PostgreSQL → SQLite keeps every room, match, move and chat line."""

from __future__ import annotations

import random
import subprocess
import sys

from intrigue import games
from intrigue.engine import Match
from intrigue.server.matches import game_version, rebuild
from dataclasses import replace

from intrigue.store import ChatRecord, ChoiceRecord, MatchRecord, RoomRecord, SeatRecord, open_store
from intrigue.store.copy import read_all


def played(path):
    """A SQLite store with two rooms, a finished match, one in progress and chat."""
    store = open_store(str(path))
    coup = games.get("coup")
    rng = random.Random(7)
    for code, moves in (("ROOM", None), ("LIVE", 5)):
        names = ["Aria", "Blake", "Cass"]
        match = Match(coup, names, 99, {})
        room = RoomRecord(code, "coup", 0, code == "LIVE", {"turn_timer": 30}, "playing", "c", "9.9.9.9", None,
                          [SeatRecord(0, "Aria", None, "a" * 64), SeatRecord(1, "Blake"),
                           SeatRecord(2, "Bot 1", "random", left=True)], [1] if code == "ROOM" else [])
        match_id = store.start_match(room, MatchRecord(0, code, "coup", game_version(coup), names,
                                                       [None, None, "random"], 99, {}, "playing", [], "t0"))
        while not match.over and (moves is None or match.version < moves):
            seat = match.pending[0]
            option = rng.choice(match.legal(seat))
            store.append_choice(match_id, ChoiceRecord(match.version, seat, option, "player", f"t{match.version}"))
            match.choose(seat, option, match.version)
        if match.over:
            store.finish_match(match_id, list(match.winners), "t9", replace(room, match=match_id, status="finished"))
        store.add_chat(ChatRecord(code, 0, "Aria", f"hi from {code}", "t1"))
        store.add_chat(ChatRecord(code, 1, "Blake", "hello", "t2"))
    store.close()


def intrigue(*args):
    return subprocess.run([sys.executable, "-m", "intrigue.cli", *args], capture_output=True, text=True, timeout=120)


def test_a_database_goes_to_postgresql_and_back_unchanged(tmp_path, pg_url):
    played(tmp_path / "a.db")
    there = intrigue("store", "copy", str(tmp_path / "a.db"), pg_url)
    assert there.returncode == 0, there.stderr
    assert "copied 2 rooms, 2 matches" in there.stdout
    back = intrigue("store", "copy", pg_url, str(tmp_path / "b.db"))
    assert back.returncode == 0, back.stderr
    original, in_pg, returned = (open_store(x) for x in (str(tmp_path / "a.db"), pg_url, str(tmp_path / "b.db")))
    assert read_all(original) == read_all(in_pg) == read_all(returned)
    for store in (in_pg, returned):  # every match still replays from its copied log, ids kept
        for record in store.list_matches(None):
            assert rebuild(record, store.choices(record.id)).version == record.moves
        assert store.load_room("ROOM").match == original.load_room("ROOM").match
    # a new match in the copy gets a new id, after the copied ones
    assert in_pg.import_match(original.list_matches(None)[0], []) > max(m.id for m in original.list_matches(None))
    assert original.load_room("ROOM").votes == in_pg.load_room("ROOM").votes == returned.load_room("ROOM").votes


def test_a_copy_into_a_store_that_is_not_empty_is_refused_and_writes_nothing(tmp_path, pg_url):
    played(tmp_path / "a.db")
    target = open_store(pg_url)
    target.save_room(RoomRecord("MINE", "coup", 0, False, {}, "waiting", "c", "", None, [SeatRecord(0, "Zed")]))
    refused = intrigue("store", "copy", str(tmp_path / "a.db"), pg_url)
    assert refused.returncode == 1 and "is not empty: a copy needs an empty store" in refused.stderr
    assert target.room_codes() == {"MINE"} and target.list_matches(None) == []
    missing = intrigue("store", "copy", str(tmp_path / "nothing.db"), pg_url)
    assert missing.returncode == 2 and "nothing.db does not exist" in missing.stderr
