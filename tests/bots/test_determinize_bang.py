"""BANG!'s determinizer rebuilds exactly what a seat sees; ISMCTS searches on it."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from intrigue import games
from intrigue.bots import SeatView
from intrigue.bots.ismcts import ISMCTS
from intrigue.engine import Match

from .helpers import decisions
from intrigue.games.bang.cards import DECK, ROLES_BY_COUNT


@pytest.fixture(scope="module")
def bang():
    return games.get("bang")



def cards(match: Match) -> Counter:
    state = match.state
    held = [c for p in match.players for c in p["hand"] + p["table"]]
    return Counter(held + state["deck"] + state["discard"] + state["store"] + state["flipped"] + state["kit"])


def test_a_sample_shows_the_seat_exactly_what_it_observes(bang):
    sample_rng = random.Random(1)
    checked = Counter()
    for players, seeds in ((4, range(4)), (5, range(2)), (7, range(2))):
        for match, seat in decisions(bang, players, seeds):
            seen = match.observe(seat)
            sample = bang.binding.determinize(bang, seen, seat, sample_rng)
            assert sample is not None, (match.phase_id, seen["decision"])
            again = sample.observe(seat)
            assert again["state"] == seen["state"]
            assert again["decision"] == seen["decision"]
            assert sample.phase_id == match.phase_id and set(sample.pending) == set(match.pending)
            assert cards(sample) == Counter(DECK)  # every card in exactly one place
            roles = Counter(p["role"] for p in sample.players)
            assert roles == Counter(ROLES_BY_COUNT[players])
            checked[match.state["reaction"]["prompt"].get("kind", match.phase_id)] += 1
    assert sum(checked.values()) > 400
    assert {6, 12, "shot"} <= set(checked)  # play, discard and a reaction at least


def test_samples_deal_the_unseen_roles_and_cards_anew(bang):
    match = Match(bang, ["P1", "P2", "P3", "P4", "P5"], 3, headless=True)
    seat = match.pending[0]
    seen = match.observe(seat)
    other = next(s for s in range(5) if s != seat and not match.players[s]["is_role_revealed"])
    rng = random.Random(0)
    hands, roles = Counter(), Counter()
    for _ in range(60):
        sample = bang.binding.determinize(bang, seen, seat, rng)
        assert sample.players[seat]["hand"] == match.players[seat]["hand"]
        assert sample.players[seat]["role"] == match.players[seat]["role"]
        assert [p["table"] for p in sample.players] == [p["table"] for p in match.players]
        hands[tuple(sample.players[other]["hand"])] += 1
        roles[sample.players[other]["role"]] += 1
        assert len(sample.state["deck"]) == len(match.state["deck"])
    assert len(hands) > 50 and len(roles) >= 2


def test_the_true_hidden_information_is_never_read(bang):
    """Two deals that differ only in what the seat cannot see give the same samples."""
    tried = 0
    for match, seat in decisions(bang, 5, range(2)):
        if len(match.pending) != 1 or match.version % 7:
            continue
        others = [s for s in range(5) if s != seat and match.players[s]["is_alive"]]
        twin = match.clone()
        hidden = [s for s in others if not twin.players[s]["is_role_revealed"]]
        if len(hidden) >= 2:
            a, b = hidden[:2]
            twin.players[a]["role"], twin.players[b]["role"] = twin.players[b]["role"], twin.players[a]["role"]
        pool = [c for s in others for c in twin.players[s]["hand"]] + twin.state["deck"]
        random.Random(match.version).shuffle(pool)
        for s in others:
            size = len(twin.players[s]["hand"])
            twin.players[s]["hand"], pool = pool[:size], pool[size:]
        twin.state["deck"] = pool
        seen, seen_twin = match.observe(seat), twin.observe(seat)
        if seen != seen_twin:  # the shuffle changed something public (an open window's offers)
            continue
        first = bang.binding.determinize(bang, seen, seat, random.Random(5))
        second = bang.binding.determinize(bang, seen_twin, seat, random.Random(5))
        assert first.players == second.players and first.state == second.state
        tried += 1
    assert tried >= 10


def test_ismcts_searches_bang(bang):
    searched = 0
    for match, seat in decisions(bang, 4, range(1)):
        view = SeatView.of(match, seat)
        if len(view.options) < 2 or match.version % 5:
            continue
        bot = ISMCTS(seed=1, iterations=4)
        assert bot.choose(view) in view.options
        assert bot.fallbacks == 0 and bot.last_iterations == 4
        searched += 1
        if searched >= 12:
            break
    assert searched >= 12
