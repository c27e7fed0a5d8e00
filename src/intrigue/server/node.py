"""One node of a cluster: the rooms it owns, the clients it relays, and the rooms it takes over.

``intrigue serve --node NAME --store postgresql://… --redis redis://…``. The
nodes share a PostgreSQL store and a Redis; docs/scaling.md has the design
and its message flows. In short:

- **Ownership.** Every open room has exactly one owner node, its single
  writer. The owner holds a lease in Redis (:class:`~intrigue.cluster.leases.Lease`,
  one key per node) and a fencing token for the room from the store
  (:meth:`~intrigue.store.postgres.PostgresStore.claim`); the room writes
  through a handle that carries the token, so once another node has claimed
  the room every write of the old owner is refused and it lets the room go.
- **Any node accepts any client.** A room owned here is served as on a single
  server. For a room owned elsewhere this node is the client's gateway: the
  connection's commands go to the owner over the Redis bus, and the owner's
  messages for it come back the same way (:class:`RelaySink` on the owner,
  :class:`RemoteRoom` here). HTTP commands on a room (join, leave, start) are
  forwarded to its owner the same way.
- **Failover.** Every ``ttl / 5`` seconds a node renews its lease, reads which
  leases are alive (a lease ends when its ttl runs out, or as soon as its
  holder's connections to Redis are closed: a killed process, which a look
  every LOOK seconds notices and answers with a tick at once), and claims the
  open rooms whose owner's lease is gone that it is the preferred taker of
  (any of them after ANY_TAKER_AFTER), reading them in four queries and
  re-executing their logs as a restart does: a room anyone asks for first, the
  others in the background; timers go on from the stored time their decision
  opened. A connection this node relayed to the dead owner is not closed: the
  node says its hello again to the room's new owner (the client sees a second
  ``welcome`` on the same socket). Clients of the dead node itself reconnect
  through the proxy; their gateway sends them to the room's preferred taker
  without asking the store, and that node claims the room then if its tick
  has not yet.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections import deque
from typing import TYPE_CHECKING, Any, Callable

from .. import games
from ..cluster.bus import Bus, channel
from ..cluster.directory import Directory
from ..cluster.leases import Lease, preferred
from ..store import Store
from .protocol import Prepared, Refusal, encode
from .recovery import restore
from .room import RECENT_CHAT

if TYPE_CHECKING:  # pragma: no cover
    from ..store import ChoiceRecord, MatchRecord, RoomRecord
    from ..store.postgres import PostgresStore
    from .heap import Heap
    from .lobby import Lobby
    from .room import Room

log = logging.getLogger("intrigue.cluster")

LOCAL = ""
#: A room orphaned this long is taken by any live node, not only by its preferred taker.
ANY_TAKER_AFTER = 1.0
#: How long a gateway waits for a live but busy owner's answer before answering ``unavailable``
#: (it checks every fifth of the lease that the owner is still alive, and asks again elsewhere if not).
BUSY_OWNER = 30.0
#: The lease thread stops renewing once the event loop has shown no sign of life for this long (seconds).
LOOP_STALL = 30.0
#: Seconds between two looks, between ticks, for a peer whose process is gone (then a tick at once).
LOOK = 0.05
#: Rooms restored between two yields to the event loop while taking over many.
ADOPT_CHUNK = 25
#: Connections a gateway moves to their room's new owner at once after a node died.
FOLLOW_AT_ONCE = 25
LISTED = ("waiting", "playing", "finished")
#: Seconds between two refreshes of this node's held-seat entries (they lapse after HOLD_SECONDS).
HOLD_REFRESH = 60.0


class RelaySink:
    """On the owner: a client connected to another node (its gateway), as the room sees it."""

    def __init__(self, node: "Node", gateway: str, cid: int):
        self.node, self.gateway, self.cid = node, gateway, cid
        self.seat: int | None = None
        self.room: Any = None
        self.closed = False
        self.deltas: Any = None  # what the client holds, if its hello asked for log deltas (protocol.Deltas)

    def send(self, message: dict[str, Any]) -> None:
        """The message goes as its wire text (a view's, built once for every connection of its seat),
        which the gateway writes as it is: encoded once, never decoded and encoded again on the way
        (``d``: a view whose log is a delta, which the gateway's outbox merges into a view still waiting)."""
        if not self.closed:
            if isinstance(message, Prepared):
                form = message if self.deltas is None else self.deltas.form(message, replacing=False)
                # "d": its gateway's outbox merges a delta into a view still waiting there
                self.node.bus.send(self.gateway, {"k": "out", "c": self.cid, "w": form.wire(), "v": True,
                                                  "d": form.delta, "o": self.node.name})
            else:
                self.node.bus.send(self.gateway, {"k": "out", "c": self.cid, "w": encode(message),
                                                  "v": message.get("type") == "view", "o": self.node.name})

    def close(self, code: int, reason: str) -> None:
        if not self.closed:
            self.closed = True
            self.node.sinks.pop((self.gateway, self.cid), None)
            self.node.bus.send(self.gateway, {"k": "close", "c": self.cid, "code": code, "reason": reason})


class RemoteRoom:
    """On the gateway: the room a connection follows, owned by the node holding lease ``owner``
    (``hello``: what the client said, to say it again to the room's next owner)."""

    def __init__(self, node: "Node", owner: str, code: str, cid: int, hello: dict[str, Any]):
        self.node, self.owner, self.code, self.cid, self.hello = node, owner, code, cid, hello
        self.attached = False  # the owner said yes (until then, the hello that made it is still waiting)

    def detach(self, conn: Any, announce: bool = True) -> None:
        if self.node.links.pop(self.cid, None) is not None:
            self.node.bus.send(self.owner, {"k": "detach", "g": self.node.name, "c": self.cid})

    def forward(self, message: dict[str, Any]) -> None:
        self.node.bus.send(self.owner, {"k": "cmd", "g": self.node.name, "c": self.cid, "m": message})


class Node:
    """See the module docstring. ``ops`` are the app's room commands by name (join, leave, start, room)."""

    def __init__(self, lobby: "Lobby", store: "PostgresStore", redis_url: str, name: str, ttl: float = 1.5,
                 prefix: str = "intrigue:", commands: "Callable[[Lobby, Any, dict[str, Any]], None] | None" = None,
                 heap: "Heap | None" = None):
        import redis  # noqa: PLC0415 - the cluster extra
        import redis.asyncio as aioredis  # noqa: PLC0415

        self.lobby = lobby
        #: The app's WebSocket command handler (given by the app, which this module must not import).
        self.commands = commands
        self.store = store
        self.heap = heap  # the process's garbage-collection policy (server/heap.py)
        self.node = name
        self.ttl = ttl
        self.prefix = prefix
        self.redis = aioredis.from_url(redis_url)
        self.sync_redis = redis.Redis.from_url(redis_url)
        self.directory = Directory(self.sync_redis, prefix)
        # the lease has its own connection: its renewal thread must never wait behind the event loop's calls
        self.lease = Lease(redis.Redis.from_url(redis_url), name, ttl, prefix,
                           channel=lambda lease: channel(prefix, lease))
        self.bus: Bus = None  # type: ignore[assignment]  # made in start(), once the lease has its name
        self.ops: dict[str, Callable[..., dict[str, Any]]] = {}
        self.sinks: dict[tuple[str, int], RelaySink] = {}   # owner side: (gateway, cid) → sink
        self.links: dict[int, Any] = {}                      # gateway side: cid → Connection
        self.cids = itertools.count(1)
        self.orphan_links: set[int] = set()  # connection ids whose owner was told to drop them
        self.live: set[str] = set()
        self.seen: dict[str, float] = {}    # orphan room → when this node first saw it orphaned
        self.held: dict[str, dict[str, set[str]]] = {}  # room → address → "room:seat" holds published
        self.flush_wanted = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []
        self.background: set[asyncio.Task[Any]] = set()  # revivals and re-attachments under way
        self.wanted: dict[str, set[str]] = {}  # rooms a hello asked for whose owner is dead → their holders
        self.holders: dict[str, str] = {}  # room → the lease holding it, as of the last tick (or asked since)
        self.attaching: dict[tuple[str, int], list[dict[str, Any]]] = {}  # relayed commands held until attached
        self.claiming: asyncio.Future[None] | None = None
        self.taken = 0  # rooms taken over from dead nodes (for the logs and the tests)
        #: rooms claimed and read but not yet brought to life: room → (record, match and log, fencing token)
        self.pending: dict[str, tuple["RoomRecord", "tuple[MatchRecord, list[ChoiceRecord]] | None", int]] = {}
        self.chats: dict[str, list[Any]] = {}  # …and their recent chat, read with them
        #: connections being moved to a room's new owner at once (the others wait their turn)
        self.following = asyncio.Semaphore(FOLLOW_AT_ONCE)
        self.rejoin = False  # the lease was lost: take a new one at the next tick
        self.beat = time.monotonic()  # the event loop's last sign of life (for the lease thread)
        self.holds_refreshed = time.monotonic()
        self.tick_now = asyncio.Event()  # a look saw a peer's process gone: do not wait for the next tick
        lobby.cluster = self

    @property
    def name(self) -> str:
        return self.lease.name

    # -- life ----------------------------------------------------------------------------
    async def start(self) -> None:
        for game in games.installed():  # a takeover must not wait for parsing rules (0.2 s a game)
            with contextlib.suppress(Exception):  # a broken game is reported when a room uses it
                games.get(game)
        self.lease.acquire()
        self.lease.keep(self._loop_alive)
        self.bus = Bus(self.redis, self.name, self.on_message, self.prefix)
        await self.bus.start()
        self.live = set(self.lease.live())
        log.info("node %s holds lease %s", self.node, self.name)
        self.tasks = [asyncio.create_task(self._watch()), asyncio.create_task(self._flush()),
                      asyncio.create_task(self._heartbeat()), asyncio.create_task(self._look())]

    def _loop_alive(self) -> bool:
        return time.monotonic() - self.beat < LOOP_STALL

    async def _heartbeat(self) -> None:
        while True:
            self.beat = time.monotonic()
            await asyncio.sleep(0.1)

    async def stop(self) -> None:
        """A clean stop: give the lease up so that the other nodes take the rooms at once."""
        tasks = [*self.tasks, *self.background]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await self.directory.flush(self.redis)
        with contextlib.suppress(Exception):
            self.lease.release()
        if self.bus is not None:
            await self.bus.stop()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def healthy(self) -> bool:
        return self.lease.held() and not self.rejoin

    async def _look(self) -> None:
        """Every LOOK seconds, one round trip: has a live peer's process gone (its lease's connection and
        its bus subscription both closed, :meth:`Lease.gone`)? Then tick now, not at the next tick:
        a killed node's rooms are taken 0.05-0.1 s after the kill instead of 0.3-0.6 s."""
        while True:
            await asyncio.sleep(LOOK)
            peers = sorted(self.live - {self.name})
            if not peers or self.tick_now.is_set():
                continue
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    pipe.client_list()
                    pipe.pubsub_numsub(*[channel(self.prefix, lease) for lease in peers])
                    clients, numsub = await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - CLIENT LIST refused, Redis away: the ticks go on
                await asyncio.sleep(self.ttl)
                continue
            if self.lease.gone(peers, clients, numsub):
                self.tick_now.set()

    async def _watch(self) -> None:
        interval = self.ttl / 5
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(interval):
                    await self.tick_now.wait()
            self.tick_now.clear()
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the watcher must keep running (Redis or PostgreSQL away)
                log.exception("node %s: the lease watch failed", self.node)
                if not self.lease.held() and not self.rejoin:
                    self._let_go_of_everything()  # our rooms may be someone else's by now

    async def tick(self) -> None:
        if self.rejoin:
            await self._rejoin()
        if self.lease.lost.is_set():
            self._let_go_of_everything()
            await self._rejoin()
            return
        live = self.lease.live()
        gone = self.live - set(live)
        self.live = set(live)
        for lease in gone:  # hellos and calls waiting for a dead node's answer: ask again now
            self.bus.abandon(lease)
        if time.monotonic() - self.holds_refreshed > HOLD_REFRESH:  # held seats lapse unless refreshed
            self.holds_refreshed = time.monotonic()
            merged: dict[str, set[str]] = {}
            for holds in self.held.values():
                for address, members in holds.items():
                    merged.setdefault(address, set()).update(members)
            self.directory.hold(merged, {})
        moving = self._drop_dead_peers()
        await self._take_orphans(live)
        for conn in moving:
            self._spawn(self._follow(conn))

    def _let_go_of_everything(self) -> None:
        """Our lease expired (a pause, Redis away): other nodes may own our rooms now. Let all of them
        go and close every relayed connection; the next tick starts again under a new lease."""
        log.warning("node %s lost lease %s: letting go of %d rooms", self.node, self.name, len(self.lobby.rooms))
        for room in list(self.lobby.rooms.values()):
            self.lobby.let_go(room)
        for cid, conn in list(self.links.items()):
            self.links.pop(cid, None)
            conn.close(1012, "the server lost its lease: reconnect")
        self.sinks.clear()
        self.held.clear()
        self.pending.clear()
        self.chats.clear()
        self.rejoin = True

    async def _rejoin(self) -> None:
        """A new lease (a new name, a new channel on the bus)."""
        await self.bus.stop()
        self.lease.acquire()
        self.lease.keep(self._loop_alive)
        self.bus = Bus(self.redis, self.name, self.on_message, self.prefix)
        await self.bus.start()
        self.rejoin = False
        log.info("node %s holds lease %s", self.node, self.name)

    def _drop_dead_peers(self) -> list[Any]:
        """Forget what a dead peer was to us; returns the connections we relayed to a dead owner."""
        moving = []
        for cid, conn in list(self.links.items()):
            room = conn.room
            if isinstance(room, RemoteRoom) and room.attached and room.owner not in self.live:
                self.links.pop(cid, None)
                moving.append(conn)
        for key, sink in list(self.sinks.items()):  # a dead gateway's clients are gone
            if key[0] not in self.live:
                self.sinks.pop(key, None)
                sink.closed = True
                if sink.room is not None:
                    sink.room.detach(sink)
        return moving

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _follow(self, conn: Any) -> None:
        """A connection we relayed to a node that died: say its hello again, to the room's new owner
        (this node or another), instead of closing it. The client sees a new ``welcome`` and the
        room's chat, ``room`` and ``view`` again, on the same socket; a command it sent to the dead
        node is lost (it was never acknowledged), and the new view lets it choose again."""
        old = conn.room
        try:
            async with self.following:  # a few at a time: sockets, moves and health checks go on meanwhile
                if getattr(conn, "closing", None) is None:
                    await self._hello(conn, old.hello)
        except Exception as exc:  # noqa: BLE001 - Refusal, PostgreSQL or Redis away: the client reconnects
            log.info("could not move a connection of room %s to its new owner: %s", old.code, exc)
        if conn.room is old:
            conn.close(1012, "the room's server stopped: reconnect")
        elif getattr(conn, "closing", None) is not None and conn.room is not None:
            conn.room.detach(conn)  # the client left while we moved it

    async def _take_orphans(self, live: list[str]) -> None:
        """Claim, in one statement, the open rooms whose holder is dead that this node is the preferred
        taker of (so the survivors share them evenly), and any left orphaned for ANY_TAKER_AFTER."""
        holders = self.store.holders()
        self.holders = dict(holders)
        now = time.monotonic()
        orphans = {room: holder for room, holder in holders.items()
                   if holder not in self.live and room not in self.lobby.rooms and room not in self.pending}
        self.seen = {room: self.seen.get(room, now) for room in orphans}
        mine = [room for room in orphans
                if preferred(room, live) == self.name or now - self.seen[room] > ANY_TAKER_AFTER]
        if not mine:
            return
        dead = sorted({orphans[r] for r in mine})
        claimed = self.store.claim_many(mine, self.name, holders=dead)
        self.holders.update(dict.fromkeys(claimed, self.name))
        if claimed:
            log.info("node %s claimed %d rooms of %s (live: %s)", self.node, len(claimed), ", ".join(dead),
                     ", ".join(sorted(self.live)))
            self.adopt(claimed)

    def adopt(self, claimed: dict[str, int]) -> list[str]:
        """Take rooms this node just claimed: read them at once (five queries) and re-execute their
        logs in the background, a chunk at a time between yields to the event loop. Meanwhile a room
        someone asks for (a hello, a relayed command, an HTTP call) is re-executed first, on the spot
        (:meth:`local`), so the clients of a thousand rooms do not wait for the last of them."""
        records = self.store.load_rooms(list(claimed))
        loaded = self.store.load_matches([r.match for r in records if r.match is not None])
        self.chats.update(self.store.recent_chats([r.code for r in records], RECENT_CHAT))
        waiting = []
        for record in records:
            if record.status != "closed" and record.code not in self.lobby.rooms:
                self.pending[record.code] = (record, loaded.get(record.match) if record.match else None,
                                             claimed[record.code])
                waiting.append(record.code)
        if waiting:
            self._spawn(self._revive(waiting))
        return waiting

    async def _revive(self, codes: list[str]) -> None:
        started, revived = time.perf_counter(), 0
        for index, code in enumerate(codes):
            if index and index % ADOPT_CHUNK == 0:
                await asyncio.sleep(0)  # keep serving while taking over many
            if code in self.pending and self._bring_to_life(code):
                revived += 1
        log.info("node %s took over %d rooms (%d of them in the background, in %.2f s)", self.node, len(codes),
                 revived, time.perf_counter() - started)

    def local(self, code: str) -> bool:
        """Whether room ``code`` lives here, bringing it to life first if it was claimed and is waiting."""
        if code in self.lobby.rooms:
            return True
        return code in self.pending and self._bring_to_life(code)

    def _bring_to_life(self, code: str) -> bool:
        record, loaded, token = self.pending.pop(code)
        chat = self.chats.pop(code, None)
        if code in self.lobby.rooms:
            return False
        try:
            room = restore(self.lobby, record, loaded, self.store.fenced(code, token))
            if chat is not None:
                room.recent_chat = deque(chat, maxlen=RECENT_CHAT)
        except Exception as exc:  # noqa: BLE001 - one bad room must not stop the others
            problem = f"room {code} could not be taken over and was left as stored: {exc}"
            log.error(problem)
            self.lobby.problems.append(problem)
            return False
        self.lobby.rooms[code] = room
        room.after_change()
        self.room_changed(room)
        self.taken += 1
        return True

    # -- the lobby's hooks ---------------------------------------------------------------------
    def created(self, client: str) -> int:
        return self.directory.created(client)

    def record_creation(self, client: str, code: str) -> None:
        self.directory.record_creation(client, code)

    def held_seats(self, client: str) -> int:
        return self.directory.held(client)

    def reserve_code(self, code: str) -> bool:
        return self.directory.reserve(code, self.name) and self.store.load_room(code) is None

    def claim_new(self, code: str) -> Store:
        token = self.store.claim(code, self.name)
        assert token is not None
        return self.store.fenced(code, token)  # type: ignore[return-value]

    def listing(self) -> list[dict[str, Any]]:
        return self.directory.listing()

    def room_changed(self, room: "Room") -> None:
        if self.lobby.rooms.get(room.code) is not room:
            return  # a room this node let go of: its new owner publishes it
        self.directory.publish(room.code, room.public() if room.status in LISTED else None)
        holds: dict[str, set[str]] = {}
        if room.status == "waiting":
            for seat in room.seats:
                if seat.taken and seat.address:
                    holds.setdefault(seat.address, set()).add(f"{room.code}:{seat.seat}")
        self._hold(room.code, holds)
        self.flush_wanted.set()

    def room_closed(self, room: "Room") -> None:
        self.directory.publish(room.code, None)
        self._hold(room.code, {})
        self.flush_wanted.set()

    def _hold(self, code: str, holds: dict[str, set[str]]) -> None:
        before = self.held.get(code, {})
        if holds == before:
            return
        release = {a: members - holds.get(a, set()) for a, members in before.items()}
        added = {a: members - before.get(a, set()) for a, members in holds.items()}
        try:
            self.directory.hold(added, release)
        except Exception:  # noqa: BLE001 - a quota entry lost is not worth failing a join for
            log.exception("could not record held seats of room %s", code)
        if holds:
            self.held[code] = holds
        else:
            self.held.pop(code, None)

    async def _flush(self) -> None:
        while True:
            await self.flush_wanted.wait()
            self.flush_wanted.clear()
            try:
                await self.directory.flush(self.redis)
            except Exception:  # noqa: BLE001
                log.exception("could not publish the lobby listing")
                await asyncio.sleep(0.2)
                self.flush_wanted.set()

    # -- routing -------------------------------------------------------------------------------
    async def route(self, code: str, fresh: bool = False) -> str | None:
        """Where room ``code`` lives: LOCAL (taken over here if its owner is dead), the owner's lease, or None.

        The holder comes from the last tick's list (no query), or from the store when ``fresh`` (the
        node we asked said the room is not there) or unknown. A room whose holder is dead goes to its
        preferred taker among the live nodes, which claims it when asked if its own tick has not yet:
        after a node dies, a thousand reconnecting clients cost their gateways no query, and the rooms
        stay spread evenly over the survivors."""
        if self.local(code):
            return LOCAL
        holder = None if fresh else self.holders.get(code)
        if holder is None:
            stored = self.store.holder(code)
            holder = stored[0] if stored else None
            if holder is not None:
                self.holders[code] = holder
            if holder is not None and holder != self.name and holder not in self.live \
                    and self.sync_redis.exists(self.lease.key(holder)):
                return holder  # a node younger than our last tick
        if holder is not None and holder != self.name and holder in self.live:
            return holder  # alive as of the last tick (a dead one does not answer: the caller asks again)
        taker = preferred(code, sorted(self.live))
        if not fresh and taker is not None and taker != self.name:
            return taker
        record = self.store.load_room(code)
        if record is None or record.status == "closed":
            return None
        await self._claim(code, holder)
        return LOCAL if self.local(code) else await self.route(code, fresh=True)

    async def _claim(self, code: str, holder: str | None) -> None:
        """Claim room ``code`` from its dead ``holder``, together with the other rooms asked for in the
        same moment (a thousand clients saying hello again after a node died: one statement)."""
        self.wanted.setdefault(code, set()).update([holder] if holder else [])
        if self.claiming is None or self.claiming.done():
            self.claiming = asyncio.ensure_future(self._claim_wanted())
        await asyncio.shield(self.claiming)

    async def _claim_wanted(self) -> None:
        await asyncio.sleep(0)  # let this moment's other hellos join the batch
        wanted, self.wanted = self.wanted, {}
        wanted = {code: holders for code, holders in wanted.items() if not self.local(code)}
        if wanted:
            holders = sorted({h for hs in wanted.values() for h in hs})
            claimed = self.store.claim_many(list(wanted), self.name, holders=holders)
            self.holders.update(dict.fromkeys(claimed, self.name))
            if claimed:
                log.info("node %s claimed %d rooms asked for (of %s)", self.node, len(claimed),
                         ", ".join(holders) or "nobody")
                self.adopt(claimed)

    def _code(self, value: Any) -> str:
        if not isinstance(value, str):
            raise Refusal("no_room", "there is no such room", 404)
        return value.strip().upper()[:12]

    async def call(self, op: str, room: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run the room command ``op`` where the room lives (here, or forwarded to its owner)."""
        code = self._code(room)
        deadline = time.monotonic() + BUSY_OWNER
        fresh = False
        while True:
            where = await self.route(code, fresh)
            if where is None:
                raise Refusal("no_room", f"there is no open room {room[:12]!r}", 404)
            if where == LOCAL:
                return self.ops[op](code, **args)
            answer = await self.bus.request(where, {"k": "call", "op": op, "room": code, "args": args},
                                            BUSY_OWNER, self._alive(where), self.ttl / 5)
            if answer is not None and not answer.get("moved"):
                if "error" in answer:
                    error = answer["error"]
                    raise Refusal(error["code"], error["message"], error["status"])
                return answer["value"]
            fresh = self._ask_store(where, answer)
            if time.monotonic() > deadline:
                raise Refusal("unavailable", f"the server of room {code} does not answer; try again", 503)
            await asyncio.sleep(0.05)

    async def handle(self, conn: Any, message: dict[str, Any]) -> None:
        """A WebSocket command on this node: served here if its room is ours, else relayed to the owner."""
        kind = message["type"]
        if kind == "hello":
            await self._hello(conn, message)
            return
        if isinstance(conn.room, RemoteRoom):
            if kind == "ping":
                conn.send({"type": "pong"})
            else:
                conn.room.forward(message)
            return
        self.commands(self.lobby, conn, message)

    async def _hello(self, conn: Any, message: dict[str, Any]) -> None:
        code = self._code(message["room"])
        deadline = time.monotonic() + BUSY_OWNER
        fresh = False
        while True:
            where = await self.route(code, fresh)
            if where is None:
                raise Refusal("no_room", f"there is no open room {code!r}", 404)
            if where == LOCAL:
                self.commands(self.lobby, conn, message)  # raises bad_token before anything changes
                return
            cid = next(self.cids)
            self.links[cid] = conn  # before asking: the owner's first messages may come before its answer
            previous = conn.room
            remote = RemoteRoom(self, where, code, cid, message)
            early = previous is None or (isinstance(previous, RemoteRoom) and previous.code == code)
            if early:  # the client's commands go after the attach on the bus: it may answer the view at once
                conn.room = remote
            answer = await self.bus.request(where, {"k": "attach", "g": self.name, "c": cid, "m": message},
                                            BUSY_OWNER, self._alive(where), self.ttl / 5)
            if answer is not None and answer.get("ok"):
                if previous is not None:
                    previous.detach(conn)
                conn.room = remote
                remote.attached = True
                return
            self.links.pop(cid, None)
            if early and conn.room is remote:
                conn.room = previous
            if answer is not None and "error" in answer:
                conn.send(answer["error"])
                return
            fresh = self._ask_store(where, answer)
            if time.monotonic() > deadline:
                raise Refusal("unavailable", f"the server of room {code} does not answer; try again", 503)
            await asyncio.sleep(0.05)

    def _ask_store(self, where: str, answer: dict[str, Any] | None) -> bool:
        """After a node did not take a room: ask the store who holds it next time, unless that node died
        (then the last tick's list and the preferred taker are right, and no query is needed)."""
        return answer is not None or where in self.live

    def _alive(self, lease: str) -> Callable[[], bool]:
        return lambda: lease in self.live or bool(self.sync_redis.exists(self.lease.key(lease)))

    # -- messages from other nodes -----------------------------------------------------------------
    def on_message(self, message: dict[str, Any]) -> None:
        kind = message.get("k")
        if kind == "out":
            conn = self.links.get(message["c"])
            if conn is not None:
                if "w" in message:
                    conn.send_wire(str(message["w"]), bool(message.get("v")), bool(message.get("d")))
                else:
                    conn.send(message["m"])
            elif message["c"] not in self.orphan_links and message.get("o"):
                # a late answer to an attach this node gave up on: the owner may drop that connection
                self.orphan_links.add(message["c"])
                self.bus.send(message["o"], {"k": "detach", "g": self.name, "c": message["c"]})
        elif kind == "close":
            conn = self.links.pop(message["c"], None)
            if conn is not None:
                conn.close(message.get("code", 1012), message.get("reason", ""))
        elif kind == "cmd":
            held = self.attaching.get((message["g"], message["c"]))
            if held is not None:  # its attach waits for the room to be claimed here: after it
                held.append(message)
                return
            sink = self.sinks.get((message["g"], message["c"]))
            if sink is None or sink.room is None or self.lobby.rooms.get(sink.room.code) is not sink.room:
                self.bus.send(message["g"], {"k": "close", "c": message["c"], "code": 1012,
                                             "reason": "the room moved to another server: reconnect"})
                return
            try:
                self.commands(self.lobby, sink, message["m"])
            except Refusal as refusal:
                sink.send(refusal.message_json())
            except Exception:  # noqa: BLE001 - the server never falls over on a message
                log.exception("unexpected error handling a relayed message")
                sink.send({"type": "error", "code": "internal", "message": "the server could not handle that"})
        elif kind == "attach":
            if self.local(self._code(message["m"].get("room"))):
                self._attach(message)
            else:  # maybe an orphan we are the preferred taker of, not claimed yet: see in a task
                self.attaching[(message["g"], message["c"])] = []
                self._spawn(self._when_ours(message, self._code(message["m"].get("room"))))
        elif kind == "detach":
            sink = self.sinks.pop((message["g"], message["c"]), None)
            if sink is not None:
                sink.closed = True
                if sink.room is not None:
                    sink.room.detach(sink)
        elif kind == "call":
            if self.local(message["room"]):
                self._call(message)
            else:
                self._spawn(self._when_ours(message, message["room"]))

    async def _when_ours(self, message: dict[str, Any], code: str) -> None:
        """An attach or call for a room not here: served if the room turns out to be ours to take
        (its holder is dead and we are its preferred taker), else answered ``moved``."""
        key = (message.get("g", ""), message.get("c", 0))
        try:
            where = await self.route(code)
        except Exception:  # noqa: BLE001 - PostgreSQL away: the gateway asks again
            log.exception("could not route room %s", code)
            where = None
        held = self.attaching.pop(key, []) if message["k"] == "attach" else []
        if where != LOCAL:
            self.bus.answer(message, {"moved": True})
        elif message["k"] == "call":
            self._call(message)
        elif self._attach(message):
            for command in held:
                self.on_message(command)

    def _attach(self, message: dict[str, Any]) -> bool:
        sink = RelaySink(self, message["g"], message["c"])
        try:
            self.commands(self.lobby, sink, message["m"])
        except Refusal as refusal:
            self.bus.answer(message, {"error": refusal.message_json()})
            return False
        self.sinks[(message["g"], message["c"])] = sink
        self.bus.answer(message, {"ok": True})
        return True

    def _call(self, message: dict[str, Any]) -> None:
        try:
            value = self.ops[message["op"]](message["room"], **message["args"])
        except Refusal as refusal:
            self.bus.answer(message, {"error": {"code": refusal.code, "message": refusal.message,
                                                "status": refusal.status}})
            return
        self.bus.answer(message, {"value": value})
