"""Environment throughput: decisions per second through the PettingZoo ``step()`` with masks.

The loop is what a policy's rollout does: read the selected agent's action mask
(and, with ``observe``, its whole observation), pick a legal action uniformly,
``step()``. After each game its choices are replayed on a bare engine match, so
the share of the time the engine takes is measured on exactly the same
decisions, game by game (a busy machine slows both alike); the rest is the
environment layer (and this loop).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from ..engine import Match


@dataclass
class EnvFigure:
    game: str
    players: int
    observe: bool
    games: int
    decisions: int
    seconds: float
    engine_seconds: float

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0

    @property
    def engine_share(self) -> float:
        return self.engine_seconds / self.seconds if self.seconds else 0.0

    def as_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "observe": self.observe, "games": self.games,
                "decisions": self.decisions, "seconds": round(self.seconds, 3),
                "decisions_per_second": round(self.decisions_per_second, 1),
                "engine_seconds": round(self.engine_seconds, 3),
                "engine_share": round(self.engine_share, 3)}


def measure(game_id: str, seconds: float = 3.0, players: int | None = None, seed: int = 0,
            observe: bool = False) -> EnvFigure:
    """Play random legal actions through ``step()`` until ``seconds`` have passed (at least
    one game), then replay the same choices on the engine alone."""
    from ..env import make  # noqa: PLC0415

    env = make(game_id, players, seed=seed)
    table = env.table
    pick = random.Random(seed)
    decisions = games = 0
    elapsed = engine = 0.0
    while games == 0 or elapsed < seconds:
        match_seed = seed * 1_000_003 + games
        started = time.perf_counter()
        env.reset(seed=match_seed)
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            mask = env.observe(agent)["action_mask"] if observe else env.action_mask(agent)
            legal = mask.nonzero()[0]
            env.step(int(legal[pick.randrange(len(legal))]))
            decisions += 1
        elapsed += time.perf_counter() - started
        games += 1
        engine += _engine_seconds(table, match_seed, [(choice.seat, choice.option) for choice in table.match.log])
    return EnvFigure(game_id, table.players, observe, games, decisions, elapsed, engine)


def _engine_seconds(table: Any, match_seed: int, choices: list[tuple[int, str]]) -> float:
    """The same match, the same choices, on the engine alone."""
    started = time.perf_counter()
    match = Match(table.game, table.names, match_seed, table.options, headless=True)
    choose = match.choose
    for seat, option in choices:
        choose(seat, option)
    return time.perf_counter() - started
