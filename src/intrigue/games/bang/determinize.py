"""BANG!'s determinizer: a full match consistent with what one seat observes.

Search bots (``intrigue.bots.ismcts``) plan on such samples. A seat sees
everything in front of the players, hand sizes, life, the top of the discard
pile, the General Store, Lucky Duke's "draw!" cards and its own hand (and Kit
Carlson's three cards); it does not see the others' roles (but the Sheriff's
and the dead's), their hands, the deck or the discard pile under its top card.
A sample deals the roles not seen from the composition for the player count,
and the cards not seen anywhere to the others' hands (observed sizes), under
the discard pile's top card and to the deck, all uniformly at random.

The rest of the engine state is not in the observation but follows from it at
every decision: the resolution queue, the prompt, who must still answer, the
Missed! still needed. It is rebuilt from the phase, the prompt and the text a
prompted seat is shown, then the match is restarted at the observed phase,
whose tools offer the decision again (``intrigue.engine.restart.restart``).
Where the observation is silent a sample takes the usual case: in a death-save
the damage came from the active player (none if it is his own turn) and no one
else is still to be hit; only the active player has played a BANG! this turn,
and he has if his options say so; a dying player's life is 0. Returns ``None``
for what it cannot rebuild (a character choice, house options that change the
menus, a rigged table whose roles do not add up).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from types import SimpleNamespace
from typing import Any

from ...engine.restart import Plans, restart
from ...engine import Game, Match
from ...engine.match import copy_data
from .cards import CARDS, CHARACTERS, DECK, NO_CHARACTER, ROLES_BY_COUNT, label
from .rules import NOT_NOW, barrels, clockwise, game, sync

#: Card ids by label (only Stagecoach 9S has two copies).
IDS: dict[str, list[str]] = {}
for _card in DECK:
    IDS.setdefault(label(_card), []).append(_card)

SHOT = re.compile(r" shoots you with (.+?): ")
DUEL = re.compile(r"^Duel with (.+?): ")
REASONS = {"the Barrel": "barrel", "the Dynamite": "dynamite", "the Jail": "jail"}
REASON = re.compile(r"counts for the (\w+)\.")


@game.determinizer
def determinize(g: Game, observation: dict[str, Any], seat: int, rng: random.Random,
                **beliefs: Any) -> Match | None:
    """A headless match at the decision ``seat`` observes (``beliefs`` a search may pass are not used)."""
    plan = _plans.get(g, observation, seat)
    if plan is None:
        return None
    try:
        return plan.sample(rng)
    except (KeyError, ValueError, IndexError, TypeError, AttributeError):
        return None


class _Plan:
    """One observation, read once: the public state and where the unseen cards and roles go.

    A search asks for many samples of one observation; each deals the unseen
    cards and roles again and restarts the match at the observed phase.
    """

    def __init__(self, g: Game, observation: dict[str, Any], seat: int, players: list[dict[str, Any]],
                 state: dict[str, Any], unknown_cards: list[str], hands: dict[int, int], under: int,
                 unknown_roles: list[int], roles: list[str], answered: list[int], waiting: set[int] | None = None):
        self.game = g
        self.observation = observation
        self.seat = seat
        self.players = players
        self.state = state
        self.unknown_cards = unknown_cards
        self.hands = hands
        self.under = under
        self.unknown_roles = unknown_roles
        self.roles = roles
        self.answered = answered
        self.waiting = waiting or set()

    def sample(self, rng: random.Random) -> Match | None:
        players = copy_data(self.players)
        state = copy_data(self.state)
        cards = list(self.unknown_cards)
        rng.shuffle(cards)
        for owner, size in self.hands.items():
            players[owner]["hand"] = [cards.pop() for _ in range(size)]
        top = state["discard"]
        state["discard"] = [cards.pop() for _ in range(self.under)] + top
        state["deck"] = cards
        roles = list(self.roles)
        rng.shuffle(roles)
        for owner, role in zip(self.unknown_roles, roles):
            players[owner]["role"] = role
        observation = self.observation
        match = restart(self.game, list(observation["players"]), players, state, observation["phase"]["id"],
                        rng.getrandbits(32), version=observation["version"])
        decision = match.decision
        if decision is not None:  # Sid Ketchum let this decision go by already ("Not now")
            for other in list(decision.pending):
                if other not in self.waiting and NOT_NOW in decision.offers.get(other, []):
                    decision.answers[other] = NOT_NOW
        if self.answered and decision is not None:  # answers already given in the window are hidden
            for other in self.answered:
                options = decision.offers.get(other)
                if not options or other in decision.answers:
                    return None
                decision.answers[other] = options[rng.randrange(len(options))]
            match._settle()  # noqa: SLF001 - as the engine does after an answer
        return match

    @classmethod
    def read(cls, g: Game, observation: dict[str, Any], seat: int) -> "_Plan | None":
        shown = observation.get("decision")
        view = observation["state"]
        if observation.get("over") or not shown or seat is None or not shown.get("options"):
            return None
        if view.get("side") or view.get("candidates") or view["stage"] == "setup":
            return None
        names = list(observation["players"])
        count = len(names)
        rows = view["players"]
        index = {name: i for i, name in enumerate(names)}
        phase_id = observation["phase"]["id"]
        active = index[view["active"]]

        # -- the cards everyone (or this seat) can see, as card ids -----------------------
        free = {text: list(ids) for text, ids in IDS.items()}

        def ids(texts: list[str]) -> list[str]:
            return [free[text].pop(0) for text in texts]

        players = []
        dying = []
        for owner, row in enumerate(rows):
            character = row["character"] or ""
            alive = row["alive"]
            if not alive and row["role"] is None and owner != seat:
                dying.append(owner)  # out, but the card that killed him is still resolving
            player = {
                "name": names[owner], "id": owner + 1, "role": row["role"] or "",
                "is_role_revealed": row["role"] == "Sheriff" or count == 3 or (not alive and owner not in dying),
                "character": character,
                "character_ability": CHARACTERS[character].ability if character else NO_CHARACTER.ability,
                "is_alive": alive, "health": row["health"], "max_health": row["max_health"],
                "hand": ids(row["hand"]) if owner == seat else [], "table": ids(row["table"]),
                "seat_index": owner, "bangs_played_this_turn": 0, "hand_limit_modifier": 0,
            }
            players.append(player)
        shim = SimpleNamespace(players=players)
        for owner in range(count):
            sync(shim, owner)  # type: ignore[arg-type] - sync reads only the players
        top = ids([view["discard_top"]]) if view.get("discard_top") else []
        store, flipped = ids(view.get("store") or []), ids(view.get("flipped") or [])
        kit = ids(view.get("kit") or [])
        unknown_cards = sorted(card for texts in free.values() for card in texts)
        hands = {owner: row["hand_size"] for owner, row in enumerate(rows) if owner != seat and row["hand_size"]}
        under = view["discard_size"] - len(top)
        if under < 0 or sum(hands.values()) + under + view["deck_size"] != len(unknown_cards):
            return None

        # -- the roles not seen -----------------------------------------------------------------
        composition = ROLES_BY_COUNT.get(count)
        if composition is None:
            return None
        roles = Counter(composition)
        roles.subtract(p["role"] for p in players if p["role"])
        unknown_roles = [owner for owner, p in enumerate(players) if not p["role"]]
        if min(roles.values()) < 0 or sum(roles.values()) != len(unknown_roles):
            return None

        # -- the engine state at this decision ------------------------------------------------------
        state = copy_data(g.binding.state)
        state["turn"].update(seat=active, number=1, stage=view["stage"])
        state.update(discard=top, store=store, flipped=flipped, kit=kit, deck=[],
                     dying=[{"seat": owner, "source": active} for owner in dying])
        state["hunt"] = view.get("hunt") or ""
        prompt = view.get("prompt")
        if prompt:
            asked = [index[name] for name in prompt["players"]]
            text = prompt.get("text") or prompt.get("question") or ""
            sizes = [row["hand_size"] for row in rows]
            prompted = seat if seat in asked or not asked else asked[0]  # Sid may stand beside another
            if not _prompt(state, players, prompt["kind"], asked, prompted, active, text, top, sizes):
                return None
            if prompt["kind"] == "order":  # the cards already put on the pile are those not offered
                offered = {o.removeprefix("Discard ") for o in shown["options"]} if prompted == seat else set()
                mine = players[prompted]["hand"] + players[prompted]["table"]
                state["order"] = {str(prompted): [c for c in mine if label(c) not in offered]
                                  if prompted == seat else []}
        waiting = {index[name] for name in shown["waiting"]}
        answered = []
        if shown["kind"] == "all_players_action" and prompt:
            answered = [owner for owner in (index[name] for name in prompt["players"]) if owner not in waiting]

        # -- the active player's BANG! this turn: as his options say --------------------------------
        for bangs in (0, 1):
            players[active]["bangs_played_this_turn"] = max(bangs, players[active]["bangs_played_this_turn"])
            result = cls(g, observation, seat, players, state, unknown_cards, hands, under, unknown_roles,
                         sorted(roles.elements()), answered, waiting)
            probe = result.sample(random.Random(0))
            if probe is not None and set(probe.legal(seat)) == set(shown["options"]):
                return result
            if seat != active or phase_id != 6:
                break
        return None


_plans = Plans(_Plan.read)


def _prompt(state: dict[str, Any], players: list[dict[str, Any]], kind: str, asked: list[int], seat: int,
            active: int, text: str, top: list[str], sizes: list[int]) -> bool:
    """Set the prompt, the queue and the Missed! still needed for a pending reaction."""
    queue: list[dict[str, Any]] = []
    shim = SimpleNamespace(players=players)
    others = [s for s in clockwise(shim, active) if s != active]  # type: ignore[arg-type]
    if kind == "shot":
        found = SHOT.search(text)
        card = IDS.get(found.group(1), [None])[0] if found else None
        if card is None:
            return False
        prompt = {"kind": "shot", "seat": seat, "source": active, "card": card}
        state["need"] = {str(seat): 2 if "two Missed!" in text else 1}
        players[active]["bangs_played_this_turn"] = 1
    elif kind == "duel":
        found = DUEL.search(text)
        other = next((s for s, p in enumerate(players) if found and p["name"] == found.group(1)), None)
        if other is None:
            return False
        prompt = {"kind": "duel", "seat": seat, "other": other, "challenger": active}
    elif kind == "save":
        if state["turn"]["stage"] == "predraw":  # only the Dynamite hurts before the draw
            prompt = {"kind": "save", "seat": seat, "source": None, "amount": 3}
            queue = [{"do": "jail"}, {"do": "begin_draw"}]
        else:
            prompt = {"kind": "save", "seat": seat, "source": None if seat == active else active, "amount": 1}
    elif kind == "pick":
        found = REASON.search(text)
        reason = REASONS.get(f"the {found.group(1)}") if found else None
        if reason is None:
            return False
        prompt = {"kind": "pick", "seat": seat, "reason": reason}
        if reason == "dynamite":
            queue = [{"do": "jail"}, {"do": "begin_draw"}]
        elif reason == "jail":
            queue = [{"do": "begin_draw"}]
        elif top and CARDS[top[0]].name == "Gatling":  # a Gatling: the later Barrels, then the answers
            state["need"] = {str(s): 1 for s in others}
            later = others[others.index(seat) + 1:] if seat in others else []
            queue = [t for s in later for t in barrels(shim, s)]  # type: ignore[arg-type]
            queue.append({"do": "group", "kind": "gatling", "seats": others, "source": active})
        else:  # a BANG!: the shot follows the "draw!"
            slab = players[active]["character"] == "Slab the Killer"
            state["need"] = {str(seat): 2 if slab else 1}
            card = top[0] if top else IDS["BANG! AS"][0]
            queue = [{"do": "shot", "seat": seat, "source": active, "card": card}]
            players[active]["bangs_played_this_turn"] = 1
    elif kind == "store":
        prompt = {"kind": "store", "seat": seat}
        order = clockwise(shim, active)  # type: ignore[arg-type]
        later = order[order.index(seat) + 1:] if seat in order else []
        queue = [{"do": "store", "seat": s} for s in later] + [{"do": "store_end"}]
    elif kind == "draw":
        prompt = {"kind": "draw", "seat": seat}
    elif kind == "order":
        prompt = {"kind": "order", "seat": seat, "source": None if seat == active else active}
    elif kind in ("gatling", "indians"):
        if kind == "gatling":  # a hand that is not asked avoided it with a Barrel; an empty one takes it
            order = [s for s in others if s in asked or sizes[s] == 0]
            state["need"] = {str(s): 1 if s in order else 0 for s in others}
        else:
            order = others
        prompt = {"kind": kind, "seats": asked, "source": active, "order": order}
    else:
        return False
    state["reaction"]["prompt"] = prompt
    state["queue"] = queue
    return True
