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


@pytest.mark.parametrize("setup, said", [
    ({"coins": {"Aria": -3}}, "setup.coins.Aria must be a number of coins (0 or more), not -3"),
    ({"coins": {"Aria": "lots"}}, "setup.coins.Aria must be a number of coins (0 or more), not 'lots'"),
    ({"hands": {"Aria": ["Duke", "Captain"]},
      "revealed": {"Blake": ["Duke", "Contessa"], "Casey": ["Assassin", "Contessa"]},
      "deck": ["Duke", "Captain", "Captain", "Assassin", "Assassin", "Contessa"] + ["Ambassador"] * 3},
     "setup.revealed leaves 1 player(s) with influence (Aria): the game would be over before it starts"),
])
def test_a_setup_no_table_can_start_from_is_refused_before_the_deal(setup, said):
    """Negative coins were dealt, coins that are not a number crashed inside the deal, and a table with
    one player left holding influence (already won: coup.md) was played on. Each is refused, saying why."""
    outcome = run({"game": "coup", "players": ["Aria", "Blake", "Casey"], "setup": setup,
                   "steps": [{"Aria": "Income"}]}, "refused")
    assert [str(f) for f in outcome.failures] == [f"refused: setup refused: {said}"]


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


BROKEN = {  # a broken file (as an outside writer might make it) -> the line the runner prints for it
    "game: coup\nplayers: [Aria, Blake]\nsteps:\n  - Aria: Income\n   - Blake: Income\n":
        ":5: not valid YAML, column 4: expected <block end>, but found '<block sequence start>' "
        "(while parsing a block collection)",
    "game: coup\nplayers: [Aria, Blake]\nstepz:\n  - Aria: Income\n":
        ":1: no steps: 'steps' must be a non-empty list (unknown top-level key: stepz)",
    "game: coup\nplayers: [Aria, Blake]\nsteps:\n  Aria: Income\n":
        ":3: 'steps' must be a list (each step a line starting with '- ')",
    "game: coup\nplayers: [Aria, Blake]\nsteps:\n  - Aria: Income\n  - Zed: Income\n":
        ":5: step 2: 'Zed' is not a player (nor a step: expect, reject, all, wait)",
    "game: coup\nplayers: [Aria, Blake]\nsteps:\n  - expekt: {coins: {Aria: 2}}\n":
        ":4: step 1: 'expekt' is not a player (nor a step: expect, reject, all, wait)",
    "game: coup\nplayers: [Aria, Blake, Casey]\nsteps:\n  - Aria: Taxes\n":
        ":4: step 1: Aria: 'Taxes' was refused: 'Taxes' is not an option for Aria now (offered: Income, "
        "Foreign Aid, Tax, Exchange, Steal Blake, Steal Casey)",
    "game: coup\nplayers: [Aria, Blake]\nfirst: Dana\nsteps:\n  - Aria: Income\n":
        ":3: first player 'Dana' is not among the players",
    "game: coup\nplayers: [Aria, Aria]\nsteps:\n  - Aria: Income\n": ":2: player names must be distinct",
    "game: coup\nplayers: [Aria, Blake]\nsetup:\n  coins: {Aira: 5}\nsteps:\n  - Aria: Income\n":
        ":3: setup.coins names 'Aira', who is not playing",
    "game: coup\nplayers: [Aria, Blake]\noptions: {charactors: inquisitor}\nsteps:\n  - Aria: Income\n":
        ":3: unknown option(s) for coup: charactors",
    "game: coup\nplayers: [Aria, Blake]\nsteps:\n  - Aria: Income\n---\ngame: coup\nplayers: [Aria, Blake]\n"
    "steps:\n  - Aria: Income\n  - expect: {coins: {Aria: 4}}\n":
        ":10: scenario 2, step 2: expected coins {'Aria': 4}, found {'Aria': 2} (phase 'Action Declaration')",
    "": ": holds no scenario (the file is empty)",
    "game: coup\nplayers: [Aria, Blake]\noptions: [reformation]\nsteps:\n  - Aria: Income\n":
        ":3: 'options' must be a mapping (option: value)",  # was a traceback that stopped the whole run
    "game: coup\nplayers: [Aria, Blake]\nsteps:\n  - expect: coins\n":
        ":4: step 1: 'expect' needs a mapping (key: …), not 'coins'",
    "game: coup\nplayers: [Aria, Blake]\nsteps:\n  - expect: {coins: Aria}\n":
        ":4: step 1: expect coins needs a mapping {player: …}, not 'Aria'",
}


@pytest.mark.parametrize("text", BROKEN, ids=range(len(BROKEN)))
def test_a_broken_file_fails_naming_the_file_the_line_and_what_is_wrong(text, tmp_path, capsys):
    """docs/scenarios.md, "Running them": a misspelt key, a name not playing, an option not offered or
    a file that is not YAML fails with file:line and what is wrong (a misspelt `steps:` passed, having
    checked nothing; YAML errors named "<unicode string>"; no failure said its line)."""
    path = tmp_path / "broken.yaml"
    path.write_text(text)
    with pytest.raises(SystemExit) as done:
        main(["scenario", str(path)])
    assert done.value.code == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0] == f"{path}{BROKEN[text]}"
    assert out[-1].endswith(" failed") and not out[-1].endswith(" 0 failed")
