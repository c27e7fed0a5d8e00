"""The ``tutorial`` bot: plays a game's guided first game as written, then as a normal bot.

A tutorial room (``POST /api/games/{game}/tutorial``) seats these bots and deals
its first match from the tutorial's seed (``games/tutorials.py``). The server
seeds each seat's bot with ``"<match seed>:<seat>"``, so a bot knows whether it
sits in the tutorial's match: only there does it follow the script; in a rematch
(a new seed), in any other room or in a game without a tutorial it is simply the
tutorial's ``bots`` spec (``random`` without one).

While the script lasts (the match's version is at most ``until``) a seat plays
its next move when that move's phase is the one it is asked in and the move is
offered, drops moves whose ``by`` version has passed, and otherwise plays
``otherwise`` (e.g. ``Pass``) when it is offered, else decides as the fallback bot
(a card to lose, say). A move's ``{0}``, ``{1}``… are the names of the players in
those seats (``"Duel JS at {0}"``), so the script holds whatever name the person
took. A bot made
afresh mid-match (a server restart) drops the moves whose time has passed and
goes on from there.

:func:`walk` plays a tutorial's match without a browser, the person doing what each
step asks, the way ``tutorial.js`` moves through the steps (``intrigue tutorial``
and the tests use it to check that every step is reached, in time).
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .base import Bot, SeatView

if TYPE_CHECKING:
    from ..engine import Game, Match

PERSON = "Zoe"


def named(play: str, players: list[str]) -> str:
    """``play`` with each ``{n}`` replaced by the name of the player in seat n."""
    return re.sub(r"\{(\d+)\}", lambda m: players[int(m.group(1))] if int(m.group(1)) < len(players) else m.group(0),
                  play)


class TutorialBot(Bot):
    kind = "tutorial"

    def __init__(self, seed: int | str = 0, personality: str | None = None):
        super().__init__(seed, personality)
        self.seed = str(seed)
        self.done: dict[int, int] = {}      # seat -> moves of its script played or dropped
        self._fallback: Bot | None = None

    @classmethod
    def available(cls) -> bool:
        """Not offered in the lobby: tutorial rooms seat it (``GET /api/bots`` leaves it out)."""
        return False

    def choose(self, view: SeatView) -> str | None:
        from ..games import tutorials  # noqa: PLC0415

        script = tutorials.tutorial(view.game)
        if script is not None and self.seed.rpartition(":")[0] == str(script.seed) and \
                view.observation.get("version", 0) <= script.script.until:
            moves = script.script.moves.get(view.seat, [])
            version = view.observation.get("version", 0)
            done = self.done.get(view.seat, 0)
            while done < len(moves) and moves[done].by is not None and moves[done].by < version:
                done += 1
            self.done[view.seat] = done
            play = named(moves[done].play, view.observation.get("players", [])) if done < len(moves) else None
            if play is not None and moves[done].phase == view.observation["phase"]["name"] and play in view.options:
                self.done[view.seat] = done + 1
                return play
            if script.script.otherwise in view.options:
                return script.script.otherwise
        return self.fallback(view, script.bots if script is not None else "random")

    def fallback(self, view: SeatView, spec: str) -> str | None:
        if self._fallback is None:
            from . import make  # noqa: PLC0415 - the registry imports this module

            self._fallback = make(spec, seed=self.seed)
        return self._fallback.choose(view)


# -- the browser's steps, without a browser ---------------------------------------------------------------------
def resolve(path: str, view: dict) -> Any:
    value: Any = view
    for part in path.split("."):
        if value is None:
            return ""
        value = value[int(part)] if isinstance(value, list) else value.get(part)
    return "" if value is None else value


def options(view: dict) -> list[str]:
    return list((view.get("decision") or {}).get("options") or [])


def offered(pattern: str | None, view: dict) -> bool:
    if not pattern:
        return False
    return any(re.search(pattern, o) for o in options(view)) if pattern.startswith("^") else pattern in options(view)


def fill(template: str, args: dict[str, Any]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(args.get(m.group(1), m.group(0))), template)


def target(pattern: str, view: dict) -> str:
    """The option a step asks for as offered now (a regex: the first that fits)."""
    if not pattern.startswith("^"):
        return pattern
    return next((o for o in options(view) if re.search(pattern, o)), pattern)


@dataclass
class Walk:
    """The steps shown (id, version), where the guide went astray (if it did), the match."""
    match: Match
    shown: list[tuple[str, int]] = field(default_factory=list)
    astray: str | None = None
    views: list[dict] = field(default_factory=list)


def walk(game: Game, instead: dict[str, str] | None = None, person: str = PERSON, person_first: bool = True,
         seed: int | None = None, limit: int = 400) -> Walk:
    """Play the tutorial's match as the seat-0 ``person``: bots are ``tutorial`` bots, the person does
    what each step asks (or, at a step named in ``instead``, plays that option) and, when several
    seats decide at once, answers before the bots (``person_first``) or after them. Stops when the
    steps are over or the guide went astray. ``seed`` deals another first match (to try one)."""
    from ..engine import Match  # noqa: PLC0415
    from ..games import tutorials  # noqa: PLC0415
    from . import names  # noqa: PLC0415 - the registry imports this module

    script = tutorials.tutorial(game)
    if script is None:
        raise ValueError(f"{game.id} has no tutorial.json")
    seed = script.seed if seed is None else seed
    match = Match(game, [person, *names(script.seats - 1, {person})], seed)  # as a tutorial room names its bots
    players = {seat: TutorialBot(f"{seed}:{seat}") for seat in range(1, script.seats)}
    result = Walk(match)
    index, since, seen, last_offered = 0, 0, False, 0
    shown_now = False
    while index < len(script.steps) and match.version < limit:
        view = match.observe(0)
        result.views.append(view)
        step = script.steps[index]
        args = {name: resolve(path, view) for name, path in step.args.items()}
        if not shown_now:
            when = step.when
            if when is not None:
                ready = (when.phase is None or view["phase"]["name"] == when.phase) and \
                    (when.offers is None or offered(fill(when.offers, args), view)) and \
                    (when.log is None or any(all(line.get(k) == v for k, v in when.log.items())
                                             for line in view["log"] if line["version"] > since))
            else:
                ready = offered(fill(step.choose, args), view) if step.choose else True
            if not ready:
                if options(view) or (step.by is not None and view["version"] > step.by):
                    result.astray = step.id
                    return result
            else:
                result.shown.append((step.id, view["version"]))
                shown_now, seen = True, False
        if shown_now:
            if step.next:
                index, since, shown_now = index + 1, view["version"], False
                continue
            wanted = fill(step.choose or "", args)
            if offered(wanted, view):
                seen, last_offered = True, view["version"]
                if 0 in match.pending and (person_first or match.pending == [0]):
                    option = (instead or {}).get(step.id) or target(wanted, view)
                    match.choose(0, option)
                    continue
            elif seen:
                index, since, shown_now = index + 1, last_offered, False
                continue
        pending = [s for s in match.pending if s != 0]
        if not pending:
            if 0 in match.pending:  # the person's decision, and no step for it: off the script
                result.astray = step.id
                return result
            break
        seat = pending[0]
        match.choose(seat, players[seat].choose(SeatView.of(match, seat)))
    result.views.append(match.observe(0))
    return result
