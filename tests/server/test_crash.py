"""kill -9 loses nothing: matches resume with the same state, pending decisions and views."""

from __future__ import annotations

import random
import time

import httpx

from intrigue.bots import names as bot_names

from .support import Client, ServerProcess, create_room, join

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
