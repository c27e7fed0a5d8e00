"""The protocol of docs/protocol.md over a real socket: every command, error and refusal."""

from __future__ import annotations

import json
import random
import time

import pytest

from .support import Client, create_room, join


def table(server, http, **room):
    """A private two-seat Coup room with timers off, both players connected, started."""
    created = create_room(http, private=True, options={"turn_timer": None, "window_timer": None}, **room)
    joined = join(http, created["room"], "Blake")
    players = [Client(server.ws_url, created["room"], created["token"]),
               Client(server.ws_url, created["room"], joined["token"])]
    for player in players:
        player.until(lambda m: m["type"] == "welcome")
    players[0].send({"type": "start", "token": created["token"]})
    for player in players:
        player.settle(lambda v: v["decision"] is not None)
    return created["room"], players


def pending(players):
    return next(p for p in players if p.options)


def idle(players):
    return next(p for p in players if not p.options)


# -- the lobby over HTTP -------------------------------------------------------------------------------
def test_games_and_bots_are_listed(http):
    games = {g["id"]: g for g in http.get("/api/games").json()}
    assert games["coup"]["min_players"] == 2 and games["coup"]["max_players"] == 10
    assert games["coup"]["options"] == {"turn_timer": 30, "window_timer": 15, "characters": "ambassador",
                                        "reformation": False, "choose_allegiance": False,
                                        "two_player_setup": "simple"}
    assert "random" in {b["kind"] for b in http.get("/api/bots").json()}


def test_create_join_leave_and_the_open_room_list(http):
    created = create_room(http, seats=2)
    code = created["room"]
    assert len(code) == 4 and created["seat"] == 0 and len(created["token"]) >= 32
    assert created["url"] == f"/room/{code}"
    listed = {r["room"]: r for r in http.get("/api/rooms").json()}
    assert listed[code]["status"] == "waiting"
    assert [s["name"] for s in listed[code]["seats"]] == ["Aria", None]
    blake = join(http, code.lower(), "Blake")  # codes are case-insensitive
    assert blake["seat"] == 1
    full = http.post(f"/api/rooms/{code}/join", json={"name": "Casey"})
    assert full.status_code == 409 and full.json()["error"]["code"] == "room_full"
    left = http.post(f"/api/rooms/{code}/leave", json={"token": blake["token"]})
    assert left.status_code == 200
    assert http.get(f"/api/rooms/{code}").json()["seats"][1]["name"] is None
    again = join(http, code, "Aria")  # same display name: made distinct, names never identify a seat
    assert http.get(f"/api/rooms/{code}").json()["seats"][1]["name"] == "Aria 2"
    assert again["token"] != blake["token"]
    stale = http.post(f"/api/rooms/{code}/leave", json={"token": blake["token"]})
    assert stale.status_code == 403 and stale.json()["error"]["code"] == "bad_token"


def test_private_rooms_are_not_listed(http):
    created = create_room(http, private=True)
    assert created["room"] not in {r["room"] for r in http.get("/api/rooms").json()}
    assert http.get(f"/api/rooms/{created['room']}").status_code == 200


def test_start_rules(http):
    created = create_room(http, seats=3)
    code, token = created["room"], created["token"]
    few = http.post(f"/api/rooms/{code}/start", json={"token": token})
    assert few.status_code == 409 and few.json()["error"]["code"] == "not_enough_players"
    blake = join(http, code, "Blake")
    guest = http.post(f"/api/rooms/{code}/start", json={"token": blake["token"]})
    assert guest.status_code == 403 and guest.json()["error"]["code"] == "not_host"
    started = http.post(f"/api/rooms/{code}/start", json={"token": token})
    assert started.status_code == 200 and started.json()["status"] == "playing"
    room = http.get(f"/api/rooms/{code}").json()
    assert len(room["seats"]) == 2, "the empty third seat leaves the table"
    twice = http.post(f"/api/rooms/{code}/start", json={"token": token})
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "already_started"
    late = http.post(f"/api/rooms/{code}/join", json={"name": "Casey"})
    assert late.status_code == 409 and late.json()["error"]["code"] == "already_started"


@pytest.mark.parametrize("body, code, status", [
    ({"game": "chess", "name": "A", "seats": 2}, "bad_message", 400),
    ({"game": "coup", "name": "A", "seats": 11}, "bad_message", 400),
    ({"game": "coup", "name": "A", "seats": 2, "bots": [{"kind": "random"}, {"kind": "random"}]}, "bad_message", 400),
    ({"game": "coup", "name": "A", "seats": 3, "bots": [{"kind": "oracle"}]}, "bad_message", 400),
    ({"game": "coup", "name": "A", "seats": 2, "options": {"turn_timer": None}}, "bad_message", 400),
    ({"game": "coup", "name": "A", "seats": 2, "options": {"turn_timer": 0}}, "bad_message", 400),
    ({"game": "coup", "name": "A", "seats": 2, "options": {"speed": 3}}, "bad_message", 400),
    ({"game": "coup", "name": "A", "seats": 3, "options": {"characters": "bishop"}}, "bad_message", 400),
    ({"game": "bang", "name": "A", "seats": 4, "options": {"duel_challenger_loss": "garbage"}}, "bad_message", 400),
    ({"game": "bang", "name": "A", "seats": 4, "options": {"character_choice": 0}}, "bad_message", 400),
    ({"game": "coup", "name": "\u0000\u200b ", "seats": 2}, "bad_message", 400),
    ({"game": "coup", "name": "A", "seats": "two"}, "schema", 422),
    ({"game": "coup", "name": "A", "seats": True}, "schema", 422),
    ({"game": "coup", "name": "A", "seats": 3.0}, "schema", 422),
    ({"game": "coup", "name": "A", "seats": 3, "private": 1}, "schema", 422),
    ({"game": "coup", "name": 7, "seats": 3}, "schema", 422),
    ({"game": "coup", "name": "A", "seats": 2, "admin": True}, "schema", 422),
])
def test_bad_room_requests_are_refused_with_a_reason(http, body, code, status):
    before = len(http.get("/api/rooms").json())
    answer = http.post("/api/rooms", json=body)
    assert answer.status_code == status, answer.text
    assert answer.json()["error"]["code"] == code and answer.json()["error"]["message"]
    assert len(http.get("/api/rooms").json()) == before


def test_games_list_the_values_an_option_may_take(http):
    coup = next(g for g in http.get("/api/games").json() if g["id"] == "coup")
    assert coup["choices"]["characters"] == ["ambassador", "inquisitor"]
    assert coup["options"]["characters"] == "ambassador" and "reformation" not in coup["choices"]  # a tick box
    made = http.post("/api/rooms", json={"game": "coup", "name": "A", "seats": 3,
                                         "options": {"characters": "inquisitor"}})
    assert made.status_code == 201, made.text
    assert http.get(f"/api/rooms/{made.json()['room']}").json()["options"]["characters"] == "inquisitor"


def test_unknown_room_and_oversized_body(http):
    missing = http.post("/api/rooms/ZZZZ/join", json={"name": "X"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_room"
    huge = http.post("/api/rooms", content=b'{"game": "coup", "name": "' + b"x" * 70_000 + b'"}',
                     headers={"content-type": "application/json"})
    assert huge.status_code == 413 and huge.json()["error"]["code"] == "too_large"


# -- live play over the WebSocket ------------------------------------------------------------------------
def test_hello_welcome_room_and_view(server, http):
    code, (aria, blake) = table(server, http)
    welcome = next(m for m in aria.messages if m["type"] == "welcome")
    assert welcome == {"type": "welcome", "room": code, "seat": 0, "name": "Aria", "spectator": False}
    room = [m for m in blake.messages if m["type"] == "room"][-1]
    assert room["status"] == "playing" and [s["name"] for s in room["seats"]] == ["Aria", "Blake"]
    assert all(s["connected"] for s in room["seats"])
    assert aria.view["seat"] == 0 and aria.view["you"] == "Aria" and aria.view["version"] == 0
    assert aria.match == blake.match and aria.timer is None  # timers are off in this room
    hands = [c for c in aria.view["components"] if c["kind"] == "hand"]
    assert [h["player"] for h in hands] == ["Aria"]


def test_spectator_sees_the_public_view_and_cannot_act(server, http):
    code, players = table(server, http)
    watcher = Client(server.ws_url, code)
    welcome = watcher.until(lambda m: m["type"] == "welcome")
    assert welcome["spectator"] is True and welcome["seat"] is None
    watcher.settle(lambda v: v is not None)
    assert watcher.view["seat"] is None
    assert not [c for c in watcher.view["components"] if c["kind"] == "hand"]
    for player in watcher.view["state"]["players"]:
        assert all(i["character"] is None for i in player["influences"] if not i["revealed"])
    watcher.send({"type": "chat", "text": "hi"})
    assert watcher.error()["code"] == "bad_token"
    watcher.send({"type": "choose", "token": "", "version": 0, "option": "Income"})
    assert watcher.error()["code"] == "bad_token"


def test_refused_choices_change_nothing(server, http):
    code, players = table(server, http)
    actor, other = pending(players), idle(players)
    version = actor.view["version"]
    other.choose("Income")
    error = other.error()
    assert error["code"] == "not_pending" and "has no choice to make now" in error["message"]
    actor.choose("Fly to the moon")
    error = actor.error()
    assert error["code"] == "not_offered" and "offered:" in error["message"]
    actor.choose(actor.options[0], version=version + 3)
    assert actor.error()["code"] == "stale_version"
    other.send({"type": "choose", "token": "forged-" + "x" * 40, "version": version, "option": "Income"})
    assert other.error()["code"] == "bad_token"
    other.send({"type": "choose", "token": other.token, "version": version, "option": actor.options[0]})
    assert other.error()["code"] == "not_pending"  # your own token only ever acts for your own seat
    actor.drain()
    assert actor.view["version"] == version


def test_a_choice_reaches_everyone_and_cannot_be_replayed(server, http):
    code, players = table(server, http)
    actor = pending(players)
    version = actor.view["version"]
    command = {"type": "choose", "token": actor.token, "version": version, "option": "Income"}
    actor.send(command)
    for player in players:
        player.settle(lambda v: v["version"] == version + 1)
        assert any("Income" in line["text"] for line in player.view["log"])
    actor.send(command)  # the same command again
    assert actor.error()["code"] == "stale_version"


def test_commands_need_a_room_first(server):
    client = Client(server.ws_url)
    client.send({"type": "choose", "token": "t" * 40, "version": 0, "option": "Income"})
    assert client.error()["code"] == "no_room"
    client.send({"type": "hello", "room": "NOPE"})
    assert client.error()["code"] == "no_room"
    client.send({"type": "ping"})
    assert client.recv() == {"type": "pong"}


def test_hello_with_a_wrong_token_is_refused_then_a_right_one_works(server, http):
    created = create_room(http)
    client = Client(server.ws_url, created["room"], "not-a-token-" + "y" * 30)
    assert client.error()["code"] == "bad_token"
    client.send({"type": "hello", "room": created["room"], "token": created["token"]})
    assert client.until(lambda m: m["type"] == "welcome")["seat"] == 0


def test_start_over_the_websocket_and_its_refusals(server, http):
    created = create_room(http, seats=3)
    host = Client(server.ws_url, created["room"], created["token"])
    host.send({"type": "start", "token": created["token"]})
    assert host.error()["code"] == "not_enough_players"
    guest_seat = join(http, created["room"], "Blake")
    guest = Client(server.ws_url, created["room"], guest_seat["token"])
    guest.send({"type": "start", "token": guest_seat["token"]})
    assert guest.error()["code"] == "not_host"
    guest.send({"type": "choose", "token": guest_seat["token"], "version": 0, "option": "Income"})
    assert guest.error()["code"] == "not_started"
    host.send({"type": "start", "token": created["token"]})
    host.settle(lambda v: v["version"] == 0)
    host.send({"type": "start", "token": created["token"]})
    assert host.error()["code"] == "already_started"


def test_chat_is_plain_text_for_the_whole_room(server, http):
    code, (aria, blake) = table(server, http)
    watcher = Client(server.ws_url, code)
    watcher.until(lambda m: m["type"] == "welcome")
    aria.send({"type": "chat", "token": aria.token, "text": "<script>alert(1)</script>\u0007 I have\n the\u202e Duke"})
    for client in (aria, blake, watcher):
        chat = client.until(lambda m: m["type"] == "chat")
        assert chat["text"] == "<script>alert(1)</script> I have the Duke"
        assert chat["from"] == "Aria" and chat["seat"] == 0
    aria.send({"type": "chat", "token": aria.token, "text": "x" * 301})
    assert "at most 300" in aria.error()["message"]
    late = Client(server.ws_url, code)  # a newcomer gets the recent chat
    assert late.until(lambda m: m["type"] == "chat")["text"] == "<script>alert(1)</script> I have the Duke"


def test_chat_is_rate_limited(server, http):
    code, (aria, blake) = table(server, http)
    for n in range(6):
        aria.send({"type": "chat", "token": aria.token, "text": f"line {n}"})
    assert aria.error()["code"] == "rate_limited"


@pytest.mark.parametrize("frame, code", [
    ("{not json", "bad_json"),
    (b"\x00\x01binary", "binary"),
    ("x" * (64 * 1024 + 1), "too_large"),
    (json.dumps({"type": "teleport"}), "unknown_type"),
    (json.dumps({"type": "choose", "token": "t", "option": "Income"}), "bad_message"),
    (json.dumps({"type": "choose", "token": "t", "version": "7", "option": "Income"}), "bad_message"),
    (json.dumps({"type": "choose", "token": "t", "version": True, "option": "Income"}), "bad_message"),
    (json.dumps([1, 2, 3]), "bad_message"),
    ("[" * 20_000 + "]" * 20_000, "bad_json"),
    (json.dumps({"type": "ping", "extra": {"a": {"b": {"c": 1}}}}), "bad_message"),
])
def test_malformed_frames_are_refused_and_the_connection_survives(server, frame, code):
    client = Client(server.ws_url)
    client.send(frame)
    error = client.error()
    assert error["code"] == code and error["message"]
    client.send({"type": "ping"})
    assert client.until(lambda m: m["type"] == "pong")


def test_a_flood_is_refused_then_disconnected(server):
    client = Client(server.ws_url)
    for _ in range(400):
        try:
            client.send({"type": "ping"})
        except Exception:  # noqa: BLE001 - the server may already have closed
            break
    assert client.closed(timeout=5)
    assert any(m.get("code") == "rate_limited" for m in client.messages)


def test_reconnection_returns_the_same_seat_with_the_full_view(server, http):
    code, (aria, blake) = table(server, http)
    pending([aria, blake]).choose("Income")
    for player in (aria, blake):
        player.settle(lambda v: v["version"] == 1)
    blake.drain()
    before = blake.view
    blake.close()
    aria.until(lambda m: m["type"] == "room" and not m["seats"][1]["connected"])
    again = Client(server.ws_url, code, blake.token)
    welcome = again.until(lambda m: m["type"] == "welcome")
    assert welcome["seat"] == 1 and welcome["name"] == "Blake"
    again.settle(lambda v: True)
    assert again.view == before
    aria.until(lambda m: m["type"] == "room" and m["seats"][1]["connected"])


def play_out(players, rng, timeout=30):
    deadline = time.monotonic() + timeout
    while not players[0].view["over"]:
        assert time.monotonic() < deadline, "the match did not end"
        for player in players:
            player.drain(0.01)
        for player in players:
            if player.options and not player.view["over"]:
                player.choose(rng.choice(player.options))
                player.settle(lambda v, n=player.view["version"]: v["version"] > n)
                break


def test_game_over_then_rematch_with_the_same_seats(server, http):
    code, players = table(server, http)
    rng = random.Random(4)
    first = players[0].match
    players[0].send({"type": "rematch", "token": players[0].token})
    assert players[0].error()["code"] == "not_over"
    play_out(players, rng)
    for player in players:
        player.settle(lambda v: v["over"])
        assert player.view["winners"]
    players[0].choose("Income")
    assert players[0].error()["code"] == "over"
    players[0].send({"type": "rematch", "token": players[0].token})
    vote = players[1].until(lambda m: m["type"] == "room" and m["rematch"]["votes"] == [0])
    assert vote["rematch"]["needed"] == [0, 1]
    players[1].send({"type": "rematch", "token": players[1].token})
    for player in players:
        player.until(lambda m: m["type"] == "view" and m["match"] != first)
        assert player.view["version"] == 0 and player.view["players"] == ["Aria", "Blake"]


def test_bots_fill_seats_and_play_through_seat_views(server, http):
    created = create_room(http, seats=3, bots=[{"kind": "random"}, {"kind": "random"}], private=True,
                          options={"turn_timer": None, "window_timer": None})
    human = Client(server.ws_url, created["room"], created["token"])
    human.send({"type": "start", "token": created["token"]})
    human.settle(lambda v: v is not None)
    room = [m for m in human.messages if m["type"] == "room"][-1]
    assert [s["bot"] for s in room["seats"]] == [None, "random", "random"]
    play_out([human], random.Random(5))
    assert human.view["over"]


def test_the_timer_decides_with_the_games_default(server, http):
    created = create_room(http, options={"turn_timer": 1, "window_timer": 1})
    joined = join(http, created["room"], "Blake")
    aria = Client(server.ws_url, created["room"], created["token"])
    blake = Client(server.ws_url, created["room"], joined["token"])
    aria.send({"type": "start", "token": created["token"]})
    aria.settle(lambda v: v["decision"] is not None)
    assert aria.timer["seconds"] == 1 and 0 <= aria.timer["seconds_left"] <= 1 and aria.timer["kind"] == "turn"
    started = time.monotonic()
    aria.settle(lambda v: v["version"] >= 1, timeout=5)
    assert time.monotonic() - started > 0.5
    assert "Income" in " ".join(line["text"] for line in aria.view["log"])  # Coup's default turn action
    blake.close()


def test_a_disconnected_player_never_blocks_the_game(server, http):
    code, (aria, blake) = table(server, http)  # timers off: the grace period (0.5 s here) decides
    actor = pending([aria, blake])
    other = blake if actor is aria else aria
    version = actor.view["version"]
    actor.close()
    other.settle(lambda v: v["version"] > version, timeout=5)


def test_leaving_during_a_match_hands_the_seat_to_the_default(server, http):
    code, (aria, blake) = table(server, http)
    actor = pending([aria, blake])
    other = blake if actor is aria else aria
    version = actor.view["version"]
    assert http.post(f"/api/rooms/{code}/leave", json={"token": actor.token}).status_code == 200
    other.settle(lambda v: v["version"] > version, timeout=5)
    room = [m for m in other.messages if m["type"] == "room"][-1]
    assert room["seats"][actor.view["seat"]]["left"] is True
    actor.send({"type": "choose", "token": actor.token, "version": other.view["version"], "option": "Income"})
    assert actor.error()["code"] == "bad_token"


# -- the web client's files and the schema ---------------------------------------------------------------
def test_pages_and_static_files_are_served_and_nothing_else(server, http):
    for path in ("/", "/history", "/room/K7QX", "/replay/1"):
        answer = http.get(path)
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html"), path
    for path in ("/static/../../../pyproject.toml", "/static/%2e%2e/%2e%2e/%2e%2e/pyproject.toml",
                 "/static/..%2f..%2f..%2fpyproject.toml", "/room/../../pyproject.toml"):
        answer = http.get(path)
        assert answer.status_code == 404 or "[project]" not in answer.text, path
    assert http.get("/openapi.json").json()["paths"]["/api/rooms"]["post"]


def test_a_missing_page_says_which_file_is_missing(tmp_path):
    from .support import ServerThread

    with ServerThread(tmp_path / "x.db", static=tmp_path / "empty") as bare, bare.http() as http:
        answer = http.get("/")
        assert answer.status_code == 404 and "index.html" in answer.json()["error"]["message"]


def test_room_creation_is_limited_per_client(tmp_path):
    from intrigue.server.settings import Settings

    from .support import ServerThread

    with ServerThread(tmp_path / "q.db", Settings(room_quota=2)) as limited, limited.http() as http:
        create_room(http)
        create_room(http)
        third = http.post("/api/rooms", json={"game": "coup", "name": "A", "seats": 2})
        assert third.status_code == 429 and third.json()["error"]["code"] == "quota"


def test_windows_get_the_window_timer_and_turns_the_turn_timer():
    from intrigue.engine.match import Decision
    from intrigue.engine.timing import is_window

    assert not is_window(Decision(3, "single_player_choice", {0: ["Income", "Tax"]}))
    assert not is_window(Decision(8, "single_player_choice", {1: ["Lose Duke", "Lose Captain"]}))
    assert is_window(Decision(4, "all_players_action", {1: ["Challenge", "Pass"], 2: ["Challenge", "Pass"]}))
    assert is_window(Decision(14, "single_player_choice", {2: ["Block Captain", "Block Ambassador", "Pass"]}))


def test_empty_seats_leave_the_table_and_connections_learn_their_new_seat(server, http):
    created = create_room(http, seats=4)
    code = created["room"]
    blake = join(http, code, "Blake")
    casey = join(http, code, "Casey")
    assert http.post(f"/api/rooms/{code}/leave", json={"token": blake["token"]}).status_code == 200
    watcher = Client(server.ws_url, code, casey["token"])
    assert watcher.until(lambda m: m["type"] == "welcome")["seat"] == 2
    assert http.post(f"/api/rooms/{code}/start", json={"token": created["token"]}).status_code == 200
    assert watcher.until(lambda m: m["type"] == "welcome")["seat"] == 1
    watcher.settle(lambda v: v is not None)
    assert watcher.view["seat"] == 1 and watcher.view["players"] == ["Aria", "Casey"]


def test_names_are_plain_text_cut_to_length(server, http):
    created = create_room(http, name="<b onclick=x>Aria</b>\u0007\u202e" + "z" * 150)
    seat = http.get(f"/api/rooms/{created['room']}").json()["seats"][0]
    assert seat["name"] == "<b onclick=x>Aria</b>zzz"  # control/format characters gone, 24 characters
    long = http.post("/api/rooms", json={"game": "coup", "name": "x" * 201, "seats": 2})
    assert long.status_code == 422


def test_an_unanswered_window_closes_when_its_timer_runs_out(server, http):
    created = create_room(http, options={"turn_timer": 60, "window_timer": 1})
    joined = join(http, created["room"], "Blake")
    players = [Client(server.ws_url, created["room"], created["token"]),
               Client(server.ws_url, created["room"], joined["token"])]
    players[0].send({"type": "start", "token": created["token"]})
    for player in players:
        player.settle(lambda v: v["decision"] is not None)
    actor = pending(players)
    assert actor.timer["kind"] == "turn" and actor.timer["seconds"] == 60
    actor.choose("Tax")
    other = idle(players)
    other.settle(lambda v: v["version"] == 1)
    assert other.options == ["Challenge", "Pass"] and other.timer["kind"] == "window"
    other.settle(lambda v: v["version"] == 2, timeout=5)  # nobody answered: Pass
    assert any("takes 3 coins" in line["text"] for line in other.view["log"])
    assert other.timer["kind"] == "turn" and other.timer["seconds"] == 60


def test_a_burst_of_rooms_all_play_to_the_end(server, http):
    rooms = []
    for _ in range(25):
        created = create_room(http, seats=4, bots=[{"kind": "random"}] * 3, private=True,
                              options={"turn_timer": None, "window_timer": None})
        started = http.post(f"/api/rooms/{created['room']}/start", json={"token": created["token"]})
        assert started.status_code == 200
        rooms.append({**created, "match": started.json()["match"]})
    for created in rooms:  # the human leaves at once: the bots and the default play every seat
        assert http.post(f"/api/rooms/{created['room']}/leave", json={"token": created["token"]}).status_code == 200
    deadline = time.monotonic() + 60
    while True:
        states = [http.get(f"/api/rooms/{c['room']}") for c in rooms]
        if all(state.status_code == 404 for state in states):  # finished, nobody human left: closed
            break
        assert time.monotonic() < deadline, "some rooms never finished"
        time.sleep(0.2)
    finished = {m["match"] for m in http.get("/api/matches", params={"limit": 500}).json()}
    assert {c["match"] for c in rooms} <= finished  # (by match: the list names no private room)


@pytest.mark.parametrize("game_id", __import__("intrigue.games", fromlist=["installed"]).installed())
def test_every_installed_game_plays_through_the_server(server, http, game_id):
    game = next(g for g in http.get("/api/games").json() if g["id"] == game_id)
    seats = max(game["min_players"], min(4, game["max_players"]))
    created = create_room(http, game=game_id, seats=seats, bots=[{"kind": "random"}] * (seats - 1), private=True,
                          options={"turn_timer": None, "window_timer": None})
    watcher = Client(server.ws_url, created["room"])
    watcher.until(lambda m: m["type"] == "welcome")
    assert http.post(f"/api/rooms/{created['room']}/start", json={"token": created["token"]}).status_code == 200
    assert http.post(f"/api/rooms/{created['room']}/leave", json={"token": created["token"]}).status_code == 200
    watcher.settle(lambda v: v["over"], timeout=60)
    assert watcher.view["game"] == game_id and watcher.view["seat"] is None
    replay = http.get(f"/api/matches/{watcher.match}/replay", params={"step": watcher.view["version"], "seat": "all"})
    assert replay.status_code == 200 and replay.json()["view"]["over"]


def test_idle_waiting_and_finished_rooms_are_swept_but_never_a_live_match(server, http):
    from intrigue.store import open_store

    lobby = server.app.state.lobby
    waiting = create_room(http)["room"]
    code, players = table(server, http)  # playing, and its players are connected
    for player in players:
        player.close()
    time.sleep(0.2)
    later = time.monotonic() + lobby.settings.idle_close + 1
    closed = lobby.sweep(now=later)  # (the test reads the lobby from its own thread: only a sweep, no awaits)
    assert waiting in closed and code not in closed
    assert http.get(f"/api/rooms/{waiting}").status_code == 404
    assert http.get(f"/api/rooms/{code}").json()["status"] == "playing"
    assert open_store(server.store.path).load_room(waiting).status == "closed"


def test_a_frame_over_a_mebibyte_closes_that_connection_only(server, http):
    client = Client(server.ws_url)
    client.send("x" * (1024 * 1024 + 10))
    assert client.closed(timeout=5)
    other = Client(server.ws_url)
    other.send({"type": "ping"})
    assert other.recv() == {"type": "pong"}


# -- the message models and the fixes of issue 16 -------------------------------------------------------------
@pytest.mark.parametrize("kind", ["choose", "start", "rematch"])
def test_a_missing_or_null_token_is_bad_token_and_a_mistyped_one_bad_message(server, http, kind):
    code, (aria, _) = table(server, http)
    extra = {"version": 0, "option": "Income"} if kind == "choose" else {}
    for token in ({}, {"token": None}):
        aria.send({"type": kind, **extra, **token})
        error = aria.error()
        assert error["code"] == "bad_token" and "token" in error["message"]
    aria.send({"type": kind, "token": 7, **extra})
    assert aria.error()["code"] == "bad_message"


def test_a_flood_gets_exactly_flood_limit_rate_limited_answers_then_the_close(server):
    limit = server.app.state.lobby.settings.flood_limit
    client = Client(server.ws_url)
    try:
        for _ in range(2000):
            client.send({"type": "ping"})
    except Exception:  # noqa: BLE001 - the server closed the connection
        pass
    assert client.closed(timeout=10)
    refused = [m for m in client.messages if m.get("code") == "rate_limited"]
    assert len(refused) == limit
    assert "disconnected" in refused[-1]["message"] and all("ignored" in m["message"] for m in refused[:-1])


def test_a_name_cut_at_24_characters_never_ends_in_a_space(server, http):
    created = create_room(http, name="Alexandra Montgomery-Sm ythe")  # character 24 is the space
    joined = join(http, created["room"], "Alexandra Montgomery-Sm ythe")  # taken: the suffixed form
    seats = http.get(f"/api/rooms/{created['room']}").json()["seats"]
    assert seats[0]["name"] == "Alexandra Montgomery-Sm"
    assert seats[1]["name"] == "Alexandra Montgomery 2"
    aria = Client(server.ws_url, created["room"], created["token"])
    aria.send({"type": "start", "token": created["token"]})
    aria.settle(lambda v: v["decision"] is not None)
    blake = Client(server.ws_url, created["room"], joined["token"])
    options = blake.settle(lambda v: True)["decision"]["options"] + aria.options
    assert all(option == option.strip() and "  " not in option for option in options)
    assert "Steal Alexandra Montgomery 2" in aria.options or "Steal Alexandra Montgomery-Sm" in blake.options


def test_every_message_the_server_sends_fits_the_published_schema(server, http):
    import jsonschema

    schema = http.get("/api/protocol.json").json()
    assert schema == json.loads(json.dumps(__import__("intrigue.protocol").protocol.json_schema()))
    server_side = jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/ServerMessage"})
    client_side = jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/ClientMessage"})
    code, (aria, blake) = table(server, http)
    aria.send({"type": "chat", "token": aria.token, "text": "hi"})
    aria.send({"type": "ping"})
    aria.send({"type": "choose", "token": aria.token, "version": 999, "option": "x"})
    rng = random.Random(2)
    for _ in range(400):
        player = pending([aria, blake]) if any(p.options for p in (aria, blake)) else None
        if player is None or aria.view["over"]:
            break
        command = {"type": "choose", "token": player.token, "version": player.view["version"],
                   "option": rng.choice(player.options)}
        assert client_side.is_valid(command)
        player.send(command)
        for p in (aria, blake):
            p.drain(0.02)
    for message in aria.messages + blake.messages:
        errors = list(server_side.iter_errors(message))
        assert not errors, (message.get("type"), errors[0].message)
    kinds = {m["type"] for m in aria.messages}
    assert {"welcome", "room", "view", "chat", "pong", "error"} <= kinds
    for bad in ({"type": "choose", "token": "t", "version": "1", "option": "x"}, {"type": "hello"},
                {"type": "choose", "token": "t", "version": True, "option": "x"}):
        assert not client_side.is_valid(bad)


def test_the_published_schema_declares_every_field_a_view_and_its_timer_carry(server, http):
    """docs/protocol.md documents a view's `timeouts` and its timer's `default` (what the timer will choose
    for a pending seat); the published schema, "defined once" for client authors, declared neither."""
    schema = http.get("/api/protocol.json").json()["$defs"]
    created = create_room(http, seats=2, options={"turn_timer": 1, "window_timer": 1})
    joined = join(http, created["room"], "Blake")
    aria = Client(server.ws_url, created["room"], created["token"])
    blake = Client(server.ws_url, created["room"], joined["token"])
    aria.until(lambda m: m["type"] == "welcome")
    aria.send({"type": "start", "token": created["token"]})
    # Nobody answers: the timer chooses, and each view says what it will choose for the seat that waits.
    for client in (aria, blake):
        client.until(lambda m: m["type"] == "view" and bool(m["timeouts"]), timeout=10)
        client.until(lambda m: m["type"] == "view" and bool(m["timer"]) and "default" in m["timer"], timeout=10)
    views = [m for m in aria.messages + blake.messages if m["type"] == "view"]
    sent = {"View": set().union(*views), "Timer": set().union(*(m["timer"] for m in views if m["timer"])),
            "TimedOut": set().union(*(t for m in views for t in m["timeouts"])),
            "Observation": set().union(*(m["view"] for m in views))}
    for model, fields in sent.items():
        assert fields <= set(schema[model]["properties"]), (model, fields - set(schema[model]["properties"]))
    for client in (aria, blake):
        client.close()


def test_the_protocol_schema_command_prints_the_same_schema():
    import subprocess
    import sys

    from intrigue.protocol import json_schema

    done = subprocess.run([sys.executable, "-m", "intrigue.cli", "schema", "--protocol"], capture_output=True,
                          text=True, check=True)
    assert json.loads(done.stdout) == json.loads(json.dumps(json_schema()))


def test_the_docs_list_exactly_the_protocols_error_codes():
    from pathlib import Path

    from intrigue.protocol import ERROR_CODES

    docs = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = docs[docs.index("Codes: `bad_json`"):docs.index("HTTP answers add")]
    listed = set(__import__("re").findall(r"`([a-z_]+)`", section))
    assert listed == set(ERROR_CODES)
