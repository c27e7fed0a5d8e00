"""A generic search bot: information-set Monte Carlo tree search (ISMCTS).

Each iteration samples one *determinisation*: a complete headless match that
agrees with everything this seat observes, its hidden information drawn at
random. The game supplies that sampler as ``binding.determinize(game,
observation, seat, rng)`` (Coup's is ``games/coup/determinize.py``); nothing
else about the game is known here. On the sample the bot walks one shared tree
(single-observer ISMCTS: nodes are sequences of (seat, option); a child's
statistics only count the iterations in which it was legal), expands one move,
plays random legal moves to the end and credits each seat that won.

Games without a determinizer (or whose sampler returns ``None``) get a random
legal option: the bot degrades to the baseline rather than searching a match it
may not see. The budget is a number of iterations (reproducible from the seed)
and/or milliseconds (bounded time, machine-dependent).
"""

from __future__ import annotations

import math
import re
import time
from typing import Any

from .base import Bot, SeatView

#: Iterations per decision for the named budgets. ``None`` (the default) is
#: calibrated to stay under 200 ms per Coup decision on one shared core.
DEFAULT_ITERATIONS = 150
#: How many moves a random playout may take before it is scored as a draw.
PLAYOUT_LIMIT = 1_000
#: UCB exploration constant (rewards are 0/1 wins).
EXPLORATION = 0.7


class _Node:
    __slots__ = ("seat", "visits", "wins", "avail", "children")

    def __init__(self, seat: int | None = None):
        self.seat = seat
        self.visits = 0
        self.wins = 0.0
        self.avail = 0
        self.children: dict[tuple[int, str], _Node] = {}


class ISMCTS(Bot):
    kind = "ismcts"
    BUDGETS = {"fast": 40, "strong": 600}

    def __init__(self, seed: int | str = 0, personality: str | None = None,
                 iterations: int | None = None, milliseconds: float | None = None):
        super().__init__(seed, personality)
        if iterations is None and milliseconds is None:
            iterations, milliseconds = self.parse_budget(personality)
        if iterations is not None and iterations < 1:
            raise ValueError("an ISMCTS budget needs at least 1 iteration")
        if milliseconds is not None and milliseconds <= 0:
            raise ValueError("an ISMCTS time budget must be positive")
        self.iterations = iterations
        self.milliseconds = milliseconds
        #: Decisions taken at random because no determinisation was possible.
        self.fallbacks = 0
        #: Iterations run by the last decision (for tests and reports).
        self.last_iterations = 0

    # -- budgets ------------------------------------------------------------------
    @classmethod
    def accepts(cls, personality: str) -> bool:
        return bool(re.fullmatch(r"[1-9]\d*(ms)?", personality))

    @classmethod
    def parse_budget(cls, personality: str | None) -> tuple[int | None, float | None]:
        if not personality:
            return DEFAULT_ITERATIONS, None
        if personality in cls.BUDGETS:
            return cls.BUDGETS[personality], None
        if personality.endswith("ms") and cls.accepts(personality):
            return None, float(personality[:-2])
        if cls.accepts(personality):
            return int(personality), None
        raise ValueError(f"not an ISMCTS budget: {personality!r} (fast, strong, <N> or <N>ms)")

    # -- deciding -------------------------------------------------------------------
    def choose(self, view: SeatView) -> str:
        if len(view.options) == 1:
            return view.options[0]
        sampler = getattr(view.game.binding, "determinize", None)
        if sampler is None:
            self.fallbacks += 1
            return self.rng.choice(view.options)
        root = _Node()
        offered = set(view.options)
        deadline = time.perf_counter() + self.milliseconds / 1000 if self.milliseconds else None
        done = failures = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            match = sampler(view.game, view.observation, view.seat, self.rng)
            if match is None or set(match.legal(view.seat)) != offered:
                failures += 1
                if failures >= 3 and not done:
                    break
                continue
            self._iterate(root, match, view.seat)
            done += 1
        self.last_iterations = done
        mine = [(node.visits, node.wins, option) for (seat, option), node in root.children.items()
                if seat == view.seat and option in offered]
        if not mine:
            self.fallbacks += 1
            return self.rng.choice(view.options)
        return max(mine)[2]

    def _iterate(self, root: _Node, match: Any, me: int) -> None:
        rng = self.rng
        node = root
        path = [root]
        # Selection and expansion: the root decision is ours; below it, the first
        # pending seat moves (simultaneous windows are answered in seat order).
        while not match.over:
            pending = match.pending
            seat = me if node is root else pending[0]
            keys = [(seat, option) for option in match.legal(seat)]
            children = node.children
            untried = []
            for key in keys:
                child = children.get(key)
                if child is None:
                    untried.append(key)
                else:
                    child.avail += 1
            if untried:
                key = untried[rng.randrange(len(untried))]
                child = children[key] = _Node(seat)
                child.avail = 1
                match.choose(seat, key[1])
                path.append(child)
                break
            log_n = math.log
            best, best_score = None, -1.0
            for key in keys:
                child = children[key]
                score = child.wins / child.visits + EXPLORATION * math.sqrt(log_n(child.avail) / child.visits)
                if score > best_score:
                    best, best_score = key, score
            assert best is not None
            node = children[best]
            match.choose(seat, best[1])
            path.append(node)
        winners = set(playout(match, rng))
        for visited in path:
            visited.visits += 1
            if visited.seat is not None and visited.seat in winners:
                visited.wins += 1.0


def playout(match: Any, rng: Any, limit: int = PLAYOUT_LIMIT) -> list[int]:
    """Random legal moves to the end; the winners (none if the limit is hit)."""
    made = 0
    while not match.over:
        pending = match.pending
        seat = pending[0] if len(pending) == 1 else pending[rng.randrange(len(pending))]
        options = match.decision.offers[seat]
        match.choose(seat, options[rng.randrange(len(options))])
        made += 1
        if made >= limit:
            return []
    return list(match.winners)
