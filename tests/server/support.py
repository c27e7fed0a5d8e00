"""A real server on 127.0.0.1 (uvicorn in a thread or a subprocess) and a real WebSocket client."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import httpx
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from intrigue.server.app import create_app
from intrigue.server.settings import Settings
from intrigue.store import open_store

FAST = Settings(bot_delay=0.0, room_quota=10_000, disconnect_grace=0.5, chat_rate=0.5, chat_burst=3,
                message_rate=50, message_burst=100, flood_limit=30, secret_pace=0.0,
                connect_rate=10_000, connect_burst=10_000,  # every test client connects from one address
                hello_rate=1_000, hello_burst=1_000)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Loopback:
    """The addresses of a server listening on 127.0.0.1:``port``."""

    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"


class ServerThread(Loopback):
    """uvicorn serving ``create_app`` on a free port, in a background thread."""

    def __init__(self, db: Path | str, settings: Settings = FAST, static: Path | None = None,
                 busy_timeout: float = 5.0):
        self.store = open_store(str(db), synchronous="NORMAL", busy_timeout=busy_timeout)
        self.app = create_app(self.store, settings, static)
        self.port = free_port()
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="error",
                                ws_max_size=1024 * 1024, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "ServerThread":
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.store.close()

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, trust_env=False, timeout=10)


class ServerProcess(Loopback):
    """``intrigue serve`` as a subprocess (for SIGKILL)."""

    def __init__(self, db: Path, port: int | None = None, env: dict[str, str] | None = None,
                 args: list[str] | None = None, games: Path | None = None):
        self.db = db
        self.port = port or free_port()
        self.env = env or {}
        self.args = args or []
        self.games = games
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> "ServerProcess":
        self.log = open(self.db.with_suffix(".log"), "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "intrigue.cli", "serve", "--port", str(self.port), "--db", str(self.db),
             "--bot-delay", "0", "--room-quota", "10000", "--connect-rate", "10000", *self.args,
             *(["--games", str(self.games)] if self.games else [])],
            stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1", **self.env})
        deadline = time.monotonic() + 20
        while True:
            try:
                if httpx.get(self.url + "/api/games", trust_env=False, timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server did not start: {self.db.with_suffix('.log').read_text()[-2000:]}")
            time.sleep(0.1)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.log.close()

    def died(self, timeout: float = 10) -> int:
        """Wait for the server to die by itself (a crash a test injected); its exit status."""
        assert self.proc is not None
        status = self.proc.wait(timeout)
        self.log.close()
        return status

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        if hasattr(self, "log"):
            self.log.close()


class Client:
    """One WebSocket connection, with the last view and every message received.

    ``log_deltas``: its hellos ask for log deltas, and ``view`` is the view with the delta merged as
    docs/protocol.md says (``messages`` keeps what came on the wire)."""

    def __init__(self, ws_url: str, room: str | None = None, token: str | None = None, log_deltas: bool = False):
        self.ws = connect(ws_url, proxy=None, open_timeout=5, max_size=4 * 1024 * 1024, compression=None, legacy=True)
        self.token = token
        self.room = room
        self.log_deltas = log_deltas
        self.messages: list[dict[str, Any]] = []
        #: (match, view) of every view received, as the client holds it (a delta merged).
        self.views: list[tuple[int, dict[str, Any]]] = []
        self.view: dict[str, Any] | None = None
        self.match: int | None = None
        self.timer: dict[str, Any] | None = None
        if room is not None:
            self.hello(room, token)

    def hello(self, room: str, token: str | None = None) -> None:
        self.send({"type": "hello", "room": room, **({"token": token} if token else {}),
                   **({"log_deltas": True} if self.log_deltas else {})})

    def send(self, message: dict[str, Any] | str | bytes) -> None:
        self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    def send_oversized(self, frame: str) -> int | None:
        """Send a frame the server refuses for its size and return the close code the client saw:
        1009 as the server closes, or 1006 when the server hung up while this client was still
        writing the frame (the pipe broke before the close frame could be read: TCP's race, either
        way the server read no more of it)."""
        try:
            self.send(frame)
        except ConnectionClosed:
            pass
        assert self.closed(timeout=5), "the server kept a connection that sent an oversized frame"
        return self.ws.close_code

    def recv(self, timeout: float = 5) -> dict[str, Any]:
        message = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(message)
        if message["type"] == "view":
            view = message["view"]
            if message.get("log_after") is not None:  # a delta: it continues the view we hold
                assert self.log_deltas and self.view is not None, message
                assert (self.match, self.view["version"]) == (message["match"], message["log_after"]), message
                view = {**view, "log": (self.view["log"] + view["log"])[-80:]}
            else:
                assert ("log_after" in message) == self.log_deltas, message
            self.view, self.match, self.timer = view, message["match"], message["timer"]
            self.views.append((message["match"], view))
        return message

    def until(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 5) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message in {timeout} s; last: {self.messages[-3:]}")
            message = self.recv(left)
            if predicate(message):
                return message

    def error(self, timeout: float = 5) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "error", timeout)

    def drain(self, quiet: float = 0.05) -> None:
        """Read until nothing arrives for ``quiet`` seconds."""
        while True:
            try:
                self.recv(quiet)
            except TimeoutError:
                return

    def settle(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 5) -> dict[str, Any]:
        """Read until the current view satisfies ``predicate`` (checked on the latest view)."""
        deadline = time.monotonic() + timeout
        while self.view is None or not predicate(self.view):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"view never satisfied the condition; last view version "
                                   f"{self.view and self.view['version']}")
            self.recv(left)
        return self.view

    @property
    def options(self) -> list[str]:
        decision = self.view and self.view.get("decision")
        return list(decision["options"]) if decision else []

    def choose(self, option: str, version: int | None = None) -> None:
        assert self.view is not None
        self.send({"type": "choose", "token": self.token, "option": option,
                   "version": self.view["version"] if version is None else version})

    def closed(self, timeout: float = 5) -> bool:
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                self.recv(deadline - time.monotonic())
        except ConnectionClosed:
            return True
        except TimeoutError:
            return False
        return False

    def close(self) -> None:
        self.ws.close()


def create_room(http: httpx.Client, game: str = "coup", name: str = "Aria", seats: int = 2,
                bots: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    answer = http.post("/api/rooms", json={"game": game, "name": name, "seats": seats, "bots": bots or [], **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()


def join(http: httpx.Client, room: str, name: str) -> dict[str, Any]:
    answer = http.post(f"/api/rooms/{room}/join", json={"name": name})
    assert answer.status_code == 200, answer.text
    return answer.json()
