"""The one timer a room runs for its open decision.

Which timer a decision gets and what expiry chooses is the engine's policy
(:mod:`intrigue.engine.timing`); this module keeps the time. The timer restarts
whenever a new decision opens and is a ``loop.call_later`` callback that
re-checks the decision before acting, so a late callback does nothing. A DSL
``timer`` phase runs its own seconds (kind ``phase``, even with the table's
timers off); when they run out the clock's move is stored and applied like a
player's. With timers off (``null``, private rooms only), a pending seat whose
player is disconnected is decided after ``disconnect_grace`` seconds, so nobody
can stall a game by leaving (in a secret decision, any disconnected seat of its
cover starts that grace, so it tells nothing of who has answered, and once it has run
out for a seat that seat starts no other in that decision: ``graced``; in a timer
phase, a second clock presses a disconnected player's early-end choice for
them). Every start, restart and end of a timer reaches every connection of the
room in a ``view`` (the room sends views whenever ``Room.after_change`` reports
that the timer changed), grace timers included. After a restart a recovered
timer runs on from when its decision or phase opened (leaving at least
``RECOVERY_GRACE`` seconds). A timer phase with a ``clock`` runs what that clock
has left: the seconds each of its phases ran are added up in ``spent`` (after a
restart, from the stored choices' times: :func:`.matches.clock_spent`). The
recent choices the timer made (``timeouts``, which the browser marks "(time ran
out)") are stored with the source ``timeout``: after a restart they are rebuilt
from the log (:func:`stored_timeouts`), each told to the same seats as before.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine import Game, Match
from ..engine.match import CLOCK, TIME_UP
from ..engine.observe import shown_version
from ..engine.timing import TIMER_OPTIONS, apparent_pending, timeout_choice, timer_for
from ..engine.timing import Timer as EngineTimer
from ..store import ChoiceRecord, MatchRecord
from .protocol import Refusal
from .settings import RECOVERY_GRACE

if TYPE_CHECKING:  # pragma: no cover
    from .room import Room

log = logging.getLogger("intrigue.server")

#: How many of the match's recent timeouts a view lists.
RECENT_TIMEOUTS = 20


def told_to_all(match: Match) -> bool:
    """Whether a timeout in the open decision may be told to everyone: only when everyone could see
    who was deciding. Never in a secret decision (even when nobody had answered and the seats waiting
    are all it covers, the list would tell that nobody answered in time)."""
    secret = match.decision is not None and match.decision.secret
    return not secret and match.observe(None)["waiting"] == [match.names[s] for s in match.pending]


def timeout_entry(match: Match, seat: int, public: bool) -> dict[str, Any]:
    """One choice the timer is about to make for ``seat``, as ``DecisionTimer.timeouts`` keeps it: at the
    version as the seat knows it (``shown_version``: in a secret decision the match's own counted the
    answers given before, and a seat that timed out at version 2 of a night opened at 0 knew that two
    of the others had answered in time)."""
    return {"version": shown_version(match, seat), "seat": seat, "player": match.names[seat], "public": public}


def stored_timeouts(record: MatchRecord, choices: list[ChoiceRecord], game: Game) -> list[dict[str, Any]]:
    """The recent timeouts of a stored match, rebuilt from its log: the choices stored with the source
    ``timeout``, each told to the seats it was told to live (:func:`told_to_all`, judged when its expiry
    began). Only a match with such a choice is replayed for it."""
    if not any(choice.source == "timeout" for choice in choices):
        return []
    match = Match(game, record.players, record.seed, record.options)
    timeouts: list[dict[str, Any]] = []
    public, run = False, None  # one expiry's timeouts are stored one after the other, in one decision
    for choice in choices:
        if choice.source == "timeout":
            if run != match.decisions:
                public, run = told_to_all(match), match.decisions
            timeouts.append(timeout_entry(match, choice.seat, public))
        else:
            run = None
        match.choose(choice.seat, choice.option, choice.version)
    return timeouts[-RECENT_TIMEOUTS:]


@dataclass
class Timer:
    key: int          # match.decisions when it started
    mode: str         # "turn" | "window" | "phase" | "grace"
    seconds: float
    deadline: float   # loop time
    handle: asyncio.TimerHandle | None = None
    clock_key: str | None = None  # a timer phase's shared clock
    started: float = 0.0          # loop time


class DecisionTimer:
    """Starts, restarts and fires the timer of one room's open decision."""

    def __init__(self, room: "Room"):
        self.room = room
        self.current: Timer | None = None
        #: In a timer phase, a second clock: the grace of a disconnected player who may end it early.
        self.grace: Timer | None = None
        #: After a restart: (decision number, wall-clock time it opened), so that the
        #: recovered decision's timer runs on from where it was, not from the start.
        self.recovered: tuple[int, float] | None = None
        #: The match's recent choices the timer made: {version, seat, player, public} (see Room.view_message).
        self.timeouts: list[dict[str, Any]] = []
        #: The seconds each shared clock (a timer phase's ``clock``) ran in the match's closed timer phases.
        self.spent: dict[str, float] = {}
        #: (decision number, seats): the disconnected seats whose grace ran out in that decision and that have
        #: no choice left in it. They start no other grace there: a secret decision's cover seat that had
        #: answered started one grace after another, each shown to everyone, each pressing nothing.
        self.graced: tuple[int, frozenset[int]] = (-1, frozenset())

    def json(self) -> dict[str, Any] | None:
        match = self.room.match
        if self.current is None or match is None or match.over:
            return None
        loop = asyncio.get_event_loop()
        return {"seconds_left": round(max(0.0, self.current.deadline - loop.time()), 1),
                "seconds": self.current.seconds, "kind": self.current.mode}

    def wanted(self) -> EngineTimer | None:
        """The timer the open decision should run, or None."""
        room, match = self.room, self.room.match
        assert match is not None and match.decision is not None
        timer = timer_for(match, {key: room.options.get(key) for key in TIMER_OPTIONS}, self.spent)
        if timer is not None:
            return timer
        absent = [s for s in apparent_pending(match.decision) if room.seats[s].human and not room.seats[s].connected]
        if self.graced[0] == match.decisions:
            absent = [s for s in absent if s not in self.graced[1]]
        if absent:
            return EngineTimer("grace", room.lobby.settings.disconnect_grace)
        return None

    def refresh(self) -> None:
        """Start the timer the open decision needs, unless it already runs."""
        match = self.room.match
        assert match is not None
        decision = match.decision
        wanted = self.wanted() if decision is not None and not decision.complete else None
        self.refresh_grace()
        if wanted is None:
            self.cancel()
            return
        mode, seconds = wanted.kind, wanted.seconds
        if self.current and self.current.key == match.decisions and self.current.mode == mode:
            return
        self.cancel()
        loop = asyncio.get_event_loop()
        left = seconds
        if self.recovered and self.recovered[0] == match.decisions and mode != "grace":
            left = max(RECOVERY_GRACE, seconds - (time.time() - self.recovered[1]))
        self.recovered = None
        now = loop.time()
        # a shared clock shows its full length, counting down from what it has left
        self.current = Timer(match.decisions, mode, wanted.length or seconds, now + left,
                             clock_key=wanted.clock_key, started=now - (seconds - left))
        self.current.handle = loop.call_later(left, self.expire, self.current)

    def cancel(self) -> None:
        if self.current and self.current.handle:
            self.current.handle.cancel()
        self.spend(self.current)
        self.current = None

    def spend(self, timer: Timer | None) -> None:
        """A timer phase's timer has ended: the seconds it ran count against its shared clock."""
        if timer is None or timer.clock_key is None:
            return
        ran = min(asyncio.get_event_loop().time(), timer.deadline) - timer.started
        self.spent[timer.clock_key] = self.spent.get(timer.clock_key, 0.0) + max(0.0, ran)

    def refresh_grace(self) -> None:
        """A timer phase runs its own clock, but a disconnected player who may end it early must not
        hold the early end: after ``disconnect_grace`` their default (``Ready``) is chosen for them."""
        room, match = self.room, self.room.match
        decision = match.decision if match is not None else None
        absent = []
        if decision is not None and decision.clock is not None and not decision.complete:
            absent = [s for s in apparent_pending(decision) if room.seats[s].human and not room.seats[s].connected]
        if not absent:
            if self.grace and self.grace.handle:
                self.grace.handle.cancel()
            self.grace = None
            return
        if self.grace and self.grace.key == match.decisions:
            return
        loop = asyncio.get_event_loop()
        seconds = room.lobby.settings.disconnect_grace
        self.grace = Timer(match.decisions, "grace", seconds, loop.time() + seconds)
        self.grace.handle = loop.call_later(seconds, self.expire_grace, self.grace)

    def expire_grace(self, timer: Timer) -> None:
        room, match = self.room, self.room.match
        if timer is not self.grace or match is None or match.over or match.decisions != timer.key:
            return
        self.grace = None
        public = told_to_all(match)
        for seat in list(match.pending):
            match = room.match
            if match is None or match.over or match.decisions != timer.key or seat not in match.pending:
                break
            if room.seats[seat].connected:
                continue
            self.timeouts = self.timeouts[-(RECENT_TIMEOUTS - 1):] + [timeout_entry(match, seat, public)]
            try:
                room.apply(seat, timeout_choice(match, seat, match.legal(seat)), match.version, "timeout")
            except Refusal as refusal:
                self.timeouts.pop()
                log.error("room %s: grace move refused: %s", room.code, refusal.message)
                break
        if room.match is not None:
            room.after_change()
            room.broadcast_views()

    def expire(self, timer: Timer) -> None:
        """Time is up: every seat still pending gets the game's timeout choice."""
        room, match = self.room, self.room.match
        if timer is not self.current or match is None or match.over or match.decisions != timer.key:
            return
        self.spend(timer)
        self.current = None
        if match.decision is not None and match.decision.clock is not None:  # a timer phase: time is up
            try:
                room.apply(CLOCK, TIME_UP, match.version, "timer")
            except Refusal as refusal:
                log.error("room %s: the clock's move was refused: %s", room.code, refusal.message)
            if self.current is None and room.match is not None:
                room.after_change()
                room.broadcast_views()
            return
        public = told_to_all(match)  # who timed out, told to all only when all could see who was deciding
        for seat in list(match.pending):
            match = room.match  # a refused move puts back a rebuilt match: always read the room's
            if match is None or match.over or match.decisions != timer.key or seat not in match.pending:
                break
            if timer.mode == "grace" and room.seats[seat].connected:
                continue
            self.timeouts = self.timeouts[-(RECENT_TIMEOUTS - 1):] + [timeout_entry(match, seat, public)]
            try:
                room.apply(seat, timeout_choice(match, seat, match.legal(seat)), match.version, "timeout")
            except Refusal as refusal:
                self.timeouts.pop()
                log.error("room %s: timeout move refused: %s", room.code, refusal.message)
                break
        match = room.match
        if timer.mode == "grace" and match is not None and match.decision is not None \
                and match.decisions == timer.key:  # the same decision goes on: its graced seats wait no more
            self.graced = (timer.key, frozenset(
                s for s in apparent_pending(match.decision)
                if not room.seats[s].connected and s not in match.pending))  # (a refused one: again)
        if self.current is None and room.match is not None:  # this timer ended: everyone is told
            room.after_change()
            room.broadcast_views()
