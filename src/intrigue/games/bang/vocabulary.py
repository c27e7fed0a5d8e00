"""BANG!'s action vocabulary: options as labels by card *kind*, players by seat offset.

Options name physical cards (``BANG! 10D at Bea``). A label keeps the card's kind
and drops its rank and suit (``BANG! at {+1}``): two BANG! cards do the same
thing when played, so a policy chooses what to do, and the environment plays the
first offered card of that kind. Rank and suit only matter for "draw!" checks,
which use cards turned from the deck, never a card chosen from a hand; the one
choice this merges that can change a later "draw!" is which of two equal-kind
cards Kit Carlson puts back on the deck. Pairs of cards (Sid Ketchum's
``Heal with``, Kit Carlson's ``Keep``, two Missed! against Slab the Killer) are
labelled by their kinds in alphabetical order. A dying player's ``Discard <card>``
(the order of their cards on the pile) shares the discard step's labels; Sid Ketchum
beside another player's decision answers ``Heal with …`` or ``Not now``.
"""

from __future__ import annotations

import re
from itertools import combinations_with_replacement

from ...engine.vocabulary import relative_label, seat_tokens
from .cards import CARD_TYPES, CHARACTERS, RANKS, SUITS
from .rules import game

KINDS = tuple(sorted(CARD_TYPES))
#: Cards that stay in front of a player: what Panic! and Cat Balou can aim at.
IN_PLAY = tuple(sorted(kind for kind, (border, _, _) in CARD_TYPES.items() if border == "blue"))
#: Cards played at another player.
AIMED = ("BANG!", "Missed!", "Duel", "Jail")  # Missed! at someone: Calamity Janet
#: Answers a shot with two cards (Slab the Killer) may combine.
ANSWERS = ("BANG!", "Missed!")

_CARD = re.compile("(" + "|".join(re.escape(kind) for kind in sorted(CARD_TYPES, key=len, reverse=True))
                   + r") (?:" + "|".join(RANKS) + ")[" + "".join(SUITS) + "]")
_PAIR = re.compile(r"^(Heal with |Keep |)([^,]+), ([^,]+)$")


@game.labeler
def label(names: list[str], seat: int, option: str) -> str:
    text = _CARD.sub(r"\1", relative_label(names, seat, option))
    pair = _PAIR.match(text)
    if pair and pair.group(2) in CARD_TYPES and pair.group(3) in CARD_TYPES:
        first, second = sorted((pair.group(2), pair.group(3)))
        return f"{pair.group(1)}{first}, {second}"
    return text


@game.vocabulary
def actions(players: int) -> list[str]:
    others = seat_tokens(players, self_too=False)
    everyone = seat_tokens(players)
    labels = ["Pass", "Draw", "Draw from deck", "Draw from discard", "Not now"]  # Not now: Sid Ketchum
    labels += [f"Draw from {who}" for who in others]
    for kind in KINDS:
        labels += [kind, f"Discard {kind}", f"Take {kind}", f"Choose {kind}"]
    labels += [f"{kind} at {who}" for kind in AIMED for who in others]
    for kind in ("Panic!", "Cat Balou"):
        labels += [f"{kind} at {who} (hand)" for who in others]
        labels += [f"{kind} at {who} ({card})" for who in everyone for card in IN_PLAY]
    pairs = [f"{a}, {b}" for a, b in combinations_with_replacement(KINDS, 2)]
    labels += [f"Heal with {pair}" for pair in pairs] + [f"Keep {pair}" for pair in pairs]
    labels += [f"{a}, {b}" for a, b in combinations_with_replacement(ANSWERS, 2)]
    labels += sorted(CHARACTERS)
    return list(dict.fromkeys(labels))
