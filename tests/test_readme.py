"""The README's command lines run as a newcomer would run them: top to bottom, from a fresh checkout.

The first block of "The command line" runs here in its order (with smaller numbers), in a
folder that holds only what a checkout has; each command must succeed and say what a user
expects; so does the dated backup of "Operations". The second block keeps running or needs a
server or a cluster, as does the restore: each line names the test that runs it.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SECTION = README[README.index("## The command line"):README.index("## Operations")]
RUNNABLE, LONG = (
    [line.split("  #")[0].strip() for line in block.splitlines() if line.startswith(".venv/bin/intrigue ")]
    for block in re.findall(r"```sh\n(.*?)```", SECTION, re.S)
)

OPERATIONS = [line.strip() for block in re.findall(r"```sh\n(.*?)```", README[README.index("## Operations"):], re.S)
              for line in block.splitlines() if line.startswith(".venv/bin/intrigue ")]
#: Smaller numbers for the test (flag, README value) -> value.
SMALL = {("--games", "10000"): "40", ("--games", "2000"): "10", ("--games", "100"): "6",
         ("--matches", "100"): "4", ("--deals", "2"): "1"}
#: Extra flags that keep a measuring command short.
BRIEF = {("bench", "engine"): ["--seconds", "0.3", "--game", "coup"], ("bench", "server"): ["--seconds", "2"]}
#: What each command prints when it did its job (a line of its standard output or error).
SAYS = {
    "games": "coup", "validate": "ok (", "graph": "wrote coup.svg", "simulate": "games",
    "scenario": "passed, 0 failed", "tournament": "heuristic", "demo": "wins",
    "import": "imported as match 1", "replay": "Winner: Casey", "export": "wrote match 1 to match.json",
    "bench": "", "arena": "remote:heuristic", "schema": "",
    "compile": "def targets_1(", "tutorial": "All 12 steps reached.",
}
#: The tests that run the long-running and server-bound commands.
COVERED_BY = {
    "serve --port": "tests/server/support.py",  # ServerProcess: every test of a real server process
    "serve --db intrigue.db --restore": "tests/server/test_backup.py",
    "serve --games": "tests/dsl/test_docs.py",
    "play": "tests/agents/test_play.py",
    "agent": "tests/agents/test_client.py",
    "bench cluster": "tests/cluster/test_bench.py",
    "store copy": "tests/cluster/test_store_copy.py",
}


def smaller(words: list[str]) -> list[str]:
    out = [SMALL.get((words[i - 1], word), word) if i else word for i, word in enumerate(words)]
    out = [word.replace("ismcts:100", "ismcts:3") for word in out]
    return out + BRIEF.get(tuple(out[:2]), [])


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    """A folder with what a fresh checkout has that the commands read: the games' sources, docs, scenarios."""
    here = tmp_path_factory.mktemp("checkout")
    for part in ("src", "docs"):
        (here / part).symlink_to(ROOT / part)
    (here / "tests").mkdir()
    (here / "tests" / "scenarios").symlink_to(ROOT / "tests" / "scenarios")
    return here


def test_the_readme_has_both_blocks():
    assert len(RUNNABLE) >= 15 and len(LONG) >= 5, (RUNNABLE, LONG)


def test_every_command_of_the_first_block_runs_in_order(checkout):
    """One test, not one per line: each command may need what the ones before it made."""
    for line in RUNNABLE:
        words = smaller(shlex.split(line)[1:])
        into = None
        if ">" in words:
            into, words = checkout / words[words.index(">") + 1], words[:words.index(">")]
        done = subprocess.run([sys.executable, "-m", "intrigue.cli", *words], cwd=checkout, capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, f"{line}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        assert SAYS[words[0]] in done.stdout + done.stderr, f"{line}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        if into is not None:
            into.write_text(done.stdout)
            assert json.loads(into.read_text())["title"], line
    assert (checkout / "coup.svg").read_text().startswith("<svg")
    exported = json.loads((checkout / "match.json").read_text())
    shipped = json.loads((ROOT / "docs" / "examples" / "coup-match.json").read_text())
    assert exported["choices"] == shipped["choices"] and exported["result"] == shipped["result"]
    # Operations: a dated backup of the database `import` made, into a folder of its own (the shell
    # expands the date, as in the README)
    backup = next(line for line in OPERATIONS if " backup " in line)
    done = subprocess.run(["bash", "-c", backup.replace(".venv/bin/intrigue", f"{sys.executable} -m intrigue.cli")],
                          cwd=checkout, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "backed up intrigue.db to backups/intrigue-" in done.stderr, done.stderr
    assert len(list((checkout / "backups").glob("intrigue-*.db"))) == 1


@pytest.mark.parametrize("line", LONG + [line for line in OPERATIONS if " serve " in line])
def test_each_long_running_command_is_run_by_a_named_test(line):
    command = shlex.split(line)[1:]
    covering = next((test for prefix, test in COVERED_BY.items() if " ".join(command).startswith(prefix)), None)
    assert covering, f"{line}: name the test that runs it in COVERED_BY"
    source = (ROOT / covering).read_text(encoding="utf-8")
    subcommand = command[1] if len(command) > 1 and command[1].isalpha() else None  # "bench cluster", "store copy"
    assert f'"{command[0]}"' in source and (subcommand is None or f'"{subcommand}"' in source), (line, covering)
