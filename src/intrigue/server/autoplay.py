"""Moves made for a seat by the server: a bot's, or the default for a player who left.

Each pending bot (or left) seat gets one ticket ``(match id, decision number,
seat)``; it fires after ``bot_delay`` and re-checks that the decision is still
open. Searching bots think in worker threads (two at a time) so one strong bot
never freezes every other game on the event loop.

In a secret decision the moment a bot answers must not tell whether it acts (a
bot with only the acknowledgement would answer at once, a searching bot that
acts a little later): every bot answer is held until ``secret_pace`` seconds
after the decision opened, so they land together whatever the bots do.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Callable

from .. import bots as bot_registry
from ..engine.timing import timeout_choice
from .protocol import Refusal

if TYPE_CHECKING:  # pragma: no cover
    from .room import Room

log = logging.getLogger("intrigue.server")

#: Where bots other than the random one think (two at a time, so live games keep the event loop).
BOT_THREADS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="intrigue-bot")
#: Where bots that wait on the network (``llm``) wait: apart, so a slow endpoint never holds up the search bots.
NETWORK_THREADS = ThreadPoolExecutor(max_workers=16, thread_name_prefix="intrigue-net-bot")

Ticket = tuple[int, int, int]  # (match id, decision number, seat)
#: Searching bots' moves thinking at once in BOT_THREADS (its workers: more would only wait there, first come
#: first served, where :class:`Turns` lets the addresses that created the rooms take turns).
THINKING_AT_ONCE = 2


class Turns:
    """The searching bots' moves of one server, run in :data:`BOT_THREADS` at most ``THINKING_AT_ONCE`` at
    a time, the addresses that created their rooms (``Room.creator``) taking turns: one move of each
    address that has one waiting, in the order they came, then again. First come, first served, one
    address's rooms of ``ismcts:strong`` bots (20 an hour, up to 15 bots each) queued a move for every
    table: another room's bot waited behind all of them (a two-seat table's bot answered in 18 s, not 2, beside 8 such rooms)."""

    def __init__(self) -> None:
        self.running = 0
        #: address -> its moves waiting, oldest first; the dict's order is the order of turns.
        self.lanes: dict[str, deque[tuple[Callable[[], str], asyncio.Future[str]]]] = {}

    def submit(self, lane: str, work: Callable[[], str]) -> "asyncio.Future[str]":
        """``work()``'s result, once it has had its turn in a bot thread."""
        future: asyncio.Future[str] = asyncio.get_event_loop().create_future()
        self.lanes.setdefault(lane, deque()).append((work, future))
        self._next()
        return future

    def _next(self) -> None:
        while self.running < THINKING_AT_ONCE and self.lanes:
            lane = next(iter(self.lanes))
            waiting = self.lanes.pop(lane)
            work, future = waiting.popleft()
            if waiting:
                self.lanes[lane] = waiting  # to the back of the line
            self.running += 1
            thought = asyncio.get_event_loop().run_in_executor(BOT_THREADS, work)
            thought.add_done_callback(lambda done, future=future: self._done(future, done))

    def _done(self, future: "asyncio.Future[str]", done: "asyncio.Future[str]") -> None:
        self.running -= 1
        if not future.done():
            if done.cancelled():
                future.cancel()
            elif done.exception() is not None:
                future.set_exception(done.exception())  # type: ignore[arg-type]
            else:
                future.set_result(done.result())
        self._next()


class Autoplay:
    """Schedules and makes the moves of one room's bot and left seats."""

    def __init__(self, room: "Room"):
        self.room = room
        self.bots: dict[int, bot_registry.Bot] = {}
        self.scheduled: set[Ticket] = set()
        self.opened: tuple[int, int, float] = (-1, -1, 0.0)  # (match id, decision number, loop time it opened)

    def seat_bots(self, seed: int | str) -> None:
        """A fresh bot for every bot seat of a new match."""
        self.bots = {s.seat: bot_registry.make(s.bot, seed=f"{seed}:{s.seat}") for s in self.room.seats if s.bot}

    def schedule(self) -> None:
        """One ticket per pending bot or left seat of the open decision."""
        room, match = self.room, self.room.match
        assert match is not None
        key = match.decisions
        loop = asyncio.get_event_loop()
        if self.opened[:2] != (room.match_id or 0, key):
            self.opened = (room.match_id or 0, key, loop.time())
        for seat in match.pending:
            s = room.seats[seat]
            if s.bot or s.left:
                ticket = (room.match_id or 0, key, seat)
                if ticket not in self.scheduled:
                    self.scheduled.add(ticket)
                    loop.call_later(room.lobby.settings.bot_delay, self.move, ticket)

    def move(self, ticket: Ticket, thought: "asyncio.Future[str] | None" = None) -> None:
        room = self.room
        match_id, key, seat = ticket
        self.scheduled.discard(ticket)
        match = room.match
        if match is None or match.over or room.match_id != match_id or match.decisions != key:
            return
        if seat not in match.pending:
            return
        options = match.legal(seat)
        s = room.seats[seat]
        source = "left"
        option = None
        if s.bot and not s.left:
            source = "bot"
            bot = self.bots[seat]
            try:
                if thought is not None:
                    option = thought.result()
                else:
                    view = bot_registry.SeatView(room.game, seat, match.observe(seat), tuple(options))
                    if type(bot) is not bot_registry.Bot:  # a searching bot thinks off the loop that runs every game
                        self.scheduled.add(ticket)
                        if getattr(bot, "waits_on_network", False):
                            future = asyncio.get_event_loop().run_in_executor(NETWORK_THREADS, bot.choose, view)
                        else:  # the bot threads, in turns between the addresses that created the rooms
                            future = room.lobby.thinking.submit(room.creator or room.code,
                                                                functools.partial(bot.choose, view))
                        future.add_done_callback(lambda done: self.move(ticket, done))
                        return
                    option = bot.choose(view)
            except Exception:  # noqa: BLE001 - a bot bug must not stall the game
                log.exception("room %s: bot %s failed; using the timeout default", room.code, s.bot)
        if option not in options:
            option = timeout_choice(match, seat, options)
        if match.decision is not None and match.decision.secret:
            loop = asyncio.get_event_loop()
            due = (self.opened[2] if self.opened[:2] == (match_id, key) else loop.time()) \
                + room.lobby.settings.secret_pace
            if loop.time() < due:  # held, so that its timing tells nothing
                self.scheduled.add(ticket)
                loop.call_later(due - loop.time(), self.land, ticket, option, source)
                return
        self.land(ticket, option, source, held=False)

    def land(self, ticket: Ticket, option: str, source: str, held: bool = True) -> None:
        """Apply a bot's (or left seat's) answer, if its decision is still open."""
        room = self.room
        match_id, key, seat = ticket
        if held:
            self.scheduled.discard(ticket)
        match = room.match
        if match is None or match.over or room.match_id != match_id or match.decisions != key \
                or seat not in match.pending:
            return
        try:
            room.apply(seat, option, match.version, source)
        except Refusal as refusal:
            log.error("room %s: %s move refused: %s", room.code, source, refusal.message)
            if refusal.code == "storage":  # retry, or the decision would wait for ever once writes work again
                self.scheduled.add(ticket)
                asyncio.get_event_loop().call_later(max(1.0, room.lobby.settings.bot_delay), self.move, ticket)
