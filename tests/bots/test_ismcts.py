"""The determinizer rebuilds what a seat sees; ISMCTS searches it within budget."""

from __future__ import annotations

import random
import time
from collections import Counter

from intrigue.bots import SeatView, make
from intrigue.bots.ismcts import ISMCTS
from intrigue.engine import Match

from .helpers import decisions
from intrigue.games.coup.rules import court, hand



def test_a_sample_shows_the_seat_exactly_what_it_observes(coup):
    sample_rng = random.Random(1)
    checked = 0
    for players, seeds in ((2, range(12)), (4, range(6)), (6, range(3))):
        for match, seat in decisions(coup, players, seeds):
            seen = match.observe(seat)
            sample = coup.binding.determinize(coup, seen, seat, sample_rng)
            assert sample is not None, (match.phase_id, seen["decision"])
            again = sample.observe(seat)
            assert again["state"] == seen["state"]
            assert again["decision"] == seen["decision"]
            assert sample.phase_id == match.phase_id and sample.pending == match.pending
            checked += 1
    assert checked > 400


def test_samples_deal_the_unseen_cards_anew_and_keep_the_court_whole(coup):
    match = Match(coup, ["P1", "P2", "P3"], 4, headless=True)
    seat = match.pending[0]
    seen = match.observe(seat)
    rng = random.Random(0)
    hands = Counter()
    for _ in range(60):
        sample = coup.binding.determinize(coup, seen, seat, rng)
        assert hand(sample, seat) == hand(match, seat)
        everything = [c for s in range(3) for c in hand(sample, s)] + sample.state["court_deck"]
        assert Counter(everything) == Counter(court(3))
        hands[tuple(hand(sample, (seat + 1) % 3))] += 1
    assert len(hands) > 5  # the others' cards really are sampled


def test_ismcts_returns_an_offered_option_after_exactly_its_iterations(coup):
    for match, seat in decisions(coup, 2, range(2)):
        view = SeatView.of(match, seat)
        bot = ISMCTS(seed=1, iterations=12)
        assert bot.choose(view) in view.options
        if len(view.options) > 1:
            assert bot.last_iterations == 12 and bot.fallbacks == 0


def test_a_time_budget_bounds_the_time_spent(coup):
    match = Match(coup, ["P1", "P2"], 3, headless=True)
    view = SeatView.of(match, match.pending[0])
    bot = make("ismcts:60ms", seed=2)
    started = time.perf_counter()
    assert bot.choose(view) in view.options
    spent = time.perf_counter() - started
    assert bot.last_iterations >= 1
    assert spent < 0.06 + 0.25  # the budget, plus at most one iteration under load


def test_without_a_determinizer_it_plays_a_random_legal_option(tiny):
    match = Match(tiny, ["A", "B", "C"], 1, headless=True)
    bot = make("ismcts:20", seed=1)
    while not match.over:
        seat = match.pending[0]
        option = bot.choose(SeatView.of(match, seat))
        assert option in match.legal(seat)
        match.choose(seat, option)
    assert bot.fallbacks > 0 and bot.last_iterations == 0


def test_pure_search_beats_random_players(coup):
    wins = 0
    for seed in range(8):
        match = Match(coup, ["P1", "P2"], seed, headless=True)
        bots = [make("ismcts:pure-25", seed=seed), make("random", seed=seed)]
        while not match.over:
            seat = match.pending[0]
            match.choose(seat, bots[seat].choose(SeatView.of(match, seat)))
        wins += match.winners == [0]
    assert wins >= 6
