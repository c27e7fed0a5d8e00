"""The bots know Coup's variants: the determinizer rebuilds every decision of every option
combination, ISMCTS plays each to the end, and the heuristic bot plays them sensibly."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from intrigue.bots import SeatView, make
from intrigue.bots.heuristic import CoupHeuristic
from intrigue.bots.ismcts import ISMCTS
from intrigue.bots.tournament import run
from intrigue.engine import Match
from intrigue.games.coup import variants

COMBINATIONS = [{"characters": c, "reformation": r} for c in ("ambassador", "inquisitor") for r in (False, True)]
COMBINATIONS += [{"characters": "inquisitor", "reformation": True, "choose_allegiance": True,
                  "two_player_setup": "official"}]


def label(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items())


def positions(game, options: dict, players: int, seeds: range):
    for seed in seeds:
        match = Match(game, [f"P{i + 1}" for i in range(players)], seed, options)
        rng = random.Random(seed)
        while not match.over:
            seat = rng.choice(match.pending)
            yield match, seat
            match.choose(seat, rng.choice(match.legal(seat)))


def cards(match: Match) -> Counter:
    state = match.state
    found = state["court_deck"] + state["exchange"]["drawn"]
    found += [s["character"] for p in match.players for s in p["influences"].values() if s["character"]]
    found += [c for pile in list(state["sets"].values()) + list(state["set_aside"].values()) for c in pile]
    return Counter(found)


@pytest.mark.parametrize("options", COMBINATIONS, ids=label)
def test_every_decision_is_rebuilt_with_what_the_seat_sees(coup, options):
    rng = random.Random(7)
    checked = 0
    phases = set()
    for players in (2, 4):
        for match, seat in positions(coup, options, players, range(6)):
            seen = match.observe(seat)
            sample = coup.binding.determinize(coup, seen, seat, rng)
            assert sample is not None, (match.phase_id, seen["decision"])
            again = sample.observe(seat)
            assert again["decision"]["options"] == seen["decision"]["options"]
            for key in ("players", "reserve", "examined", "set", "set_aside", "variant", "court_size"):
                assert again["state"].get(key) == seen["state"].get(key), key
            assert cards(sample) == cards(match)  # every card somewhere, the unseen ones dealt anew
            phases.add(match.phase_id)
            checked += 1
    assert checked > 150
    if options["characters"] == "inquisitor":
        assert {31, 32} <= phases


def test_a_card_shown_to_the_examiner_stays_in_every_sample(coup):
    match = Match(coup, ["P1", "P2", "P3"], 0, {"characters": "inquisitor"},
                  setup={"hands": {"P1": ["Inquisitor", "Duke"], "P2": ["Captain", "Contessa"],
                                   "P3": ["Assassin", "Duke"]},
                         "deck": ["Inquisitor", "Inquisitor", "Duke", "Assassin", "Assassin", "Captain", "Captain",
                                  "Contessa", "Contessa"], "first": "P1"})
    for seat, option in ((0, "Examine P2"), (1, "Pass"), (2, "Pass"), (1, "Show Contessa")):
        match.choose(seat, option)
    seen = match.observe(0)
    assert seen["state"]["examined"] == {"player": "P2", "slot": 1, "character": "Contessa"}
    rng = random.Random(3)
    others = Counter()
    for _ in range(40):
        sample = coup.binding.determinize(coup, seen, 0, rng)
        assert sample.players[1]["influences"]["2"]["character"] == "Contessa"
        others[sample.players[1]["influences"]["1"]["character"]] += 1
    assert len(others) >= 3  # the card not shown is still sampled


@pytest.mark.parametrize("options", COMBINATIONS, ids=label)
def test_ismcts_plays_every_combination_to_the_end(coup, options):
    for players in (2, 3):
        match = Match(coup, [f"P{i + 1}" for i in range(players)], 11, options, headless=True)
        bots = [ISMCTS(seed=seat, iterations=8) for seat in range(players)]
        moves = 0
        while not match.over:
            seat = match.pending[0]
            option = bots[seat].choose(SeatView.of(match, seat))
            match.choose(seat, option)
            moves += 1
            assert moves < 600
        assert len(match.winners) == 1
        assert sum(bot.fallbacks for bot in bots) == 0  # every decision was searched, none guessed


# -- the heuristic bot ------------------------------------------------------------------------------
def heuristic_choice(match: Match, seat: int, seed: int = 0) -> str:
    return CoupHeuristic(seed).choose(SeatView.of(match, seat))


def table(options: dict, hands: dict, deck: list[str], **setup) -> Match:
    return Match(_coup(), list(hands), 0, options, setup={"hands": hands, "deck": deck, "first": list(hands)[0],
                                                           "shuffle": False, **setup})


def _coup():
    from intrigue import games

    return games.get("coup")


DECK = ["Contessa", "Captain", "Assassin", "Inquisitor", "Duke", "Contessa", "Captain", "Assassin", "Inquisitor"]


def test_the_heuristic_shows_its_least_valuable_card_when_examined():
    match = table({"characters": "inquisitor"}, {"Aria": ["Inquisitor", "Captain"], "Blake": ["Duke", "Contessa"],
                                                 "Casey": ["Inquisitor", "Duke"]},
                  ["Contessa", "Captain", "Assassin", "Captain", "Duke", "Contessa", "Assassin", "Assassin",
                   "Inquisitor"])
    for seat, option in ((0, "Examine Blake"), (1, "Pass"), (2, "Pass")):
        match.choose(seat, option)
    assert heuristic_choice(match, 1) == "Show Contessa"
    match.choose(1, "Show Contessa")
    assert heuristic_choice(match, 0) == "Return"  # a weak card may stay where it is


def test_the_heuristic_forces_away_a_strong_card_and_examines_with_the_inquisitor():
    match = table({"characters": "inquisitor"}, {"Aria": ["Inquisitor", "Contessa"], "Blake": ["Duke", "Duke"],
                                                 "Casey": ["Inquisitor", "Captain"]},
                  ["Contessa", "Captain", "Assassin", "Assassin", "Duke", "Contessa", "Captain", "Assassin",
                   "Inquisitor"])
    assert heuristic_choice(match, 0).startswith("Examine ")
    match.choose(0, "Examine Blake")
    match.choose(1, "Pass")
    match.choose(2, "Pass")
    match.choose(1, "Show Duke")
    assert heuristic_choice(match, 0) == "Force Exchange"


def test_the_heuristic_converts_when_every_opponent_can_only_shoot_at_it():
    """Loyalist alone against two Reformists: both can attack only it. Converting itself puts
    everyone on one side, so the restriction no longer applies and the fire is shared."""
    match = table({"reformation": True}, {"Aria": ["Contessa", "Ambassador"], "Blake": ["Duke", "Captain"],
                                          "Casey": ["Duke", "Assassin"]},
                  ["Contessa", "Captain", "Assassin", "Ambassador", "Duke", "Contessa", "Captain", "Assassin",
                   "Ambassador"],
                  allegiance={"Aria": "Loyalist", "Blake": "Reformist", "Casey": "Reformist"},
                  coins={"Aria": 3, "Blake": 6, "Casey": 5})
    assert heuristic_choice(match, 0) == "Convert"
    match.choose(0, "Convert")
    assert variants.reunified(match)


def test_the_heuristic_does_not_convert_while_no_opponent_is_near_a_coup():
    match = table({"reformation": True}, {"Aria": ["Contessa", "Ambassador"], "Blake": ["Duke", "Captain"],
                                          "Casey": ["Duke", "Assassin"]},
                  ["Contessa", "Captain", "Assassin", "Ambassador", "Duke", "Contessa", "Captain", "Assassin",
                   "Ambassador"],
                  allegiance={"Aria": "Loyalist", "Blake": "Reformist", "Casey": "Reformist"},
                  coins={"Aria": 3, "Blake": 3, "Casey": 2})
    assert all(not heuristic_choice(match, 0, seed).startswith("Convert") for seed in range(10))


def test_the_heuristic_embezzles_a_rich_reserve_without_a_duke_and_doubts_a_duke_claimer():
    match = table({"reformation": True}, {"Aria": ["Contessa", "Ambassador"], "Blake": ["Duke", "Captain"],
                                          "Casey": ["Duke", "Assassin"]},
                  ["Contessa", "Captain", "Assassin", "Ambassador", "Duke", "Contessa", "Captain", "Assassin",
                   "Ambassador"],
                  allegiance={"Aria": "Loyalist", "Blake": "Reformist", "Casey": "Loyalist"}, reserve=5)
    assert heuristic_choice(match, 0) == "Embezzle"
    match.choose(0, "Income")
    match.choose(1, "Tax")  # Blake claims the Duke ...
    match.choose(0, "Pass")
    match.choose(2, "Pass")
    match.choose(2, "Income")
    match.choose(0, "Income")
    match.choose(1, "Embezzle")  # ... and then claims to hold none
    assert heuristic_choice(match, 0) == "Challenge"


def test_the_heuristic_attacks_only_where_the_restriction_allows():
    """Every option a bot returns is offered; with the Reformation its attacks never name its own side."""
    match = table({"reformation": True}, {"Aria": ["Assassin", "Captain"], "Blake": ["Duke", "Captain"],
                                          "Casey": ["Duke", "Contessa"]},
                  ["Contessa", "Captain", "Assassin", "Ambassador", "Duke", "Contessa", "Assassin", "Ambassador",
                   "Ambassador"],
                  allegiance={"Aria": "Loyalist", "Blake": "Reformist", "Casey": "Loyalist"},
                  coins={"Aria": 4, "Casey": 6})
    for seed in range(20):
        choice = heuristic_choice(match, 0, seed)
        assert not choice.endswith("Casey") or choice.startswith("Convert"), choice


@pytest.mark.parametrize("options", COMBINATIONS, ids=label)
def test_the_heuristic_beats_random_players_in_every_variant(coup, options):
    report = run(coup, ["heuristic", "random"], games=120, seed=5, players=3, options=options).as_json()
    heuristic = next(b for b in report["bots"] if b["bot"] == "heuristic")
    assert report["draws"] == 0
    assert heuristic["ci95"][0] > 1 / 3, heuristic  # better than an even share, with 95% confidence


def test_make_builds_bots_that_play_the_variants(coup):
    for spec in ("heuristic:bold", "ismcts:6"):
        bot = make(spec, seed=1)
        match = Match(coup, ["P1", "P2", "P3"], 2, {"characters": "inquisitor", "reformation": True}, headless=True)
        for _ in range(30):
            if match.over:
                break
            seat = match.pending[0]
            match.choose(seat, bot.choose(SeatView.of(match, seat)))
