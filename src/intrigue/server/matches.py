"""From the store's records back to a live match: re-execution of the log.

Recovery after a crash, replay, export and import all rebuild a match the same
way: a new :class:`Match` from the stored (game, players, seed, options), then
every stored choice in order.
"""

from __future__ import annotations

import hashlib
import logging
import time
import weakref
from datetime import datetime, timezone
from pathlib import Path

from .. import games as game_registry
from ..engine import Game, Match
from ..engine.errors import Refused
from ..store import ChoiceRecord, MatchRecord

log = logging.getLogger("intrigue.server")

_WARNED: set[tuple[int, str]] = set()


_VERSIONS: dict[int, tuple["weakref.ref[Game]", str]] = {}


def game_version(game: Game) -> str:
    """A fingerprint of the rules a match was played with: the DSL file, its extension
    files and, for a game with a rules module, every Python and YAML file of its package.

    Computed once per loaded game (a node taking over a thousand rooms would otherwise
    read and hash those files a thousand times): the rules loaded are the rules run."""
    known = _VERSIONS.get(id(game))
    if known is not None and known[0]() is game:
        return known[1]
    version = _fingerprint(game)
    _VERSIONS[id(game)] = (weakref.ref(game), version)
    weakref.finalize(game, _VERSIONS.pop, id(game), None)
    return version


def _fingerprint(game: Game) -> str:
    binding = game.binding
    files = [binding.dsl_path, *binding.extension_paths]
    if binding.module_file and binding.module_file.endswith(".py"):
        folder = Path(binding.module_file).parent
        files += sorted(folder.glob("*.py")) + sorted(folder.glob("*.yaml"))
    digest = hashlib.sha256()
    for path in dict.fromkeys(files):  # each file once, in a stable order
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def rebuild(record: MatchRecord, choices: list[ChoiceRecord]) -> Match:
    """Re-execute a stored match; raise ValueError naming the first move that does not replay."""
    game = game_registry.get(record.game)
    if record.game_version != game_version(game) and (record.id, record.game_version) not in _WARNED:
        _WARNED.add((record.id, record.game_version))
        log.warning("match %s was played with another version of %s's rules; replaying anyway "
                    "(a move the new rules refuse is reported)", record.id, record.game)
    match = Match(game, record.players, record.seed, record.options)
    for choice in choices:
        try:
            match.choose(choice.seat, choice.option, choice.version)
        except Refused as refused:
            raise ValueError(f"match {record.id} does not replay at version {choice.version} "
                             f"({record.players[choice.seat] if 0 <= choice.seat < len(record.players) else choice.seat}"
                             f": {choice.option!r}): {refused.message}") from None
    return match


def rewound(match: Match, moves: int) -> Match:
    """``match`` re-executed from its start through its first ``moves`` choices.

    How a live match is put back as it was before a choice that must not be kept
    (the rules raised while applying it, or the store refused it): the log
    determines the match, so replaying its prefix is the state before the choice.
    It reads only the match's own in-memory log, so it works while the store is down.
    """
    again = Match(match.game, match.names, match.seed, match.options, setup=match.setup, headless=match.headless)
    for choice in match.log[:moves]:
        again.choose(choice.seat, choice.option, choice.version)
    return again


def clock_spent(record: MatchRecord, choices: list[ChoiceRecord], game: Game) -> dict[str, float]:
    """The seconds each shared clock (a timer phase's ``clock``) ran in the timer phases the stored
    choices closed: from the time of the move that opened each to the time of the move that closed it.
    Only a game with such a clock is replayed for it."""
    if not any(plan.clock is not None for plan in game.plans.values()):
        return {}
    spent: dict[str, float] = {}
    match = Match(game, record.players, record.seed, record.options)
    opened = _epoch(record.started)
    for choice in choices:
        before, key = match.decisions, getattr(match.decision, "clock_key", None)
        try:
            match.choose(choice.seat, choice.option, choice.version)
        except Refused:
            break  # rebuild has said so already
        if match.decisions != before:
            at = _epoch(choice.at)
            if key is not None and at is not None and opened is not None:
                spent[key] = spent.get(key, 0.0) + max(0.0, at - opened)
            opened = at
    return spent


def _epoch(at: str) -> float | None:
    try:
        return datetime.strptime(at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()
    except ValueError:
        return None


def opened_time(match: Match, record: MatchRecord, choices: list[ChoiceRecord]) -> float:
    """When (epoch seconds) the match's open decision opened: the stored time of the move
    that opened it (the move stored at the version before the decision's), else the start."""
    assert match.decision is not None
    at = next((c.at for c in reversed(choices) if c.version == match.decision.opened_at - 1), record.started)
    try:
        return datetime.strptime(at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()
    except ValueError:
        return time.time()  # an unreadable time: the timer starts again
