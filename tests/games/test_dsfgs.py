"""DSFGS, run from its DSL file alone: the deal, secrecy, the scenarios and whole games."""

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from intrigue import games
from intrigue.cli import main
from intrigue.engine import Match, replay
from intrigue.scenario import run_file
from intrigue.simulate import random_play, simulate

SCENARIOS = sorted((Path(__file__).parent.parent / "scenarios" / "dsfgs").glob("*.yaml"))
#: The documented number of Moles for each player count (docs/games/dsfgs.md).
MOLES = {3: 1, 4: 1, 5: 2, 6: 2, 7: 3, 8: 3}
NAMES = ["Aria", "Blaise", "Cass", "Dana", "Eli", "Fay", "Gus", "Hana", "Ivo"]


@pytest.fixture(scope="module")
def dsfgs():
    return games.get("dsfgs")


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenarios(path):
    outcomes = run_file(path)
    assert outcomes and all(o.passed for o in outcomes), [str(f) for o in outcomes for f in o.failures]


def test_the_game_is_the_dsl_file_alone(dsfgs):
    assert not dsfgs.binding.tools and dsfgs.binding.observe is None
    assert (dsfgs.min_players, dsfgs.max_players) == (3, 8)
    with pytest.raises(ValueError, match="3 to 8 players"):
        Match(dsfgs, NAMES[:9], seed=1)


@pytest.mark.parametrize("count", sorted(MOLES))
def test_the_deal_gives_the_documented_number_of_moles(dsfgs, count):
    seats_holding_a_mole = Counter()
    for seed in range(40):
        match = Match(dsfgs, NAMES[:count], seed=seed, headless=True)
        roles = [p["role"] for p in match.players]
        assert roles.count("Mole") == MOLES[count]
        for seat, player in enumerate(match.players):
            mole = player["role"] == "Mole"
            assert player["team"] == ("bravo" if mole else "alpha")
            assert player["secret_info_access"] is mole
            seats_holding_a_mole[seat] += mole
    assert len(seats_holding_a_mole) == count  # the deal is random: every seat was a Mole sometime


def test_each_role_card_reaches_only_its_owner(dsfgs):
    match = Match(dsfgs, NAMES[:4], seed=5, setup={"roles": dict(zip(NAMES, ["Agent", "Agent", "Mole", "Agent"]))})
    for seat, name in enumerate(match.names):
        view = match.observe(seat)
        cards = {c["player"] for c in view["components"] if c["kind"] == "character_card"}
        assert cards == {name}
        roles = {p["name"]: p["role"] for p in view["state"]["players"]}
        assert roles[name] == match.players[seat]["role"]
        assert all(role is None for who, role in roles.items() if who != name)
    spectator = match.observe(None)
    assert not [c for c in spectator["components"] if c["kind"] == "character_card"]
    assert all(p["role"] is None and p["team"] is None for p in spectator["state"]["players"])
    assert "Mole" not in json.dumps(spectator)


def test_the_peek_result_is_logged_for_the_peeker_only(dsfgs):
    match = Match(dsfgs, NAMES[:4], seed=5, setup={"first": "Aria",
                                                    "roles": dict(zip(NAMES, ["Agent", "Agent", "Mole", "Agent"]))})
    match.choose(0, "Peek Player")
    match.choose(0, "Cass")
    assert any("Cass" in line["text"] and "Mole" in line["text"] for line in match.observe(0)["log"])
    for other in (1, 3, None):  # the other Agents and spectators learn nothing (Cass knows her own role)
        assert "Mole" not in json.dumps(match.observe(other))


@pytest.mark.parametrize("count", sorted(MOLES))
def test_random_games_end_with_one_team_winning(dsfgs, count):
    ends = Counter()
    for seed in range(150):
        match = Match(dsfgs, NAMES[:count], seed=seed, headless=True)
        random_play(match, random.Random(seed))
        ends[match.phase.name] += 1
        assert match.over and match.winners
        team = match.players[match.winners[0]]["team"]
        assert match.winners == [s for s, p in enumerate(match.players) if p["team"] == team]
        assert match.state["round"] <= match.state["round_limit"] + 1
    assert set(ends) <= {"Game Over — Agents Win", "Game Over — Moles Win", "Game Over — Round Limit"}
    assert ends["Game Over — Agents Win"] and ends["Game Over — Moles Win"]


def test_a_match_replays_to_the_same_state(dsfgs):
    match = Match(dsfgs, NAMES[:6], seed=11)
    random_play(match, random.Random(3))
    again = replay(dsfgs, NAMES[:6], 11, None, [(c.seat, c.option) for c in match.log])
    assert again.players == match.players and again.winners == match.winners and again.state == match.state


def test_simulate_command(capsys, dsfgs):
    report = simulate(dsfgs, 100, 5, seed=2)
    assert report.games == 100 and sum(report.wins_by_role.values()) == 100
    with pytest.raises(SystemExit) as done:
        main(["simulate", "dsfgs", "-n", "20", "-p", "6", "--json"])
    assert done.value.code in (0, None)
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "dsfgs" and out["games"] == 20


def test_no_view_ever_names_a_mole_its_seat_may_not_know(dsfgs):
    """Across random games, at every step, for every seat and spectators."""
    for seed in range(6):  # one game per player count
        count = 3 + seed
        match = Match(dsfgs, NAMES[:count], seed=seed)
        rng = random.Random(seed)
        peeked: dict[int, set[int]] = {seat: set() for seat in range(count)}
        while not match.over:
            moles = {s for s, p in enumerate(match.players) if p["role"] == "Mole"}
            for seat in [*range(count), None]:
                known = {s for s in moles if match.players[s]["role_revealed"]}
                if seat is not None:
                    known |= peeked[seat] & moles
                    if seat in moles:
                        known = moles
                view = match.observe(seat)
                text = json.dumps(view)
                for mole in moles - known:
                    assert f"{match.names[mole]} — role: Mole" not in text
                    row = view["state"]["players"][mole]
                    assert row["role"] is None and row["team"] is None
                if not known:  # the word may appear as "Moles" in the rules' texts, never as a role
                    assert not re.search(r"\bMole\b", text)
            seat = match.pending[0] if len(match.pending) == 1 else rng.choice(match.pending)
            option = rng.choice(match.legal(seat))
            before = match.phase.name
            match.choose(seat, option)
            # a peek ends once its target is chosen (by the player, or by the engine when only one is left)
            if (before == "Select Peek Target" or option == "Peek Player") and match.phase.name != "Select Peek Target":
                peeked[seat].add(match.state["peeked"] - 1)
