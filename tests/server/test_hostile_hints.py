"""Hints as a way to take the search threads, written from docs/protocol.md ("Hints"): one address may
open 20 practice rooms an hour, each seat may ask 3 hints at once and then one every 5 seconds, and a
hint costs about 0.6 seconds of search "done in the server's bot threads" — the two threads every
searching bot of the server thinks in."""

from __future__ import annotations

import time
from dataclasses import replace

from intrigue.server import coach

from ..security.table import hang_up
from .support import FAST, Client, ServerThread, create_room


def practice_table(server, http) -> Client:
    created = create_room(http, seats=2, bots=[{"kind": "random"}], private=True,
                          options={"turn_timer": None, "window_timer": None})
    player = Client(server.ws_url, created["room"], created["token"])
    player.until(lambda m: m["type"] == "welcome")
    player.send({"type": "start", "token": created["token"]})
    player.settle(lambda v: bool(v["decision"] and v["decision"]["options"]), timeout=10)
    return player


def test_many_practice_rooms_asking_at_once_cannot_take_every_search_thread(server, http):
    players = [practice_table(server, http) for _ in range(8)]
    for player in players:
        player.send({"type": "hint", "token": player.token, "version": player.view["version"]})
    answers = [player.until(lambda m: m["type"] in ("hint", "error"), timeout=20) for player in players]
    # Before the fix all 8 were computed, one after another, in the searching bots' two threads (a searching
    # bot anywhere on the server waited for all of them: 3.5 s with 12 rooms, and one address may open 20).
    assert coach.HINTS_AT_ONCE == 2
    hints = [a for a in answers if a["type"] == "hint"]
    busy = [a for a in answers if a["type"] == "error"]
    assert len(hints) >= 2 and len(busy) >= 8 - 3  # (a fast search may end before the third asks)
    assert all(a["code"] == "rate_limited" and a["about"] == "hint" and "busy" in a["message"] for a in busy)
    # Asking again once the coach is free gets the hint.
    waiting = [p for p, a in zip(players, answers) if a["type"] == "error"][:2]
    deadline = time.monotonic() + 20
    for player in waiting:
        while True:
            player.send({"type": "hint", "token": player.token, "version": player.view["version"]})
            answer = player.until(lambda m: m["type"] in ("hint", "error"), timeout=10)
            if answer["type"] == "hint":
                assert answer["option"] in player.options
                break
            assert answer["code"] == "rate_limited" and time.monotonic() < deadline
            time.sleep(0.3)
    for player in players:
        hang_up(player)


def test_a_hint_goes_to_no_connection_that_no_longer_holds_the_seat(tmp_path):
    """"The answer comes later, to the connection that asked only", and "spectators ... get no hints". The
    answer was sent to that connection whatever it had become meanwhile: one that had said hello to another
    room got a `hint` there (the message names no room: a client reads it as advice for its new table), one
    whose seat had left the room (it watches now) a hint for a seat it no longer holds."""
    settings = replace(FAST, bot_delay=5.0, hint_milliseconds=600, disconnect_grace=60)  # the decision stays open
    with ServerThread(tmp_path / "hints.db", settings) as server, server.http() as http:
        elsewhere = create_room(http, seats=2, private=True)["room"]
        for move_on in ("hello", "leave"):
            player = practice_table(server, http)
            player.send({"type": "hint", "token": player.token, "version": player.view["version"],
                         "match": player.match})
            if move_on == "hello":
                player.hello(elsewhere)
            else:
                assert http.post(f"/api/rooms/{player.room}/leave", json={"token": player.token}).status_code == 200
            player.until(lambda m: m["type"] == "welcome" and m["seat"] is None)
            seen = len(player.messages)
            player.drain(2.0)  # the coach's 0.6 s and more
            late = [m for m in player.messages[seen:] if m["type"] == "hint" or m.get("about") == "hint"]
            assert late == [], (move_on, late)
            hang_up(player)
