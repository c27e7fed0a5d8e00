"""An asyncio client of the documented WebSocket protocol (docs/protocol.md).

One :class:`Client` follows one room: it says ``hello`` (with the seat's token,
or without to watch), keeps the newest ``welcome``, ``room``, ``view`` and timer,
collects chat, and sends commands built from the models of
:mod:`intrigue.protocol`. If the connection drops it reconnects with the same
token (the server answers with the seat and its full current view), so a client
survives a server restart or a network blip. Seats come from the lobby's HTTP
routes: :func:`join` takes the first free seat of a room by its invite link.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
from dataclasses import dataclass
from typing import Any, AsyncIterator
from urllib.parse import urlsplit, urlunsplit

import httpx
from pydantic import BaseModel, ValidationError
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from .. import protocol as wire

log = logging.getLogger("intrigue.client")

#: Largest server message read (a view of a big table is well under this).
MAX_SIZE = 4 * 1024 * 1024
#: Codes of errors that answer one of our choices (the choice was not taken).
CHOICE_ERRORS = frozenset({"stale_version", "not_pending", "not_offered", "over", "not_started", "storage",
                           "internal"})


class ClientError(Exception):
    """The server refused something, or could not be reached; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Invite:
    """Where a room lives: the server's base URL and the room's code."""

    base: str   # http(s)://host:port
    room: str

    @property
    def ws(self) -> str:
        scheme, netloc, _, _, _ = urlsplit(self.base)
        return urlunsplit(("wss" if scheme == "https" else "ws", netloc, "/ws", "", ""))

    @property
    def link(self) -> str:
        return f"{self.base}/room/{self.room}"


_ROOM_PATH = re.compile(r"/room/([A-Za-z0-9]{1,12})/?$")


def parse_invite(link: str) -> Invite:
    """Read an invite link (``http://host:port/room/K7QX``, as the lobby shows it).

    ``ws://`` and ``wss://`` links are read as their ``http`` twins.
    """
    parts = urlsplit(link.strip())
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    found = _ROOM_PATH.search(parts.path)
    if scheme not in ("http", "https") or not parts.netloc or not found:
        raise ValueError(f"not an invite link: {link!r} (expected http://HOST:PORT/room/CODE)")
    return Invite(urlunsplit((scheme, parts.netloc, "", "", "")), found.group(1).upper())


@dataclass(frozen=True)
class SeatTicket:
    """A seat in a room: what ``POST /api/rooms`` and ``…/join`` answer."""

    invite: Invite
    seat: int
    token: str


async def _request(base: str, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """One call of the HTTP API; its JSON answer, or :class:`ClientError` with the server's code and message."""
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=10) as http:
        try:
            answer = await http.request(method, path, json=body)
        except httpx.HTTPError as exc:
            raise ClientError("unreachable", f"{base}: {exc}") from None
    try:
        data = answer.json()
    except ValueError:
        raise ClientError("http", f"{path} answered {answer.status_code} without JSON") from None
    if answer.status_code >= 400:
        error = data.get("error", {}) if isinstance(data, dict) else {}
        raise ClientError(str(error.get("code", "http")), str(error.get("message", answer.text[:200])))
    return data


async def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    return await _request(base, "POST", path, body)


async def room_info(link: str | Invite) -> dict[str, Any]:
    """The room behind an invite link, as ``GET /api/rooms/{room}`` shows it (its game, seats, status)."""
    invite = link if isinstance(link, Invite) else parse_invite(link)
    return await _request(invite.base, "GET", f"/api/rooms/{invite.room}")


async def join(link: str | Invite, name: str) -> SeatTicket:
    """Take the first free seat of the room behind an invite link (``POST /api/rooms/{room}/join``)."""
    invite = link if isinstance(link, Invite) else parse_invite(link)
    data = await _post(invite.base, f"/api/rooms/{invite.room}/join", {"name": name})
    return SeatTicket(invite, int(data["seat"]), str(data["token"]))


async def create(base: str, game: str, name: str, seats: int, **body: Any) -> SeatTicket:
    """Create a room (``POST /api/rooms``); the creator holds seat 0 and is the host."""
    base = base.rstrip("/")
    data = await _post(base, "/api/rooms", {"game": game, "name": name, "seats": seats, **body})
    return SeatTicket(Invite(base, str(data["room"])), 0, str(data["token"]))


def merge_log(held: dict[str, Any] | None, message: dict[str, Any]) -> None:
    """Make a ``view`` message whose log is a delta (``log_after`` a version) carry the whole log: the
    lines of ``held`` (the view received before it, of the same match) then its own, the last 80 kept."""
    if held is None or held.get("version") != message["log_after"]:
        raise ClientError("bad_message", f"a log delta after version {message['log_after']} continues no view "
                                         "this client holds")
    view = message["view"]
    view["log"] = (held["log"] + view["log"])[-wire.LOG_TAIL:]


class Client:
    """One connection to one room; see the module docstring.

    ``async with Client(invite, token) as client:`` connects and says hello;
    ``await client.recv()`` returns the next server message (a dict, checked
    against :data:`intrigue.protocol.MESSAGES`) after updating ``welcome``,
    ``room``, ``view``, ``timer`` and ``chat``.

    ``log_deltas`` (on unless turned off): the hello asks for log deltas, and each
    view's delta is merged into the log of the view before it, so a ``view`` message
    returned (and ``view``) carries the whole log as without deltas.
    """

    def __init__(self, invite: str | Invite, token: str | None = None, *, reconnect: bool = True,
                 retries: int = 20, open_timeout: float = 10.0, log_deltas: bool = True):
        self.invite = invite if isinstance(invite, Invite) else parse_invite(invite)
        self.token = token
        self.log_deltas = log_deltas
        self.reconnect = reconnect
        self.retries = retries
        self.open_timeout = open_timeout
        self.socket: ClientConnection | None = None
        self.welcome: dict[str, Any] | None = None
        self.room: dict[str, Any] | None = None
        self.view: dict[str, Any] | None = None
        self.timer: dict[str, Any] | None = None
        self.match: int | None = None
        self.chat: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.reconnects = 0
        self._seen_chat: set[tuple[Any, ...]] = set()
        self._closed = False

    # -- connection ----------------------------------------------------------------------------
    async def __aenter__(self) -> "Client":
        await self.connect()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def connect(self) -> dict[str, Any]:
        """Open the socket, say hello and wait for ``welcome`` (a refused hello raises :class:`ClientError`)."""
        try:
            self.socket = await connect(self.invite.ws, proxy=None, open_timeout=self.open_timeout,
                                        max_size=MAX_SIZE, compression=None)
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as exc:
            raise ClientError("unreachable", f"{self.invite.ws}: {exc}") from None
        await self.send(wire.Hello(room=self.invite.room, token=self.token, log_deltas=self.log_deltas or None))
        while True:
            message = await self._read()
            if message["type"] == "welcome":
                return message
            if message["type"] == "error":
                await self.socket.close()
                raise ClientError(message["code"], message["message"])

    async def close(self) -> None:
        self._closed = True
        if self.socket is not None:
            await self.socket.close()

    async def _reconnect(self) -> None:
        delay = 0.25
        for attempt in range(self.retries):
            # full jitter: the first try within a quarter second (a cluster's node died and the proxy sends
            # us to another), and the clients of a dead node do not all come back in the same instant
            await asyncio.sleep(random.uniform(0, delay))
            try:
                await self.connect()
            except ClientError as exc:
                if exc.code not in ("unreachable",):  # the seat is gone, or the room: retrying will not help
                    raise
                log.info("reconnecting to %s (attempt %d): %s", self.invite.link, attempt + 1, exc.message)
                delay = min(delay * 2, 2.0)
                continue
            self.reconnects += 1
            return
        raise ClientError("unreachable", f"gave up reconnecting to {self.invite.ws} after {self.retries} tries")

    # -- receiving -----------------------------------------------------------------------------------
    async def _read(self) -> dict[str, Any]:
        assert self.socket is not None
        data = json.loads(await self.socket.recv())
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise ClientError("bad_message", f"the server sent something that is not a message: {str(data)[:80]}")
        if data["type"] in wire.MESSAGES:
            try:
                wire.message(data)
            except ValidationError as exc:  # a newer server may add fields; a missing one is worth a warning
                log.warning("a %s message does not fit the protocol: %s", data["type"], exc.errors()[:1])
        self._note(data)
        return data

    def _note(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "welcome":
            self.welcome = message
        elif kind == "room":
            self.room = message
        elif kind == "view":
            if message.get("log_after") is not None:
                merge_log(self.view if self.match == message.get("match") else None, message)
            self.view, self.timer, self.match = message["view"], message.get("timer"), message.get("match")
        elif kind == "chat":
            key = (message.get("at"), message.get("seat"), message.get("text"))
            if key in self._seen_chat:  # a reconnection replays recent chat
                message["replayed"] = True
            else:
                self._seen_chat.add(key)
                self.chat.append(message)
        elif kind == "error":
            self.errors.append(message)

    async def recv(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message; reconnects (with the token) if the connection dropped and ``reconnect`` is on."""
        while True:
            try:
                if timeout is None:
                    return await self._read()
                return await asyncio.wait_for(self._read(), timeout)
            except ConnectionClosed as closed:
                if self._closed or not self.reconnect:
                    raise ClientError("closed", f"connection closed ({closed.rcvd.code if closed.rcvd else '-'})") \
                        from None
                await self._reconnect()

    async def messages(self) -> AsyncIterator[dict[str, Any]]:
        while True:
            yield await self.recv()

    async def until(self, predicate: Any, timeout: float = 10.0) -> dict[str, Any]:
        """Read until a message satisfies ``predicate``; :class:`TimeoutError` after ``timeout`` seconds."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.recv()
                if predicate(message):
                    return message

    # -- sending ---------------------------------------------------------------------------------------
    async def send(self, message: BaseModel | dict[str, Any]) -> None:
        data = message.model_dump(exclude_none=True) if isinstance(message, BaseModel) else message
        assert self.socket is not None, "connect first"
        try:
            await self.socket.send(json.dumps(data))
        except ConnectionClosed:
            if self._closed or not self.reconnect:
                raise ClientError("closed", "connection closed") from None
            await self._reconnect()
            await self.socket.send(json.dumps(data))

    async def choose(self, option: str, version: int | None = None) -> None:
        if version is None:
            if self.view is None:
                raise ClientError("not_started", "no view yet: nothing to choose from")
            version = int(self.view["version"])
        # The match it is for: after a rematch the versions start again, so an old match's choice could fit.
        await self.send(wire.Choose(token=self._token(), version=version, option=option, match=self.match))

    async def say(self, text: str) -> None:
        await self.send(wire.Chat(token=self._token(), text=text))

    async def start(self) -> None:
        await self.send(wire.Start(token=self._token()))

    async def rematch(self) -> None:
        await self.send(wire.Rematch(token=self._token(), match=self.match))

    async def ping(self) -> None:
        await self.send(wire.Ping())

    def _token(self) -> str:
        if not self.token:
            raise ClientError("bad_token", "a spectator has no token: join a seat first")
        return self.token

    # -- what the seat knows ---------------------------------------------------------------------------
    @property
    def seat(self) -> int | None:
        return self.welcome.get("seat") if self.welcome else None

    @property
    def options(self) -> list[str]:
        decision = self.view.get("decision") if self.view else None
        return list(decision.get("options") or []) if decision else []

    @property
    def over(self) -> bool:
        return bool(self.view and self.view.get("over"))
