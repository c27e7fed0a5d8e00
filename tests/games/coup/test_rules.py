"""Coup rulings that scenario files cannot express: random start, timeouts, the simulator."""

import json
import random

import pytest

from intrigue.cli import main
from intrigue.engine import Match
from intrigue.games.coup import rules

from .support import NAMES, SETUP
from .test_properties import check_coins, play


def new(coup, **coins):
    return Match(coup, NAMES, 0, None, dict(SETUP, coins=coins))


def timeout(m, seat):
    return rules.timeout_choice(m, seat, m.legal(seat))


def test_who_starts_is_random_unless_given(coup):
    starters = {Match(coup, ["A", "B", "C", "D"], seed).pending[0] for seed in range(40)}
    assert starters == {0, 1, 2, 3}


def test_in_two_player_games_whoever_starts_gets_one_coin(coup):
    for seed in range(20):
        m = Match(coup, ["A", "B"], seed)
        starter = m.pending[0]
        assert [p["coins"] for p in m.players] == ([1, 2] if starter == 0 else [2, 1])


def test_timer_and_variant_defaults_are_game_options(coup):
    assert coup.option_defaults() == {"turn_timer": 30, "window_timer": 15, "characters": "ambassador",
                                      "reformation": False, "choose_allegiance": False,
                                      "two_player_setup": "simple"}


def test_timeouts_pass_in_windows(coup):
    m = new(coup)
    m.choose(0, "Foreign Aid")
    assert [timeout(m, s) for s in (1, 2)] == ["Pass", "Pass"]
    m.choose(1, "Block Duke")
    assert timeout(m, 0) == "Pass"


def test_timeouts_take_income_for_the_turn_action(coup):
    assert timeout(new(coup, Aria=9), 0) == "Income"


def test_timeouts_coup_a_random_opponent_when_coup_is_forced(coup):
    picks = {timeout(Match(coup, NAMES, seed, None, dict(SETUP, coins={"Aria": 10})), 0)
             for seed in range(30)}
    assert picks == {"Coup Blake", "Coup Casey"}


def test_timeouts_lose_a_random_card(coup):
    picks = set()
    for seed in range(30):
        m = Match(coup, NAMES, seed, None, dict(SETUP, coins={"Aria": 7}))
        m.choose(0, "Coup Blake")
        picks.add(timeout(m, 1))
    assert picks == {"Lose Captain", "Lose Contessa"}


def test_timeouts_keep_the_current_cards_in_an_exchange(coup):
    m = new(coup)
    m.choose(0, "Exchange")
    m.choose(1, "Pass")
    m.choose(2, "Pass")
    assert timeout(m, 0) == "Keep Assassin, Duke"


def test_the_timeout_choice_is_reproducible_and_leaves_the_match_alone(coup):
    m = Match(coup, NAMES, 5, None, dict(SETUP, coins={"Aria": 10}))
    state = m.rng.getstate()
    assert timeout(m, 0) == timeout(m, 0)
    assert m.rng.getstate() == state


def test_the_coin_oracle_catches_a_wrong_rule(coup, monkeypatch):
    """The property test can fail: Income paying 2 is caught on the first Income."""
    monkeypatch.setitem(rules.INCOME, "Income", 2)
    caught = 0
    for seed in range(20):
        try:
            check_coins(play(coup, 3, seed))
        except AssertionError:
            caught += 1
    assert caught >= 15


def test_simulate_plays_10000_games_of_4_and_reports(capsys):
    with pytest.raises(SystemExit) as done:
        main(["simulate", "coup", "--games", "10000", "--players", "4", "--json"])
    assert done.value.code in (0, None)
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 10_000
    assert sum(report["wins_by_seat"].values()) == 10_000
    assert set(report["wins_by_seat"]) == {"1", "2", "3", "4"}
    assert all(1_500 < wins < 3_500 for wins in report["wins_by_seat"].values())
    assert report["decisions_per_game"] > 10


def test_random_bots_finish_every_game_size(coup):
    for players in range(2, 11):
        m = Match(coup, [f"P{i}" for i in range(players)], players)
        rng = random.Random(players)
        while not m.over:
            seat = rng.choice(m.pending)
            m.choose(seat, rng.choice(m.legal(seat)))
        assert len(m.winners) == 1


def test_a_steal_from_a_target_who_died_in_the_challenge_says_it_took_nothing(coup):
    """Blake challenges Aria's Captain with the last card and is out: the log says the steal
    yields nothing because Blake is out, not that it took 0 coins."""
    hands = {"Aria": ["Duke", "Captain"], "Blake": ["Captain", "Contessa"], "Casey": ["Ambassador", "Duke"]}
    deck = ["Contessa", "Assassin", "Assassin", "Ambassador", "Duke", "Contessa", "Captain", "Assassin", "Ambassador"]
    m = Match(coup, NAMES, 0, None, dict(SETUP, hands=hands, deck=deck, coins={"Casey": 7}))
    for seat, option in [(0, "Income"), (1, "Income"), (2, "Coup Blake"), (1, "Lose Contessa"),
                         (0, "Steal Blake"), (1, "Challenge")]:
        m.choose(seat, option)
    while m.pending == [1]:  # Blake's last card goes without a choice; no block from a player out
        m.choose(1, m.legal(1)[0])
    texts = [event.text for event in m.events]
    assert "Aria steals nothing: Blake is out." in texts
    assert not [text for text in texts if "steals 0" in text]
    assert m.players[0]["coins"] == 3 and m.players[1]["coins"] == 0
    line = next(event for event in m.events if event.text == "Aria steals nothing: Blake is out.")
    assert line.data == {"key": "{player} steals nothing: {target} is out.",
                         "args": {"player": "Aria", "target": "Blake"}}
