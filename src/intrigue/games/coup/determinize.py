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

The variants (``variants.py``) come from the observation's ``variant``: the
court holds the Inquisitor or the Ambassador; allegiances and the Treasury
Reserve are public and copied; a card a target showed this seat (Examine) stays
in that target's slot in every sample; with the official two-player set-up the
cards are three sets, and the opponent's four set-aside cards are unknown cards
like the others (this seat's own are known).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ...engine.restart import Plans, restart
from ...engine import Decision, Game, Match
from . import variants
from .rules import COSTS, game

#: How often a standing claim is believed when dealing the claimant's cards.
CLAIM_TRUST = 0.75
#: Phases in which the turn's claim has been made and not yet challenged.
ACTION_CLAIM_STANDS = {4, 10, 11, 12, 13}
#: Phases in which the block's claim stands unchallenged.
BLOCK_CLAIM_STANDS = {13}


@game.determinizer
def determinize(g: Game, observation: dict[str, Any], seat: int, rng: random.Random,
                reads: dict[int, float] | None = None) -> Match | None:
    """``reads`` (``reads.py``) lowers the trust in the claims of a seat that seems to
    play at random: its claims are believed with ``CLAIM_TRUST × (1 − p)``."""
    plan = _plans.get(g, observation, seat)
    if plan is None:
        return None
    match = plan.base.clone()
    match.rng.seed(rng.getrandbits(32))
    plan.deal(match, rng, reads or {})
    return match


class _Plan:
    """One observation, read once: the rebuilt match and where its unknown cards go.

    A search asks for hundreds of samples of the same observation; each is a
    clone of one rebuilt match with the unknown cards dealt again.
    """

    def __init__(self, observation: dict[str, Any], base: Match, unknown: list[str],
                 slots: list[tuple[int, str]], beliefs: list[tuple[int, str]], aside: dict[str, int] | None = None):
        self.observation = observation
        self.base = base
        self.unknown = unknown
        self.slots = slots
        self.beliefs = beliefs
        self.aside = aside or {}  # seat -> how many of its set-aside cards are unknown

    def deal(self, match: Match, rng: random.Random, reads: dict[int, float]) -> None:
        cards = list(self.unknown)
        rng.shuffle(cards)
        slots = list(self.slots)
        for owner, character in self.beliefs:
            theirs = [i for i, (o, _) in enumerate(slots) if o == owner]
            if theirs and character in cards and rng.random() < CLAIM_TRUST * (1 - reads.get(owner, 0.0)):
                cards.remove(character)
                owner_, key = slots.pop(theirs[rng.randrange(len(theirs))])
                match.players[owner_]["influences"][key]["character"] = character
        for owner, key in slots:
            match.players[owner]["influences"][key]["character"] = cards.pop()
        for owner, count in self.aside.items():
            match.state["set_aside"][owner] = [cards.pop() for _ in range(count)]
        match.state["court_deck"] = cards

    @classmethod
    def read(cls, g: Game, observation: dict[str, Any], seat: int) -> "_Plan | None":
        rng = random.Random(0)  # any deal will do: every sample deals the unknown cards again
        view = observation["state"]
        names = list(observation["players"])
        if observation["over"] or not observation.get("decision") or seat is None:
            return None
        phase_id = observation["phase"]["id"]
        index = {name: i for i, name in enumerate(names)}
        variant = dict(view.get("variant") or {})
        options = {"characters": variant.get("characters", "ambassador"),
                   "reformation": bool(variant.get("reformation")),
                   "two_player_setup": variant.get("two_player_setup", "simple"),
                   "choose_allegiance": phase_id == 34}

        official = "set_aside_size" in view
        unseen = Counter(variants.characters(options) * 3 if official else variants.court(len(names), options))
        examined = view.get("examined") or {}
        shown = (index[examined["player"]], str(examined["slot"] + 1)) if examined.get("character") else None
        choosing = bool(view.get("set"))  # the official set-up's first choice: nobody holds a card yet
        slots: list[tuple[int, str]] = []
        for owner, player in enumerate(view["players"]):
            for i, slot in enumerate(player["influences"]):
                if choosing:
                    continue
                if (owner, str(i + 1)) == shown:
                    unseen[examined["character"]] -= 1
                elif slot["character"] is None:
                    slots.append((owner, str(i + 1)))
                elif slot["character"]:
                    unseen[slot["character"]] -= 1
        drawn = list(view.get("exchange_drawn") or [])
        unseen.subtract(drawn)
        sets = {str(seat): list(variants.characters(options)) for seat in range(2)} if view.get("set") else {}
        for cards in sets.values():
            unseen.subtract(cards)
        mine = list((view.get("set_aside") or {}).get(names[seat], []))
        unseen.subtract(mine)
        aside = {}
        if official and view["set_aside_size"]:
            aside = {str(1 - seat): view["set_aside_size"] - len(mine)}
        if min(unseen.values(), default=0) < 0:
            return None
        unknown = sorted(unseen.elements())
        if len(unknown) != len(slots) + view["court_size"] + sum(aside.values()):
            return None
        cards = list(unknown)
        rng.shuffle(cards)

        actor = index.get(view["active"]) if view.get("active") else None
        blocker = index.get(view["blocker"]) if view.get("blocker") else None
        beliefs = []
        if phase_id in ACTION_CLAIM_STANDS and view.get("claim") and actor is not None and actor != seat:
            beliefs.append((actor, view["claim"]))
        if phase_id in BLOCK_CLAIM_STANDS and view.get("block_claim") and blocker is not None and blocker != seat:
            beliefs.append((blocker, view["block_claim"]))

        target = index.get(view["target"]) if view.get("target") else None
        players = []
        for owner, player in enumerate(view["players"]):
            players.append({
                "name": names[owner], "id": owner + 1, "coins": player["coins"], "is_alive": player["alive"],
                "influences": {
                    str(i + 1): {"character": ("" if choosing else
                                               examined["character"] if (owner, str(i + 1)) == shown else
                                               slot["character"] if slot["character"] is not None else cards.pop()),
                                 "revealed": slot["revealed"]}
                    for i, slot in enumerate(player["influences"])},
                "claimed_action": player["claimed_action"], "claimed_character": player["claimed_character"],
                "target_player_id": (target + 1 if target is not None and owner == actor else 0),
                "last_action_outcome": player["last_action_outcome"],
            })
        set_aside = {str(seat): mine, **{owner: [cards.pop() for _ in range(n)] for owner, n in aside.items()}}
        deck = drawn + cards  # the drawn pair on top: the Exchange phase draws it again

        waiting = [index[name] for name in observation["decision"]["waiting"]]
        state = _state(g, view, actor, target, blocker, waiting, phase_id, deck)
        state["allegiance"] = [p.get("allegiance") or "" for p in view["players"]] if options["reformation"] else []
        state["reserve"] = view.get("reserve") or 0
        state["treasury"] = view["treasury"]
        if shown is not None:
            state["examine"].update(target_id=shown[0] + 1, slot=shown[1], character=examined["character"])
        state["sets"] = sets
        if official and not choosing:
            state["set_aside"] = set_aside
        last = None
        if blocker is not None and phase_id == 13:  # the block window's answer names the blocker
            last = Decision(12, "single_player_choice", answers={blocker: f"Block {view['block_claim']}"})
        answered = {}
        if observation["decision"]["kind"] == "all_players_action":  # the others in the window passed
            answered = {s: "Pass" for s in range(len(names)) if s not in waiting}
            if choosing:  # the opponent already kept a card of its set: which one is unknown
                answered = {s: f"Keep {rng.choice(sets[str(s)])}" for s in answered}
        if phase_id == 32 and shown is not None:  # the examiner's decision reads the target's answer
            last = Decision(31, "single_player_choice", answers={shown[0]: f"Show {examined['character']}"})
        base = restart(g, names, players, state, phase_id, rng.getrandbits(32), last_decision=last,
                       answered=answered, version=observation["version"], options=options)
        if base.over or set(base.legal(seat)) != set(observation["decision"]["options"]):
            return None
        if len(base.state["court_deck"]) != view["court_size"]:
            return None
        return cls(observation, base, unknown, slots, beliefs, aside)


_plans = Plans(_Plan.read)


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
