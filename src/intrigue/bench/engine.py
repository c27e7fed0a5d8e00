"""Engine throughput: decisions per second and games per second with random choices.

Headless (no UI components are built) and single process, so the figure is the
engine and the game's rules, nothing else.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Callable

from .. import games as registry
from ..engine import Match
from ..simulate import player_names, random_play


@dataclass
class EngineFigure:
    game: str
    players: int
    games: int
    decisions: int
    seconds: float

    def as_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "games": self.games,
                "decisions": self.decisions, "seconds": round(self.seconds, 3),
                "decisions_per_second": round(self.decisions / self.seconds, 1),
                "games_per_second": round(self.games / self.seconds, 2),
                "decisions_per_game": round(self.decisions / max(self.games, 1), 2)}


def default_players(game_id: str) -> int:
    game = registry.resolve(game_id)
    return max(game.min_players, min(4, game.max_players))


def measure(game_id: str, seconds: float = 3.0, players: int | None = None, seed: int = 0,
            headless: bool = True, clock: Callable[[], float] = time.perf_counter) -> EngineFigure:
    """Play random games until ``seconds`` have passed on ``clock`` (at least one game). ``game_id``
    is an installed game or a game's YAML file."""
    game = registry.resolve(game_id)
    count = players or default_players(game_id)
    names = player_names(count)
    decisions = played = 0
    # One generator picks every game's choices, as a simulation or a search plays many games from one
    # stream; each match still has its own seed (its deal). The floor also seeds once per game.
    chooser = random.Random(seed)
    started = clock()
    deadline = started + seconds
    while played == 0 or clock() < deadline:
        match = Match(game, names, seed * 1_000_003 + played, headless=headless, timers=False)
        decisions += random_play(match, chooser)
        played += 1
    return EngineFigure(game.id, count, played, decisions, clock() - started)


def clone_microseconds(game_id: str = "coup", players: int = 4, samples: int = 2000) -> float:
    """Mean time to clone a match mid-game (what a search bot pays per simulation)."""
    game = registry.get(game_id)
    match = Match(game, player_names(players), 3, headless=True)
    rng = random.Random(3)
    for _ in range(8):
        if match.over:
            break
        seat = rng.choice(match.pending)
        match.choose(seat, rng.choice(match.legal(seat)))
    started = time.perf_counter()
    for _ in range(samples):
        match.clone()
    return (time.perf_counter() - started) / samples * 1e6
