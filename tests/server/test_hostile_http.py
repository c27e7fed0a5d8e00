"""Hostile HTTP requests written from docs/protocol.md: each bad request is answered with the status
and code the docs give for it (never a 500), changes no room or match, and the server plays on."""

from __future__ import annotations

import re
import threading
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from ..security.table import hang_up, snapshot
from .support import FAST, Client, ServerProcess, ServerThread, create_room, join

DOCS = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")


def documented_http_codes() -> set[str]:
    """The codes an HTTP answer may carry: the WebSocket's list and what "HTTP answers add"."""
    section = DOCS[DOCS.index("Codes: `bad_json`"):]
    section = section[:section.index("\n\n")]
    return set(re.findall(r"`([a-z_]+)`", section))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with ServerThread(tmp_path_factory.mktemp("hostile-http") / "intrigue.db",
                      replace(FAST, disconnect_grace=3600.0)) as running:
        yield running


@pytest.fixture(scope="module")
def http(server):
    with server.http() as client:
        yield client


@pytest.fixture(scope="module")
def finished(server, http):
    """A finished three-seat match (the human left at once; the random bots played it out)."""
    created = create_room(http, seats=3, bots=[{"kind": "random"}] * 2, private=True,
                          options={"turn_timer": None, "window_timer": None})
    watcher = Client(server.ws_url, created["room"])
    watcher.until(lambda m: m["type"] == "welcome")
    assert http.post(f"/api/rooms/{created['room']}/start", json={"token": created["token"]}).status_code == 200
    assert http.post(f"/api/rooms/{created['room']}/leave", json={"token": created["token"]}).status_code == 200
    watcher.settle(lambda v: v["over"], timeout=30)
    hang_up(watcher)
    return watcher.match, watcher.view["version"]


JSON = {"content-type": "application/json"}
ROOM = b'{"game": "coup", "name": "A", "seats": 2'
# (method, path, request arguments, status, code); "{m}" is the finished match's id
BAD = [
    # replay: a step or seat out of range is 400 bad_message, an unknown match 404 no_match
    ("GET", "/api/matches/{m}/replay", {"params": {"seat": "\u00b2"}}, 400, "bad_message"),  # '²'.isdigit()
    ("GET", "/api/matches/{m}/replay", {"params": {"seat": "\u0663"}}, 400, "bad_message"),  # an Arabic-Indic 3
    ("GET", "/api/matches/{m}/replay", {"params": {"seat": "3"}}, 400, "bad_message"),
    ("GET", "/api/matches/{m}/replay", {"params": {"seat": "-1"}}, 400, "bad_message"),
    ("GET", "/api/matches/{m}/replay", {"params": {"seat": ""}}, 400, "bad_message"),
    ("GET", "/api/matches/{m}/replay", {"params": {"step": "-1"}}, 400, "bad_message"),
    ("GET", "/api/matches/{m}/replay", {"params": {"step": "1000001"}}, 400, "bad_message"),
    ("GET", "/api/matches/{m}/replay", {"params": {"step": "9" * 4000}}, 400, "bad_message"),
    ("GET", "/api/matches/{m}/replay", {"params": {"step": "1.5"}}, 422, "schema"),
    ("GET", "/api/matches/0/replay", {}, 404, "no_match"),
    ("GET", "/api/matches/-7/replay", {}, 404, "no_match"),
    ("GET", f"/api/matches/{2**63}/replay", {}, 404, "no_match"),
    ("GET", "/api/matches/abc/replay", {}, 422, "schema"),
    ("GET", "/api/matches", {"params": {"status": "deleted"}}, 422, "schema"),
    ("GET", "/api/matches", {"params": {"limit": "0"}}, 422, "schema"),
    # the table's language: a two-letter code, else 400 bad_message, whatever its length
    ("GET", "/api/games/coup/table", {"params": {"lang": "FR"}}, 400, "bad_message"),
    ("GET", "/api/games/coup/table", {"params": {"lang": "../en"}}, 400, "bad_message"),
    ("GET", "/api/games/coup/table", {"params": {"lang": "english-please"}}, 400, "bad_message"),
    # an unknown game is 404 no_game, however long its name
    ("GET", "/api/games/" + "x" * 300 + "/table", {}, 404, "no_game"),
    ("GET", "/api/games/" + "x" * 300 + "/graph.svg", {}, 404, "no_game"),
    ("GET", "/api/games/" + "x" * 300 + "/tutorial", {}, 404, "no_game"),
    ("POST", "/api/games/" + "x" * 300 + "/tutorial", {"json": {"name": "Zoe"}}, 404, "no_game"),
    ("GET", "/api/games/coup/graph.svg", {"params": {"highlight": "first"}}, 422, "schema"),
    # bodies that are not JSON, or not the schema's
    ("POST", "/api/rooms", {"content": ROOM + b', "name": "\xff\xfe"}', "headers": JSON}, 422, "schema"),
    ("POST", "/api/rooms", {"content": ROOM.replace(b"2", b"9" * 5000), "headers": JSON}, 422, "schema"),
    ("POST", "/api/rooms", {"content": b"[" * 30_000 + b"]" * 30_000, "headers": JSON}, 422, "schema"),
    ("POST", "/api/rooms", {"content": ROOM, "headers": JSON}, 422, "schema"),  # unterminated
    ("POST", "/api/rooms", {"content": ROOM + b"}", "headers": {"content-type": "text/plain"}}, 422, "schema"),
    ("POST", "/api/rooms", {"content": b"", "headers": JSON}, 422, "schema"),
    ("POST", "/api/rooms", {"json": [1, 2]}, 422, "schema"),
    ("POST", "/api/rooms", {"json": {"game": "coup", "name": "A", "seats": 2.5}}, 422, "schema"),
    ("POST", "/api/rooms", {"json": {"game": "coup", "name": "A", "seats": 2, "private": None}}, 422, "schema"),
    ("POST", "/api/rooms", {"content": ROOM + b', "name": "\\ud800"}', "headers": JSON}, 422, "schema"),
    ("POST", "/api/rooms", {"content": ROOM + b', "options": {"turn_timer": NaN}}', "headers": JSON}, 400,
     "bad_message"),
    ("POST", "/api/rooms", {"content": ROOM + b', "options": {"turn_timer": 1e999}}', "headers": JSON}, 400,
     "bad_message"),
    ("POST", "/api/rooms", {"json": {"game": "coup", "name": "A", "seats": 2, "options": {"reformation": 1}}}, 400,
     "bad_message"),
    ("POST", "/api/rooms", {"content": b"{" * 70_000, "headers": JSON}, 413, "too_large"),
    # the same without a Content-Length (chunked): before, 422 "body: not valid JSON" (the route's own reading
    # turned the limit's refusal into its answer)
    ("POST", "/api/rooms", {"content": [ROOM + b', "name": "', b"a" * 70_000 + b'"}'], "headers": JSON}, 413,
     "too_large"),
    ("POST", "/api/rooms/ZZZZ/join", {"content": [b'{"name": "' + b"a" * 70_000 + b'"}'], "headers": JSON}, 413,
     "too_large"),
    ("POST", "/api/rooms/ZZZZ/leave", {"content": b'{"token": "\\udfff"}', "headers": JSON}, 422, "schema"),
    ("POST", "/api/rooms/" + "Z" * 3000 + "/join", {"json": {"name": "Zoe"}}, 404, "no_room"),
    ("POST", "/api/rooms/%ED%A0%80/join", {"json": {"name": "Zoe"}}, 404, "no_room"),
    # routes that do not exist, methods a route does not take
    ("GET", "/api/nothing", {}, 404, "not_found"),
    ("POST", "/api/games", {}, 405, "method_not_allowed"),
    ("DELETE", "/api/rooms", {}, 405, "method_not_allowed"),
    ("PUT", "/api/rooms/ZZZZ/start", {"json": {"token": "x"}}, 405, "method_not_allowed"),
]


@pytest.mark.parametrize("method, path, sent, status, code", BAD,
                         ids=[f"{m} {p[:40]} {str(r)[:40]}" for m, p, r, _, _ in BAD])
def test_a_bad_request_gets_its_documented_status_and_code_and_changes_nothing(server, http, finished, method, path,
                                                                                sent, status, code):
    before = snapshot(server)
    rooms = http.get("/api/rooms").json()
    answer = http.request(method, path.replace("{m}", str(finished[0])), **sent)
    assert (answer.status_code, answer.json()["error"]["code"]) == (status, code), answer.text[:300]
    assert code in documented_http_codes()
    assert len(answer.json()["error"]["message"]) < 400  # the answer does not echo a huge request back
    assert snapshot(server) == before and http.get("/api/rooms").json() == rooms
    assert http.get("/api/health").json()["ok"] is True


def test_a_replay_in_range_still_answers(http, finished):
    match, moves = finished
    for params in ({"step": moves, "seat": "0"}, {"step": 0, "seat": "00"}, {"step": moves}):
        answer = http.get(f"/api/matches/{match}/replay", params=params)
        assert answer.status_code == 200 and answer.json()["moves"] == moves


def test_a_language_the_game_has_no_catalog_for_gets_english(http):
    english = http.get("/api/games/coup/table").json()
    unknown = http.get("/api/games/coup/table", params={"lang": "xx"})
    assert unknown.status_code == 200 and unknown.json()["messages"] == english["messages"]


def test_a_crowd_joining_and_a_host_starting_at_once_leave_one_consistent_room(server, http):
    created = create_room(http, seats=4)
    code = created["room"]
    answers: list = []
    barrier = threading.Barrier(9)

    def joiner(n: int) -> None:
        with server.http() as own:
            barrier.wait()
            answers.append(("join", own.post(f"/api/rooms/{code}/join", json={"name": f"P{n}"})))

    def starter() -> None:
        with server.http() as own:
            barrier.wait()
            answers.append(("start", own.post(f"/api/rooms/{code}/start", json={"token": created["token"]})))

    threads = [threading.Thread(target=joiner, args=(n,)) for n in range(8)] + [threading.Thread(target=starter)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    joined = [a.json() for kind, a in answers if kind == "join" and a.status_code == 200]
    refused = {a.json()["error"]["code"] for kind, a in answers if kind == "join" and a.status_code != 200}
    start = next(a for kind, a in answers if kind == "start")
    assert refused <= {"room_full", "already_started"}
    assert start.status_code == 200 or start.json()["error"]["code"] == "not_enough_players"
    room = http.get(f"/api/rooms/{code}").json()
    seated = [s["name"] for s in room["seats"] if s["name"] is not None]
    assert len(seated) == 1 + len(joined) and len(set(seated)) == len(seated)  # every join answered is a seat
    assert len({j["seat"] for j in joined}) == len(joined)
    if start.status_code != 200:  # the host was first: start now with whoever got in
        assert http.post(f"/api/rooms/{code}/start", json={"token": created["token"]}).status_code == 200
        room = http.get(f"/api/rooms/{code}").json()
    assert room["status"] == "playing" and [s["seat"] for s in room["seats"]] == list(range(len(room["seats"])))
    players = [Client(server.ws_url, code, created["token"])] + [Client(server.ws_url, code, j["token"])
                                                                for j in joined]
    for player in players:  # every token that was answered holds a seat of the match
        welcome = player.until(lambda m: m["type"] in ("welcome", "error"))
        assert welcome["type"] == "welcome" and welcome["spectator"] is False
        player.settle(lambda v: v is not None)
    assert sorted(p.view["seat"] for p in players) == list(range(len(room["seats"])))
    mover = next(p for p in players if p.options)
    mover.choose("Income")
    for player in players:
        player.settle(lambda v: v["version"] == 1)
        hang_up(player)


def test_a_second_player_with_the_same_24_character_name_gets_a_seat(server, http):
    """The suffix search looked for "name 2" cut to 24 characters, which for a 24-character name is the
    name itself: the second join with it looped for ever and the whole server stopped answering."""
    name = "Alexandria Quintessentia"
    assert len(name) == 24
    created = create_room(http, seats=4, name=name)
    seats = [http.post(f"/api/rooms/{created['room']}/join", json={"name": name}, timeout=5) for _ in range(3)]
    assert [answer.status_code for answer in seats] == [200, 200, 200]
    names = [s["name"] for s in http.get(f"/api/rooms/{created['room']}").json()["seats"]]
    assert names == [name, "Alexandria Quintesse 2", "Alexandria Quintesse 3", "Alexandria Quintesse 4"]
    assert http.get("/api/health", timeout=5).json()["ok"] is True


@pytest.mark.parametrize("game, seats, word", [("werewolf", 6, "No one"), ("heist", 5, "Pass"), ("avalon", 5, "Approve"),
                                               # rules in Python: their Pass was not reserved (joined as "Pass")
                                               ("coup", 2, "Pass"), ("bang", 4, "Pass"), ("coup", 2, "NO ONE")])
def test_a_player_cannot_take_the_name_of_an_option_of_the_game(http, game, seats, word):
    """Werewolf's night offers the players' names and "No one": a player named "No one" could not be
    told from it (the option named the player, and nobody could choose no one)."""
    created = create_room(http, game=game, name=word, seats=seats, private=True)
    joined = join(http, created["room"], word)
    seats = http.get(f"/api/rooms/{created['room']}").json()["seats"]
    assert [seats[0]["name"], seats[joined["seat"]]["name"]] == [f"{word} 2", f"{word} 3"]


@pytest.mark.parametrize("path", ["/", "/room/ZZZZ", "/api/health", "/api/games", "/api/rooms", "/api/nothing",
                                  "/static/room.js"])
def test_head_answers_as_get_without_the_body(http, path):
    """HTTP servers take HEAD wherever they take GET (a monitor's `HEAD /api/health`, `curl -I`): the
    routes answered 405 method_not_allowed (the static files took it)."""
    got, head = http.get(path), http.head(path)
    assert head.status_code == got.status_code and head.content == b""
    assert head.headers.get("content-type") == got.headers.get("content-type")
    assert head.headers.get("content-length") == got.headers.get("content-length")


def test_head_is_still_refused_where_get_is(http):
    for path in ("/api/rooms/ZZZZ/join", "/api/rooms/ZZZZ/start"):
        assert http.head(path).status_code == http.get(path).status_code == 405


def _rooms_made_with_forged_addresses(tmp_path: Path, args: list[str]) -> list[int]:
    """Statuses of three room creations from this machine, each naming another client in X-Forwarded-For,
    against ``intrigue serve --room-quota 2`` and ``args``."""
    tmp_path.mkdir()
    server = ServerProcess(tmp_path / "forged.db", args=["--room-quota", "2", *args]).start()
    try:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            return [http.post("/api/rooms", json={"game": "coup", "name": "Aria", "seats": 2},
                              headers={"X-Forwarded-For": f"203.0.113.{n}"}).status_code for n in range(3)]
    finally:
        server.stop()


def test_a_forged_forwarded_for_escapes_no_quota(tmp_path):
    """A client naming another address in X-Forwarded-For is still counted as itself: the header is
    believed only from a proxy named by --proxy-from (as a cluster's nodes name their front proxy)."""
    assert _rooms_made_with_forged_addresses(tmp_path / "plain", []) == [201, 201, 429]
    assert _rooms_made_with_forged_addresses(tmp_path / "proxied", ["--proxy-from", "127.0.0.1"]) == [201, 201, 201]
