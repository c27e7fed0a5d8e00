"""A seeded random protocol fuzzer: a crowd of hostile clients against a running server.

It knows only the server's URL and docs/protocol.md (like a client written outside
the project): it opens rooms for every installed game, joins them, and then, until
its time or action budget runs out, mixes valid moves with mutated commands
(forged, foreign and truncated tokens; stale, future, huge and mistyped versions;
options that are not offered; unknown types; extra and nested fields), garbage
frames (bytes, broken or huge JSON), chat in any script, hellos to random rooms,
disconnects and reconnections, and random HTTP calls. Everything is driven by one
``random.Random(seed)``, so a failing seed replays the same attack sequence (the
server's own timing may still differ).

The :class:`Report` counts what was sent and every error code received; an
``internal`` error (the server's catch-all for a bug) is a finding.
"""

from __future__ import annotations

import json
import random
import re
import string
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

PROTOCOL_DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def documented_codes() -> set[str]:
    """Every error code docs/protocol.md names (as `code`), WebSocket and HTTP."""
    return set(re.findall(r"`([a-z][a-z_]*)`", PROTOCOL_DOC.read_text(encoding="utf-8")))


DOCUMENTED_CODES = documented_codes()

TEXT = string.printable + "éßДж中文🃏\u202e\u200b\u0000\u0007\ufeff<>&\"'\\"


@dataclass
class Seat:
    room: str
    token: str
    game: str


@dataclass
class Conn:
    """One WebSocket, what it last saw, and which seat (if any) it speaks for."""

    ws: ClientConnection
    seat: Seat | None
    room: str | None
    view: dict[str, Any] | None = None


@dataclass
class Report:
    actions: Counter = field(default_factory=Counter)
    codes: Counter = field(default_factory=Counter)
    received: Counter = field(default_factory=Counter)
    undocumented: list[dict[str, Any]] = field(default_factory=list)
    internal: list[dict[str, Any]] = field(default_factory=list)
    http_5xx: list[str] = field(default_factory=list)
    accepted_moves: int = 0
    seats: list[Seat] = field(default_factory=list)
    rooms: dict[str, str] = field(default_factory=dict)   # code -> game

    def summary(self) -> str:
        return (f"{sum(self.actions.values())} actions {dict(self.actions)}; {sum(self.received.values())} "
                f"messages received; error codes {dict(self.codes)}; ~{self.accepted_moves} moves accepted")


class ProtocolFuzzer:
    def __init__(self, base_url: str, seed: int, seconds: float = 3.0, max_actions: int = 5_000,
                 connections: int = 12):
        self.http_url = base_url.rstrip("/")
        self.ws_url = self.http_url.replace("http", "ws", 1) + "/ws"
        self.rng = random.Random(seed)
        self.seconds = seconds
        self.max_actions = max_actions
        self.connections = connections
        self.report = Report()
        self.conns: list[Conn] = []
        self.http = httpx.Client(base_url=self.http_url, trust_env=False, timeout=10)

    # -- set up ---------------------------------------------------------------------------------
    def open_rooms(self, games: list[dict[str, Any]]) -> None:
        for game in games:
            for _ in range(2):
                humans = self.rng.randint(2, 3)
                bots = max(0, game["min_players"] - humans) + self.rng.randint(0, 1)
                seats = min(humans + bots, game["max_players"])
                bots = seats - humans
                answer = self.http.post("/api/rooms", json={
                    "game": game["id"], "name": self.text(1, 12) or "host", "seats": seats,
                    "bots": [{"kind": "random"}] * bots, "private": True,
                    "options": {"turn_timer": None, "window_timer": None}})
                if answer.status_code != 201:
                    continue
                room = answer.json()
                code = room["room"]
                self.report.rooms[code] = game["id"]
                tokens = [room["token"]]
                for _ in range(humans - 1):
                    joined = self.http.post(f"/api/rooms/{code}/join", json={"name": self.text(1, 12) or "guest"})
                    if joined.status_code == 200:
                        tokens.append(joined.json()["token"])
                self.report.seats.extend(Seat(code, t, game["id"]) for t in tokens)
                self.http.post(f"/api/rooms/{code}/start", json={"token": tokens[0]})

    def connect(self, seat: Seat | None = None, room: str | None = None) -> Conn | None:
        try:
            ws = connect(self.ws_url, proxy=None, open_timeout=5, max_size=4 * 1024 * 1024, compression=None,
                         legacy=True)
        except (OSError, InvalidHandshake, TimeoutError):
            return None
        ws.close_timeout = 0.2
        conn = Conn(ws, seat, room or (seat.room if seat else None))
        if conn.room:
            self.send(conn, {"type": "hello", "room": conn.room, **({"token": seat.token} if seat else {})})
        return conn

    # -- the loop ---------------------------------------------------------------------------------
    def run(self) -> Report:
        games = self.http.get("/api/games").json()
        self.open_rooms(games)
        for seat in self.report.seats:
            if (conn := self.connect(seat)) is not None:
                self.conns.append(conn)
        deadline = time.monotonic() + self.seconds
        actions = [(self.valid_move, 30), (self.mutated_move, 20), (self.garbage, 8), (self.chat, 5),
                   (self.hello, 5), (self.reconnect, 4), (self.spectate, 2), (self.http_call, 6), (self.ping, 3)]
        population = [a for a, _ in actions]
        weights = [w for _, w in actions]
        count = 0
        while time.monotonic() < deadline and count < self.max_actions:
            self.drain()
            action = self.rng.choices(population, weights)[0]
            self.report.actions[action.__name__] += 1
            action()
            count += 1
        self.drain()
        for conn in self.conns:
            self.close(conn)
        self.http.close()
        return self.report

    # -- reading --------------------------------------------------------------------------------
    def drain(self) -> None:
        for conn in list(self.conns):
            while True:
                try:
                    raw = conn.ws.recv(timeout=0)
                except TimeoutError:
                    break
                except ConnectionClosed:
                    self.conns.remove(conn)
                    self.report.received["closed"] += 1
                    break
                self.receive(conn, raw)

    def receive(self, conn: Conn, raw: str | bytes) -> None:
        message = json.loads(raw)
        kind = message.get("type")
        self.report.received[kind] += 1
        if kind == "view":
            if conn.view is not None and message["view"]["version"] > conn.view["version"]:
                self.report.accepted_moves += message["view"]["version"] - conn.view["version"]
            conn.view = message["view"]
        elif kind == "error":
            code = message.get("code")
            self.report.codes[code] += 1
            if code not in DOCUMENTED_CODES:
                self.report.undocumented.append(message)
            if code == "internal":
                self.report.internal.append(message)

    def send(self, conn: Conn, frame: Any) -> None:
        try:
            if isinstance(frame, (str, bytes)):
                conn.ws.send(frame)
            else:
                conn.ws.send(json.dumps(frame, ensure_ascii=self.rng.random() < 0.5))
        except (ConnectionClosed, OSError):
            if conn in self.conns:
                self.conns.remove(conn)

    def close(self, conn: Conn) -> None:
        try:
            conn.ws.close()
        except Exception:  # noqa: BLE001 - already gone
            pass

    # -- random pieces ------------------------------------------------------------------------------
    def text(self, low: int = 0, high: int = 40) -> str:
        return "".join(self.rng.choice(TEXT) for _ in range(self.rng.randint(low, high)))

    def seated(self) -> Conn | None:
        conns = [c for c in self.conns if c.seat is not None]
        return self.rng.choice(conns) if conns else None

    def any_conn(self) -> Conn | None:
        if not self.conns or (self.rng.random() < 0.05 and len(self.conns) < self.connections * 3):
            conn = self.connect()
            if conn is not None:
                self.conns.append(conn)
            return conn
        return self.rng.choice(self.conns)

    def command(self, conn: Conn) -> dict[str, Any]:
        view = conn.view or {}
        options = (view.get("decision") or {}).get("options") or ["Pass"]
        return {"type": "choose", "token": conn.seat.token if conn.seat else self.text(),
                "version": view.get("version", 0), "option": self.rng.choice(options)}

    # -- actions ------------------------------------------------------------------------------------------
    def valid_move(self) -> None:
        ready = [c for c in self.conns if c.seat and c.view and (c.view.get("decision") or {}).get("options")]
        if ready:
            conn = self.rng.choice(ready)
            self.send(conn, self.command(conn))

    def mutated_move(self) -> None:
        conn = self.seated() or self.any_conn()
        if conn is None:
            return
        command = self.command(conn)
        other = self.rng.choice(self.report.seats).token if self.report.seats else "x"
        mutation = self.rng.randrange(12)
        if mutation == 0:
            command["token"] = other                        # another seat's, maybe another room's
        elif mutation == 1:
            command["token"] = command["token"][:-1] + self.rng.choice("AZaz09-_")
        elif mutation == 2:
            command["version"] += self.rng.choice([-2, -1, 1, 2, 10**6])
        elif mutation == 3:
            command["version"] = self.rng.choice([None, "0", 1.5, True, [], {}, -2**63, 2**64])
        elif mutation == 4:
            command["option"] = self.text(0, 60)
        elif mutation == 5:
            command["option"] = self.rng.choice([None, 7, ["Income"], {"x": 1}, "Income" * 2000])
        elif mutation == 6:
            command.pop(self.rng.choice(["token", "version", "option", "type"]))
        elif mutation == 7:
            command["type"] = self.rng.choice(["Choose", "choose ", "start", "rematch", "chat", self.text(1, 10)])
        elif mutation == 8:
            command[self.text(1, 8)] = self.rng.choice([1, "x", None, [1], {"a": 1}])
        elif mutation == 9:
            command["seat"] = self.rng.randint(-1, 8)     # trying to name the seat to act for
        elif mutation == 10:
            command["token"] = self.rng.choice(["", " ", "null", "' OR 1=1 --", "../" * 10, "\u0000" * 43])
        else:
            command = {"type": "start", "token": command["token"]} if self.rng.random() < 0.5 else \
                {"type": "rematch", "token": command["token"]}
        self.send(conn, command)

    def garbage(self) -> None:
        conn = self.any_conn()
        if conn is None:
            return
        kind = self.rng.randrange(7)
        if kind == 0:
            frame: Any = bytes(self.rng.randrange(256) for _ in range(self.rng.randint(0, 64)))
        elif kind == 1:
            frame = self.text(0, 80)
        elif kind == 2:
            frame = json.dumps({"type": "choose"})[: self.rng.randint(0, 15)]
        elif kind == 3:
            depth = self.rng.choice([3, 50, 5_000, 40_000])
            frame = "[" * depth + "]" * depth
        elif kind == 4:
            frame = json.dumps({"type": "chat", "text": "x" * self.rng.choice([301, 70_000])})
        elif kind == 5:
            frame = json.dumps(self.rng.choice([[], 1, "ping", None, True, {"type": 5}, {"type": {"a": "b"}}]))
        else:
            frame = json.dumps({"type": "hello", "room": {"$gt": ""}})
        self.send(conn, frame)

    def chat(self) -> None:
        conn = self.seated()
        if conn is not None:
            self.send(conn, {"type": "chat", "token": conn.seat.token, "text": self.text(0, 320)})

    def hello(self) -> None:
        conn = self.any_conn()
        if conn is None:
            return
        rooms = list(self.report.rooms)
        room = self.rng.choice(rooms + [self.text(0, 6), "ZZZZ", "../../etc"]) if rooms else "ZZZZ"
        token = self.rng.choice([None, self.text(0, 50)] + [s.token for s in self.report.seats[:20]])
        message: dict[str, Any] = {"type": "hello", "room": room}
        if token is not None:
            message["token"] = token
        self.send(conn, message)
        # the connection may now hold another seat (a token it was given) or be a spectator
        conn.seat = next((s for s in self.report.seats if s.token == token and s.room == room), None)
        conn.room, conn.view = room, None

    def reconnect(self) -> None:
        conn = self.seated()
        if conn is None:
            return
        self.close(conn)
        self.conns.remove(conn)
        if (again := self.connect(conn.seat)) is not None:
            self.conns.append(again)

    def spectate(self) -> None:
        if self.report.rooms and len(self.conns) < self.connections * 2:
            conn = self.connect(room=self.rng.choice(list(self.report.rooms)))
            if conn is not None:
                self.conns.append(conn)

    def ping(self) -> None:
        conn = self.any_conn()
        if conn is not None:
            self.send(conn, {"type": "ping"})

    def http_call(self) -> None:
        rooms = list(self.report.rooms) or ["ZZZZ"]
        room = quote(self.rng.choice(rooms + [self.text(0, 8)]), safe="")
        token = self.rng.choice([s.token for s in self.report.seats] or ["x"]) if self.rng.random() < 0.3 \
            else self.text(0, 50)
        calls = [
            ("GET", f"/api/rooms/{room}", None),
            ("GET", "/api/rooms", None),
            ("GET", f"/api/matches?status={self.rng.choice(['playing', 'finished', 'x'])}", None),
            ("GET", f"/api/matches/{self.rng.randint(-2, 50)}/replay?step={self.rng.randint(-1, 99)}"
                    f"&seat={self.rng.choice(['all', '0', '1', '9', 'x'])}", None),
            ("POST", f"/api/rooms/{room}/join", {"name": self.text(0, 30)}),
            ("POST", f"/api/rooms/{room}/start", {"token": token}),
            ("POST", "/api/rooms", {"game": self.rng.choice(list(set(self.report.rooms.values())) or ["coup"]),
                                    "name": self.text(0, 30), "seats": self.rng.randint(0, 12),
                                    "bots": [{"kind": self.rng.choice(["random", "x"])}] * self.rng.randint(0, 3),
                                    "options": self.rng.choice([{}, {"turn_timer": self.rng.randint(-5, 5)},
                                                                {"nope": 1}])}),
            ("POST", f"/api/rooms/{room}/join", self.rng.choice([[], "x", {"name": 5}, {"name": "a", "b": 1}])),
        ]
        method, path, body = self.rng.choice(calls)
        try:
            answer = self.http.request(method, path, json=body) if body is not None else self.http.request(method, path)
        except httpx.HTTPError as exc:
            self.report.http_5xx.append(f"{method} {path}: {exc!r}")
            return
        if answer.status_code >= 500 and not (answer.status_code == 503 and "storage" in answer.text):
            self.report.http_5xx.append(f"{method} {path}: {answer.status_code} {answer.text[:200]}")
        elif answer.status_code >= 400:
            code = answer.json().get("error", {}).get("code")
            self.report.codes[f"http:{code}"] += 1
            if code not in DOCUMENTED_CODES:
                self.report.undocumented.append({"http": path, "answer": answer.text[:200]})
        elif method == "POST" and path.endswith("/join") and answer.status_code == 200:
            joined = answer.json()
            self.report.seats.append(Seat(joined["room"], joined["token"], self.report.rooms.get(joined["room"], "?")))


def main() -> None:
    """``python -m tests.security.fuzzer URL [--seed N] [--seconds S]``: attack a running server."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("url", help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--actions", type=int, default=100_000)
    args = parser.parse_args()
    report = ProtocolFuzzer(args.url, args.seed, args.seconds, args.actions).run()
    print(report.summary())
    for finding in report.internal + report.undocumented:
        print("finding:", finding)
    for finding in report.http_5xx:
        print("finding:", finding)
    raise SystemExit(1 if report.internal or report.undocumented or report.http_5xx else 0)


if __name__ == "__main__":
    main()
