"""`hello` as a cost amplifier, written from docs/protocol.md: "a new `hello` moves" a connection, and each
one is answered with `welcome`, the recent chat, `room` and the whole `view` (its observation built for
the connection). Within the 10 messages a second every connection may send, 90 connections of one
address saying hello to a 16-seat Werewolf room kept the event loop busy: pings waited 330 ms (p50)
instead of 9 ms for the same traffic of pings."""

from __future__ import annotations

from intrigue.server.settings import Settings

from ..security.table import hang_up
from .support import Client, ServerThread, create_room


def test_a_connection_saying_hello_over_and_over_is_refused_after_five(tmp_path):
    with ServerThread(tmp_path / "hello.db", Settings(bot_delay=0.0, room_quota=100)) as defaults, \
            defaults.http() as http:
        created = create_room(http, game="werewolf", seats=16, bots=[{"kind": "random"}] * 15, private=True,
                              options={"turn_timer": None, "window_timer": None})
        assert http.post(f"/api/rooms/{created['room']}/start", json={"token": created["token"]}).status_code == 200
        watcher = Client(defaults.ws_url)
        for _ in range(30):  # within the connection's burst of 40 messages: only hello's own limit applies
            watcher.send({"type": "hello", "room": created["room"]})
        watcher.send({"type": "ping"})
        watcher.until(lambda m: m["type"] == "pong")
        welcomes = [m for m in watcher.messages if m["type"] == "welcome"]
        refused = [m for m in watcher.messages if m.get("code") == "rate_limited"]
        # Before: 30 welcomes, each with a view built anew (a view still unsent is replaced by the next, so
        # fewer arrive). Now the burst of 5, and the refill of one a second on a slow machine.
        assert 5 <= len(welcomes) <= 7 and len(welcomes) + len(refused) == 30
        assert "hello" in refused[0]["message"]
        # The connection stays open and in the room it joined: a refused hello changes nothing.
        watcher.send({"type": "ping"})
        assert watcher.until(lambda m: m["type"] == "pong")
        assert watcher.messages[0] == {"type": "welcome", "room": created["room"], "seat": None, "name": None,
                                       "spectator": True}
        # A new connection says its own hello at once (the browser's reconnection).
        other = Client(defaults.ws_url, created["room"])
        assert other.until(lambda m: m["type"] == "view")["view"]["game"] == "werewolf"
        for client in (watcher, other):
            hang_up(client)
