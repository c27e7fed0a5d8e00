"""Werewolf, in its YAML file alone: scenarios, a thousand random games, its secrets, its timer and its bots."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from intrigue import bots, games
from intrigue.bots import SeatView
from intrigue.bots.ismcts import ISMCTS
from intrigue.engine import Match
from intrigue.engine.match import CLOCK, TIME_UP
from intrigue.scenario import run_file
from intrigue.simulate import random_play

from ..bots.helpers import decisions

SCENARIOS = sorted((Path(__file__).parent.parent / "scenarios" / "werewolf").glob("*.yaml"))
NAMES = ["Aria", "Blaise", "Cass", "Dana", "Eli", "Fay", "Gil", "Hal", "Ivy", "Jo", "Kit", "Lu", "Mo", "Ned",
         "Oz", "Pia"]
#: The documented number of werewolves by player count (docs/games/werewolf.md).
WOLVES = {6: 2, 7: 2, 8: 2, 9: 3, 10: 3, 11: 3, 12: 3, 13: 4, 14: 4, 15: 4, 16: 4}
ROLES = {"Aria": "Werewolf", "Blaise": "Werewolf", "Cass": "Seer", "Dana": "Doctor", "Eli": "Villager",
         "Fay": "Villager"}


@pytest.fixture(scope="module")
def werewolf():
    return games.get("werewolf")


def wolves_alive(match: Match) -> int:
    return sum(1 for p in match.players if p["role"] == "Werewolf" and p["is_alive"])


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenarios(path):
    outcomes = run_file(path)
    assert outcomes and all(o.passed for o in outcomes), [str(f) for o in outcomes for f in o.failures]


def test_at_least_fifteen_scenarios():
    assert sum(len(run_file(path)) for path in SCENARIOS) >= 15


def test_a_thousand_random_games_end_by_the_rules(werewolf):
    """Random players, 6 to 16 of them: the deal has the documented roles, and every game ends with
    the village winning exactly when no werewolf is alive, the werewolves when they reach parity."""
    sides = Counter()
    for seed in range(1000):
        count = 6 + seed % 11
        match = Match(werewolf, NAMES[:count], seed=seed, headless=True)
        roles = Counter(p["role"] for p in match.players)
        assert roles["Werewolf"] == WOLVES[count] and roles["Seer"] == roles["Doctor"] == 1
        random_play(match, random.Random(seed))
        alive = sum(1 for p in match.players if p["is_alive"])
        village = [s for s, p in enumerate(match.players) if p["side"] == "village"]
        if wolves_alive(match) == 0:
            assert match.winners == village and match.phase.name == "The Village Wins"
            sides["village"] += 1
        else:
            assert wolves_alive(match) * 2 >= alive
            assert match.winners == [s for s, p in enumerate(match.players) if p["side"] == "werewolves"]
            sides["werewolves"] += 1
    assert sides["village"] > 20 and sides["werewolves"] > 500


def test_at_night_nobody_can_tell_who_acts(werewolf):
    """Every living player appears to act until the night ends, whatever their role: a spectator's and
    a villager's view of the night are the same for two different deals, and a villager with one
    option is never answered for."""
    other = {**ROLES, "Aria": "Villager", "Eli": "Werewolf"}
    first = Match(werewolf, list(ROLES), seed=5, setup={"roles": ROLES})
    second = Match(werewolf, list(ROLES), seed=5, setup={"roles": other})
    for match in (first, second):
        assert match.phase.name == "Night" and match.pending == list(range(6))
    for viewer in (None, 5):  # a spectator, and Fay, a villager in both deals
        one, two = first.observe(viewer), second.observe(viewer)
        assert one["waiting"] == two["waiting"] == list(ROLES)
        assert one["decision"]["waiting"] == list(ROLES) and one["log"] == two["log"]
        assert [c for c in one["components"] if c["kind"] != "board"] == \
            [c for c in two["components"] if c["kind"] != "board"]
    # answers change nothing the others see: not the waiting list, not the log
    before = first.observe(5)
    first.choose(0, "Eli")  # a werewolf
    first.choose(4, "Sleep")  # a villager
    after = first.observe(5)
    assert after["waiting"] == before["waiting"] and after["log"] == before["log"]
    assert first.observe(4)["waiting"] == ["Aria", "Blaise", "Cass", "Dana", "Fay"]  # Eli knows he answered
    assert 5 in first.pending and first.legal(5) == ["Sleep"]  # one option, still asked


def test_the_werewolves_see_each_others_choice(werewolf):
    match = Match(werewolf, list(ROLES), seed=1, setup={"roles": ROLES})
    match.choose(0, "Eli")
    assert match.observe(1)["decision"]["answers"] == {"Aria": "Eli"}
    assert "answers" not in match.observe(2)["decision"] and "answers" not in match.observe(None).get("decision", {})
    assert match.observe(0)["decision"]["answers"] == {"Aria": "Eli"}


def test_the_day_waits_for_its_clock_but_not_in_a_headless_run(werewolf):
    match = Match(werewolf, list(ROLES), seed=1, setup={"roles": ROLES})
    for seat, option in [(0, "Eli"), (1, "Eli"), (2, "Aria"), (3, "Fay"), (5, "Sleep"), (4, "Sleep")]:
        match.choose(seat, option)
    assert match.phase.name == "Day" and match.clock == 120
    view = match.observe(None)
    assert view["decision"]["kind"] == "timer" and view["waiting"] == ["Aria", "Blaise", "Cass", "Dana", "Fay"]
    match.choose(CLOCK, TIME_UP)
    assert match.phase.name == "Lynch Vote" and match.clock is None
    assert match.log[-1].seat == CLOCK
    headless = Match(werewolf, list(ROLES), seed=1, setup={"roles": ROLES}, headless=True)
    for seat, option in [(0, "Eli"), (1, "Eli"), (2, "Aria"), (3, "Fay"), (5, "Sleep"), (4, "Sleep")]:
        headless.choose(seat, option)
    assert headless.phase.name == "Lynch Vote"


def test_the_random_bot_plays_from_its_own_view(werewolf):
    for seed in range(30):
        match = Match(werewolf, NAMES[:6 + seed % 5], seed=seed, headless=True)
        players = [bots.make("random", seed=f"{seed}-{s}") for s in range(len(match.names))]
        moves = 0
        while not match.over:
            seat = match.pending[0]
            view = SeatView(werewolf, seat, match.observe(seat), tuple(match.legal(seat)))
            match.choose(seat, players[seat].choose(view))
            moves += 1
            assert moves < 2000
        assert match.winners


def test_a_search_sample_shows_each_seat_exactly_what_it_sees(werewolf):
    rng = random.Random(2)
    kinds = Counter()
    for match, seat in decisions(werewolf, 7, range(6)):
        seen = match.observe(seat)
        sample = werewolf.binding.determinize(werewolf, seen, seat, rng)
        assert sample is not None, (match.phase.name, match.players[seat]["role"], seen["decision"])
        again = sample.observe(seat)
        assert again["state"] == seen["state"] and again["decision"] == seen["decision"]
        assert Counter(p["role"] for p in sample.players) == Counter(p["role"] for p in match.players)
        kinds[(match.phase.name, match.players[seat]["role"])] += 1
    assert kinds[("Night", "Werewolf")] and kinds[("Night", "Doctor")] and kinds[("Lynch Vote", "Villager")]


def test_the_search_bot_plays_werewolf(werewolf):
    searched = 0
    for match, seat in decisions(werewolf, 6, range(3)):
        view = SeatView.of(match, seat)
        if len(view.options) < 2 or searched >= 12:
            continue
        bot = ISMCTS(seed=1, iterations=8)
        assert bot.choose(view) in view.options
        assert bot.fallbacks == 0
        searched += 1
    assert searched >= 10


@pytest.mark.parametrize("command", __import__("tests.games.doc_commands", fromlist=["commands"]).commands("werewolf"))
def test_the_commands_of_its_page_run(command, tmp_path, capsys):
    from .doc_commands import run

    out = run(command, tmp_path, capsys)
    if command.startswith("intrigue scenario"):
        assert out.strip().endswith("16 passed, 0 failed")
    if command.startswith("intrigue simulate"):
        assert "Werewolf, 8 players, 20 games" in out
    if command.startswith("intrigue demo"):
        assert "win!" in out
