"""``make bench``: the engine, the floor and the peer on Coup, alternating, in one process.

Each contender plays random 4-player Coup for a slice of time, three rounds in
turn (so a machine that slows down mid-run hurts all three alike), and the
ratios of decisions per second are printed. Decisions per second is the fair
unit: the three count a decision wherever a player picks among options.

``--cpu`` times every contender in CPU time (``time.process_time``) instead of wall
clock, the same for all three: on a machine shared with other work, time a process
spends waiting for a core is not counted against it.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import floor_coup  # noqa: E402
import peer_coupml  # noqa: E402

from intrigue.bench.engine import clone_microseconds, measure  # noqa: E402

ROUNDS = 3
SLICE = 2.0  # seconds per contender per round


def timed(run, games_per_batch: int, clock=time.perf_counter) -> tuple[int, float]:
    decisions, started, batch = 0, clock(), 0
    while clock() - started < SLICE:
        decisions += run(games_per_batch, 4, batch)
        batch += 1
    return decisions, clock() - started


def main() -> None:
    clock = time.process_time if "--cpu" in sys.argv[1:] else time.perf_counter
    totals = {"engine": [0, 0.0], "floor": [0, 0.0], "peer (coupml)": [0, 0.0]}
    for round_ in range(ROUNDS):
        # (the clock is passed only for --cpu, so that an older tree on PYTHONPATH still runs the default)
        figure = measure("coup", SLICE, 4, seed=round_, **({"clock": clock} if clock is time.process_time else {}))
        totals["engine"][0] += figure.decisions
        totals["engine"][1] += figure.seconds
        for name, run, batch in (("floor", floor_coup.run, 200), ("peer (coupml)", peer_coupml.run, 20)):
            decisions, seconds = timed(run, batch, clock)
            totals[name][0] += decisions
            totals[name][1] += seconds
    rates = {name: decisions / seconds for name, (decisions, seconds) in totals.items()}
    print(f"{'contender':<16}{'decisions/s':>14}" + ("  (CPU time)" if clock is time.process_time else ""))
    for name, rate in rates.items():
        print(f"{name:<16}{rate:>14,.0f}")
    print(f"engine / floor: {rates['engine'] / rates['floor']:.3f}")
    print(f"engine / peer:  {rates['engine'] / rates['peer (coupml)']:.3f}")
    print(f"Coup clone mid-game: {clone_microseconds():.1f} µs")


if __name__ == "__main__":
    main()
