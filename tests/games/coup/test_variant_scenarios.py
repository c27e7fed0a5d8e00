"""The variants' scenarios (issue 19's notation) pass, there are at least 40 of them, and a
setup the variants cannot honour is refused with a message naming what is wrong."""

from __future__ import annotations

import pytest

from intrigue.scenario import run, run_file

from ...conftest import ROOT

VARIANT_FILES = sorted(p for p in (ROOT / "tests" / "scenarios" / "coup").glob("*.yaml")
                       if p.stem.startswith(("inquisitor", "reformation", "two_player")))


def test_at_least_forty_variant_scenarios_pass():
    outcomes = [o for path in VARIANT_FILES for o in run_file(path)]
    assert [str(f) for o in outcomes for f in o.failures] == []
    assert len(outcomes) >= 40


HANDS = {"Aria": ["Duke", "Assassin"], "Blake": ["Captain", "Contessa"]}
AMBASSADOR_DECK = ["Contessa", "Captain", "Assassin", "Ambassador", "Duke", "Contessa", "Captain", "Assassin",
                   "Ambassador", "Ambassador", "Duke"]


@pytest.mark.parametrize("options, setup, message", [
    ({"reformation": True}, {"allegiance": {"Zed": "Loyalist"}}, "setup.allegiance names 'Zed', who is not playing"),
    ({"reformation": True}, {"allegiance": {"Aria": "Catholic"}}, "'Catholic' is not Loyalist or Reformist"),
    ({"reformation": True}, {"reserve": -2}, "setup.reserve must be a number of coins"),
    ({}, {"allegiance": {"Aria": "Loyalist"}}, "need the option reformation: true"),
    ({"characters": "inquisitor"}, {"hands": HANDS, "deck": AMBASSADOR_DECK},
     "(3 of each of Duke, Assassin, Inquisitor, Captain, Contessa)"),
    ({}, {"colour": "red"}, "unknown setup key(s) for coup: colour"),
    ({}, {"hands": HANDS, "revealed": {"Aria": ["Captain"]}, "deck": AMBASSADOR_DECK[:-1]},
     "Aria must be dealt 2 cards, not 3 (hands and revealed together)"),
    ({"two_player_setup": "official"}, {"hands": HANDS, "deck": AMBASSADOR_DECK}, "the players choose"),
    ({"characters": "bishop"}, {}, "option characters must be ambassador or inquisitor"),
])
def test_a_setup_the_variants_cannot_honour_is_refused(options, setup, message):
    outcome = run({"game": "coup", "players": ["Aria", "Blake"], "options": options, "setup": setup,
                   "steps": []}, "setup")
    assert not outcome.passed
    assert message in str(outcome.failures[0]), str(outcome.failures[0])


def test_the_random_side_alternates_clockwise_from_the_start_player(coup):
    """§5.1 (our choice): the start player's side is drawn from the match's seed; each player
    clockwise takes the opposite of the one before, so with 5 players the start player and the
    player on their right agree."""
    from intrigue.engine import Match

    starters = set()
    for seed in range(30):
        m = Match(coup, ["A", "B", "C", "D", "E"], seed, {"reformation": True})
        start = m.pending[0]
        sides = m.state["allegiance"]
        assert all(sides[(start + k + 1) % 5] != sides[(start + k) % 5] for k in range(4))
        assert sides[start] == sides[(start - 1) % 5]
        starters.add(sides[start])
        again = Match(coup, ["A", "B", "C", "D", "E"], seed, {"reformation": True})
        assert again.state["allegiance"] == sides  # the same seed, the same sides
    assert starters == {"Loyalist", "Reformist"}
