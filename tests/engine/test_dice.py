"""The `roll` statement: dice from the match's seeded generator, hidden like a hand, fixed by a
scenario's setup.rolls, and every mistake in one named by file, line and key path."""

from __future__ import annotations

import random

import pytest

from intrigue.dsl import validate_file
from intrigue.engine import Match
from intrigue.engine.determinize import determinize
from intrigue.games import load_path

DICE = """\
declaration:
  min_players: 2
  max_players: 4
  roles: [{name: Player}]
  player_states:
    name: {type: string}
    role: {type: string}
    dice: {type: array, visibility: owner}
    dice_left: {type: num}
  player_states_template:
    player_states:
      1: {name: '', role: '', dice: [], dice_left: 3}
  game_state: {d20: 0, sides: 6}
  public_state: [d20]
  role_deal: {roles: {Player: {rest: true}}}
phases:
  0:
    name: Roll
    completion_criteria: {type: UI_displayed}
    effects:
    - deal: roles
    - set: players.dice_left
      where: player.id == 2
      to: 1
    - roll: players.dice
      dice: player.dice_left
      sides: sides
    - roll: game.d20
      sides: 20
    next_phase: {id: 1, name: Look}
  1:
    name: Look
    completion_criteria:
      type: player_action
      wait_for: all_players_action
      target_players: {condition: 'true'}
      options: [Done, Wait]
    next_phase: null
"""


@pytest.fixture()
def dice(tmp_path):
    path = tmp_path / "dice.yaml"
    path.write_text(DICE)
    return load_path(path)


def test_each_player_rolls_their_own_number_of_dice_and_a_game_name_gets_one_number(dice):
    match = Match(dice, ["Aria", "Blaise", "Cass"], seed=3, headless=True)
    rolled = [player["dice"] for player in match.players]
    assert [len(d) for d in rolled] == [3, 1, 3]
    assert all(1 <= value <= 6 for d in rolled for value in d)
    assert 1 <= match.state["d20"] <= 20
    again = Match(dice, ["Aria", "Blaise", "Cass"], seed=3, headless=True)
    assert [player["dice"] for player in again.players] == rolled and again.state["d20"] == match.state["d20"]
    faces = {value for seed in range(40) for player in Match(dice, ["A", "B"], seed=seed, headless=True).players
             for value in player["dice"]}
    assert faces == {1, 2, 3, 4, 5, 6}


def test_a_seat_sees_its_own_dice_and_never_another_seats(dice):
    match = Match(dice, ["Aria", "Blaise"], seed=5, headless=True)
    for seat in range(2):
        rows = match.observe(seat)["state"]["players"]
        assert rows[seat]["dice"] == match.players[seat]["dice"]
        assert rows[1 - seat]["dice"] is None
        assert rows[1 - seat]["dice_left"] == match.players[1 - seat]["dice_left"]
    assert match.observe(None)["state"]["d20"] == match.state["d20"]


def test_a_scenario_fixes_the_first_numbers_rolled_then_the_dice_are_random_again(dice):
    match = Match(dice, ["Aria", "Blaise"], seed=1, headless=True, setup={"rolls": [6, 6, 1, 2]})
    assert match.players[0]["dice"] == [6, 6, 1] and match.players[1]["dice"] == [2]
    assert 1 <= match.state["d20"] <= 20


def test_a_fixed_roll_the_die_cannot_show_stops_the_match_naming_setup_rolls(dice):
    with pytest.raises(Exception, match=r"dice.yaml:\d+: phase 0 \(Roll\): phases\.0\.effects\.2: "
                                        r"setup\.rolls\[2\] is 7, not a roll of a die of 6 faces"):
        Match(dice, ["Aria", "Blaise"], seed=1, headless=True, setup={"rolls": [1, 7]})


def test_the_scenario_runner_refuses_setup_rolls_that_are_not_numbers(dice):
    problems = dice.binding.setup_check({"rolls": [3, "six"]}, 2)
    assert problems == ["setup.rolls must be a list of numbers rolled, 1 or more ([3, 1, 6]), not [3, 'six']"]


@pytest.mark.parametrize("old, new, expected", [
    ("    - roll: players.dice\n", "    - roll: actor.dice\n",
     "dice.yaml:25: phases.0.effects.2.roll: cannot roll into 'actor.dice': write players.<field> or game.<name>"),
    ("    - roll: players.dice\n      dice: player.dice_left\n", "    - roll: players.dice\n",
     "dice.yaml:25: phases.0.effects.2.roll: players.dice holds a list, but a roll without 'dice' is one number "
     "(add dice: N for a list)"),
    ("    - roll: game.d20\n", "    - roll: game.d20\n      dice: 2\n",
     "dice.yaml:28: phases.0.effects.3.roll: game.d20 holds a number, but a roll with 'dice' is a list of numbers"),
    ("      sides: 20", "      sides: 0",
     "dice.yaml:29: phases.0.effects.3.sides: sides must be a whole number of faces, 1 or more, not 0"),
    ("      dice: player.dice_left", "      dice: player.name",
     "dice.yaml:26: phases.0.effects.2.dice: dice must be a number, but this is text: 'player.name'"),
    ("      dice: player.dice_left", "      dice: player.dice_lefts",
     "dice.yaml:26: phases.0.effects.2.dice: player field 'dice_lefts' is not declared in player_states"),
    ("    - roll: game.d20\n", "    - roll: game.d12\n",
     "dice.yaml:28: phases.0.effects.3.roll: game name 'd12' is not declared in declaration.game_state"),
    ("    - roll: game.d20\n", "    - roll: game.d20\n      where: player.id == 1\n",
     "dice.yaml:29: phases.0.effects.3.where: 'where' goes with players.<field>"),
    ("      sides: 20", "      sides: 20\n      to: 3", "dice.yaml:28: phases.0.effects.3: 'roll' does not take 'to'"),
])
def test_each_mistake_in_a_roll_is_reported_with_file_line_and_key_path(tmp_path, old, new, expected):
    assert old in DICE
    path = tmp_path / "dice.yaml"
    path.write_text(DICE.replace(old, new, 1))
    found = [str(problem).replace(str(path), "dice.yaml") for problem in validate_file(path).problems]
    assert any(expected in line for line in found), found


def test_the_search_bots_samples_roll_the_dice_they_cannot_see_anew(dice):
    """A seat's own dice stay as they are; another seat's hidden dice are rolled again, as many as
    the roll statement gives them (not left empty, as a hidden field no statement rolls is)."""
    match = Match(dice, ["Aria", "Blaise", "Cass"], seed=4, headless=True)
    samples = [determinize(dice, match.observe(0), 0, random.Random(n)) for n in range(30)]
    assert all(s is not None and s.players[0]["dice"] == match.players[0]["dice"] for s in samples)
    assert {len(s.players[1]["dice"]) for s in samples} == {1} and {len(s.players[2]["dice"]) for s in samples} == {3}
    assert len({tuple(s.players[2]["dice"]) for s in samples}) > 5
