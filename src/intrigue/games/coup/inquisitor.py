"""Coup's Inquisitor: Examine (phases 31–33).

Examine claims the Inquisitor and names a target (another living player; under the
Reformation, of the other side unless all are one side). Once the claim stands,
the target chooses one of their face-down cards and shows it to the examiner
only (phase 31); the examiner returns it or forces an exchange (phase 32): the
card goes into the court, the court is shuffled and the target draws a card,
seen by the target only (phase 33). Everyone learns that a card was shown and
whether an exchange was forced; only the examiner and the target learn which.

The Inquisitor's Exchange (draw 1, return 1) and its Steal block are the base
flow's phases 22 and 12, parametrised in ``rules.py``.
"""

from __future__ import annotations

from typing import Any

from ...engine import Audience, Match
from .rules import (actor, draw, game, hand, name, prompt, return_to_court, seat_of_id, show_board, show_hands,
                    target)


def examination(m: Match) -> dict[str, Any]:
    return m.state["examine"]


# -- phase 31: the target shows a card ------------------------------------------------------------
@game.tool
def prompt_target_show_card(m: Match) -> None:
    """``Show <Character>`` per distinct face-down card. With two face-down cards the target is
    always asked (even when they are identical): answering at once would tell the table so."""
    for seat in m.targets:
        cards = hand(m, seat)
        m.offer(seat, [f"Show {c}" for c in sorted(set(cards))], auto=len(cards) == 1)
        prompt(m, f"{name(m, actor(m))} examines you: choose a card to show ({name(m, actor(m))} only sees it)",
               f"Waiting for {m.names[seat]} to show a card to {name(m, actor(m))}…")


@game.tool
def show_card_to_examiner(m: Match) -> None:
    examiner, victim = actor(m), target(m)
    answer = m.last_decision.answer_of(victim) if victim is not None else None
    if answer is None:
        return
    character = answer.removeprefix("Show ")
    slot = next(key for key, s in m.players[victim]["influences"].items()
                if not s["revealed"] and s["character"] == character)
    examination(m).update(target_id=victim + 1, slot=slot, character=character)
    m.announce(f"{m.names[victim]} shows a card to {m.names[examiner]}.", event="examine_show",
               seat=victim, examiner=examiner)
    m.announce(f"{m.names[victim]} shows you {character}.", Audience.of(examiner))
    m.announce(f"You show {character} to {m.names[examiner]}.", Audience.of(victim))
    if not m.headless:
        m.canvas.show("character_card", Audience.of(examiner, victim), key="examined",
                      title=f"{m.names[victim]}'s {character}", player=m.names[victim],
                      text=f"Shown to {m.names[examiner]} only.")


# -- phase 32: the examiner decides ----------------------------------------------------------------
@game.tool
def prompt_examiner_decision(m: Match) -> None:
    exam = examination(m)
    victim = seat_of_id(exam["target_id"])
    for seat in m.targets:
        m.offer(seat, ["Return", "Force Exchange"])
        prompt(m, f"{m.names[victim]} shows you {exam['character']}: return it, or force an exchange with the court?",
               f"Waiting for {m.names[seat]} to return the card or force an exchange…")


@game.tool
def record_examiner_decision(m: Match) -> None:
    examiner = actor(m)
    exam = examination(m)
    victim = seat_of_id(exam["target_id"])
    if m.last_decision.answer_of(examiner) == "Force Exchange":
        return  # phase 33
    m.announce(f"{m.names[examiner]} lets {m.names[victim]} keep the card.", event="examine_return",
               seat=examiner, target=victim)
    finish(m)


@game.route(32)
def after_examiner_decision(m: Match) -> int:
    return 33 if m.last_decision.answer_of(actor(m)) == "Force Exchange" else 23


# -- phase 33: the forced exchange ------------------------------------------------------------------
@game.tool
def force_exchange_examined_card(m: Match) -> None:
    examiner = actor(m)
    exam = examination(m)
    victim = seat_of_id(exam["target_id"])
    slot = m.players[victim]["influences"][exam["slot"]]
    return_to_court(m, [slot["character"]])
    slot["character"] = draw(m)
    m.announce(f"{m.names[examiner]} forces {m.names[victim]} to exchange the card with the court.",
               event="examine_exchange", seat=examiner, target=victim)
    m.announce(f"You drew {slot['character']}.", Audience.of(victim))
    finish(m)
    show_hands(m)


def finish(m: Match) -> None:
    examination(m).update(target_id=0, slot="", character="")
    m.canvas.delete("examined")
    show_board(m)


# -- what each seat sees of it --------------------------------------------------------------------------
def examined_view(m: Match, seat: int | None, everything: bool) -> dict[str, Any]:
    """The shown card: for the examiner and the target only (and everyone once the game is over)."""
    exam = examination(m)
    if not exam["target_id"]:
        return {}
    victim = seat_of_id(exam["target_id"])
    shown = {"player": m.names[victim], "slot": int(exam["slot"]) - 1}
    if everything or seat in (actor(m), victim):
        shown["character"] = exam["character"]
    return {"examined": shown}
