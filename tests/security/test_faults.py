"""Faults: players who vanish or never answer, a burst of rooms, and a database that stops taking writes."""

from __future__ import annotations

import contextlib
import random
import socket
import threading
import time
from pathlib import Path

import pytest

from intrigue import games
from intrigue.server.matches import rebuild
from intrigue.server.settings import Settings

from ..server.support import Client, ServerThread, create_room
from .table import Table, hang_up, snapshot
from .test_protocol_fuzz import intact

GRACE = 0.15
FAULTS = Settings(bot_delay=0.0, room_quota=10_000, disconnect_grace=GRACE, message_rate=200, message_burst=200)

#: windows random play reaches in nearly every few Coup games (rarer ones are covered when reached)
COUP_WINDOWS = {"Action Declaration", "Action Challenge Window", "Block Window — Foreign Aid",
                "Challenge Block Window", "Claimant Loses Influence", "Ambassador Exchange Decision"}
PLAYERS = {"coup": (3, 0), "bang": (2, 2), "dsfgs": (3, 0), "heist": (3, 0)}


def pick(rng: random.Random, options: list[str]) -> str:
    """Random, leaning towards challenges and blocks so that every window opens."""
    for lean in ("Challenge", "Block"):
        leaning = [o for o in options if o.startswith(lean)]
        if leaning and rng.random() < 0.5:
            return rng.choice(leaning)
    return rng.choice(options)


def deciding_phases(game_id: str) -> set[str]:
    phases = games.get(game_id).definition.phases
    phases = phases.values() if isinstance(phases, dict) else phases
    return {p.name for p in phases if p.completion_criteria.type == "player_action"}


def wait_for(condition, timeout: float) -> float:  # noqa: ANN001
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > timeout:
            raise TimeoutError("condition not met")
        time.sleep(0.01)
    return time.monotonic() - started


@pytest.fixture(scope="module")
def faulty(tmp_path_factory):
    with ServerThread(tmp_path_factory.mktemp("faults") / "faults.db", FAULTS) as server:
        yield server


def ping_times(pinger: Client, seconds: float, timeout: float) -> list[float]:
    """Seconds each ping took to be answered, pinging every 30 ms for ``seconds``."""
    latencies = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        sent = time.monotonic()
        pinger.send({"type": "ping"})
        pinger.until(lambda m: m["type"] == "pong", timeout=timeout)
        latencies.append(time.monotonic() - sent)
        time.sleep(0.03)
    return latencies


def test_a_player_who_disconnects_in_any_window_never_blocks_the_game(faulty):
    server = faulty
    rng = random.Random(7)
    covered: dict[str, set[tuple[str, str]]] = {}
    with server.http() as http:
        for game in games.installed():
            humans, bots = PLAYERS.get(game, (games.get(game).min_players, 0))
            kinds = covered.setdefault(game, set())
            wanted = COUP_WINDOWS if game == "coup" else deciding_phases(game)
            budget = time.monotonic() + 8
            while time.monotonic() < budget and not wanted <= {p for p, _ in kinds}:
                table = Table(server, http, game, humans=humans, bots=bots)
                while not table.match.over:
                    mover = table.pending()
                    match = table.match
                    # a view can lag the match (a window closed since, views wait for their flush):
                    # test only a seat the match itself is waiting for
                    if mover is None or match.over or mover.view["seat"] not in match.pending:
                        table.settle()
                        continue
                    window = (match.phase.name, match.decision.wait_for)
                    if window in kinds:
                        table.move(mover, pick(rng, mover.options))
                        continue
                    kinds.add(window)
                    seat, version = mover.view["seat"], match.version
                    hang_up(mover)
                    took = wait_for(lambda: seat not in table.match.pending or table.match.version > version + 3,
                                    timeout=GRACE + 3)
                    made = [c for c in server.store.choices(table.room.match_id)[version:] if c.seat == seat]
                    if took < GRACE * 0.8:
                        # another seat's answer closed the window just before the hang-up: nobody may
                        # have chosen for the player early, and this window is tested another time
                        assert not made, f"{game}: {window} was decided before the grace period: {made}"
                        kinds.discard(window)
                    else:
                        assert made and made[0].source == "timeout", made
                    # the player comes back to the same seat and the full current view
                    again = Client(server.ws_url, table.code, table.tokens[seat])
                    welcome = again.until(lambda m: m["type"] == "welcome")
                    assert welcome["seat"] == seat
                    table.clients[table.clients.index(mover)] = again
                    table.settle()
                    assert again.view == table.match.observe(seat) or table.match.version != again.view["version"]
                table.close()
            windows = {p for p, _ in kinds}
            singles = {p.completion_criteria.wait_for for p in games.get(game).definition.phases.values()
                       if p.completion_criteria.type == "player_action"} & {"single_player_choice"}
            assert {w for _, w in kinds} >= singles, (game, kinds)  # (Werewolf has no one-player choice)
            if game == "coup":
                assert COUP_WINDOWS <= windows, COUP_WINDOWS - windows
            else:
                assert len(windows) >= 2, (game, kinds)
    print({game: sorted(p for p, _ in kinds) for game, kinds in covered.items()})
    assert intact(server) == []


def test_a_player_who_never_answers_is_decided_by_the_timer(faulty):
    server = faulty
    with server.http() as http:
        table = Table(server, http, "coup", humans=2, timers={"turn_timer": 1, "window_timer": 1})
        silent_seat = 1
        talker = table.clients[0]
        rng = random.Random(3)
        timeouts = 0
        deadline = time.monotonic() + 20
        while timeouts < 3 and not table.match.over:
            assert time.monotonic() < deadline, "the timer did not decide for the silent player"
            table.settle()
            match = table.match
            if silent_seat in match.pending:
                version, opened = match.version, time.monotonic()
                kind = "turn" if match.decision.wait_for == "single_player_choice" else "window"
                assert talker.timer["kind"] == kind and talker.timer["seconds"] == 1
                wait_for(lambda: table.match.version > version, timeout=3)
                assert time.monotonic() - opened <= 4, "a 1 s timer took far too long"
                record = server.store.choices(table.room.match_id)[version]
                if record.seat == silent_seat:
                    assert record.source == "timeout"
                    timeouts += 1
            elif talker.options:
                table.move(talker, pick(rng, talker.options))
        assert timeouts >= 3 or table.match.over
        table.close()


def test_a_burst_of_rooms_at_once(tmp_path):
    settings = Settings(bot_delay=0.0, room_quota=10_000)
    rooms_wanted, threads = 40, 8
    with ServerThread(tmp_path / "burst.db", settings) as server:
        made: list[tuple[str, str]] = []
        failures: list[str] = []
        lock = threading.Lock()
        installed = games.installed()

        def open_rooms(worker: int) -> None:
            rng = random.Random(worker)
            with server.http() as http:
                for n in range(rooms_wanted // threads):
                    game = games.get(installed[(worker + n) % len(installed)])
                    seats = game.min_players
                    answer = http.post("/api/rooms", json={"game": game.id, "name": f"W{worker}", "seats": seats,
                                                           "bots": [{"kind": "random"}] * (seats - 1)})
                    if answer.status_code != 201:
                        with lock:
                            failures.append(answer.text)
                        continue
                    room = answer.json()
                    started = http.post(f"/api/rooms/{room['room']}/start", json={"token": room["token"]})
                    left = http.post(f"/api/rooms/{room['room']}/leave", json={"token": room["token"]})
                    with lock:
                        if started.status_code != 200 or left.status_code != 200:
                            failures.append(started.text + left.text)
                        made.append((room["room"], game.id))
                    rng.random()

        watcher = Client(server.ws_url)
        latencies: list[float] = []
        workers = [threading.Thread(target=open_rooms, args=(n,)) for n in range(threads)]
        for worker in workers:
            worker.start()
        while any(w.is_alive() for w in workers):
            sent = time.monotonic()
            watcher.send({"type": "ping"})
            watcher.until(lambda m: m["type"] == "pong", timeout=5)
            latencies.append(time.monotonic() - sent)
            time.sleep(0.02)
        for worker in workers:
            worker.join()
        assert not failures, failures[:3]
        assert len({code for code, _ in made}) == rooms_wanted, "every room got its own code"
        lobby = server.app.state.lobby

        def done(code: str) -> bool:  # a room whose every human left is closed once its match ends
            room = lobby.rooms.get(code)
            return room is None or (room.match is not None and room.match.over)

        wait_for(lambda: all(done(code) for code, _ in made), timeout=60)
        del lobby
        assert max(latencies) < 2.5, f"the server stalled for {max(latencies):.2f} s during the burst"
        assert intact(server) == []
        finished = {m.room: m for m in server.store.list_matches("finished", 500)}
        assert {code for code, _ in made} <= set(finished), "every match of the burst finished and was recorded"
        for code, game in made:
            record = finished[code]
            replayed = rebuild(record, server.store.choices(record.id))
            assert replayed.over and replayed.winners == record.winners and record.game == game
        hang_up(watcher)


@contextlib.contextmanager
def read_only(server: ServerThread):
    """The database refuses every write, as a read-only file does (SQLite's SQLITE_READONLY)."""
    store = server.store
    with store._lock:  # noqa: SLF001 - the server's own connection is the one that must fail
        store._db.execute("PRAGMA query_only=ON")  # noqa: SLF001
    try:
        yield
    finally:
        with store._lock:  # noqa: SLF001
            store._db.execute("PRAGMA query_only=OFF")  # noqa: SLF001


def test_a_read_only_database_refuses_moves_instead_of_losing_them(tmp_path):
    settings = Settings(bot_delay=0.0, room_quota=10_000, chat_burst=10)
    with ServerThread(tmp_path / "ro.db", settings) as server, server.http() as http:
        table = Table(server, http, "coup")
        actor = table.pending()
        before = snapshot(server)
        views = [c.view for c in table.clients]
        with read_only(server):
            actor.choose(actor.options[0])
            error = actor.error()
            assert error["code"] == "storage" and "not applied" in error["message"], error
            assert snapshot(server) == before, "a move that could not be stored was applied"
            actor.send({"type": "chat", "token": actor.token, "text": "hello?"})
            assert actor.error()["code"] == "storage"
            created = http.post("/api/rooms", json={"game": "coup", "name": "New", "seats": 2})
            assert created.status_code == 503 and created.json()["error"]["code"] == "storage"
            assert snapshot(server) == before
        for client in table.clients:
            client.drain()
        assert [c.view for c in table.clients] == views, "a client was told of a move that was not stored"
        assert not any(m["type"] == "chat" for c in table.clients for m in c.messages)
        table.move(actor, actor.options[0])  # writable again: the same move now goes through
        assert table.match.version == before[table.code]["match"]["version"] + 1
        assert intact(server) == []
        table.close()


def test_a_bot_whose_move_could_not_be_stored_tries_again(tmp_path):
    """A storage hiccup must not leave a bot's decision open for ever."""
    settings = Settings(bot_delay=1.0, room_quota=10_000)
    with ServerThread(tmp_path / "bot.db", settings) as server, server.http() as http:
        table = Table(server, http, "coup", humans=1, bots=1)
        human = table.clients[0]
        rng = random.Random(5)
        deadline = time.monotonic() + 20
        while not table.match.over:
            assert time.monotonic() < deadline
            if 1 in table.match.pending:
                break
            if human.options:
                version = human.view["version"]
                human.choose(pick(rng, human.options))
                human.settle(lambda v: v["version"] > version)
            else:
                human.drain(0.02)
        assert 1 in table.match.pending, "the bot never had to decide"
        version = table.match.version
        with read_only(server):
            time.sleep(settings.bot_delay + 0.4)  # the bot's move fails to store
            assert table.match.version == version
        wait_for(lambda: table.match.version > version, timeout=5)
        assert intact(server) == []
        table.close()


def test_a_client_that_never_reads_holds_nobody_back(faulty):
    """A spectator who stops reading gets at most OUTBOX queued messages, then is cut off; the table plays on."""
    from intrigue.server.app import OUTBOX

    server = faulty
    with server.http() as http:
        table = Table(server, http, "bang", humans=2, bots=2)
        lurker = Client(server.ws_url, table.code)  # never reads again after the welcome
        lurker.until(lambda m: m["type"] == "welcome")
        lurker.ws.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        rng = random.Random(11)
        started = time.monotonic()
        while not table.match.over:
            assert time.monotonic() - started < 30, "the table slowed down behind a client that does not read"
            mover = table.pending()
            if mover is None:
                table.settle()
                continue
            table.move(mover, rng.choice(mover.options))
            room = table.room
            queued = [sink.outbox.qsize() for sink in room.spectators]
            assert all(q <= OUTBOX + 1 for q in queued), queued
            # only the newest view waits: a reader that stalls costs one view, not a backlog
            assert all(sink.outbox.views() <= 1 for sink in room.spectators)
        table.close()
        hang_up(lurker)


def test_hammering_replays_does_not_stall_live_games(faulty):
    """Rebuilding a long finished match is CPU work; clients asking for many replay steps at once
    must not freeze the event loop that runs every live game (its pings, moves and timers)."""
    server = faulty
    with server.http() as http:
        table = Table(server, http, "bang", humans=1, bots=6)
        match_id = table.room.match_id
        assert http.post(f"/api/rooms/{table.code}/leave", json={"token": table.tokens[0]}).status_code == 200
        wait_for(lambda: server.store.load_match(match_id).status == "finished", timeout=30)
        steps = len(server.store.choices(match_id))
        table.close()
    stop = threading.Event()

    def hammer(worker: int) -> None:
        rng = random.Random(worker)
        with server.http() as client:
            while not stop.is_set():
                client.get(f"/api/matches/{match_id}/replay",
                           params={"step": rng.randint(steps // 2, steps), "seat": rng.choice(["all", "0", "1", "2"])})

    workers = [threading.Thread(target=hammer, args=(n,)) for n in range(4)]
    for worker in workers:
        worker.start()
    pinger = Client(server.ws_url)
    try:
        time.sleep(0.3)
        latencies = ping_times(pinger, 2.5, timeout=10)
    finally:
        stop.set()
        for worker in workers:
            worker.join()
        hang_up(pinger)
    latencies.sort()
    p90 = latencies[int(len(latencies) * 0.9)]
    assert p90 < 0.5, f"pings took {p90:.2f} s (90th percentile) while replays were rebuilt"


def test_searching_bots_do_not_freeze_other_games(tmp_path):
    """A searching bot may think for a second or two (ismcts:strong); that must not stop the event loop
    that runs every other game, its pings and its timers."""
    with ServerThread(tmp_path / "think.db", Settings(bot_delay=0.0, room_quota=100, message_rate=100)) as server, \
            server.http() as http:
        created = create_room(http, game="coup", name="Host", seats=4, private=True,
                              bots=[{"kind": "ismcts", "personality": "strong"}] * 3,
                              options={"turn_timer": None, "window_timer": None})
        assert http.post(f"/api/rooms/{created['room']}/start", json={"token": created["token"]}).status_code == 200
        assert http.post(f"/api/rooms/{created['room']}/leave", json={"token": created["token"]}).status_code == 200
        pinger = Client(server.ws_url)
        latencies = ping_times(pinger, 3, timeout=15)
        hang_up(pinger)
        rooms = server.app.state.lobby.rooms
        wait_for(lambda: created["room"] not in rooms or rooms[created["room"]].match.version > 0, timeout=30)
    latencies.sort()
    p90 = latencies[int(len(latencies) * 0.9)]
    assert p90 < 0.5, f"pings took {p90:.2f} s (90th percentile) while bots were thinking"


def test_grace_timers_are_announced_to_every_connection(tmp_path):
    """A pending player drops: everyone is told the grace timer started; they come back: everyone is
    told it ended; they drop again: it runs out and their choice is made."""
    grace = 3.0
    settings = Settings(bot_delay=0.0, room_quota=10_000, disconnect_grace=grace)
    with ServerThread(tmp_path / "grace.db", settings) as server, server.http() as http:
        table = Table(server, http, "coup", humans=3)
        mover = table.pending()
        seat, version = mover.view["seat"], table.match.version
        others = [c for c in table.clients if c is not mover]
        assert all(c.timer is None for c in others), "timers are off: no timer before anyone drops"
        hang_up(mover)
        for client in others:
            view = client.settle(lambda v: client.timer is not None)
            assert client.timer["kind"] == "grace" and client.timer["seconds"] == grace
            assert client.timer["seconds_left"] > grace - 1 and view["version"] == version, "no move was made"
        back = Client(server.ws_url, table.code, table.tokens[seat])
        back.until(lambda m: m["type"] == "welcome")
        for client in others:
            client.until(lambda m: m["type"] == "view" and m["timer"] is None)
            assert client.view["version"] == version
        back.settle(lambda v: v["version"] == version)
        assert back.timer is None and back.options
        table.clients[table.clients.index(mover)] = back
        hang_up(back)
        for client in others:
            client.settle(lambda v: client.timer is not None)
            client.settle(lambda v: v["version"] > version, timeout=grace + 5)
        assert server.store.choices(table.room.match_id)[version].source == "timeout"
        for client in others:
            hang_up(client)


def failing_tiny_game():
    """The tiny test game with a bug: claiming "Low" raises inside a tool, after the choice was checked."""
    game = games.load_path(Path(__file__).parent.parent / "engine" / "tinygame")
    for tools in (game.tools, game.headless_tools):
        if "record_claim" in tools:
            original = tools["record_claim"]

            def record_claim(m, original=original):  # noqa: ANN001, ANN202
                if m.log[-1].option == "Low":
                    raise ZeroDivisionError("a rules bug in record_claim")
                original(m)

            tools["record_claim"] = record_claim
    return game


def test_a_rules_bug_refuses_the_choice_stores_nothing_and_the_server_plays_on(tmp_path, monkeypatch):
    broken = failing_tiny_game()
    installed, get = games.installed, games.get
    monkeypatch.setattr(games, "installed", lambda: sorted({*installed(), "tiny"}))
    monkeypatch.setattr(games, "get", lambda game_id: broken if game_id == "tiny" else get(game_id))
    with ServerThread(tmp_path / "bug.db", FAULTS) as server, server.http() as http:
        other = Table(server, http, "coup")
        table = Table(server, http, "tiny")
        leader = table.pending()
        assert leader.options == ["High", "Low"]
        match_id, version = table.room.match_id, table.match.version
        before, views = snapshot(server), [c.view for c in table.clients]
        leader.choose("Low")
        error = leader.error()
        assert error["code"] == "internal", error
        assert "Tiny" in error["message"] and "'Claim'" in error["message"] and "'Low'" in error["message"]
        assert snapshot(server) == before, "the failed choice changed a match or the store"
        assert len(server.store.choices(match_id)) == version, "the failed choice was stored"
        assert intact(server) == []
        for client in table.clients:
            client.drain()
        assert [c.view for c in table.clients] == views, "someone was told of a choice that was not kept"
        reported = server.app.state.lobby.problems
        assert any("tiny" in p and "'Claim'" in p and "ZeroDivisionError" in p for p in reported), reported
        # every other room goes on, and so does this one with a choice the rules can apply
        rng = random.Random(1)
        for _ in range(5):
            mover = other.pending()
            if mover is None or other.match.over:
                break
            other.move(mover, pick(rng, mover.options))
        assert other.match.version >= 1
        table.move(leader, "High")
        assert table.match.version == version + 1 and server.store.choices(match_id)[version].option == "High"
        assert intact(server) == []
        table.close()
        other.close()
    with ServerThread(tmp_path / "bug.db", FAULTS) as again:  # the log replays after a restart
        assert again.app.state.lobby.problems == []
        stored = again.store.choices(match_id)
        assert stored[version].option == "High"
        assert again.app.state.lobby.rooms[table.code].match.version == len(stored)


def test_room_changes_the_database_refuses_leave_the_room_as_it_was(tmp_path):
    """Join, leave, start and a rematch vote are each one stored change: refused by the store, nothing changes."""
    settings = Settings(bot_delay=0.0, room_quota=10_000)
    with ServerThread(tmp_path / "rooms.db", settings) as server, server.http() as http:
        host = create_room(http, name="Host", seats=3, bots=[{"kind": "random"}], private=True,
                           options={"turn_timer": None, "window_timer": None})
        code = host["room"]
        waiting = http.get(f"/api/rooms/{code}").json()
        with read_only(server):
            for answer in (http.post(f"/api/rooms/{code}/join", json={"name": "Late"}),
                           http.post(f"/api/rooms/{code}/leave", json={"token": host["token"]}),
                           http.post(f"/api/rooms/{code}/start", json={"token": host["token"]})):
                assert answer.status_code == 503 and answer.json()["error"]["code"] == "storage", answer.text
            assert http.get(f"/api/rooms/{code}").json() == waiting, "a refused change changed the room"
            assert server.store.load_room(code).seats[0].name == "Host"
        started = http.post(f"/api/rooms/{code}/start", json={"token": host["token"]})
        assert started.status_code == 200, started.text
        player = Client(server.ws_url, code, host["token"])
        rng = random.Random(2)
        deadline = time.monotonic() + 30
        while not (player.view and player.view["over"]):
            assert time.monotonic() < deadline
            player.drain(0.02)
            if player.options and not player.view["over"]:
                player.choose(rng.choice(player.options))
        player.drain(0.3)  # refusals of moves sent from a view a bot's move had just made stale
        finished = http.get(f"/api/rooms/{code}").json()
        assert finished["status"] == "finished" and finished["rematch"] == {"votes": [], "needed": [0]}
        with read_only(server):
            player.send({"type": "rematch", "token": host["token"]})
            assert player.error()["code"] == "storage"
            assert http.get(f"/api/rooms/{code}").json() == finished, "a refused vote changed the room"
        player.send({"type": "rematch", "token": host["token"]})
        player.settle(lambda v: v["version"] == 0 and not v["over"])
        assert http.get(f"/api/rooms/{code}").json()["match"] != finished["match"]
        hang_up(player)
