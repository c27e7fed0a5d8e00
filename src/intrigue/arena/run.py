"""The rated arena: seeded deals, every seat rotation of each, OpenSkill ratings, behaviour.

Deal ``d`` has the seed ``seed * 1_000_003 + d``; it is played once per
rotation, agent ``i`` sitting at seat ``(i + r) % n`` in rotation ``r``, so every
agent gets every seat of every deal and luck of the deal cancels out. Each
match rates every agent with OpenSkill's Plackett-Luce model (each seat on its
own, the winners tied first and the others tied after them: a side's win in a
team game is each of its players' win). Plackett-Luce updates one match at a
time and weighs late matches more, so one pass in the order played can rank an
agent with fewer wins above one with more (it did: 14 wins over 21). The
ratings are therefore the average of :data:`PASSES` passes over the matches,
each from fresh ratings in its own seeded shuffle of the matches (sorted by deal
and rotation first): the same results give the same ratings in whatever order
they were played. A rating is reported as its mean ``mu`` and the interval
``mu ± 2 sigma``.

Without remote agents every match is played here, on the engine, with a seeded
order for simultaneous answers (so a run reproduces exactly). With one, every
match is played on a loopback server (:mod:`.host`), the arena's own agents
connected like the remote ones.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .. import bots
from ..bots.tournament import MOVE_LIMIT, wilson
from ..engine import Game, Match
from ..engine.timing import expiry, timeout_choice
from . import behaviour
from .agents import AgentSpec, RemoteProcess, parse

#: Interval reported around a rating's mean, in standard deviations.
SIGMAS = 2.0
#: Passes over the matches, each in its own seeded order, averaged into the ratings.
PASSES = 32


@dataclass
class Played:
    """One match of the arena: who sat where, what was chosen, who won."""

    deal: int
    rotation: int
    seat_of: list[int]                     # agent index -> seat
    choices: list[tuple[int, str]]
    winners: list[int]                     # seats
    seconds: list[float] = field(default_factory=list)   # thinking time per agent (local matches)
    decisions: list[int] = field(default_factory=list)
    chat: list[tuple[int, str]] = field(default_factory=list)
    seed: int | None = None                # the deal's seed, when not the published one (a hosted run)


def play_local(game: Game, agents: list[bots.Bot], seat_of: list[int], seed: int) -> Played:
    """One match on the engine. ``None`` (or a bot failure, or an option not offered) plays the timeout default."""
    count = len(agents)
    agent_at = {seat: a for a, seat in enumerate(seat_of)}
    match = Match(game, [f"P{s + 1}" for s in range(count)], seed)
    order = random.Random(seed)
    played = Played(0, 0, list(seat_of), [], [], [0.0] * count, [0] * count)
    while not match.over and len(played.choices) < MOVE_LIMIT:
        pending = match.pending
        if not pending:  # a timer phase waiting for its clock: its time runs out now, as it would on a server
            for move in list(expiry(match)):
                match.choose(*move)
                played.choices.append(move)
            continue
        seat = pending[0] if len(pending) == 1 else order.choice(pending)
        a = agent_at[seat]
        view = bots.SeatView.of(match, seat)
        started = time.perf_counter()
        try:
            option = agents[a].choose(view)
        except Exception:  # noqa: BLE001 - a failing agent gets the timeout default, like on a server
            option = None
        if len(view.options) > 1:
            played.seconds[a] += time.perf_counter() - started
            played.decisions[a] += 1
        if option not in view.options:
            option = timeout_choice(match, seat, list(view.options))
        for line in agents[a].talk()[:1]:
            played.chat.append((seat, line[:300]))
            for other, agent in enumerate(agents):
                if other != a:
                    agent.hear(match.names[seat], line[:300])
        match.choose(seat, option)
        played.choices.append((seat, option))
    played.winners = list(match.winners) if match.over else []
    return played


@dataclass
class Standing:
    agent: str
    mu: float = 0.0
    sigma: float = 0.0
    matches: int = 0
    wins: int = 0
    seconds: float = 0.0
    decisions: int = 0
    habits: Counter = field(default_factory=Counter)


def run(game: Game, specs: list[str], deals: int, seed: int = 0, timers: dict[str, Any] | None = None,
        progress: Callable[[int, int], None] | None = None, workdir: Path | None = None,
        game_file: Path | None = None) -> dict[str, Any]:
    """Play ``deals`` deals × every rotation between the agents ``specs``; the report as a dict.
    ``game_file``: the game came from this file, not installed; remote agents are served it."""
    agents = [parse(spec, game.id, seed, str(game_file) if game_file else None) for spec in specs]
    if game_file is not None and any(a.remote for a in agents):
        from .. import games as registry  # noqa: PLC0415

        _, problems = registry.add_folder(game_file)  # the loopback server hosts it beside the installed ones
        if problems:
            raise ValueError("; ".join(problems))
    count = len(agents)
    if len({a.label for a in agents}) != count:
        raise ValueError("each agent may appear once in --agents (give a personality to tell two apart)")
    if not game.min_players <= count <= game.max_players:
        raise ValueError(f"{game.title} takes {game.min_players} to {game.max_players} players, not {count} agents")
    if deals < 1:
        raise ValueError("--deals must be at least 1")
    standings = [Standing(a.label) for a in agents]
    started = time.perf_counter()
    total = deals * count
    matches: list[Played] = []

    def record(played: Played) -> None:
        matches.append(played)
        replayed, tallies = behaviour.replay(game, [f"P{s + 1}" for s in range(count)],
                                             _deal_seed(seed, played.deal) if played.seed is None else played.seed,
                                             {}, played.choices)
        if replayed.over and sorted(replayed.winners) != sorted(played.winners):
            raise RuntimeError(f"deal {played.deal}, rotation {played.rotation}: the replay's winners "
                               f"{replayed.winners} are not the match's {played.winners}")
        for a, seat in enumerate(played.seat_of):
            standing = standings[a]
            standing.matches += 1
            standing.wins += seat in played.winners
            standing.habits.update(tallies[seat])
            if played.seconds:
                standing.seconds += played.seconds[a]
                standing.decisions += played.decisions[a]
        if progress:
            progress(len(matches), total)

    if any(a.remote for a in agents):
        _run_hosted(game, agents, deals, seed, timers or {}, record, workdir)
    else:
        for deal in range(deals):
            for rotation in range(count):
                seat_of = [(a + rotation) % count for a in range(count)]
                players = [bots.make(a.bot or "", seed=f"{seed}:{deal}:{i}") for i, a in enumerate(agents)]
                played = play_local(game, players, seat_of, _deal_seed(seed, deal))
                played.deal, played.rotation = deal, rotation
                record(played)
    for standing, (mu, sigma) in zip(standings, rate(matches, count, seed)):
        standing.mu, standing.sigma = mu, sigma
    return _report(game, agents, standings, deals, seed, matches, time.perf_counter() - started)


def rate(matches: list[Played], count: int, seed: int = 0, passes: int = PASSES) -> list[tuple[float, float]]:
    """Each agent's (mu, sigma): Plackett-Luce over the matches, averaged over ``passes`` seeded orders.

    A match without a winner (the move limit) rates nobody. The result depends on
    the set of matches, not on the order they arrive in.
    """
    from openskill.models import PlackettLuce  # noqa: PLC0415

    model = PlackettLuce()
    decided = sorted((m for m in matches if m.winners), key=lambda m: (m.deal, m.rotation))
    shuffler = random.Random(f"arena-ratings:{seed}")
    totals = [[0.0, 0.0] for _ in range(count)]
    for _ in range(passes):
        order = decided[:]
        shuffler.shuffle(order)
        ratings = [model.rating() for _ in range(count)]
        for played in order:
            ranks = [1 if played.seat_of[a] in played.winners else 2 for a in range(count)]
            rated = model.rate([[r] for r in ratings], ranks=ranks)
            ratings = [team[0] for team in rated]
        for total, rating in zip(totals, ratings):
            total[0] += rating.mu
            total[1] += rating.sigma
    return [(mu / passes, sigma / passes) for mu, sigma in totals]


def _deal_seed(seed: int, deal: int) -> int:
    return seed * 1_000_003 + deal


def _run_hosted(game: Game, agents: list[AgentSpec], deals: int, seed: int, timers: dict[str, Any],
                record: Callable[[Played], None], workdir: Path | None) -> None:
    from .host import LoopbackServer, play_hosted  # noqa: PLC0415 - the server only when it is needed

    count = len(agents)
    with tempfile.TemporaryDirectory(prefix="intrigue-arena-") as scratch:
        directory = Path(workdir or scratch)
        remotes = {i: RemoteProcess(a, directory / f"agent-{i}.log") for i, a in enumerate(agents) if a.remote}
        try:
            with LoopbackServer(directory) as host:
                for deal in range(deals):
                    # A remote program could compute a published seed (seed × 1,000,003 + deal) and deal every
                    # hand itself: the server gets a secret one, the same for every rotation of the deal.
                    secret = secrets.randbits(62)
                    for rotation in range(count):
                        seat_of = [(a + rotation) % count for a in range(count)]
                        at_seat: list[Any] = [None] * count
                        for i, a in enumerate(agents):
                            at_seat[seat_of[i]] = remotes[i] if a.remote else \
                                bots.make(a.bot or "", seed=f"{seed}:{deal}:{i}")
                        choices, winners = asyncio.run(play_hosted(host, game.id, at_seat, secret, timers))
                        record(Played(deal, rotation, seat_of, choices, winners, seed=secret))
        finally:
            for process in remotes.values():
                process.stop()


def _report(game: Game, agents: list[AgentSpec], standings: list[Standing], deals: int, seed: int,
            matches: list[Played], seconds: float) -> dict[str, Any]:
    rows = []
    for standing in standings:
        mu, sigma = standing.mu, standing.sigma
        low, high = wilson(standing.wins, standing.matches)
        rows.append({
            "agent": standing.agent, "mu": round(mu, 3), "sigma": round(sigma, 3),
            "interval": [round(mu - SIGMAS * sigma, 3), round(mu + SIGMAS * sigma, 3)],
            "ordinal": round(mu - 3 * sigma, 3),
            "matches": standing.matches, "wins": standing.wins,
            "win_rate": round(standing.wins / standing.matches, 4) if standing.matches else 0.0,
            "ci95": [round(low, 4), round(high, 4)],
            "ms_per_decision": round(1000 * standing.seconds / standing.decisions, 2) if standing.decisions else None,
            "behaviour": behaviour.summary(standing.habits),
        })
    order = [row["agent"] for row in sorted(rows, key=lambda row: -row["mu"])]
    return {"game": game.id, "players": len(agents), "deals": deals, "rotations": len(agents),
            "matches": len(matches), "seed": seed, "hosted": any(a.remote for a in agents),
            "draws": sum(1 for m in matches if not m.winners), "seconds": round(seconds, 2),
            "model": "openskill PlackettLuce", "passes": PASSES, "interval_sigmas": SIGMAS,
            "agents": rows, "order": order}
