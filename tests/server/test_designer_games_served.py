"""Liar's Dice, One Night, Mascarade, Hanabi, Guildhall, Crime Scene, Insider and Precinct (docs/examples/games) played to the
end through a real server, each seat a WebSocket client acting on its own views only: no view any seat receives
ever holds another seat's dice, a card it was not shown, (Hanabi) its own hand or (Guildhall) a hand of characters passed to
another, and a night
phase shows every seat waiting."""

from __future__ import annotations

import random
import re
import time

import pytest

from intrigue import games

from ..conftest import ROOT
from .support import Client, ServerThread, create_room, join

EXAMPLES = ROOT / "docs" / "examples" / "games"
NAMES = ["Aria", "Blaise", "Cass", "Dara"]


@pytest.fixture
def served(tmp_path, monkeypatch):
    """The example games served from their folder, as ``intrigue serve --games docs/examples/games``."""
    monkeypatch.setattr(games, "_EXTRA", {})
    added, problems = games.add_folder(EXAMPLES)
    assert {"liars_dice", "one_night", "mascarade", "hanabi", "guildhall"} <= set(added) and not problems
    with ServerThread(tmp_path / "served.db") as server:
        yield server


def seated(server, http, game: str, count: int) -> list[Client]:
    created = create_room(http, game=game, seats=count, private=True, options={"turn_timer": None, "window_timer": None})
    tokens = [created["token"]] + [join(http, created["room"], name)["token"] for name in NAMES[1:count]]
    clients = [Client(server.ws_url, created["room"], token) for token in tokens]
    for client in clients:
        client.until(lambda m: m["type"] == "welcome")
    clients[0].send({"type": "start", "token": tokens[0]})
    for client in clients:
        client.settle(lambda v: v.get("phase") is not None)
    return clients


def play(clients: list[Client], check, seed: int = 1) -> dict:
    """Every seat answers what its own view offers, at random, until the game is over."""
    rng = random.Random(seed)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        for seat, client in enumerate(clients):
            client.drain(0.02)
            for _, view in client.views:
                check(seat, view)
            client.views.clear()
            view = client.view
            if view["over"]:
                return view
            if NAMES[seat] in view["waiting"] and client.options:
                client.choose(rng.choice(client.options))
                client.drain(0.05)
    raise AssertionError("the game did not end in 90 s")


def test_liars_dice_through_the_server_nobody_sees_another_cup_until_dudo(served):
    with served.http() as http:
        clients = seated(served, http, "liars_dice", 3)
        calls = []

        def check(seat, view):
            rows = view["state"]["players"]
            if not view["over"]:
                assert all(row["dice"] is None for owner, row in enumerate(rows) if owner != seat), (seat, rows)
                assert len(rows[seat]["dice"]) == rows[seat]["dice_left"] or not rows[seat]["is_alive"]
            texts = [line["text"] for line in view["log"]]
            assert not [t for t in texts if " — dice: " in t and not t.startswith(NAMES[seat])], (seat, texts)
            calls.extend(t for t in texts if " calls Dudo on " in t)

        final = play(clients, check)
        assert len(final["winners"]) == 1 and calls
        rows = final["state"]["players"]
        assert [row["name"] for row in rows if row["dice_left"] > 0] == final["winners"]


def test_one_night_through_the_server_cards_stay_face_down_and_the_night_covers_everyone(served):
    with served.http() as http:
        clients = seated(served, http, "one_night", 4)
        room = served.app.state.lobby.rooms[clients[0].room]
        dealt = [p["role"] for p in room.match.players]
        phases = set()

        def check(seat, view):
            if view["over"]:
                return
            phases.add(view["phase"]["name"])
            rows = view["state"]["players"]
            assert rows[seat]["role"] == dealt[seat]
            for owner, row in enumerate(rows):
                if owner != seat:
                    wolves = dealt[seat] == dealt[owner] == "Werewolf"
                    assert row["role"] == (dealt[owner] if wolves else None), (seat, owner, row)
                    if dealt[seat] != "Seer":
                        assert row["card"] is None, (seat, owner, row)
                elif dealt[seat] != "Robber":
                    assert row["card"] is None, (seat, row)
            if view["phase"]["name"] in ("Werewolves", "Seer", "Robber", "Troublemaker"):
                assert set(view["waiting"]) | {NAMES[seat]} == set(NAMES), (seat, view["waiting"])

        final = play(clients, check, seed=3)
        assert {"Werewolves", "Seer", "Robber", "Troublemaker", "Day", "Vote"} <= phases
        rows = final["state"]["players"]
        assert all(row["card"] for row in rows)  # the end shows every card
        lines = [line["text"] for line in final["log"]]
        assert any(" ends the night as " in t for t in lines) and any(t.startswith("The centre: ") for t in lines)


def test_mascarade_through_the_server_no_view_holds_a_card_face_down(served):
    """A card seen is a line in the log (the deal and a reveal to all, a look to the looker alone);
    no view any seat receives holds a role before the end, whatever was swapped or pretended."""
    with served.http() as http:
        clients = seated(served, http, "mascarade", 4)
        phases = set()

        def check(seat, view):
            if view["over"]:
                return
            phases.add(view["phase"]["name"])
            assert all(row["role"] is None for row in view["state"]["players"]), (seat, view["state"]["players"])

        final = play(clients, check, seed=5)
        assert {"Swap or Not", "Claim It Too"} <= phases
        assert final["winners"] and all(row["role"] for row in final["state"]["players"])


def test_hanabi_through_the_server_no_seat_ever_sees_its_own_hand(served):
    with served.http() as http:
        clients = seated(served, http, "hanabi", 3)
        seen_others = []

        def check(seat, view):
            lines = [line["text"] for line in view["log"]]
            assert not [t for t in lines if t.startswith(f"{NAMES[seat]} — hand")], (seat, lines)
            if view["over"]:
                return
            for owner, row in enumerate(view["state"]["players"]):
                if owner == seat:
                    assert row["hand"] is None and row["colours"] is None and row["numbers"] is None, (seat, row)
                else:
                    assert len(row["hand"]) == len(row["colours"]) == row["hand_size"], (seat, owner, row)
                    seen_others.append(owner)

        final = play(clients, check, seed=2)
        assert set(seen_others) == {0, 1, 2}
        assert final["over"] and any(t.startswith(("The show is over", "The third fuse")) for t in
                                     (line["text"] for line in final["log"]))


def test_guildhall_through_the_server_the_passed_characters_reach_their_holder_alone(served):
    """Each seat sees the characters passed to it, never another's, nor a character before it is
    called, nor the ones put aside face down; the game ends with its winners and every district."""
    with served.http() as http:
        clients = seated(served, http, "guildhall", 3)
        room = served.app.state.lobby.rooms[clients[0].room]
        phases, held = set(), []

        def check(seat, view):
            assert not {"pool", "face_down", "die", "deck", "loot"} & set(view["state"]), (seat, set(view["state"]))
            lines = [line["text"] for line in view["log"]]
            assert not [t for t in lines if " — " in t and not t.startswith(NAMES[seat])], (seat, lines)
            if view["over"]:
                return
            phases.add(view["phase"]["name"])
            for owner, row in enumerate(view["state"]["players"]):
                if owner == seat:
                    held.extend(row["draft_hand"])
                    continue
                assert row["draft_hand"] is None and row["hand"] is None, (seat, owner, row)
                if not row["revealed"]:
                    assert row["character"] is None, (seat, owner, row)

        final = play(clients, check, seed=4)
        assert {"Choose a Character", "Income", "Build"} <= phases and held
        rows = final["state"]["players"]
        best = max(row["score"] for row in rows)
        assert final["winners"] == [row["name"] for row in rows if row["score"] == best]
        assert [row["built"] for row in rows] == [p["built"] for p in room.match.players]


def test_crime_scene_through_the_server_only_the_scientist_and_the_murderer_know_the_murder(served):
    """Four seats (no accomplice, no witness): the scientist's role is seen by all, another role by
    the scientist alone once the murder is chosen; the murder is told to the scientist and the
    murderer alone; every seat appears to act while the murderer chooses; the game ends (badges run
    out, or the murder is solved)."""
    with served.http() as http:
        clients = seated(served, http, "crime_scene", 4)
        room = served.app.state.lobby.rooms[clients[0].room]
        roles = [p["role"] for p in room.match.players]
        phases = set()

        def check(seat, view):
            assert not {"murder_means", "key_evidence", "means_pile", "clue_pile", "scene_pile"} & set(view["state"])
            told = [line["text"] for line in view["log"] if line["text"].startswith("The murder:")]
            assert not told or roles[seat] in ("Forensic Scientist", "Murderer"), (seat, told)
            if view["over"]:
                return
            phases.add(view["phase"]["name"])
            if view["phase"]["name"] in ("The Means", "The Key Evidence"):
                assert set(view["waiting"]) | {NAMES[seat]} == set(NAMES), (seat, view["waiting"])
            for owner, row in enumerate(view["state"]["players"]):
                if owner != seat and roles[seat] != "Forensic Scientist":
                    assert row["role"] in (None, "Forensic Scientist"), (seat, owner, row)
                    assert row["role"] is None or roles[owner] == "Forensic Scientist"

        final = play(clients, check, seed=3)
        assert {"The Means", "Mark a Tile", "Accuse a Player"} <= phases
        assert final["over"] and final["winners"]


def test_insider_through_the_server_the_word_reaches_the_master_and_the_insider_alone(served):
    """Four seats: until the Master names who said the word, it is in the views of the Master and
    the Insider only; every seat sees who the Master is and no other role; the votes end the game."""
    with served.http() as http:
        clients = seated(served, http, "insider", 4)
        room = served.app.state.lobby.rooms[clients[0].room]
        roles, word = [p["role"] for p in room.match.players], room.match.state["word"]
        phases = set()

        def check(seat, view):
            assert not {"word", "pile", "insider"} & set(view["state"]), seat
            if view["over"]:
                return
            phases.add(view["phase"]["name"])
            if view["state"]["finder"] == 0 and roles[seat] == "Common":
                assert word not in repr(view), seat
            for owner, row in enumerate(view["state"]["players"]):
                if owner != seat:
                    assert row["word"] is None and row["role"] in (None, "Master"), (seat, owner, row)
                    assert (row["role"] == "Master") == (roles[owner] == "Master"), (seat, owner, row)

        final = play(clients, check, seed=2)
        assert {"Questions", "Talk It Over", "Is the Finder the Insider?"} <= phases
        assert final["over"] and final["state"]["outcome"] in ("caught", "escaped")


def test_precinct_through_the_server_a_face_down_card_reaches_its_holder_and_whoever_looked(served):
    """A face-down integrity card is in its holder's view and in the views of those who looked at it,
    no other; a team in its member's alone; the game ends when a leader is shot."""
    with served.http() as http:
        clients = seated(served, http, "precinct", 4)
        room = served.app.state.lobby.rooms[clients[0].room]
        cards = [[p[f"card{k}"] for k in (1, 2, 3)] for p in room.match.players]

        def check(seat, view):
            assert not {"deck", "first_cards"} & set(view["state"]), seat
            looked = set()
            for line in view["log"]:
                look = re.fullmatch(r"(\w+) looks at Card (\d) of (\w+)\.", line["text"])
                if look and look[1] == NAMES[seat]:
                    looked.add((NAMES.index(look[3]), int(look[2]) - 1))
            for owner, row in enumerate(view["state"]["players"]):
                if owner == seat:
                    continue
                assert row["team"] is None or view["over"], (seat, owner)
                for k in range(3):
                    if row[f"up{k + 1}"] or (owner, k) in looked or view["over"]:
                        assert row[f"card{k + 1}"] in (cards[owner][k], None)
                    else:
                        assert row[f"card{k + 1}"] is None, (seat, owner, k)

        final = play(clients, check, seed=5)
        assert final["over"] and final["state"]["outcome"] in ("kingpin shot", "agent shot")
