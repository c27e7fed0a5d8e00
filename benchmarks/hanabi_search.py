"""Hanabi, 2 players: the search bot (``ismcts:<N>``) beside a random bot, N seeded games.

Hanabi is cooperative, so the figure is the table's score (cards played, of 25) and how often
the show is not lost (three fuses), for ismcts+random against random+random on the same seeds.
Run: ``python benchmarks/hanabi_search.py [games] [iterations]``.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from intrigue.bots import make
from intrigue.bots.base import SeatView
from intrigue.engine import Match
from intrigue.games import load_path

HANABI = Path(__file__).resolve().parent.parent / "docs" / "examples" / "games" / "hanabi.yaml"


def score(specs: list[str], seed: int) -> tuple[int, bool]:
    """The score one seeded game of ``specs`` (one bot a seat) ends with, and whether it was won."""
    match = Match(load_path(HANABI), [f"P{s + 1}" for s in range(len(specs))], seed, headless=True)
    bots = [make(spec, seed=f"{seed}:{s}") for s, spec in enumerate(specs)]
    moves = 0
    while not match.over and moves < 2000:
        seat = match.pending[0]
        match.choose(seat, bots[seat].choose(SeatView.of(match, seat)))
        moves += 1
    return int(match.state["score"]), bool(match.winners)


def main(games: int = 20, iterations: int = 50) -> None:
    for specs in ([f"ismcts:{iterations}", "random"], ["random", "random"]):
        results = [score(specs, seed) for seed in range(games)]
        scores = [s for s, _ in results]
        print(f"{'+'.join(specs)}: mean score {statistics.mean(scores):.2f} "
              f"(min {min(scores)}, max {max(scores)}), not lost {sum(w for _, w in results)}/{games}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
