"""The lobby's routes taken at their word (docs/protocol.md, docs/bots.md): `GET /api/bots` says which
games each bot plays (`games`, `null` for every game), and docs/bots.md that only tutorial rooms seat the
`tutorial` bot. A script that asks `POST /api/rooms` for something else must be refused, not seated."""

from __future__ import annotations

import time

import pytest

from ..security.table import hang_up
from .support import Client, create_room, join


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


def test_a_script_joining_and_leaving_cannot_make_a_message_for_everyone_each_time(server, http):
    """docs/protocol.md: `room` is sent when someone joins or leaves, and the join and leave routes take
    any number of requests. Joining and leaving over and over must not reach every connection each time."""
    created = create_room(http, name="Aria", seats=4)
    aria = Client(server.ws_url, created["room"], created["token"])
    watcher = Client(server.ws_url, created["room"])
    for client in (aria, watcher):
        client.until(lambda m: m["type"] == "room")
    time.sleep(1.0)  # (the room's allowance refills: the hellos above used some)
    watcher.drain(0.1)
    seen = len(watcher.messages)
    started = time.monotonic()
    for _ in range(100):
        seat = join(http, created["room"], "Mallory")
        assert http.post(f"/api/rooms/{created['room']}/leave", json={"token": seat["token"]}).status_code == 200
    last = join(http, created["room"], "Blake")
    took = time.monotonic() - started
    watcher.drain(0.8)
    rooms = [m for m in watcher.messages[seen:] if m["type"] == "room"]
    # Before the fix: 201 room messages to every connection (two per join and leave, 500 a second).
    assert 2 <= len(rooms) <= 21 + 2 * (took + 1)
    assert [s["name"] for s in rooms[-1]["seats"]] == ["Aria", "Blake", None, None]  # the last says how it ended
    assert [s["name"] for s in http.get(f"/api/rooms/{created['room']}").json()["seats"]] == ["Aria", "Blake", None, None]
    # The one who joins is told at once all the same: the hello answers with the room as it is.
    blake = Client(server.ws_url, created["room"], last["token"])
    assert blake.until(lambda m: m["type"] == "room")["seats"][1] == {"seat": 1, "name": "Blake", "bot": None,
                                                                      "connected": True, "left": False}
    for client in (aria, watcher, blake):
        hang_up(client)


def test_the_open_room_list_shows_every_change_at_once(server, http):
    """`GET /api/rooms` is built once per change: after each change the list says what the room says."""
    created = create_room(http, name="Aria", seats=3, bots=[{"kind": "random"}])
    code = created["room"]

    def agree() -> None:
        listed = [r for r in http.get("/api/rooms").json() if r["room"] == code]
        alone = http.get(f"/api/rooms/{code}")
        assert listed == ([alone.json()] if alone.status_code == 200 and alone.json()["status"] != "closed" else [])

    agree()
    blake = join(http, code, "Blake")
    agree()
    aria = Client(server.ws_url, code, created["token"])
    aria.until(lambda m: m["type"] == "room")
    agree()  # Aria connected
    aria.close()
    time.sleep(0.2)
    agree()  # and gone again
    assert http.post(f"/api/rooms/{code}/leave", json={"token": blake["token"]}).status_code == 200
    agree()
    assert http.post(f"/api/rooms/{code}/start", json={"token": created["token"]}).status_code == 200
    agree()  # playing
    assert http.post(f"/api/rooms/{code}/leave", json={"token": created["token"]}).status_code == 200
    deadline = time.monotonic() + 30
    while http.get(f"/api/rooms/{code}").status_code == 200:  # the bot and the default play it out, then it closes
        assert time.monotonic() < deadline
        time.sleep(0.1)
    agree()
    private = create_room(http, name="Aria", seats=2, private=True)
    assert private["room"] not in {r["room"] for r in http.get("/api/rooms").json()}


def test_a_refused_room_option_is_explained_in_words(server, http):
    """The refusal names each known option once (the timers were listed twice) and the kind of value
    wanted in words ("must be a int", "must be a bool" before)."""
    def refusal(options: dict) -> str:
        answer = http.post("/api/rooms", json={"game": "coup", "name": "Aria", "seats": 2, "options": options})
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_message"
        return answer.json()["error"]["message"]

    known = refusal({"colour": "red"}).split("(known: ")[1].rstrip(")").split(", ")
    assert sorted(known) == sorted(set(known)) and "turn_timer" in known and "reformation" in known
    assert refusal({"reformation": "yes"}) == "option reformation must be true or false"
    assert refusal({"characters": 1}) == "option characters must be a string"
    answer = http.post("/api/rooms", json={"game": "bang", "name": "Aria", "seats": 3,
                                           "options": {"character_choice": 1.5}})
    assert answer.json()["error"]["message"] == "option character_choice must be a whole number"
