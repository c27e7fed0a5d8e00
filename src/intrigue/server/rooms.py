"""Rooms: seats, tokens, the match a room plays, its timer, its bots, and who is told what.

Serialisation: the server runs on one asyncio event loop and every method that
changes a room is synchronous (it never awaits), so one room's commands run one
at a time, each from check to store to apply to broadcast without interleaving.
Timers and bot moves are ``loop.call_later`` callbacks that re-check the match
before acting, so a late callback for an answered decision does nothing.

A choice flows: checked by the engine (``Match.check``) → appended to the store
(committed) → applied (``Match.choose``) → views sent. If the store refuses, the
move is not applied and the client gets ``storage``.

Timers (decided here, documented in docs/protocol.md): a *window* runs the
room's ``window_timer`` and every other decision its ``turn_timer``. A window is
a decision that waits for several players (``wait_for`` other than
``single_player_choice``) or that a seat may decline (``Pass`` is offered): the
challenge and block windows, including a block only the target may make. The timer
restarts whenever a new decision opens. On expiry every seat still pending gets
the game's timeout choice (``binding.timeout_choice``; without one, ``Pass`` if
offered, else the first option). With timers off (``null``, private rooms only), a
pending seat whose player is disconnected is decided after ``disconnect_grace``
seconds, so nobody can stall a game by leaving.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Protocol

from .. import bots as bot_registry
from .. import games as game_registry
from ..engine import Game, Match
from ..engine.match import Decision
from ..engine.errors import Refused
from ..store import ChatRecord, ChoiceRecord, Conflict, MatchRecord, RoomRecord, SeatRecord, Store, StoreError
from .protocol import Bucket, Refusal, clean_chat, clean_name

log = logging.getLogger("intrigue.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 4
TIMER_OPTIONS = {"turn_timer": 30, "window_timer": 15}
#: After a restart a recovered decision's timer runs on, but leaves at least this
#: many seconds, so that players have time to reconnect.
RECOVERY_GRACE = 10.0
TIMER_RANGE = (1, 3600)
#: Where bots other than the random one think (two at a time, so live games keep the event loop).
BOT_THREADS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="intrigue-bot")


@dataclass
class Settings:
    """Server knobs (tests make bots instant and quotas roomy)."""

    bot_delay: float = 0.8          # seconds a bot "thinks" before acting
    disconnect_grace: float = 60.0  # with timers off: seconds before a disconnected seat is decided
    room_quota: int = 20            # rooms one client may create per hour
    message_rate: float = 10.0      # WebSocket messages per second per connection…
    message_burst: float = 40.0     # …with this burst
    flood_limit: int = 40           # refused-for-rate messages before the connection is closed
    chat_rate: float = 0.5          # chat lines per second per seat…
    chat_burst: float = 5.0         # …with this burst
    max_rooms: int = 2000           # rooms held at once (waiting + playing)
    sockets_per_address: int = 100  # WebSockets one address may hold open (each costs a task and a socket)
    seats_per_address: int = 30     # seats one address may take by joining rooms that have not started
    max_connections: int = 200      # connections (players + spectators) per room
    idle_close: float = 6 * 3600    # a waiting or finished room nobody is in is closed after this long


def now_iso() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def game_version(game: Game) -> str:
    """A fingerprint of the rules a match was played with (DSL file + rules module)."""
    digest = hashlib.sha256()
    for path in (game.binding.dsl_path, game.binding.module_file):
        if path and Path(path).is_file():
            digest.update(Path(path).read_bytes())
    return digest.hexdigest()[:16]


def timeout_choice(match: Match, seat: int, options: list[str]) -> str:
    """The game's default for a seat that did not answer in time."""
    chooser = match.game.binding.timeout_choice
    if chooser is not None:
        try:
            picked = chooser(match, seat, list(options))
            if picked in options:
                return picked
            log.error("%s: timeout choice %r is not offered (%s)", match.game.id, picked, options)
        except Exception:  # noqa: BLE001 - a rules bug must not stall the game
            log.exception("%s: timeout choice failed", match.game.id)
    return "Pass" if "Pass" in options else options[0]


def is_window(decision: Decision) -> bool:
    """Challenge/block/response windows get the short timer (see the module docstring)."""
    return decision.wait_for != "single_player_choice" or any("Pass" in options
                                                              for options in decision.offers.values())


class Sink(Protocol):
    """Where a room's messages for one connection go (a WebSocket, or a test's recorder)."""

    seat: int | None

    def send(self, message: dict[str, Any]) -> None: ...


@dataclass
class Seat:
    seat: int
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    left: bool = False
    sinks: list[Sink] = field(default_factory=list)
    chat: Bucket | None = None
    #: The address that joined this seat (memory only: it bounds what one address holds).
    address: str | None = None

    @property
    def taken(self) -> bool:
        return self.name is not None

    @property
    def human(self) -> bool:
        return self.taken and self.bot is None

    @property
    def connected(self) -> bool:
        return self.bot is not None or (self.human and not self.left and bool(self.sinks))

    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "bot": self.bot, "connected": self.connected,
                "left": self.left}

    def record(self) -> SeatRecord:
        return SeatRecord(self.seat, self.name, self.bot, self.token_hash, self.left)


@dataclass
class Timer:
    key: int          # match.decisions when it started
    mode: str         # "turn" | "window" | "grace"
    seconds: float
    deadline: float   # loop time
    handle: asyncio.TimerHandle | None = None


class Room:
    """One table. See the module docstring."""

    def __init__(self, lobby: "Lobby", record: RoomRecord):
        self.lobby = lobby
        self.code = record.code
        self.game: Game = game_registry.get(record.game)
        self.host = record.host
        self.private = record.private
        self.options = dict(record.options)
        self.status = record.status
        self.created = record.created
        self.creator = record.creator
        self.seats = [Seat(s.seat, s.name, s.bot, s.token_hash, s.left) for s in record.seats]
        self.spectators: list[Sink] = []
        self.match: Match | None = None
        self.match_id: int | None = record.match
        self.bots: dict[int, bot_registry.Bot] = {}
        self.votes: set[int] = set()
        self.timer: Timer | None = None
        #: After a restart: (decision number, wall-clock time it opened), so that the
        #: recovered decision's timer runs on from where it was, not from the start.
        self.recovered: tuple[int, float] | None = None
        self._scheduled: set[tuple[int, int, int]] = set()
        self.idle_since: float = time.monotonic()
        #: The match's recent choices the timer made: {version, seat, player, public} (see ``view_message``).
        self.timeouts: list[dict[str, Any]] = []

    # -- facts -----------------------------------------------------------------
    @property
    def store(self) -> Store:
        return self.lobby.store

    def record(self) -> RoomRecord:
        return RoomRecord(self.code, self.game.id, self.host, self.private, dict(self.options), self.status,
                          self.created, self.creator, self.match_id, [s.record() for s in self.seats])

    def save(self) -> None:
        try:
            self.store.save_room(self.record())
        except StoreError as exc:
            raise Refusal("storage", f"the room could not be stored: {exc}", 503) from exc

    def public(self) -> dict[str, Any]:
        return {"room": self.code, "game": self.game.id, "title": self.game.title, "status": self.status,
                "host": self.host, "match": self.match_id, "private": self.private,
                "seats": [s.public() for s in self.seats],
                "min_players": self.game.min_players, "max_players": self.game.max_players,
                "rematch": {"votes": sorted(self.votes), "needed": self.rematch_needed()},
                "options": dict(self.options), "created": self.created}

    def rematch_needed(self) -> list[int]:
        return [s.seat for s in self.seats if s.human and not s.left]

    def seat_for(self, token: str | None) -> Seat:
        if not token:
            raise Refusal("bad_token", "this command needs your seat's token", 403)
        digest = token_hash(token)
        for seat in self.seats:
            if seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
                return seat
        raise Refusal("bad_token", f"that token holds no seat in room {self.code}", 403)

    def game_options(self) -> dict[str, Any]:
        return {k: v for k, v in self.options.items() if k not in TIMER_OPTIONS}

    # -- lobby -----------------------------------------------------------------
    def add_player(self, name: str, address: str | None = None) -> tuple[Seat, str]:
        if self.status != "waiting":
            raise Refusal("already_started", f"room {self.code} has already started", 409)
        free = next((s for s in self.seats if not s.taken), None)
        if free is None:
            raise Refusal("room_full", f"room {self.code} is full ({len(self.seats)} seats)", 409)
        token = secrets.token_urlsafe(32)
        free.name = self._distinct(clean_name(name))
        free.token_hash = token_hash(token)
        free.left = False
        free.address = address
        self.save()
        self.broadcast_room()
        return free, token

    def _distinct(self, name: str) -> str:
        taken = {s.name for s in self.seats if s.taken}
        if name not in taken:
            return name
        n = 2
        while f"{name} {n}"[:24] in taken:
            n += 1
        return f"{name} {n}"[:24] if len(name) < 22 else f"{name[:20]} {n}"

    def leave(self, token: str) -> Seat:
        seat = self.seat_for(token)
        if self.status == "waiting":
            sinks = seat.sinks
            seat.name, seat.token_hash, seat.sinks, seat.left, seat.address = None, None, [], False, None
            humans = [s for s in self.seats if s.human]
            if not humans:
                self.status = "closed"
            elif seat.seat == self.host:
                self.host = humans[0].seat
        else:
            sinks = seat.sinks
            seat.left, seat.token_hash, seat.sinks = True, None, []
            self.votes.discard(seat.seat)
        for sink in sinks:
            sink.seat = None
            self.spectators.append(sink)
        if self.status == "finished" and not self.rematch_needed():
            self.status = "closed"
        self.save()
        self.broadcast_room()
        if self.status == "closed":
            self.lobby.forget(self)
        else:
            self.after_change()
            self._maybe_rematch()
        return seat

    def start(self, token: str) -> None:
        seat = self.seat_for(token)
        if seat.seat != self.host:
            raise Refusal("not_host", "only the host can start the match", 403)
        if self.status != "waiting":
            raise Refusal("already_started", f"room {self.code} has already started", 409)
        seated = [s for s in self.seats if s.taken]
        if len(seated) < self.game.min_players:
            raise Refusal("not_enough_players", f"{self.game.title} needs at least {self.game.min_players} "
                                                f"players; {len(seated)} are seated", 409)
        # Empty seats leave the table; everyone keeps their token, seats are renumbered.
        mapping = {s.seat: index for index, s in enumerate(seated)}
        for index, s in enumerate(seated):
            s.seat = index
        self.seats = seated
        self.host = mapping[self.host]
        for sink in self._all_sinks():
            if sink.seat is not None and mapping.get(sink.seat) != sink.seat:
                sink.seat = mapping.get(sink.seat)
                seat_now = self.seats[sink.seat] if sink.seat is not None else None
                sink.send({"type": "welcome", "room": self.code, "seat": sink.seat,
                           "name": seat_now.name if seat_now else None, "spectator": sink.seat is None})
        self._new_match()

    def _new_match(self) -> None:
        names = [s.name or f"Seat {s.seat + 1}" for s in self.seats]
        bots = [s.bot for s in self.seats]
        seed = secrets.randbits(62)
        options = self.game_options()
        match = Match(self.game, names, seed, options)
        try:
            match_id = self.store.create_match(self.code, self.game.id, game_version(self.game), names, bots,
                                               seed, options, now_iso())
        except StoreError as exc:
            raise Refusal("storage", f"the match could not be stored: {exc}", 503) from exc
        previous = (self.status, self.match_id)
        self.status, self.match_id = "playing", match_id
        try:
            self.save()
        except Refusal:
            self.status, self.match_id = previous
            raise
        self._install(match, match_id)
        self.broadcast_room()
        self.after_change()
        self.broadcast_views()

    def _install(self, match: Match, match_id: int) -> None:
        self.match, self.match_id = match, match_id
        self.votes = set()
        self.timeouts = []
        self.bots = {s.seat: bot_registry.make(s.bot, seed=f"{match.seed}:{s.seat}") for s in self.seats if s.bot}
        self._cancel_timer()

    # -- connections -------------------------------------------------------------
    def attach(self, sink: Sink, token: str | None) -> Seat | None:
        seat = self.seat_for(token) if token else None
        if seat is None and len(self._all_sinks()) >= self.lobby.settings.max_connections:
            raise Refusal("quota", f"room {self.code} has {self.lobby.settings.max_connections} connections "
                                   "already; try again later", 429)
        self.detach(sink, announce=False)
        sink.seat = seat.seat if seat else None
        if seat:
            seat.sinks.append(sink)
        else:
            self.spectators.append(sink)
        sink.send({"type": "welcome", "room": self.code, "seat": sink.seat,
                   "name": seat.name if seat else None, "spectator": seat is None})
        for chat in self.store.recent_chat(self.code):
            sink.send({"type": "chat", "from": chat.name, "seat": chat.seat, "text": chat.text, "at": chat.at})
        self.broadcast_room()
        if self.match is not None:
            self.send_view(sink)
        self.after_change()
        return seat

    def detach(self, sink: Sink, announce: bool = True) -> None:
        changed = False
        if sink in self.spectators:
            self.spectators.remove(sink)
        for seat in self.seats:
            if sink in seat.sinks:
                seat.sinks.remove(sink)
                changed = True
        if self.idle:
            self.idle_since = time.monotonic()
        if changed and announce:
            self.broadcast_room()
            self.after_change()

    def _all_sinks(self) -> list[Sink]:
        return [sink for seat in self.seats for sink in seat.sinks] + list(self.spectators)

    @property
    def idle(self) -> bool:
        return not self._all_sinks()

    # -- sending ---------------------------------------------------------------
    def broadcast_room(self) -> None:
        message = {"type": "room", **self.public()}
        for sink in self._all_sinks():
            sink.send(message)

    def view_message(self, seat: int | None) -> dict[str, Any]:
        assert self.match is not None
        timer = self.timer_json()
        if timer is not None and seat is not None and seat in self.match.pending:
            # Each timed prompt says what the timer will choose: only to the seat it chooses for.
            timer = {**timer, "default": timeout_choice(self.match, seat, self.match.legal(seat))}
        timeouts = [{"version": t["version"], "player": t["player"]} for t in self.timeouts
                    if t["public"] or t["seat"] == seat]
        return {"type": "view", "match": self.match_id, "view": self.match.observe(seat), "timer": timer,
                "timeouts": timeouts}

    def send_view(self, sink: Sink) -> None:
        if self.match is not None:
            sink.send(self.view_message(sink.seat))

    def broadcast_views(self) -> None:
        if self.match is None:
            return
        cache: dict[int | None, dict[str, Any]] = {}
        for sink in self._all_sinks():
            if sink.seat not in cache:
                cache[sink.seat] = self.view_message(sink.seat)
            sink.send(cache[sink.seat])

    def timer_json(self) -> dict[str, Any] | None:
        if self.timer is None or self.match is None or self.match.over:
            return None
        loop = asyncio.get_event_loop()
        return {"seconds_left": round(max(0.0, self.timer.deadline - loop.time()), 1),
                "seconds": self.timer.seconds, "kind": self.timer.mode}

    # -- playing ---------------------------------------------------------------
    def choose(self, token: str, option: str, version: int) -> None:
        seat = self.seat_for(token)
        if self.match is None:
            raise Refusal("not_started", f"room {self.code} has not started yet", 409)
        self.apply(seat.seat, option, version, "player")

    def apply(self, seat: int, option: str, version: int, source: str) -> None:
        """Check, store, apply, tell everyone. Raises :class:`Refusal`; nothing changes then."""
        match = self.match
        assert match is not None and self.match_id is not None
        try:
            match.check(seat, option, version)
        except Refused as refused:
            raise Refusal(refused.code, refused.message, 409) from None
        try:
            # The log is keyed by the match's own version (the choice's index), not by the
            # version the client saw: answers to one open window may carry the same one.
            self.store.append_choice(self.match_id, ChoiceRecord(match.version, seat, option, source, now_iso()))
        except Conflict as exc:
            raise Refusal("stale_version", str(exc), 409) from exc
        except StoreError as exc:
            log.error("room %s: could not store a move: %s", self.code, exc)
            raise Refusal("storage", f"your move could not be stored, so it was not applied ({exc})", 503) from exc
        try:
            match.choose(seat, option, version)
        except Exception as exc:  # a rules bug: the move is logged, so recovery will name it
            log.exception("room %s: the rules failed on %r (version %s)", self.code, option, version)
            raise Refusal("internal", f"the game's rules failed on this move ({type(exc).__name__}); "
                                      "it is kept in the log for the maintainers", 500) from None
        if match.over:
            self._finish()
        self.after_change()
        self.broadcast_views()

    def _finish(self) -> None:
        assert self.match is not None and self.match_id is not None
        self._cancel_timer()
        try:
            self.store.finish_match(self.match_id, list(self.match.winners), now_iso())
            self.status = "finished"
            self.save()
        except (StoreError, Refusal) as exc:  # the log is complete; recovery will mark it finished
            log.error("room %s: could not mark match %s finished: %s", self.code, self.match_id, exc)
            self.status = "finished"
        self.broadcast_room()
        if not self.rematch_needed():  # every human has left: nobody can ask for a rematch
            self.close()

    def close(self) -> None:
        self.status = "closed"
        try:
            self.save()
        except Refusal as refusal:
            log.error("room %s: %s", self.code, refusal.message)
        self.lobby.forget(self)

    def chat(self, token: str | None, text: str) -> None:
        if not token:
            raise Refusal("bad_token", "spectators cannot chat: join a seat to talk", 403)
        seat = self.seat_for(token)
        text = clean_chat(text)
        settings = self.lobby.settings
        if seat.chat is None:
            seat.chat = Bucket(settings.chat_rate, settings.chat_burst)
        if not seat.chat.take():
            raise Refusal("rate_limited", "you are chatting too fast; wait a few seconds", 429)
        record = ChatRecord(self.code, seat.seat, seat.name or "", text, now_iso())
        try:
            self.store.add_chat(record)
        except StoreError as exc:
            raise Refusal("storage", f"your message could not be stored ({exc})", 503) from exc
        message = {"type": "chat", "from": record.name, "seat": record.seat, "text": record.text, "at": record.at}
        for sink in self._all_sinks():
            sink.send(message)

    def rematch(self, token: str) -> None:
        seat = self.seat_for(token)
        if self.match is None or not self.match.over:
            raise Refusal("not_over", "a rematch can be voted only after game over", 409)
        self.votes.add(seat.seat)
        self.broadcast_room()
        self._maybe_rematch()

    def _maybe_rematch(self) -> None:
        if self.match is None or not self.match.over:
            return
        needed = self.rematch_needed()
        if needed and set(needed) <= self.votes:
            self._new_match()

    # -- timers and bots -----------------------------------------------------------
    def after_change(self) -> None:
        """Restart the timer if a new decision opened; schedule bot and absent-seat moves."""
        match = self.match
        if match is None or match.over or self.status != "playing":
            self._cancel_timer()
            return
        self._refresh_timer()
        key = match.decisions
        loop = asyncio.get_event_loop()
        for seat in match.pending:
            s = self.seats[seat]
            if s.bot or s.left:
                ticket = (self.match_id or 0, key, seat)
                if ticket not in self._scheduled:
                    self._scheduled.add(ticket)
                    loop.call_later(self.lobby.settings.bot_delay, self._auto_move, ticket)

    def _timer_mode(self) -> tuple[str, float] | None:
        match = self.match
        assert match is not None and match.decision is not None
        if is_window(match.decision):
            mode, seconds = "window", self.options.get("window_timer")
        else:
            mode, seconds = "turn", self.options.get("turn_timer")
        if seconds:
            return mode, float(seconds)
        absent = [s for s in match.pending if self.seats[s].human and not self.seats[s].connected]
        if absent:
            return "grace", self.lobby.settings.disconnect_grace
        return None

    def _refresh_timer(self) -> None:
        match = self.match
        assert match is not None
        wanted = self._timer_mode() if match.pending else None
        if wanted is None:
            self._cancel_timer()
            return
        mode, seconds = wanted
        if self.timer and self.timer.key == match.decisions and self.timer.mode == mode:
            return
        self._cancel_timer()
        loop = asyncio.get_event_loop()
        left = seconds
        if self.recovered and self.recovered[0] == match.decisions and mode != "grace":
            left = max(RECOVERY_GRACE, seconds - (time.time() - self.recovered[1]))
        self.recovered = None
        self.timer = Timer(match.decisions, mode, seconds, loop.time() + left)
        self.timer.handle = loop.call_later(left, self._expire, self.timer)

    def _cancel_timer(self) -> None:
        if self.timer and self.timer.handle:
            self.timer.handle.cancel()
        self.timer = None

    def _expire(self, timer: Timer) -> None:
        match = self.match
        if timer is not self.timer or match is None or match.over or match.decisions != timer.key:
            return
        self.timer = None
        # Who timed out may be told to all only when everyone may see who was deciding (a
        # secret decision shows more players waiting than there are actors).
        public = match.observe(None)["waiting"] == [match.names[s] for s in match.pending]
        for seat in list(match.pending):
            if match.over or match.decisions != timer.key or seat not in match.pending:
                break
            if timer.mode == "grace" and self.seats[seat].connected:
                continue
            self.timeouts = self.timeouts[-19:] + [{"version": match.version, "seat": seat,
                                                    "player": match.names[seat], "public": public}]
            try:
                self.apply(seat, timeout_choice(match, seat, match.legal(seat)), match.version, "timeout")
            except Refusal as refusal:
                self.timeouts.pop()
                log.error("room %s: timeout move refused: %s", self.code, refusal.message)
                break
        if self.timer is None and self.match is match:
            self.after_change()
            self.broadcast_views()

    def _auto_move(self, ticket: tuple[int, int, int], thought: "asyncio.Future[str] | None" = None) -> None:
        match_id, key, seat = ticket
        self._scheduled.discard(ticket)
        match = self.match
        if match is None or match.over or self.match_id != match_id or match.decisions != key:
            return
        if seat not in match.pending:
            return
        options = match.legal(seat)
        s = self.seats[seat]
        source = "left"
        option = None
        if s.bot and not s.left:
            source = "bot"
            bot = self.bots[seat]
            try:
                if thought is not None:
                    option = thought.result()
                else:
                    view = bot_registry.SeatView(self.game, seat, match.observe(seat), tuple(options))
                    if type(bot) is not bot_registry.Bot:  # a searching bot thinks off the loop that runs every game
                        self._scheduled.add(ticket)
                        future = asyncio.get_event_loop().run_in_executor(BOT_THREADS, bot.choose, view)
                        future.add_done_callback(lambda done: self._auto_move(ticket, done))
                        return
                    option = bot.choose(view)
            except Exception:  # noqa: BLE001 - a bot bug must not stall the game
                log.exception("room %s: bot %s failed; using the timeout default", self.code, s.bot)
        if option not in options:
            option = timeout_choice(match, seat, options)
        try:
            self.apply(seat, option, match.version, source)
        except Refusal as refusal:
            log.error("room %s: %s move refused: %s", self.code, source, refusal.message)
            if refusal.code == "storage":  # retry, or the decision would wait for ever once writes work again
                self._scheduled.add(ticket)
                asyncio.get_event_loop().call_later(max(1.0, self.lobby.settings.bot_delay), self._auto_move, ticket)


class Lobby:
    """All rooms of one server, their creation and their recovery from the store."""

    def __init__(self, store: Store, settings: Settings | None = None):
        self.store = store
        self.settings = settings or Settings()
        self.rooms: dict[str, Room] = {}
        self._created: dict[str, list[float]] = {}
        self.problems: list[str] = []

    # -- rooms -----------------------------------------------------------------
    def room(self, code: str) -> Room:
        room = self.rooms.get(code.strip().upper()) if isinstance(code, str) else None
        if room is None:
            raise Refusal("no_room", f"there is no open room {code[:12]!r}" if isinstance(code, str)
                          else "there is no such room", 404)
        return room

    def join(self, client: str, code: str, name: str) -> tuple[Room, Seat, str]:
        """Take a free seat, unless ``client`` already holds ``seats_per_address`` seats in
        rooms that have not started: one script must not fill every public room."""
        room = self.room(code)
        held = sum(1 for r in self.rooms.values() if r.status == "waiting"
                   for s in r.seats if s.taken and s.address == client)
        if held >= self.settings.seats_per_address:
            raise Refusal("quota", f"you hold {held} seats in rooms that have not started "
                                   f"(limit {self.settings.seats_per_address}); leave one first", 429)
        seat, token = room.add_player(name, address=client)
        return room, seat, token

    def forget(self, room: Room) -> None:
        self.rooms.pop(room.code, None)

    def open_rooms(self) -> list[dict[str, Any]]:
        order = {"waiting": 0, "playing": 1, "finished": 2}
        rooms = [r for r in self.rooms.values() if not r.private and r.status in order]
        rooms.sort(key=lambda r: (order[r.status], r.created))
        return [r.public() for r in rooms]

    def create(self, client: str, game_id: str, name: str, seats: int, bots: list[dict[str, Any]],
               options: dict[str, Any], private: bool, clock: Callable[[], float] | None = None) -> tuple[Room, str]:
        loop_time = (clock or asyncio.get_event_loop().time)()
        recent = [t for t in self._created.get(client, []) if loop_time - t < 3600]
        if len(recent) >= self.settings.room_quota:
            raise Refusal("quota", f"you have created {len(recent)} rooms in the last hour "
                                   f"(limit {self.settings.room_quota}); use one of them", 429)
        active = sum(1 for r in self.rooms.values() if r.status in ("waiting", "playing"))
        if active >= self.settings.max_rooms:
            raise Refusal("quota", "the server is full; try again later", 429)
        if game_id not in game_registry.installed():
            raise Refusal("bad_message", f"no installed game {game_id!r} "
                                         f"(installed: {', '.join(game_registry.installed())})")
        try:
            game = game_registry.get(game_id)
        except Exception as exc:  # noqa: BLE001 - a game under construction that does not load
            raise Refusal("bad_message", f"the game {game_id!r} does not load: {str(exc)[:300]}") from None
        if not game.min_players <= seats <= game.max_players:
            raise Refusal("bad_message", f"{game.title} takes {game.min_players} to {game.max_players} seats, "
                                         f"not {seats}")
        if len(bots) > seats - 1:
            raise Refusal("bad_message", f"{len(bots)} bots leave no seat for you at a table of {seats}")
        labels = []
        for bot in bots:
            spec = bot["kind"] + (f":{bot['personality']}" if bot.get("personality") else "")
            try:
                bot_registry.make(spec)
            except ValueError as exc:
                raise Refusal("bad_message", str(exc)) from None
            listed = next((k["personalities"] for k in bot_registry.kinds() if k["kind"] == bot["kind"]), [])
            if bot.get("personality") and bot["personality"] not in listed:
                # custom budgets (ismcts:<N>ms) are for the CLI: a room's bots think on the server's CPU
                raise Refusal("bad_message", f"bot {bot['kind']!r} in a room takes one of the listed personalities "
                                             f"({', '.join(listed) or 'none'}), not {bot['personality'][:40]!r}")
            labels.append(spec)
        room_options = self._options(game, options, private)
        host_name = clean_name(name)
        code = self._new_code()
        record = RoomRecord(code, game.id, 0, private, room_options, "waiting", now_iso(), client)
        record.seats = [SeatRecord(i) for i in range(seats)]
        for index, (spec, bot_name) in enumerate(zip(labels, bot_registry.names(len(labels), {host_name}))):
            record.seats[seats - len(labels) + index] = SeatRecord(seats - len(labels) + index, bot_name, spec)
        room = Room(self, record)
        token = secrets.token_urlsafe(32)
        room.seats[0].name, room.seats[0].token_hash = host_name, token_hash(token)
        room.save()
        self.rooms[code] = room
        self._created[client] = recent + [loop_time]
        return room, token

    def _options(self, game: Game, options: dict[str, Any], private: bool) -> dict[str, Any]:
        result: dict[str, Any] = dict(TIMER_OPTIONS)
        result.update(game.option_defaults())
        for key, value in options.items():
            if key in TIMER_OPTIONS:
                if value is None:
                    if not private:
                        raise Refusal("bad_message", f"{key} can be off (null) only in a private room")
                elif isinstance(value, bool) or not isinstance(value, (int, float)) or \
                        not TIMER_RANGE[0] <= value <= TIMER_RANGE[1]:
                    raise Refusal("bad_message", f"{key} must be a number of seconds from {TIMER_RANGE[0]} "
                                                 f"to {TIMER_RANGE[1]}, or null")
            elif key in game.binding.options:
                default = game.binding.options[key]
                if default is not None and type(value) is not type(default):
                    raise Refusal("bad_message", f"option {key} must be a {type(default).__name__}")
            else:
                known = ", ".join(list(TIMER_OPTIONS) + list(game.binding.options))
                raise Refusal("bad_message", f"unknown option {str(key)[:40]!r} for {game.id} (known: {known})")
            result[key] = value
        return result

    def _new_code(self) -> str:
        taken = self.store.room_codes() | set(self.rooms)
        for _ in range(1000):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in taken:
                return code
        raise Refusal("quota", "no free room code; try again later", 503)

    # -- recovery --------------------------------------------------------------------
    def recover(self) -> list[str]:
        """Reload every open room and re-execute its match's log. Returns what was restored."""
        restored: list[str] = []
        broken: set[int] = set()  # matches of rooms that failed: left exactly as stored
        for record in self.store.open_rooms():
            try:
                room = Room(self, record)
                if record.match is not None:
                    match_record = self.store.load_match(record.match)
                    if match_record is None:
                        raise ValueError(f"its match {record.match} is missing from the store")
                    choices = self.store.choices(record.match)
                    match = rebuild(match_record, choices)
                    room._install(match, record.match)
                    if match.decision is not None:
                        room.recovered = (match.decisions, opened_time(match, match_record, choices))
                    if match.over and room.status == "playing":
                        room.status = "finished"
                        self.store.finish_match(record.match, list(match.winners), now_iso())
                        room.save()
                self.rooms[room.code] = room
                restored.append(f"{room.code} ({room.game.id}, {room.status}"
                                + (f", match {room.match_id} at version {room.match.version}" if room.match else "")
                                + ")")
            except Exception as exc:  # noqa: BLE001 - one bad room must not stop the others
                problem = f"room {record.code} could not be restored and was left as stored: {exc}"
                log.error(problem)
                self.problems.append(problem)
                if record.match is not None:
                    broken.add(record.match)
        restored += self._settle_orphans(broken)
        return restored

    def _settle_orphans(self, broken: set[int]) -> list[str]:
        """Matches marked ``playing`` that no restored room plays (a crash between creating a match
        and saving its room): finished if their log ends the game, else ``abandoned``."""
        live = {room.match_id for room in self.rooms.values()}
        settled = []
        for record in self.store.list_matches("playing", limit=1_000_000):
            if record.id in live or record.id in broken:
                continue
            try:
                match = rebuild(record, self.store.choices(record.id))
            except Exception as exc:  # noqa: BLE001
                self.problems.append(f"match {record.id} has no room and does not replay; left as stored: {exc}")
                continue
            if match.over:
                self.store.finish_match(record.id, list(match.winners), now_iso())
                settled.append(f"match {record.id} (no room): finished")
            else:
                self.store.abandon_match(record.id, now_iso())
                settled.append(f"match {record.id} (no room): abandoned at version {match.version}")
        return settled

    def resume(self) -> None:
        """Start timers and bots of recovered rooms (needs the running loop)."""
        for room in self.rooms.values():
            room.after_change()

    def sweep(self, now: float | None = None) -> list[str]:
        """Close waiting and finished rooms nobody has been in for ``idle_close`` seconds.

        A match being played is never closed: its timers (or the grace period)
        finish it. Closed rooms keep their matches in the history.
        """
        now = time.monotonic() if now is None else now
        closed = []
        for room in list(self.rooms.values()):
            if room.status in ("waiting", "finished") and room.idle and \
                    now - room.idle_since > self.settings.idle_close:
                room.close()
                closed.append(room.code)
        return closed


_WARNED: set[tuple[int, str]] = set()


def opened_time(match: Match, record: MatchRecord, choices: list[ChoiceRecord]) -> float:
    """When (epoch seconds) the match's open decision opened: the stored time of the move
    that opened it (the move stored at the version before the decision's), else the start."""
    assert match.decision is not None
    at = next((c.at for c in reversed(choices) if c.version == match.decision.opened_at - 1), record.started)
    try:
        return datetime.strptime(at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()
    except ValueError:
        return time.time()  # an unreadable time: the timer starts again


def rebuild(record: MatchRecord, choices: list[ChoiceRecord]) -> Match:
    """Re-execute a stored match; raise ValueError naming the first move that does not replay."""
    game = game_registry.get(record.game)
    if record.game_version != game_version(game) and (record.id, record.game_version) not in _WARNED:
        _WARNED.add((record.id, record.game_version))
        log.warning("match %s was played with another version of %s's rules; replaying anyway "
                    "(a move the new rules refuse is reported)", record.id, record.game)
    match = Match(game, record.players, record.seed, record.options)
    for choice in choices:
        try:
            match.choose(choice.seat, choice.option, choice.version)
        except Refused as refused:
            raise ValueError(f"match {record.id} does not replay at version {choice.version} "
                             f"({record.players[choice.seat] if 0 <= choice.seat < len(record.players) else choice.seat}"
                             f": {choice.option!r}): {refused.message}") from None
    return match

