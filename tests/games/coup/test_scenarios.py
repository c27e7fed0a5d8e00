"""The Coup conformance suite: every scenario file under ``tests/scenarios/coup`` passes."""

from pathlib import Path

import pytest
import yaml

from intrigue.cli import main
from intrigue.scenario import run, run_file

from ...conftest import ROOT
from .support import NAMES, STANDARD

FILES = sorted((ROOT / "tests" / "scenarios" / "coup").glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_file_passes(path: Path):
    outcomes = run_file(path)
    assert outcomes
    assert [str(f) for o in outcomes for f in o.failures] == []


def test_the_suite_covers_the_flows_with_at_least_50_scenarios():
    assert sum(len(run_file(path)) for path in FILES) >= 50


def test_the_command_runs_the_suite(capsys):
    with pytest.raises(SystemExit) as done:
        main(["scenario", str(ROOT / "tests" / "scenarios" / "coup")])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip().endswith(" passed, 0 failed")


def scenario(steps, **fields):
    return {"game": "coup", "players": NAMES, "setup": STANDARD, "steps": steps, **fields}


def test_a_wrong_expectation_fails_with_step_expected_and_found():
    outcome = run(scenario([{"Aria": "Tax"}, {"all": "Pass"}, {"expect": {"coins": {"Aria": 4}}}]), "tax")
    assert [str(f) for f in outcome.failures] == [
        "tax: step 3: expected coins {'Aria': 4}, found {'Aria': 5} (phase 'Action Declaration')"]


def test_naming_a_player_who_is_not_pending_fails():
    outcome = run(scenario([{"Blake": "Income"}]), "turn")
    assert "Blake is not pending (waiting for Aria)" in str(outcome.failures[0])


def test_an_accepted_choice_under_reject_fails():
    outcome = run(scenario([{"reject": {"Aria": "Income"}}]), "reject")
    assert "expected Aria: 'Income' to be refused, but it was accepted" in str(outcome.failures[0])


def test_an_expectation_naming_someone_not_playing_says_so():
    outcome = run(scenario([{"expect": {"coins": {"Zed": 2}}}]), "expect")
    assert [str(f) for f in outcome.failures] == ["expect: step 1: 'Zed' is not a player"]


def test_a_setup_that_breaks_card_conservation_is_refused():
    setup = dict(STANDARD, deck=STANDARD["deck"][:-1])
    outcome = run(scenario([], setup=setup), "setup")
    assert "setup refused" in str(outcome.failures[0])
    assert "court of 15 cards" in str(outcome.failures[0])


def test_timer_options_are_accepted(tmp_path):
    path = tmp_path / "timers.yaml"
    path.write_text(yaml.safe_dump(scenario([{"Aria": "Income"}, {"expect": {"coins": {"Aria": 3}}}],
                                            options={"turn_timer": None, "window_timer": None})))
    assert [o.passed for o in run_file(path)] == [True]


def test_a_setup_must_deal_every_player():
    setup = dict(STANDARD, hands={"Aria": ["Duke", "Assassin"], "Blake": ["Captain", "Contessa"]},
                 deck=STANDARD["deck"] + ["Ambassador", "Duke"])
    outcome = run(scenario([], setup=setup), "setup")
    assert "setup.hands must deal every player (3), not 2" in str(outcome.failures[0])


def test_a_deck_without_hands_is_the_whole_court():
    outcome = run(scenario([], setup={"deck": STANDARD["deck"]}), "setup")
    assert "setup.deck is the whole court of 15 cards" in str(outcome.failures[0])
    court = ["Duke", "Duke", "Assassin", "Captain", "Contessa", "Ambassador"] + STANDARD["deck"]
    outcome = run(scenario([{"expect": {"hand": {"Aria": ["Duke", "Duke"], "Blake": ["Assassin", "Captain"],
                                                 "Casey": ["Contessa", "Ambassador"]},
                                        "deck": STANDARD["deck"]}}],
                           setup={"deck": court, "shuffle": False}), "deal")
    assert outcome.passed, [str(f) for f in outcome.failures]
