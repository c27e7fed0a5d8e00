"""Rebuild a headless match at the start of a phase from a complete state.

A game's determinizer (see ``ismcts.py``) samples the hidden part of a state
and needs a live :class:`~intrigue.engine.Match` standing where the observed
one stands. This helper is the one place that knows how: build a fresh match
(so every engine field is initialised as the engine wants), replace its player
and game state, enter the phase and run its tools up to the decision they
open, exactly as the engine would have.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from .game import Game
from .match import Decision, Match


def restart(game: Game, names: list[str], players: list[dict[str, Any]], state: dict[str, Any],
            phase_id: int, seed: int, *, last_decision: Decision | None = None,
            answered: dict[int, str] | None = None, version: int = 0,
            options: dict[str, Any] | None = None) -> Match:
    """A headless match entering ``phase_id`` with ``players`` and ``state``.

    ``last_decision`` is what the phase's early tools read as the previous
    answer (a block window's blocker, say); ``answered`` are answers already
    given in the decision the phase opens (seats that passed in a window);
    ``options`` are the observed match's game options (a variant, say).
    """
    match = Match(game, names, seed, options, headless=True)
    match.players = players
    match.state = state
    match.over = False
    match.winners = []
    match.decision = None
    match.last_decision = last_decision
    match.version = version
    match._enter(phase_id)  # noqa: SLF001 - the engine's own way into a phase
    match._settle()  # noqa: SLF001
    decision = match.decision
    if answered and decision is not None:
        for seat, option in answered.items():
            if seat in decision.offers and seat not in decision.answers:
                decision.answers[seat] = option
        match._settle()  # noqa: SLF001 - a window everyone has answered closes
    return match


class Plans:
    """The reading of the last observation each seat asked about, per thread.

    A search samples one observation hundreds of times and reading it (rebuilding
    the match) is the slow part, so a determinizer reads it once into a *plan*
    and deals from the plan. ``read(game, observation, seat)`` returns the plan
    (with an ``observation`` attribute) or ``None``; an observation it cannot
    read (a missing key, a wrong type) also gives ``None``. Each thread has its
    own plans, so bots searching in parallel for different rooms never evict
    each other's.
    """

    def __init__(self, read: Callable[[Game, dict[str, Any], int], Any]):
        self.read = read
        self._local = threading.local()

    def get(self, game: Game, observation: dict[str, Any], seat: int) -> Any:
        last: dict[tuple[str, int], Any] = self._local.__dict__.setdefault("last", {})
        plan = last.get((game.id, seat))
        if plan is None or plan.observation is not observation:
            try:
                plan = self.read(game, observation, seat)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                plan = None
            if plan is None:
                return None
            last[(game.id, seat)] = plan
        return plan
