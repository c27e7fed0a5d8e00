"""Real WebSocket players that reconnect by themselves (as the browser does) and note every acknowledged move."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus, InvalidHandshake


@dataclass
class Table:
    """What the players of all matches saw: acknowledged moves and each match's last view."""

    acked: dict[tuple[int, int], tuple[int, str]] = field(default_factory=dict)  # (match, version) → (seat, option)
    versions: dict[str, int] = field(default_factory=dict)   # room → highest version seen
    finished: dict[str, dict[str, Any]] = field(default_factory=dict)  # room → final view
    reconnects: int = 0
    moved: int = 0  # connections their gateway moved to the room's new owner (a welcome on an open socket)
    errors: dict[str, int] = field(default_factory=dict)


async def player(url: str, room: str, token: str, table: Table, seed: int, pace: float = 0.0,
                 deadline: float = 60.0, host: bool = False) -> None:
    """Play random legal moves for one seat until the match is over, reconnecting whenever the connection drops.

    A move is acknowledged once a view shows a higher version than the one it was sent at (in a
    two-player match only one seat is ever pending, so that move is this seat's). A second ``welcome``
    on the same connection means its gateway moved it to the room's new owner: a move sent before it
    may have been lost, and is sent again if the view that follows still asks for it.
    """
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    stop_at = loop.time() + deadline
    sent: tuple[int, int, int, str] | None = None  # (match, version, connection number, option)
    connection = 0
    started = False
    while loop.time() < stop_at:
        connection += 1
        welcomed = 0
        try:
            async with connect(url, open_timeout=5, max_size=2 ** 22, compression=None, proxy=None) as ws:
                await ws.send(json.dumps({"type": "hello", "room": room, "token": token}))
                if host and not started:
                    await ws.send(json.dumps({"type": "start", "token": token}))
                    started = True
                while True:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop_at - loop.time()))
                    message = json.loads(raw)
                    if message["type"] == "welcome":
                        welcomed += 1
                        if welcomed > 1:
                            table.moved += 1
                            connection += 1  # a new session on this socket
                        continue
                    if message["type"] == "error":
                        table.errors[message["code"]] = table.errors.get(message["code"], 0) + 1
                        continue
                    if message["type"] != "view":
                        continue
                    view, match = message["view"], message["match"]
                    table.versions[room] = max(table.versions.get(room, 0), view["version"])
                    if sent is not None and sent[0] == match and view["version"] > sent[1]:
                        table.acked[(match, sent[1])] = (view["seat"], sent[3])
                        sent = None
                    if view["over"]:
                        table.finished[room] = view
                        return
                    options = (view.get("decision") or {}).get("options") or []
                    if options and (sent is None or sent[1] != view["version"] or sent[2] != connection):
                        if pace:
                            await asyncio.sleep(rng.uniform(0, 2 * pace))
                        option = rng.choice(options)
                        if sent is not None and sent[:2] == (match, view["version"]) and sent[3] in options:
                            option = sent[3]  # sent again in a new session: the same move (if both arrive, one is stale)
                        sent = (match, view["version"], connection, option)
                        await ws.send(json.dumps({"type": "choose", "token": token, "version": view["version"],
                                                  "option": option}))
        except (ConnectionClosed, InvalidStatus, InvalidHandshake, OSError, asyncio.TimeoutError):
            table.reconnects += 1
            await asyncio.sleep(0.1 + rng.uniform(0, 0.2))
    raise TimeoutError(f"room {room}: the match did not finish within {deadline} s "
                       f"(version {table.versions.get(room)})")
