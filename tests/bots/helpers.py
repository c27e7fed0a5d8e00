"""Small builders for bot tests: a Coup match dealt as a test wants it, positions to search."""

from __future__ import annotations

import random

from intrigue.engine import Match


def decisions(game, players: int, seeds: range):
    """Every (match, seat) awaiting a choice along random games."""
    for seed in seeds:
        match = Match(game, [f"P{i + 1}" for i in range(players)], seed, headless=True)
        rng = random.Random(seed)
        while not match.over:
            for seat in match.pending:
                yield match, seat
            seat = rng.choice(match.pending)
            match.choose(seat, rng.choice(match.legal(seat)))


def dealt(coup, hands: dict[str, list[str]], deck: list[str], first: str = "P1", seed: int = 0,
          coins: dict[str, int] | None = None, headless: bool = True) -> Match:
    setup = {"hands": hands, "deck": deck, "first": first}
    if coins:
        setup["coins"] = coins
    return Match(coup, list(hands), seed, setup=setup, headless=headless)


def reveal(match: Match, seat: int, character: str) -> None:
    """Turn one of ``seat``'s ``character`` cards face up, as a lost influence."""
    slot = next(s for s in match.players[seat]["influences"].values()
                if s["character"] == character and not s["revealed"])
    slot["revealed"] = True
    match.players[seat]["is_alive"] = any(not s["revealed"] for s in match.players[seat]["influences"].values())
