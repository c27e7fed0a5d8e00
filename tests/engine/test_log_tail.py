"""The log an observation carries: each seat's last lines, found through the per-log cache.

The cache keeps the suffix of the log that any seat reads; these tests check it against a
plain backward scan, for every seat and the spectator, on a match and its clones (which share
the cache until their logs part), with a tail short enough that hidden lines fall off it.
"""

from __future__ import annotations

import importlib
import random

import pytest

from intrigue import games
from intrigue.engine import Match
from intrigue.engine.ui import PUBLIC

observe_module = importlib.import_module("intrigue.engine.observe")


def scanned(match: Match, seat: int | None, tail: int) -> list[dict]:
    lines = []
    for event in reversed(match.events):
        if event.audience is PUBLIC or event.audience.includes(match, seat):
            lines.append(event.entry)
            if len(lines) == tail:
                break
    return lines[::-1]


@pytest.mark.parametrize("tail", [80, 3, 1])
@pytest.mark.parametrize("game_id", ["coup", "werewolf", "avalon"])
def test_each_seat_reads_its_last_lines_on_a_match_and_its_clones(monkeypatch, game_id, tail):
    monkeypatch.setattr(observe_module, "LOG_TAIL", tail)
    game = games.get(game_id)
    players = max(game.min_players, min(game.max_players, 5))
    match = Match(game, [f"P{i}" for i in range(players)], 7)
    rng = random.Random(7)
    clones: list[Match] = []
    while not match.over and len(match.log) < 150:
        seat = rng.choice(match.pending)
        match.choose(seat, rng.choice(match.legal(seat)))
        if rng.random() < 0.3:
            clones.append(match.clone())
        for other in [match, *clones[-2:]]:
            if other is not match and not other.over and rng.random() < 0.5:
                moved = rng.choice(other.pending)
                other.choose(moved, rng.choice(other.legal(moved)))
            for seat in [*range(players), None]:
                assert other.observe(seat)["log"] == scanned(other, seat, tail)


def test_a_view_s_log_is_its_own_list():
    match = Match(games.get("coup"), ["A", "B", "C", "D"], 1)
    first = match.observe(0)
    first["log"].clear()
    assert match.observe(0)["log"] == scanned(match, 0, observe_module.LOG_TAIL) != []


def test_a_view_without_the_log_is_the_same_view_with_an_empty_log():
    match = Match(games.get("coup"), ["A", "B", "C", "D"], 2)
    full, bare = match.observe(1), match.observe(1, log=False)
    assert bare["log"] == [] and {**full, "log": []} == bare


def test_a_brief_view_is_part_of_the_full_view():
    """What a search's playout bot is handed (``brief=True``) is the full view's keys, cut down."""
    match, rng = Match(games.get("coup"), ["A", "B", "C", "D"], 4), random.Random(4)
    while not match.over:
        for seat in (*match.pending, None):
            full, brief = match.observe(seat), match.observe(seat, brief=True)
            assert set(brief) == {"game", "version", "seat", "you", "players", "phase", "state", "over"}
            assert brief == {key: full[key] for key in brief}
        seat = rng.choice(match.pending)
        match.choose(seat, rng.choice(match.legal(seat)))
