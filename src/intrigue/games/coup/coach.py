"""Why the coach suggests a move in Coup: a catalogue of reasons a newcomer understands.

The coach (``bots/coach.py``) asks the search bot for a suggestion, then asks
this module for a fact that makes it good. Every fact is read from what the
seat observes and nothing else:

- its own unrevealed cards (the only face-down cards it may read),
- the cards face up on the table (lost influences), and the two it drew in an
  Exchange it is making,
- coins, who is alive and how many cards each still hides,
- the public log's claims (``declare`` and ``block`` events, docs/games/coup.md).

An opponent's face-down card is never read, even if an observation carried one
(``tests/bots/test_coach.py`` feeds such forged observations and checks the
reason does not change). "Accounted for" means in the seat's hand or face up:
if every copy of a character is accounted for, nobody else can hold one.

Each template is the English sentence; the game's table catalogs
(``table/<lang>.json``) translate it like any string the game sends. When no
fact supports the suggestion, :func:`explain` returns ``None`` and the coach
says what the search measured instead.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from .board import CHARACTERS, court_size, game

CHALLENGE_ALL = "All {copies} {character} cards are in your hand or face up: {player} cannot have one, so challenge."
CHALLENGE_MOST = "{count} of the {copies} {character} cards are in your hand or face up: {player} is unlikely to hold one."
CHALLENGE_LAST_CARD = "{player}'s assassination would take your last card: challenging is your best chance."
PASS_LAST_CARD = "You have one card left: a failed challenge would put you out."
BLOCK_HOLD = "You hold a {character}, so your block stands even if someone challenges it."
BLOCK_LAST_CARD = "Without a block this assassination takes your last card: claiming {character} is worth the risk."
BLOCK_UNSEEN = "{count} of the {copies} {character} cards are out of sight, so nobody can prove you lack one."
TAX_HOLD = "You hold a Duke: Tax gives you 3 coins and a challenge would fail."
TAX_UNSEEN = "Tax gives 3 coins, and {count} of the {copies} Duke cards are out of sight, so your claim is believable."
INCOME_DUKE = "{player} has claimed a Duke and could block Foreign Aid: Income's 1 coin is safe."
INCOME = "Income gives 1 coin that nobody can block or challenge."
AID_NO_DUKE = "Nobody has claimed a Duke yet: Foreign Aid's 2 coins are likely to go through."
AID_ALL_DUKES = "All {copies} Duke cards are in your hand or face up: only a bluff can block your Foreign Aid."
COUP_FORCED = "With 10 or more coins you must launch a Coup."
COUP_OUT = "You have {coins} coins: a Coup cannot be blocked or challenged, and it knocks {player} out."
COUP = "You have {coins} coins: a Coup cannot be blocked or challenged."
ASSASSINATE_NO_CONTESSA = ("All {copies} Contessa cards are in your hand or face up: only a bluff can block "
                           "your assassination of {player}.")
ASSASSINATE_HOLD_UNCLAIMED = ("You hold an Assassin and nobody has claimed a Contessa yet: assassinating {player} "
                              "is likely to work.")
ASSASSINATE_UNCLAIMED = "Nobody has claimed a Contessa yet: assassinating {player} is likely to work."
ASSASSINATE_HOLD = "You hold an Assassin, so a challenge cannot stop your assassination of {player}."
STEAL_HOLD = "You hold a Captain: stealing 2 coins from {player} survives a challenge."
STEAL_RICHEST = "{player} has the most coins ({coins}): taking 2 of them slows {player} down."
EXCHANGE_HOLD = "You hold an Ambassador: Exchange swaps your cards for better ones, and a challenge would fail."
LOSE_SAME = "Both your cards are {character}: it makes no difference which one you lose."
KEEP = {
    "Duke": "Keep your Duke: it takes Tax (3 coins) and blocks Foreign Aid.",
    "Assassin": "Keep your Assassin: for 3 coins it takes away another player's card.",
    "Captain": "Keep your Captain: it steals 2 coins and blocks stealing.",
    "Ambassador": "Keep your Ambassador: it swaps cards with the court and blocks stealing.",
    "Contessa": "Keep your Contessa: it blocks assassination.",
    "Inquisitor": "Keep your Inquisitor: it exchanges a card with the court, examines another player's card "
                  "and blocks stealing.",
}

#: Every template here, for the catalogs (each is a key of ``table/<lang>.json``).
TEMPLATES = (CHALLENGE_ALL, CHALLENGE_MOST, CHALLENGE_LAST_CARD, PASS_LAST_CARD, BLOCK_HOLD, BLOCK_LAST_CARD,
             BLOCK_UNSEEN, TAX_HOLD, TAX_UNSEEN, INCOME_DUKE, INCOME, AID_NO_DUKE, AID_ALL_DUKES, COUP_FORCED,
             COUP_OUT, COUP, ASSASSINATE_NO_CONTESSA, ASSASSINATE_HOLD_UNCLAIMED, ASSASSINATE_UNCLAIMED,
             ASSASSINATE_HOLD, STEAL_HOLD, STEAL_RICHEST, EXCHANGE_HOLD, LOSE_SAME, *KEEP.values())

#: Phases (coup.yaml) whose Challenge is of the block rather than of the action.
BLOCK_CHALLENGE_PHASES = {13}

Reason = tuple[str, dict[str, Any]]


@dataclass
class Sight:
    """What one seat can see of Coup, read once from its observation."""

    seat: int
    names: list[str]
    hand: list[str]                 # my face-down cards
    accounted: Counter              # my hand + every face-up card + an Exchange's drawn pair
    copies: int                     # how many of each character the court holds
    coins: list[int]
    alive: list[bool]
    hidden: list[int]               # face-down cards each player still has
    claims: list[set[str]]          # characters each player has claimed in the public log
    state: dict[str, Any]
    phase: int

    @classmethod
    def of(cls, observation: dict[str, Any], seat: int) -> "Sight":
        state = observation["state"]
        players = state["players"]
        names = list(observation["players"])
        me = players[seat]
        hand = [slot["character"] for slot in me["influences"] if not slot["revealed"] and slot["character"]]
        face_up = [slot["character"] for p in players for slot in p["influences"]
                   if slot["revealed"] and slot["character"]]
        drawn = list(state.get("exchange_drawn") or [])
        claims: list[set[str]] = [set() for _ in names]
        for entry in observation.get("log", []):
            if entry.get("event") in ("declare", "block") and entry.get("character") and \
                    isinstance(entry.get("seat"), int) and 0 <= entry["seat"] < len(names):
                claims[entry["seat"]].add(entry["character"])
        return cls(seat, names, hand, Counter(hand) + Counter(face_up) + Counter(drawn),
                   court_size(len(names)) // len(CHARACTERS), [p["coins"] for p in players],
                   [p["alive"] for p in players], [sum(1 for s in p["influences"] if not s["revealed"]) for p in players],
                   claims, state, observation["phase"]["id"])

    def seat_of(self, name: str | None) -> int | None:
        return self.names.index(name) if name in self.names else None

    def opponents(self) -> list[int]:
        return [s for s in range(len(self.names)) if s != self.seat and self.alive[s]]

    def claimed_by_opponent(self, character: str) -> int | None:
        """A living opponent who has claimed ``character`` in the log (the first in seat order)."""
        return next((s for s in self.opponents() if character in self.claims[s]), None)

    def unseen(self, character: str) -> int:
        return max(0, self.copies - self.accounted[character])


@game.explainer
def explain(observation: dict[str, Any], seat: int, option: str, stats: dict[str, Any]) -> Reason | None:
    """A fact from ``seat``'s observation that makes ``option`` good, or ``None``."""
    see = Sight.of(observation, seat)
    verb, _, rest = option.partition(" ")
    if option == "Challenge":
        return _challenge(see)
    if option == "Pass":
        if "Challenge" in observation["decision"]["options"] and see.hidden[seat] == 1:
            return PASS_LAST_CARD, {}
        return None
    if verb == "Block":
        return _block(see, rest)
    if option == "Tax":
        if "Duke" in see.hand:
            return TAX_HOLD, {}
        if see.unseen("Duke"):
            return TAX_UNSEEN, {"count": see.unseen("Duke"), "copies": see.copies}
        return None
    if option == "Income":
        claimant = see.claimed_by_opponent("Duke")
        return (INCOME_DUKE, {"player": see.names[claimant]}) if claimant is not None else (INCOME, {})
    if option == "Foreign Aid":
        if see.accounted["Duke"] >= see.copies:
            return AID_ALL_DUKES, {"copies": see.copies}
        if see.claimed_by_opponent("Duke") is None:
            return AID_NO_DUKE, {}
        return None
    if option == "Exchange":
        return (EXCHANGE_HOLD, {}) if "Ambassador" in see.hand else None
    if verb == "Lose":
        return _lose(see, rest)
    target = see.seat_of(rest)
    if target is None:
        return None
    if verb == "Coup":
        coins = see.coins[seat]
        if coins >= 10:
            return COUP_FORCED, {}
        if see.hidden[target] == 1:
            return COUP_OUT, {"coins": coins, "player": rest}
        return COUP, {"coins": coins, "player": rest}
    if verb == "Assassinate":
        return _assassinate(see, target, rest)
    if verb == "Steal":
        if "Captain" in see.hand:
            return STEAL_HOLD, {"player": rest}
        richest = max(see.coins[s] for s in see.opponents())
        if see.coins[target] == richest and richest >= 2 and \
                sum(1 for s in see.opponents() if see.coins[s] == richest) == 1:
            return STEAL_RICHEST, {"player": rest, "coins": richest}
    return None


def _challenge(see: Sight) -> Reason | None:
    if see.phase in BLOCK_CHALLENGE_PHASES:
        claimant, character = see.seat_of(see.state.get("blocker")), see.state.get("block_claim")
    else:
        claimant, character = see.seat_of(see.state.get("active")), see.state.get("claim")
    if claimant is None or not character:
        return None
    player = see.names[claimant]
    held = see.accounted[character]
    if held >= see.copies:
        return CHALLENGE_ALL, {"copies": see.copies, "character": character, "player": player}
    if held == see.copies - 1:
        return CHALLENGE_MOST, {"count": held, "copies": see.copies, "character": character, "player": player}
    if see.phase not in BLOCK_CHALLENGE_PHASES and see.state.get("action") == "Assassinate" and \
            see.state.get("target") == see.names[see.seat] and see.hidden[see.seat] == 1:
        return CHALLENGE_LAST_CARD, {"player": player}
    return None


def _block(see: Sight, character: str) -> Reason | None:
    if character in see.hand:
        return BLOCK_HOLD, {"character": character}
    if see.state.get("action") == "Assassinate" and see.hidden[see.seat] == 1:
        return BLOCK_LAST_CARD, {"character": character}
    if see.unseen(character):
        return BLOCK_UNSEEN, {"count": see.unseen(character), "copies": see.copies, "character": character}
    return None


def _assassinate(see: Sight, target: int, name: str) -> Reason | None:
    if see.accounted["Contessa"] >= see.copies:
        return ASSASSINATE_NO_CONTESSA, {"copies": see.copies, "player": name}
    unclaimed = see.claimed_by_opponent("Contessa") is None
    if "Assassin" in see.hand:
        return (ASSASSINATE_HOLD_UNCLAIMED if unclaimed else ASSASSINATE_HOLD), {"player": name}
    return (ASSASSINATE_UNCLAIMED, {"player": name}) if unclaimed else None


def _lose(see: Sight, character: str) -> Reason | None:
    if len(see.hand) != 2 or character not in see.hand:
        return None
    kept = see.hand[1] if see.hand[0] == character else see.hand[0]
    if kept == character:
        return LOSE_SAME, {"character": character}
    return (KEEP[kept], {}) if kept in KEEP else None
