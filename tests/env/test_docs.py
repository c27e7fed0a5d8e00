"""Every example and command in docs/agents.md runs (briefly)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
PERFORMANCE = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
#: The environments' examples; the sections from "Remote bot" on (a server to talk to) run in tests/agents/test_docs.py.
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", DOC.split("## Remote bot: a seat over the protocol")[0], re.S)


def test_the_doc_has_its_examples():
    assert len(PYTHON_BLOCKS) == 4


@pytest.mark.parametrize("index", range(len(PYTHON_BLOCKS)))
def test_python_examples_run(index, capsys):
    exec(compile(PYTHON_BLOCKS[index], f"docs/agents.md example {index + 1}", "exec"), {})
    if "print(" in PYTHON_BLOCKS[index]:  # the PettingZoo test raises if it fails, and prints nothing
        out = capsys.readouterr().out.strip().splitlines()[-1]
        assert out.startswith("["), out  # the winners, or the returns


def test_every_pettingzoo_test_the_page_names_is_run_on_every_game():
    """The page says which of PettingZoo's tests pass: tests/env/test_pettingzoo.py runs each of them (it lacked
    parallel_seed_test, which a developer running PettingZoo's tests met failing on the default environment)."""
    sentence = DOC[DOC.index("Both pass PettingZoo's"):].split("(`tests/env/test_pettingzoo.py`)")[0]
    named = set(re.findall(r"`(\w+_test)`", sentence))
    assert {"api_test", "parallel_seed_test", "max_cycles_test"} <= named
    run = (ROOT / "tests" / "env" / "test_pettingzoo.py").read_text(encoding="utf-8")
    assert all(f"{name}(" in run for name in named), named


def test_the_pettingzoo_example_plays_at_random_to_a_winner(capsys):
    """Its policy is random over the masks: one generator drawn from, not a fresh one each step, which always
    took the same place among the legal actions and looped Coup to the truncation cap, printing no winner."""
    exec(compile(PYTHON_BLOCKS[0], "docs/agents.md example 1", "exec"), {})  # noqa: S102
    winners = capsys.readouterr().out.strip().splitlines()[-1]
    assert winners not in ("[]", ""), "the random policy's match was truncated: nobody won"


def test_bench_env_command_runs():
    commands = re.findall(r"^\.venv/bin/intrigue bench env .*$", DOC + "\n" + PERFORMANCE, re.M)
    assert len(commands) == 3
    for line in commands:
        args = line.split("#")[0].split()[1:]
        args = [a for a in args if a not in ("--seconds", "3")] + ["--seconds", "0.2"]
        assert args[:3] == ["bench", "env", "coup"]
        done = subprocess.run([sys.executable, "-m", "intrigue.cli", *args], capture_output=True, text=True,
                              cwd=ROOT, timeout=120)
        assert done.returncode == 0, done.stderr
        if "--json" in args:
            figure = json.loads(done.stdout)
            assert figure["decisions_per_second"] > 0 and 0 < figure["engine_share"] <= 1.5
        else:
            assert "decisions/s through step() with masks" in done.stdout.replace("\n", " ")


def test_extra_install_line_names_the_env_extra():
    assert "pip install -e '.[env]'" in DOC
    extras = re.search(r"pip install --quiet -e '\.\[([a-z,]+)\]'", (ROOT / "Makefile").read_text(encoding="utf-8"))
    assert extras and {"test", "env"} <= set(extras.group(1).split(","))


def test_the_action_space_sizes_the_page_gives_are_the_environments():
    """`Discrete(n)` counts `(wait)` too: BANG!'s was given as 719 (its labels), the space is 720."""
    from intrigue.env import make

    sizes = re.findall(r"\*\*(Coup|BANG!)\*\*.*?\((\d+) actions at (\d+) players", DOC, re.S)
    assert [game for game, _, _ in sizes] == ["Coup", "BANG!"]
    for game, size, players in sizes:
        env = make({"Coup": "coup", "BANG!": "bang"}[game], players=int(players), seed=1)
        assert env.action_space(env.possible_agents[0]).n == int(size), game


def test_the_ismcts_example_plays_its_match_to_a_winner(capsys):
    """With a cap of 30 decisions the example's match was always truncated: it printed [0.0, 0.0, 0.0]."""
    block = next(code for code in PYTHON_BLOCKS if "ISMCTSBot" in code)
    exec(compile(block, "docs/agents.md ISMCTS example", "exec"), {})  # noqa: S102
    returns = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert sorted(returns)[-1] == 1.0 and -1.0 in returns, returns


@pytest.mark.parametrize("game", ["coup", "bang", "heist"])
def test_openspiel_and_pettingzoo_share_the_action_ids(game):
    """The page says so (it did not say how OpenSpiel's ids relate to the PettingZoo ones): the same space."""
    import numpy as np
    import pyspiel

    import intrigue.env.openspiel  # noqa: F401
    from intrigue.env import make

    assert "PettingZoo environment's, id for id" in DOC
    env = make(game, players=4, seed=1)
    spiel = pyspiel.load_game(f"python_intrigue_{game}(players=4)")
    assert spiel.num_distinct_actions() == env.action_space(env.possible_agents[0]).n
    state, rng = spiel.new_initial_state(), np.random.default_rng(0)
    while state.is_chance_node():
        actions, probabilities = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probabilities)))
    assert state.legal_actions() and 0 not in state.legal_actions()


def test_the_default_player_counts_are_the_pages():
    import pyspiel

    import intrigue.env.openspiel  # noqa: F401
    from intrigue.env import make

    assert "4, or the nearest count the game takes (5 for Avalon,\n  6 for Werewolf)" in DOC
    for game, players in [("coup", 4), ("avalon", 5), ("werewolf", 6), ("heist", 4)]:
        assert make(game).possible_agents == [f"player_{i}" for i in range(players)]
        assert pyspiel.load_game(f"python_intrigue_{game}").num_players() == players
