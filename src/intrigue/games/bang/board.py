"""BANG!'s board: the binding and the vocabulary every part of the game reads.

The rules (``rules.py``), the table drawing (``view.py``) and the scenario keys
(``scenarios.py``) all speak of seats, hands, distances and the pending prompt;
those words live here, below all three, so that none of them imports another's
internals in a circle.
"""

from __future__ import annotations

from typing import Any

from ...engine import GameBinding, Match
from .cards import CARDS, NAMES, WEAPONS, label

ROLE_NAMES = ("Sheriff", "Deputy", "Outlaw", "Renegade")
BLUE_SELF = ("Barrel", "Scope", "Mustang", "Dynamite") + tuple(WEAPONS)
SIMPLE = ("Beer", "Saloon", "Stagecoach", "Wells Fargo", "General Store", "Indians!", "Gatling")
RESPONSES = ("shot", "gatling", "duel", "indians", "save")  # never answered automatically
GROUP = ("gatling", "indians", "character")
SETUP_KEYS = ("roles", "characters", "health", "hands", "equipment", "deck", "discard", "dead", "first",
              "shuffle")
#: Sid Ketchum's answer when he lets another player's decision go by.
NOT_NOW = "Not now"
#: Phases in which one player alone chooses (Sid Ketchum may heal beside them).
SINGLE = (5, 6, 7, 12)
#: The DSL's Play Action Step: the active player plays one card or passes.
PLAY_STEP = 6

game = GameBinding(
    "bang",
    title="BANG!",
    dsl="bang.yaml",
    min_players=3,
    max_players=8,
    summary="Wild West hidden roles: the Sheriff and his Deputies against Outlaws and a Renegade "
            "(3 players: Deputy, Outlaw and Renegade hunt each other; 8 players: two Renegades).",
    options={
        "character_choice": 1,            # 1: one character dealt (official); 2: choose 1 of 2
        "duel_challenger_loss": "self",   # "self": no one caused it; "opponent": the target did
        "cat_balou_self": True,           # Cat Balou may discard a card in front of yourself
    },
    state={
        "turn": {"active_index": -1, "seat": 0, "number": 0, "stage": "setup"},
        "reaction": {"current_responder_id": 0, "affected_player_ids": [], "prompt": {}},
        "queue": [],
        "menus": {},
        "deck": [],
        "discard": [],
        "dying": [],
        "eliminated": [],
        "need": {},
        "flipped": [],
        "store": [],
        "kit": [],
        "candidates": {},
        "side": "",
        "hunt": "",       # 3 players: "" while each hunts a target, "last" once it is last man standing
        "order": {},      # the order a dying player chose for their cards (seat -> card ids, first first)
    },
    # The play step offers Pass (end the turn), which the engine's timer rule reads as a window (15 s);
    # it is the active player's turn, each card played a new step: the turn timer.
    timers={PLAY_STEP: "turn"},
)
#: Room options with a fixed set of values (the lobby offers them as a list).
game.option_choices.update({"duel_challenger_loss": ("self", "opponent")})


@game.check_options
def check_options(options: dict[str, Any], players: int) -> list[str]:
    """Values BANG! refuses: what each option means is in docs/games/bang.md."""
    problems = []
    if options.get("duel_challenger_loss") not in ("self", "opponent"):
        problems.append(f"option duel_challenger_loss must be self or opponent, "
                        f"not {options.get('duel_challenger_loss')!r}")
    choice = options.get("character_choice")
    if not isinstance(choice, int) or isinstance(choice, bool) or not 1 <= choice <= 16:
        problems.append(f"option character_choice must be a whole number from 1 to 16, not {choice!r}")
    if not isinstance(options.get("cat_balou_self"), bool):
        problems.append(f"option cat_balou_self must be true or false, not {options.get('cat_balou_self')!r}")
    return problems


# -- the vocabulary the rules are written in -------------------------------------------------------
def nm(m: Match, seat: int | None) -> str:
    return m.names[seat] if seat is not None else "nobody"


def active(m: Match) -> int:
    return m.state["turn"]["seat"]


def alive(m: Match, seat: int) -> bool:
    return m.players[seat]["is_alive"]


def living(m: Match) -> list[int]:
    return [s for s, p in enumerate(m.players) if p["is_alive"]]


def three_player(m: Match) -> bool:
    """The 3-player variant: Deputy, Outlaw and Renegade, face up, each with a personal target."""
    return len(m.players) == 3


def clockwise(m: Match, start: int) -> list[int]:
    """Living players clockwise, starting with ``start`` (included if alive)."""
    n = len(m.players)
    return [(start + i) % n for i in range(n) if m.players[(start + i) % n]["is_alive"]]


def next_living(m: Match, seat: int) -> int:
    n = len(m.players)
    for step in range(1, n + 1):
        if m.players[(seat + step) % n]["is_alive"]:
            return (seat + step) % n
    return seat


def char(m: Match, seat: int) -> str:
    return m.players[seat]["character"]


def hand(m: Match, seat: int) -> list[str]:
    return m.players[seat]["hand"]


def table(m: Match, seat: int) -> list[str]:
    return m.players[seat]["table"]


def in_play(m: Match, seat: int, card_name: str) -> str | None:
    for c in m.players[seat]["table"]:
        if NAMES[c] == card_name:
            return c
    return None


def weapon(m: Match, seat: int) -> str | None:
    for c in m.players[seat]["table"]:
        if NAMES[c] in WEAPONS:
            return c
    return None


def reach(m: Match, seat: int) -> int:
    gun = weapon(m, seat)
    return WEAPONS[NAMES[gun]] if gun else 1


def distance(m: Match, a: int, b: int) -> int:
    """How far ``a`` sees ``b`` (may be below 1: still reachable)."""
    return distances(m, a, [b])[b]


def distances(m: Match, seat: int, others: list[int]) -> dict[int, int]:
    """How far ``seat`` sees each of ``others``: the seats apart around the ring of living players
    (``seat`` and ``others`` in it even if out), the shorter way, plus Mustang and Paul Regret on
    their side, minus Scope and Rose Doolan on ``seat``'s; the ring built once for all of them."""
    players = m.players
    ring = [s for s, p in enumerate(players) if p["is_alive"] or s == seat or s in others]
    where = {s: i for i, s in enumerate(ring)}
    size, here = len(ring), where[seat]
    minus = (in_play(m, seat, "Scope") is not None) + (players[seat]["character"] == "Rose Doolan")
    near = {}
    for o in others:
        gap = abs(here - where[o])
        near[o] = min(gap, size - gap) + (in_play(m, o, "Mustang") is not None) \
            + (players[o]["character"] == "Paul Regret") - minus
    return near


def bang_allowed(m: Match, seat: int) -> bool:
    """One BANG! card per turn, unless Volcanic (checked now) or Willy the Kid."""
    return (m.players[seat]["bangs_played_this_turn"] == 0 or char(m, seat) == "Willy the Kid"
            or in_play(m, seat, "Volcanic") is not None)


def labels(cards: list[str]) -> list[str]:
    return [label(c) for c in cards]


def prompt(m: Match) -> dict[str, Any]:
    return m.state["reaction"]["prompt"]
