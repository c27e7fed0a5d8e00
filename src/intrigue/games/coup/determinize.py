"""Coup's determinizer: a full match consistent with what one seat observes.

Search bots (``intrigue.bots.ismcts``) plan on such samples. What a seat sees
of Coup is everything but the face-down cards of the others and the order of
the court deck; the cards that can be there are the court minus every card
face up, minus the seat's own hand (and the two it drew, mid-Exchange). Those
are dealt at random, except that a claim still standing (an action or a block
nobody has challenged yet) is believed with probability ``CLAIM_TRUST``:
players mostly claim what they hold, and a sampler that ignored claims would
call every bluff at the rate of a uniform deal.

The rest of the state (coins, turn, action, target, blocker, who already
passed in an open window) is read from the observation, and the match is
rebuilt at the start of the observed phase, whose tools then open the same
decision. Returns ``None`` when the observation is not one it can rebuild.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ...bots.rebuild import restart
from ...engine import Decision, Game, Match
from .rules import COSTS, court, game

#: How often a standing claim is believed when dealing the claimant's cards.
CLAIM_TRUST = 0.75
#: Phases in which the turn's claim has been made and not yet challenged.
ACTION_CLAIM_STANDS = {4, 10, 11, 12, 13}
#: Phases in which the block's claim stands unchallenged.
BLOCK_CLAIM_STANDS = {13}


@game.determinizer
def determinize(g: Game, observation: dict[str, Any], seat: int, rng: random.Random) -> Match | None:
    view = observation["state"]
    names = list(observation["players"])
    if observation["over"] or not observation.get("decision") or seat is None:
        return None
    phase_id = observation["phase"]["id"]
    index = {name: i for i, name in enumerate(names)}

    unseen = Counter(court(len(names)))
    hidden_slots: dict[int, int] = {}
    for owner, player in enumerate(view["players"]):
        for slot in player["influences"]:
            if slot["character"] is None:
                hidden_slots[owner] = hidden_slots.get(owner, 0) + 1
            else:
                unseen[slot["character"]] -= 1
    drawn = list(view.get("exchange_drawn") or [])
    unseen.subtract(drawn)
    if min(unseen.values(), default=0) < 0:
        return None
    cards = list(unseen.elements())
    if len(cards) != sum(hidden_slots.values()) + view["court_size"]:
        return None
    rng.shuffle(cards)

    actor = index.get(view["active"]) if view.get("active") else None
    blocker = index.get(view["blocker"]) if view.get("blocker") else None
    dealt: dict[int, list[str]] = {owner: [] for owner in hidden_slots}
    beliefs = []
    if phase_id in ACTION_CLAIM_STANDS and view.get("claim") and actor is not None:
        beliefs.append((actor, view["claim"]))
    if phase_id in BLOCK_CLAIM_STANDS and view.get("block_claim") and blocker is not None:
        beliefs.append((blocker, view["block_claim"]))
    for owner, character in beliefs:
        if owner in dealt and character in cards and rng.random() < CLAIM_TRUST:
            cards.remove(character)
            dealt[owner].append(character)
    for owner, count in hidden_slots.items():
        while len(dealt[owner]) < count:
            dealt[owner].append(cards.pop())
        rng.shuffle(dealt[owner])
    deck = drawn + cards  # the drawn pair is on top: the Exchange phase draws it again

    target = index.get(view["target"]) if view.get("target") else None
    players = []
    for owner, player in enumerate(view["players"]):
        mine = iter(dealt.get(owner, []))
        players.append({
            "name": names[owner], "id": owner + 1, "coins": player["coins"], "is_alive": player["alive"],
            "influences": {
                str(i + 1): {"character": slot["character"] or next(mine), "revealed": slot["revealed"]}
                for i, slot in enumerate(player["influences"])},
            "claimed_action": player["claimed_action"], "claimed_character": player["claimed_character"],
            "target_player_id": (target + 1 if target is not None and owner == actor else 0),
            "last_action_outcome": player["last_action_outcome"],
        })

    waiting = [index[name] for name in observation["decision"]["waiting"]]
    state = _state(g, view, actor, target, blocker, waiting, phase_id, deck)
    last = None
    if blocker is not None and phase_id == 13:  # the block window's answer names the blocker
        last = Decision(12, "single_player_choice", answers={blocker: f"Block {view['block_claim']}"})
    answered = {}
    if observation["decision"]["kind"] == "all_players_action":  # the others in the window passed
        answered = {s: "Pass" for s in range(len(names)) if s not in waiting}
    return restart(g, names, players, state, phase_id, rng.getrandbits(32), last_decision=last,
                   answered=answered, version=observation["version"])


def _state(g: Game, view: dict[str, Any], actor: int | None, target: int | None, blocker: int | None,
           waiting: list[int], phase_id: int, deck: list[str]) -> dict[str, Any]:
    import copy  # noqa: PLC0415

    state = copy.deepcopy(g.binding.state)
    action = view.get("action") or ""
    state["current_turn"].update(player_id=actor + 1 if actor is not None else 0,
                                 target_player_id=target + 1 if target is not None else 0,
                                 action=action, character=view.get("claim") or "")
    if phase_id == 8 and waiting:  # the challenger pays for a failed challenge
        state["challenge"].update(challenger_id=waiting[0] + 1, claim_true=True)
    if blocker is not None:
        state["block"].update(blocker_id=blocker + 1, character=view.get("block_claim") or "")
    if phase_id == 17 and waiting:
        state["block_challenge"].update(challenger_id=waiting[0] + 1, claim_true=True)
    state["court_deck"] = deck
    state["treasury"] = view["treasury"]
    state["paid"] = COSTS.get(action, 0) if phase_id != 3 else 0
    return state
