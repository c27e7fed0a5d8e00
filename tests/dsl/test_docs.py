"""Every command of docs/writing-a-game.md runs (with small numbers), on a designer's file outside
the package; the scenario example of the page passes."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import yaml

from intrigue.cli import main
from intrigue.scenario import run

from ..conftest import ROOT
from ..server.support import free_port

DOC = (ROOT / "docs" / "writing-a-game.md").read_text(encoding="utf-8")
HEIST = ROOT / "src" / "intrigue" / "games" / "heist" / "heist.yaml"
COMMANDS = sorted({found.strip().rstrip(".") for found in re.findall(r"(?m)(?:^|`|\$ )(intrigue [^`\n#]+)", DOC)})
#: Numbers a test cuts down: (long flag value, short value).
SMALL = {"1000": "20", "2000": "2", "ismcts:100,random": "ismcts:4,random"}


@pytest.fixture
def designer(tmp_path, monkeypatch):
    """A designer's folder: my_game.yaml (Heist renamed), my_scenarios/, my_games/."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(HEIST, tmp_path / "my_game.yaml")
    shutil.copy(HEIST, tmp_path / "heist.yaml")
    for name in ("variants.yaml", "coup.yaml"):  # an extension file beside the file it extends
        shutil.copy(ROOT / "src" / "intrigue" / "games" / "coup" / name, tmp_path / name)
    (tmp_path / "my_scenarios").mkdir()
    (tmp_path / "my_games").mkdir()
    shutil.copy(HEIST, tmp_path / "my_games" / "my_game.yaml")
    example = re.search(r"```yaml\n(game: \.\./my_game\.yaml.*?)```", DOC, re.S).group(1)
    (tmp_path / "my_scenarios" / "example.yaml").write_text(example)
    (tmp_path / "my_game").mkdir()  # a game in a folder of its own, with the page's first tutorial.json
    shutil.copy(HEIST, tmp_path / "my_game" / "my_game.yaml")
    first = re.search(r"```json\n(\s*\{\"seats\": 4.*?)```", DOC, re.S).group(1)
    (tmp_path / "my_game" / "tutorial.json").write_text(first)
    return tmp_path


def test_the_page_names_the_commands_this_test_runs():
    assert COMMANDS == [
        "intrigue check my_game.yaml",
        "intrigue compile my_game.yaml",
        "intrigue demo --game my_game.yaml --players 5",
        "intrigue graph coup",
        "intrigue graph my_game.yaml -o my_game.svg",
        "intrigue replay 12 --games my_games/",
        "intrigue scenario my_scenarios/",
        "intrigue schema",
        "intrigue schema > dsl.schema.json",
        "intrigue serve --games my_games/",
        "intrigue simulate my_game.yaml -n 1000 -p 4",
        "intrigue tournament my_game.yaml --bots ismcts:100,random --players 4 --games 2000 --seed 1",
        "intrigue tutorial my_game/my_game.yaml",
        "intrigue tutorial my_game/my_game.yaml --seed 7",
        "intrigue validate heist.yaml",
        "intrigue validate my_game.yaml",
        "intrigue validate variants.yaml",
    ], COMMANDS


#: Commands that need a server or a stored match, run elsewhere: serve below, replay of a folder's
#: game by tests/server/test_history.py (a finished match of a game served with --games).
ELSEWHERE = ("serve", "replay")


@pytest.mark.parametrize("command", [c for c in COMMANDS if not any(word in c for word in ELSEWHERE)])
def test_each_command_runs(designer, command, capsys):
    words = [SMALL.get(word, word) for word in shlex.split(command)[1:]]
    output = None
    if ">" in words:
        output = designer / words[words.index(">") + 1]
        words = words[:words.index(">")]
    with pytest.raises(SystemExit) as done:
        main(words)
    assert done.value.code in (0, None), capsys.readouterr()
    out = capsys.readouterr().out
    if output is not None:
        output.write_text(out)
        assert yaml.safe_load(output.read_text())["title"] == "Intrigue phase-DSL game"
    if words[0] == "graph" and "-o" in words:
        assert (designer / "my_game.svg").read_text().startswith("<svg")
    elif words[0] == "graph":
        assert out.startswith("<svg")
    if words == ["schema"]:
        assert '"Intrigue phase-DSL game"' in out
    if words[0] == "scenario":
        assert out.strip().endswith("1 passed, 0 failed")
    if words[0] == "simulate":
        assert "20 games" in out and "Thief Wins" in out
    if words[0] == "compile":
        assert "def targets_1(" in out and "'player.is_active == true'" in out
    if words[0] == "validate" and "variants" not in words[1]:
        assert out.strip().endswith("ok (7 phases)")


def test_serve_games_lists_the_designers_game(designer):
    port = free_port()
    command = [SMALL.get(word, word) for word in shlex.split("intrigue serve --games my_games/")[1:]]
    server = subprocess.Popen([sys.executable, "-m", "intrigue.cli", *command, "--port", str(port),
                               "--db", str(designer / "served.db")], cwd=designer, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                listed = httpx.get(f"http://127.0.0.1:{port}/api/games", trust_env=False, timeout=1).json()
                break
            except httpx.HTTPError:
                assert server.poll() is None and time.monotonic() < deadline, server.stdout.read()
                time.sleep(0.2)
        assert "my_game" in [game["id"] for game in listed] and "heist" in [game["id"] for game in listed]
    finally:
        server.terminate()
        server.wait(10)


def test_the_validate_example_shows_the_messages_the_validator_gives(tmp_path):
    """The two messages the page prints come from the mistakes they name."""
    broken = HEIST.read_text().replace("to: chosen.id", "to: chosen.idd", 1)
    broken = broken.replace("when: thieves_free == 0", "when: thieves_fre == 0", 1)
    path = tmp_path / "heist.yaml"
    path.write_text(broken)
    from intrigue.dsl import validate_file

    found = [str(p).replace(str(path), "heist.yaml") for p in validate_file(path).problems]
    for line in re.findall(r"(?m)^(heist\.yaml:\d+: .*)$", DOC):
        message = line.split(": ", 1)[1]
        assert any(f.endswith(message) for f in found), (line, found)


def test_the_scenario_example_passes(designer):
    example = yaml.safe_load((designer / "my_scenarios" / "example.yaml").read_text())
    outcome = run(example, "example", designer / "my_scenarios")
    assert outcome.passed, [str(f) for f in outcome.failures]
