"""The browser's step machine (tutorial.js, docs/web-client.md "The guided first game") over a
tutorial's match, without a browser: the person plays what each step asks and presses Next at once."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from intrigue import bots
from intrigue.bots import NAMES, SeatView
from intrigue.engine import Game, Match
from intrigue.games import tutorials

PERSON = "Zoe"


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
         limit: int = 400) -> Walk:
    """Play the tutorial's match as the seat-0 ``person``: bots are ``tutorial`` bots, the person does
    what each step asks (or, at a step named in ``instead``, plays that option) and, when several
    seats decide at once, answers before the bots (``person_first``) or after them. Stops when the
    steps are over or the guide went astray."""
    script = tutorials.tutorial(game)
    assert script is not None
    match = Match(game, [person, *NAMES[: script.seats - 1]], script.seed)
    players = {seat: bots.make("tutorial", seed=f"{script.seed}:{seat}") for seat in range(1, script.seats)}
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
