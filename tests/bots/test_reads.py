"""Reading Coup players from the log: random players are told from careful ones."""

from __future__ import annotations

from statistics import mean

import pytest

from intrigue.bots import SeatView, make
from intrigue.engine import Match


def finished(coup, kinds: list[str], seed: int) -> Match:
    match = Match(coup, [f"P{i + 1}" for i in range(len(kinds))], seed, headless=False)
    bots = [make(kind, seed=seed * 10 + i) for i, kind in enumerate(kinds)]
    while not match.over:
        seat = match.pending[0]
        match.choose(seat, bots[seat].choose(SeatView.of(match, seat)))
    return match


def test_random_players_are_read_as_random_and_heuristics_as_careful(coup):
    random_seats, careful_seats = [], []
    for seed in range(40):
        match = finished(coup, ["heuristic", "random"] if seed % 2 else ["random", "heuristic"], seed)
        careful = 0 if seed % 2 else 1
        reads = coup.binding.reads(match.observe(careful))  # the heuristic reads its opponent
        careful_seats.append(reads[careful])
        random_seats.append(reads[1 - careful])
    assert mean(random_seats) > 0.6
    assert mean(careful_seats) < 0.15
    assert sum(p > 0.5 for p in random_seats) >= 25  # short games leave little evidence
    assert sum(p < 0.3 for p in careful_seats) >= 32


def test_the_reads_come_from_public_log_data_only(coup):
    match = finished(coup, ["random", "random", "random"], 3)
    views = [match.observe(seat) for seat in range(3)]
    public = [[{k: v for k, v in entry.items() if k != "text"} for entry in view["log"] if "event" in entry]
              for view in views]
    assert public[0] == public[1] == public[2]  # every seat reads the same evidence
    assert {entry["event"] for entry in public[0]} >= {"declare", "challenge", "lose"}
    assert coup.binding.reads(views[0]) == coup.binding.reads(views[1])


def test_a_player_who_challenges_everything_is_read_as_random(coup):
    def log(*events):
        return {"players": ["A", "B"], "seat": 0, "log": [dict(event, text="") for event in events]}

    claim = {"event": "declare", "seat": 0, "action": "Tax", "character": "Duke", "coins": 2}
    challenge = {"event": "challenge", "seat": 1, "claimant": 0}
    proof = {"event": "proof", "seat": 0}
    income = {"event": "declare", "seat": 1, "action": "Income", "character": "", "coins": 2}
    eager = log(claim, challenge, proof, claim, challenge, proof, claim, challenge, proof)
    patient = log(claim, income, claim, income, claim, income, claim, income)
    assert coup.binding.reads(eager)[1] > 0.9
    assert coup.binding.reads(patient)[1] < 0.1
    assert coup.binding.reads(log())[1] == pytest.approx(0.35)  # no evidence: the prior
    hoarder = log(*[{"event": "declare", "seat": 1, "action": "Income", "character": "", "coins": 8}] * 2)
    assert coup.binding.reads(hoarder)[1] > 0.8
