"""The coach: the search bot's suggestion for one seat, and why, in one sentence.

A hint is what :class:`~intrigue.bots.ismcts.ISMCTS` would play from the seat's
own :class:`~intrigue.bots.base.SeatView` (its observation and options: never
the match), with a short budget. The sentence that explains it is chosen in two
layers, both honest by construction:

1. the game's own catalogue, when it registered one (``binding.explain``, e.g.
   ``games/coup/coach.py``): a fact read from the observation that makes the
   suggested option good ("All 3 Duke cards are in your hand or face up: Ada
   cannot have one, so challenge."); the game returns ``None`` when it has no
   fact that supports this option;
2. otherwise the search's own figures for the suggestion against the option the
   search liked next best (:data:`GENERIC`): how often it won in the simulated
   games, and by how much; a close call is called one. An option tried fewer than
   :data:`COMPARABLE` times is not compared with: then the sentence says how much
   of the search went to the suggestion, and how often it won.

A reason is ``key`` (the template: an id of the browser's catalog for the generic
ones, the English sentence itself for a game's, as its other strings are
keyed), ``args`` (the values put in it: numbers, option strings, player names,
card names) and ``text`` (the English sentence). See docs/bots.md, "The coach".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .base import SeatView
from .ismcts import ISMCTS

#: The search's budget for one hint (milliseconds, everything included): about a
#: second at most on a shared two-core machine, and a few hundred simulations.
HINT_MILLISECONDS = 600.0
#: Win rates within this many points of each other are a close call.
CLOSE = 3
#: An option the search tried fewer times than this is not compared with (its rate means little).
COMPARABLE = 10

#: The reasons every game has (the browser's catalog holds the same ids, in every language).
GENERIC = {
    "coach.only": "It is your only option.",
    "coach.guess": "The coach cannot look ahead in this position, so this is only a guess.",
    "coach.ahead": "In {games} simulated games it won {win}%, {points} points more than {other}.",
    "coach.close": "A close call: in {games} simulated games it won {win}%, about as often as {other} ({other_win}%).",
    "coach.favoured": "The search tried it most ({share}% of {total} simulated games) and it won {win}% of them.",
}


@dataclass(frozen=True)
class Reason:
    """One sentence: ``key`` and ``args`` to translate it, ``text`` in English."""

    key: str
    args: dict[str, Any]
    text: str

    @classmethod
    def of(cls, template: str, args: dict[str, Any], key: str | None = None) -> "Reason":
        return cls(key or template, dict(args), fill(template, args))

    def json(self) -> dict[str, Any]:
        return {"key": self.key, "args": dict(self.args), "text": self.text}


@dataclass(frozen=True)
class Hint:
    """The suggestion, its reason and the search's figures (option -> (visits, win rate))."""

    option: str
    reason: Reason
    stats: dict[str, tuple[int, float]] = field(default_factory=dict)
    iterations: int = 0


def fill(template: str, args: dict[str, Any]) -> str:
    """``{name}`` placeholders replaced by their values (a list reads "a, b")."""
    def value(found: re.Match[str]) -> str:
        name = found.group(1)
        if name not in args:
            return found.group(0)
        item = args[name]
        return ", ".join(map(str, item)) if isinstance(item, (list, tuple)) else str(item)

    return re.sub(r"\{([a-z_]+)\}", value, template)


def hint(view: SeatView, milliseconds: float = HINT_MILLISECONDS, iterations: int | None = None,
         seed: int | str = 0) -> Hint:
    """What the search suggests for ``view`` and why. ``iterations`` (instead of a time
    budget) makes the answer reproducible from ``seed``, for tests."""
    if not view.options:
        raise ValueError("a hint needs a seat with a decision to make")
    if len(view.options) == 1:
        option = view.options[0]
        return Hint(option, explain(view, option, {}))
    search = ISMCTS(seed=seed, iterations=iterations, milliseconds=None if iterations else milliseconds)
    option = search.choose(view)
    stats = {o: s for o, s in search.last_stats.items() if o in view.options}
    return Hint(option, explain(view, option, stats), stats, search.last_iterations)


def explain(view: SeatView, option: str, stats: dict[str, tuple[int, float]]) -> Reason:
    """Why ``option``: the game's catalogue if it has a fact for it, else the search's figures."""
    if len(view.options) == 1:
        return Reason.of(GENERIC["coach.only"], {}, "coach.only")
    explainer = getattr(view.game.binding, "explain", None)
    if explainer is not None:
        found = explainer(view.observation, view.seat, option, dict(stats))
        if found is not None:
            template, args = found
            return Reason.of(template, args)
    return from_figures(option, stats)


def from_figures(option: str, stats: dict[str, tuple[int, float]]) -> Reason:
    """The generic reason: the suggestion's win rate against the search's next best option."""
    mine = stats.get(option)
    if not mine or mine[0] == 0:
        return Reason.of(GENERIC["coach.guess"], {}, "coach.guess")
    total = sum(visits for visits, _ in stats.values())
    win = round(100 * mine[1])
    others = sorted(((visits, rate, other) for other, (visits, rate) in stats.items()
                     if other != option and visits >= COMPARABLE), reverse=True)
    if others:
        _, rate, other = others[0]
        other_win = round(100 * rate)
        points = win - other_win
        if points >= CLOSE:
            return Reason.of(GENERIC["coach.ahead"], {"games": mine[0], "win": win, "points": points, "other": other},
                             "coach.ahead")
        if points > -CLOSE:
            return Reason.of(GENERIC["coach.close"], {"games": mine[0], "win": win, "other": other,
                                                      "other_win": other_win}, "coach.close")
    share = round(100 * mine[0] / total)
    return Reason.of(GENERIC["coach.favoured"], {"share": share, "total": total, "win": win}, "coach.favoured")
