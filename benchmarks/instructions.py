"""Machine instructions per decision of random play, which other processes on the machine do not change.

    .venv/bin/python benchmarks/instructions.py src --games coup:300,bang:80
    .venv/bin/python benchmarks/instructions.py /tmp/before/src src     # before and after

Runs ``valgrind --tool=callgrind`` over a process that loads the game and plays a fixed number
of seeded random headless matches (``random_play``, as ``make bench`` plays them), and over the
same process playing none; the difference, divided by the decisions made, is the engine's and
the game's work per decision, match start included. Needs valgrind; takes about a minute a game.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

PLAY = r'''
import random, sys
from intrigue import games as registry
from intrigue.bench.engine import default_players
from intrigue.engine import Match
from intrigue.simulate import player_names, random_play

game_id, count = sys.argv[1], int(sys.argv[2])
game = registry.get(game_id)
names = player_names(default_players(game_id))
decisions = 0
for index in range(count):
    match = Match(game, names, index, headless=True, timers=False)
    decisions += random_play(match, random.Random(index))
print(decisions)
'''

DEFAULT = "coup:300,bang:80,dsfgs:300,heist:300,avalon:300,werewolf:300"


def instructions(source: str, game: str, count: int) -> tuple[int, int]:
    """(instructions, decisions) of one process playing ``count`` matches of ``game``."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(source), PYTHONHASHSEED="0")
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/out",
                               sys.executable, "-c", PLAY, game, str(count)],
                              env=env, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
    return int(found.group(1)), int(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sources", nargs="+", help="one or more source trees (a checkout's src)")
    parser.add_argument("--games", default=DEFAULT, help=f"GAME:MATCHES,... (default {DEFAULT})")
    options = parser.parse_args()
    for item in options.games.split(","):
        game, count = item.split(":")
        figures = []
        for source in options.sources:
            played, decisions = instructions(source, game, int(count))
            idle, _ = instructions(source, game, 0)
            figures.append((played - idle) / decisions)
            print(f"{game:9} {source}: {count} matches, {decisions} decisions, "
                  f"{figures[-1] / 1000:.1f} k instructions per decision", flush=True)
        if len(figures) > 1:
            print(f"{game:9} ×{figures[0] / figures[-1]:.3f} (first / last)", flush=True)


if __name__ == "__main__":
    main()
