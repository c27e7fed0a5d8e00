"""Tournaments: many headless matches between bots, with numbers you can quote.

Seats rotate from game to game, so every bot in the lineup sits in every seat
equally often. Each bot's win rate comes with a 95% Wilson interval; wins are
also broken down by seat and by the winning side (``binding.result(match)
["side"]`` when a game reports one). Matches can be spread over processes; the
result is the same whatever the number of workers, because every match and
every bot is seeded from (seed, game index, place in the lineup).
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..engine import Game, Match
from ..engine.errors import RuleError
from . import check, make
from .base import SeatView
from .habits import HABITS

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054
#: Moves after which a match is abandoned and counted as a draw.
MOVE_LIMIT = 5_000


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: sound near 0 and 1, unlike p ± z·se."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def lineup(specs: list[str], players: int | None) -> list[str]:
    """The bots of one match, one per seat: the last spec fills any seats left."""
    specs = [spec.strip() for spec in specs if spec.strip()]
    if not specs:
        raise ValueError("--bots needs at least one bot")
    players = players or len(specs)
    if len(specs) > players:
        raise ValueError(f"{len(specs)} bots for {players} seats: give --players {len(specs)} or fewer bots")
    return specs + [specs[-1]] * (players - len(specs))


def seat_of(entry: int, game_index: int, players: int) -> int:
    """Where lineup entry ``entry`` sits in game ``game_index`` (rotating every game)."""
    return (entry + game_index) % players


@dataclass
class GameResult:
    index: int
    seats: list[int]                 # lineup entry -> seat
    winners: list[int]               # seats
    side: str
    decisions: list[int]             # per lineup entry
    seconds: list[float]             # thinking time per lineup entry
    slowest: list[float]             # slowest decision per lineup entry
    iterations: list[int] = field(default_factory=list)  # search iterations per lineup entry
    habits: list[dict[str, int]] = field(default_factory=list)


def play(game: Game, entries: list[str], index: int, seed: int, watch: bool = False,
         options: dict[str, Any] | None = None) -> GameResult:
    """One match of the tournament: game ``index``, seats rotated, everything seeded."""
    count = len(entries)
    seats = [seat_of(e, index, count) for e in range(count)]
    entry_at = {seat: e for e, seat in enumerate(seats)}
    match_seed = seed * 1_000_003 + index
    match = Match(game, [f"P{s + 1}" for s in range(count)], match_seed, options, headless=True)
    bots = [make(spec, seed=f"{seed}:{index}:{e}") for e, spec in enumerate(entries)]
    order = random.Random(match_seed)
    decisions = [0] * count
    seconds = [0.0] * count
    slowest = [0.0] * count
    iterations = [0] * count
    counter = HABITS.get(game.id) if watch else None
    habits: list[Counter] = [Counter() for _ in range(count)]
    moves = 0
    while not match.over and moves < MOVE_LIMIT:
        pending = match.pending
        seat = pending[0] if len(pending) == 1 else order.choice(pending)
        e = entry_at[seat]
        view = SeatView.of(match, seat)
        started = time.perf_counter()
        try:
            option = bots[e].choose(view)
        except RuleError as exc:  # the rules failed in a match the bot imagined, not in this one: say so
            raise type(exc)(f"while bot {entries[e]} chose for seat {seat + 1} in game {index + 1} (a search bot "
                            f"plays matches it samples, guessing what its seat cannot see: docs/writing-a-game.md "
                            f"§10 Bots): {exc.message}", exc.where, exc.phase, exc.phase_name) from exc
        spent = time.perf_counter() - started
        if len(view.options) > 1:
            decisions[e] += 1
            seconds[e] += spent
            slowest[e] = max(slowest[e], spent)
            iterations[e] += getattr(bots[e], "last_iterations", 0)
        if counter is not None:
            counter(match, seat, option, habits[e])
        match.choose(seat, option)
        moves += 1
    winners = list(match.winners) if match.over else []
    side = _side(match) if match.over else "unfinished"
    return GameResult(index, seats, winners, side, decisions, seconds, slowest, iterations,
                      [dict(h) for h in habits])


def _side(match: Match) -> str:
    summary = match.game.binding.result
    if summary is not None:
        side = summary(match).get("side")
        if side:
            return str(side)
    return "winner" if match.winners else "none"


@dataclass
class Standing:
    bot: str
    entries: int = 0
    games: int = 0
    wins: int = 0
    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    iterations: int = 0
    by_seat: Counter = field(default_factory=Counter)
    by_side: Counter = field(default_factory=Counter)
    habits: Counter = field(default_factory=Counter)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def ms_per_decision(self) -> float:
        return 1000 * self.seconds / self.decisions if self.decisions else 0.0


@dataclass
class Report:
    game: str
    players: int
    games: int
    seed: int
    lineup: list[str]
    workers: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    draws: int = 0
    interrupted: bool = False
    standings: dict[str, Standing] = field(default_factory=dict)
    by_seat: dict[int, Counter] = field(default_factory=dict)
    by_side: Counter = field(default_factory=Counter)

    def add(self, result: GameResult) -> None:
        if not result.winners:
            self.draws += 1
        self.by_side[result.side] += 1
        for e, seat in enumerate(result.seats):
            standing = self.standings[self.lineup[e]]
            standing.games += 1
            standing.decisions += result.decisions[e]
            standing.seconds += result.seconds[e]
            standing.slowest = max(standing.slowest, result.slowest[e])
            standing.iterations += result.iterations[e] if result.iterations else 0
            if result.habits:
                standing.habits.update(result.habits[e])
            if seat in result.winners:
                standing.wins += 1
                standing.by_seat[seat + 1] += 1
                standing.by_side[result.side] += 1
                self.by_seat.setdefault(seat + 1, Counter())[self.lineup[e]] += 1

    def as_json(self) -> dict[str, Any]:
        bots = []
        for standing in self.standings.values():
            low, high = standing.ci95
            entry: dict[str, Any] = {
                "bot": standing.bot, "seats": standing.entries, "games": standing.games,
                "wins": standing.wins, "win_rate": round(standing.rate, 4),
                "ci95": [round(low, 4), round(high, 4)],
                "even_share": round(1 / self.players, 4),
                "decisions": standing.decisions,
                "ms_per_decision": round(standing.ms_per_decision, 2),
                "slowest_ms": round(1000 * standing.slowest, 1),
                "iterations_per_decision": round(standing.iterations / standing.decisions, 1)
                if standing.decisions else 0.0,
                "wins_by_seat": {str(s): standing.by_seat[s] for s in range(1, self.players + 1)},
                "wins_by_role": dict(sorted(standing.by_side.items())),
            }
            if standing.habits:
                entry["habits"] = summarize_habits(standing.habits)
            bots.append(entry)
        return {
            "game": self.game, "players": self.players, "options": dict(self.options), "games": self.games,
            "seed": self.seed,
            "interrupted": self.interrupted,
            "lineup": self.lineup, "workers": self.workers, "seconds": round(self.seconds, 2),
            "draws": self.draws, "bots": bots,
            "wins_by_seat": {str(s): dict(self.by_seat.get(s, {})) for s in range(1, self.players + 1)},
            "wins_by_role": dict(sorted(self.by_side.items())),
        }


def summarize_habits(habits: Counter) -> dict[str, Any]:
    def share(part: str, whole: str) -> float | None:
        return round(habits[part] / habits[whole], 4) if habits[whole] else None

    return {**{key: habits[key] for key in sorted(habits)},
            "bluff_rate": share("bluffs", "claims"),
            "challenge_rate": share("challenges", "chances"),
            "challenge_accuracy": share("right", "challenges")}


def _play_task(task: tuple[str, list[str], int, int, bool, dict[str, Any]]) -> GameResult:
    from .. import games  # noqa: PLC0415 - each worker loads the game once

    spec, entries, index, seed, watch, options = task
    return play(games.resolve(spec), entries, index, seed, watch, options)


def _spec(game: Game) -> str:
    """How a worker finds the game again: its id if installed, else its YAML file."""
    from .. import games  # noqa: PLC0415

    if game.id in games.installed() and games.get(game.id).binding.dsl_path == game.binding.dsl_path:
        return game.id  # (the same file: a game loaded again, after the registry's cache was cleared, is the same game)
    return str(game.binding.dsl_path)


def run(game: Game, specs: list[str], games: int, seed: int = 0, players: int | None = None,
        workers: int = 1, habits: bool = False,
        progress: Callable[[int], None] | None = None, options: dict[str, Any] | None = None) -> Report:
    """Play ``games`` matches of ``game`` between the bots ``specs`` (see :func:`lineup`)."""
    entries = lineup(specs, players)
    for spec in dict.fromkeys(entries):
        check(spec, game.id)  # refused before any game is played
    count = len(entries)
    if not game.min_players <= count <= game.max_players:
        raise ValueError(f"{game.title} takes {game.min_players} to {game.max_players} players, not {count}")
    if games < 1:
        raise ValueError("--games must be at least 1")
    if workers < 1:
        raise ValueError("--workers must be at least 1")
    options = dict(options or {})
    Match(game, [f"P{s + 1}" for s in range(count)], 0, options, headless=True)  # bad options: refused now
    report = Report(game.id, count, games, seed, entries, workers, options)
    for spec in entries:
        report.standings.setdefault(spec, Standing(spec)).entries += 1
    started = time.perf_counter()
    spec = _spec(game) if workers > 1 else game.id
    tasks = [(spec, entries, index, seed, habits, options) for index in range(games)]
    done = 0
    try:
        for result in _results(game, tasks, workers):
            report.add(result)
            done += 1
            if progress:
                progress(done)
    except KeyboardInterrupt:  # report the games finished so far, and say so
        report.games = done
        report.interrupted = True
        if not done:
            raise
    report.seconds = time.perf_counter() - started
    return report


def _quiet_worker() -> None:
    """Workers leave interruptions to the parent, which reports what is finished."""
    import signal  # noqa: PLC0415

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _results(game: Game, tasks: list[tuple[str, list[str], int, int, bool, dict[str, Any]]],
             workers: int) -> Iterable[GameResult]:
    if workers == 1 or len(tasks) == 1:
        for _, entries, index, seed, watch, options in tasks:
            yield play(game, entries, index, seed, watch, options)
        return
    import multiprocessing  # noqa: PLC0415

    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    with context.Pool(workers, initializer=_quiet_worker) as pool:
        yield from pool.imap_unordered(_play_task, tasks, chunksize=max(1, min(20, len(tasks) // (workers * 20))))
