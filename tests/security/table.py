"""A live table for attacks: a started room of any game with connected WebSocket players,
and a snapshot of every match on the server to prove an attack changed nothing."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import httpx

from intrigue.server.history import fingerprint

from ..server.support import Client, ServerThread, create_room, join

NAMES = ["Aria", "Blake", "Casey", "Drew", "Emery", "Finn", "Gale", "Harper"]


class Table:
    """A private room of ``game`` with timers off: every human seat connected, the match started."""

    def __init__(self, server: ServerThread, http: httpx.Client, game: str = "coup", humans: int | None = None,
                 bots: int = 0, timers: dict[str, Any] | None = None):
        from intrigue import games

        rules = games.get(game)
        humans = humans or max(2, rules.min_players - bots)
        options = timers if timers is not None else {"turn_timer": None, "window_timer": None}
        created = create_room(http, game=game, name=NAMES[0], seats=humans + bots,
                              bots=[{"kind": "random"}] * bots, private=True, options=options)
        self.server = server
        self.code = created["room"]
        self.tokens = [created["token"]] + [join(http, self.code, NAMES[n])["token"] for n in range(1, humans)]
        self.clients = [Client(server.ws_url, self.code, token) for token in self.tokens]
        for client in self.clients:
            client.until(lambda m: m["type"] == "welcome")
        self.clients[0].send({"type": "start", "token": self.tokens[0]})
        for client in self.clients:
            client.settle(lambda v: v is not None)
        self.settle()

    @property
    def room(self) -> Any:
        return self.server.app.state.lobby.rooms[self.code]

    @property
    def match(self) -> Any:
        return self.room.match

    def settle(self, timeout: float = 10) -> None:
        """Wait until every client holds the server's current view (bots have moved). In a secret
        decision a seat is not told that someone else answered: its view is current when it equals
        what the server would show it now, but for the version number."""
        import time

        deadline = time.monotonic() + timeout
        while True:
            version = self.match.version
            try:
                for client in self.clients:
                    client.settle(lambda v, n=version, c=client: v["version"] >= n or self.current(c, v),
                                  timeout=max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                if time.monotonic() > deadline:
                    raise
            if self.match.version == version and all(c.view["version"] == version or self.current(c, c.view)
                                                     for c in self.clients):
                return

    def current(self, client: Client, view: dict[str, Any]) -> bool:
        decision = self.match.decision
        if decision is None or not decision.secret:
            return False
        now = json.loads(json.dumps(self.match.observe(view["seat"])))  # as the wire carries it
        return {**view, "version": now["version"]} == now

    def move(self, client: Client, option: str) -> None:
        """Choose ``option`` for ``client`` and wait until the server has applied it everywhere."""
        version = client.view["version"]
        client.choose(option)
        client.settle(lambda v: v["version"] > version or v["over"])
        self.settle()

    def pending(self) -> Client | None:
        return next((c for c in self.clients if c.options), None)

    def idle(self) -> Client:
        return next(c for c in self.clients if not c.options)

    def close(self) -> None:
        for client in self.clients:
            hang_up(client)

    def abandon(self, http: httpx.Client, timeout: float = 20) -> None:
        """Everyone leaves and the server plays the match out at once, so that it stops changing
        (a table merely disconnected keeps moving on its grace timers, under later tests' snapshots)."""
        import time

        for token in self.tokens:
            http.post(f"/api/rooms/{self.code}/leave", json={"token": token})
        self.close()
        lobby = self.server.app.state.lobby
        deadline = time.monotonic() + timeout
        while self.code in lobby.rooms and not (lobby.rooms[self.code].match and lobby.rooms[self.code].match.over):
            if time.monotonic() > deadline:
                raise TimeoutError(f"room {self.code} was not played out")
            time.sleep(0.01)


def hang_up(client: Client) -> None:
    """Close a client without waiting 10 s on a close frame stuck behind unread messages."""
    client.ws.close_timeout = 0.5
    try:
        client.drain(0.01)
    except Exception:  # noqa: BLE001 - already closed
        pass
    client.close()


def live_rooms(server: ServerThread) -> list[tuple[str, Any]]:
    """The server's rooms, read from the test's thread while the server may be adding or closing one."""
    for _ in range(100):
        try:
            return sorted(server.app.state.lobby.rooms.items())
        except RuntimeError:  # the dict changed size while being copied
            continue
    raise RuntimeError("the room table never held still")


def snapshot(server: ServerThread) -> dict[str, Any]:
    """Every room's status, seats and match (version, true-state fingerprint, stored log length)."""
    rooms = {}
    for code, room in live_rooms(server):
        match = room.match
        rooms[code] = {
            "status": room.status, "host": room.host,
            "seats": [(s.name, s.bot, s.token_hash, s.left) for s in room.seats],
            "match": None if match is None else {
                "id": room.match_id, "version": match.version, "fingerprint": fingerprint(match),
                "pending": list(match.pending), "stored": len(server.store.choices(room.match_id)),
            },
        }
    return rooms


def digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()
