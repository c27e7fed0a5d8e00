"""Hanabi, 2 players: the search bot (``ismcts:<N>``) against random play, N seeded games each.

Hanabi is cooperative: the figures are the table's score (cards played, of 25) and how often the
show is kept (not lost to three fuses), for ismcts+random, ismcts+ismcts and random+random on the
same seeds; then N seeded endgames (the deck empty, one fuse left, played to there by a script that
sees every card and only discards) finished by the bot at seat 1 beside that script: how many shows
it keeps. Run: ``python benchmarks/hanabi_search.py [games] [iterations]``; compare before and after
with ``PYTHONPATH=<other checkout>/src``.
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


def careful(match: Match, seat: int) -> str:
    """A script that sees every card: misplays while more than one fuse is left, then discards."""
    legal = match.legal(seat)
    state, rules = match.state, match.game.binding.state
    if "Play 1" in legal and state["fuses"] > 1:
        for at, card in enumerate(match.players[seat]["hand"]):
            if state["played_colours"].count(rules["colour_of"][card]) != rules["number_of"][card] - 1:
                return f"Play {at + 1}"
    return "Discard 1" if "Discard 1" in legal else legal[0]


def game(specs: list[str], seed: int) -> tuple[int, bool]:
    """The score one seeded game of ``specs`` (one bot a seat) ends with, and whether the show was kept."""
    match = Match(load_path(HANABI), [f"P{s + 1}" for s in range(len(specs))], seed, headless=True)
    bots = [make(spec, seed=f"{seed}:{s}") for s, spec in enumerate(specs)]
    while not match.over:
        seat = match.pending[0]
        match.choose(seat, bots[seat].choose(SeatView.of(match, seat)))
    return int(match.state["score"]), bool(match.winners)


def endgame(spec: str, seed: int) -> bool:
    """Whether ``spec`` at seat 1 keeps the show from its last turn with one fuse left."""
    match = Match(load_path(HANABI), ["P1", "P2"], seed, headless=True)
    while not (match.pending[0] == 0 and match.state["fuses"] == 1 and match.state["final_turns"] > 0
               and "Play 1" in match.legal(0)):
        match.choose(match.pending[0], careful(match, match.pending[0]))
    bot = make(spec, seed=seed)
    while not match.over:
        seat = match.pending[0]
        match.choose(seat, bot.choose(SeatView.of(match, seat)) if seat == 0 else careful(match, seat))
    return bool(match.winners)


def main(games: int = 20, iterations: int = 50) -> None:
    search = f"ismcts:{iterations}"
    for specs in ([search, "random"], [search, search], ["random", "random"]):
        results = [game(specs, seed) for seed in range(games)]
        scores = [s for s, _ in results]
        print(f"{'+'.join(specs)}: mean score {statistics.mean(scores):.2f} (min {min(scores)}, max {max(scores)}), "
              f"shows kept {sum(k for _, k in results)}/{games}")
    for spec in (search, "random"):
        print(f"endgames, {spec}: shows kept {sum(endgame(spec, seed) for seed in range(games))}/{games}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
