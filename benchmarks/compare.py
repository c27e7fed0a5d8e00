"""Before and after: two checkouts of Intrigue, alternating, in decisions per CPU-second.

    git worktree add --detach /tmp/before main
    .venv/bin/python benchmarks/compare.py /tmp/before/src src --rounds 4 --seconds 2

Each round runs every game once under each source tree, in a fresh process (so the
two never share a warmed cache), and measures CPU time (``time.process_time``),
not wall time: on a machine shared with other work a process that is descheduled
does not count the time it waited. Prints the median and range per game, the
ratio of the medians, the mid-game Coup clone time and (``--ismcts``) the search
bot's iterations per CPU-second at a 200 ms budget.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

ENGINE = r'''
import json, random, sys, time
from intrigue import games as registry
from intrigue.bench.engine import default_players
from intrigue.engine import Match
from intrigue.simulate import player_names, random_play

game_id, seconds = sys.argv[1], float(sys.argv[2])
game = registry.get(game_id)
names = player_names(default_players(game_id))
for warm in range(5):
    random_play(Match(game, names, 10**6 + warm, headless=True, timers=False), random.Random(warm))
decisions = played = 0
start = time.process_time()
while time.process_time() - start < seconds:
    match = Match(game, names, played, headless=True, timers=False)
    decisions += random_play(match, random.Random(played))
    played += 1
out = {"rate": decisions / (time.process_time() - start)}
if game_id == "coup":
    match, rng = Match(game, player_names(4), 3, headless=True), random.Random(3)
    for _ in range(8):
        seat = rng.choice(match.pending)
        match.choose(seat, rng.choice(match.legal(seat)))
    start = time.process_time()
    for _ in range(3000):
        match.clone()
    out["clone"] = (time.process_time() - start) / 3000 * 1e6
print(json.dumps(out))
'''

SEARCH = r'''
import json, random, time
from intrigue import games
from intrigue.bots.base import SeatView
from intrigue.bots.ismcts import ISMCTS
from intrigue.engine import Match

game = games.get("coup")
iterations = seconds = 0.0
asked = 0
for deal in range(6):
    match, rng, bot = Match(game, ["P1", "P2", "P3", "P4"], 100 + deal, headless=True), random.Random(deal), \
        ISMCTS(seed=deal, milliseconds=200)
    for _ in range(12):
        if match.over:
            break
        seat = rng.choice(match.pending)
        view = SeatView.of(match, seat)
        if len(view.options) > 1 and asked < 30:
            start = time.process_time()
            option = bot.choose(view)
            seconds += time.process_time() - start
            iterations += bot.last_iterations
            asked += 1
        else:
            option = rng.choice(view.options)
        match.choose(seat, option)
print(json.dumps({"rate": iterations / seconds}))
'''


def run(source: str, code: str, *args: str) -> dict:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(source))
    done = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def summary(values: list[float]) -> str:
    digits = 0 if min(values) >= 1000 else 1
    return f"{statistics.median(values):,.{digits}f} ({min(values):,.{digits}f}–{max(values):,.{digits}f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--games", default="coup,bang,dsfgs,heist,avalon,werewolf")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--ismcts", action="store_true", help="also the search bot's iterations per CPU-second")
    options = parser.parse_args()
    games = options.games.split(",")
    found: dict[tuple[str, str], list[dict]] = {}
    for _ in range(options.rounds):
        for label, source in (("before", options.before), ("after", options.after)):
            for game in games:
                found.setdefault((game, label), []).append(run(source, ENGINE, game, str(options.seconds)))
            if options.ismcts:
                found.setdefault(("ismcts", label), []).append(run(source, SEARCH))
    for game in games + (["ismcts"] if options.ismcts else []):
        before = [f["rate"] for f in found[(game, "before")]]
        after = [f["rate"] for f in found[(game, "after")]]
        unit = "iterations/s" if game == "ismcts" else "decisions/s"
        print(f"{game:9} {unit}: before {summary(before)}, after {summary(after)}, "
              f"×{statistics.median(after) / statistics.median(before):.2f}")
        if game == "coup":
            print(f"{'':9} clone µs: before {summary([f['clone'] for f in found[(game, 'before')]])}, "
                  f"after {summary([f['clone'] for f in found[(game, 'after')]])}")


if __name__ == "__main__":
    main()
