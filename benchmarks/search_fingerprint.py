"""Same search, same games: a fingerprint of seeded Coup matches played by the search bot.

    PYTHONPATH=/tmp/before/src .venv/bin/python benchmarks/search_fingerprint.py
    .venv/bin/python benchmarks/search_fingerprint.py

Seat 0 is ``ismcts:40`` (a fixed iteration budget, so reproducible from the seed), the others
the Coup heuristic; 12 matches of 3 and 4 players over the four variant combinations (the
Inquisitor, the Reformation), then 4 of 2 players (three with the official two-player set-up). Prints a hash of every choice and winner, a hash of every
observation the bots were handed, and the wins by seat. A change that only makes the search
faster prints the same line before and after; one that changes what it does (or what a seat
sees) does not.
"""

from __future__ import annotations

import hashlib
import json
import sys

from intrigue import games
from intrigue.bots import make
from intrigue.bots.base import SeatView
from intrigue.engine import Match

VARIANTS = [{}, {"characters": "inquisitor"}, {"reformation": True}, {"characters": "inquisitor", "reformation": True}]
TWO_PLAYERS = [{"two_player_setup": "official"}, {"two_player_setup": "official", "characters": "inquisitor"}, {},
               {"two_player_setup": "official", "reformation": True}]


def main(matches: int = 16) -> str:
    game = games.get("coup")
    choices, views = hashlib.sha256(), hashlib.sha256()
    wins = [0] * 4
    for deal in range(matches):
        players, options = (4 if deal % 3 else 3, VARIANTS[deal % 4]) if deal < 12 else (2, TWO_PLAYERS[deal % 4])
        match = Match(game, [f"P{i + 1}" for i in range(players)], 1000 + deal, options, headless=True)
        bots = [make("ismcts:40", seed=deal)] + [make("heuristic", seed=deal * 10 + s) for s in range(1, players)]
        while not match.over:
            seat = match.pending[0]
            view = SeatView.of(match, seat)
            views.update(json.dumps(view.observation, sort_keys=True, default=str).encode())
            option = bots[seat].choose(view)
            choices.update(f"{seat}:{option};".encode())
            match.choose(seat, option)
        for winner in match.winners:
            wins[winner] += 1
        choices.update(repr(match.winners).encode())
    return f"{choices.hexdigest()[:16]} {views.hexdigest()[:16]} {wins}"


if __name__ == "__main__":
    print(main(int(sys.argv[1]) if len(sys.argv) > 1 else 16))
