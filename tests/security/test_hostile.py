"""A cheating player with a real WebSocket: every attack gets a clear refusal and changes no match.

Each attack runs against a live table and is followed by a check that every room
and match on the server (status, seats, version, true-state fingerprint, pending
seats, stored log) is exactly as before. The exact refusal ``code`` is asserted,
so removing the check that produces it fails the test.
"""

from __future__ import annotations

import random
import socket
import time
from dataclasses import replace
from pathlib import Path

import pytest

from intrigue.server.protocol import MAX_MESSAGE
from intrigue.server.settings import Settings

from ..server.support import FAST, Client, ServerThread, create_room, join
from .table import Table, hang_up, snapshot

STATIC = Path(__file__).resolve().parents[2] / "src" / "intrigue" / "web" / "static"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """No grace timers here: an attack must be the only thing that could change a match.

    (With the usual half-second grace, a seat whose second connection was cut off
    is played for by the server while a later test compares its snapshots, which
    is what happened on a loaded machine.)"""
    with ServerThread(tmp_path_factory.mktemp("hostile") / "intrigue.db",
                      replace(FAST, disconnect_grace=3600.0)) as running:
        yield running


@pytest.fixture(scope="module")
def tables(server):
    """Two live Coup tables: ``a`` is attacked, ``b`` holds tokens of another room."""
    with server.http() as http:
        a, b = Table(server, http, "coup", humans=3), Table(server, http, "coup", humans=2)
    yield a, b
    a.close()
    b.close()


def attack(server, sender: Client, frame, code: str) -> dict:
    """Send ``frame``; expect the refusal ``code``; prove nothing changed anywhere."""
    before = snapshot(server)
    sender.send(frame)
    error = sender.error()
    assert error["code"] == code, error
    assert error["message"]
    assert snapshot(server) == before
    return error


def command(table: Table, client: Client, **fields) -> dict:
    base = {"type": "choose", "token": client.token, "version": table.match.version,
            "option": table.match.legal(table.match.pending[0])[0]}
    base.update(fields)
    return {k: v for k, v in base.items() if v is not ...}


# -------------------------------------------------------------------------- tokens and seats
def test_forged_missing_and_foreign_tokens(server, tables):
    a, b = tables
    actor = a.pending()
    attack(server, actor, command(a, actor, token="A" * 43), "bad_token")
    attack(server, actor, command(a, actor, token=""), "bad_token")
    error = attack(server, actor, command(a, actor, token=...), "bad_token")  # docs/protocol.md: missing token
    assert "token" in error["message"]
    attack(server, actor, command(a, actor, token=None), "bad_token")  # null counts as missing
    attack(server, actor, command(a, actor, token=b.tokens[0]), "bad_token")  # a seat of another room
    attack(server, actor, command(a, actor, token=actor.token[:-1]), "bad_token")  # one character short
    attack(server, actor, command(a, actor, token=actor.token.upper()), "bad_token")
    attack(server, actor, command(a, actor, token=12345), "bad_message")


def test_acting_for_another_seat_or_out_of_turn(server, tables):
    a, _ = tables
    idle = a.idle()
    pending_seat = a.match.pending[0]
    # a seat field is not how a seat is chosen: the token decides, and this token's seat is not pending
    attack(server, idle, command(a, idle, seat=pending_seat, player=a.match.names[pending_seat]), "not_pending")
    attack(server, idle, command(a, idle), "not_pending")


def test_stale_future_and_replayed_versions(server, tables):
    a, _ = tables
    actor = a.pending()
    attack(server, actor, command(a, actor, version=a.match.version + 1), "stale_version")
    attack(server, actor, command(a, actor, version=-1), "stale_version")
    attack(server, actor, command(a, actor, version=2**70), "stale_version")
    # a real move, then the very same command again
    move = command(a, actor, option="Income") if "Income" in actor.options else command(a, actor)
    actor.send(move)
    actor.settle(lambda v: v["version"] > move["version"])
    a.settle()
    attack(server, actor, move, "stale_version")
    if a.match.version >= 2:
        attack(server, a.pending(), command(a, a.pending(), version=0), "stale_version")


def test_options_that_are_not_offered(server, tables):
    a, _ = tables
    actor = a.pending()
    for option in ("Assassinate", "income", "Income ", "", "Block with Duke", "Pass\u0000", "x" * 5000):
        if option in actor.options:
            continue
        attack(server, actor, command(a, actor, option=option), "not_offered")
    attack(server, actor, command(a, actor, option=["Income"]), "bad_message")
    attack(server, actor, command(a, actor, option=None), "bad_message")


def test_a_dead_player_cannot_act(server, http):
    rng = random.Random(66)
    for _ in range(10):
        table = Table(server, http, "coup", humans=3)
        while not table.match.over and all(table.match.alive(s) for s in range(3)):
            mover = table.pending()
            table.move(mover, rng.choice(mover.options))
        if not table.match.over:
            break
        table.close()
    else:
        pytest.fail("no random Coup game kept going after a death")
    dead = next(c for c in table.clients if not table.match.alive(c.view["seat"]))
    for option in table.match.legal(table.match.pending[0]) + ["Income", "Lose Duke"]:
        attack(server, dead, command(table, dead, option=option), "not_pending")
    table.abandon(http)


# -------------------------------------------------------------------------- frames
@pytest.mark.parametrize("frame, code", [
    ("x" * (MAX_MESSAGE + 1), "too_large"),
    ("{" + " " * MAX_MESSAGE + "}", "too_large"),
    ('{"type": "choose", "token": "' + "é" * (MAX_MESSAGE // 2) + '"}', "too_large"),  # over 64 KiB as UTF-8
    ("{'type': 'ping'}", "bad_json"),
    ('{"type": "ping"', "bad_json"),
    ("\udcff", "bad_json"),
    # NaN and Infinity are not JSON (RFC 8259), though Python's parser reads them; nor is a number beyond a
    # double (read as infinity): before, each was accepted (a frame holding one was taken as a command)
    ("NaN", "bad_json"),
    ('{"type": "ping", "x": NaN}', "bad_json"),
    ('{"type": "ping", "x": -Infinity}', "bad_json"),
    ('{"type": "ping", "x": 1e999}', "bad_json"),
    ('{"type": "choose", "token": "t", "version": Infinity, "option": "Income"}', "bad_json"),
    ("", "bad_json"),
    (b"\x81\xff", "binary"),
    (b'{"type": "ping"}', "binary"),
    ('{"type": "teleport"}', "unknown_type"),
    ('{"type": "admin", "token": "x"}', "unknown_type"),
    ('{"type": null}', "bad_message"),
    ('{"type": ["choose"]}', "bad_message"),
    ('{"type": "choose", "token": {"$ne": null}, "version": 0, "option": "Income"}', "bad_message"),
    ("[" * 100_000 + "]" * 100_000, "too_large"),
    ("[" * 30_000 + "]" * 30_000, "bad_json"),
    ('{"type": "chat", "text": ' + "[" * 5_000 + "]" * 5_000 + "}", "bad_json"),
    ('{"type": "ping", "a": [[[[1]]]]}', "bad_message"),
])
def test_malformed_frames_change_nothing(server, tables, frame, code):
    a, _ = tables
    seated = a.pending()
    sender = Client(server.ws_url, a.code, seated.token)  # a second connection of the pending seat
    sender.until(lambda m: m["type"] == "welcome")
    if isinstance(frame, str) and frame.startswith('{"type": "choose", "token": "é'):
        assert len(frame) < MAX_MESSAGE < len(frame.encode())
    if frame == "\udcff":  # a lone surrogate cannot be sent as text by a conforming client: send raw bytes
        raw_text_frame(sender, b"\xed\xb3\xbf")
        assert sender.closed(timeout=3), "invalid UTF-8 in a text frame closes the connection (RFC 6455)"
    else:
        attack(server, sender, frame, code)
        sender.send({"type": "ping"})
        assert sender.until(lambda m: m["type"] == "pong")
    hang_up(sender)
    seated.send({"type": "ping"})
    assert seated.until(lambda m: m["type"] == "pong")


def raw_text_frame(client: Client, payload: bytes) -> None:
    """Send a text frame whose payload is not UTF-8 (the client library refuses to)."""
    with client.ws.send_context():
        client.ws.protocol.send_text(payload)


def test_a_flooding_seat_is_cut_off_and_the_table_plays_on(server, tables):
    a, _ = tables
    idle = a.idle()
    flooder = Client(server.ws_url, a.code, idle.token)
    flooder.until(lambda m: m["type"] == "welcome")
    before = snapshot(server)
    for _ in range(600):
        try:
            flooder.send(command(a, flooder, option="Income"))
        except Exception:  # noqa: BLE001 - closed by the server
            break
    assert flooder.closed(timeout=5), "a flood ends in a disconnect"
    codes = {m.get("code") for m in flooder.messages if m["type"] == "error"}
    assert "rate_limited" in codes and codes <= {"rate_limited", "not_pending"}
    assert snapshot(server) == before
    actor = a.pending()
    actor.send({"type": "ping"})
    assert actor.until(lambda m: m["type"] == "pong", timeout=2)


# -------------------------------------------------------------------------- text
def test_names_are_stored_and_shown_as_plain_one_line_text(server, http):
    created = create_room(http, name="<script>alert(1)</script>\n\u202eevil\u200b\u0007" + "A" * 150, seats=5,
                          private=True)
    code = created["room"]
    shown = http.get(f"/api/rooms/{code}").json()["seats"][0]["name"]
    assert shown == "<script>alert(1)</script>"[:24], shown  # control/format characters gone, cut to 24
    room = server.app.state.lobby.rooms[code]
    assert room.seats[0].name == shown
    assert server.store.load_room(code).seats[0].name == shown
    joined = join(http, code, "\u0000\u0001Blake\u2028\u2029\ufeff")
    assert http.get(f"/api/rooms/{code}").json()["seats"][joined["seat"]]["name"] == "Blake"
    for name in ("\u200b\u200c\u200d", " \t\n ", "\u0000" * 10):
        answer = http.post(f"/api/rooms/{code}/join", json={"name": name})
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_message"
    long = http.post("/api/rooms", json={"game": "coup", "name": "N" * 10_000, "seats": 2})
    assert long.status_code == 422 and long.json()["error"]["code"] == "schema"


def test_chat_is_text_only_bounded_and_seen_as_typed(server, tables):
    a, _ = tables
    speaker, listener = a.clients[0], a.clients[1]
    before = snapshot(server)
    speaker.send({"type": "chat", "token": speaker.token, "text": "<b onmouseover=alert(1)>hi</b>\r\n\u202e\u0000ok"})
    line = listener.until(lambda m: m["type"] == "chat")
    assert line["text"] == "<b onmouseover=alert(1)>hi</b> ok" and line["from"] == "Aria"
    assert snapshot(server) == before
    error = attack(server, speaker, {"type": "chat", "token": speaker.token, "text": "y" * 20_000}, "bad_message")
    assert "at most 300" in error["message"]
    attack(server, speaker, {"type": "chat", "token": speaker.token, "text": "\u200b\u0007 \n"}, "bad_message")
    attack(server, speaker, {"type": "chat", "token": "Z" * 43, "text": "hi"}, "bad_token")


def test_the_web_client_never_turns_text_into_html():
    """Names, chat and log lines are shown as text: no script in the client builds HTML from strings."""
    offenders = []
    for path in sorted(STATIC.glob("*.js")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//")[0]
            for sink in (".innerHTML", ".outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                         "new Function", "createContextualFragment"):
                if sink in code:
                    offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert not offenders, offenders


# -------------------------------------------------------------------------- HTTP routes
def raw_get(port: int, path: str) -> tuple[int, bytes]:
    """GET ``path`` exactly as written (no client-side normalisation of ``..``)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


TRAVERSALS = [
    "/static/../server/app.py", "/static/../../intrigue/server/app.py", "/static/%2e%2e/server/app.py",
    "/static/%2e%2e%2f%2e%2e%2fserver%2fapp.py", "/static/..%2f..%2fserver%2fapp.py",
    "/static/....//....//server/app.py", "/static/..\\..\\server\\app.py", "/static//etc/passwd",
    "/static/%2fetc%2fpasswd", "/static/%252e%252e/server/app.py", "/static/..%c0%af..%c0%afetc/passwd",
    "/static/__init__.py/../../server/app.py", "/static/%00", "/static/index.html%00.py",
    "/room/..%2f..%2fserver%2fapp.py", "/replay/../../etc/passwd", "/api/rooms/..%2f..%2fetc%2fpasswd",
    "/api/matches/..%2f1/replay", "/api/rooms/%2e%2e", "/../../../../etc/passwd",
]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_path_traversal_reads_no_file_outside_the_web_client(server, path):
    status, body = raw_get(server.port, path)
    assert status in (200, 400, 404, 405, 422), (status, body[:200])
    assert b"import " not in body and b"root:" not in body and b"def " not in body, body[:200]
    if status == 200:  # only the web client's own pages may answer
        assert body.lstrip().lower().startswith(b"<!doctype html"), body[:200]


def test_static_files_are_served_and_nothing_else(server):
    status, body = raw_get(server.port, "/static/dom.js")
    assert status == 200 and b"text nodes" in body
    status, _ = raw_get(server.port, "/static/__init__.py")
    assert status in (200, 404)  # a package marker inside the static folder is all it could be


# -------------------------------------------------------------------------- quotas
def test_one_client_cannot_create_rooms_without_limit(tmp_path):
    settings = Settings(bot_delay=0.0, room_quota=3, max_rooms=6)
    with ServerThread(tmp_path / "quota.db", settings) as small, small.http() as http:
        for _ in range(3):
            create_room(http)
        before = snapshot(small)
        answer = http.post("/api/rooms", json={"game": "coup", "name": "A", "seats": 2})
        assert answer.status_code == 429 and answer.json()["error"]["code"] == "quota"
        assert "limit 3" in answer.json()["error"]["message"]
        assert snapshot(small) == before
        # the rooms already made still work
        code = next(iter(before))
        assert http.post(f"/api/rooms/{code}/join", json={"name": "Blake"}).status_code == 200
        # and the server-wide cap holds even for many clients
        lobby = small.app.state.lobby
        for n in range(3):
            lobby.create(f"10.0.0.{n}", "coup", "X", 2, [], {}, False, clock=lambda: 0.0)
        with pytest.raises(Exception) as refused:
            lobby.create("10.0.0.99", "coup", "X", 2, [], {}, False, clock=lambda: 0.0)
        assert getattr(refused.value, "code", None) == "quota"
        assert "server is full" in refused.value.message


def test_one_address_cannot_take_every_free_seat(tmp_path):
    settings = Settings(bot_delay=0.0, seats_per_address=3)
    with ServerThread(tmp_path / "seats.db", settings) as small, small.http() as http:
        lobby = small.app.state.lobby
        rooms = [lobby.create(f"10.1.0.{n}", "coup", "Host", 3, [], {}, False, clock=lambda: 0.0)[0].code
                 for n in range(3)]
        joined = [http.post(f"/api/rooms/{code}/join", json={"name": "Squat"}) for code in rooms]
        assert [answer.status_code for answer in joined] == [200, 200, 200]
        before = snapshot(small)
        answer = http.post(f"/api/rooms/{rooms[0]}/join", json={"name": "Squat"})
        assert answer.status_code == 429 and answer.json()["error"]["code"] == "quota"
        assert "limit 3" in answer.json()["error"]["message"]
        assert snapshot(small) == before
        # another address still gets the seat; leaving gives the squatter one back
        lobby.join("10.2.0.1", rooms[0], "Blake")
        token = joined[1].json()["token"]
        assert http.post(f"/api/rooms/{rooms[1]}/leave", json={"token": token}).status_code == 200
        assert http.post(f"/api/rooms/{rooms[2]}/join", json={"name": "Squat"}).status_code == 200


def test_hello_for_many_rooms_keeps_one_room_per_connection(server, http):
    a = Table(server, http, "coup")
    b = Table(server, http, "coup")
    spy = Client(server.ws_url, a.code)
    spy.until(lambda m: m["type"] == "welcome")
    spy.send({"type": "hello", "room": b.code})
    spy.until(lambda m: m["type"] == "welcome" and m["room"] == b.code)
    spy.drain()
    seen_before = len(spy.messages)
    a.move(a.pending(), a.pending().options[0])
    time.sleep(0.1)
    spy.drain()
    rooms = {m.get("room") for m in spy.messages[seen_before:] if m["type"] == "room"}
    assert a.code not in rooms, "a connection that moved to another room still hears the first one"
    hang_up(spy)
    a.abandon(http)
    b.abandon(http)


def test_one_address_cannot_hold_connections_without_limit(tmp_path):
    """Each WebSocket costs the server a task and a socket: one address may hold only so many at once."""
    limit = 5
    with ServerThread(tmp_path / "conns.db", Settings(bot_delay=0.0, sockets_per_address=limit)) as small:
        held = [Client(small.ws_url) for _ in range(limit)]
        for client in held:
            client.send({"type": "ping"})
            assert client.until(lambda m: m["type"] == "pong")
        extra = Client(small.ws_url)
        refusal = extra.error()
        assert refusal["code"] == "quota" and f"limit {limit}" in refusal["message"]
        assert extra.closed(timeout=3)
        held[0].send({"type": "ping"})  # the ones already open are unaffected
        assert held[0].until(lambda m: m["type"] == "pong")
        hang_up(held.pop())
        time.sleep(0.2)
        again = Client(small.ws_url)  # a slot is free again
        again.send({"type": "ping"})
        assert again.until(lambda m: m["type"] == "pong")
        for client in held + [again]:
            hang_up(client)


def test_one_address_cannot_open_connections_without_limit(tmp_path):
    """Each new WebSocket is a handshake and, for a seat, news to its room: one address may open only
    so many a second (after a burst); a further one is told why and closed with 1013 (try again later),
    the ones already open play on, and a moment later the address may connect again."""
    settings = Settings(bot_delay=0.0, connect_rate=0.5, connect_burst=4.0)  # one more every 2 s
    with ServerThread(tmp_path / "connects.db", settings) as small:
        opened = []
        for _ in range(4):  # the burst: hung up at once, they still count
            client = Client(small.ws_url)
            client.send({"type": "ping"})
            assert client.until(lambda m: m["type"] == "pong")
            opened.append(client)
        hang_up(opened.pop())
        extra = Client(small.ws_url)
        refusal = extra.error()
        assert refusal["code"] == "rate_limited" and "0.5 a second" in refusal["message"], refusal
        assert extra.closed(timeout=3)
        assert extra.ws.close_code == 1013 and extra.ws.close_reason == "too many new connections"
        opened[0].send({"type": "ping"})  # the ones already open are unaffected
        assert opened[0].until(lambda m: m["type"] == "pong")
        time.sleep(2.2)  # one more two seconds later
        again = Client(small.ws_url)
        again.send({"type": "ping"})
        assert again.until(lambda m: m["type"] == "pong")
        for client in opened + [again]:
            hang_up(client)


@pytest.mark.parametrize("personality", ["99999999ms", "5000000", "pure-86400000ms", "model-999999999"])
def test_a_room_cannot_ask_for_a_bot_that_thinks_for_ever(http, personality):
    """A bot's thinking budget is the server's CPU: rooms get the listed personalities, not any number."""
    before = len(http.get("/api/rooms").json())
    answer = http.post("/api/rooms", json={"game": "coup", "name": "A", "seats": 2,
                                           "bots": [{"kind": "ismcts", "personality": personality}]})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_message", answer.text
    assert "fast" in answer.json()["error"]["message"]
    assert len(http.get("/api/rooms").json()) == before
    listed = http.post("/api/rooms", json={"game": "coup", "name": "A", "seats": 2, "private": True,
                                           "bots": [{"kind": "ismcts", "personality": "fast"}]})
    assert listed.status_code == 201
