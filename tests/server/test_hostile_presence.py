"""Presence as an amplifier, written from docs/protocol.md: "`room` is sent on every change of the room
(someone … connects …)", and "a new `hello` moves" a connection. A seat's connection saying hello with
and without its token, over and over, connects and disconnects the seat each time."""

from __future__ import annotations

import time

from ..security.table import hang_up
from .support import Client, create_room, join


def test_a_seat_flickering_between_seat_and_watcher_cannot_make_a_message_for_everyone_each_time(server, http):
    created = create_room(http, seats=2, private=True, options={"turn_timer": None, "window_timer": None})
    blake = join(http, created["room"], "Blake")
    other = Client(server.ws_url, created["room"], blake["token"])
    aria = Client(server.ws_url, created["room"], created["token"])
    for client in (other, aria):
        client.until(lambda m: m["type"] == "welcome")
    watcher = Client(server.ws_url, created["room"])
    watcher.until(lambda m: m["type"] == "room")
    time.sleep(1.0)  # (the room's presence allowance refills: the connections above used some)
    watcher.drain(0.1)
    seen = len(watcher.messages)
    for flip in range(36):  # within the connection's own burst of 40 messages
        aria.send({"type": "hello", "room": created["room"], **({"token": created["token"]} if flip % 2 else {})})
    aria.send({"type": "ping"})
    aria.until(lambda m: m["type"] == "pong")
    watcher.drain(0.8)
    rooms = [m for m in watcher.messages[seen:] if m["type"] == "room"]
    # Before the fix: 36 room messages to every connection of the room (10 a second per connection, sustained).
    assert 2 <= len(rooms) <= 21
    assert rooms[-1]["seats"][0]["connected"] is True  # the last one says how it ended: Aria is back
    # The flickering connection itself was answered every time (welcome, room, as documented).
    assert sum(m["type"] == "welcome" for m in aria.messages) == 37
    for client in (aria, other, watcher):
        hang_up(client)
