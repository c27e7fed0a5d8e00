"""History, replay (HTTP and terminal), export/import round trips, and a store that cannot write."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from intrigue import cli, games
from intrigue.engine import Match
from intrigue.server.history import fingerprint
from intrigue.server.matches import game_version, rebuild
from intrigue.store import ChoiceRecord, MatchRecord, RoomRecord, SeatRecord, open_store

from .support import Client, ServerThread, create_room, join

cli._register_commands()
runner = CliRunner()


def record_match(store, seed: int, moves: int | None = None, code: str | None = None, game_id: str = "coup",
                 names: tuple[str, ...] = ("Aria", "Blake", "Casey")) -> tuple[int, Match]:
    """Play random legal choices into the store, as the server would; ``moves`` stops early.

    With ``code`` the match is played by a stored room of that code (its seat tokens'
    hashes are ``<code><seat>``); without, its room is closed, as after every player left.
    """
    game = games.get(game_id)
    names = list(names)
    match = Match(game, names, seed)
    room = RoomRecord(code or f"X{seed:03d}", game_id, 0, True, {"turn_timer": None, "window_timer": None},
                      "playing", "2026-11-22T12:00:00Z", "", None,
                      [SeatRecord(i, name, None, f"{code}{i}") for i, name in enumerate(names)])
    match_id = store.start_match(room, MatchRecord(0, room.code, game_id, game_version(game), names,
                                                   [None] * len(names), seed, {}, "playing", [],
                                                   "2026-11-22T12:00:00Z"))
    room.match = match_id
    rng = random.Random(seed)
    while not match.over and (moves is None or match.version < moves):
        seat = rng.choice(match.pending)
        option = rng.choice(match.legal(seat))
        store.append_choice(match_id, ChoiceRecord(match.version, seat, option, "player", "t"))
        match.choose(seat, option)
    room.status = "closed" if code is None else "finished" if match.over else "playing"
    if match.over:
        store.finish_match(match_id, match.winners, "2026-11-22T12:10:00Z", room)
    else:
        store.save_room(room)
    return match_id, match


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    path = tmp_path_factory.mktemp("history") / "history.db"
    store = open_store(str(path))
    finished, played = record_match(store, 11)
    live, _ = record_match(store, 12, moves=6, code="LIVE")
    store.close()
    return path, finished, played, live


def test_history_lists_finished_matches(recorded):
    path, finished, played, live = recorded
    with ServerThread(path) as server, server.http() as http:
        listed = http.get("/api/matches", params={"status": "finished"}).json()
        assert [m["match"] for m in listed] == [finished]
        entry = listed[0]
        assert entry["players"] == ["Aria", "Blake", "Casey"] and entry["moves"] == played.version
        assert entry["winners"] == [played.names[s] for s in played.winners]
        assert [m["match"] for m in http.get("/api/matches", params={"status": "playing"}).json()] == [live]


def test_replay_steps_through_a_finished_match_from_any_seat(recorded):
    path, finished, played, live = recorded
    with ServerThread(path) as server, server.http() as http:
        start = http.get(f"/api/matches/{finished}/replay", params={"step": 0, "seat": "0"}).json()
        assert start["step"] == 0 and start["steps"] == played.version and start["choice"] is None
        assert start["view"]["version"] == 0 and start["view"]["seat"] == 0
        middle = played.version // 2
        seat1 = http.get(f"/api/matches/{finished}/replay", params={"step": middle, "seat": "1"}).json()
        hands = [c["player"] for c in seat1["view"]["components"] if c["kind"] == "hand"]
        assert hands == ["Blake"], "a seat's replay shows only that seat's hand"
        everything = http.get(f"/api/matches/{finished}/replay", params={"step": middle, "seat": "all"}).json()
        shown = {c["player"] for c in everything["view"]["components"] if c["kind"] == "hand"}
        alive = {played.names[s] for s in range(3)
                 if any(not i["revealed"] for i in rebuild_at(played, middle).players[s]["influences"].values())}
        assert shown == alive, "with seat=all every hand still held is shown"
        assert everything["choice"]["version"] == middle - 1
        end = http.get(f"/api/matches/{finished}/replay", params={"step": played.version, "seat": "all"}).json()
        assert end["view"]["over"] and end["view"]["winners"] == [played.names[s] for s in played.winners]
        too_far = http.get(f"/api/matches/{finished}/replay", params={"step": played.version + 1})
        assert too_far.status_code == 400 and "step must be from 0" in too_far.json()["error"]["message"]
        bad_seat = http.get(f"/api/matches/{finished}/replay", params={"step": 1, "seat": "9"})
        assert bad_seat.status_code == 400
        missing = http.get("/api/matches/9999/replay")
        assert missing.status_code == 404


def rebuild_at(played: Match, step: int) -> Match:
    return rebuild_from(played, played.log[:step])


def rebuild_from(played: Match, log) -> Match:
    match = Match(played.game, played.names, played.seed)
    for choice in log:
        match.choose(choice.seat, choice.option)
    return match


def test_a_match_in_progress_is_never_replayed(recorded):
    path, finished, played, live = recorded
    with ServerThread(path) as server, server.http() as http:
        for seat in ("all", "0"):
            answer = http.get(f"/api/matches/{live}/replay", params={"step": 1, "seat": seat})
            assert answer.status_code == 409 and answer.json()["error"]["code"] == "in_progress"
    result = runner.invoke(cli.app, ["replay", str(live), "--db", str(path)])
    assert result.exit_code == 1 and "still being played" in result.output
    result = runner.invoke(cli.app, ["export", str(live), "--db", str(path)])
    assert result.exit_code == 1


def test_replay_prints_the_match_move_by_move(recorded):
    path, finished, played, live = recorded
    result = runner.invoke(cli.app, ["replay", str(finished), "--db", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"Match {finished}: coup, Aria, Blake, Casey")
    first = played.log[0]
    assert f"   1. {played.names[first.seat]}: {first.option}" in lines
    assert lines[-1] == "Winner: " + ", ".join(played.names[s] for s in played.winners)


def test_export_then_import_reproduces_the_same_match(recorded, tmp_path):
    path, finished, played, live = recorded
    out = tmp_path / "match.json"
    result = runner.invoke(cli.app, ["export", str(finished), "-o", str(out), "--db", str(path)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["seed"] == 11 and len(data["choices"]) == played.version
    assert data["result"]["fingerprint"] == fingerprint(played)
    fresh = tmp_path / "fresh.db"
    result = runner.invoke(cli.app, ["import", str(out), "--db", str(fresh)])
    assert result.exit_code == 0, result.output
    assert "same final state" in result.output
    store = open_store(str(fresh))
    imported = store.list_matches("finished")[0]
    again = rebuild(imported, store.choices(imported.id))
    assert fingerprint(again) == fingerprint(played) and again.winners == played.winners


def test_a_tampered_export_is_refused_and_stores_nothing(recorded, tmp_path):
    path, finished, played, live = recorded
    out = tmp_path / "match.json"
    runner.invoke(cli.app, ["export", str(finished), "-o", str(out), "--db", str(path)])
    data = json.loads(out.read_text())
    data["seed"] = 12  # another deal: the moves no longer fit, or end elsewhere
    out.write_text(json.dumps(data))
    fresh = tmp_path / "fresh.db"
    result = runner.invoke(cli.app, ["import", str(out), "--db", str(fresh)])
    assert result.exit_code == 1 and "error:" in result.output
    assert open_store(str(fresh)).list_matches() == []
    out.write_text("{\"format\": \"something else\"}")
    result = runner.invoke(cli.app, ["import", str(out), "--db", str(fresh)])
    assert result.exit_code == 1 and "not an exported Intrigue match" in result.output


def test_serve_refuses_a_damaged_database_with_a_clear_error(tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"SQLite format 3\x00" + b"\xff" * 3000)
    before = bad.read_bytes()
    result = runner.invoke(cli.app, ["serve", "--db", str(bad)])
    assert result.exit_code == 2
    assert "bad.db" in result.output and "left untouched" in result.output
    assert bad.read_bytes() == before


def test_a_move_that_cannot_be_stored_is_not_applied(tmp_path):
    path = tmp_path / "locked.db"
    with ServerThread(path, busy_timeout=0.1) as server, server.http() as http:
        created = create_room(http, private=True, options={"turn_timer": None, "window_timer": None})
        joined = join(http, created["room"], "Blake")
        players = [Client(server.ws_url, created["room"], created["token"]),
                   Client(server.ws_url, created["room"], joined["token"])]
        players[0].send({"type": "start", "token": created["token"]})
        for player in players:
            player.settle(lambda v: v["decision"] is not None)
        actor = next(p for p in players if p.options)
        other = sqlite3.connect(path, timeout=0.1)  # another process holds the write lock
        other.execute("BEGIN EXCLUSIVE")
        actor.choose("Income")
        error = actor.error()
        assert error["code"] == "storage" and "not applied" in error["message"]
        other.rollback()
        other.close()
        actor.drain()
        assert actor.view["version"] == 0
        actor.choose("Income")
        actor.settle(lambda v: v["version"] == 1)


def test_a_room_whose_log_does_not_replay_is_reported_and_kept(tmp_path):
    path = tmp_path / "mixed.db"
    store = open_store(str(path))
    good, _ = record_match(store, 21, moves=5, code="GOOD")
    bad, _ = record_match(store, 22, moves=5, code="BADX")
    store.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE choices SET option = 'Teleport' WHERE match = ? AND version = 3", (bad,))
    db.commit()
    db.close()
    with ServerThread(path) as server, server.http() as http:
        problems = server.app.state.lobby.problems
        assert len(problems) == 1 and "BADX" in problems[0] and "does not replay at version 3" in problems[0]
        assert http.get("/api/rooms/GOOD").json()["status"] == "playing"
        assert http.get("/api/rooms/BADX").status_code == 404
    kept = open_store(str(path))
    assert [c.option for c in kept.choices(bad)][3] == "Teleport", "the damaged log is left as it was"
    assert kept.load_room("BADX").status == "playing"


def test_a_finished_match_the_rules_no_longer_accept_is_refused_clearly(tmp_path):
    path = tmp_path / "old.db"
    store = open_store(str(path))
    finished, _ = record_match(store, 31)
    store.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE choices SET option = 'Fly' WHERE match = ? AND version = 2", (finished,))
    db.commit()
    db.close()
    with ServerThread(path) as server, server.http() as http:
        answer = http.get(f"/api/matches/{finished}/replay", params={"step": 5})
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "unreplayable"
        assert "does not replay at version 2" in answer.json()["error"]["message"]
        assert http.get(f"/api/matches/{finished}/replay", params={"step": 2}).status_code == 200
    result = runner.invoke(cli.app, ["export", str(finished), "--db", str(path)])
    assert result.exit_code == 1 and "does not replay at version 2" in result.output
    result = runner.invoke(cli.app, ["replay", str(finished), "--db", str(path)])
    assert result.exit_code == 1 and "does not replay at version 2" in result.output


def test_matches_left_without_a_room_are_settled_on_start(tmp_path):
    path = tmp_path / "orphans.db"
    store = open_store(str(path))
    ended, played = record_match(store, 41)
    db_ended = ended
    half, _ = record_match(store, 42, moves=4)
    store.close()
    db = sqlite3.connect(path)  # as if the server died right after the last move, before marking it finished
    db.execute("UPDATE matches SET status = 'playing', finished = NULL WHERE id = ?", (db_ended,))
    db.commit()
    db.close()
    with ServerThread(path) as server, server.http() as http:
        assert [m["match"] for m in http.get("/api/matches", params={"status": "playing"}).json()] == []
        finished = http.get("/api/matches", params={"status": "finished"}).json()
        assert [m["match"] for m in finished] == [ended]
        assert finished[0]["winners"] == [played.names[s] for s in played.winners]
    assert open_store(str(path)).load_match(half).status == "abandoned"


def test_the_rules_fingerprint_follows_every_file_of_the_game(tmp_path):
    """A match records the version of the rules it was played with: a change to the DSL file,
    or to an extension file merged onto it, is a new version (a replay then warns)."""
    from intrigue.games import load_path

    source = Path(games.get("heist").binding.dsl_path).read_text()
    path = tmp_path / "heist.yaml"
    path.write_text(source)
    first = game_version(load_path(path))
    assert game_version(load_path(path)) == first
    path.write_text(source.replace("round_limit: 3", "round_limit: 4"))
    assert game_version(load_path(path)) != first
    coup = games.get("coup")
    assert coup.binding.extension_paths, "Coup's variants are an extension file"
    assert game_version(coup) != _only(coup.binding.dsl_path, coup.binding.module_file)


def _only(*paths):  # the old fingerprint: the DSL file and the rules module alone
    import hashlib
    digest = hashlib.sha256()
    for path in paths:
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()[:16]


def test_a_match_of_a_game_served_from_a_folder_replays_exports_and_imports_with_that_folder(tmp_path):
    """A designer's game (``serve --games DIR``): its finished match replays, exports and imports given the
    same folder; without it each says which game is missing and where to give it, and the HTTP replay of a
    server started without the folder answers 404 ``no_game`` (it said the rules had changed)."""
    folder = Path(__file__).parents[2] / "docs" / "examples" / "games"
    added, problems = games.add_folder(folder / "skull.yaml")
    assert (added, problems) == (["skull"], [])
    try:
        store = open_store(str(path := tmp_path / "skull.db"))
        match_id, match = record_match(store, 8, game_id="skull")
        store.close()
    finally:
        games._EXTRA.pop("skull", None)
        games.get.cache_clear()
    names = match.names
    winner = "Winner: " + ", ".join(names[s] for s in match.winners)
    missing = f"match {match_id} plays 'skull', which is not installed here"
    for command in (["replay", str(match_id)], ["export", str(match_id), "-o", str(tmp_path / "out.json")]):
        refused = subprocess.run([sys.executable, "-m", "intrigue.cli", *command, "--db", str(path)],
                                 capture_output=True, text=True, timeout=60)
        assert refused.returncode == 1 and missing in refused.stderr and "Traceback" not in refused.stderr
        done = subprocess.run([sys.executable, "-m", "intrigue.cli", *command, "--db", str(path), "--games", str(folder)],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
    assert done.stdout == "" and winner in subprocess.run(
        [sys.executable, "-m", "intrigue.cli", "replay", str(match_id), "--db", str(path), "--games", str(folder)],
        capture_output=True, text=True, timeout=60).stdout.splitlines()
    fresh = tmp_path / "fresh.db"
    imported = [sys.executable, "-m", "intrigue.cli", "import", str(tmp_path / "out.json"), "--db", str(fresh)]
    refused = subprocess.run(imported, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1 and "the match plays 'skull', which is not installed here" in refused.stderr
    done = subprocess.run([*imported, "--games", str(folder / "skull.yaml")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "same final state" in done.stdout, done.stderr

    with ServerThread(path) as server:
        answer = httpx.get(f"{server.url}/api/matches/{match_id}/replay?step=1&seat=0")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "no_game"
    assert "--games" in answer.json()["error"]["message"]


def test_a_replay_inside_a_secret_decision_shows_its_step_from_every_seat(tmp_path):
    """A live view inside a Werewolf night shows only the answers its seat knows of; a finished match's replay
    shows the true step, from every seat and with everything revealed (the browser's replay waits for it)."""
    store = open_store(str(tmp_path / "wolves.db"))
    match_id, played = record_match(store, 4, game_id="werewolf",
                                    names=("Aria", "Blake", "Casey", "Dana", "Eli", "Fay"))
    store.close()
    night = [c.version for c in played.log if played.names[c.seat]][:3]
    with ServerThread(tmp_path / "wolves.db") as server:
        for step in range(1, 4):
            for seat in ("all", *map(str, range(6))):
                answer = httpx.get(f"{server.url}/api/matches/{match_id}/replay?step={step}&seat={seat}").json()
                assert answer["step"] == step and answer["view"]["version"] == step, (seat, answer["view"]["phase"])
    assert night == [0, 1, 2]
