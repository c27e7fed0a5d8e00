"""The declarative extension: the validator catches every mistake; the statements do what they say."""

import json
import random

import jsonschema
import pytest
import yaml

from intrigue.dsl import json_schema, validate_text
from intrigue.engine import Match
from intrigue.games import load_path
from intrigue.simulate import random_play

from ..conftest import ROOT

GAMES = ROOT / "src" / "intrigue" / "games"

#: A small valid game using every statement; each test breaks one thing.
BASE = """
declaration:
  min_players: 3
  max_players: 4
  roles: [{name: Cat}, {name: Mouse}]
  player_states:
    name: {type: string}
    role: {type: string, visibility: player.caught == true}
    caught: {type: boolean}
    turn: {type: boolean}
    note: {type: string, visibility: owner}
  audience_groups:
    cats: {selection_criteria: player.role == 'Cat'}
  game_state: {round: 1, mice: 0, ayes: 0, agreed: false, target: 0}
  role_deal:
    roles:
      Cat: {counts: {3: 1, 4: 1}, fields: {note: hunter}}
      Mouse: {rest: true, fields: {note: prey}}
phases:
  0:
    name: Deal
    completion_criteria: {type: UI_displayed}
    effects:
    - deal: roles
    - show: role
      to: owner
    - show: role
      where: player.role == 'Cat'
      to: cats
    - advance: turn
    next_phase: {id: 1, name: Pick}
  1:
    name: Pick
    completion_criteria:
      type: player_action
      wait_for: single_player_choice
      target_players: {condition: player.turn == true}
      options:
      - option: Rest
        if: player.caught == false
      - players: player.caught == false
        except_self: true
    effects:
    - set: game.target
      to: chosen.id
    - say: '{actor.name} picks {chosen.name}'
    next_phase:
      Rest: {id: 3, name: Next, when: choice == 'Rest'}
      Vote: {id: 2, name: Vote}
  2:
    name: Vote
    completion_criteria:
      type: player_action
      wait_for: all_players_action
      target_players: {condition: player.caught == false}
      options: ['Yes', 'No']  # quoted: YAML reads a bare Yes as true
    effects:
    - tally: 'Yes'
      into: game.ayes
      majority: game.agreed
    - set: players.caught
      where: player.id == target and agreed == true
      to: true
    next_phase: {id: 3, name: Next}
  3:
    name: Next
    completion_criteria: {type: UI_displayed}
    actions:
    - description: count
      effects:
      - count: player.role == 'Mouse' and player.caught == false
        into: game.mice
      - advance: turn
        where: player.caught == false
        rounds: game.round
    next_phase:
      Mice gone: {id: 9, name: End, when: mice == 0}
      Late: {id: 9, name: End, when: round > 3}
      Again: {id: 1, name: Pick}
  9:
    name: End
    completion_criteria: {type: UI_displayed}
    effects:
    - win: player.role == 'Cat' and mice == 0 or player.role == 'Mouse' and mice > 0
    next_phase: null
"""


def problems(text):
    return [f"{p.path}: {p.message}" for p in validate_text(text).problems]


def broken(old, new):
    assert old in BASE, old
    return problems(BASE.replace(old, new, 1))


def test_the_base_game_is_valid_and_plays_to_the_end(tmp_path):
    assert problems(BASE) == []
    path = tmp_path / "cats.yaml"
    path.write_text(BASE)
    game = load_path(path)
    for seed in range(50):
        match = Match(game, ["A", "B", "C", "D"][: 3 + seed % 2], seed=seed, headless=True)
        random_play(match, random.Random(seed))
        assert match.over and match.winners


@pytest.mark.parametrize("old, new, expected", [
    ("when: mice == 0", "when: mice = 0",
     "phases.3.next_phase.Mice gone.when: unexpected character '=' (write == to compare) (column 6) in 'mice = 0'"),
    ("when: round > 3", "when: rounds > 3",
     "phases.3.next_phase.Late.when: unknown name 'rounds' (column 1) in 'rounds > 3'"),
    ("when: choice == 'Rest'", "when: player.sleepy == true",
     "phases.1.next_phase.Rest.when: player field 'sleepy' is not declared in player_states (column 1) "
     "in 'player.sleepy == true'"),
    ("      Mice gone: {id: 9, name: End, when: mice == 0}", "      Mice gone: {id: 9, name: End}",
     "phases.3.next_phase.Mice gone: every branch but the last needs 'when' once one has it"),
    ("    - set: game.target\n      to: chosen.id", "    - set: game.pick\n      to: chosen.id",
     "phases.1.effects.0.set: game name 'pick' is not declared in declaration.game_state"),
    ("    - set: players.caught\n", "    - set: players.cought\n",
     "phases.2.effects.1.set: player field 'cought' is not declared in player_states"),
    ("    - set: players.caught\n", "    - set: players.id\n",
     "phases.2.effects.1.set: player field 'id' is the engine's (1, 2, ... in seat order): it cannot be written"),
    ("    - set: game.target\n", "    - set: someone.picked\n",
     "phases.1.effects.0.set: cannot set 'someone.picked': write game.<name>, actor.<field>, "
     "chosen.<field> or players.<field>"),
    ("      to: chosen.id", "      to: chosen.id\n      where: player.turn == true",
     "phases.1.effects.0.where: 'where' goes with players.<field>"),
    ("      into: game.ayes", "      into: ayes", "phases.2.effects.0.into: 'ayes' must be game.<name>"),
    ("      to: cats", "      to: dogs",
     "phases.0.effects.2.to: cannot show to 'dogs': write owner, actor, others, everyone or an audience group"),
    ("    - say: '{actor.name} picks {chosen.name}'", "    - say: '{actor.name} picks {chosen.nam}'",
     "phases.1.effects.1.say: unknown name 'chosen.nam' (column 1) in 'chosen.nam'"),
    ("    - deal: roles", "    - deal: roles\n      to: owner", "phases.0.effects.0: 'deal' does not take 'to'"),
    ("    - say: '{actor.name} picks {chosen.name}'",
     "    - say: '{actor.name} picks {chosen.name}'\n      banner: {tone: sad, title: Picked}",
     "phases.1.effects.1.banner.tone: must be 'good', 'bad' or 'info'"),
    ("    - say: '{actor.name} picks {chosen.name}'", "    - say: '{actor.name} picks {chosen.name}'\n      banner: Picked",
     "phases.1.effects.1.banner: a banner is a mapping: {tone: good, bad or info, title: a short headline}"),
    ("    - say: '{actor.name} picks {chosen.name}'",
     "    - say: '{actor.name} picks {chosen.name}'\n      banner: {tone: bad}",
     "phases.1.effects.1.banner.title: required key is missing"),
    ("    - say: '{actor.name} picks {chosen.name}'",
     "    - say: '{actor.name} picks {chosen.name}'\n      banner: {tone: bad, title: '{chosen.nam} picked'}",
     "phases.1.effects.1.banner.title: unknown name 'chosen.nam' (column 1) in 'chosen.nam'"),
    ("    - deal: roles", "    - deal: roles\n      banner: {tone: bad, title: Dealt}",
     "phases.0.effects.0: 'deal' does not take 'banner'"),
    ("    - deal: roles", "    - deal: roles\n      twice: true",
     "phases.0.effects.0.twice: extra inputs are not permitted"),
    ("    - deal: roles", "    - deal: roles\n      say: hi",
     "phases.0.effects.0: an effect needs exactly one of set, count, tally, most, advance, deal, shuffle, roll, show, "
     "say, win, if (found: deal, say)"),
    ("    - tally: 'Yes'\n      into: game.ayes\n", "    - tally: 'Yes'\n",
     "phases.2.effects.0: 'tally' needs 'into'"),
    ("      Cat: {counts: {3: 1, 4: 1}, fields: {note: hunter}}", "      Cat: {counts: {3: 1}, fields: {note: hunter}}",
     "declaration.role_deal.roles.Cat.counts: no count for 4 players"),
    ("      Mouse: {rest: true, fields: {note: prey}}", "      Dog: {rest: true, fields: {bark: loud}}",
     "declaration.role_deal.roles.Dog: role 'Dog' is not declared in roles"),
    ("      - players: player.caught == false\n        except_self: true", "      - option: Rest\n        choose: 2",
     "phases.1.completion_criteria.options.1: 'choose' goes with 'players'"),
    ("      options: ['Yes', 'No']  # quoted: YAML reads a bare Yes as true",
     "      options: ['Yes', 'No']\n      default: Maybe",
     "phases.2.completion_criteria.default: default 'Maybe' is not one of this phase's literal options"),
    ("  game_state: {round: 1,", "  game_state: {choice: 1, round: 1,",
     "declaration.game_state.choice: 'choice' is a reserved name; choose another"),
    ("  game_state: {round: 1,", "  public_state: [round, mood]\n  game_state: {round: 1,",
     "declaration.public_state.1: 'mood' is not a name of declaration.game_state"),
    ("    role: {type: string, visibility: player.caught == true}",
     "    role: {type: string, visibility: player.caught === true}",
     "declaration.player_states.role.visibility: unexpected character '=' (write == to compare) (column 17) in "
     "'player.caught === true'"),
])
def test_each_mistake_is_reported_where_it_is(old, new, expected):
    assert expected in broken(old, new)


def test_a_player_whose_time_runs_out_gets_the_declared_default():
    heist = load_path(GAMES / "heist" / "heist.yaml")
    match = Match(heist, ["A", "B", "C"], seed=1, setup={"first": "A"})
    assert heist.binding.timeout_choice(match, 0, match.legal(0)) == "Pass"
    match.choose(0, "B")
    assert match.legal(1) == ["Guilty", "Innocent"]
    assert heist.binding.timeout_choice(match, 1, match.legal(1)) == "Innocent"


def test_numbers_and_booleans_are_values(tmp_path):
    text = BASE.replace("    - set: game.target\n      to: chosen.id",
                        "    - set: game.target\n      to: 7\n    - set: game.agreed\n      to: false")
    assert problems(text) == []
    path = tmp_path / "cats.yaml"
    path.write_text(text)
    match = Match(load_path(path), ["A", "B", "C"], seed=2, setup={"first": "A"})
    match.choose(0, "B")
    assert match.state["target"] == 7


def test_an_unknown_statement_is_an_error_not_a_warning():
    found = validate_text(BASE.replace("    - deal: roles", "    - stir: roles", 1))
    assert not found.ok
    assert any("an effect needs exactly one of" in p.message and p.path == "phases.0.effects.0"
               for p in found.errors)


def test_files_without_extensions_mean_what_they_meant():
    seed = (GAMES / "dsfgs" / "seed.yaml").read_text()
    assert validate_text(seed).ok
    assert "when" not in seed and "effects" not in seed


@pytest.mark.parametrize("path", ["dsfgs/dsfgs.yaml", "heist/heist.yaml", "werewolf/werewolf.yaml", "avalon/avalon.yaml"])
def test_the_json_schema_accepts_the_extended_files(path):
    data = yaml.safe_load((GAMES / path).read_text())
    jsonschema.validate(json.loads(json.dumps(data)), json_schema())


@pytest.mark.parametrize("entry", [{"stir": "roles"}, {"deal": "roles", "say": "hi"}, {"into": "game.round"}])
def test_the_json_schema_rejects_a_wrong_statement(entry):
    data = yaml.safe_load((GAMES / "heist" / "heist.yaml").read_text())
    data["phases"][0]["effects"].append(entry)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(json.loads(json.dumps(data)), json_schema())


def test_the_json_schema_rejects_an_option_entry_with_both_kinds():
    data = yaml.safe_load((GAMES / "heist" / "heist.yaml").read_text())
    data["phases"][1]["completion_criteria"]["options"].append({"option": "Run", "players": "true"})
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(json.loads(json.dumps(data)), json_schema())


def test_visibility_shows_each_field_to_whom_it_may(tmp_path):
    path = tmp_path / "cats.yaml"
    path.write_text(BASE)
    game = load_path(path)
    match = Match(game, ["A", "B", "C", "D"], seed=3, setup={"roles": {"A": "Cat", "B": "Mouse", "C": "Mouse",
                                                                      "D": "Mouse"}, "first": "A"})
    view = {p["name"]: p for p in match.observe(1)["state"]["players"]}
    assert view["B"]["role"] == "Mouse" and view["B"]["note"] == "prey"
    assert view["A"]["role"] is None and view["A"]["note"] is None and view["A"]["caught"] is False
    match.choose(0, "B")
    match.choose(0, "Yes")
    match.choose(1, "No")
    match.choose(2, "Yes")
    match.choose(3, "Yes")
    assert match.players[1]["caught"] is True and match.state["ayes"] == 3 and match.state["agreed"] is True
    spectator = {p["name"]: p for p in match.observe(None)["state"]["players"]}
    assert spectator["B"]["role"] == "Mouse" and spectator["C"]["role"] is None
    assert spectator["B"]["note"] is None  # 'owner' stays with the owner
    assert set(match.observe(None)["state"]) == {"players"}  # no game-level name is public unless listed


def test_listed_game_level_names_are_seen_by_everyone(tmp_path):
    path = tmp_path / "cats.yaml"
    path.write_text(BASE.replace("  game_state: {round: 1,", "  public_state: [round, ayes]\n  game_state: {round: 1,"))
    match = Match(load_path(path), ["A", "B", "C", "D"], seed=3, setup={"first": "A"})
    match.choose(0, "B")
    match.choose(0, "Yes")
    for seat in (0, 1, None):
        state = match.observe(seat)["state"]
        assert state["round"] == 1 and state["ayes"] == match.state["ayes"] and "target" not in state
    for seat in (1, 2, 3):
        match.choose(seat, "Yes")
    assert match.observe(2)["state"]["ayes"] == match.state["ayes"] == 4  # every vote, once tallied


def test_a_when_branch_may_end_the_game(tmp_path):
    path = tmp_path / "loop.yaml"
    path.write_text("""
declaration:
  player_states: {name: {type: string}}
  game_state: {}
phases:
  0:
    name: Ask
    completion_criteria:
      type: player_action
      wait_for: single_player_choice
      target_players: {condition: player.id == 1}
      options: [Stop, Again]
    next_phase:
      Stop: {id: null, when: choice == 'Stop'}
      Again: {id: 0, name: Ask}
""")
    match = Match(load_path(path), ["A", "B"], seed=1)
    match.choose(0, "Again")
    assert not match.over and match.legal(0) == ["Stop", "Again"]
    match.choose(0, "Stop")
    assert match.over
