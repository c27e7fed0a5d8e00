"""The Resistance: Avalon, in its YAML file alone: scenarios, a thousand random games, who knows what, bots."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from intrigue import games
from intrigue.bots import SeatView
from intrigue.bots.ismcts import ISMCTS
from intrigue.engine import Match
from intrigue.scenario import run_file
from intrigue.simulate import random_play

from ..bots.helpers import decisions

SCENARIOS = sorted((Path(__file__).parent.parent / "scenarios" / "avalon").glob("*.yaml"))
NAMES = ["Aria", "Blaise", "Cass", "Dana", "Eli", "Fay", "Gil", "Hal", "Ivy", "Jo"]
#: The official tableau (docs/games/avalon.md): team size of each quest by player count.
TEAMS = {5: [2, 3, 2, 3, 3], 6: [2, 3, 4, 3, 4], 7: [2, 3, 3, 4, 4], 8: [3, 4, 4, 5, 5], 9: [3, 4, 4, 5, 5],
         10: [3, 4, 4, 5, 5]}
#: Good and evil players by player count.
SIDES = {5: (3, 2), 6: (4, 2), 7: (4, 3), 8: (5, 3), 9: (6, 3), 10: (6, 4)}


@pytest.fixture(scope="module")
def avalon():
    return games.get("avalon")


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenarios(path):
    outcomes = run_file(path)
    assert outcomes and all(o.passed for o in outcomes), [str(f) for o in outcomes for f in o.failures]


def test_at_least_fifteen_scenarios():
    assert sum(len(run_file(path)) for path in SCENARIOS) >= 15


def test_a_thousand_random_games_follow_the_tableau(avalon):
    """Every team proposed has the tableau's size; every game ends by one of the four rules."""
    endings = Counter()
    for seed in range(1000):
        count = 5 + seed % 6
        match = Match(avalon, NAMES[:count], seed=seed, headless=True)
        sides = Counter(p["side"] for p in match.players)
        assert (sides["good"], sides["evil"]) == SIDES[count]
        rng = random.Random(seed)
        while not match.over:
            if match.phase.name == "Team Building":
                leader = match.pending[0]
                options = match.legal(leader)
                size = TEAMS[count][match.state["quest"] - 1]
                assert all(len(option.split(", ")) == size for option in options)
            seat = rng.choice(match.pending)
            match.choose(seat, rng.choice(match.legal(seat)))
        state, evil = match.state, [s for s, p in enumerate(match.players) if p["side"] == "evil"]
        if match.phase.name == "Good Wins":
            assert state["successes"] == 3 and match.winners == [s for s in range(count) if s not in evil]
            endings["good"] += 1
        else:
            assert match.winners == evil
            if state["rejected"] >= 5:
                endings["rejections"] += 1
            elif state["failures"] == 3:
                endings["quests"] += 1
            else:
                assert state["successes"] == 3 and match.last_decision is not None
                endings["assassin"] += 1
    assert all(endings[k] > 10 for k in ("good", "rejections", "quests", "assassin")), endings


def test_who_knows_whom_for_every_player_count(avalon):
    """Minions (but Oberon) see each other's side; Merlin sees every evil player but Mordred;
    Percival sees the same thing of Merlin and Morgana; nobody else learns anything."""
    for count in range(5, 11):
        for seed in range(3):
            match = Match(avalon, NAMES[:count], seed=seed)
            roles = [p["role"] for p in match.players]
            for viewer in range(count):
                view = match.observe(viewer)["state"]["players"]
                for owner, row in enumerate(view):
                    if owner == viewer:
                        assert row["role"] == roles[owner]
                        continue
                    assert row["role"] is None
                    evil = match.players[owner]["side"] == "evil"
                    knows = (roles[viewer] == "Merlin" and evil and roles[owner] != "Mordred") or \
                        (match.players[viewer]["side"] == "evil" and roles[viewer] != "Oberon"
                         and evil and roles[owner] != "Oberon")
                    assert row["side"] == ("evil" if knows else None), (count, roles[viewer], roles[owner])
                    looks = roles[viewer] == "Percival" and roles[owner] in ("Merlin", "Morgana")
                    assert row["looks_like"] == ("Merlin or Morgana" if looks else None)


def test_a_loyal_quest_member_is_asked_like_a_minion(avalon):
    """On a quest only minions may fail, but a loyal member with a single option is not answered for,
    and the waiting list keeps the whole team until every card is played."""
    roles = {"Aria": "Merlin", "Blaise": "Assassin", "Cass": "Percival", "Dana": "Morgana",
             "Eli": "Loyal Servant of Arthur"}
    match = Match(avalon, list(roles), seed=1, setup={"roles": roles, "first": "Aria"})
    match.choose(0, "Aria, Blaise")
    for seat in range(5):
        match.choose(seat, "Approve")
    assert match.phase.name == "Quest" and match.pending == [0, 1]
    assert match.legal(0) == ["Success"] and match.legal(1) == ["Success", "Fail"]
    match.choose(0, "Success")
    for viewer in (None, 1, 4):
        assert match.observe(viewer)["waiting"] == ["Aria", "Blaise"]
    assert match.observe(0)["waiting"] == ["Blaise"]  # Aria knows she played


def test_team_building_offers_one_choice_per_team_with_a_pick(avalon):
    match = Match(avalon, NAMES[:6], seed=2, setup={"first": "Cass"})
    decision = match.observe(2)["decision"]
    assert decision["pick"] == {"count": 2, "from": NAMES[:6]}
    assert len(decision["options"]) == 15 and decision["options"][0] == "Aria, Blaise"
    assert "pick" not in (match.observe(0)["decision"] or {})


def test_a_search_sample_shows_each_seat_exactly_what_it_sees(avalon):
    rng = random.Random(3)
    phases = Counter()
    for match, seat in decisions(avalon, 7, range(4)):
        seen = match.observe(seat)
        sample = avalon.binding.determinize(avalon, seen, seat, rng)
        assert sample is not None, (match.phase.name, seen["decision"])
        again = sample.observe(seat)
        assert again["state"] == seen["state"] and again["decision"] == seen["decision"]
        assert Counter(p["role"] for p in sample.players) == Counter(p["role"] for p in match.players)
        phases[match.phase.name] += 1
    assert phases["Team Building"] and phases["Team Vote"] and phases["Quest"]


def test_the_search_bot_plays_avalon(avalon):
    searched = 0
    for match, seat in decisions(avalon, 5, range(2)):
        view = SeatView.of(match, seat)
        if len(view.options) < 2 or searched >= 12:
            continue
        bot = ISMCTS(seed=1, iterations=8)
        assert bot.choose(view) in view.options
        assert bot.fallbacks == 0
        searched += 1
    assert searched >= 10


def test_random_play_reaches_every_ending(avalon):
    endings = Counter()
    for seed in range(200):
        match = Match(avalon, NAMES[:7], seed=seed, headless=True)
        random_play(match, random.Random(seed))
        endings[match.phase.name] += 1
    assert set(endings) == {"Good Wins", "Evil Wins"}


@pytest.mark.parametrize("command", __import__("tests.games.doc_commands", fromlist=["commands"]).commands("avalon"))
def test_the_commands_of_its_page_run(command, tmp_path, capsys):
    from .doc_commands import run

    out = run(command, tmp_path, capsys)
    if command.startswith("intrigue scenario"):
        assert out.strip().endswith("15 passed, 0 failed")
    if command.startswith("intrigue simulate"):
        assert "7 players, 20 games" in out
    if command.startswith("intrigue demo"):
        assert "win" in out


def test_a_minion_reads_their_own_side_once_and_each_other_minions_once(avalon):
    """The minions learn each other with ``show: side … to: minions``, which showed each minion their
    own side a second time ("Aria — side: evil" after "Aria — role: Assassin, side: evil"): the
    statement's ``except_self`` leaves the player the card is about out of its audience."""
    for seed in range(20):
        match = Match(avalon, NAMES[:7], seed=seed, options={})
        roles = [p["role"] for p in match.players]
        minions = [s for s, p in enumerate(match.players) if p["side"] == "evil" and p["role"] != "Oberon"]
        for seat in minions:
            lines = [line["text"] for line in match.observe(seat)["log"] if " — " in line["text"]]
            assert [t for t in lines if t.startswith(NAMES[seat] + " — ")] == [
                f"{NAMES[seat]} — role: {roles[seat]}, side: evil"], (seed, lines)
            assert sorted(t for t in lines if not t.startswith(NAMES[seat] + " — ")) == sorted(
                f"{NAMES[other]} — side: evil" for other in minions if other != seat), (seed, lines)
