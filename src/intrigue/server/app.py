"""The ASGI application: HTTP lobby routes, the ``/ws`` WebSocket, and the web client's files.

Every route is ``async`` so everything runs on the one event loop (see room.py
for why that serialises each room). ``create_app`` recovers the store's open
rooms before the first request is served.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect, WebSocketState

from .. import bots as bot_registry
from .. import games as game_registry
from .. import protocol as wire
from ..games import tutorials
from ..store import Store
from . import coach, history
from .durability import Durability
from .heap import Heap
from .protocol import MAX_MESSAGE, Bucket, Deltas, Prepared, Refusal, encode, merge_views, parse
from .lobby import Lobby
from .settings import TIMER_OPTIONS, Settings

log = logging.getLogger("intrigue.server")

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
PAGES = {"/": "index.html", "/history": "history.html"}
#: Messages queued for one slow client before it is disconnected.
OUTBOX = 512
#: Replays rebuilt at once, in worker threads (more would only take turns at the GIL with the live games).
REPLAY_THREADS = 2
#: Addresses whose new connections are counted before those that have been quiet are forgotten.
CONNECT_BUCKETS = 10_000


# -- request bodies (they make the OpenAPI schema) ----------------------------------------------
# Strict: a field of the wrong JSON type is refused (`"seats": true` is not 1, `"private": 1` is not true).
class BotSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    kind: str = Field(max_length=40)
    personality: str | None = Field(default=None, max_length=40)


class CreateRoom(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    game: str = Field(max_length=40, json_schema_extra={"enum": game_registry.installed()},
                      description="an installed game id (GET /api/games)")
    name: str = Field(min_length=1, max_length=200, description="display name; cleaned and cut to 24 characters")
    seats: int = Field(ge=1, le=64, description="table size, humans + bots, within the game's player range")
    bots: list[BotSpec] = Field(default_factory=list, max_length=63)
    options: dict[str, int | float | bool | str | None] = Field(default_factory=dict, max_length=32)
    private: bool = False


class JoinRoom(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1, max_length=200)


class TokenBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: str = Field(max_length=200)


class SeatJoined(BaseModel):
    room: str
    seat: int
    token: str
    url: str


class ErrorBody(BaseModel):
    code: str
    message: str


class ErrorAnswer(BaseModel):
    error: ErrorBody


#: 422 too: request validation errors are answered as ErrorAnswer (code "schema"), not FastAPI's {"detail": ...}
ERRORS: dict[int | str, dict[str, Any]] = {status: {"model": ErrorAnswer}
                                           for status in (400, 403, 404, 409, 413, 422, 429)}


@dataclass
class ClusterOptions:
    """``serve --node NAME --redis URL``: run as one node of a cluster (server/node.py)."""

    node: str
    redis: str
    lease: float = 1.5
    prefix: str = "intrigue:"


def create_app(store: Store, settings: Settings | None = None, static: Path | None = None,
               cluster: ClusterOptions | None = None) -> FastAPI:
    lobby = Lobby(store, settings)
    durability = Durability(store)
    heap = Heap()
    node = None
    if cluster is None:
        restored = lobby.recover()
    else:  # a node recovers nothing at start: it takes over the rooms of dead nodes as it runs
        from .node import Node  # noqa: PLC0415

        node = Node(lobby, store, cluster.redis, cluster.node, cluster.lease, cluster.prefix,  # type: ignore[arg-type]
                    commands=handle, heap=heap)
        restored = []
    static_dir = Path(static or STATIC)
    static_dir.mkdir(parents=True, exist_ok=True)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI):  # noqa: ANN202
        if node is not None:
            await node.start()
        lobby.resume()
        heap.install()  # no long garbage-collection pauses with thousands of live matches (server/heap.py)
        janitor = asyncio.create_task(sweep_forever(lobby))
        yield
        janitor.cancel()
        heap.uninstall()
        if node is not None:
            await node.stop()

    # No /docs or /redoc: FastAPI's pages load Swagger UI and ReDoc from a CDN (latest 5.x, no integrity
    # hash), a script from another site running on the origin where the browser keeps every seat's token
    # (localStorage). The schema they draw is /openapi.json.
    app = FastAPI(title="Intrigue", version="1", lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Lobby, history and replay routes; live play is on the /ws WebSocket "
                              "(docs/protocol.md).")
    app.state.lobby = lobby
    app.state.durability = durability
    app.state.heap = heap
    app.state.node = node
    app.state.restored = restored
    app.add_middleware(BodyLimit, limit=MAX_MESSAGE)
    app.add_middleware(HeadAsGet)

    @app.exception_handler(Refusal)
    async def refused(_: Request, exc: Refusal) -> JSONResponse:
        return JSONResponse({"error": {"code": exc.code, "message": exc.message}}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: {e['msg']}" for e in exc.errors()[:5])
        return JSONResponse({"error": {"code": "schema", "message": problems}}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:  # FastAPI could not read the body (not UTF-8, a number of 4,300+ digits, …)
            return JSONResponse({"error": {"code": "schema", "message": "body: not valid JSON"}}, status_code=422)
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http")
        return JSONResponse({"error": {"code": code, "message": str(exc.detail)}}, status_code=exc.status_code,
                            headers=exc.headers)

    # -- lobby ---------------------------------------------------------------------------------
    @app.get("/api/games")
    async def list_games() -> list[dict[str, Any]]:
        answer = []
        for game_id in game_registry.installed():
            try:
                game = game_registry.get(game_id)
            except Exception:  # noqa: BLE001 - a game that does not load is not offered
                continue
            answer.append({"id": game.id, "title": game.title, "min_players": game.min_players,
                           "max_players": game.max_players, "summary": game.binding.summary,
                           "options": {**TIMER_OPTIONS, **game.option_defaults()},
                           "choices": {key: list(values) for key, values in game.binding.option_choices.items()},
                           "tutorial": tutorials.has(game)})
        return answer

    @app.get("/api/bots")
    async def list_bots() -> list[dict[str, Any]]:
        return bot_registry.kinds()

    @app.get("/api/protocol.json")
    async def protocol_schema() -> dict[str, Any]:
        """JSON Schema of the WebSocket protocol's messages, both directions (docs/protocol.md)."""
        return Response(_protocol_schema(), media_type="application/json")  # type: ignore[return-value]

    #: Each game's graph as drawn, by (game, phase highlighted): a picture took 2 to 7 ms of the event loop.
    pictures: dict[tuple[int, int | None], tuple[Any, str]] = {}

    @app.get("/api/games/{game}/graph.svg", responses=ERRORS, response_class=Response)
    async def game_graph(game: str,
                         highlight: int | None = Query(None, ge=0, le=1_000_000,
                                                       description="a phase id to highlight")) -> Response:
        """The game's phase graph as SVG (public: the flow of a game is no secret)."""
        if game not in game_registry.installed():
            raise Refusal("no_game", f"no installed game {game[:40]!r}", 404)
        from .. import graph  # noqa: PLC0415

        loaded = game_registry.get(game)
        if highlight not in loaded.plans:
            highlight = None  # a phase the game does not have marks nothing: the same picture
        known = pictures.get((id(loaded), highlight))
        if known is None or known[0] is not loaded:
            if len(pictures) >= 4096:
                pictures.clear()
            known = pictures[(id(loaded), highlight)] = (loaded, graph.svg(loaded, highlight=highlight))
        return Response(known[1], media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})

    @app.get("/api/games/{game}/table", responses=ERRORS)
    async def game_table(game: str,
                         lang: str = Query("en", description="a two-letter language code")
                         ) -> dict[str, Any]:
        """What the table shows of a game: rules drawer, card art, its strings in ``lang``."""
        if game not in game_registry.installed():
            raise Refusal("no_game", f"no installed game {game[:40]!r}", 404)
        from ..games import tables  # noqa: PLC0415

        try:
            return tables.table(game_registry.get(game), lang)
        except ValueError as exc:
            raise Refusal("bad_message", str(exc)) from None

    @app.get("/api/games/{game}/tutorial", responses=ERRORS)
    async def game_tutorial(game: str) -> dict[str, Any]:
        """The steps of the game's guided first game, for the browser's overlay."""
        if game not in game_registry.installed():
            raise Refusal("no_game", f"no installed game {game[:40]!r}", 404)
        found = tutorials.tutorial(game_registry.get(game))
        if found is None:
            raise Refusal("no_tutorial", f"{game!r} has no guided first game", 404)
        return found.public(game_registry.get(game))

    @app.post("/api/games/{game}/tutorial", status_code=201, responses=ERRORS)
    async def start_tutorial(body: JoinRoom, request: Request, game: str) -> SeatJoined:
        """A private practice room playing the game's guided first game, started at once."""
        client = request.client.host if request.client else "?"
        room, token = coach.open_tutorial(lobby, client, game, body.name)
        await durability.acknowledged()
        return SeatJoined(room=room.code, seat=0, token=token, url=f"/room/{room.code}")

    @app.post("/api/rooms", status_code=201, responses=ERRORS)
    async def create_room(body: CreateRoom, request: Request) -> SeatJoined:
        client = request.client.host if request.client else "?"
        room, token = lobby.create(client, body.game, body.name, body.seats,
                                   [b.model_dump() for b in body.bots], dict(body.options), body.private)
        await durability.acknowledged()
        return SeatJoined(room=room.code, seat=0, token=token, url=f"/room/{room.code}")

    @app.get("/api/rooms")
    async def list_rooms() -> list[dict[str, Any]]:
        return Response(lobby.listing(), media_type="application/json")  # type: ignore[return-value]

    @app.get("/api/rooms/{room}", responses=ERRORS)
    async def get_room(room: str) -> dict[str, Any]:
        return await on_owner("room", room)

    @app.post("/api/rooms/{room}/join", responses=ERRORS)
    async def join_room(room: str, body: JoinRoom, request: Request) -> SeatJoined:
        client = request.client.host if request.client else "?"
        return SeatJoined(**await on_owner("join", room, client=client, name=body.name))

    @app.post("/api/rooms/{room}/leave", responses=ERRORS)
    async def leave_room(room: str, body: TokenBody) -> dict[str, Any]:
        return await on_owner("leave", room, token=body.token)

    @app.post("/api/rooms/{room}/start", responses=ERRORS)
    async def start_room(room: str, body: TokenBody) -> dict[str, Any]:
        return await on_owner("start", room, token=body.token)

    # The room commands, run where the room lives (in a cluster, its owner node may be another).
    def join_op(room: str, client: str, name: str) -> dict[str, Any]:
        target, seat, token = lobby.join(client, room, name)
        return {"room": target.code, "seat": seat.seat, "token": token, "url": f"/room/{target.code}"}

    def leave_op(room: str, token: str) -> dict[str, Any]:
        target = lobby.room(room)
        seat = target.leave(token)
        return {"room": target.code, "seat": seat.seat, "left": True}

    def start_op(room: str, token: str) -> dict[str, Any]:
        target = lobby.room(room)
        target.start(token)
        return {"room": target.code, "match": target.match_id, "status": target.status}

    ops = {"join": join_op, "leave": leave_op, "start": start_op, "room": lambda room: lobby.room(room).public()}

    async def on_owner(op: str, room: str, **args: Any) -> dict[str, Any]:
        if node is None or (isinstance(room, str) and room.strip().upper() in lobby.rooms):
            answer = ops[op](room, **args)
            await durability.acknowledged()  # an answer reports a stored change only once it is on disk
            return answer
        return await node.call(op, room, args)

    if node is not None:
        node.ops = ops

    @app.get("/api/health")
    async def health() -> JSONResponse:
        """200 while this server can serve (in a cluster: while the node holds its lease), else 503."""
        ok = node is None or node.healthy()
        return JSONResponse({"ok": ok, "node": node.name if node else None, "rooms": len(lobby.rooms)},
                            status_code=200 if ok else 503)

    # -- history -----------------------------------------------------------------------------
    #: History answers built at once, in worker threads: a list of matches or a replay (CPU work, off the loop).
    replays = asyncio.Semaphore(REPLAY_THREADS)

    @app.get("/api/matches", responses=ERRORS)
    async def list_matches(status: Literal["finished", "playing", "abandoned"] = "finished",
                           limit: int = Query(100, ge=1, le=500)) -> list[dict[str, Any]]:
        no_history()
        async with replays:  # reading and encoding up to 500 matches took 10 to 20 ms: off the event loop
            text = await asyncio.to_thread(listed, status, limit)
        return Response(text, media_type="application/json")  # type: ignore[return-value]

    def listed(status: str, limit: int) -> str:
        """``GET /api/matches``'s body (in a worker thread)."""
        return encode([history.summary(record, record.room is not None and private_room(record.room))
                       for record in store.list_matches(status, limit)])

    #: Whether a room is private, by code (a room's privacy never changes, and a code is never reused).
    privacy: dict[str, bool] = {}

    def private_room(code: str) -> bool:
        known = privacy.get(code)
        if known is None:
            open_room = lobby.rooms.get(code)
            stored = store.load_room(code) if open_room is None else None
            known = open_room.private if open_room is not None else bool(stored and stored.private)
            if len(privacy) >= 100_000:
                privacy.clear()
            privacy[code] = known
        return known

    def no_history() -> None:
        if not lobby.settings.history:
            raise Refusal("no_history", "this server does not show its matches (an arena: a finished rotation "
                                        "of a deal would show the cards of the next one)", 403)

    @app.get("/api/matches/{match}/replay", responses=ERRORS)
    async def replay(match: int, step: int = Query(0, description="accepted choices, 0 to the match's moves"),
                     seat: str = Query("all", max_length=8)) -> dict[str, Any]:
        no_history()
        async with replays:  # rebuilding a match is CPU work: off the event loop that runs the live games
            return await asyncio.to_thread(history.replay_step, store, match, step, seat)

    # -- the live protocol -----------------------------------------------------------------------
    open_sockets: dict[str, int] = {}
    connects: dict[str, Bucket] = {}  # new connections per address (a full bucket is forgotten)

    def may_connect(address: str) -> bool:
        settings = lobby.settings
        now = time.monotonic()
        if len(connects) > CONNECT_BUCKETS:  # forget the addresses whose bucket has filled up again
            refill = settings.connect_burst / settings.connect_rate if settings.connect_rate > 0 else float("inf")
            for known in [a for a, bucket in connects.items() if now - bucket.stamp >= refill]:
                del connects[known]
        bucket = connects.get(address)
        if bucket is None:
            bucket = connects[address] = Bucket(settings.connect_rate, settings.connect_burst)
        return bucket.take(now)

    @app.websocket("/ws")
    async def websocket(socket: WebSocket) -> None:
        address = socket.client.host if socket.client else "?"
        if not may_connect(address):
            settings = lobby.settings
            await socket.accept()
            await socket.send_text(encode({"type": "error", "code": "rate_limited", "message": (
                f"too many new connections from your address (limit {settings.connect_rate:g} a second, "
                f"{settings.connect_burst:g} at once): try again in a few seconds")}))
            await socket.close(code=1013, reason="too many new connections")
            return
        cap = lobby.settings.sockets_per_address
        if open_sockets.get(address, 0) >= cap:
            await socket.accept()
            await socket.send_text(encode({"type": "error", "code": "quota", "message": (
                f"too many connections from your address (limit {cap}): close one first")}))
            await socket.close(code=1008, reason="too many connections")
            return
        open_sockets[address] = open_sockets.get(address, 0) + 1
        try:
            await serve_socket(lobby, socket, node, durability)
        finally:
            open_sockets[address] -= 1
            if not open_sockets[address]:
                del open_sockets[address]

    # -- the web client ------------------------------------------------------------------------------
    def page(name: str) -> FileResponse:
        file = static_dir / name
        if not file.is_file():
            raise Refusal("no_page", f"the web client's {name} is missing from {static_dir}", 404)
        return FileResponse(file, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return page("index.html")

    @app.get("/history", include_in_schema=False)
    async def history_page() -> FileResponse:
        return page("history.html")

    @app.get("/room/{code}", include_in_schema=False)
    async def room_page(code: str) -> FileResponse:
        return page("room.html")

    @app.get("/replay/{match}", include_in_schema=False)
    async def replay_page(match: str) -> FileResponse:
        return page("replay.html")

    app.mount("/static", StaticFiles(directory=static_dir), name="static")
    return app


@functools.cache
def _protocol_schema() -> bytes:
    """``GET /api/protocol.json``'s body, made once: building the schema took 13 ms of the event loop
    that runs every game, so a few clients asking for it over and over made every table wait."""
    return encode(wire.json_schema()).encode()


async def sweep_forever(lobby: Lobby, every: float = 300.0) -> None:
    while True:
        await asyncio.sleep(every)
        try:
            for code in lobby.sweep():
                log.info("closed idle room %s", code)
        except Exception:  # noqa: BLE001 - the janitor must keep running
            log.exception("sweeping idle rooms failed")


class HeadAsGet:
    """``HEAD`` on a ``GET`` route answers as ``GET`` would, without the body (HTTP: every server takes
    ``HEAD`` where it takes ``GET``). FastAPI's routes take only the methods they name: ``curl -I /``,
    or a monitor's ``HEAD /api/health``, got 405."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD" or scope["path"].startswith("/static/"):
            await self.app(scope, receive, send)  # (the static files take HEAD themselves)
            return

        async def headers_only(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)


class BodyLimit:
    """Refuse HTTP bodies over ``limit`` bytes with 413, whether or not they declare a length."""

    def __init__(self, app: Any, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(send, self.limit)
            return
        # The body is read whole before the route sees it: a route's own reading turns any error into its
        # own answer (a chunked body over the limit was answered 422 "not valid JSON", not 413).
        chunks: list[dict[str, Any]] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away: the app is told so
                chunks.append(message)
                break
            seen += len(message.get("body", b""))
            if seen > self.limit:
                await _too_large(send, self.limit)
                return
            chunks.append(message)
            if not message.get("more_body", False):
                break

        async def replayed() -> dict[str, Any]:
            return chunks.pop(0) if chunks else await receive()

        await self.app(scope, replayed, send)


async def _too_large(send: Any, limit: int) -> None:
    body = encode({"error": {"code": "too_large", "message": f"request body over {limit // 1024} KiB"}}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


# -- one WebSocket connection ------------------------------------------------------------------------
class Outbox:
    """Messages waiting to be written to one WebSocket.

    A view replaces any view still waiting (a client needs only the newest
    one), so a slow reader costs at most one view plus the other messages. On a
    connection that asked for log deltas the newer view's log continues what the
    client held before the waiting one (protocol.Deltas), so no line is lost; a
    cluster gateway relays views encoded by the room's node, and a relayed delta
    (``delta``) replaces a waiting view with the two merged. ``None`` asks the pump
    to close the socket.

    Each message carries its durability ticket (:mod:`.durability`): the pump writes
    it once the changes committed before it was queued are on disk.

    Only the event loop changes the queue. :meth:`qsize` and :meth:`views` read
    counters, never the deque itself, so a monitor or a test in another thread can
    ask while the loop queues (iterating a deque the loop is appending to raises
    "deque mutated during iteration").
    """

    def __init__(self, limit: int):
        self.limit = limit
        self.items: collections.deque[tuple[bool, str | None, int]] = collections.deque()
        self.waiting_views = 0
        self.ready = asyncio.Event()

    def put(self, text: str | None, view: bool = False, ticket: int = 0, wake: bool = True,
            delta: bool = False) -> bool:
        """Queue ``text``; False if the client let too many messages pile up. ``wake=False``: the
        caller wakes the pump itself (once the message may be written: :meth:`Durability.wake`)."""
        if view and self.waiting_views:
            if delta and text is not None:
                text = merge_views(next(item[1] for item in reversed(self.items) if item[0]), text)
            self.items = collections.deque(item for item in self.items if not item[0])
            self.waiting_views = 0
        if text is not None and len(self.items) >= self.limit:
            return False
        self.items.append((view, text, ticket))
        if view:
            self.waiting_views += 1
        if wake or text is None:
            self.ready.set()
        return True

    def qsize(self) -> int:
        return len(self.items)

    def views(self) -> int:
        return self.waiting_views

    async def get(self) -> tuple[str | None, int]:
        """The oldest message and its ticket."""
        while not self.items:
            self.ready.clear()
            await self.ready.wait()
        return self.take()

    def take(self) -> tuple[str | None, int]:
        """The oldest message and its ticket, when there is one (without a coroutine for each)."""
        view, text, ticket = self.items.popleft()
        if view:
            self.waiting_views -= 1
        return text, ticket


class Connection:
    """A room's :class:`~intrigue.server.seats.Sink` for one WebSocket: an outbox drained by one task."""

    def __init__(self, socket: WebSocket, settings: Settings, durability: Durability | None = None):
        self.socket = socket
        self.durability = durability
        self.seat: int | None = None
        self.room: Any = None
        #: The task reading this socket, while it waits for a frame (see :meth:`close`).
        self.listening: asyncio.Task[Any] | None = None
        self.outbox = Outbox(OUTBOX)
        self.bucket = Bucket(settings.message_rate, settings.message_burst)
        #: A hello builds the room's view for the connection (1.4 ms for a 16-seat Werewolf): 100 sockets of one
        #: address saying hello 10 times a second kept the event loop busy (pings waited 0.3 s instead of 9 ms).
        self.hellos = Bucket(settings.hello_rate, settings.hello_burst)
        self.floods = 0
        self.closing: tuple[int, str] | None = None
        #: Set by a ``hello`` that asked for ``log_deltas``: what the client holds (protocol.Deltas).
        self.deltas: Deltas | None = None

    def send(self, message: dict[str, Any]) -> None:
        if self.closing:
            return
        if isinstance(message, Prepared):  # a view: built once
            if self.deltas is None:
                self.send_wire(message.wire(), True)
            else:  # the form that continues what the client holds (before a view it replaces, if one waits)
                self.send_wire(self.deltas.form(message, replacing=self.outbox.waiting_views > 0).wire(), True)
        else:
            self.send_wire(encode(message), message.get("type") == "view")

    def send_wire(self, text: str, view: bool, delta: bool = False) -> None:
        """Send a message already encoded (``view``: it is a ``view``; a cluster gateway relays the room's
        node's text, and ``delta`` says its log is a delta, to be merged into a view still waiting)."""
        if self.closing:
            return
        durability = self.durability
        ticket = durability.ticket() if durability is not None else 0
        durable = durability is None or ticket <= durability.synced
        if not self.outbox.put(text, view=view, ticket=ticket, wake=durable, delta=delta):
            self.close(1008, "too slow: messages piled up")
        elif not durable:  # the pump wakes when it may write this, not to wait for the flush
            durability.wake(ticket, self.outbox.ready)

    def close(self, code: int, reason: str) -> None:
        if self.closing is None:
            self.closing = (code, reason)
            self.outbox.put(None)
            if len(self.outbox.items) > self.outbox.limit and self.listening is not None:
                # The client stopped reading: its pump may never write again, and the reader would wait
                # for its next frame for ever, keeping its seat connected and its address's slot taken.
                self.listening.cancel()

    async def pump(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                outbox, durability = self.outbox, self.durability
                text, ticket = outbox.take() if outbox.items else await outbox.get()
                if durability is not None and ticket > durability.synced:
                    await durability.wait(ticket)
                if text is None:
                    code, reason = self.closing or (1000, "")
                    await self.socket.close(code=code, reason=reason)
                    return
                await self.socket.send_text(text)


async def serve_socket(lobby: Lobby, socket: WebSocket, node: Any = None,
                       durability: Durability | None = None) -> None:
    await socket.accept()
    conn = Connection(socket, lobby.settings, durability)
    pump = asyncio.create_task(conn.pump())
    cut_off = False
    try:
        while conn.closing is None:
            try:
                conn.listening = asyncio.current_task()
                frame = await socket.receive()
            except (WebSocketDisconnect, RuntimeError):
                break
            except asyncio.CancelledError:
                if conn.closing is None:  # the server is shutting down
                    raise
                asyncio.current_task().uncancel()  # type: ignore[union-attr] - cut off by close(): too slow
                cut_off = True
                break
            finally:
                conn.listening = None
            if frame["type"] == "websocket.disconnect":
                break
            if not conn.bucket.take():
                conn.floods += 1  # the flood_limit-th ignored message is answered, then the socket closes
                if conn.floods >= lobby.settings.flood_limit:
                    conn.send({"type": "error", "code": "rate_limited",
                               "message": "too many messages: disconnected"})
                    conn.close(1008, "flooding")
                    break
                conn.send({"type": "error", "code": "rate_limited",
                           "message": "too many messages: slow down (this one was ignored)"})
                continue
            raw = frame.get("text")
            if raw is None:
                raw = frame.get("bytes")
            try:
                message = parse(raw)
                if message["type"] == "hello" and not conn.hellos.take():
                    raise Refusal("rate_limited", "too many hellos: a connection may say hello once a second "
                                                  "(this one was ignored)")
                if node is None:
                    handle(lobby, conn, message)
                else:
                    await node.handle(conn, message)
            except Refusal as refusal:
                conn.send(refusal.message_json())
            except Exception:  # noqa: BLE001 - the server never falls over on a message
                log.exception("unexpected error handling a message")
                conn.send({"type": "error", "code": "internal", "message": "the server could not handle that"})
    finally:
        if conn.room is not None:
            conn.room.detach(conn)
        conn.close(1000, "")
        if not cut_off:  # (a client that stopped reading takes neither its messages nor a close frame)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pump, 2)
        if not pump.done():
            pump.cancel()
        if socket.client_state == WebSocketState.CONNECTED and not cut_off:
            with contextlib.suppress(Exception):  # bounded: a client that stopped reading never takes it
                await asyncio.wait_for(socket.close(), 1)


def handle(lobby: Lobby, conn: Connection, message: dict[str, Any]) -> None:
    kind = message["type"]
    if kind == "ping":
        conn.send({"type": "pong"})
        return
    if kind == "hello":
        room = lobby.room(message["room"])
        previous = conn.room
        held = getattr(conn, "deltas", None)  # a sink that never said hello with deltas has none
        conn.deltas = Deltas() if message.get("log_deltas") else None  # the view after a hello is full
        try:
            room.attach(conn, message.get("token"))  # raises bad_token before anything changes
        except Refusal:
            conn.deltas = held
            raise
        if previous is not None and previous is not room:
            previous.detach(conn)
        conn.room = room
        return
    room = conn.room
    if room is None or room.code not in lobby.rooms:
        raise Refusal("no_room", "send 'hello' with a room code first")
    if kind == "choose":
        room.choose(message["token"], message["option"], message["version"], message.get("match"))
    elif kind == "chat":
        room.chat(message.get("token"), message["text"])
    elif kind == "start":
        room.start(message["token"])
    elif kind == "rematch":
        room.rematch(message["token"], message.get("match"), conn)
    elif kind == "hint":
        coach.ask(room, conn, message["token"], message["version"], message.get("match"))
