"""A seeded random protocol fuzzer against a running server; afterwards every match is intact and playable."""

from __future__ import annotations

import json
import random
import string
import time

from websockets.exceptions import ConnectionClosed

from .support import Client, create_room, join
from .test_protocol import play_out

MESSAGES = 500
TYPES = ["hello", "choose", "chat", "start", "rematch", "ping", "leave", "teleport", ""]


def junk_text(rng: random.Random) -> str:
    pool = string.printable + "\u0000\u0007\u200b\u202e\ud800é漢🂡<>&\"'\\"
    return "".join(rng.choice(pool) for _ in range(rng.choice([0, 1, 5, 40, 301, 2000])))


def junk_value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(8 if depth < 4 else 5)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.choice([0, -1, 1, 2**63, -(2**70), 7])
    if kind == 2:
        return rng.random() * 1e308
    if kind in (3, 4):
        return junk_text(rng)
    if kind == 5:
        return [junk_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {junk_text(rng)[:8]: junk_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def frame(rng: random.Random, rooms: list[str], tokens: list[str], options: list[str], version: int):
    roll = rng.random()
    if roll < 0.08:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if roll < 0.16:
        return junk_text(rng)
    if roll < 0.2:
        return "x" * (64 * 1024 + rng.randrange(1, 4096))
    if roll < 0.25:
        return "[" * rng.randrange(100, 30_000)
    message = {"type": rng.choice(TYPES)}
    for field in ("room", "token", "version", "option", "text"):
        if rng.random() < 0.7:
            message[field] = {
                "room": lambda: rng.choice(rooms + ["ZZZZ", junk_text(rng)]),
                "token": lambda: rng.choice(tokens + ["", junk_text(rng)]),
                "version": lambda: rng.choice([version, version - 1, version + 1, "1", None, junk_value(rng)]),
                "option": lambda: rng.choice(options + [junk_text(rng)]) if options else junk_text(rng),
                "text": lambda: junk_text(rng),
            }[field]()
    if rng.random() < 0.1:
        message[junk_text(rng)[:10]] = junk_value(rng)
    return json.dumps(message, allow_nan=True)


def test_random_frames_from_many_clients_break_nothing(server, http):
    rng = random.Random(99)
    tables = []
    for _ in range(3):
        created = create_room(http, private=True, options={"turn_timer": None, "window_timer": None})
        joined = join(http, created["room"], "Blake")
        tables.append((created["room"], [created["token"], joined["token"]]))
        assert http.post(f"/api/rooms/{created['room']}/start", json={"token": created["token"]}).status_code == 200
    rooms = [code for code, _ in tables]
    tokens = [token for _, pair in tables for token in pair]
    fuzzers = [Client(server.ws_url) for _ in range(4)]
    version, options = 0, ["Income", "Tax", "Pass", "Challenge"]
    for n in range(MESSAGES):
        index = rng.randrange(len(fuzzers))
        try:
            fuzzers[index].send(frame(rng, rooms, tokens, options, version))
            fuzzers[index].drain(0)
        except (ConnectionClosed, OSError):
            fuzzers[index] = Client(server.ws_url)  # closed for flooding or an oversized frame: come back
        for client in fuzzers:
            if client.view:
                version, options = client.view["version"], client.options or options
        time.sleep(0.004)
    assert http.get("/api/games").status_code == 200, "the server is still up"
    # every match is intact and can be played to the end by its real players
    for code, pair in tables:
        room = http.get(f"/api/rooms/{code}").json()
        players = [Client(server.ws_url, code, token) for token in pair]
        for player in players:
            player.settle(lambda v: True)
        assert players[0].view["version"] == players[1].view["version"]
        if not players[0].view["over"]:
            play_out(players, rng)
        winners = players[0].view["winners"]
        for player in players:
            player.settle(lambda v: v["over"])
        end = http.get(f"/api/matches/{room['match']}/replay",
                       params={"step": players[0].view["version"], "seat": "0"}).json()
        assert end["view"]["over"] and end["view"]["winners"] == winners, "the stored log replays to the same end"
        assert end["view"] == players[0].view
