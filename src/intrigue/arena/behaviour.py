"""How agents behave, measured against the hidden truth.

The arena keeps every match as (game, names, seed, options, choices) and
replays it here on a fresh match, so at each choice it knows what the chooser
could not show: whether a claim was a bluff, whether a challenge was right, who
is on which team. Agents are never given any of this; it only feeds the report.

- Coup: claims and bluffs (actions and blocks naming a character), blocks,
  challenge chances, challenges and right challenges (``bots/habits.py``).
- Team games (a ``team`` or ``role`` field; BANG!'s Sheriff and Deputies are one
  side): choices that name a player (an accusation, a peek, a shot) and how many
  of them name a player of another team; votes for an accusation (Heist's
  ``Guilty``, DSFGS's ``Support Reveal``) and how many of them were against a
  player of another team.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from ..bots.habits import coup_habits
from ..engine import Game, Match

#: Options that vote for the standing accusation (``game.accused``), by game.
VOTES_FOR = {"Guilty", "Support Reveal"}
#: BANG!'s sides: the Sheriff and his Deputies are one.
SIDES = {"Sheriff": "law", "Deputy": "law", "Outlaw": "outlaws", "Renegade": "renegade"}


def team_of(match: Match, seat: int) -> str | None:
    player = match.players[seat]
    team = player.get("team") or player.get("role")
    return SIDES.get(team, team) if isinstance(team, str) and team else None


def _target(match: Match, option: str) -> int | None:
    """The player an option names (``Aria``, ``Steal Aria``, ``BANG! 5D at Aria``), if exactly one."""
    found = [seat for seat, name in enumerate(match.names)
             if option == name or option.endswith(" " + name)]
    return found[0] if len(found) == 1 else None


def team_habits(match: Match, seat: int, option: str, tally: Counter) -> None:
    mine = team_of(match, seat)
    if mine is None:
        return
    target = _target(match, option)
    if target is not None and target != seat:
        tally["picks"] += 1
        tally["picks_other_team"] += team_of(match, target) != mine
    accused = match.state.get("accused")
    if option in VOTES_FOR and isinstance(accused, int) and 1 <= accused <= len(match.players):
        tally["votes"] += 1
        tally["votes_other_team"] += team_of(match, accused - 1) != mine


def coup_and_blocks(match: Match, seat: int, option: str, tally: Counter) -> None:
    coup_habits(match, seat, option, tally)
    if option.startswith("Block "):
        tally["blocks"] += 1


def counter_for(game: Game) -> Callable[[Match, int, str, Counter], None]:
    return coup_and_blocks if game.id == "coup" else team_habits


def replay(game: Game, names: list[str], seed: int, options: dict[str, Any],
           choices: list[tuple[int, str]]) -> tuple[Match, list[Counter]]:
    """Re-play a match's choices; each seat's tally of habits, and the finished match.

    Timer phases wait for their clock as they did when the match was played (locally or on a
    server): the choices hold the presses that ended one early and the clock's own moves."""
    match = Match(game, names, seed, options, headless=True, timers=True)
    count = counter_for(game)
    tallies = [Counter() for _ in names]
    for seat, option in choices:
        if len(match.legal(seat)) > 1:
            count(match, seat, option, tallies[seat])
        match.choose(seat, option)
    return match, tallies


def summary(tally: Counter) -> dict[str, Any]:
    """Counts and the rates the report shows (``None`` where there was nothing to count)."""
    def share(part: str, whole: str) -> float | None:
        return round(tally[part] / tally[whole], 4) if tally[whole] else None

    return {**{key: tally[key] for key in sorted(tally)},
            "bluff_rate": share("bluffs", "claims"),
            "challenge_rate": share("challenges", "chances"),
            "challenge_accuracy": share("right", "challenges"),
            "other_team_picks": share("picks_other_team", "picks"),
            "other_team_votes": share("votes_other_team", "votes")}
