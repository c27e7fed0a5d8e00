"""Bots see exactly what a seat sees, and are made from specs."""

from __future__ import annotations

import dataclasses
import random

import pytest

from intrigue.bots import REGISTRY, Bot, SeatView, kinds, make, suits
from intrigue.bots.base import seat_view
from intrigue.engine import Match

from .helpers import dealt

COURT = ["Duke", "Assassin", "Ambassador", "Captain", "Contessa"]


def reachable(value, seen=None):
    """Everything a bot can walk to from what it was handed, through data (not code)."""
    seen = seen if seen is not None else set()
    if id(value) in seen:
        return
    seen.add(id(value))
    yield value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from reachable(key, seen)
            yield from reachable(item, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from reachable(item, seen)
    elif isinstance(value, SeatView):
        for field in dataclasses.fields(value):
            if field.name != "game":  # the game's immutable rules, shared by every match
                yield from reachable(getattr(value, field.name), seen)


def test_two_deals_that_differ_only_in_hidden_cards_give_a_seat_the_same_view(coup):
    # P1 holds the same hand in both; P2's cards and the court's order differ.
    one = dealt(coup, {"P1": ["Duke", "Captain"], "P2": ["Assassin", "Contessa"]},
                ["Ambassador", "Duke", "Duke", "Captain", "Captain", "Assassin", "Assassin", "Ambassador",
                 "Ambassador", "Contessa", "Contessa"])
    two = dealt(coup, {"P1": ["Duke", "Captain"], "P2": ["Ambassador", "Ambassador"]},
                ["Contessa", "Contessa", "Contessa", "Assassin", "Assassin", "Assassin", "Duke", "Duke",
                 "Captain", "Captain", "Ambassador"])
    assert SeatView.of(one, 0) == SeatView.of(two, 0)
    bots = [make("heuristic", seed=7), make("heuristic", seed=7)]
    assert bots[0].choose(SeatView.of(one, 0)) == bots[1].choose(SeatView.of(two, 0))
    # ...while the opponent, whose hand differs, sees a different table.
    assert SeatView.of(one, 1) != SeatView.of(two, 1)


@pytest.mark.parametrize("headless", [True, False])
def test_nothing_a_bot_is_handed_leads_to_the_match_or_to_hidden_cards(coup, headless):
    # With a UI (as the server runs it) the view also carries components and the log. The
    # opponent holds the one character no action claims (the action menu names the others
    # as the claims of its buttons, which is no secret).
    match = dealt(coup, {"P1": ["Duke", "Captain"], "P2": ["Contessa", "Contessa"]},
                  ["Ambassador", "Duke", "Duke", "Captain", "Captain", "Assassin", "Assassin", "Assassin",
                   "Ambassador", "Ambassador", "Contessa"], headless=headless)
    view = SeatView.of(match, 0)
    everything = list(reachable(view))
    assert not any(isinstance(item, Match) for item in everything)
    strings = [item for item in everything if isinstance(item, str)]
    assert {"Duke", "Captain"} <= set(strings)              # its own hand
    assert "Contessa" not in set(strings)                   # not the opponent's
    assert not any("Contessa" in text for text in strings)  # not even inside a log line
    assert view.options == tuple(match.legal(0))


def test_specs_make_bots_with_their_personality_and_refuse_unknown_ones():
    assert make("random").label == "random"
    assert make("heuristic:bold").label == "heuristic:bold"
    assert make("ismcts:200ms").milliseconds == 200
    assert make("ismcts:80").iterations == 80
    assert make("ismcts:pure-30").playouts == "random"
    with pytest.raises(ValueError, match="unknown bot 'genius'.*random, heuristic, ismcts"):
        make("genius")
    with pytest.raises(ValueError, match="no personality 'reckless'.*cautious, bold, honest"):
        make("heuristic:reckless")
    with pytest.raises(ValueError, match="no personality 'slow'"):
        make("ismcts:slow")


def test_kinds_lists_every_bot_with_its_personalities_and_games():
    listed = {entry["kind"]: entry for entry in kinds()}
    assert set(listed) == set(REGISTRY) - {"llm", "tutorial"}  # llm: only with an endpoint (test_llm.py); tutorial: only tutorial rooms seat it
    assert listed["heuristic"]["personalities"] == ["cautious", "bold", "honest"]
    assert listed["heuristic"]["games"] == ["coup"]
    assert listed["random"]["games"] is None and listed["ismcts"]["games"] is None
    assert suits("heuristic:bold", "coup") and not suits("heuristic", "bang") and suits("ismcts", "bang")


def test_the_same_seed_makes_the_same_choices(coup):
    match = Match(coup, ["P1", "P2", "P3"], 5, headless=True)
    view = SeatView.of(match, match.pending[0])
    for spec in ("random", "heuristic", "ismcts:20"):
        assert make(spec, seed=3).choose(view) == make(spec, seed=3).choose(view)
        assert make(spec, seed=3).choose(view) in view.options
    assert isinstance(make("random"), Bot)


def test_a_brief_bot_plays_the_same_from_the_brief_view(coup):
    """The heuristic reads only what ``observe(..., brief=True)`` keeps: each choice of a seeded
    match is the same from the brief view as from the full one."""
    match, rng = Match(coup, ["P1", "P2", "P3", "P4"], 11, headless=True), random.Random(11)
    full_bot, brief_bot = make("heuristic", seed=3), make("heuristic", seed=3)
    assert brief_bot.brief and not Bot.brief
    while not match.over:
        seat = rng.choice(match.pending)
        options = tuple(match.legal(seat))
        brief = seat_view(match.game, seat, match.observe(seat, log=False, brief=True), options)
        assert brief == SeatView(match.game, seat, brief.observation, options)
        choice = full_bot.choose(SeatView.of(match, seat))
        assert brief_bot.choose(brief) == choice
        match.choose(seat, choice)
