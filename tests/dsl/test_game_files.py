"""A designer's YAML file outside the package works with every command that takes a game, and a
game that fails while it is played is reported in one line."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from intrigue import games
from intrigue.cli import main
from intrigue.scenario import run_file

from ..conftest import ROOT

HEIST = ROOT / "src" / "intrigue" / "games" / "heist" / "heist.yaml"


@pytest.fixture
def outside(tmp_path):
    path = tmp_path / "designs" / "museum.yaml"
    path.parent.mkdir()
    shutil.copy(HEIST, path)
    return path


def cli(args, capsys):
    with pytest.raises(SystemExit) as done:
        main([str(a) for a in args])
    captured = capsys.readouterr()
    return done.value.code or 0, captured.out, captured.err


def test_one_resolver_finds_ids_and_files(outside, monkeypatch):
    assert games.resolve("heist") is games.get("heist")
    game = games.resolve(outside)
    assert game.id == "museum" and game.title == "Heist"
    monkeypatch.chdir(outside.parent)
    assert games.resolve("museum.yaml").definition.phases.keys() == game.definition.phases.keys()
    assert games.resolve("museum.yaml", relative_to=outside.parent) is not None
    with pytest.raises(KeyError, match="no installed game 'nowhere.yaml' and no such game file"):
        games.resolve("nowhere.yaml")


def test_the_dsl_file_of_a_game_with_python_names_its_id(tmp_path):
    """Coup's file (or a copy, like the seed document) needs its rules module: say which id to play."""
    coup = ROOT / "src" / "intrigue" / "games" / "coup" / "coup.yaml"
    copy = tmp_path / "000_seed.txt"
    shutil.copy(coup, copy)
    for path in (coup, copy):
        with pytest.raises(ValueError, match=r"DSL file of the installed game 'coup', whose rules are in Python: "
                                             r"play that game by its id \(game: coup\)"):
            games.resolve(path)
    scenario = tmp_path / "tax.yaml"
    scenario.write_text(f"game: {coup}\nplayers: [Aria, Blake]\nsteps: []\n")
    assert "play that game by its id (game: coup)" in str(run_file(scenario)[0].failures[0])


def test_every_command_takes_a_yaml_path(outside, tmp_path, capsys):
    code, out, _ = cli(["simulate", outside, "-n", "10", "-p", "4", "--json"], capsys)
    assert code == 0 and json.loads(out)["games"] == 10 and json.loads(out)["game"] == "museum"
    code, out, _ = cli(["demo", "--game", outside, "--players", "4"], capsys)
    assert code == 0 and "wins!" in out
    code, out, _ = cli(["tournament", outside, "--bots", "random", "--players", "3", "--games", "4",
                        "--workers", "2", "--json"], capsys)
    assert code == 0 and json.loads(out)["games"] == 4
    code, out, _ = cli(["bench", "engine", "--game", outside, "--seconds", "0.1", "--json"], capsys)
    assert code == 0 and json.loads(out)["engine"][0]["game"] == "museum"
    code, out, _ = cli(["graph", outside, "-o", tmp_path / "museum.svg"], capsys)
    assert code == 0 and (tmp_path / "museum.svg").read_text().startswith("<svg")
    scenario = outside.parent / "walk.yaml"
    scenario.write_text("game: museum.yaml\nplayers: [A, B, C]\nfirst: A\nsetup: {roles: {A: Guard, B: Thief, C: Guard}}\n"
                        "steps:\n  - A: B\n  - all: Guilty\n  - expect: {winner: [A, C]}\n")
    assert all(o.passed for o in run_file(scenario))
    code, out, _ = cli(["scenario", scenario], capsys)
    assert code == 0 and out.strip() == "1 passed, 0 failed"


def test_an_unknown_game_is_refused_in_one_line(capsys):
    code, _, err = cli(["simulate", "nowhere.yaml", "-n", "1"], capsys)
    assert code == 2 and "no installed game 'nowhere.yaml' and no such game file" in err


def test_a_file_that_does_not_load_lists_its_problems(tmp_path, capsys):
    broken = tmp_path / "broken.yaml"
    broken.write_text(HEIST.read_text().replace("to: chosen.id", "to: chosen.idd"))
    code, _, err = cli(["simulate", broken, "-n", "1", "-p", "3"], capsys)
    assert code == 2 and "unknown name 'chosen.idd'" in err and "Traceback" not in err


def test_a_game_that_fails_while_played_names_file_line_phase_seed_and_game(tmp_path, capsys):
    failing = tmp_path / "failing.yaml"
    text = HEIST.read_text().replace(
        "      majority: game.convicted\n",
        "      majority: game.convicted\n    - set: game.round\n      to: round // (guilty_votes - guilty_votes)\n")
    failing.write_text(text)
    line = text.splitlines().index("    - set: game.round") + 1
    code, _, err = cli(["simulate", failing, "-n", "50", "-p", "4"], capsys)
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    found = re.fullmatch(rf"error: {re.escape(str(failing))}:{line}: phase 2 \(Vote\), seed (\d+), game (\d+): "
                         r"phases\.2\.effects\.1: division by zero in '//'", lines[0])
    assert found, lines[0]
    seed, number = int(found.group(1)), int(found.group(2))
    assert seed == number - 1  # simulate's seed 0: game n plays with seed n - 1
    code, _, err = cli(["simulate", failing, "-n", "50", "-p", "4", "--debug"], capsys)
    assert code == 1 and "Traceback" in err and "ZeroDivision" not in err.splitlines()[-1]
    assert err.strip().splitlines()[-1].startswith("error: ")


def test_a_scenario_whose_game_fails_before_the_first_step_fails_in_one_line(tmp_path, capsys):
    """A single_player_choice offered to everyone breaks as the match opens: the scenario fails, the
    runner goes on and prints its summary line (it printed a traceback)."""
    broken = tmp_path / "broken.yaml"
    broken.write_text(HEIST.read_text().replace("condition: player.is_active == true",
                                                "condition: player.is_alive == true", 1))
    (tmp_path / "walk.yaml").write_text("game: broken.yaml\nplayers: [A, B, C]\nsteps:\n  - A: Pass\n")
    code, out, _ = cli(["scenario", tmp_path / "walk.yaml"], capsys)
    assert code == 1
    assert out.strip().splitlines() == [
        f"{tmp_path / 'walk.yaml'}: error: RuleError: {broken}:{_line(broken, '  1:')}: phase 1 (Accuse or Pass): "
        "phase 1 (Accuse or Pass) is a single_player_choice but options were offered to 3 players",
        "0 passed, 1 failed"]


def _line(path, text):
    return path.read_text().splitlines().index(text) + 1
