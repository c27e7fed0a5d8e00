"""Coup's Reformation: allegiances, Convert, Embezzle and the Treasury Reserve.

The targeting restriction and its exception are in ``variants.py`` (the action
menu and the Foreign Aid block window of ``rules.py`` use them). Here: who starts
on which side (phase 1, or phase 34 when the start player chooses), what Convert
and Embezzle do when they resolve (phase 20), and the proof of an Embezzle
challenged by someone who was wrong (phase 30): the embezzler shows every
face-down card, shuffles them into the court and draws as many again.
"""

from __future__ import annotations

from typing import Any

from ...engine import Audience, Match
from . import variants
from .board import actor, draw, game, hand, msg, prompt, return_to_court, show_board, show_hands, show_text, tell
from .variants import ALLEGIANCES, CONVERT_OTHER, CONVERT_SELF, allegiance, opposite, reunified


# -- set-up -------------------------------------------------------------------------------------
def deal_allegiances(m: Match, start: int) -> None:
    """The start player's side (random, or chosen in phase 34), then alternating clockwise.

    A scenario's ``setup.allegiance`` names sides directly (the start player's, named, is the one the
    others alternate from); ``setup.reserve`` fills the reserve.
    """
    given = m.setup.get("allegiance") or {}
    reserve = int(m.setup.get("reserve", 0))
    if reserve:
        m.state["reserve"] = reserve
        m.state["treasury"] -= reserve
    count = len(m.players)
    if m.options["choose_allegiance"] and not given:
        m.state["allegiance"] = [""] * count  # phase 34 asks the start player
        return
    side = m.rng.choice(ALLEGIANCES)  # (drawn even when named: the match's later draws stay the same)
    side = given.get(m.names[start], side)  # the start player's side, named, anchors the alternation (5.1)
    sides = variants.alternate(count, start, side)
    for who, side in given.items():
        sides[m.names.index(who)] = side
    m.state["allegiance"] = sides
    announce_sides(m)


def announce_sides(m: Match) -> None:
    for seat, side in enumerate(m.state["allegiance"]):
        tell(m, "{player} is {allegiance}.", data={"event": "allegiance", "seat": seat, "allegiance": side},
             player=m.names[seat], allegiance=side)
    show_board(m)


# -- phase 34: the start player chooses a side ----------------------------------------------------
@game.tool(display=True)
def display_allegiance_choice(m: Match) -> None:
    show_text(m, "setup", "Reformation: the start player chooses an allegiance; going clockwise, each player "
                          "then takes the opposite of the player before.")


@game.tool
def prompt_allegiance_choice(m: Match) -> None:
    for seat in m.targets:
        m.offer(seat, list(ALLEGIANCES))
    prompt(m, msg("Choose your allegiance (the others alternate from you, clockwise)"),
           msg("Waiting for {player} to choose an allegiance…", player=m.names[actor(m)]),
           about={side: {"label": side, "allegiance": side} for side in ALLEGIANCES})


@game.tool
def set_allegiances_from_choice(m: Match) -> None:
    start = actor(m)
    side = m.last_decision.answer_of(start)
    m.state["allegiance"] = variants.alternate(len(m.players), start, side)
    announce_sides(m)


# -- phase 20: Convert and Embezzle resolve ---------------------------------------------------------
def convert(m: Match, seat: int, other: int | None) -> tuple[str, dict[str, Any]]:
    """Flip your own allegiance for 1 coin, or another player's for 2, paid onto the reserve.
    Returns the outcome line (template and values)."""
    who = seat if other is None else other
    cost = CONVERT_SELF if other is None else CONVERT_OTHER
    m.players[seat]["coins"] -= cost
    m.state["reserve"] += cost
    side = opposite(allegiance(m, who))
    m.state["allegiance"][who] = side
    args: dict[str, Any] = {"player": m.names[seat], "coins": cost, "allegiance": side}
    if other is None:
        template = "{player} pays {coins} to the Treasury Reserve and converts themselves: now {allegiance}."
    else:
        template = "{player} pays {coins} to the Treasury Reserve and converts {target}: now {allegiance}."
        args["target"] = m.names[other]
    tell(m, template, data={"event": "convert", "seat": seat, "target": who, "allegiance": side, "cost": cost},
         **args)
    tell(m, "Every living player is now on one side: anyone may target anyone." if reunified(m) else
         "Two allegiances are alive: the restriction applies.")
    return template, args


def embezzle(m: Match, seat: int) -> tuple[str, dict[str, Any]]:
    """Take the whole Treasury Reserve (possibly nothing). Returns the outcome line."""
    amount = m.state["reserve"]
    m.state["reserve"] = 0
    m.players[seat]["coins"] += amount
    template = ("{player} embezzles the Treasury Reserve: {coins} coin." if amount == 1 else
                "{player} embezzles the Treasury Reserve: {coins} coins.")
    args = {"player": m.names[seat], "coins": amount}
    tell(m, template, data={"event": "embezzle", "seat": seat, "amount": amount}, **args)
    return template, args


# -- phase 30: the embezzler proves it holds no Duke ------------------------------------------------
@game.tool
def reveal_hand_to_prove_no_duke(m: Match) -> None:
    seat = actor(m)
    shown = hand(m, seat)
    template = "{player} shows {cards}: no Duke. The challenge fails."
    tell(m, template, data={"event": "proof", "seat": seat, "cards": list(shown)}, player=m.names[seat],
         cards=list(shown))
    show_text(m, "challenge", template, player=m.names[seat], cards=list(shown))


@game.tool
def replace_shown_hand_from_court(m: Match) -> None:
    """The shown cards go into the court, which is shuffled; the same number are drawn."""
    seat = actor(m)
    slots = [slot for slot in m.players[seat]["influences"].values() if not slot["revealed"]]
    return_to_court(m, [slot["character"] for slot in slots])
    for slot in slots:
        slot["character"] = draw(m)
    tell(m, "{player} shuffles them into the court and draws {count} new cards." if len(slots) > 1 else
         "{player} shuffles it into the court and draws a new card.", player=m.names[seat], count=len(slots))
    tell(m, "You drew {cards}.", Audience.of(seat), cards=[s["character"] for s in slots])
    show_hands(m)


__all__ = ["convert", "deal_allegiances", "embezzle"]
