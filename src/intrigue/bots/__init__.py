"""Bots: players that see exactly what a seat sees.

A bot gets a :class:`SeatView` (the game, its seat, ``observe(match, seat)`` and
the options offered to it) and returns one of the options. It never gets the
match itself, so it cannot reach hidden state. The server, the CLI and the
tournament runner all use bots through :func:`make`.

Kinds: ``random`` (any game), ``heuristic`` (Coup; personalities ``cautious``,
``bold``, ``honest``), ``ismcts`` (any game; it searches where the game has a
determinizer; the personality is a budget, ``fast``, ``strong``, ``<N>``
iterations or ``<N>ms`` (default 200ms), optionally prefixed by ``pure-``
(random playouts), ``model-`` or ``search-`` (how opponents move in the tree;
modelled by default where the game has its own bot)), ``llm`` (any game, through an
OpenAI-compatible endpoint when one is configured; ``llm:MODEL`` picks the model),
``tutorial`` (a game's guided first game as scripted, then its ``bots``; only
tutorial rooms seat it). ``coach.py`` turns the search bot into a coach: a
suggestion for a seat and why.
See ``docs/bots.md`` and ``docs/agents.md``.
"""

from __future__ import annotations

from typing import Any, Callable

from .base import Bot, SeatView
from .heuristic import CoupHeuristic
from .ismcts import ISMCTS
from .llm import LLMBot
from .scripted import TutorialBot

#: kind -> (factory, personalities, games it is made for: None = every game)
REGISTRY: dict[str, tuple[Callable[..., Bot], list[str], list[str] | None]] = {
    "random": (Bot, [], None),
    "heuristic": (CoupHeuristic, list(CoupHeuristic.PERSONALITIES), ["coup"]),
    "ismcts": (ISMCTS, list(ISMCTS.PERSONALITIES), None),
    "llm": (LLMBot, [], None),
    "tutorial": (TutorialBot, [], None),
}


#: How hard each kind is to beat, in the words a table shows players.
DIFFICULTY = {"random": "easy", "heuristic": "normal", "ismcts": "hard", "llm": "normal", "tutorial": "easy"}

#: Names bots sit down with (a room's bots take them in order, skipping the host's).
NAMES = ("Ada", "Basil", "Cleo", "Dmitri", "Edie", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Kiri", "Lev")


def kinds() -> list[dict[str, Any]]:
    """The bots that can be made here (``llm`` only when an endpoint is configured)."""
    return [{"kind": kind, "personalities": list(personalities), "games": games,
             "difficulty": DIFFICULTY.get(kind, "normal")}
            for kind, (factory, personalities, games) in REGISTRY.items()
            if getattr(factory, "available", lambda: True)()]


def names(count: int, taken: set[str] = frozenset()) -> list[str]:
    """``count`` friendly bot names, none of them in ``taken``."""
    free = [name for name in NAMES if name not in taken]
    extra = (f"{name} {n}" for n in range(2, 1000) for name in NAMES)
    while len(free) < count:
        name = next(extra)
        if name not in taken:
            free.append(name)
    return free[:count]


def make(spec: str, seed: int | str = 0) -> Bot:
    """``spec`` is ``kind`` or ``kind:personality`` (e.g. ``heuristic:bold``).

    A factory with an ``accepts(personality)`` class method may take more than
    its listed personalities (``ismcts:500``, ``ismcts:200ms``).
    """
    kind, _, personality = spec.strip().partition(":")
    if kind not in REGISTRY:
        raise ValueError(f"unknown bot {kind!r} (known: {', '.join(REGISTRY)})")
    factory, personalities, _ = REGISTRY[kind]
    accepts = getattr(factory, "accepts", None)
    if personality and personality not in personalities and not (accepts and accepts(personality)):
        known = ", ".join(personalities) or "none"
        raise ValueError(f"bot {kind!r} has no personality {personality!r} (known: {known})")
    return factory(seed=seed, personality=personality or None)


def suits(spec: str, game_id: str) -> bool:
    """Whether the bot ``spec`` is made for ``game_id`` (raises on an unknown kind)."""
    kind = spec.strip().partition(":")[0]
    if kind not in REGISTRY:
        raise ValueError(f"unknown bot {kind!r} (known: {', '.join(REGISTRY)})")
    games = REGISTRY[kind][2]
    return games is None or game_id in games


def check(spec: str, game_id: str) -> None:
    """Refuse (``ValueError``) a bot spec that does not exist or is not made for ``game_id``, naming
    the bots that are."""
    make(spec)  # an unknown kind or personality, named
    if not suits(spec, game_id):
        fit = [k["kind"] for k in kinds() if suits(k["kind"], game_id)]  # those one may pick: not tutorial
        raise ValueError(f"bot {spec!r} is not made for {game_id} (bots that play it: {', '.join(fit)})")


__all__ = ["Bot", "CoupHeuristic", "DIFFICULTY", "ISMCTS", "LLMBot", "NAMES", "REGISTRY", "SeatView", "TutorialBot",
           "check", "kinds", "make", "names", "suits"]
