"""Hypothesis drives every installed game with random valid and invalid choices.

After every step: a refused choice changed nothing (true state, log, events, RNG);
options go only to pending, living seats; no seat's observation shows another
seat's secret (tests/security/hidden.py); a match that is not over is waiting on
someone. At the end of each run the match is played out and must end.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from intrigue import games
from intrigue.engine import Match
from intrigue.engine.errors import Refused

from . import hidden

FINISH_LIMIT = 5_000


def state_digest(match: Match) -> str:
    truth = {"players": match.players, "state": match.state, "winners": match.winners, "version": match.version,
             "over": match.over, "phase": match.phase_id, "pending": match.pending,
             "answers": match.decision.answers if match.decision else None,
             "log": [c.as_json() for c in match.log], "events": [e.text for e in match.events],
             "rng": match.rng.getstate(), "components": match.canvas.visible(match, None)}
    return hashlib.sha256(json.dumps(truth, sort_keys=True, default=str).encode()).hexdigest()


def machine_for(game_id: str) -> type[RuleBasedStateMachine]:
    game = games.get(game_id)

    class EngineMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.match: Match | None = None
            self.step = 0
            self.refusals = 0

        @initialize(seats=st.integers(game.min_players, min(game.max_players, 7)), seed=st.integers(0, 2**62))
        def start(self, seats: int, seed: int) -> None:
            self.match = Match(game, [f"P{n}" for n in range(seats)], seed)
            self.watch = hidden.Watch()

        @precondition(lambda self: self.match is not None and not self.match.over)
        @rule(data=st.data())
        def valid_choice(self, data: st.DataObject) -> None:
            match = self.match
            seat = data.draw(st.sampled_from(match.pending), label="seat")
            option = data.draw(st.sampled_from(match.legal(seat)), label="option")
            version = match.version
            match.choose(seat, option, version)
            assert match.version == version + 1

        @precondition(lambda self: self.match is not None)
        @rule(data=st.data())
        def invalid_choice(self, data: st.DataObject) -> None:
            match = self.match
            n = len(match.names)
            idle = [s for s in range(n) if s not in match.pending]
            offered = {o for s in match.pending for o in match.legal(s)}
            kind = data.draw(st.sampled_from(["idle", "unoffered", "stale", "seat", "foreign"]), label="kind")
            pending = match.pending[0] if match.pending else 0
            if kind == "idle" and idle:
                seat, option, version, code = data.draw(st.sampled_from(idle)), "Pass", match.version, "not_pending"
                option = data.draw(st.sampled_from(sorted(offered) or ["Pass"]))
            elif kind == "unoffered" and match.pending:
                seat, version, code = pending, match.version, "not_offered"
                option = data.draw(st.text(max_size=30).filter(lambda o: o not in match.legal(pending)))
            elif kind == "foreign" and match.pending:
                # another seat's option, or a plausible card/action name
                others = sorted(offered - set(match.legal(pending))) or ["Income", "Pass", "Vote guilty"]
                seat, version, code = pending, match.version, "not_offered"
                option = data.draw(st.sampled_from(others))
                if option in match.legal(pending):
                    return
            elif kind == "stale" and match.pending:
                seat, code = pending, "stale_version"
                option = match.legal(pending)[0]
                opened = match.decision.opened_at  # answers to the open decision are current
                top = match.version
                if match.decision.secret:  # nobody is told how many answered: any version it may reach is current
                    top = max(top, opened + len(match.decision.cover) - 1)
                version = data.draw(st.integers(-3, top + 3).filter(lambda v: not opened <= v <= top))
            else:
                seat, option, version, code = data.draw(st.sampled_from([-1, n, n + 5, 10**9])), "Pass", \
                    match.version, "unknown_seat"
            if match.over:
                code = "over"
            before = state_digest(match)
            with pytest.raises(Refused) as refused:
                match.choose(seat, option, version)
            assert refused.value.code == code, (kind, refused.value.code, refused.value.message)
            assert refused.value.message
            assert state_digest(match) == before, f"a refused {kind} choice changed the match"
            self.refusals += 1

        @invariant()
        def options_only_for_pending_living_seats(self) -> None:
            match = self.match
            if match is None:
                return
            if not match.over:
                assert match.pending, f"{game_id}: the match is not over but waits on nobody"
            for seat in range(len(match.names)):
                options = match.legal(seat)
                if seat in match.pending:
                    assert options, f"{match.names[seat]} is pending with no option"
                    assert match.alive(seat), f"{match.names[seat]} is out but is offered {options}"
                else:
                    assert options == []

        @invariant()
        def observations_keep_secrets(self) -> None:
            match = self.match
            if match is None:
                return
            self.step += 1
            viewers = [None, *range(len(match.names))]
            viewer = viewers[self.step % len(viewers)]  # one viewer per step keeps BANG! affordable
            hidden.remember_public(match, self.watch)
            problems = hidden.view_problems(match.observe(viewer), match, viewer, self.watch)
            problems += hidden.new_event_problems(match, self.watch)
            assert not problems, problems

        def teardown(self) -> None:
            match = self.match
            if match is None:
                return
            rng = random.Random(match.version)
            for _ in range(FINISH_LIMIT):
                if match.over:
                    break
                seat = rng.choice(match.pending)
                match.choose(seat, rng.choice(match.legal(seat)))
            assert match.over, f"{game_id} did not end within {FINISH_LIMIT} random moves"

    EngineMachine.__name__ = f"{game_id.title()}Machine"
    return EngineMachine


BUDGET = {"bang": 6}  # BANG! builds a full table view per move: fewer runs, same steps

for _game_id in games.installed():
    _case = machine_for(_game_id).TestCase
    _case.settings = settings(max_examples=BUDGET.get(_game_id, 15), stateful_step_count=40, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
                              derandomize=True)
    globals()[f"Test{_game_id.title()}Engine"] = _case
del _case, _game_id
