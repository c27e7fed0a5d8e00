"""Scenario support for BANG!: the setup check (card conservation) and the ``expect`` keys.

Setup keys and expect keys are documented in ``rules.py`` and ``docs/games/bang.md``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .cards import CARDS, CHARACTERS, DECK, WEAPONS, label, parse_label
from .board import (ROLE_NAMES, SETUP_KEYS, active, distance, game, hand, labels, nm, reach)

COPIES = Counter(label(c) for c in DECK)


@game.check_setup
def check_setup(setup: dict[str, Any], players: int) -> list[str]:
    """Every card named at most as often as it exists; sensible roles, characters and equipment."""
    problems: list[str] = []
    unknown = set(setup) - set(SETUP_KEYS)
    if unknown:
        problems.append(f"unknown setup key(s): {', '.join(sorted(unknown))} (known: {', '.join(SETUP_KEYS)})")
    for key in ("roles", "characters", "health", "hands", "equipment"):
        if not isinstance(setup.get(key) or {}, dict):
            return problems + [f"setup.{key} must be a mapping (player: …), not {setup[key]!r}"]
    for key in ("roles", "characters"):
        for who, value in (setup.get(key) or {}).items():
            if value is not None and not isinstance(value, str):
                problems.append(f"setup.{key}.{who} must be one name, not {value!r}")
    if not isinstance(setup.get("dead") or [], list):
        return problems + [f"setup.dead must be a list of players, not {setup['dead']!r}"]
    if problems:
        return problems
    named: list[str] = []
    places: list[tuple[str, Any]] = [(f"hands.{who}", cards) for who, cards in (setup.get("hands") or {}).items()]
    places += [(f"equipment.{who}", cards) for who, cards in (setup.get("equipment") or {}).items()]
    places += [("deck", setup.get("deck") or []), ("discard", setup.get("discard") or [])]
    for where, cards in places:
        if not isinstance(cards, list):
            problems.append(f"setup.{where} must be a list of cards")
            continue
        for text in cards:
            if parse_label(str(text)) is None or str(text) not in COPIES:
                problems.append(f"setup.{where}: {text!r} is not a BANG! card (write it like 'BANG! 10D')")
            else:
                named.append(str(text))
    for text, count in Counter(named).items():
        if text in COPIES and count > COPIES[text]:
            problems.append(f"{text} is named {count} times but the deck has {COPIES[text]}: "
                            "every card must be in exactly one place")
    roles = setup.get("roles") or {}
    for who, role in roles.items():
        if role not in ROLE_NAMES:
            problems.append(f"setup.roles.{who}: {role!r} is not a role ({', '.join(ROLE_NAMES)})")
    if list(roles.values()).count("Sheriff") > 1:
        problems.append("setup.roles: only one Sheriff")
    if players == 3 and ("Sheriff" in roles.values() or len(set(roles.values())) != len(roles)):
        problems.append("setup.roles: with 3 players the roles are one Deputy, one Outlaw and one Renegade")
    characters = setup.get("characters") or {}
    for who, character in characters.items():
        if character and character not in CHARACTERS:
            problems.append(f"setup.characters.{who}: {character!r} is not a character")
    given = [c for c in characters.values() if c]
    if len(set(given)) != len(given):
        problems.append("setup.characters: each character only once")
    for who, health in (setup.get("health") or {}).items():
        if not isinstance(health, int) or isinstance(health, bool) or not 1 <= health <= 5:
            problems.append(f"setup.health.{who}: {health!r} must be a life total from 1 to 5")
    for who, cards in (setup.get("equipment") or {}).items():
        cards = [str(c) for c in cards or [] if str(c) in COPIES]
        kinds = [CARDS[next(d for d in DECK if label(d) == c)] for c in cards]
        if any(k.border != "blue" for k in kinds):
            problems.append(f"setup.equipment.{who}: only blue cards are put in play")
        names = Counter(k.name for k in kinds)
        if any(n > 1 for n in names.values()):
            problems.append(f"setup.equipment.{who}: two cards with the same name")
        if sum(n for k, n in names.items() if k in WEAPONS) > 1:
            problems.append(f"setup.equipment.{who}: one weapon at most")
        if "Jail" in names and roles.get(who) == "Sheriff":
            problems.append(f"setup.equipment.{who}: the Sheriff cannot be in Jail")
    for who in setup.get("dead") or []:
        if (setup.get("hands") or {}).get(who) or (setup.get("equipment") or {}).get(who):
            problems.append(f"setup: {who} is dead and cannot hold cards")
        if who in (setup.get("health") or {}):
            problems.append(f"setup: {who} is dead and has no life to set")
    dead = set(setup.get("dead") or [])
    if dead and len(roles) == players:  # every role named: refused here (otherwise when they are dealt)
        alive = [r for who, r in roles.items() if who not in dead]
        if (len(alive) < 2) if players == 3 else ("Sheriff" not in alive or not {"Outlaw", "Renegade"} & set(alive)):
            problems.append(f"setup.dead: the game would be over before it starts (alive: "
                            f"{', '.join(f'{who} ({r})' for who, r in roles.items() if who not in dead) or 'nobody'})")
    if not 3 <= players <= 8:
        problems.append(f"BANG! takes 3 to 8 players, not {players}")
    return problems


def _per(key: str, ordered: bool = False):  # noqa: ANN202 - decorator shorthand
    return game.expect(key, ordered=ordered)


_per("health")(lambda m, s: max(0, m.players[s]["health"]))
_per("max_health")(lambda m, s: m.players[s]["max_health"])
_per("hand")(lambda m, s: labels(hand(m, s)))
_per("hand_size")(lambda m, s: len(hand(m, s)))
_per("equipment")(lambda m, s: labels(m.players[s]["table"]))
_per("role")(lambda m, s: m.players[s]["role"])
_per("role_revealed")(lambda m, s: m.players[s]["is_role_revealed"])
_per("character")(lambda m, s: m.players[s]["character"])
_per("bangs")(lambda m, s: m.players[s]["bangs_played_this_turn"])
_per("range")(lambda m, s: reach(m, s))
_per("distance")(lambda m, s: {nm(m, o): max(1, distance(m, s, o)) for o in range(len(m.players))
                               if o != s and m.players[o]["is_alive"]})
game.expect("discard_top", per_player=False)(
    lambda m: label(m.state["discard"][-1]) if m.state["discard"] else None)
# `discard` is a multiset, as the scenario format compares every list but `deck`; `discard_order` is the pile
# top first, compared in order (what Pedro Ramirez and a dying player's choice decide).
game.expect("discard", per_player=False)(lambda m: labels(m.state["discard"]))
game.expect("discard_order", per_player=False, ordered=True)(lambda m: labels(list(reversed(m.state["discard"]))))
game.expect("discard_size", per_player=False)(lambda m: len(m.state["discard"]))
game.expect("deck", per_player=False, ordered=True)(lambda m: labels(m.state["deck"]))
game.expect("deck_size", per_player=False)(lambda m: len(m.state["deck"]))
game.expect("side", per_player=False)(lambda m: m.state["side"] or None)
game.expect("active", per_player=False)(lambda m: nm(m, active(m)))
game.expect("stage", per_player=False)(lambda m: m.state["turn"]["stage"])
game.expect("store", per_player=False)(lambda m: labels(m.state["store"]))


def all_cards(m: Any) -> Counter:
    """Every card id wherever it is: must always be the 80 cards exactly once."""
    ids = list(m.state["deck"]) + list(m.state["discard"]) + list(m.state["store"]) \
        + list(m.state["kit"]) + list(m.state["flipped"])
    for p in m.players:
        ids += p["hand"] + p["table"]
    return Counter(ids)
