"""Hint latency: how long a player waits for the coach, through a real server.

``intrigue bench coach`` starts ``intrigue serve`` on a free port with a
temporary database (the server's default hint budget), opens Coup tutorial rooms
(``POST /api/games/coup/tutorial``: one person against two bots) and, at each of
the player's decisions, sends ``hint`` over a real WebSocket and times it until
the answer arrives, then plays the suggestion. A seat may ask three hints at once
(then one every five seconds), so a new room is opened every three hints. Only
127.0.0.1 is contacted; the server is stopped at the end.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from .server import HOST, free_port, post, start_server, wait_until_serving

#: Hints one seat may ask at once (the server's ``hint_burst``).
PER_ROOM = 3


def run(hints: int) -> dict[str, Any]:
    from websockets.sync.client import connect  # noqa: PLC0415

    latencies: list[float] = []
    reasons: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        process = start_server(port, Path(folder) / "bench.db")
        try:
            wait_until_serving(port)
            while len(latencies) < hints:
                joined = post(port, "/api/games/coup/tutorial", {"name": "Zoe"})
                with connect(f"ws://{HOST}:{port}/ws", max_size=2 ** 22, open_timeout=30) as ws:
                    ws.send(json.dumps({"type": "hello", "room": joined["room"], "token": joined["token"],
                                        "log_deltas": True}))  # as the browser (it reads no log: nothing to merge)
                    asked, last = 0, -1
                    while asked < PER_ROOM and len(latencies) < hints:
                        view = _my_decision(ws, last)
                        if view is None:
                            break
                        started = time.perf_counter()
                        ws.send(json.dumps({"type": "hint", "token": joined["token"], "version": view["version"]}))
                        answer = _next(ws, lambda m: m["type"] == "hint" or m.get("about") == "hint")
                        latencies.append(time.perf_counter() - started)
                        asked += 1
                        key = answer["reason"]["key"] if answer["type"] == "hint" else f"error:{answer['code']}"
                        reasons[key[:40]] = reasons.get(key[:40], 0) + 1
                        option = answer.get("option") or view["decision"]["options"][0]
                        last = view["version"]
                        ws.send(json.dumps({"type": "choose", "token": joined["token"], "version": view["version"],
                                            "option": option}))
        finally:
            process.terminate()
            process.wait(10)
    ordered = sorted(latencies)
    return {"hints": len(latencies),
            "latency_ms": {"p50": round(1000 * statistics.median(ordered)),
                           "p95": round(1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]),
                           "max": round(1000 * ordered[-1])},
            "reasons": reasons}


def _next(ws: Any, wanted: Any, timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if wanted(message):
            return message


def _my_decision(ws: Any, after: int) -> dict[str, Any] | None:
    """The next view after version ``after`` in which this seat has options (None: the match ended)."""
    while True:
        view = _next(ws, lambda m: m["type"] == "view")["view"]
        if view["over"]:
            return None
        if view["version"] > after and view["decision"] and view["decision"]["options"]:
            return view
