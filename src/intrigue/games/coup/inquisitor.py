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
from .board import (actor, asked, draw, game, hand, msg, name, prompt, return_to_court, seat_of_id, show_board,
                    show_hands, target, tell)


def examination(m: Match) -> dict[str, Any]:
    return m.state["examine"]


# -- phase 31: the target shows a card ------------------------------------------------------------
@game.tool
def prompt_target_show_card(m: Match) -> None:
    """``Show <Character>`` per distinct face-down card. With two face-down cards the target is
    always asked (even when they are identical): answering at once would tell the table so."""
    for seat in asked(m, m.state["current_turn"]["target_player_id"]):
        cards = hand(m, seat)
        options = [f"Show {c}" for c in sorted(set(cards))]
        m.offer(seat, options, auto=len(cards) == 1)
        prompt(m, msg("{player} examines you: choose a card to show (only {player} sees it)", player=name(m, actor(m))),
               msg("Waiting for {player} to show a card to {examiner}…", player=m.names[seat],
                   examiner=name(m, actor(m))),
               about={option: {"label": "Show", "card": option.removeprefix("Show ")} for option in options})


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
    tell(m, "{player} shows a card to {examiner}.", data={"event": "examine_show", "seat": victim,
                                                          "examiner": examiner},
         player=m.names[victim], examiner=m.names[examiner])
    tell(m, "{player} shows you {character}.", Audience.of(examiner), player=m.names[victim], character=character)
    tell(m, "You show {character} to {examiner}.", Audience.of(victim), character=character,
         examiner=m.names[examiner])
    if not m.headless:
        title, title_msg = msg("{player}'s {character}", player=m.names[victim], character=character)
        text, text_msg = msg("Shown to {examiner} only.", examiner=m.names[examiner])
        m.canvas.show("character_card", Audience.of(examiner, victim), key="examined", title=title,
                      player=m.names[victim], text=text, card=character, msg={"title": title_msg, "text": text_msg})


# -- phase 32: the examiner decides ----------------------------------------------------------------
@game.tool
def prompt_examiner_decision(m: Match) -> None:
    exam = examination(m)
    victim = seat_of_id(exam["target_id"])
    for seat in asked(m, m.state["current_turn"]["player_id"]):
        m.offer(seat, ["Return", "Force Exchange"])
        prompt(m, msg("{player} shows you {character}: return it, or force an exchange with the court?",
                      player=m.names[victim], character=exam["character"]),
               msg("Waiting for {player} to return the card or force an exchange…", player=m.names[seat]),
               about={"Return": {"label": "Return", "note": "the card stays"},
                      "Force Exchange": {"label": "Force Exchange", "note": "the card goes to the court"}})


@game.tool
def record_examiner_decision(m: Match) -> None:
    examiner = actor(m)
    exam = examination(m)
    victim = seat_of_id(exam["target_id"])
    if m.last_decision.answer_of(examiner) == "Force Exchange":
        return  # phase 33
    tell(m, "{player} lets {target} keep the card.", data={"event": "examine_return", "seat": examiner,
                                                           "target": victim},
         player=m.names[examiner], target=m.names[victim])
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
    tell(m, "{player} forces {target} to exchange the card with the court.",
         data={"event": "examine_exchange", "seat": examiner, "target": victim},
         player=m.names[examiner], target=m.names[victim])
    tell(m, "You drew {character}.", Audience.of(victim), character=slot["character"])
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
