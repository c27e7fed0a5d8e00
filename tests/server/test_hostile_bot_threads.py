"""The searching bots' two threads, shared by every table of a server (docs/security.md: "Searching bots
think off the event loop (2 at a time)"). One address may create 20 rooms an hour, each full of
`ismcts:strong` bots (two seconds a move here), start them and leave: its tables must not make every
other table's bots wait behind all of theirs."""

from __future__ import annotations

import statistics
import time

from intrigue import bots as bot_registry
from intrigue.bots import Bot
from intrigue.server.settings import Settings

from ..security.table import hang_up
from .support import Client, ServerThread

#: What one move of the stand-in searching bot takes (sleeping: the test costs the shared machine no CPU).
THINK = 0.25


class Slow(Bot):
    """A bot that thinks in the bot threads (any kind but the plain random one does) for ``THINK`` seconds."""

    def choose(self, view):  # noqa: ANN001, ANN201
        time.sleep(THINK)
        return super().choose(view)


def test_one_address_rooms_of_searching_bots_do_not_hold_up_another_address_bots(tmp_path, monkeypatch):
    monkeypatch.setitem(bot_registry.REGISTRY, "slow", (Slow, [], None))
    settings = Settings(bot_delay=0.0, room_quota=100, message_rate=100, message_burst=200)
    server = ServerThread(tmp_path / "turns.db", settings)
    server.server.config.proxy_headers = True  # so that the test's clients can come from two addresses
    server.server.config.forwarded_allow_ips = "127.0.0.1"
    with server, server.http() as http:
        hog, player = {"X-Forwarded-For": "10.0.0.1"}, {"X-Forwarded-For": "10.0.0.2"}
        for _ in range(12):  # ten seats, nine bots each: a challenge window asks all nine at once
            created = http.post("/api/rooms", headers=hog, json={
                "game": "coup", "name": "Hog", "seats": 10, "private": True, "bots": [{"kind": "slow"}] * 9,
                "options": {"turn_timer": None, "window_timer": None}}).json()
            assert http.post(f"/api/rooms/{created['room']}/start", json={"token": created["token"]}).status_code == 200
            assert http.post(f"/api/rooms/{created['room']}/leave", json={"token": created["token"]}).status_code == 200
        created = http.post("/api/rooms", headers=player, json={
            "game": "coup", "name": "Aria", "seats": 3, "private": True, "bots": [{"kind": "slow"}] * 2,
            "options": {"turn_timer": None, "window_timer": None}}).json()
        aria = Client(server.ws_url, created["room"], created["token"])
        aria.until(lambda m: m["type"] == "welcome")
        aria.send({"type": "start", "token": created["token"]})
        waits: list[float] = []
        deadline = time.monotonic() + 60
        while len(waits) < 6 and time.monotonic() < deadline:
            aria.settle(lambda v: v["over"] or any(bot in v["waiting"] for bot in ("Ada", "Basil")) or bool(aria.options), timeout=30)
            if aria.view["over"]:  # again
                match = aria.match
                aria.send({"type": "rematch", "token": created["token"], "match": match})
                aria.until(lambda m: m["type"] == "view" and m["match"] != match, timeout=30)
                continue
            if aria.options:
                aria.choose(aria.options[0])
                aria.settle(lambda v, n=aria.view["version"]: v["version"] > n or v["over"], timeout=30)
                continue
            began, version = time.monotonic(), aria.view["version"]
            aria.settle(lambda v: v["version"] > version or v["over"], timeout=30)  # Ada's move (or Basil's)
            waits.append(time.monotonic() - began)
        hang_up(aria)
    assert len(waits) == 6, waits
    # Before the fix: first come, first served, the bots' moves waited behind the hog's queue (3 s median here,
    # up to 10 s, for a quarter-second move); taking turns, behind at most one move of the hog's per thread.
    assert statistics.median(waits) < 6 * THINK, waits
