"""The engine's own random driver (``random_play``, what ``intrigue simulate`` and ``make bench`` play with)
answers a plain decision inline, as ``Match.choose`` does after its checks: the same matches, every game."""

import random

import pytest

from intrigue.engine import Match
from intrigue.engine.timing import expiry
from intrigue.games import get, installed
from intrigue.simulate import random_play


def _play_by_choose(match, rng):
    """random_play's draws, each answer through Match.choose and its checks."""
    while not match.over:
        pending = match.pending
        if not pending:
            for move in list(expiry(match)):
                match.choose(*move)
            continue
        seat = pending[0] if len(pending) == 1 else rng.choice(pending)
        match.choose(seat, rng.choice(match.legal(seat)))


@pytest.mark.parametrize("game_id", sorted(installed()))
def test_random_play_answers_as_choose_does(game_id):
    game = get(game_id)
    for seed in range(12):
        players = [f"P{i}" for i in range(game.min_players + seed % (game.max_players - game.min_players + 1))]
        fast, checked = (Match(game, players, seed, headless=True) for _ in range(2))
        fast_rng, checked_rng = random.Random(seed), random.Random(seed)
        made = random_play(fast, fast_rng)
        _play_by_choose(checked, checked_rng)
        assert made == len(checked.log)
        assert [(c.seat, c.option, c.version) for c in fast.log] == [(c.seat, c.option, c.version) for c in checked.log]
        assert fast.players == checked.players and fast.state == checked.state and fast.winners == checked.winners
        assert [e.text for e in fast.events] == [e.text for e in checked.events]
        assert fast.rng.getstate() == checked.rng.getstate() and fast_rng.getstate() == checked_rng.getstate()


def test_a_match_shuffles_as_random_shuffle_does():
    """``Match.shuffle`` writes ``random.Random.shuffle`` out: the same order and the same draws, every length."""
    game = get("coup")
    for seed in range(6):
        match = Match(game, ["A", "B", "C", "D"], seed, headless=True)
        reference = random.Random()
        for length in [*range(0, 72), 200]:
            reference.setstate(match.rng.getstate())
            pile, expected = list(range(length)), list(range(length))
            match.shuffle(pile)
            reference.shuffle(expected)
            assert pile == expected and match.rng.getstate() == reference.getstate()
