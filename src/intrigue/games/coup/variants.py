"""Coup's official variants as data: which characters are in play, what each action
claims, who may block it, and the Reformation's allegiances.

The game options (``docs/games/coup.md``):

- ``characters``: ``ambassador`` (default) or ``inquisitor``: the fifth character.
  Only five characters are ever in play; claims and blocks naming the absent one
  are not offered.
- ``reformation``: allegiances (Loyalist / Reformist), the targeting restriction
  and its exception, Convert, Embezzle and the Treasury Reserve.
- ``choose_allegiance``: with Reformation, the start player chooses a side instead
  of a random one.
- ``two_player_setup``: ``simple`` (default) or ``official`` (the rulebook's
  two-player set-up; no effect at other player counts).

Everything here reads the match (or its options) and changes nothing.
"""

from __future__ import annotations

from typing import Any, Mapping

LOYALIST, REFORMIST = "Loyalist", "Reformist"
ALLEGIANCES = (LOYALIST, REFORMIST)
#: Embezzle claims *not* to hold a Duke (an inverse claim, challenged in reverse).
NO_DUKE = "no Duke"
#: What Convert costs, paid onto the Treasury Reserve.
CONVERT_SELF, CONVERT_OTHER = 1, 2
#: Actions aimed at a player that the allegiance restriction applies to.
RESTRICTED = ("Coup", "Assassinate", "Steal", "Examine")
#: Option values each option accepts.
CHOICES = {"characters": ("ambassador", "inquisitor"), "two_player_setup": ("simple", "official")}


def fifth(options: Mapping[str, Any]) -> str:
    """The character that exchanges with the court: the Ambassador or the Inquisitor."""
    return "Inquisitor" if options.get("characters") == "inquisitor" else "Ambassador"


def characters(options: Mapping[str, Any] | None = None) -> tuple[str, ...]:
    """The five characters in play."""
    return ("Duke", "Assassin", fifth(options or {}), "Captain", "Contessa")


def copies(players: int) -> int:
    """Copies of each character: 3 for 2–6 players, 4 for 7–8, 5 for 9–10."""
    return 3 if players <= 6 else 4 if players <= 8 else 5


def court(players: int, options: Mapping[str, Any] | None = None) -> list[str]:
    return [character for character in characters(options) for _ in range(copies(players))]


def claims(options: Mapping[str, Any]) -> dict[str, str]:
    """What each claim-based action claims under these options."""
    table = {"Tax": "Duke", "Assassinate": "Assassin", "Steal": "Captain", "Exchange": fifth(options)}
    if fifth(options) == "Inquisitor":
        table["Examine"] = "Inquisitor"
    if options.get("reformation"):
        table["Embezzle"] = NO_DUKE
    return table


def blockers(options: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """Who may block what, by the character claimed."""
    return {"Foreign Aid": ("Duke",), "Assassinate": ("Contessa",),
            "Steal": tuple(sorted(("Captain", fifth(options))))}


def holds(hand: list[str], claim: str) -> bool:
    """Whether a hand makes a claim true (``no Duke`` is true without a Duke)."""
    if claim == NO_DUKE:
        return "Duke" not in hand
    return claim in hand


def check_options(options: Mapping[str, Any], players: int) -> list[str]:
    problems = []
    for key, allowed in CHOICES.items():
        if options.get(key) not in allowed:
            problems.append(f"option {key} must be {' or '.join(allowed)}, not {options.get(key)!r}")
    for key in ("reformation", "choose_allegiance"):
        if not isinstance(options.get(key), bool):
            problems.append(f"option {key} must be true or false, not {options.get(key)!r}")
    return problems


# -- allegiances (Reformation) -------------------------------------------------------------
def reformation(m: Any) -> bool:
    return bool(m.options.get("reformation"))


def allegiance(m: Any, seat: int) -> str:
    return m.state["allegiance"][seat] if reformation(m) else ""


def reunified(m: Any) -> bool:
    """Every living player has the same allegiance: the restrictions are off (plain Coup)."""
    sides = {m.state["allegiance"][seat] for seat, p in enumerate(m.players) if p["is_alive"]}
    return len(sides) <= 1


def may_target(m: Any, seat: int, victim: int) -> bool:
    """Coup, Assassinate, Steal and Examine spare your own side while two sides are alive."""
    return not m.options.get("reformation") or reunified(m) or allegiance(m, seat) != allegiance(m, victim)


def may_block_foreign_aid(m: Any, seat: int, taker: int) -> bool:
    """Nobody blocks the Foreign Aid of their own side while two sides are alive."""
    return may_target(m, seat, taker)


def opposite(side: str) -> str:
    return REFORMIST if side == LOYALIST else LOYALIST


def alternate(players: int, start: int, side: str) -> list[str]:
    """The start player's side, then clockwise each the opposite of the player before."""
    sides = [""] * players
    for step in range(players):
        sides[(start + step) % players] = side if step % 2 == 0 else opposite(side)
    return sides
