"""The coach at a table: hints in practice rooms, and the rooms of a guided first game.

**Practice room.** For a seat, a room is a practice room when its match is being
played and every *other* seat is a bot (``seat.bot`` set): no other person sits
at the table, not even one who has left. Only there does the coach answer a
``hint``: with another person at the table a hint would be a cheating aid.
Spectators have no seat and get no hints.

**A hint** is the search bot's suggestion (``bots/coach.py``) from the seat's own
observation and options, never the match. It is checked like a choice (the token,
the match, the seat pending, the version of the open decision), limited per seat
(``hint_rate``/``hint_burst``, one at a time), computed in the bots' worker
threads (``autoplay.BOT_THREADS``) so the event loop never waits for it, and
sent only to the connection that asked, if the same decision is still open
then and that connection still holds the seat in this room. Every refusal is an
``error`` with ``"about": "hint"``. The server knows no game here: the reasons
come from the game's own catalogue, if it has one.

**Tutorial rooms** (``POST /api/games/{game}/tutorial``): a private room of the
game's ``tutorial.json`` with its timers off, one person and ``tutorial`` bots,
started at once with the tutorial's seed as its first deal (rematches deal at
random as usual). It is a practice room like any other.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from .. import bots as bot_registry
from .. import games as game_registry
from ..bots import coach as coaching
from ..engine.errors import Refused
from ..games import tutorials
from .autoplay import BOT_THREADS
from .protocol import Bucket, Refusal

if TYPE_CHECKING:  # pragma: no cover
    from .lobby import Lobby
    from .room import Room
    from .seats import Sink

log = logging.getLogger("intrigue.server")


class _Seats:
    """Per room: each seat's hint bucket and the seats whose hint is being computed."""

    def __init__(self) -> None:
        self.buckets: dict[int, Bucket] = {}
        self.busy: set[int] = set()


_rooms: "WeakKeyDictionary[Room, _Seats]" = WeakKeyDictionary()

#: Hints being computed, in every room of the process. They share the searching bots' threads: without a
#: bound, one address's practice rooms (20 an hour) kept those threads busy and every searching bot of the
#: server waited seconds for each move behind their hints.
HINTS_AT_ONCE = 2
_thinking = [0]


def practice(room: "Room", seat: int) -> bool:
    """Whether ``seat`` plays alone against bots in ``room`` (see the module docstring)."""
    return room.match is not None and room.status == "playing" and \
        all(s.bot is not None for s in room.seats if s.seat != seat)


def ask(room: "Room", sink: "Sink", token: str, version: int, match_id: int | None = None) -> None:
    """Handle a ``hint`` command: refuse at once, or answer later from a worker thread."""
    try:
        _ask(room, sink, token, version, match_id)
    except Refusal as refusal:
        sink.send({**refusal.message_json(), "about": "hint"})


def _ask(room: "Room", sink: "Sink", token: str, version: int, match_id: int | None) -> None:
    seat = room.seat_for(token)
    match = room.match
    if match is None:
        raise Refusal("not_started", f"room {room.code} has not started yet", 409)
    if match.over:
        raise Refusal("over", "the match is over", 409)
    if not practice(room, seat.seat):
        raise Refusal("not_practice", "hints are given only in a practice room, where every other seat is a bot", 403)
    room.same_match(match_id, "that hint is asked in")
    options = match.legal(seat.seat)
    try:  # the same checks, in the same order, as a choice made from this view
        match.check(seat.seat, options[0] if options else "", version)
    except Refused as refused:
        raise Refusal(refused.code, refused.message, 409) from None
    state = _rooms.setdefault(room, _Seats())
    if seat.seat in state.busy:
        raise Refusal("rate_limited", "the coach is still thinking about your last hint", 429)
    if _thinking[0] >= HINTS_AT_ONCE:
        raise Refusal("rate_limited", "the coach is busy with other tables' hints; ask again in a moment", 429)
    settings = room.lobby.settings
    bucket = state.buckets.setdefault(seat.seat, Bucket(settings.hint_rate, settings.hint_burst))
    if not bucket.take():
        raise Refusal("rate_limited", "too many hints: wait a few seconds", 429)
    view = bot_registry.SeatView(room.game, seat.seat, match.observe(seat.seat), tuple(options))
    ticket = (room.match_id, match.decisions, seat.seat, view.observation["version"])  # as the seat knows it
    seed, budget = f"{room.match_id}:{match.version}:{seat.seat}", settings.hint_milliseconds
    state.busy.add(seat.seat)
    _thinking[0] += 1
    future = asyncio.get_event_loop().run_in_executor(
        BOT_THREADS, lambda: coaching.hint(view, milliseconds=budget, seed=seed))
    future.add_done_callback(lambda done: _deliver(room, sink, ticket, state, done))


def _deliver(room: "Room", sink: "Sink", ticket: tuple[Any, int, int, int], state: _Seats,
             done: "asyncio.Future[coaching.Hint]") -> None:
    match_id, decisions, seat, version = ticket
    state.busy.discard(seat)
    _thinking[0] -= 1
    try:
        found = done.result()
    except Exception:  # noqa: BLE001 - a bug in the search must not take the room down
        log.exception("room %s: the coach failed", room.code)
        found = None
    if not any(sink in held.sinks for held in room.seats if held.seat == seat):
        # The connection no longer holds the seat here: it said hello to another room (a hint names no room:
        # it read as advice for that table) or the seat left (it watches now, and spectators get no hints).
        return
    if found is None:
        sink.send({"type": "error", "code": "internal", "message": "the coach could not think of a hint",
                   "about": "hint"})
        return
    match = room.match
    if match is None or room.match_id != match_id or match.decisions != decisions or \
            found.option not in match.legal(seat):
        sink.send({"type": "error", "code": "stale_version", "about": "hint",
                   "message": "the decision closed while the coach was thinking"})
        return
    sink.send({"type": "hint", "version": version, "option": found.option, "reason": found.reason.json()})


def open_tutorial(lobby: "Lobby", client: str, game_id: str, name: str) -> tuple["Room", str]:
    """A started tutorial room of ``game_id`` for the person ``name``; their seat's token."""
    if game_id not in game_registry.installed():
        raise Refusal("no_game", f"no installed game {game_id[:40]!r}", 404)
    try:
        script = tutorials.tutorial(game_registry.get(game_id))
    except ValueError as exc:
        log.error("the tutorial of %s does not load: %s", game_id, exc)
        raise Refusal("no_tutorial", f"the tutorial of {game_id!r} is broken; the maintainers have been told",
                      404) from None
    if script is None:
        raise Refusal("no_tutorial", f"{game_id!r} has no guided first game", 404)
    room, token = lobby.create(client, game_id, name, script.seats, [{"kind": "tutorial"}] * (script.seats - 1),
                               {"turn_timer": None, "window_timer": None}, private=True, tutorial=True)
    room.next_seed = script.seed
    room.start(token)
    return room, token
