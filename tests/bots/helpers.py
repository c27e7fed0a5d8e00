"""Small builders for bot tests: a Coup match dealt as a test wants it."""

from __future__ import annotations

from intrigue.engine import Match


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
