"""The validator: the seed files pass; each broken file gives exactly its messages."""

import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from intrigue.cli import main
from intrigue.dsl import json_schema, validate_file

from ..conftest import ROOT, SHARED

GAMES = ROOT / "src" / "intrigue" / "games"
SEEDS = {"coup": "000_67e2ebca34915753.txt", "bang": "001_19cf39c837930874.txt",
         "dsfgs": "002_12f519d3c3824bd3.txt"}
#: The shipped copy of each seed (DSFGS ships its seed beside the extended dsfgs.yaml).
SHIPPED_SEED = {"coup": "coup/coup.yaml", "bang": "bang/bang.yaml", "dsfgs": "dsfgs/seed.yaml"}
BROKEN = sorted((Path(__file__).parent / "broken").glob("*.yaml"))


@pytest.mark.parametrize("game", sorted(SEEDS))
def test_seed_dsl_files_validate(game):
    checked = validate_file(GAMES / game / f"{game}.yaml")
    assert checked.ok, [str(p) for p in checked.errors]
    assert validate_file(GAMES / SHIPPED_SEED[game]).ok


@pytest.mark.skipif(not (SHARED / "seeds").exists(), reason="../shared/seeds is only beside a checkout")
@pytest.mark.parametrize("game", sorted(SEEDS))
def test_shipped_dsl_files_equal_the_seeds(game):
    shipped = (GAMES / SHIPPED_SEED[game]).read_bytes()
    assert shipped == (SHARED / "seeds" / SEEDS[game]).read_bytes()


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_broken_files_report_every_problem_with_line_and_path(path):
    expected = re.findall(r"^# expect: (.*)$", path.read_text(), re.MULTILINE)
    checked = validate_file(path)
    found = [str(p).replace(str(path), path.name) for p in checked.problems]
    assert sorted(found) == sorted(expected)
    assert not checked.ok or not any(p.severity == "error" for p in checked.problems)


def test_validate_command_exit_codes(capsys):
    with pytest.raises(SystemExit) as ok:
        main(["validate", str(GAMES / "coup" / "coup.yaml")])
    assert ok.value.code == 0
    with pytest.raises(SystemExit) as bad:
        main(["validate", str(Path(__file__).parent / "broken" / "missing_target.yaml")])
    assert bad.value.code == 1
    out = capsys.readouterr().out
    assert "missing_target.yaml:18: phases.1.next_phase: phase 31 does not exist" in out


def test_check_is_validate_under_the_name_designers_reach_for(capsys):
    with pytest.raises(SystemExit) as bad:
        main(["check", str(Path(__file__).parent / "broken" / "missing_target.yaml")])
    assert bad.value.code == 1
    assert "missing_target.yaml:18: phases.1.next_phase: phase 31 does not exist" in capsys.readouterr().out


@pytest.mark.parametrize("game", sorted(SEEDS))
def test_json_schema_accepts_the_seed_files(game):
    data = yaml.safe_load((GAMES / game / f"{game}.yaml").read_text())
    as_json = json.loads(json.dumps(data))  # what an editor sees: string keys
    jsonschema.validate(as_json, json_schema())


def test_json_schema_rejects_a_wrong_completion_type():
    data = yaml.safe_load((GAMES / "coup" / "coup.yaml").read_text())
    data["phases"][0]["completion_criteria"]["type"] = "whenever"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(json.loads(json.dumps(data)), json_schema())


def test_every_next_phase_variant_is_accepted(tmp_path):
    text = """
declaration: {player_states: {name: {type: string}}}
phases:
  0:
    name: A
    completion_criteria: {type: timer, seconds: 5}
    next_phase: {id: 1, name: B}
  1:
    name: B
    completion_criteria: {type: UI_displayed}
    next_phase:
      If it rains: {id: 2, name: C}
      Otherwise: {id: 3, name: D}
  2:
    name: C
    completion_criteria: {type: UI_displayed}
    next_phase: {id: null, name: null}
  3:
    name: D
    completion_criteria: {type: UI_displayed}
    next_phase: null
"""
    path = tmp_path / "variants.yaml"
    path.write_text(text)
    checked = validate_file(path)
    assert checked.ok and not checked.problems


def test_validate_takes_an_installed_game_id_and_checks_its_extension_files_too(capsys):
    with pytest.raises(SystemExit) as ok:
        main(["validate", "coup"])
    out = capsys.readouterr().out
    assert ok.value.code == 0
    assert "coup.yaml: ok" in out and "variants.yaml: ok" in out


def test_a_yaml_syntax_error_inside_braces_says_to_quote_the_expression(tmp_path):
    path = tmp_path / "braces.yaml"
    path.write_text("declaration: {title: x}\nphases:\n  0: {name: a, when: players[bidder].points >= 2}\n")
    [problem] = validate_file(path).problems
    assert str(problem).endswith("YAML syntax error: expected ',' or '}', but got '[' (inside {...} the characters "
                                 ", [ ] { } belong to YAML: quote an expression that holds them, or write the "
                                 "mapping on several lines)")


def test_a_question_mark_ending_text_inside_braces_says_to_quote_the_text(tmp_path):
    """Insider's phase named with a question (``{id: 4, name: Is the Finder the Insider?}``) did not parse,
    and the hint spoke only of , [ ] { }."""
    path = tmp_path / "question.yaml"
    path.write_text("declaration: {title: x}\nphases:\n  0: {name: a, next_phase: {id: 4, name: Who is it?}}\n")
    [problem] = validate_file(path).problems
    assert str(problem).startswith(f"{path}:3: phases.0: YAML syntax error: expected ',' or '}}', but got '?'")
    assert str(problem).endswith("so does a ? before } or , there: quote the text, name: 'Who is it?'")


def test_except_self_on_a_show_is_checked_where_it_is_written(tmp_path):
    """``except_self`` leaves the player a card is about out of its audience: a show to its owner
    would then reach nobody, a say does not take it, and it is true or false."""
    path = tmp_path / "except.yaml"
    path.write_text("declaration: {title: x, min_players: 2, max_players: 2, player_states: {name: {type: string},\n"
                    "  role: {type: string, visibility: owner}}, player_states_template: {player_states: {1: {name: '', role: ''}}}}\n"
                    "phases:\n  0:\n    name: a\n    completion_criteria: {type: UI_displayed}\n    effects:\n"
                    "    - {show: role, to: owner, except_self: true}\n    - {say: hi, except_self: true}\n"
                    "    - {show: role, except_self: 3}\n    - {show: role, to: others, except_self: true}\n"
                    "    next_phase: null\n")
    found = [str(problem).replace(f"{path}:", "") for problem in validate_file(path).problems]
    assert found == ["8: phases.0.effects.0.except_self: with 'to: owner', except_self leaves nobody to show it to",
                     "9: phases.0.effects.1: 'say' does not take 'except_self'",
                     "10: phases.0.effects.2.except_self: input should be a valid boolean, unable to interpret input"]


def test_a_text_display_with_values_reads_only_what_every_seat_sees(tmp_path):
    """A topic card (an action's player text with ``{…}`` values, ``stays: true``) is one text for the
    table: a player's field, a hidden game name or an unknown name is refused where it is written, and
    ``stays`` needs a text display with player text."""
    path = tmp_path / "card.yaml"
    path.write_text("""declaration:
  title: x
  min_players: 2
  max_players: 2
  player_states: {name: {type: string}, role: {type: string, visibility: owner}}
  player_states_template: {player_states: {1: {name: '', role: ''}}}
  game_state: {secret: '', topic: ''}
  public_state: [topic]
phases:
  0:
    name: a
    actions:
    - description: card
      player_text: 'Topic {topic}, {secret}, {player.role}, {nope}'
      tools: [createTextDisplay]
      stays: true
    - description: other
      tools: [createPhaseIndicator]
      stays: true
    completion_criteria: {type: UI_displayed}
    effects:
    - set: game.secret
      to: "'x'"
    next_phase: null
""")
    found = [str(problem).replace(f"{path}:", "") for problem in validate_file(path).problems]
    assert found == [
        "14: phases.0.actions.0.player_text: a text display is one text for the table: it cannot read a player's "
        "fields, in {player.role}",
        "14: phases.0.actions.0.player_text: unknown name 'nope' (column 1) in 'nope'",
        "14: phases.0.actions.0.player_text: {secret} reads 'secret', which players cannot see, and the text "
        "display shows it: add it to public_state",
        "19: phases.0.actions.1.stays: 'stays' keeps a text display on the table: add createTextDisplay to the "
        "action's tools",
        "19: phases.0.actions.1.stays: 'stays' keeps the action's player text on the table: give it one"]


def test_a_clock_is_checked_where_it_is_written(tmp_path):
    """``clock`` names a timer phase's shared clock: an unknown name, or a clock on a vote, is reported."""
    source = (ROOT / "docs" / "examples" / "games" / "spyfall.yaml").read_text(encoding="utf-8")
    unknown = source.replace("      clock: round  ", "      clock: rounds ")
    on_a_vote = source.replace("      default: Disagree\n", "      default: Disagree\n      clock: round\n")
    found = []
    for index, text in enumerate([unknown, on_a_vote]):
        path = tmp_path / str(index) / "spyfall.yaml"
        path.parent.mkdir()
        path.write_text(text, encoding="utf-8")
        found.append([p.message for p in validate_file(path).problems])
    assert found == [["unknown name 'rounds' (column 1) in 'rounds'"], ["'clock' belongs to a timer phase"]]


def test_a_file_that_does_not_parse_still_names_the_key_path_of_its_problem():
    """The key path of a YAML syntax error is read from the indentation above it: for every line of
    the example and installed games that starts a key or a list item, it is the path the parser's
    index gives that line (continuation lines of a list written over several lines are left out)."""
    from intrigue.dsl.source import _KEY, _path_at, dotted, parse

    files = sorted((ROOT / "docs" / "examples" / "games").glob("*.yaml")) + sorted(GAMES.glob("*/*.yaml"))
    checked = 0
    for file in files:
        text = file.read_text(encoding="utf-8")
        paths: dict[int, set[str]] = {}
        for path, line in parse(text, str(file)).lines.items():
            paths.setdefault(line, set()).add(dotted(path))
        for line, found in paths.items():
            start = text.splitlines()[line - 1].lstrip()
            if _KEY.match(start) or start.startswith("- "):
                assert _path_at(text, line) in found, (file.name, line, _path_at(text, line), found)
                checked += 1
    assert checked > 4000


def test_a_question_no_voting_panel_shows_is_warned_about(tmp_path):
    """A decision phase's player_text is the question its voting panel asks: without createVotingPanel
    the player reads "Your choice" over buttons that may be bare names (a designer's game did)."""
    source = (ROOT / "docs" / "examples" / "games" / "love_letter.yaml").read_text(encoding="utf-8")
    assert "createVotingPanel" in source
    path = tmp_path / "love_letter.yaml"
    path.write_text(source.replace(", createVotingPanel]", "]"), encoding="utf-8")
    found = [(p.severity, str(p.path), p.message) for p in validate_file(path).problems]
    assert found and all(severity == "warning" and where.endswith("player_text") and "createVotingPanel" in message
                         for severity, where, message in found), found
    assert validate_file(ROOT / "docs" / "examples" / "games" / "love_letter.yaml").problems == []
