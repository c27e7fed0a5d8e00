"""The rulebook's official two-player set-up (option ``two_player_setup: official``).

The court is split into three sets of one of each character. Each player takes a
set and secretly keeps one card of it (phase 35, both at once); the other four
are set aside face down, out of the game. The third set is the court, shuffled;
each player is dealt a second card from it. The start player has 1 coin, the
other 2 (as in the simple set-up). With the Inquisitor, the sets hold the
Inquisitor instead of the Ambassador. At other player counts the option does
nothing.

A scenario gives ``setup.deck``: the five cards of the court before the second
cards are dealt, top first (``hands`` is not used: the players choose).
"""

from __future__ import annotations

from typing import Any

from ...engine import Audience, Match
from .board import draw, game, hand, in_play, living, msg, prompt, show_board, show_hands, show_text, tell
from .variants import reformation


def official(m: Match) -> bool:
    return m.options["two_player_setup"] == "official" and len(m.players) == 2


def prepare_sets(m: Match) -> None:
    """Phase 1: a set for each player; the third set is the court."""
    if m.setup.get("hands"):
        raise ValueError("setup refused: with two_player_setup: official the players choose their first card: "
                         "give setup.deck (the court of 5 before the second cards), not setup.hands")
    sets = {str(seat): list(in_play(m)) for seat in range(2)}
    deck = list(m.setup["deck"]) if "deck" in m.setup else list(in_play(m))
    if sorted(deck) != sorted(in_play(m)):
        raise ValueError(f"setup refused: with two_player_setup: official, setup.deck is the court of 5 "
                         f"(one of each of {', '.join(in_play(m))}), top first")
    if "deck" not in m.setup:
        m.shuffle(deck)
    m.state["court_deck"] = deck
    m.state["sets"] = sets
    m.state["set_aside"] = {"0": [], "1": []}


# -- phase 35: keep a card of your set ------------------------------------------------------------
@game.tool(display=True)
def display_two_player_setup(m: Match) -> None:
    show_text(m, "setup", "Official two-player set-up: keep one card of your set (the other four are set aside, "
                          "unseen), then you are dealt a second card from the court.")
    for seat, cards in m.state["sets"].items():
        show_text(m, f"set-{seat}", "Your set: {cards}. Keep one card.", Audience.of(int(seat)), cards=list(cards))


@game.tool
def prompt_keep_from_set(m: Match) -> None:
    for seat in m.targets:
        m.offer(seat, [f"Keep {c}" for c in sorted(m.state["sets"][str(seat)])])
    prompt(m, msg("Keep one card of your set"), msg("Waiting for the players to keep a card…"),
           about={f"Keep {c}": {"label": "Keep", "card": c} for c in in_play(m)})


@game.tool
def deal_from_sets(m: Match) -> None:
    """The kept card is the first influence; the rest is set aside; then a card from the court."""
    for seat in living(m):
        kept = m.last_decision.answer_of(seat).removeprefix("Keep ")
        rest = list(m.state["sets"][str(seat)])
        rest.remove(kept)
        m.state["set_aside"][str(seat)] = rest
        slots = m.players[seat]["influences"]
        slots["1"]["character"] = kept
        slots["2"]["character"] = draw(m)
    m.state["sets"] = {}
    tell(m, "Each player keeps a card of their set, sets the other four aside and is dealt a second card.")
    for seat in range(2):
        first, second = hand(m, seat)
        tell(m, "Your influences: {first} and {second}.", Audience.of(seat), first=first, second=second)
        m.canvas.delete(f"set-{seat}")
    show_hands(m)
    show_board(m)


@game.route(35)
def after_the_two_player_setup(m: Match) -> int:
    return 34 if reformation(m) and not all(m.state["allegiance"]) else 2


# -- what each seat sees of it ----------------------------------------------------------------------
def set_aside_view(m: Match, seat: int | None, everything: bool) -> dict[str, Any]:
    """Your own set (while choosing) and your own set-aside cards; the others' only as counts."""
    if not m.state["sets"] and not m.state["set_aside"]:
        return {}
    view: dict[str, Any] = {"set_aside_size": sum(len(cards) for cards in m.state["set_aside"].values())}
    if seat is not None and str(seat) in m.state["sets"]:
        view["set"] = list(m.state["sets"][str(seat)])
    if everything:
        view["set_aside"] = {m.names[int(s)]: list(cards) for s, cards in m.state["set_aside"].items()}
    elif seat is not None and m.state["set_aside"].get(str(seat)):
        view["set_aside"] = {m.names[seat]: list(m.state["set_aside"][str(seat)])}
    return view


__all__ = ["official", "prepare_sets", "set_aside_view"]
