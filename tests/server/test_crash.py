"""kill -9 loses nothing: matches resume with the same state, pending decisions and views."""

from __future__ import annotations

import random
import shutil
import signal
import time
from pathlib import Path

import httpx

from intrigue.bots import names as bot_names
from intrigue.server.settings import Settings

from .support import Client, ServerProcess, ServerThread, create_room, join

ROOMS = 4
KILLS = 3


class Table:
    """One room's human clients (and which names are bots)."""

    def __init__(self, server: ServerProcess, http: httpx.Client, rng: random.Random, index: int):
        humans = rng.randint(2, 3)
        bots = [{"kind": "random"}] if rng.random() < 0.5 else []
        # one room keeps (long) timers: they must be running again after a restart
        self.timed = index == 0
        timers = {"turn_timer": 600, "window_timer": 300} if self.timed else {"turn_timer": None, "window_timer": None}
        created = create_room(http, name=f"H{index}a", seats=humans + len(bots), bots=bots, private=True,
                              options=timers)
        self.code = created["room"]
        self.tokens = [created["token"]] + [join(http, self.code, f"H{index}{chr(98 + n)}")["token"]
                                            for n in range(humans - 1)]
        self.bots = set(bot_names(len(bots)))
        self.clients = [Client(server.ws_url, self.code, token) for token in self.tokens]
        self.clients[0].send({"type": "start", "token": self.tokens[0]})
        self.settle()

    def stable(self, view) -> bool:
        return view["over"] or not set(view["waiting"]) & self.bots

    def settle(self) -> None:
        """Wait until every client has the same version and no bot is still to move."""
        for client in self.clients:
            client.settle(lambda v: v is not None and self.stable(v), timeout=10)
        top = max(c.view["version"] for c in self.clients)
        for client in self.clients:
            client.settle(lambda v: v["version"] == top and self.stable(v), timeout=10)
            client.drain(0.02)

    @property
    def over(self) -> bool:
        return self.clients[0].view["over"]

    def move(self, rng: random.Random, wait: bool = True) -> None:
        mover = next((c for c in self.clients if c.options), None)
        if mover is None or self.over:
            return
        version = mover.view["version"]
        mover.choose(rng.choice(mover.options))
        if wait:
            mover.settle(lambda v: v["version"] > version, timeout=10)
            self.settle()

    def views(self) -> list[dict]:
        return [client.view for client in self.clients]

    def reconnect(self, server: ServerProcess) -> None:
        for client in self.clients:
            try:
                client.close()
            except Exception:  # noqa: BLE001 - the old server is gone
                pass
        self.clients = [Client(server.ws_url, self.code, token) for token in self.tokens]
        for client in self.clients:
            client.until(lambda m: m["type"] == "welcome", timeout=10)
            client.settle(lambda v: True, timeout=10)


def test_sigkill_at_random_moments_loses_no_accepted_move(tmp_path):
    rng = random.Random(7)
    server = ServerProcess(tmp_path / "crash.db").start()
    try:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            tables = [Table(server, http, rng, index) for index in range(ROOMS)]
        for kill in range(KILLS):
            for table in tables:
                for _ in range(rng.randint(1, 8)):
                    table.move(rng)
            in_flight = rng.choice(tables)
            before = {table.code: table.views() for table in tables}
            in_flight.move(rng, wait=False)  # a move on the wire when the kill lands
            time.sleep(rng.random() * 0.05)
            server.kill()
            server = ServerProcess(tmp_path / "crash.db", server.port).start()
            for table in tables:
                table.reconnect(server)
                after = table.views()
                if table is in_flight:
                    # the move on the wire was either lost before it was committed (then nothing
                    # changed) or kept, possibly with bot moves after it; nothing earlier changed
                    version = before[table.code][0]["version"]
                    assert after[0]["version"] >= version
                    if after[0]["version"] == version:
                        assert after == before[table.code]
                    for old, new in zip(before[table.code], after):
                        start = min((line["version"] for line in new["log"]), default=0)
                        kept = [line for line in old["log"] if line["version"] >= start]
                        assert kept == new["log"][:len(kept)], "the history before the kill changed"
                    table.settle()
                else:
                    assert after == before[table.code], f"room {table.code} changed across kill {kill}"
                    for client in table.clients:
                        if table.over:
                            assert client.timer is None
                        elif table.timed:  # restarted from its full length
                            assert client.timer["seconds"] in (600, 300)
                            assert client.timer["seconds_left"] > client.timer["seconds"] - 30
                        else:  # timers off: only the grace period for seats not yet back may run
                            assert client.timer is None or client.timer["kind"] == "grace"
        for table in tables:
            deadline = time.monotonic() + 60
            while not table.over:
                assert time.monotonic() < deadline
                table.move(rng)
            assert all(c.view["over"] and c.view["winners"] for c in table.clients)
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            finished = http.get("/api/matches", params={"status": "finished"}).json()
        assert len(finished) >= ROOMS
    finally:
        server.stop()


def test_a_recovered_timer_runs_on_from_where_it_was(tmp_path):
    """A restart does not hand the player whose turn it is a fresh clock."""
    rng = random.Random(3)
    server = ServerProcess(tmp_path / "clock.db").start()
    try:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            table = Table(server, http, rng, 0)  # index 0: timers of 600 s and 300 s
        for _ in range(2):
            table.move(rng)
        waited = 3.0
        time.sleep(waited)
        before = [dict(client.timer) for client in table.clients]
        server.kill()
        server = ServerProcess(tmp_path / "clock.db", server.port).start()
        table.reconnect(server)
        for old, client in zip(before, table.clients):
            timer = client.timer
            assert timer["seconds"] == old["seconds"] and timer["kind"] == old["kind"]
            assert timer["seconds_left"] <= timer["seconds"] - waited  # the time before the kill counts
            assert timer["seconds_left"] > timer["seconds"] - 60
    finally:
        server.stop()


def room_of(http: httpx.Client, code: str) -> dict:
    answer = http.get(f"/api/rooms/{code}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def matches_by_status(http: httpx.Client) -> dict[str, list[int]]:
    return {status: sorted(m["match"] for m in http.get("/api/matches", params={"status": status}).json())
            for status in ("playing", "finished", "abandoned")}


def test_a_kill_between_storing_a_new_match_and_pointing_its_room_at_it_leaves_no_orphan(tmp_path):
    """The kill lands inside the one transaction that stores a new match and its room (fault injection):
    after restart neither is there, the room is as it was, and no match is invented or abandoned."""
    rng = random.Random(11)
    db = tmp_path / "orphan.db"
    crash = {"INTRIGUE_TEST_CRASH_AT": "start_match"}
    server = ServerProcess(db).start()
    try:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            table = Table(server, http, rng, 1)  # timers off, two or three humans
            while not table.over:
                table.move(rng)
            first = table.clients[0].match
            humans = len(table.tokens)
            table.clients[0].send({"type": "rematch", "token": table.tokens[0]})
            table.clients[0].until(lambda m: m["type"] == "room" and m["rematch"]["votes"] == [0])
        server.kill()

        # a restart brings the stored vote back; then the last vote's rematch is killed mid-transaction
        server = ServerProcess(db, server.port, env=crash).start()
        table.reconnect(server)
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            assert room_of(http, table.code)["rematch"] == {"votes": [0], "needed": list(range(humans))}
        for seat in range(1, humans):
            table.clients[seat].send({"type": "rematch", "token": table.tokens[seat]})
        assert server.died() == -signal.SIGKILL, "the injected crash did not happen"

        server = ServerProcess(db, server.port).start()
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            room = room_of(http, table.code)
            assert (room["status"], room["match"]) == ("finished", first), "the room moved to a match that is gone"
            assert set(room["rematch"]["votes"]) >= {0}, "an acknowledged vote was lost"
            assert matches_by_status(http) == {"playing": [], "finished": [first], "abandoned": []}
            assert "(no room)" not in db.with_suffix(".log").read_text(), "recovery had to settle an orphan"
            table.reconnect(server)
            for seat in range(humans):  # votes the crash swallowed are given again; the rematch starts
                table.clients[seat].send({"type": "rematch", "token": table.tokens[seat]})
            for client in table.clients:
                client.settle(lambda v: v["version"] == 0 and not v["over"], timeout=10)
            second = room_of(http, table.code)["match"]
            assert second != first and matches_by_status(http) == {"playing": [second], "finished": [first],
                                                                    "abandoned": []}
            host = create_room(http, name="Solo", seats=2, bots=[{"kind": "random"}], private=True)
        server.kill()

        # the very first match of a room: the kill lands inside `start`
        server = ServerProcess(db, server.port, env=crash).start()
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            try:
                http.post(f"/api/rooms/{host['room']}/start", json={"token": host["token"]})
            except httpx.HTTPError:
                pass  # the server died while answering
        assert server.died() == -signal.SIGKILL
        server = ServerProcess(db, server.port).start()
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            room = room_of(http, host["room"])
            assert (room["status"], room["match"]) == ("waiting", None)
            assert matches_by_status(http) == {"playing": [second], "finished": [first], "abandoned": []}
            started = http.post(f"/api/rooms/{host['room']}/start", json={"token": host["token"]})
            assert started.status_code == 200 and started.json()["status"] == "playing"
    finally:
        server.stop()


def test_a_database_from_the_previous_schema_is_upgraded_and_served(tmp_path):
    """tests/store/data/schema1.db was written by the release before rematch votes were stored; it
    holds a finished room, a room in play and an orphan match (a crash of that release left it)."""
    db = tmp_path / "old.db"
    shutil.copy(Path(__file__).parent.parent / "store" / "data" / "schema1.db", db)
    patient = Settings(bot_delay=0.0, disconnect_grace=60)  # nobody's seat is decided before they connect
    with ServerThread(db, patient) as server, server.http() as http:
        assert room_of(http, "OLD1")["status"] == "finished"
        assert room_of(http, "OLD2")["status"] == "playing"
        assert matches_by_status(http) == {"playing": [2], "finished": [1], "abandoned": [3]}
        assert http.get("/api/matches/1/replay", params={"step": 5}).status_code == 200
        players = [Client(server.ws_url, "OLD2", f"old2-{seat}") for seat in range(3)]
        for client in players:
            client.settle(lambda v: v["version"] == 7)
        mover = next(c for c in players if c.options)
        mover.choose(mover.options[0])
        mover.settle(lambda v: v["version"] == 8)
        for client in players:
            client.close()
