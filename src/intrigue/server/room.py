"""One table: its seats, the match it plays, who is told what, chat and rematch.

Serialisation: the server runs on one asyncio event loop and every method that
changes a room is synchronous (it never awaits), so one room's commands run one
at a time, each from check to store to apply to broadcast without interleaving.
Its decision timer (:mod:`.timers`) and the moves of its bots and left seats
(:mod:`.autoplay`) are ``loop.call_later`` callbacks that re-check the match
before acting, so a late callback for an answered decision does nothing.

Every change is stored as one transaction before anyone is told (see
:mod:`intrigue.store`); if the store refuses, the room is put back as it was
and the client gets ``storage``.

A choice flows: checked by the engine (``Match.check``) → applied to the live
match (``Match.choose``) → appended to the store (committed) → views sent. If
applying raises (a bug in a game's rules) or the store refuses the append, the
match is put back by re-executing its log without the choice
(:func:`.matches.rewound`), nothing is stored, and the client gets ``internal``
or ``storage``. Applying before appending costs nothing per move (a copy of the
match per move would); a kill -9 between the two loses only a choice nobody was
told about, since nothing is sent before the append commits.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from .. import games as game_registry
from ..engine import Game, Match
from ..engine.errors import Refused
from ..engine.timing import timeout_choice
from ..store import ChatRecord, ChoiceRecord, Conflict, Fenced, MatchRecord, RoomRecord, Store, StoreError
from .autoplay import Autoplay
from .matches import game_version, rewound
from .protocol import Bucket, Deltas, Fragments, LogLines, Prepared, Refusal, clean_chat, clean_name, name_keys
from .seats import Seat, Sink, token_hash
from .settings import TIMER_OPTIONS, now_iso
from .timers import DecisionTimer

if TYPE_CHECKING:  # pragma: no cover
    from .lobby import Lobby

log = logging.getLogger("intrigue.server")
#: Chat lines replayed to every connection that says hello.
RECENT_CHAT = 50
#: Option words a game whose rules are Python offers without declaring them (Coup's and BANG!'s ``Pass``):
#: no player is named one, in any game (``Game.option_words`` holds only a DSL phase's literal options).
COMMON_OPTION_WORDS = ("Pass", "No one")


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
        self.votes: set[int] = set(record.votes)
        self.timer = DecisionTimer(self)
        #: The current match's log lines as sent (each encoded once: protocol.LogLines).
        self.lines = LogLines()
        #: The last change's components as sent (each encoded once while it is shown: protocol.Fragments).
        self.fragments: Fragments | None = None
        self.autoplay = Autoplay(self)
        self.idle_since: float = time.monotonic()
        #: The seed of the next match, when it must be a fixed deal (a tutorial's first match).
        self.next_seed: int | None = None
        #: In a cluster: the store handle carrying this node's fencing token for the room.
        self.fenced: Store | None = None
        #: The recent chat every attach replays, read from the store once (this room is its only writer).
        self.recent_chat: deque[ChatRecord] | None = None
        #: Who is connected is told to everyone at once up to ``presence_burst`` times, then at most
        #: ``presence_rate`` times a second (one deferred message says every change meanwhile): a seat's
        #: connection saying hello with and without its token, over and over, made a message for every
        #: connection of the room each time.
        self.presence = Bucket(lobby.settings.presence_rate, lobby.settings.presence_burst)
        self._presence_due: Any = None
        self._presence_views = False

    # -- facts -----------------------------------------------------------------
    @property
    def store(self) -> Store:
        return self.fenced or self.lobby.store

    def record(self) -> RoomRecord:
        return RoomRecord(self.code, self.game.id, self.host, self.private, dict(self.options), self.status,
                          self.created, self.creator, self.match_id, [s.record() for s in self.seats],
                          sorted(self.votes))

    def save(self, before: RoomRecord | None = None) -> None:
        """Store the room as it is now; if the store refuses, put it back as ``before`` and refuse."""
        try:
            self.store.save_room(self.record())
        except Fenced as exc:
            raise self.moved(exc) from exc
        except StoreError as exc:
            if before is not None:
                self._restore(before)
            raise Refusal("storage", f"the room could not be stored: {exc}", 503) from exc

    def _restore(self, record: RoomRecord) -> None:
        """Put the room's stored facts back as ``record`` (seats keep their connections)."""
        self.lobby.changed()
        self.host, self.status, self.match_id, self.votes = record.host, record.status, record.match, set(record.votes)
        for seat, saved in zip(self.seats, record.seats):
            seat.seat, seat.name, seat.bot, seat.token_hash, seat.left = (saved.seat, saved.name, saved.bot,
                                                                        saved.token_hash, saved.left)

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
        before = self.record()
        free.name = self.distinct_name(clean_name(name))
        free.token_hash = token_hash(token)
        free.left = False
        self.save(before)
        free.address = address
        self._seats_changed()
        return free, token

    def distinct_name(self, name: str) -> str:
        """``name``, or ``name 2``, ``name 3``… if another seat has it or it is one of the game's option
        words (shortened to make room in 24 characters). Names are compared by what they draw
        (:func:`.protocol.name_keys`): ``Аria`` with a Cyrillic ``А`` has the name ``Aria``, ``AIice`` with a
        capital ``I`` the name ``Alice``."""
        seated = {s.name for s in self.seats if s.taken and s.name}
        # The name of one who wrote a line of the recent chat and has left is taken too: a hello's recent chat
        # names each line's seat by its writer's name, and a newcomer under that name was handed their lines.
        gone = {chat.name for chat in self.chat_lines() if chat.name not in seated}
        taken = {key for name in seated | gone for key in name_keys(name)} | {
            key for word in (*self.game.option_words(), *COMMON_OPTION_WORDS) for key in name_keys(word)}
        if not name_keys(name) & taken:
            return name

        def suffixed(n: int) -> str:
            return f"{name} {n}"[:24] if len(name) < 22 else f"{name[:20].rstrip()} {n}"

        n = 2
        while name_keys(suffixed(n)) & taken:  # (the very name that is returned: a 24-character one looped for ever)
            n += 1
        return suffixed(n)

    def leave(self, token: str) -> Seat:
        seat = self.seat_for(token)
        before, waiting = self.record(), self.status == "waiting"
        if waiting:
            seat.name, seat.token_hash, seat.left = None, None, False
            humans = [s for s in self.seats if s.human]
            if not humans:
                self.status = "closed"
            elif seat.seat == self.host:
                self.host = humans[0].seat
        else:
            seat.left, seat.token_hash = True, None
            self.votes.discard(seat.seat)
        if self.status == "finished" and not self.rematch_needed():
            self.status = "closed"
        # The seat's departure and the rematch it may complete are one stored change.
        if self._rematch_due():
            try:
                started: tuple[Match, int] | None = self._store_new_match()
            except Refusal:
                self._restore(before)
                raise
        else:
            started = None
            self.save(before)
        sinks, seat.sinks = seat.sinks, []
        if waiting:
            seat.address = None
        for sink in sinks:  # they watch now, and are told so (and the room as it is, below)
            sink.seat = None
            self.spectators.append(sink)
            self._welcome(sink, None)
        if started is not None:
            self._begin(*started)
            return seat
        if waiting and self.status == "waiting":
            if not self._seats_changed():
                for sink in sinks:
                    sink.send({"type": "room", **self.public()})
        else:
            self.broadcast_room()
        if self.status == "closed":
            self.lobby.forget(self)
        elif self.after_change():
            self.broadcast_views()
        elif self.match is not None:
            for sink in sinks:  # the spectator's view, instead of the seat's they held
                self.send_view(sink)
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
        before, every_seat = self.record(), self.seats
        mapping = {s.seat: index for index, s in enumerate(seated)}
        for index, s in enumerate(seated):
            s.seat = index
        self.seats = seated
        self.host = mapping[self.host]
        try:
            started = self._store_new_match()
        except Refusal:
            self.seats = every_seat
            self._restore(before)
            raise
        for sink in self._all_sinks():
            if sink.seat is not None and mapping.get(sink.seat) != sink.seat:
                sink.seat = mapping.get(sink.seat)
                self._welcome(sink, self.seats[sink.seat] if sink.seat is not None else None)
        self._begin(*started)

    def _rematch_due(self) -> bool:
        if self.match is None or not self.match.over or self.status != "finished":
            return False
        needed = self.rematch_needed()
        return bool(needed) and set(needed) <= self.votes

    def _store_new_match(self) -> tuple[Match, int]:
        """Store a new match and this room (as it is now, playing it) in one transaction.

        Raises :class:`Refusal` (``storage``) if the store refuses; the caller puts the room
        back. Nothing is sent: :meth:`_begin` does that.
        """
        names = [s.name or f"Seat {s.seat + 1}" for s in self.seats]
        bots = [s.bot for s in self.seats]
        pick = self.lobby.settings.match_seed
        seed = self.next_seed if self.next_seed is not None else pick(self.code) if pick else None
        seed = secrets.randbits(62) if seed is None else seed
        options = self.game_options()
        try:
            match = Match(self.game, names, seed, options)
        except ValueError as exc:  # options the game refuses at this table size
            raise Refusal("not_enough_players", f"the match cannot start with {len(names)} players: {exc}"[:300],
                          409) from None
        room = self.record()
        room.status, room.votes = "playing", []
        try:
            match_id = self.store.start_match(room, MatchRecord(0, self.code, self.game.id, game_version(self.game),
                                                                names, bots, seed, options, "playing", [],
                                                                now_iso()))
        except Fenced as exc:
            raise self.moved(exc) from exc
        except StoreError as exc:
            raise Refusal("storage", f"the match could not be stored: {exc}", 503) from exc
        self.next_seed = None
        return match, match_id

    def _begin(self, match: Match, match_id: int) -> None:
        """Play a stored new match: install it and tell everyone."""
        self.status, self.votes = "playing", set()
        self._install(match, match_id)
        self.broadcast_room()
        self.after_change()
        self.broadcast_views()

    def _install(self, match: Match, match_id: int) -> None:
        self.match, self.match_id = match, match_id
        self.lines.clear()
        self.fragments = None
        self.autoplay.seat_bots(match.seed)
        self.timer.cancel()
        self.timer.timeouts = []
        self.timer.spent = {}

    # -- connections -------------------------------------------------------------
    def attach(self, sink: Sink, token: str | None) -> Seat | None:
        seat = self.seat_for(token) if token else None
        limit = self.lobby.settings.max_connections
        if seat is None and sum(other is not sink for other in self._all_sinks()) >= limit:  # (a hello again adds none)
            raise Refusal("quota", f"room {self.code} has {limit} connections already; try again later", 429)
        connected = [s.connected for s in self.seats]
        self.detach(sink, announce=False)
        sink.seat = seat.seat if seat else None
        if seat:
            seat.sinks.append(sink)
        else:
            self.spectators.append(sink)
        self._welcome(sink, seat)
        changed = connected != [s.connected for s in self.seats]
        timer = self.after_change()  # a grace timer ends when its player is back: everyone is told
        # A watcher, or another tab of a seat, changes nothing anyone sees (and a hello costs one message).
        told = (changed or timer) and self._announce(changed, timer)
        if not (told and changed):
            sink.send({"type": "room", **self.public()})
        if self.match is not None and not (told and timer):
            self.send_view(sink)
        return seat

    def _welcome(self, sink: Sink, seat: Seat | None) -> None:
        """Tell a connection which seat it holds (``seat``; ``None``: a spectator), then the recent chat, as
        after every ``welcome``: a client starts its chat afresh on one (the room page empties its list)."""
        if getattr(sink, "deltas", None) is not None:  # the first view after a welcome has the whole log
            sink.deltas = Deltas()  # (the lines a seat read are not all a watcher's)
        sink.send({"type": "welcome", "room": self.code, "seat": seat.seat if seat else None,
                   "name": seat.name if seat else None, "spectator": seat is None})
        recent = self.chat_lines()
        if recent:
            # A line names its writer's seat now: the seats were renumbered at the start, and a seat freed
            # before it may have been taken by someone else (names are unique at a table, and the name of a
            # writer who left is not given again while their lines are recent: distinct_name).
            seated = {s.name: s.seat for s in self.seats if s.name is not None}
            for chat in recent:
                sink.send({"type": "chat", "from": chat.name, "seat": seated.get(chat.name), "text": chat.text,
                           "at": chat.at})

    def chat_lines(self) -> deque[ChatRecord]:
        """The recent chat every hello replays (read from the store once: this room is its only writer)."""
        if self.recent_chat is None:
            self.recent_chat = deque(self.store.recent_chat(self.code, RECENT_CHAT), maxlen=RECENT_CHAT)
        return self.recent_chat

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
            # A grace timer starts for a pending player who left: everyone is told.
            self._announce(True, self.after_change())

    def _seats_changed(self) -> bool:
        """A seat taken or freed before the start: the lobby's lists know at once, the room's connections
        as they learn who is connected (:meth:`_announce`): a script joining and leaving over the HTTP
        routes, 500 times a second, made two messages for every connection of the room each time. True if
        they were told now."""
        self.lobby.changed()
        if self.lobby.cluster is not None:
            self.lobby.cluster.room_changed(self)
        return self._announce(True, False)

    def _announce(self, room: bool, views: bool) -> bool:
        """Tell everyone that who is connected changed (``room``) and that the timer did (``views``): now,
        if the room's presence bucket allows it (True), else in one message when it does (False)."""
        if room:
            self.lobby.changed()  # the lobby's list shows who is connected at once, whenever the room is told
        if self._presence_due is not None:  # a deferred announcement is waiting: it will say this too
            self._presence_views |= views
            return False
        if self.presence.take():
            if room:
                self.broadcast_room()
            if views:
                self.broadcast_views()
            return True
        self._presence_views = views
        self._presence_due = asyncio.get_event_loop().call_later(1 / self.presence.rate, self._announce_late)
        return False

    def _announce_late(self) -> None:
        self._presence_due = None
        if self.status == "closed":
            return
        self.presence.take()
        self.broadcast_room()
        if self._presence_views:
            self._presence_views = False
            self.broadcast_views()

    def _all_sinks(self) -> list[Sink]:
        return [sink for seat in self.seats for sink in seat.sinks] + list(self.spectators)

    @property
    def idle(self) -> bool:
        return not self._all_sinks()

    # -- sending ---------------------------------------------------------------
    def broadcast_room(self) -> None:
        self.lobby.changed()
        message = {"type": "room", **self.public()}
        for sink in self._all_sinks():
            sink.send(message)
        if self.lobby.cluster is not None:
            self.lobby.cluster.room_changed(self)

    def view_message(self, seat: int | None) -> Prepared:
        return self.view_messages([seat])[seat]

    def view_messages(self, seats: list[int | None]) -> dict[int | None, Prepared]:
        """Each seat's ``view`` message, from views observed together (``Match.observe_seats``: what they
        have in common built once), their common components encoded once (``protocol.Fragments``)."""
        match = self.match
        assert match is not None
        timer = self.timer.json()
        pending = match.pending if timer is not None else ()
        fragments = self.fragments = Fragments(self.fragments)
        messages: dict[int | None, Prepared] = {}
        for seat, view in zip(seats, match.observe_seats(seats)):
            shown = timer
            if timer is not None and seat is not None and seat in pending and timer["kind"] != "phase":
                # Each timed prompt says what the timer will choose: only to the seat it chooses for. A timer
                # phase's clock chooses nothing for a seat (its own move ends the phase): it promises nothing.
                shown = {**timer, "default": timeout_choice(match, seat, match.legal(seat))}
            timeouts = [{"version": t["version"], "player": t["player"]} for t in self.timer.timeouts
                        if t["public"] or t["seat"] == seat]
            messages[seat] = Prepared({"type": "view", "match": self.match_id, "view": view, "timer": shown,
                                       "timeouts": timeouts}, self.lines, fragments)
        return messages

    def send_view(self, sink: Sink) -> None:
        if self.match is not None:
            sink.send(self.view_message(sink.seat))

    def broadcast_views(self, only: set[int] | None = None) -> None:
        """Send every connection its seat's view (``only``: just the connections of these seats; a connection
        that asked for log deltas sends the form of it that continues what it holds: ``Deltas``)."""
        if self.match is None:
            return
        sinks = [sink for sink in self._all_sinks() if only is None or sink.seat in only]
        if not sinks:
            return
        messages = self.view_messages(list(dict.fromkeys(sink.seat for sink in sinks)))
        for sink in sinks:
            sink.send(messages[sink.seat])

    # -- playing ---------------------------------------------------------------
    def choose(self, token: str, option: str, version: int, match: int | None = None) -> None:
        seat = self.seat_for(token)
        if self.match is None:
            raise Refusal("not_started", f"room {self.code} has not started yet", 409)
        self.same_match(match)
        self.apply(seat.seat, option, version, "player")

    def same_match(self, match: int | None, what: str = "that choice was made in") -> None:
        """A command that names its match (``match``, optional) is for that match only: after a rematch
        the versions start again at 0, so an old match's command could fit the new one."""
        if match is not None and match != self.match_id:
            raise Refusal("stale_version", f"{what} match {str(match)[:20]}; room {self.code} plays match "
                                           f"{self.match_id} now", 409)

    def apply(self, seat: int, option: str, version: int, source: str) -> None:
        """Check, apply, store, tell everyone. Raises :class:`Refusal`; nothing changes then."""
        match = self.match
        assert match is not None and self.match_id is not None
        try:
            match.check(seat, option, version)
        except Refused as refused:
            raise Refusal(refused.code, refused.message, 409) from None
        # The log is keyed by the match's own version (the choice's index), not by the
        # version the client saw: answers to one open window may carry the same one.
        at = match.version
        try:
            match.choose(seat, option, version)
        except Exception as exc:  # noqa: BLE001 - a bug in a game's rules: refuse, keep nothing
            self._rules_failed(at, seat, option, exc)
        try:
            self.store.append_choice(self.match_id, ChoiceRecord(at, seat, option, source, now_iso()))
        except Conflict as exc:
            self.match = rewound(match, at)
            raise Refusal("stale_version", str(exc), 409) from exc
        except Fenced as exc:  # another node owns the room now: it goes on from the stored log
            self.match = rewound(match, at)
            raise self.moved(exc) from exc
        except StoreError as exc:
            self.match = rewound(match, at)
            log.error("room %s: could not store a move: %s", self.code, exc)
            raise Refusal("storage", f"your move could not be stored, so it was not applied ({exc})", 503) from exc
        if match.over:
            self._finish()
        self.after_change()
        decision = match.decision
        if decision is not None and decision.secret and decision.opened_at < match.version and not match.over:
            # An answer in a secret decision that stays open changes no view but the answerer's (and,
            # in a joint choice, the partners'): the others are not told that anyone answered.
            self.broadcast_views(only={seat, *decision.partners} if seat in decision.partners else {seat})
        else:
            self.broadcast_views()

    def _rules_failed(self, at: int, seat: int, option: str, exc: Exception) -> None:
        """The rules raised while applying a checked choice: put the match back, report, refuse."""
        assert self.match is not None
        self.match = rewound(self.match, at)
        phase = self.match.phase.name
        name = self.match.names[seat] if 0 <= seat < len(self.match.names) else seat
        problem = (f"room {self.code}: the rules of {self.game.id} failed in phase {phase!r} on {name}'s choice "
                   f"{option!r} at version {at} ({type(exc).__name__}: {str(exc)[:200]}); the choice was refused, "
                   "not stored, and the match is as it was")
        log.error(problem, exc_info=(type(exc), exc, exc.__traceback__))
        self.lobby.report(problem)
        raise Refusal("internal", f"the rules of {self.game.title} failed in phase {phase!r} on {option!r} "
                                  f"({type(exc).__name__}); the choice was not kept and the match is as it was. "
                                  "The maintainers have been told.", 500) from None

    def _finish(self) -> None:
        """The match is over: its result and the room's new status are one stored change."""
        assert self.match is not None and self.match_id is not None
        self.timer.cancel()
        status = "finished" if self.rematch_needed() else "closed"  # nobody left to ask for a rematch
        room = self.record()
        room.status = status
        try:
            self.store.finish_match(self.match_id, list(self.match.winners), now_iso(), room)
        except Fenced as exc:  # another node took the room: it finishes the match from the log
            self.moved(exc)
            return
        except StoreError as exc:  # the log is complete: recovery will finish it
            log.error("room %s: could not mark match %s finished: %s", self.code, self.match_id, exc)
        self.status = status
        self.broadcast_room()
        if status == "closed":
            self.lobby.forget(self)

    def moved(self, why: Exception) -> Refusal:
        """Another node owns this room now (the store refused our fencing token): let go of it here.

        Its connections are closed so that the clients reconnect and reach the new owner.
        """
        log.warning("room %s: %s; handing it over", self.code, why)
        self.lobby.let_go(self)
        return Refusal("moved", f"room {self.code} moved to another server; reconnect", 503)

    def close(self) -> None:
        before = self.record()
        self.status = "closed"
        try:
            self.save(before)
        except Refusal as refusal:
            log.error("room %s: %s", self.code, refusal.message)
            return
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
        except Fenced as exc:
            raise self.moved(exc) from exc
        except StoreError as exc:
            raise Refusal("storage", f"your message could not be stored ({exc})", 503) from exc
        if self.recent_chat is not None:
            self.recent_chat.append(record)
        message = {"type": "chat", "from": record.name, "seat": record.seat, "text": record.text, "at": record.at}
        for sink in self._all_sinks():
            sink.send(message)

    def rematch(self, token: str, match: int | None = None, sink: Sink | None = None) -> None:
        seat = self.seat_for(token)
        if self.match is None or not self.match.over:
            raise Refusal("not_over", "a rematch can be voted only after game over", 409)
        self.same_match(match, "that vote is for a rematch of")
        if seat.seat in self.votes:  # nothing changed: only the voter is shown the room (everyone was, each time)
            if sink is not None:
                sink.send({"type": "room", **self.public()})
            return
        before = self.record()
        self.votes.add(seat.seat)
        if self._rematch_due():  # the last vote and the new match are one stored change
            try:
                started = self._store_new_match()
            except Refusal:
                self._restore(before)
                raise
            self._begin(*started)
            return
        self.save(before)
        self.broadcast_room()

    # -- timers and bots -----------------------------------------------------------
    def after_change(self) -> bool:
        """Restart the timer if a new decision opened; schedule bot and absent-seat moves.

        Returns True if the timer started, restarted or stopped: views carry the
        timer, so a caller that sends no views otherwise must send them then.
        """
        before = self.timer.current
        match = self.match
        if match is None or match.over or self.status != "playing":
            self.timer.cancel()
        else:
            self.timer.refresh()
            self.autoplay.schedule()
        return self.timer.current is not before
