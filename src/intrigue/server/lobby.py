"""The lobby: every room of one server, their creation (codes, options, quotas) and idle sweep."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any, Callable, Protocol

from .. import bots as bot_registry
from .. import games as game_registry
from ..engine import Game
from ..store import RoomRecord, SeatRecord, Store
from .autoplay import Turns
from .protocol import Refusal, clean_name, encode, name_keys
from .room import Room
from .seats import Seat, token_hash
from .settings import TIMER_OPTIONS, TIMER_RANGE, Settings, now_iso

#: How a refusal names the type of a game option's value ("must be a int" read badly).
OPTION_KINDS = {bool: "true or false", int: "a whole number", float: "a number", str: "a string"}


class ClusterHooks(Protocol):
    """What a lobby asks of its cluster node (:mod:`.node`); a single server has none."""

    def created(self, client: str) -> int: ...
    def record_creation(self, client: str, code: str) -> None: ...
    def held_seats(self, client: str) -> int: ...
    def reserve_code(self, code: str) -> bool: ...
    def claim_new(self, code: str) -> Store: ...
    def listing(self) -> list[dict[str, Any]]: ...
    def room_changed(self, room: Room) -> None: ...
    def room_closed(self, room: Room) -> None: ...


CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 4


class Lobby:
    """All rooms of one server, their creation and their recovery from the store."""

    def __init__(self, store: Store, settings: Settings | None = None):
        self.store = store
        self.settings = settings or Settings()
        self.rooms: dict[str, Room] = {}
        self._created: dict[str, list[float]] = {}
        self.problems: list[str] = []
        #: In a cluster, the node: shared listing, codes and quotas, and who owns which room.
        self.cluster: ClusterHooks | None = None
        #: The searching bots' moves of every room, taking turns in the bot threads by the rooms' creators.
        self.thinking = Turns()
        #: ``GET /api/rooms``'s body as last built, until a room changes (:meth:`changed`).
        self._listing: str | None = None

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
        if self.cluster is not None:
            held = self.cluster.held_seats(client)
        else:
            held = sum(1 for r in self.rooms.values() if r.status == "waiting"
                       for s in r.seats if s.taken and s.address == client)
        if held >= self.settings.seats_per_address:
            raise Refusal("quota", f"you hold {held} seats in rooms that have not started "
                                   f"(limit {self.settings.seats_per_address}); leave one first", 429)
        seat, token = room.add_player(name, address=client)
        return room, seat, token

    def report(self, problem: str) -> None:
        """Keep a problem for the operator (``problems`` holds the newest 100; each is logged too)."""
        self.problems.append(problem)
        del self.problems[:-100]

    def changed(self) -> None:
        """A room changed what ``GET /api/rooms`` shows of it (or opened, or closed)."""
        self._listing = None

    def listing(self) -> str:
        """``GET /api/rooms``'s body: built once per change, not once per request (with a thousand rooms
        open, each took 30 ms of the event loop, and every lobby page asks every 5 seconds)."""
        if self.cluster is not None:
            return encode(self.open_rooms())
        if self._listing is None:
            self._listing = encode(self.open_rooms())
        return self._listing

    def forget(self, room: Room) -> None:
        self.rooms.pop(room.code, None)
        self.changed()
        if self.cluster is not None:
            self.cluster.room_closed(room)

    def let_go(self, room: Room) -> None:
        """Another node owns ``room`` now: stop its timers and bots here and close its connections."""
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            self.changed()
        room.timer.cancel()
        room.match, room.status = None, "moved"
        for sink in room._all_sinks():
            close = getattr(sink, "close", None)
            if close is not None:
                close(1012, "the room moved to another server: reconnect")

    def open_rooms(self) -> list[dict[str, Any]]:
        order = {"waiting": 0, "playing": 1, "finished": 2}
        if self.cluster is not None:
            listed = [r for r in self.cluster.listing() if not r["private"] and r["status"] in order]
            listed.sort(key=lambda r: (order[r["status"]], r["created"]))
            return listed
        rooms = [r for r in self.rooms.values() if not r.private and r.status in order]
        rooms.sort(key=lambda r: (order[r.status], r.created))
        return [r.public() for r in rooms]

    def create(self, client: str, game_id: str, name: str, seats: int, bots: list[dict[str, Any]],
               options: dict[str, Any], private: bool, clock: Callable[[], float] | None = None,
               tutorial: bool = False) -> tuple[Room, str]:
        """A new room, its creator at seat 0 (``tutorial``: a tutorial room, the only one that seats
        ``tutorial`` bots)."""
        loop_time = (clock or asyncio.get_event_loop().time)()
        recent = [t for t in self._created.get(client, []) if loop_time - t < 3600]
        created = self.cluster.created(client) if self.cluster is not None else len(recent)
        if created >= self.settings.room_quota:
            raise Refusal("quota", f"you have created {created} room{'' if created == 1 else 's'} in the last hour "
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
            if bot["kind"] not in bot_registry.REGISTRY:  # as written: "ismcts:600000ms" smuggled its budget past
                known = ", ".join(k["kind"] for k in bot_registry.kinds())  # the personality's check below
                raise Refusal("bad_message", f"unknown bot kind {bot['kind'][:40]!r} (known: {known}); a "
                                             "personality goes in the field 'personality'")
            spec = bot["kind"] + (f":{bot['personality']}" if bot.get("personality") else "")
            try:
                bot_registry.check(spec, game.id)  # a kind made for another game (heuristic: Coup) is refused
            except ValueError as exc:
                raise Refusal("bad_message", str(exc)) from None
            if bot["kind"] == "tutorial" and not tutorial:
                raise Refusal("bad_message", "tutorial bots sit only in a tutorial room "
                                             f"(POST /api/games/{game.id}/tutorial)")
            listed = next((k["personalities"] for k in bot_registry.kinds() if k["kind"] == bot["kind"]), [])
            if bot.get("personality") and bot["personality"] not in listed:
                # custom budgets (ismcts:<N>ms) are for the CLI: a room's bots think on the server's CPU
                raise Refusal("bad_message", f"bot {bot['kind']!r} in a room takes one of the listed personalities "
                                             f"({', '.join(listed) or 'none'}), not {bot['personality'][:40]!r}")
            labels.append(spec)
        room_options = self._options(game, options, private, seats)
        host_name = clean_name(name)
        code = self._new_code()
        record = RoomRecord(code, game.id, 0, private, room_options, "waiting", now_iso(), client)
        record.seats = [SeatRecord(i) for i in range(seats)]
        # a bot is not given the host's name, nor one that draws like it (the host would be "Aria 2")
        host_keys = name_keys(host_name)
        bot_names = [n for n in bot_registry.names(len(labels) + 1, {host_name}) if not name_keys(n) & host_keys]
        for index, (spec, bot_name) in enumerate(zip(labels, bot_names)):
            record.seats[seats - len(labels) + index] = SeatRecord(seats - len(labels) + index, bot_name, spec)
        room = Room(self, record)
        token = secrets.token_urlsafe(32)
        room.seats[0].name, room.seats[0].token_hash = room.distinct_name(host_name), token_hash(token)
        if self.cluster is not None:
            room.fenced = self.cluster.claim_new(code)  # this node owns the room it creates
        room.save()
        self.rooms[code] = room
        self.changed()
        self._created[client] = recent + [loop_time]
        if self.cluster is not None:
            self.cluster.record_creation(client, code)
            self.cluster.room_changed(room)
        return room, token

    def _options(self, game: Game, options: dict[str, Any], private: bool, seats: int) -> dict[str, Any]:
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
                    kind = OPTION_KINDS.get(type(default), type(default).__name__)
                    raise Refusal("bad_message", f"option {key} must be {kind}")
            else:
                known = ", ".join(dict.fromkeys([*TIMER_OPTIONS, *game.binding.options]))  # (the game lists the timers too)
                raise Refusal("bad_message", f"unknown option {str(key)[:40]!r} for {game.id} (known: {known})")
            result[key] = value
        check = game.binding.option_check
        problems = check({k: v for k, v in result.items() if k not in TIMER_OPTIONS}, seats) if check else []
        if problems:
            raise Refusal("bad_message", "; ".join(problems)[:300])
        return result

    def _new_code(self) -> str:
        if self.cluster is not None:
            for _ in range(1000):
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
                if self.cluster.reserve_code(code):
                    return code
            raise Refusal("quota", "no free room code; try again later", 503)
        for _ in range(1000):  # each code looked up alone: reading every code ever stored took 0.2 s at 200,000
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms and self.store.load_room(code) is None:
                return code
        raise Refusal("quota", "no free room code; try again later", 503)

    # -- recovery --------------------------------------------------------------------
    def recover(self) -> list[str]:
        """Reload every open room and re-execute its match's log. Returns what was restored."""
        from .recovery import recover  # noqa: PLC0415 - recovery builds rooms for this lobby
        return recover(self)

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
