"""The examples of docs/agents.md, run (briefly, with small numbers)."""

from __future__ import annotations

import contextlib
import io
import os
import re
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
