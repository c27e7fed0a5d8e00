"""Reading Coup players from the public log: does this one play at random?

A search bot has to model its opponents. A careful player rarely challenges,
is seldom caught lying and launches a Coup once it can afford one; a player
acting at random challenges about every other claim, is caught lying most times
it is challenged and lets seven coins sit. All three habits are public: the
log records every declaration, block, challenge and its outcome as event data
(see ``rules.py``). Each sighting multiplies the odds that a seat plays at
random (from ``PRIOR``) by how much likelier it is for a random player than for
a careful one. The search bot uses the result to decide how often that seat
moves at random in its model and how far to believe its claims
(``determinize.py``).
"""

from __future__ import annotations

from typing import Any

from .rules import game

#: The prior that a player acts at random.
PRIOR = 0.35
#: How often each kind of player does each telling thing when it can: challenge a
#: claim; be caught lying when challenged; not launch a Coup with 7 coins or more.
HABITS = {
    "challenges": {"random": 0.4, "careful": 0.06},
    "caught": {"random": 0.65, "careful": 0.2},
    "no coup": {"random": 0.8, "careful": 0.1},
}
#: Influences a player starts with (a player who lost them all is out).
INFLUENCES = 2


@game.reader
def reads(observation: dict[str, Any]) -> dict[int, float]:
    """Each seat's probability of playing at random, from the log the observer has.

    A claim followed at once by a line that is not a challenge was let pass by
    every other living player; a challenged claim is settled by the claimant's
    proof or by its loss of an influence, whichever the log shows first.
    """
    count = len(observation["players"])
    odds = [PRIOR / (1 - PRIOR)] * count
    losses = [0] * count

    def saw(seat: int, habit: str, happened: bool) -> None:
        rate = HABITS[habit]
        if happened:
            odds[seat] *= rate["random"] / rate["careful"]
        else:
            odds[seat] *= (1 - rate["random"]) / (1 - rate["careful"])

    claimant: int | None = None  # a claim whose challenge window is open
    challenged: int | None = None  # a challenged claim not yet settled
    for entry in observation["log"]:
        event = entry.get("event")
        if claimant is not None and event != "challenge":  # nobody challenged it
            for seat in range(count):
                if seat != claimant and losses[seat] < INFLUENCES:
                    saw(seat, "challenges", False)
            claimant = None
        if event == "declare":
            if entry["coins"] >= 7:
                saw(entry["seat"], "no coup", entry["action"] != "Coup")
            if entry["character"]:
                claimant = entry["seat"]
        elif event == "block":
            claimant = entry["seat"]
        elif event == "challenge":
            saw(entry["seat"], "challenges", True)
            challenged, claimant = entry["claimant"], None
        elif event == "proof" and entry["seat"] == challenged:
            saw(challenged, "caught", False)
            challenged = None
        elif event == "lose":
            if entry["seat"] == challenged:
                saw(challenged, "caught", True)
                challenged = None
            losses[entry["seat"]] += 1
    return {seat: o / (1 + o) for seat, o in enumerate(odds)}
