"""The generic determinizer on the example games written in YAML alone: hidden hands, bags, stacks,
decks and the names drawn with the deal are dealt anew, consistent with what the seat saw, and
never from what it did not see."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from intrigue.engine import Match
from intrigue.games import load_path

from ..conftest import ROOT
from .helpers import decisions

EXAMPLES = ROOT / "docs" / "examples" / "games"
GAMES = {"sheriff": 3, "skull": 4, "love_letter": 4, "chameleon": 4}


@pytest.fixture(scope="module", params=sorted(GAMES))
def example(request):
    return request.param, load_path(str(EXAMPLES / f"{request.param}.yaml"))


def test_a_sample_shows_the_seat_exactly_what_it_saw(example):
    name, game = example
    rng = random.Random(1)
    checked = 0
    for match, seat in decisions(game, GAMES[name], range(3)):
        seen = match.observe(seat)
        sample = game.binding.determinize(game, seen, seat, rng)
        assert sample is not None, (match.phase.name, seen["decision"])
        again = sample.observe(seat)
        assert again["state"] == seen["state"] and again["decision"] == seen["decision"]
        checked += 1
    assert checked > 50


def test_the_others_hold_as_many_cards_as_the_table_shows():
    """Sheriff: each merchant's hidden hand has its public size, of cards the seat cannot see."""
    game = load_path(str(EXAMPLES / "sheriff.yaml"))
    rng = random.Random(2)
    for match, seat in decisions(game, 4, range(2)):
        sample = game.binding.determinize(game, match.observe(seat), seat, rng)
        for owner, player in enumerate(sample.players):
            assert len(player["hand"]) == player["hand_size"] == match.players[owner]["hand_size"]
        assert len(sample.state["deck"]) > 0
        everything = Counter(game.binding.state["cards"])
        held = Counter(card for player in sample.players for card in player["hand"] + player["bag"])
        assert not held - everything  # no card more often than the game has it


def test_love_letter_samples_hold_every_card_once():
    game = load_path(str(EXAMPLES / "love_letter.yaml"))
    every = Counter(game.binding.state["deck"])
    rng = random.Random(3)
    for players in (2, 3, 4):
        for match, seat in decisions(game, players, range(4)):
            sample = game.binding.determinize(game, match.observe(seat), seat, rng)
            cards = Counter(sample.state["deck"] + sample.state["burned"] + sample.state["face_up"])
            for owner, player in enumerate(sample.players):
                cards.update(player["hand"] + player["discards"])
                assert len(player["hand"]) == len(match.players[owner]["hand"])  # one each, two on a turn
            assert cards == every
            assert len(sample.state["deck"]) == match.state["cards_left"]


def test_skull_samples_deal_each_players_own_discs():
    game = load_path(str(EXAMPLES / "skull.yaml"))
    rng = random.Random(4)
    stacks = Counter()
    for match, seat in decisions(game, 3, range(6)):
        sample = game.binding.determinize(game, match.observe(seat), seat, rng)
        for owner, player in enumerate(sample.players):
            truth = match.players[owner]
            assert len(player["hand"]) == truth["hand_size"] and len(player["stack"]) == truth["stack_size"]
            discs = Counter(player["hand"] + player["stack"] + player["shown"])
            assert not discs - Counter(["Flower", "Flower", "Flower", "Skull"])
            if owner != seat:
                stacks[tuple(player["stack"])] += 1
    assert stacks[("Skull",)] and stacks[("Flower",)]  # a face-down disc may be either


def test_the_chameleon_and_the_secret_word_are_drawn_again():
    """A Player's samples keep the word on its card and name some Chameleon among the others; the
    Chameleon's samples draw the word among the topic's words."""
    game = load_path(str(EXAMPLES / "chameleon.yaml"))
    match = Match(game, ["A", "B", "C", "D"], 5, headless=True)
    seat = match.pending[0]
    rng = random.Random(0)
    seen = match.observe(seat)
    named, words = Counter(), Counter()
    for _ in range(60):
        sample = game.binding.determinize(game, seen, seat, rng)
        chameleon = sample.state["chameleon"]
        assert sample.players[chameleon - 1]["role"] == "Chameleon"
        assert sample.state["secret_word"] in seen["state"]["topic_words"]
        for player in sample.players:
            assert player["word"] == ("" if player["role"] == "Chameleon" else sample.state["secret_word"])
        named[chameleon] += 1
        words[sample.state["secret_word"]] += 1
    if match.players[seat]["role"] == "Chameleon":
        assert named == {seat + 1: 60} and len(words) > 5
    else:
        assert seat + 1 not in named and len(named) == 3
        assert words == {match.state["secret_word"]: 60}


def _twin(name: str, match: Match, seat: int) -> Match | None:
    """The same match with something ``seat`` cannot see changed, or ``None``."""
    twin = match.clone()
    others = [owner for owner in range(len(twin.players)) if owner != seat]
    if name == "chameleon":
        hidden = [o for o in others if match.observe(seat)["state"]["players"][o]["role"] is None]
        pair = next(((a, b) for a in hidden for b in hidden
                     if twin.players[a]["role"] != twin.players[b]["role"]), None)
        if pair is None:
            return None
        a, b = pair
        for field in ("role", "word"):
            twin.players[a][field], twin.players[b][field] = twin.players[b][field], twin.players[a][field]
        twin.state["chameleon"] = next(o + 1 for o, p in enumerate(twin.players) if p["role"] == "Chameleon")
        return twin
    if name == "skull":
        for owner in others:
            player = twin.players[owner]
            if player["hand"] and player["stack"] and player["hand"][0] != player["stack"][-1]:
                player["hand"][0], player["stack"][-1] = player["stack"][-1], player["hand"][0]
                return twin
        return None
    deck = twin.state["deck"]
    for owner in others:
        hand = twin.players[owner]["hand"]
        spot = next(((i, j) for i, card in enumerate(hand) for j, other in enumerate(deck) if other != card), None)
        if spot is not None:
            i, j = spot
            hand[i], deck[j] = deck[j], hand[i]
            return twin
    return None


def test_what_the_seat_cannot_see_is_never_read(example):
    """Two matches that differ only in hidden cards, discs or roles give the seat equal views and the
    search equal samples."""
    name, game = example
    tried = 0
    for match, seat in decisions(game, GAMES[name], range(3)):
        twin = _twin(name, match, seat)
        if twin is None:
            continue
        seen, seen_twin = match.observe(seat), twin.observe(seat)
        assert seen == seen_twin
        first = game.binding.determinize(game, seen, seat, random.Random(7))
        second = game.binding.determinize(game, seen_twin, seat, random.Random(7))
        assert first.players == second.players and first.state == second.state
        tried += 1
    assert tried >= 10
