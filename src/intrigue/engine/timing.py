"""What a decision's timer is and what it chooses when it runs out.

The engine has no clock; whoever keeps time (the server's room timer, a
scenario's ``wait:``, :class:`MatchClock`) asks here which timer the open
decision runs and which moves expiry plays, so every clock follows one policy:

- a ``timer`` phase runs its own ``seconds`` (kind ``phase``); when they run out
  the clock itself answers (``choose(CLOCK, TIME_UP)``); a phase with a ``clock``
  runs what its clock has left: whoever keeps time adds up the seconds each
  timer phase of that clock ran (``spent``, by ``TimedDecision.clock_key``), so
  the state never holds a time and a replay of the log is the same match;
- a *window* (a decision that waits for several players, or that a seat may
  decline because ``Pass`` is offered) runs the table's ``window_timer``, any
  other decision its ``turn_timer``; a *secret* decision's kind depends only on
  what the phase declares (its offers would tell who holds what); a game's
  binding may name the timer of a phase instead (``GameBinding.timers``: BANG!'s
  play step offers ``Pass`` to end the turn, and is a turn);
- on expiry every seat still pending gets the game's timeout choice
  (``binding.timeout_choice``; without one, ``Pass`` if offered, else the first
  option), one after another (a closing answer may end the window).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator, Mapping

from .match import CLOCK, TIME_UP

if TYPE_CHECKING:  # pragma: no cover
    from .match import Decision, Match

log = logging.getLogger("intrigue.engine")

#: The timer options of every table, with their defaults (seconds; ``None`` is off).
TIMER_OPTIONS: dict[str, float | None] = {"turn_timer": 30, "window_timer": 15}


def is_window(decision: "Decision") -> bool:
    """Challenge/block/response windows get the short timer."""
    if decision.secret:
        return decision.wait_for != "single_player_choice"
    return decision.wait_for != "single_player_choice" or any("Pass" in options
                                                              for options in decision.offers.values())


def timer_kind(decision: "Decision") -> str:
    """``"phase"``, ``"window"`` or ``"turn"``: which timer this decision runs."""
    if decision.clock is not None:
        return "phase"
    return "window" if is_window(decision) else "turn"


@dataclass(frozen=True)
class Timer:
    """The timer the open decision runs: its kind and the seconds it runs; for a timer phase, its
    clock's full length too (``seconds`` is what the clock has left) and the clock's key."""

    kind: str
    seconds: float
    length: float | None = None
    clock_key: str | None = None


def clock_key(decision: "Decision | None") -> str | None:
    """The clock a timer phase's decision runs on, if it shares one (its ``clock``)."""
    return getattr(decision, "clock_key", None)


def timer_for(match: "Match", options: Mapping[str, Any] | None = None,
              spent: Mapping[str, float] | None = None) -> Timer | None:
    """The timer of the match's open decision under the table's timer ``options`` (missing ones take
    their defaults, ``None`` turns one off); ``None`` when nothing waits for a timer. ``spent``: the
    seconds each shared clock has run in earlier phases."""
    decision = match.decision
    if decision is None or match.over or decision.complete:
        return None
    kind = timer_kind(decision)
    if kind == "phase":
        length = float(decision.clock or 0.0)
        key = clock_key(decision)
        used = (spent or {}).get(key, 0.0) if key is not None else 0.0
        return Timer(kind, max(0.0, length - used), length, key)
    kind = match.game.binding.timers.get(decision.phase_id, kind)
    chosen = dict(TIMER_OPTIONS)
    chosen.update(options or {})
    seconds = chosen.get(f"{kind}_timer")
    return Timer(kind, float(seconds)) if seconds else None


def apparent_pending(decision: "Decision") -> list[int]:
    """The seats the table sees as pending: in a secret decision, its whole cover."""
    if decision.secret and decision.pending:
        return list(decision.cover)
    return decision.pending


def timeout_choice(match: "Match", seat: int, options: list[str]) -> str:
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


def expiry(match: "Match") -> Iterator[tuple[int, str]]:
    """The moves a run-out timer plays, one at a time: apply each before asking for the next (an
    answer may close the decision). A timer phase's is the clock's ``(CLOCK, TIME_UP)``."""
    decision = match.decision
    if decision is None or match.over:
        return
    if decision.clock is not None:
        yield CLOCK, TIME_UP
        return
    key = match.decisions
    for seat in list(decision.pending):
        if match.over or match.decisions != key or seat not in match.pending:
            return
        yield seat, timeout_choice(match, seat, match.legal(seat))


class MatchClock:
    """A match's own clock, for runs without real time (a scenario's ``wait: N``).

    It follows the server exactly: a decision's timer starts when the decision
    opens (answers in a window do not restart it), and when it runs out its
    expiry moves are played; the time left over runs on into the next decision.
    """

    def __init__(self, match: "Match", options: Mapping[str, Any] | None = None):
        self.match = match
        self.options = dict(options or {})
        self.key = match.decisions
        self.clock_key = clock_key(match.decision)
        self.elapsed = 0.0
        #: The seconds each shared clock ran in the timer phases that have closed.
        self.spent: dict[str, float] = {}

    def _sync(self) -> None:
        if self.match.decisions != self.key:
            if self.clock_key is not None:
                self.spent[self.clock_key] = self.spent.get(self.clock_key, 0.0) + self.elapsed
            self.key = self.match.decisions
            self.clock_key = clock_key(self.match.decision)
            self.elapsed = 0.0

    def advance(self, seconds: float) -> list[tuple[int, str]]:
        """Let ``seconds`` pass; returns the moves the timers that ran out played."""
        played: list[tuple[int, str]] = []
        left = float(seconds)
        while True:
            self._sync()
            timer = timer_for(self.match, self.options, self.spent)
            if timer is None:
                return played
            remaining = timer.seconds - self.elapsed
            if left < remaining:
                self.elapsed += left
                return played
            left -= max(remaining, 0.0)
            self.elapsed = max(self.elapsed, timer.seconds)  # the timer ran all it had
            key = self.match.decisions
            for seat, option in expiry(self.match):
                self.match.choose(seat, option)
                played.append((seat, option))
            if self.match.decisions == key and not self.match.over:  # nothing new opened: time runs on
                self.elapsed = timer.seconds
                if timer_for(self.match, self.options, self.spent) == timer:
                    return played
