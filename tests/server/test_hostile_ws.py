"""A hostile WebSocket client written from docs/protocol.md: every documented limit and refusal, with
the server's real defaults where the docs give a number, and after each attack proof that no room or
match changed and that the server still plays."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import time
from dataclasses import replace
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from intrigue.server.settings import Settings

from ..security.table import hang_up, snapshot
from .support import FAST, Client, ServerThread, create_room, join

DOCS = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Roomy limits (so that one test's clients do not hit another's) and no grace timer: only an
    attack could change a match here."""
    settings = replace(FAST, disconnect_grace=3600.0, sockets_per_address=1000)
    with ServerThread(tmp_path_factory.mktemp("hostile-ws") / "intrigue.db", settings) as running:
        yield running


@pytest.fixture(scope="module")
def http(server):
    with server.http() as client:
        yield client


def table(server, http):
    """A started private two-seat Coup room with timers off; both players connected."""
    created = create_room(http, private=True, options={"turn_timer": None, "window_timer": None})
    joined = join(http, created["room"], "Blake")
    players = [Client(server.ws_url, created["room"], created["token"]),
               Client(server.ws_url, created["room"], joined["token"])]
    for player in players:
        player.until(lambda m: m["type"] == "welcome")
    assert http.post(f"/api/rooms/{created['room']}/start", json={"token": created["token"]}).status_code == 200
    for player in players:
        player.settle(lambda v: v["decision"] is not None)
    return created["room"], players


def slot_free(server, timeout: float = 5) -> None:
    """Wait until a new connection from this address is served (closed ones give their slot back
    once the server has seen them go)."""
    deadline = time.monotonic() + timeout
    while True:
        client = Client(server.ws_url)
        client.send({"type": "ping"})
        try:
            if client.until(lambda m: m["type"] in ("pong", "error"), timeout=1)["type"] == "pong":
                hang_up(client)
                return
        except (ConnectionClosed, TimeoutError):
            pass
        assert time.monotonic() < deadline, "a closed connection never gave its slot back"
        time.sleep(0.05)


def plays(server, http) -> None:
    """The server still serves a normal match: a room is made, joined, started and a move accepted."""
    code, players = table(server, http)
    mover = next(p for p in players if p.options)
    mover.choose("Income")
    for player in players:
        player.settle(lambda v: v["version"] == 1)
    for player in players:
        hang_up(player)


# -- limits, with the server's own defaults ---------------------------------------------------------------
def test_a_flood_gets_exactly_40_rate_limited_answers_then_close_1008(tmp_path):
    with ServerThread(tmp_path / "flood.db", Settings(bot_delay=0.0)) as defaults, defaults.http() as http:
        bystander = Client(defaults.ws_url)  # same address, another connection
        flooder = Client(defaults.ws_url)
        try:
            for _ in range(300):
                flooder.send({"type": "ping"})
        except ConnectionClosed:
            pass
        assert flooder.closed(timeout=5)
        refused = [m for m in flooder.messages if m.get("code") == "rate_limited"]
        assert len(refused) == 40 and "disconnected" in refused[-1]["message"]
        assert sum(m["type"] == "pong" for m in flooder.messages) >= 40  # the burst, and what trickled back
        assert flooder.ws.close_code == 1008
        bystander.send({"type": "ping"})
        assert bystander.recv() == {"type": "pong"}
        hang_up(bystander)
        plays(defaults, http)


def test_chat_takes_5_lines_at_once_and_a_newcomer_gets_the_last_50(tmp_path):
    with ServerThread(tmp_path / "chat.db", Settings(bot_delay=0.0)) as defaults, defaults.http() as http:
        created = create_room(http, private=True)
        aria = Client(defaults.ws_url, created["room"], created["token"])
        aria.until(lambda m: m["type"] == "welcome")
        for n in range(7):
            aria.send({"type": "chat", "token": created["token"], "text": f"line {n}"})
        aria.send({"type": "ping"})
        aria.until(lambda m: m["type"] == "pong")
        said = [m["text"] for m in aria.messages if m["type"] == "chat"]
        refused = [m for m in aria.messages if m.get("code") == "rate_limited"]
        assert said[:5] == [f"line {n}" for n in range(5)] and refused  # (a 6th only on a very slow machine)
        assert len(said) + len(refused) == 7
        hang_up(aria)
        room = defaults.app.state.lobby.rooms[created["room"]]
        room.seats[0].chat = None  # (fresh buckets rather than 100 seconds of waiting)
        defaults.app.state.lobby.settings.chat_burst = defaults.app.state.lobby.settings.message_burst = 100
        aria = Client(defaults.ws_url, created["room"], created["token"])
        for n in range(5, 60):
            aria.send({"type": "chat", "token": created["token"], "text": f"line {n}"})
        aria.until(lambda m: m.get("text") == "line 59")
        newcomer = Client(defaults.ws_url, created["room"])
        newcomer.until(lambda m: m["type"] == "room")  # the recent chat comes between welcome and room
        assert [m["text"] for m in newcomer.messages if m["type"] == "chat"] == [f"line {n}" for n in range(10, 60)]
        for client in (aria, newcomer):
            hang_up(client)


def test_the_101st_connection_from_one_address_is_refused_with_quota_and_1008(tmp_path):
    # the default open-connection quota; the rate of new connections is not what this test is about
    settings = Settings(bot_delay=0.0, connect_rate=1000.0, connect_burst=1000.0)
    with ServerThread(tmp_path / "sockets.db", settings) as defaults, defaults.http() as http:
        held = [Client(defaults.ws_url) for _ in range(100)]
        held[-1].send({"type": "ping"})
        assert held[-1].recv() == {"type": "pong"}
        extra = Client(defaults.ws_url)
        assert extra.error()["code"] == "quota"
        assert extra.closed(timeout=3) and extra.ws.close_code == 1008
        hang_up(held.pop())
        slot_free(defaults)
        for client in held:
            hang_up(client)
        slot_free(defaults)
        plays(defaults, http)


def test_a_frame_over_a_mebibyte_is_closed_with_1009_and_changes_nothing(server, http):
    code, players = table(server, http)
    before = snapshot(server)
    big = Client(server.ws_url, code, players[0].token)
    big.until(lambda m: m["type"] == "welcome")
    assert big.send_oversized(json.dumps({"type": "chat", "token": players[0].token,
                                          "text": "x" * (1024 * 1024)})) in (1009, 1006)
    assert snapshot(server) == before
    players[0].send({"type": "ping"})
    assert players[0].until(lambda m: m["type"] == "pong")


def test_a_room_takes_200_connections_then_quota_but_always_its_players(server, http):
    created = create_room(http, private=True)
    code = created["room"]
    watchers = []
    for _ in range(200):
        watchers.append(Client(server.ws_url, code))
        watchers[-1].until(lambda m: m["type"] == "welcome")
    late = Client(server.ws_url, code)
    refusal = late.error()
    assert refusal["code"] == "quota" and "200" in refusal["message"]
    late.send({"type": "ping"})  # refused, not disconnected
    assert late.until(lambda m: m["type"] == "pong")
    # a watcher already in the room saying hello again adds no connection: it is welcomed, not refused
    watchers[0].send({"type": "hello", "room": code})
    assert watchers[0].until(lambda m: m["type"] in ("welcome", "error"))["type"] == "welcome"
    host = Client(server.ws_url, code, created["token"])  # a seated player is always let in
    assert host.until(lambda m: m["type"] in ("welcome", "error"))["type"] == "welcome"
    for client in watchers + [late, host]:
        client.drain(0.002)  # (a client that is behind cannot read the close frame: catch up first)
        client.ws.close_timeout = 0.5
        client.close()
    plays(server, http)


# -- a client that never reads -------------------------------------------------------------------------
def raw_socket(port: int) -> socket.socket:
    """A WebSocket opened by hand, with a tiny receive buffer: a client that will never read."""
    conn = socket.socket()
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    conn.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    conn.sendall(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += conn.recv(1)
    assert b" 101 " in head.split(b"\r\n")[0], head
    return conn


def send_text(conn: socket.socket, text: str) -> None:
    payload, mask = text.encode(), os.urandom(4)
    size = len(payload)
    length = bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + struct.pack("!H", size)
    conn.sendall(b"\x81" + length + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def test_a_player_who_stops_reading_is_disconnected_and_the_table_goes_on(tmp_path):
    # (presence unbounded: Aria's tab coming and going fills the lurker's outbox fast; test_hostile_presence.py
    # shows that a server with its defaults tells it only a few times a second)
    settings = Settings(bot_delay=0.0, room_quota=10_000, message_rate=100_000, message_burst=100_000,
                        disconnect_grace=0.3, sockets_per_address=3, presence_rate=100_000, presence_burst=100_000,
                        hello_rate=100_000, hello_burst=100_000)  # (and Aria's hellos unbounded too)
    with ServerThread(tmp_path / "lurk.db", settings) as small, small.http() as http:
        created = create_room(http, name="Aria of the long name xx", seats=10, private=True,
                              options={"turn_timer": None, "window_timer": None})
        code = created["room"]
        blake = join(http, code, "Blake")
        for n in range(8):
            join(http, code, f"Player {n} of a long name")  # (bigger room messages: a faster test)
        lurker = raw_socket(small.port)
        send_text(lurker, json.dumps({"type": "hello", "room": code, "token": blake["token"]}))
        deadline = time.monotonic() + 5
        while not http.get(f"/api/rooms/{code}").json()["seats"][1]["connected"]:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        # Aria's tab comes and goes: every hello is a room message to everyone, the lurker included
        aria = Client(small.ws_url)
        deadline = time.monotonic() + 20
        for n in range(100_000):
            aria.send({"type": "hello", "room": code, **({"token": created["token"]} if n % 2 else {})})
            aria.until(lambda m: m["type"] == "welcome")
            aria.drain(0)
            if n % 50 == 0 and not http.get(f"/api/rooms/{code}").json()["seats"][1]["connected"]:
                break
            assert time.monotonic() < deadline, "a client that never reads was never disconnected"
        # its address slot is free again: with the limit at 3, Aria's connection and two more fit
        others = [Client(small.ws_url) for _ in range(2)]
        for other in others:
            other.send({"type": "ping"})
            assert other.until(lambda m: m["type"] == "pong")
        # and the table plays on: Blake's decisions are made for him after the grace period
        aria.send({"type": "hello", "room": code, "token": created["token"]})
        aria.until(lambda m: m["type"] == "welcome")
        aria.token = created["token"]  # (her hellos were sent by hand: her choices carry her token too)
        assert http.post(f"/api/rooms/{code}/start", json={"token": created["token"]}).status_code == 200
        aria.settle(lambda v: v["decision"] is not None)
        if aria.options:
            aria.choose("Income")
        aria.settle(lambda v: v["version"] >= 1, timeout=10)
        lurker.close()
        for client in others + [aria]:
            hang_up(client)


# -- malformed and mistyped fields ------------------------------------------------------------------------
FRAMES = [  # (frame, code): each refused, nothing changed, the connection stays open
    ('{"type": "ping", "n": ' + "9" * 5000 + "}", "bad_json"),  # past Python's 4,300-digit limit
    ('{"type": "choose", "token": "t", "version": ' + "9" * 5000 + ', "option": "Income"}', "bad_json"),
    ('{"type": "choose", "token": "t", "version": 1e2, "option": "Income"}', "bad_message"),
    ('{"type": "choose", "token": "t", "version": 1.0, "option": "Income"}', "bad_message"),
    ('{"type": "choose", "token": "t", "version": 0, "option": 7}', "bad_message"),
    ('{"type": "choose", "token": "t", "version": 0, "option": null}', "bad_message"),
    ('{"type": "hello", "room": 1234}', "bad_message"),
    ('{"type": "hello", "room": ["K7QX"]}', "bad_message"),
    ('{"type": "hello", "room": true}', "bad_message"),
    ('{"type": "hello"}', "bad_message"),
    ('{"type": "hello", "room": "\\ud800\\udc00"}', "no_room"),
    ('{"type": "hello", "room": "\\ud800"}', "no_room"),
    ('{"type": "hello", "room": ""}', "no_room"),
    ('{"type": "hello", "room": "' + "Z" * 60_000 + '"}', "no_room"),
    ('{"type": "chat", "text": "hi"}', "no_room"),  # (a chat without a token is a spectator's: no hello yet)
    ('{"type": "hint", "version": 0}', "bad_token"),  # (a hint always needs one: checked before the room)
    ('{"type": "Ping"}', "unknown_type"),
    ('{"type": ""}', "unknown_type"),
    ("{}", "bad_message"),
    ("null", "bad_message"),
    ('"ping"', "bad_message"),
    ('{"type": "ping"} {"type": "ping"}', "bad_json"),
    ('{"type": "ping"}\u0000', "bad_json"),
]


@pytest.fixture(scope="module")
def live(server, http):
    """A table in play while the frames below arrive."""
    code, players = table(server, http)
    yield code
    for player in players:
        hang_up(player)


@pytest.mark.parametrize("frame, code", FRAMES)
def test_malformed_and_mistyped_frames_get_their_documented_code(server, live, frame, code):
    before = snapshot(server)
    client = Client(server.ws_url)
    client.send(frame)
    error = client.error()
    assert error["code"] == code and error["message"], error
    assert len(error["message"]) < 400  # the refusal does not echo the whole frame back
    client.send({"type": "ping"})
    assert client.until(lambda m: m["type"] == "pong")
    assert snapshot(server) == before
    hang_up(client)


@pytest.mark.parametrize("depth", [300, 600, 900])
def test_a_frame_nested_hundreds_deep_is_refused_as_nested_not_internal(server, live, depth):
    """The JSON parser reads a few hundred levels; the nesting check then ran out of stack: `internal`."""
    before = snapshot(server)
    client = Client(server.ws_url)
    client.send('{"type": "ping", "a": ' + "[" * depth + "]" * depth + "}")
    assert client.error()["code"] in ("bad_message", "bad_json")  # more than two levels; absurdly deep
    client.send({"type": "ping"})
    assert client.until(lambda m: m["type"] == "pong")
    assert snapshot(server) == before
    hang_up(client)


def unicode_attacks(players):
    """Lone surrogates and odd characters where a seat's strings go: each refused by its documented code."""
    aria, blake = players
    mover = aria if aria.options else blake
    version = mover.view["version"]
    return [
        (mover, {"type": "choose", "token": mover.token, "version": version, "option": "Income\ud800"}, "not_offered"),
        (mover, {"type": "choose", "token": mover.token, "version": version, "option": "\u202eemocnI"}, "not_offered"),
        (mover, {"type": "choose", "token": mover.token + "\ud800", "version": version, "option": "Income"},
         "bad_token"),
        (mover, {"type": "chat", "token": mover.token, "text": "\ud800\udfff\u200b"}, "bad_message"),
        (mover, {"type": "choose", "token": mover.token, "version": -1, "option": "Income"}, "stale_version"),
        (mover, {"type": "choose", "token": mover.token, "version": 2**63, "option": "Income"}, "stale_version"),
        (mover, {"type": "hello", "room": "\ud83c\udccf", "token": mover.token}, "no_room"),
    ]


def test_surrogates_and_odd_numbers_in_a_seats_fields_change_nothing(server, http):
    code, players = table(server, http)
    for client, frame, expected in unicode_attacks(players):
        before = snapshot(server)
        client.send(json.dumps(frame))  # json.dumps writes a lone surrogate as \\udXXX, as a hostile client may
        assert client.error()["code"] == expected, frame
        assert snapshot(server) == before
    surrogate_chat = players[0]
    surrogate_chat.send(json.dumps({"type": "chat", "token": surrogate_chat.token, "text": "a\ud800b\U0001f0cf"}))
    line = players[1].until(lambda m: m["type"] == "chat")
    assert line["text"] == "ab\U0001f0cf"  # the lone surrogate is dropped, the card emoji kept
    for player in players:
        hang_up(player)
    plays(server, http)


# -- who may do what --------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["choose", "chat", "start", "rematch", "hint"])
def test_every_command_before_hello_is_no_room(server, kind):
    client = Client(server.ws_url)
    fields = {"choose": {"version": 0, "option": "Income"}, "chat": {"text": "hi"}, "hint": {"version": 0}}
    client.send({"type": kind, "token": "t" * 43, **fields.get(kind, {})})
    assert client.error()["code"] == "no_room"
    hang_up(client)


@pytest.mark.parametrize("kind", ["choose", "chat", "start", "rematch", "hint"])
def test_a_spectator_cannot_act(server, http, kind):
    code, players = table(server, http)
    watcher = Client(server.ws_url)
    watcher.send({"type": "hello", "room": code, "token": ""})  # an empty token makes a spectator
    assert watcher.until(lambda m: m["type"] == "welcome")["spectator"] is True
    before = snapshot(server)
    fields = {"choose": {"version": 0, "option": "Income"}, "chat": {"text": "hi"}, "hint": {"version": 0}}
    for token in ({}, {"token": ""}, {"token": None}):
        watcher.send({"type": kind, **token, **fields.get(kind, {})})
        assert watcher.error()["code"] == "bad_token"
    assert snapshot(server) == before
    for client in players + [watcher]:
        hang_up(client)


def test_a_hello_with_another_rooms_token_leaves_the_connection_where_it_was(server, http):
    code, (aria, blake) = table(server, http)
    other = create_room(http, private=True)
    aria.send({"type": "hello", "room": other["room"], "token": aria.token})
    assert aria.error()["code"] == "bad_token"
    aria.send({"type": "hello", "room": code, "token": other["token"]})
    assert aria.error()["code"] == "bad_token"
    blake.send({"type": "chat", "token": blake.token, "text": "still here?"})
    assert aria.until(lambda m: m["type"] == "chat")["text"] == "still here?"
    mover = aria if aria.options else blake
    mover.choose("Income")  # and it still acts for its seat
    aria.settle(lambda v: v["version"] == 1)
    assert all(m.get("room") in (None, code) for m in aria.messages)
    hang_up(aria)
    hang_up(blake)


def test_a_seat_that_leaves_mid_match_watches_as_a_spectator_and_sees_no_hand(server, http):
    code, (aria, blake) = table(server, http)
    assert http.post(f"/api/rooms/{code}/leave", json={"token": blake.token}).status_code == 200
    # a decision of Blake's is the server's now: Aria soon has one to make
    aria.settle(lambda v: bool(v["decision"] and v["decision"]["options"]), timeout=5)
    version = aria.view["version"]
    aria.choose("Income")
    view = blake.settle(lambda v: v["version"] > version, timeout=5)
    assert view["seat"] is None and view["you"] is None
    assert not [c for c in view["components"] if c["kind"] == "hand"]
    for player in view["state"]["players"]:
        assert all(i["character"] is None for i in player["influences"] if not i["revealed"])
    blake.send({"type": "chat", "token": blake.token, "text": "I'm back"})
    assert blake.error()["code"] == "bad_token"
    hang_up(aria)
    hang_up(blake)


# -- the numbers the docs give are the server's defaults ------------------------------------------------------
def test_the_documented_limits_are_the_defaults():
    from intrigue.server.app import OUTBOX
    from intrigue.server.protocol import MAX_CHAT, MAX_MESSAGE, MAX_NAME
    from intrigue.server.settings import RECOVERY_GRACE

    defaults = Settings()
    text = " ".join(DOCS.split())
    claims = {
        f"each connection may send {defaults.message_rate:g} messages per second with bursts of "
        f"{defaults.message_burst:g}": True,
        f"a flooding client gets exactly {defaults.flood_limit} `rate_limited` answers": True,
        f"({OUTBOX} queued)": True,
        f"at most {defaults.sockets_per_address} WebSocket connections at once": True,
        f"up to {defaults.max_connections} connections per room": True,
        f"already holds {defaults.seats_per_address} joined seats": True,
        f"at most {defaults.room_quota} rooms per hour": True,
        f"allows each seat {defaults.chat_burst:g} lines at once, then one every {1 / defaults.chat_rate:g} "
        "seconds": True,
        f"more than {defaults.hint_burst:g} hints at once and then more than one every {1 / defaults.hint_rate:g} "
        "seconds": True,
        f"nobody has been connected to for {defaults.idle_close / 3600:g} hours": True,
        f"after a {defaults.disconnect_grace:g}-second grace period": True,
        f"leaves at least {RECOVERY_GRACE:g} seconds": True,
        f"refuses lines over {MAX_CHAT} characters": True,
        f"cut to {MAX_NAME} characters": True,
        f"Client messages above {MAX_MESSAGE // 1024} KiB": True,
    }
    missing = [claim for claim in claims if claim not in text]
    assert not missing, missing


# -- secret decisions: a refusal tells no more than the view ---------------------------------------------------
def test_refusals_in_a_secret_decision_tell_nobody_who_has_answered(server, http):
    """docs/protocol.md: in a secret decision `waiting` lists who could be acting and "the others are not
    told that anyone answered". A refused command must not tell it either: not by naming who is still
    to answer, not by the version it calls current, not by which versions it refuses."""
    from ..security.table import Table

    table = Table(server, http, "werewolf", humans=6)
    while not (table.match.decision and table.match.decision.secret):
        mover = table.pending()
        table.move(mover, mover.options[0])
    cover = table.match.decision.cover
    prober, answerer = (next(c for c in table.clients if c.view["seat"] == seat) for seat in cover[:2])
    opened = prober.view["version"]

    def probe() -> list[tuple[str, str]]:
        answers = []
        for version in range(opened - 1, opened + len(cover) + 1):
            prober.send({"type": "choose", "token": prober.token, "version": version, "option": "not an option"})
            error = prober.error()
            answers.append((error["code"], error["message"]))
        return answers

    def listed() -> dict:
        return next(m for m in http.get("/api/matches", params={"status": "playing"}).json()
                    if m["match"] == prober.match)  # (by match: the list names no private room)

    before, listing = probe(), listed()
    table.move(answerer, answerer.options[0])  # the decision stays open: only the answerer is told
    assert table.match.decision.secret and table.match.version == opened + 1
    assert probe() == before
    assert listed() == listing and listing["moves"] is None  # nor does the list of matches being played
    assert [code for code, _ in before] == ["stale_version"] + ["not_offered"] * len(cover) + ["stale_version"]
    answerer.send({"type": "choose", "token": answerer.token, "version": answerer.view["version"], "option": "x"})
    refusal = answerer.error()
    assert refusal["code"] == "not_pending"
    assert refusal["message"].endswith(f"(waiting for {', '.join(answerer.view['waiting'])})")
    table.close()


def test_a_closing_room_tells_its_watchers_then_refuses_them_no_room(server, http):
    created = create_room(http, private=True)
    code = created["room"]
    watcher = Client(server.ws_url, code)
    watcher.until(lambda m: m["type"] == "welcome")
    assert http.post(f"/api/rooms/{code}/leave", json={"token": created["token"]}).status_code == 200
    last = watcher.until(lambda m: m["type"] == "room" and m["status"] != "waiting")
    assert last["status"] == "closed"  # the last human left a room that had not started
    assert http.get(f"/api/rooms/{code}").json()["error"]["code"] == "no_room"
    watcher.send({"type": "chat", "token": created["token"], "text": "anyone?"})
    assert watcher.error()["code"] == "no_room"
    watcher.send({"type": "hello", "room": code})
    assert watcher.error()["code"] == "no_room"
    hang_up(watcher)


def test_watchers_coming_and_going_cost_the_players_nothing(server, http):
    """A watcher's hello changes nothing anyone sees: only the watcher gets the room message. (It went
    to every connection of the room: 40 hellos a second in a room of 200 kept a core busy.)"""
    created = create_room(http, private=True)
    code = created["room"]
    blake = join(http, code, "Blake")
    aria = Client(server.ws_url, code, created["token"])
    aria.until(lambda m: m["type"] == "welcome")
    first_tab = Client(server.ws_url, code, blake["token"])
    aria.until(lambda m: m["type"] == "room" and m["seats"][1]["connected"])  # a seat that connects: everyone
    aria.drain()
    seen = len(aria.messages)
    for _ in range(10):
        watcher = Client(server.ws_url, code)
        assert watcher.until(lambda m: m["type"] == "room")["seats"][1]["connected"] is True
        watcher.send({"type": "hello", "room": code})
        watcher.until(lambda m: m["type"] == "room")
        hang_up(watcher)
    second_tab = Client(server.ws_url, code, blake["token"])  # another tab of a seat already connected
    second_tab.until(lambda m: m["type"] == "room")
    aria.send({"type": "ping"})
    aria.until(lambda m: m["type"] == "pong")
    assert [m["type"] for m in aria.messages[seen:]] == ["pong"]
    for client in (aria, first_tab, second_tab):
        hang_up(client)


def test_names_with_commas_cannot_hide_a_team_from_the_leader(server, http):
    """A choice of N players is offered as their names joined by ", ": with players named "Ann, Bob" and
    "Bob, Cy" beside Ann and Cy, two different teams read "Ann, Bob, Cy" and the leader lost one of them."""
    from math import comb

    created = create_room(http, game="avalon", name="Ann", seats=5, private=True,
                          options={"turn_timer": None, "window_timer": None})
    code = created["room"]
    tokens = [created["token"]] + [join(http, code, name)["token"] for name in ("Ann, Bob", "Bob, Cy", "Cy", "Dee")]
    assert http.post(f"/api/rooms/{code}/start", json={"token": tokens[0]}).status_code == 200
    players = [Client(server.ws_url, code, token) for token in tokens]
    for player in players:
        player.settle(lambda v: v is not None)
    leader = None
    while leader is None:  # everyone acknowledges their role until the leader picks a team
        for player in players:
            player.drain(0.01)
            decision = player.view["decision"]
            if decision and decision.get("pick"):
                leader = player
            elif player.options:
                player.choose(player.options[0])
    count = leader.view["decision"]["pick"]["count"]
    assert len(set(leader.options)) == len(leader.options) == comb(5, count)
    assert leader.view["players"] == ["Ann", "Ann Bob", "Bob Cy", "Cy", "Dee"]
    for player in players:
        hang_up(player)
