"""The search's sampler deals a seat its own hand held facing the table (`visibility: others`,
Hanabi) from the cards it cannot see: the sample shows the seat exactly what it saw, every card is
somewhere once, the clues beside the hand hold, and the search bot plays on it."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from intrigue.bots import make
from intrigue.bots.base import SeatView
from intrigue.engine import Match
from intrigue.games import load_path

HANABI = Path(__file__).resolve().parents[2] / "docs" / "examples" / "games" / "hanabi.yaml"


@pytest.fixture(scope="module")
def hanabi():
    return load_path(HANABI)


def careful(match: Match, seat: int) -> str:
    """A player who sees every card (a test's script): burns fuses on cards that do not fit while more
    than one is left, then discards, else gives the first clue."""
    legal = match.legal(seat)
    state, rules = match.state, match.game.binding.state
    if "Play 1" in legal and state["fuses"] > 1:
        for at, card in enumerate(match.players[seat]["hand"]):
            if state["played_colours"].count(rules["colour_of"][card]) != rules["number_of"][card] - 1:
                return f"Play {at + 1}"
    return "Discard 1" if "Discard 1" in legal else legal[0]


def turns(game, seed: int, players: int = 3):
    """Every turn of a seeded game played carefully, as (match, seat) before the seat chooses."""
    match = Match(game, [f"P{s + 1}" for s in range(players)], seed, headless=True)
    rng = random.Random(seed)
    while not match.over:
        seat = match.pending[0]
        yield match.clone(), seat
        legal = match.legal(seat)
        clues = [o for o in legal if not o.startswith(("Play", "Discard"))]
        match.choose(seat, rng.choice(clues) if clues and rng.random() < 0.5 else careful(match, seat))


def test_a_sample_shows_the_seat_what_it_saw_and_deals_its_own_hand(hanabi):
    checked = 0
    for match, seat in list((m, s) for m, s in turns(hanabi, 3))[::7]:
        observation = match.observe(seat)
        mine = observation["state"]["players"][seat]
        assert mine["hand"] is None  # the seat never sees its own hand
        for k in range(5):
            sample = hanabi.binding.determinize(hanabi, observation, seat, random.Random(k))
            assert sample is not None
            again = sample.observe(seat)
            assert again["state"] == observation["state"]  # every field and name it sees, as it saw them
            hand = sample.players[seat]["hand"]
            assert len(hand) == mine["hand_size"]
            rules = hanabi.binding.state
            assert sample.players[seat]["colours"] == [rules["colour_of"][card] for card in hand]
            assert sample.players[seat]["numbers"] == [rules["number_of"][card] for card in hand]
            for at, card in enumerate(hand):  # what the clues told of its cards holds in the sample
                assert mine["known_colours"][at] in ("?", rules["colour_of"][card])
                assert mine["known_numbers"][at] in ("?", str(rules["number_of"][card]))
            checked += 1
    assert checked >= 20


def test_a_sample_holds_every_card_once(hanabi):
    for match, seat in list(turns(hanabi, 5, players=2))[::9]:
        observation = match.observe(seat)
        sample = hanabi.binding.determinize(hanabi, observation, seat, random.Random(1))
        everywhere = Counter(sample.state["deck"] + sample.state["played"] + sample.state["discards"])
        for player in sample.players:
            everywhere.update(player["hand"])
        assert everywhere == Counter(hanabi.binding.state["cards"])
        assert len(sample.state["deck"]) == observation["state"]["cards_left"]
        assert sample.players[1 - seat]["hand"] == match.players[1 - seat]["hand"]


def endgame(game, seed: int) -> Match:
    """A seeded 2-player game played carefully to seat 1's last turn with one fuse left, the deck empty."""
    match = Match(game, ["P1", "P2"], seed, headless=True)
    while True:
        seat = match.pending[0]
        if seat == 0 and match.state["fuses"] == 1 and match.state["final_turns"] > 0 and "Play 1" in match.legal(0):
            return match
        match.choose(seat, careful(match, seat))


def shows_kept(game, spec: str, seeds: range) -> int:
    kept = 0
    for seed in seeds:
        match, bot = endgame(game, seed), make(spec, seed=seed)
        while not match.over:
            seat = match.pending[0]
            match.choose(seat, bot.choose(SeatView.of(match, seat)) if seat == 0 else careful(match, seat))
        kept += bool(match.winners)
    return kept


def test_the_search_bot_does_not_burn_the_last_fuse_on_a_card_it_cannot_see(hanabi):
    # Before its own hand was sampled, the search bot played these endgames at random (11-12 of 20
    # shows kept, as the random bot); on a sample of its hand it sees a blind play lose the show.
    seeds = range(20)
    search, blind = shows_kept(hanabi, "ismcts:50", seeds), shows_kept(hanabi, "random", seeds)
    assert search == len(seeds)
    assert blind <= 15  # 11 of these 20
