"""Coup's action vocabulary: every option a seat can be offered, as labels.

Player names are seat offsets (``Steal {+1}``; ``engine/vocabulary.py``), so the
default labeler serves. The list covers the base game and the official variants
(the Inquisitor's ``Examine``/``Show``/``Return``/``Force Exchange``, the
Reformation's ``Convert``/``Embezzle`` and allegiances), so one action space
serves every option set at a player count; actions a variant does not use are
simply never legal.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from ...engine.vocabulary import seat_tokens
from .rules import game

#: Every character of the base game and the variants, in a fixed order.
CHARACTERS = ("Duke", "Assassin", "Ambassador", "Inquisitor", "Captain", "Contessa")
#: Turn actions and answers that name nobody.
PLAIN = ("Income", "Foreign Aid", "Tax", "Exchange", "Embezzle", "Convert", "Challenge", "Pass",
         "Return", "Force Exchange", "Loyalist", "Reformist")
#: Turn actions aimed at another player.
AIMED = ("Coup", "Assassinate", "Steal", "Examine", "Convert")
#: Answers naming one character.
PER_CHARACTER = ("Block", "Lose", "Reveal", "Show", "Keep")


@game.vocabulary
def actions(players: int) -> list[str]:
    labels = list(PLAIN)
    labels += [f"{verb} {who}" for verb in AIMED for who in seat_tokens(players, self_too=False)]
    labels += [f"{verb} {character}" for verb in PER_CHARACTER for character in CHARACTERS]
    labels += ["Keep " + ", ".join(sorted(pair)) for pair in combinations_with_replacement(CHARACTERS, 2)]
    return list(dict.fromkeys(labels))
