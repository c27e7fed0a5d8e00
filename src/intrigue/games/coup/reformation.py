"""Coup's Reformation: allegiances, Convert, Embezzle and the Treasury Reserve.

The targeting restriction and its exception are in ``variants.py`` (the action
menu and the Foreign Aid block window of ``rules.py`` use them). Here: who starts
on which side (phase 1, or phase 34 when the start player chooses), what Convert
and Embezzle do when they resolve (phase 20), and the proof of an Embezzle
challenged by someone who was wrong (phase 30): the embezzler shows every
face-down card, shuffles them into the court and draws as many again.
"""

from __future__ import annotations

from ...engine import Audience, Match
from . import variants
from .rules import actor, draw, game, hand, prompt, return_to_court, show_board, show_hands
from .variants import ALLEGIANCES, CONVERT_OTHER, CONVERT_SELF, allegiance, opposite, reunified


# -- set-up -------------------------------------------------------------------------------------
def deal_allegiances(m: Match, start: int) -> None:
    """The start player's side (random, or chosen in phase 34), then alternating clockwise.

    A scenario's ``setup.allegiance`` names sides directly; ``setup.reserve`` fills the reserve.
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
    sides = variants.alternate(count, start, m.rng.choice(ALLEGIANCES))
    for who, side in given.items():
        sides[m.names.index(who)] = side
    m.state["allegiance"] = sides
    announce_sides(m)


def announce_sides(m: Match) -> None:
    for seat, side in enumerate(m.state["allegiance"]):
        m.announce(f"{m.names[seat]} is {side}.", event="allegiance", seat=seat, allegiance=side)
    show_board(m)


# -- phase 34: the start player chooses a side ----------------------------------------------------
@game.tool(display=True)
def display_allegiance_choice(m: Match) -> None:
    m.canvas.show("text", key="setup", text=(
        "Reformation: the start player chooses an allegiance; going clockwise, each player then "
        "takes the opposite of the player before."))


@game.tool
def prompt_allegiance_choice(m: Match) -> None:
    for seat in m.targets:
        m.offer(seat, list(ALLEGIANCES))
    prompt(m, "Choose your allegiance (the others alternate from you, clockwise)",
           f"Waiting for {m.names[actor(m)]} to choose an allegiance…")


@game.tool
def set_allegiances_from_choice(m: Match) -> None:
    start = actor(m)
    side = m.last_decision.answer_of(start)
    m.state["allegiance"] = variants.alternate(len(m.players), start, side)
    announce_sides(m)


# -- phase 20: Convert and Embezzle resolve ---------------------------------------------------------
def convert(m: Match, seat: int, other: int | None) -> str:
    """Flip your own allegiance for 1 coin, or another player's for 2, paid onto the reserve."""
    who = seat if other is None else other
    cost = CONVERT_SELF if other is None else CONVERT_OTHER
    m.players[seat]["coins"] -= cost
    m.state["reserve"] += cost
    side = opposite(allegiance(m, who))
    m.state["allegiance"][who] = side
    whom = "themselves" if other is None else m.names[other]
    text = f"{m.names[seat]} pays {cost} to the Treasury Reserve and converts {whom}: {m.names[who]} is now {side}."
    m.announce(text, event="convert", seat=seat, target=who, allegiance=side, cost=cost)
    m.announce("Every living player is now on one side: anyone may target anyone."
               if reunified(m) else "Two allegiances are alive: the restriction applies.")
    return text


def embezzle(m: Match, seat: int) -> str:
    """Take the whole Treasury Reserve (possibly nothing)."""
    amount = m.state["reserve"]
    m.state["reserve"] = 0
    m.players[seat]["coins"] += amount
    text = f"{m.names[seat]} embezzles the Treasury Reserve: {amount} coin{'' if amount == 1 else 's'}."
    m.announce(text, event="embezzle", seat=seat, amount=amount)
    return text


# -- phase 30: the embezzler proves it holds no Duke ------------------------------------------------
@game.tool
def reveal_hand_to_prove_no_duke(m: Match) -> None:
    seat = actor(m)
    shown = hand(m, seat)
    text = f"{m.names[seat]} shows {' and '.join(shown)}: no Duke. The challenge fails."
    m.announce(text, event="proof", seat=seat, cards=list(shown))
    m.canvas.show("text", key="challenge", text=text)


@game.tool
def replace_shown_hand_from_court(m: Match) -> None:
    """The shown cards go into the court, which is shuffled; the same number are drawn."""
    seat = actor(m)
    slots = [slot for slot in m.players[seat]["influences"].values() if not slot["revealed"]]
    return_to_court(m, [slot["character"] for slot in slots])
    for slot in slots:
        slot["character"] = draw(m)
    m.announce(f"{m.names[seat]} shuffles them into the court and draws {len(slots)} new card"
               f"{'s' if len(slots) > 1 else ''}.")
    m.announce(f"You drew {' and '.join(s['character'] for s in slots)}.", Audience.of(seat))
    show_hands(m)


__all__ = ["convert", "deal_allegiances", "embezzle"]
