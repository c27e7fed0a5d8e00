"""Bots: players that see exactly what a seat sees.

A bot gets a :class:`SeatView` (the game, its seat, ``observe(match, seat)`` and
the options offered to it) and returns one of the options. It never gets the
match itself, so it cannot reach hidden state. The server, the CLI and the
tournament runner all use bots through :func:`make`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from ..engine import Game


@dataclass(frozen=True)
class SeatView:
    game: Game
    seat: int
    observation: dict[str, Any]
    options: tuple[str, ...]


class Bot:
    """The baseline: a uniformly random legal option."""

    kind = "random"

    def __init__(self, seed: int | str = 0, personality: str | None = None):
        self.rng = random.Random(seed)
        self.personality = personality

    def choose(self, view: SeatView) -> str:
        return self.rng.choice(view.options)

    @property
    def label(self) -> str:
        return f"{self.kind}:{self.personality}" if self.personality else self.kind


#: kind -> (factory, personalities, games it is made for: None = every game)
REGISTRY: dict[str, tuple[Callable[..., Bot], list[str], list[str] | None]] = {
    "random": (Bot, [], None),
}


def kinds() -> list[dict[str, Any]]:
    return [{"kind": kind, "personalities": list(personalities), "games": games}
            for kind, (_, personalities, games) in REGISTRY.items()]


def make(spec: str, seed: int | str = 0) -> Bot:
    """``spec`` is ``kind`` or ``kind:personality`` (e.g. ``heuristic:bold``)."""
    kind, _, personality = spec.partition(":")
    if kind not in REGISTRY:
        raise ValueError(f"unknown bot {kind!r} (known: {', '.join(REGISTRY)})")
    factory, personalities, _ = REGISTRY[kind]
    if personality and personality not in personalities:
        raise ValueError(f"bot {kind!r} has no personality {personality!r}")
    return factory(seed=seed, personality=personality or None)
