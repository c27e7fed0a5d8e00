"""The examples of docs/agents.md, run (briefly, with small numbers)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pexpect

DOC = (Path(__file__).parents[2] / "docs" / "agents.md").read_text(encoding="utf-8")


def test_the_python_client_example_plays_a_match(server):
    section = DOC[DOC.index("## Remote bot: a seat over the protocol"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "docs/agents.md", "exec"), {"BASE": server.url, "__name__": "example"})  # noqa: S102
    lines = printed.getvalue().splitlines()
    assert sorted(lines) in (["Aria lost", "Blake won"], ["Aria won", "Blake lost"])


def test_the_llm_arena_example_runs_against_the_test_endpoint(chat_server):
    assert "intrigue arena coup --agents llm,heuristic,random --deals 2" in DOC
    env = {**os.environ, "INTRIGUE_LLM_URL": chat_server.url, "INTRIGUE_LLM_MODEL": "player"}
    done = subprocess.run([sys.executable, "-m", "intrigue.cli", "arena", "coup", "--agents", "llm,heuristic,random",
                           "--deals", "2"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "6 matches" in done.stdout and "llm" in done.stdout


def test_the_terminal_example_plays_to_the_end():
    assert "intrigue play heist --players 5 --bots ismcts:fast --seat 3 --seed 7" in DOC
    child = pexpect.spawn(sys.executable, ["-m", "intrigue.cli", "play", "heist", "--players", "5", "--bots",
                                           "ismcts:fast", "--seat", "3", "--seed", "7"], encoding="utf-8",
                          timeout=60, env={"TERM": "dumb", "COLUMNS": "120"})
    child.expect("you are Robin")
    while child.expect([r"Your choice \(1-\d+\): ", r"Winner: "]) == 0:
        child.sendline("1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_test_endpoint_serves_on_its_own_for_an_llm_seat_without_a_model(tmp_path):
    """docs/agents.md: `python -m tests.agents.chat_server --port N` is the offline endpoint an `llm` seat is tried
    with (the page described the test server but gave no way to run it outside the tests)."""
    block = DOC[DOC.index("To try an `llm` seat without a language model"):]
    lines = re.search(r"```sh\n(.*?)```", block, re.S).group(1).splitlines()
    assert lines[0] == ".venv/bin/python -m tests.agents.chat_server --port 8080 &"
    assert lines[2] == ".venv/bin/intrigue arena coup --agents llm,heuristic,random --deals 2"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root = Path(__file__).parents[2]
    endpoint = subprocess.Popen([sys.executable, "-m", "tests.agents.chat_server", "--port", str(port)], cwd=root,
                                stdout=subprocess.PIPE, text=True)
    try:
        assert endpoint.stdout.readline().startswith(f"INTRIGUE_LLM_URL=http://127.0.0.1:{port}/v1")
        env = {**os.environ, "INTRIGUE_LLM_URL": f"http://127.0.0.1:{port}/v1", "INTRIGUE_LLM_MODEL": "player"}
        done = subprocess.run([sys.executable, "-m", "intrigue.cli", *lines[2].split()[1:-1], "1"],
                              capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
    finally:
        endpoint.terminate()
        endpoint.wait(10)
    assert done.returncode == 0, done.stderr
    assert "3 matches" in done.stdout and "│ llm " in done.stdout


def test_the_terminal_plays_a_game_file_in_the_seat_counted_from_one():
    """The page gives `--seat` counted from 1 (the protocol counts from 0) and plays a game's YAML file too."""
    assert "intrigue play docs/examples/games/skull.yaml --players 3 --bots ismcts:fast" in DOC
    assert "`--seat` counts from 1" in DOC
    root = Path(__file__).parents[2]
    child = pexpect.spawn(sys.executable, ["-m", "intrigue.cli", "play", "docs/examples/games/skull.yaml", "--players",
                                           "3", "--bots", "random", "--seat", "2", "--seed", "1"], encoding="utf-8",
                          timeout=60, cwd=str(root), env={"TERM": "dumb", "COLUMNS": "120"})
    child.expect(r"you are (\w+)")
    you = child.match.group(1)
    child.expect(r"player +cards")
    child.expect(r"Your choice \(1-\d+\): ")
    board = [line.split()[0] for line in child.before.splitlines() if line[:1].isalpha()]
    assert len(board) == 3 and board[1] == you and you not in (board[0], board[2])  # the second seat
    child.sendline("1")
    while child.expect([r"Your choice \(1-\d+\): ", r"Winner"]) == 0:
        child.sendline("1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
