"""Play many headless matches with random legal choices and count what happened."""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from .engine import Game, Match
from .engine.decision import Decision
from .engine.errors import RuleError
from .engine.timing import expiry


class GameFailed(Exception):
    """A game failed while it was played: which one, with which seed, and where in its file."""

    def __init__(self, game: Game, number: int, seed: int | str, error: BaseException):
        self.game = game
        self.number = number
        self.seed = seed
        self.error = error
        super().__init__(describe_failure(game, number, seed, error))


def describe_failure(game: Game, number: int, seed: int | str, error: BaseException) -> str:
    """One line: ``file:line: phase N (name), seed S, game G: what went wrong``."""
    if isinstance(error, RuleError):
        where = error.where or str(game.binding.dsl_path)
        phase = f"phase {error.phase} ({error.phase_name}), " if error.phase is not None else ""
        message = error.message
    else:
        where, phase = str(game.binding.dsl_path), ""
        message = f"{type(error).__name__}: {error}"
    return f"{where}: {phase}seed {seed}, game {number}: {message}"


@dataclass
class Report:
    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    wins_by_seat: Counter = field(default_factory=Counter)
    wins_by_role: Counter = field(default_factory=Counter)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0

    @property
    def decisions_per_game(self) -> float:
        return self.decisions / self.games if self.games else 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "players": self.players, "options": dict(self.options), "games": self.games,
            "decisions": self.decisions, "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 2),
            "decisions_per_second": round(self.decisions_per_second, 1),
            "decisions_per_game": round(self.decisions_per_game, 2),
            "wins_by_seat": {str(k): v for k, v in sorted(self.wins_by_seat.items())},
            "wins_by_role": dict(sorted(self.wins_by_role.items())),
        }


def player_names(count: int) -> list[str]:
    return [f"P{i + 1}" for i in range(count)]


def random_play(match: Match, rng: random.Random, limit: int = 100_000) -> int:
    """Play random legal choices to the end; returns the number of choices made.

    Each move reads who is pending, picks a seat and then one of its options with ``rng.choice``'s
    draws (written out for the standard generator: no Python call per pick), and chooses it: an answer
    to a plain decision through ``Match.choose_offered``, ``choose`` without its checks (the pick is
    legal by construction; a test plays every game both ways)."""
    made = 0
    choose, answer = match.choose, match.choose_offered
    if rng.__class__ is not random.Random:
        return _random_play(match, rng, limit)
    bits = rng.getrandbits  # rng.choice(seq) written out: seq[r] with r = _randbelow(len(seq)), the same draws
    while not match.over:
        decision = match.decision
        if decision.__class__ is Decision:  # decision.pending, inline (a plain decision's)
            if decision.closed_by is not None:
                pending = None
            else:
                pending = decision.offers  # one seat asked (most decisions): read from the dict, no list
                answers = decision.answers
                if answers:
                    pending = [seat for seat in pending if seat not in answers]
                elif len(pending) > 1:
                    pending = list(pending)
        else:
            pending = decision.pending if decision is not None else None
        if not pending:  # a timer phase waiting for its clock: its time runs out now
            for move in list(expiry(match)):
                choose(*move)
            continue
        count = len(pending)
        if count == 1:
            for seat in pending:  # (a list, or the offers' dict)
                break
        else:
            size = count.bit_length()
            drawn = bits(size)
            while drawn >= count:
                drawn = bits(size)
            seat = pending[drawn]
        options = decision.offers[seat]
        count = len(options)
        if not count:
            raise IndexError("Cannot choose from an empty sequence")  # as choice() would
        size = count.bit_length()  # (a single option is drawn too, as choice() draws it)
        drawn = bits(size)
        while drawn >= count:
            drawn = bits(size)
        option = options[drawn]
        if decision.__class__ is Decision:
            answer(seat, option)  # a pending seat and one of its options: choose()'s checks cannot refuse it
        else:
            choose(seat, option)
        made += 1
        if made >= limit:
            raise RuntimeError(f"no end after {limit} choices (seed {match.seed})")
    return made


def _random_play(match: Match, rng: random.Random, limit: int) -> int:
    """:func:`random_play` with a generator of another class: its own ``choice``."""
    made = 0
    choice, choose = rng.choice, match.choose
    while not match.over:
        decision = match.decision
        pending = decision.pending if decision is not None else None
        if not pending:
            for move in list(expiry(match)):
                choose(*move)
            continue
        seat = pending[0] if len(pending) == 1 else choice(pending)
        choose(seat, choice(decision.offers[seat]))
        made += 1
        if made >= limit:
            raise RuntimeError(f"no end after {limit} choices (seed {match.seed})")
    return made


def winning_side(match: Match) -> str:
    summary = match.game.binding.result
    if summary is not None:
        return str(summary(match).get("side", "winner"))
    return "winner" if match.winners else "none"


def simulate(game: Game, games: int, players: int, seed: int = 0,
             progress: Callable[[int], None] | None = None, options: dict[str, Any] | None = None) -> Report:
    report = Report(game.id, players, dict(options or {}))
    names = player_names(players)
    started = time.perf_counter()
    for index in range(games):
        match_seed = seed * 1_000_003 + index
        try:
            match = Match(game, names, match_seed, options, headless=True)
            report.decisions += random_play(match, random.Random(match_seed))
        except Exception as exc:  # noqa: BLE001 - reported as one line naming the game and its seed
            raise GameFailed(game, index + 1, match_seed, exc) from exc
        report.games += 1
        for seat in match.winners:
            report.wins_by_seat[seat + 1] += 1
        report.wins_by_role[winning_side(match)] += 1
        if progress:
            progress(index + 1)
    report.seconds = time.perf_counter() - started
    return report
