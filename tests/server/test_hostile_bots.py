"""Bots a room asks for, written from docs/protocol.md (`POST /api/rooms`: a bot seat is `kind` or
`kind:personality`; rooms take the listed personalities): a bot's thinking budget is the server's CPU,
shared by every table's searching bots (two threads)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("kind", ["ismcts:600000ms", "ismcts:100000000", "ismcts:pure-99999999", "ismcts:fast",
                                  " random", "random "])
def test_a_personality_cannot_be_smuggled_in_the_kind(http, kind):
    """`{"kind": "ismcts:600000ms"}` seated a bot that thinks ten minutes a move on one of the two threads
    every searching bot of the server shares: the listed personalities were checked only in `personality`."""
    before = len(http.get("/api/rooms").json())
    answer = http.post("/api/rooms", json={"game": "coup", "name": "Aria", "seats": 2, "bots": [{"kind": kind}]})
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["code"] == "bad_message" and "personality" in error["message"], error
    assert len(http.get("/api/rooms").json()) == before
    # The same bot asked for as documented is seated with a listed personality.
    listed = http.post("/api/rooms", json={"game": "coup", "name": "Aria", "seats": 2, "private": True,
                                           "bots": [{"kind": "ismcts", "personality": "fast"}]})
    assert listed.status_code == 201, listed.text
    seats = http.get(f"/api/rooms/{listed.json()['room']}").json()["seats"]
    assert [s["bot"] for s in seats] == [None, "ismcts:fast"]
