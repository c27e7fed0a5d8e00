"""Coup's variants over many seeded random games: every combination of options, 2 to 10 players.

At every completed decision and after every choice: every card is in exactly one
place (hands, lost cards, the court, an Exchange's draw, an official set and the
cards set aside), coins are conserved with the treasury **and the Treasury
Reserve**, nobody out is asked anything, every player has an allegiance exactly
when the Reformation is on. Every game ends with one winner; the same seed and
choices replay the same game (headless or not); two runs of the same seed are
the same game.

CI plays ``GAMES`` games per combination (``INTRIGUE_VARIANT_GAMES`` overrides it);
``docs/games/coup.md`` records the 2,000-per-combination run::

    INTRIGUE_VARIANT_GAMES=2000 .venv/bin/python -m pytest -q tests/games/coup/test_variant_properties.py
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter

import pytest

from intrigue.engine import Match, replay
from intrigue.games.coup import variants

GAMES = int(os.environ.get("INTRIGUE_VARIANT_GAMES", "25"))
TREASURY = 50

#: The option sets: the fifth character, Reformation with a random or a chosen side.
OPTIONS = [{"characters": c, "reformation": r, "choose_allegiance": ch}
           for c in ("ambassador", "inquisitor") for r, ch in ((False, False), (True, False), (True, True))]
#: Every option set at every player count, and the official two-player set-up with each.
COMBINATIONS = [(players, dict(o)) for o in OPTIONS for players in range(2, 11)] + \
               [(2, {**o, "two_player_setup": "official"}) for o in OPTIONS]


def label(players: int, options: dict) -> str:
    return f"{players}p-" + "-".join(f"{k}={v}" for k, v in sorted(options.items()))


class Checked(Match):
    """A match that checks the table at every completed decision."""

    reached: Counter

    @property
    def last_decision(self):
        return self.__dict__.get("_last_decision")

    @last_decision.setter
    def last_decision(self, decision):
        self.__dict__["_last_decision"] = decision
        if decision is None:
            return
        for seat in decision.offers:
            assert self.players[seat]["is_alive"], f"a decision was offered to {self.names[seat]}, who is out"
        check_table(self)
        if decision.answers:
            self.__dict__.setdefault("phases", Counter())[decision.phase_id] += 1


def check_table(m: Match) -> None:
    state = m.state
    cards = state["court_deck"] + state["exchange"]["drawn"] + [
        s["character"] for p in m.players for s in p["influences"].values() if s["character"]]
    cards += [c for pile in state["sets"].values() for c in pile]
    cards += [c for pile in state["set_aside"].values() for c in pile]
    official = bool(state["sets"] or state["set_aside"])
    expected = variants.court(len(m.players), m.options)
    if official:
        expected = list(variants.characters(m.options)) * 3
    assert Counter(cards) == Counter(expected), "cards are not conserved"
    coins = sum(p["coins"] for p in m.players)
    assert state["treasury"] + coins + state["reserve"] == TREASURY, "coins are not conserved"
    assert state["reserve"] >= 0
    if m.options["reformation"]:
        sides = state["allegiance"]
        assert len(sides) == len(m.players)
        assert all(side in variants.ALLEGIANCES for side in sides) or m.phase_id in (1, 34, 35)
    else:
        assert state["reserve"] == 0 and not state["allegiance"]
    for p in m.players:
        assert p["coins"] >= 0
        hidden = [s for s in p["influences"].values() if not s["revealed"]]
        if not official or not state["sets"]:
            assert p["is_alive"] == bool(hidden)
        if not p["is_alive"]:
            assert p["coins"] == 0, "the coins of the exiled go back to the treasury"


def play(game, players: int, options: dict, seed: int, headless: bool = True) -> Checked:
    match = Checked(game, [f"P{i + 1}" for i in range(players)], seed, options, headless=headless)
    rng = random.Random(seed)
    while not match.over:
        for seat in match.pending:
            assert match.players[seat]["is_alive"] and match.legal(seat)
        seat = rng.choice(match.pending)
        match.choose(seat, rng.choice(match.legal(seat)))
        check_table(match)
        assert len(match.log) < 3_000, "the game does not end"
    return match


class Played:
    """What the games of one combination showed (only the first few matches are kept)."""

    def __init__(self) -> None:
        self.games = 0
        self.decisions = 0
        self.one_winner = 0
        self.phases: Counter = Counter()
        self.verbs: Counter = Counter()
        self.kept: list[tuple[int, Checked]] = []


@pytest.fixture(scope="module")
def played(coup):
    started = time.perf_counter()
    results = {}
    for players, options in COMBINATIONS:
        result = results[label(players, options)] = Played()
        for seed in range(GAMES):
            match = play(coup, players, options, seed)
            result.games += 1
            result.decisions += len(match.log)
            alive = [p["is_alive"] for p in match.players]
            if match.over and len(match.winners) == 1 and alive.count(True) == 1 and alive[match.winners[0]]:
                result.one_winner += 1
            result.phases.update(match.__dict__.get("phases", Counter()))
            result.verbs.update(c.option.split(" ")[0] for c in match.log)
            if seed < 3:
                result.kept.append((seed, match))
    seconds = time.perf_counter() - started
    games = sum(r.games for r in results.values())
    print(f"\n{games} games ({GAMES} per combination, {len(results)} combinations) in {seconds:.1f} s, "
          f"{sum(r.decisions for r in results.values())} choices")
    return results


def test_every_combination_of_options_and_player_counts_is_played(played):
    assert len(played) == len(COMBINATIONS) == 60
    assert all(result.games == GAMES for result in played.values())


def test_every_game_ends_with_exactly_one_winner(played):
    assert {name: r.one_winner for name, r in played.items()} == {name: GAMES for name in played}


def test_the_variant_phases_are_all_played(played):
    reached = sum((r.phases for r in played.values()), Counter())
    assert set(reached) >= {3, 4, 6, 8, 9, 10, 11, 12, 13, 22, 31, 32, 34, 35}, sorted(reached)
    verbs = sum((r.verbs for r in played.values()), Counter())
    assert {"Examine", "Convert", "Embezzle", "Show", "Return", "Force", "Loyalist", "Reformist"} <= set(verbs)


def test_the_same_seed_replays_the_same_game(coup, played):
    for name, result in played.items():
        for seed, match in result.kept:
            players, options = len(match.names), match.options
            log = [(c.seat, c.option) for c in match.log]
            again = replay(coup, match.names, seed, options, log, headless=True)
            assert (again.players, again.state, again.winners) == (match.players, match.state, match.winners), name
            full = replay(coup, match.names, seed, options, log)  # display tools change nothing
            assert (full.players, full.state) == (match.players, match.state), name
            twin = play(coup, players, {k: options[k] for k in ("characters", "reformation", "choose_allegiance",
                                                                  "two_player_setup")}, seed)
            assert [(c.seat, c.option) for c in twin.log] == log, name
