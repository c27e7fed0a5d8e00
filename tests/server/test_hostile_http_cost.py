"""What one cheap request costs the event loop that runs every game, written from docs/protocol.md's list
of routes: `GET /api/protocol.json` (the protocol's JSON Schema), `GET /api/games/{game}/graph.svg` and
`GET /api/matches?limit=500` take any number of requests from anyone. Each built its answer on the event
loop (13 ms for the schema, 10 to 20 for 500 matches), so four clients asking over and over made every
table's pings, moves and timers wait."""

from __future__ import annotations

import sqlite3
import threading
import time

import httpx

from intrigue.store import open_store

from .support import Client, ServerProcess


def _ping_p50(server: ServerProcess, path: str, seconds: float = 3.0) -> tuple[float, int]:
    """The median ping of a connection while four clients ask for ``path`` as fast as they can."""
    stop, asked = threading.Event(), [0]

    def hammer() -> None:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=30) as http:
            while not stop.is_set():
                assert http.get(path).status_code == 200
                asked[0] += 1

    workers = [threading.Thread(target=hammer) for _ in range(4)]
    for worker in workers:
        worker.start()
    pinger = Client(server.ws_url)
    times = []
    try:
        time.sleep(0.3)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            sent = time.perf_counter()
            pinger.send({"type": "ping"})
            pinger.until(lambda m: m["type"] == "pong", timeout=30)
            times.append(time.perf_counter() - sent)
            time.sleep(0.05)
    finally:
        stop.set()
        for worker in workers:
            worker.join()
        pinger.close()
    times.sort()
    return times[len(times) // 2], asked[0]


def test_asking_for_the_protocol_schema_over_and_over_does_not_slow_the_tables(tmp_path):
    server = ServerProcess(tmp_path / "cost.db").start()
    try:
        p50, asked = _ping_p50(server, "/api/protocol.json")
        # Before the fix: 50 to 100 ms (every request rebuilt the schema: 80 answers a second in all).
        # After: as for any route that builds nothing, a few milliseconds (1,500 answers a second).
        assert p50 < 0.03, f"pings took {p50 * 1000:.0f} ms (median) while {asked} schemas were asked for"
    finally:
        server.stop()


def test_a_graph_highlighting_a_phase_the_game_does_not_have_is_the_plain_graph(server, http):
    plain = http.get("/api/games/coup/graph.svg")
    for highlight in (999_999, 123_456, 4242):  # (each was drawn anew: 5 ms of the event loop apiece)
        answer = http.get("/api/games/coup/graph.svg", params={"highlight": highlight})
        assert answer.status_code == 200 and answer.content == plain.content
    marked = http.get("/api/games/coup/graph.svg", params={"highlight": 3})
    assert marked.status_code == 200 and marked.content != plain.content
    assert http.get("/api/games/coup/graph.svg", params={"highlight": 3}).content == marked.content
    schema = http.get("/api/protocol.json")
    assert schema.headers["content-type"] == "application/json" and "ClientMessage" in schema.json()["$defs"]


def test_asking_for_500_matches_over_and_over_does_not_slow_the_tables(tmp_path):
    path = tmp_path / "history.db"
    open_store(str(path)).close()  # the schema, then 1,000 finished matches of 40 moves as a long-lived server has
    with sqlite3.connect(path) as db:
        db.executemany("INSERT INTO matches (id, room, game, game_version, players, bots, seed, options, status, "
                       "winners, started, finished) VALUES (?, NULL, 'coup', 'x', '[\"Aria\", \"Blake\"]', "
                       "'[null, null]', 1, '{}', 'finished', '[0]', '2026-11-22T12:00:00.000000Z', "
                       "'2026-11-22T12:09:41.000000Z')", [(match,) for match in range(1, 1001)])
        db.executemany("INSERT INTO choices (match, version, seat, option, source, at) VALUES (?, ?, ?, 'Income', "
                       "'player', '2026-11-22T12:00:00.000000Z')",
                       [(match, version, version % 2) for match in range(1, 1001) for version in range(40)])
    server = ServerProcess(path).start()
    try:
        p50, asked = _ping_p50(server, "/api/matches?limit=500")
        # Before the fix: 50 to 75 ms (each list read and encoded on the event loop).
        assert p50 < 0.03, f"pings took {p50 * 1000:.0f} ms (median) while {asked} lists were asked for"
    finally:
        server.stop()


def test_asking_for_the_open_rooms_over_and_over_does_not_slow_the_tables(tmp_path):
    """The lobby page asks for `GET /api/rooms` every 5 seconds, and a busy server has hundreds of rooms open:
    the list was built and encoded for every request (30 ms with a thousand rooms)."""
    server = ServerProcess(tmp_path / "rooms.db").start()
    try:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            for _ in range(500):
                assert http.post("/api/rooms", json={"game": "coup", "name": "Aria", "seats": 6,
                                                     "bots": [{"kind": "random"}] * 2}).status_code == 201
            assert len(http.get("/api/rooms").json()) == 500
        p50, asked = _ping_p50(server, "/api/rooms")
        # Before the fix: about 140 ms (each list built and encoded again: 30 answers a second).
        assert p50 < 0.04, f"pings took {p50 * 1000:.0f} ms (median) while {asked} lists were asked for"
    finally:
        server.stop()


def test_a_room_is_created_as_fast_on_a_server_that_has_seen_200000(tmp_path):
    """Room codes are never reused, and a new one was drawn against every code the store had ever held, read
    whole on the event loop at each creation: 0.2 s of every table's time per room at 200,000 rooms."""
    path = tmp_path / "old.db"
    open_store(str(path)).close()
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    with sqlite3.connect(path) as db:
        db.executemany("INSERT INTO rooms (code, game, host, private, options, status, created, creator, match) "
                       "VALUES (?, 'coup', 0, 0, '{}', 'closed', '2026-01-01T00:00:00.000000Z', 'x', NULL)",
                       [(a + b + c + d,) for a in alphabet for b in alphabet for c in alphabet for d in alphabet[:7]])
    server = ServerProcess(path).start()
    try:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            pinger = Client(server.ws_url)
            stop, times = threading.Event(), []

            def ping() -> None:
                while not stop.is_set():
                    sent = time.perf_counter()
                    pinger.send({"type": "ping"})
                    pinger.until(lambda m: m["type"] == "pong", timeout=30)
                    times.append(time.perf_counter() - sent)
                    time.sleep(0.01)

            pinging = threading.Thread(target=ping)
            pinging.start()
            try:
                codes = [http.post("/api/rooms", json={"game": "coup", "name": "Aria", "seats": 2}).json()["room"]
                         for _ in range(20)]
            finally:
                stop.set()
                pinging.join()
                pinger.close()
        assert len(set(codes)) == 20
        times.sort()
        p50 = times[len(times) // 2]
        # Before the fix: a ping waited for the whole read, 0.2 s or more, at every creation (median 0.1 s).
        assert p50 < 0.03, f"pings took {p50 * 1000:.0f} ms (median) while rooms were created"
    finally:
        server.stop()
