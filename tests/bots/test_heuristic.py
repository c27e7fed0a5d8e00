"""The Coup heuristic bot: plausible, never impossible, and better than chance."""

from __future__ import annotations

from collections import Counter

import pytest

from intrigue.bots import SeatView, make
from intrigue.bots.heuristic import Table
from intrigue.bots.tournament import run
from intrigue.engine import Match
from intrigue.games.coup.rules import CLAIMS, court

from .helpers import dealt, reveal

FOUR = {"P1": ["Contessa", "Contessa"], "P2": ["Duke", "Assassin"], "P3": ["Duke", "Ambassador"],
        "P4": ["Duke", "Captain"]}
FOUR_DECK = ["Assassin", "Assassin", "Ambassador", "Ambassador", "Captain", "Captain", "Contessa"]


def claims_of(option: str) -> str | None:
    verb = option.split(" ")[0]
    if verb in CLAIMS:
        return CLAIMS[verb]
    return option.removeprefix("Block ") if option.startswith("Block ") else None


def test_it_never_bluffs_a_duke_when_all_three_are_face_up(coup):
    taxes = Counter()
    for seed in range(150):
        match = dealt(coup, FOUR, FOUR_DECK, seed=seed)
        for seat in (1, 2, 3):
            reveal(match, seat, "Duke")
        taxes["all visible"] += make("heuristic:bold", seed=seed).choose(SeatView.of(match, 0)) == "Tax"
        unseen = dealt(coup, FOUR, FOUR_DECK, seed=seed)
        taxes["hidden"] += make("heuristic:bold", seed=seed).choose(SeatView.of(unseen, 0)) == "Tax"
    assert taxes["all visible"] == 0
    assert taxes["hidden"] > 10  # the same bold bot does bluff a Duke it cannot rule out


def test_over_whole_games_no_claim_is_one_it_could_see_was_impossible(coup):
    checked = 0
    for seed in range(60):
        match = Match(coup, ["P1", "P2", "P3", "P4"], seed, headless=True)
        bots = [make("heuristic:bold", seed=seed * 4 + s) for s in range(4)]
        while not match.over:
            seat = match.pending[0]
            view = SeatView.of(match, seat)
            option = bots[seat].choose(view)
            character = claims_of(option)
            if character:
                table = Table(view)
                assert character in table.hand or table.may_claim(character), (seed, option, table.visible)
                checked += 1
            match.choose(seat, option)
    assert checked > 500


def test_it_challenges_a_claim_it_can_see_is_impossible(coup):
    # P2 claims Duke; P1 holds one Duke and the other two are face up.
    hands = {"P1": ["Duke", "Contessa"], "P2": ["Captain", "Duke"], "P3": ["Duke", "Assassin"]}
    deck = ["Assassin", "Assassin", "Ambassador", "Ambassador", "Ambassador", "Captain", "Captain", "Contessa",
            "Contessa"]
    for seed in range(20):
        match = dealt(coup, hands, deck, first="P2", seed=seed)
        reveal(match, 1, "Duke")
        reveal(match, 2, "Duke")
        match.choose(1, "Tax")
        assert make("heuristic:cautious", seed=seed).choose(SeatView.of(match, 0)) == "Challenge"


def test_it_blocks_a_steal_with_the_captain_it_holds(coup):
    hands = {"P1": ["Captain", "Duke"], "P2": ["Captain", "Assassin"]}
    deck = ["Duke", "Duke", "Assassin", "Assassin", "Ambassador", "Ambassador", "Ambassador", "Captain",
            "Contessa", "Contessa", "Contessa"]
    match = dealt(coup, hands, deck, first="P2")
    match.choose(1, "Steal P1")
    assert match.legal(0) == ["Challenge", "Pass"]
    bot = make("heuristic:honest")
    match.choose(0, bot.choose(SeatView.of(match, 0)))
    assert "Block Captain" in match.legal(0)
    assert bot.choose(SeatView.of(match, 0)) == "Block Captain"


@pytest.mark.parametrize(("personality", "expected"), [(None, "Block Contessa"), ("honest", "Pass")])
def test_on_its_last_influence_it_bluffs_a_contessa_unless_honest(coup, personality, expected):
    hands = {"P1": ["Duke", "Captain"], "P2": ["Assassin", "Duke"]}
    deck = ["Duke", "Assassin", "Assassin", "Ambassador", "Ambassador", "Ambassador", "Captain", "Captain",
            "Contessa", "Contessa", "Contessa"]
    for seed in range(10):
        match = dealt(coup, hands, deck, first="P2", seed=seed, coins={"P2": 5})
        reveal(match, 0, "Captain")
        match.choose(1, "Assassinate P1")
        spec = f"heuristic:{personality}" if personality else "heuristic"
        bot = make(spec, seed=seed)
        if match.legal(0) == ["Challenge", "Pass"]:
            match.choose(0, bot.choose(SeatView.of(match, 0)))
        if match.over or match.phase_id != 11:
            continue  # it challenged instead (allowed: it is its last card)
        assert bot.choose(SeatView.of(match, 0)) == expected


def test_it_coups_the_leader(coup):
    hands = {"P1": ["Duke", "Captain"], "P2": ["Assassin", "Duke"], "P3": ["Contessa", "Captain"]}
    deck = ["Duke", "Assassin", "Ambassador", "Ambassador", "Ambassador", "Captain", "Contessa", "Contessa",
            "Assassin"]
    match = dealt(coup, hands, deck, coins={"P1": 7, "P2": 3, "P3": 6})
    reveal(match, 1, "Assassin")  # P2 has one influence left; P3 has two and more coins
    assert make("heuristic").choose(SeatView.of(match, 0)) == "Coup P3"


def test_it_keeps_the_strongest_pair_and_loses_its_weakest_card(coup):
    bot = make("heuristic")
    match = dealt(coup, {"P1": ["Ambassador", "Contessa"], "P2": ["Duke", "Captain"]},
                  ["Duke", "Assassin", "Duke", "Assassin", "Assassin", "Ambassador", "Ambassador", "Captain",
                   "Captain", "Contessa", "Contessa"])
    match.choose(0, "Exchange")
    match.choose(1, "Pass")
    assert match.legal(0)[0].startswith("Keep ")  # drew Duke and Assassin
    assert bot.choose(SeatView.of(match, 0)) == "Keep Assassin, Duke"


def test_one_heuristic_beats_three_random_players(coup):
    report = run(coup, ["heuristic", "random"], games=300, seed=11, players=4).as_json()
    heuristic = report["bots"][0]
    assert heuristic["bot"] == "heuristic"
    assert heuristic["ci95"][0] > 0.65, heuristic


def test_bold_bluffs_more_than_cautious_and_both_challenge_sparingly(coup):
    report = run(coup, ["heuristic:bold", "heuristic:cautious"], games=120, seed=2, players=4, habits=True)
    habits = {bot["bot"]: bot["habits"] for bot in report.as_json()["bots"]}
    assert habits["heuristic:bold"]["bluff_rate"] > habits["heuristic:cautious"]["bluff_rate"]
    for style in habits.values():
        assert 0 < style["challenge_rate"] < 0.15


def test_it_counts_the_court_for_any_table_size(coup):
    match = Match(coup, [f"P{i}" for i in range(1, 8)], 1, headless=True)
    table = Table(SeatView.of(match, match.pending[0]))
    assert sum(table.copies.values()) == len(court(7)) == 20
