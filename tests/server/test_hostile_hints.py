"""Hints as a way to take the search threads, written from docs/protocol.md ("Hints"): one address may
open 20 practice rooms an hour, each seat may ask 3 hints at once and then one every 5 seconds, and a
hint costs about 0.6 seconds of search "done in the server's bot threads" — the two threads every
searching bot of the server thinks in."""

from __future__ import annotations

import time

from intrigue.server import coach

from ..security.table import hang_up
from .support import Client, create_room


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
