"""A hand held facing the table (`visibility: others`, Hanabi): every other seat sees it as it is
now, its holder never does (until a show to them or the end), spectators never do; `show` and `say`
`to: others` reach every seat but the player concerned."""

from __future__ import annotations

import pytest

from intrigue.dsl import validate_file
from intrigue.engine import Match
from intrigue.games import load_path

HELD = """\
declaration:
  min_players: 3
  max_players: 3
  roles: [{name: Player}]
  player_states:
    name: {type: string}
    role: {type: string}
    hand: {type: array, visibility: others}
  player_states_template:
    player_states:
      1: {name: '', role: '', hand: []}
  game_state: {cards: [Red 1, Blue 2, White 3, Green 4]}
  role_deal: {roles: {Player: {rest: true}}}
phases:
  0:
    name: Deal
    completion_criteria: {type: UI_displayed}
    effects:
    - deal: roles
    - set: players.hand
      to: '[cards[player.id]]'
    - show: hand
      to: others
    - say: '{player.name} holds the {player.hand}.'
      where: 'true'
      to: others
    next_phase: {id: 1, name: Turn}
  1:
    name: Turn
    completion_criteria:
      type: player_action
      wait_for: single_player_choice
      target_players: {condition: player.id == 1}
      options: [Draw, Stop]
    effects:
    - set: players.hand
      where: player.id == 1
      to: player.hand + [cards[4]]
    next_phase:
      If they draw again: {id: 1, name: Turn, when: "choice == 'Draw'"}
      Otherwise: {id: 2, name: End}
  2:
    name: End
    completion_criteria: {type: UI_displayed}
    effects:
    - win: 'true'
    next_phase: null
"""


@pytest.fixture()
def held(tmp_path):
    path = tmp_path / "held.yaml"
    path.write_text(HELD)
    return path


def hands(match: Match, seat: int | None) -> list:
    return [row["hand"] for row in match.observe(seat)["state"]["players"]]


def test_everyone_sees_a_held_hand_but_its_holder_and_the_spectators(held):
    assert validate_file(held).problems == []
    match = Match(load_path(held), ["Aria", "Blaise", "Cass"], seed=1)
    assert hands(match, 0) == [None, ["Blue 2"], ["White 3"]]
    assert hands(match, 1) == [["Red 1"], None, ["White 3"]]
    assert hands(match, None) == [None, None, None]  # a player watching as a spectator learns nothing
    match.choose(0, "Draw")  # the others see the new card at once; Aria still sees nothing of hers
    assert hands(match, 2)[0] == ["Red 1", "Green 4"] and hands(match, 0)[0] is None
    match.choose(0, "Stop")
    assert match.over and hands(match, 0)[0] == ["Red 1", "Green 4", "Green 4"]  # the end shows it to all


def test_show_and_say_to_others_reach_every_seat_but_the_player_concerned(held):
    match = Match(load_path(held), ["Aria", "Blaise", "Cass"], seed=1)
    logs = [[line["text"] for line in match.observe(seat)["log"]] for seat in (0, 1, 2, None)]
    assert "Aria holds the Red 1." not in logs[0] and "Aria holds the Red 1." in logs[1]
    assert "Aria — hand: Red 1" in logs[2] and "Cass — hand: White 3" not in logs[2]
    assert not [line for line in logs[3] if "hand" in line or "holds" in line]


@pytest.mark.parametrize("old, new, expected", [
    ("      options: [Draw, Stop]", "      options:\n      - {option: Draw, if: size(me.hand) < 2}\n      - Stop",
     "held.yaml:35: warning: phases.1.completion_criteria.options.0.if: me.hand is seen by everyone but its owner "
     "(visibility: others), but the options a player is offered tell them about it"),
    ("      to: others\n    - say", "      to: other\n    - say",
     "held.yaml:23: phases.0.effects.2.to: cannot show to 'other': write owner, actor, others, everyone or an "
     "audience group"),
])
def test_reading_a_held_hand_where_its_holder_would_learn_it_is_warned(held, old, new, expected):
    text = held.read_text()
    assert old in text
    held.write_text(text.replace(old, new, 1))
    found = [str(problem).replace(str(held), "held.yaml") for problem in validate_file(held).problems]
    assert any(line.startswith(expected) for line in found), found
