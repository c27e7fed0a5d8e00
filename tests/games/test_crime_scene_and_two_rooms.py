"""The sixth designer trial's games (docs/examples/games): Crime Scene (a Deception-style game)
and Two Rooms (a Two Rooms and a Boom-style game), written from docs/writing-a-game.md alone.
Random bots always finish them, and every secret stays with whoever may know it."""

from __future__ import annotations

from collections import Counter

import pytest

from intrigue import bots, games
from intrigue.dsl import validate_file
from intrigue.engine import Match
from intrigue.engine.match import CLOCK, TIME_UP

from ..conftest import ROOT

EXAMPLES = ROOT / "docs" / "examples" / "games"
NAMES = ["Aria", "Blaise", "Cass", "Dara", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kit", "Lou"]
GUILTY = ("Murderer", "Accomplice")
HIDDEN = ("means_pile", "clue_pile", "scene_pile", "murder_means", "key_evidence", "spot")


def views(match: Match) -> list[dict]:
    """Every seat's view, then the spectator's."""
    return [match.observe(seat) for seat in range(len(match.names))] + [match.observe(None)]


@pytest.fixture(scope="module")
def crime_scene():
    return games.load_path(EXAMPLES / "crime_scene.yaml")


def crime_scene_unseen(match: Match, seat: int | None, view: dict) -> None:
    """A role is seen by its holder, by the scientist (once the murder is chosen), by the other
    guilty player if both are guilty; the scientist's by all. The murder is told to the scientist
    and the guilty alone, and the two guilty names to the witness alone."""
    assert not set(HIDDEN) & set(view["state"]), (seat, set(view["state"]))
    roles = [p["role"] for p in match.players]
    mine = roles[seat] if seat is not None else None
    chosen = match.state["key_evidence"] != ""
    for owner, row in enumerate(view["state"]["players"]):
        may = (owner == seat or roles[owner] == "Forensic Scientist" or match.over
               or (chosen and mine == "Forensic Scientist")
               or (chosen and mine in GUILTY and roles[owner] in GUILTY))
        assert row["role"] == (roles[owner] if may else None), (seat, owner, row["role"])
        assert row["means"] == match.players[owner]["means"]  # the cards lie face up
    told = [line["text"] for line in view["log"] if line["text"].startswith("The murder:")]
    assert bool(told) == (chosen and mine in GUILTY + ("Forensic Scientist",)), (seat, told)
    witness = [line["text"] for line in view["log"] if "one of the two guilty players" in line["text"]]
    assert bool(witness) == (chosen and mine == "Witness" and "Accomplice" in roles), (seat, witness)
    if witness:  # the two names, in seat order: which is the murderer is not said
        assert witness == [f"{match.names[s]} is one of the two guilty players." for s in range(len(roles))
                           if roles[s] in GUILTY]


def test_crime_scene_random_games_end_and_only_the_scientist_and_the_guilty_know_the_murder(crime_scene):
    """Random bots, 4 to 9 players, the discussion's clock running out at random moments (a third of
    the games with bots that never accuse, a third with bots that peek at the murder): every
    game ends with the murder solved (the witness named or not) or unsolved (three rounds, or no
    badge left). No seat sees a role it may not, nor the murder; whatever the murderer chooses,
    every seat but the scientist's and the guilty's sees the same table, and so does a spectator."""
    assert validate_file(EXAMPLES / "crime_scene.yaml").problems == []
    endings, branches = Counter(), 0
    for seed in range(120):
        count = 4 + seed % 6
        match = Match(crime_scene, NAMES[:count], seed=seed, headless=True, timers=True)
        players = [bots.make("random", seed=f"{seed}-{seat}") for seat in range(count)]
        for steps in range(3000):
            if match.over:
                break
            seen = views(match)
            for seat, view in enumerate(seen):
                crime_scene_unseen(match, seat if seat < count else None, view)
            patient, peeker = seed % 3 == 1, seed % 3 == 2
            if match.phase.name == "Discussion" and (patient or (seed + steps) % 4 == 0):
                match.choose(CLOCK, TIME_UP)
                continue
            seat = match.pending[0]
            legal = tuple(match.legal(seat))
            roles = [p["role"] for p in match.players]
            truth = {"Last Call": "Pass" if patient else "Use my badge",
                     "Accuse a Player": match.names[roles.index("Murderer")],
                     "Name the Means": match.state["murder_means"], "Name the Evidence": match.state["key_evidence"]}
            if match.phase.name in ("The Means", "The Key Evidence") and roles[seat] == "Murderer":
                outcomes = []
                for option in legal:
                    branch = match.clone()
                    branch.choose(seat, option)
                    outcomes.append(branch)
                unaware = [s for s in range(count) if roles[s] not in GUILTY + ("Forensic Scientist",)] + [None]
                for other in unaware:
                    assert len({repr(b.observe(other)) for b in outcomes}) == 1, (seed, other)
                branches += 1
            option = players[seat].choose(bots.SeatView(match.game, seat, seen[seat], legal))
            if (patient or peeker) and truth.get(match.phase.name) in legal:  # wait, or peek and solve
                option = truth[match.phase.name]
            match.choose(seat, option)
        assert match.over, seed
        roles = [p["role"] for p in match.players]
        guilty = {s for s in range(count) if roles[s] in GUILTY}
        state = match.state
        if state["solved"]:
            murderer = roles.index("Murderer")
            assert state["suspect"] == murderer + 1
            assert state["accused_means"] == state["murder_means"] in match.players[murderer]["means"]
            assert state["accused_clue"] == state["key_evidence"] in match.players[murderer]["clues"]
        if match.phase.name == "The Investigators Win":
            assert state["solved"] and set(match.winners) == set(range(count)) - guilty, seed
            endings["solved"] += 1
        else:
            assert set(match.winners) == guilty, seed
            endings["witness found" if state["solved"] else "three rounds" if state["round"] > 3 else "no badge"] += 1
    assert branches >= 200 and min(endings.values()) >= 3 and len(endings) == 4, (branches, endings)


@pytest.fixture(scope="module")
def two_rooms():
    return games.load_path(EXAMPLES / "two_rooms.yaml")


def test_two_rooms_random_games_end_and_a_card_is_seen_only_where_it_was_shared(two_rooms):
    """Random bots, 6 to 12 players, the clock running out at random moments: every game ends after
    three rounds, and the Red Team wins exactly when the Bomber is in the President's room (the
    Gambler with the team they bet on). A seat sees another's card or colour only after that
    player showed it to them or a share between them was accepted (a colour share: the colour
    alone); the East Room leader's choice of hostages changes no other seat's view before the
    West Room's leader has chosen too, nor does a vote for a leader before the vote closes; the
    rooms always hold everyone, split as dealt."""
    assert validate_file(EXAMPLES / "two_rooms.yaml").problems == []
    endings, hidden_choices = Counter(), 0
    for seed in range(100):
        count = 6 + seed % 7
        match = Match(two_rooms, NAMES[:count], seed=seed, headless=True, timers=True)
        players = [bots.make("random", seed=f"{seed}-{seat}") for seat in range(count)]
        shown: dict[tuple[int, int], set[str]] = {}  # (viewer, owner): the fields shown
        rooms = Counter(p["room"] for p in match.players)
        assert sorted(rooms.values()) == [count // 2, count - count // 2]
        for steps in range(3000):
            if match.over:
                break
            seen = views(match)
            for seat, view in enumerate(seen):
                for owner, row in enumerate(view["state"]["players"]):
                    fields = {"role", "team"} if owner == seat else shown.get((seat, owner), set())
                    true = match.players[owner]
                    assert row["role"] == (true["role"] if "role" in fields else None), (seed, seat, owner)
                    assert row["team"] == (true["team"] if "team" in fields else None), (seed, seat, owner)
                    assert row["room"] == true["room"]
                assert not {"sent_east", "sent_west", "room_pile", "leader_name"} & set(view["state"])
            name = match.phase.name
            if name == "Talk" and (seed + steps) % 3 == 0:
                match.choose(CLOCK, TIME_UP)
                continue
            seat = match.pending[0]
            legal = tuple(match.legal(seat))
            if name == "East Room Sends Hostages" or (name == "Choose Leaders" and len(match.pending) > 1):
                outcomes = []
                for option in legal:
                    branch = match.clone()
                    branch.choose(seat, option)
                    outcomes.append(branch)
                for other in [s for s in range(count) if s != seat] + [None]:
                    assert len({repr(b.observe(other)) for b in outcomes}) == 1, (seed, name, other)
                hidden_choices += 1
            option = players[seat].choose(bots.SeatView(match.game, seat, seen[seat], legal))
            sharer, partner = match.state["sharer"] - 1, match.state["partner"] - 1
            if name == "Share" and option in ("Show my card", "Show my colour"):
                shown.setdefault((partner, sharer), set()).update(
                    {"role", "team"} if option == "Show my card" else {"team"})
            if name == "Answer a Share" and option == "Accept":
                fields = {"role", "team"} if match.state["share_kind"] == "Card share" else {"team"}
                shown.setdefault((partner, sharer), set()).update(fields)
                shown.setdefault((sharer, partner), set()).update(fields)
            match.choose(seat, option)
        assert match.over and match.state["round"] == 4, seed
        roles = [p["role"] for p in match.players]
        where = {p["role"]: p["room"] for p in match.players}
        red = where["Bomber"] == where["President"]
        team = "Red" if red else "Blue"
        bettor = {s for s in range(count) if roles[s] == "Gambler" and match.state["bet"] == f"{team} Team"}
        assert set(match.winners) == {s for s in range(count) if match.players[s]["team"] == team} | bettor, seed
        assert Counter(p["room"] for p in match.players) == rooms, seed  # hostages are exchanged one for one
        endings[team] += 1
        endings["shares"] += len(shown)
    assert endings["Red"] > 20 and endings["Blue"] > 20 and endings["shares"] > 100, endings
    assert hidden_choices > 500, hidden_choices


def test_a_demo_of_two_rooms_ends_though_its_talk_phases_may_always_be_answered(capsys):
    """Every player may always offer a share, and a share routes back to the talk: the demo lets the
    clock run out now and then, as the server's would, so the match reaches its reveal."""
    from intrigue.cli import main

    with pytest.raises(SystemExit) as done:
        main(["demo", str(EXAMPLES / "two_rooms.yaml"), "--players", "7", "--seed", "3"])
    assert done.value.code in (0, None)
    out = capsys.readouterr().out
    assert "takes" in out and " aside." in out and "is in the" in out and "Winners: " in out


def test_two_rooms_a_share_taken_back_reads_as_nothing_offered(two_rooms):
    """"Aria offers Cass: Never mind." read as an offer of something called Never mind."""
    match = Match(two_rooms, NAMES[:6], seed=1, timers=True)
    while match.phase.name == "Choose Leaders":
        match.choose(match.pending[0], "No vote")
    sharer = match.pending[0]
    partner = match.legal(sharer)[0]
    match.choose(sharer, partner)
    assert match.phase.name == "Share"
    match.choose(sharer, "Never mind")
    said = [line["text"] for line in match.observe(None)["log"]][-2:]
    assert said == [f"{match.names[sharer]} takes {partner} aside.",
                    f"{match.names[sharer]} offers {partner} nothing after all."], said
    assert match.phase.name == "Talk"
