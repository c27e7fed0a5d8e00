"""Measured habits of bots, from the tournament's side of the table.

The tournament runner sees the whole match, so it can tell, at the moment a
bot chooses, whether a claim was a bluff and whether a challenge was right.
Bots never get this information; it only feeds the figures in ``docs/bots.md``.
A game without an entry here simply has no habits reported.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from ..games.coup import board as coup
from ..games.coup import variants


def coup_habits(match: Any, seat: int, option: str, tally: Counter) -> None:
    """Count claims and bluffs, challenge chances, challenges, and right challenges (the
    variants' claims included: Examine claims the Inquisitor, Embezzle to hold no Duke)."""
    held = coup.hand(match, seat)
    verb = option.split(" ")[0]
    claims = variants.claims(match.options)
    if match.phase_id == 3 and verb in claims:
        tally["claims"] += 1
        tally["bluffs"] += not variants.holds(held, claims[verb])
    elif option.startswith("Block "):
        tally["claims"] += 1
        tally["block_claims"] += 1
        tally["bluffs"] += option.removeprefix("Block ") not in held
        tally["block_bluffs"] += option.removeprefix("Block ") not in held
    if "Challenge" in match.legal(seat):
        tally["chances"] += 1
        if option == "Challenge":
            tally["challenges"] += 1
            if match.phase_id == 13:
                claimant = coup.seat_of_id(match.state["block"]["blocker_id"])
                character = match.state["block"]["character"]
            else:
                claimant, character = coup.actor(match), match.state["current_turn"]["character"]
            tally["right"] += not variants.holds(coup.hand(match, claimant), character)


HABITS: dict[str, Callable[[Any, int, str, Counter], None]] = {"coup": coup_habits}
