"""What the server adds for the table: bots with friendly names and a difficulty word, the
game's table data, what the timer will choose (to the seat it chooses for only), and who
timed out (to everyone only when everyone may see who was deciding)."""

from __future__ import annotations

import time

from .support import Client, create_room, join


def test_bots_sit_down_with_friendly_names_and_say_how_hard_they_are(server, http):
    created = create_room(http, name="Ada", seats=4, bots=[{"kind": "random"}, {"kind": "heuristic", "personality": "bold"},
                                                            {"kind": "ismcts"}])
    room = http.get(f"/api/rooms/{created['room']}").json()
    names = [seat["name"] for seat in room["seats"]]
    assert names[0] == "Ada" and len(set(names)) == 4  # the host's name is not given to a bot
    assert not any(name.startswith("Bot") for name in names)
    kinds = {entry["kind"]: entry["difficulty"] for entry in http.get("/api/bots").json()}
    assert kinds == {"random": "easy", "heuristic": "normal", "ismcts": "hard"}


def test_table_data_route(server, http):
    answer = http.get("/api/games/bang/table", params={"lang": "es"})
    assert answer.status_code == 200
    data = answer.json()
    assert data["messages"]["Missed!"] == "¡Fallaste!" and data["art"]["Barrel"] == "barrel"
    assert data["cards"]["suits"]["H"] == "♥"
    assert http.get("/api/games/nope/table").json()["error"]["code"] == "no_game"
    bad = http.get("/api/games/coup/table", params={"lang": "x1"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_message"


def test_the_timer_says_what_it_will_choose_and_who_ran_out(server, http):
    created = create_room(http, options={"turn_timer": 1, "window_timer": 1})
    joined = join(http, created["room"], "Blake")
    aria = Client(server.ws_url, created["room"], created["token"])
    blake = Client(server.ws_url, created["room"], joined["token"])
    watcher = Client(server.ws_url, created["room"])
    aria.send({"type": "start", "token": created["token"]})
    aria.settle(lambda v: v["decision"] is not None)
    blake.settle(lambda v: v["decision"] is not None)
    mover, other = (aria, blake) if aria.options else (blake, aria)
    assert mover.timer["default"] == "Income"           # Coup's default on a turn, told to the mover
    assert "default" not in (other.timer or {})         # and to nobody else
    version = mover.view["version"]
    started = time.monotonic()
    message = watcher.until(lambda m: m["type"] == "view" and m["view"]["version"] > version, timeout=5)
    assert time.monotonic() - started > 0.5
    name = mover.view["you"]
    assert {"version": version, "player": name} in message["timeouts"]  # everyone saw who was deciding
    for client in (aria, blake, watcher):
        client.close()
