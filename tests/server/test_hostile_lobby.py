"""The lobby's routes taken at their word (docs/protocol.md, docs/bots.md): `GET /api/bots` says which
games each bot plays (`games`, `null` for every game), and docs/bots.md that only tutorial rooms seat the
`tutorial` bot. A script that asks `POST /api/rooms` for something else must be refused, not seated."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("game,seats,bot", [
    ("bang", 4, {"kind": "heuristic"}),
    ("werewolf", 6, {"kind": "heuristic", "personality": "bold"}),
    ("coup", 2, {"kind": "tutorial"}),
    ("bang", 3, {"kind": "tutorial"}),
], ids=["heuristic-in-bang", "heuristic-in-werewolf", "tutorial-in-coup", "tutorial-in-bang"])
def test_a_room_cannot_seat_a_bot_the_lobby_does_not_offer_for_its_game(server, http, game, seats, bot):
    listed = {b["kind"]: b["games"] for b in http.get("/api/bots").json()}
    assert bot["kind"] not in listed or game not in (listed[bot["kind"]] or [game])
    before = http.get("/api/rooms").json()
    answer = http.post("/api/rooms", json={"game": game, "name": "Aria", "seats": seats, "bots": [bot]})
    # Before the fix: 201, and a seat labelled with a bot the table shows as "normal" (or a tutorial's
    # scripted bot at a real table) that played random moves.
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_message", answer.text
    assert http.get("/api/rooms").json() == before


def test_the_bots_the_lobby_offers_for_a_game_are_seated(server, http):
    for kind in http.get("/api/bots").json():
        for game in kind["games"] or ["coup", "bang"]:
            seats = 4 if game == "bang" else 2
            answer = http.post("/api/rooms", json={"game": game, "name": "Aria", "seats": seats,
                                                   "bots": [{"kind": kind["kind"]}], "private": True})
            assert answer.status_code == 201, answer.text
    tutorial = http.post("/api/games/coup/tutorial", json={"name": "Zoe"})
    assert tutorial.status_code == 201
    seats = http.get(f"/api/rooms/{tutorial.json()['room']}").json()["seats"]
    assert [s["bot"] for s in seats[1:]] == ["tutorial"] * (len(seats) - 1)
