"""The eighth designer trial's games (docs/examples/games): Insider and Precinct (a Good Cop Bad
Cop-style game), written from docs/writing-a-game.md alone. Random bots always finish them, and
every secret stays with whoever may know it: the word with the Master and the Insider until it is
found, a face-down integrity card with its holder and whoever looked at it."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from intrigue import bots, games
from intrigue.dsl import validate_file
from intrigue.engine import Match
from intrigue.engine.match import CLOCK, TIME_UP

from .example_play import EXAMPLES, NAMES, bot_choice, views


@pytest.fixture(scope="module")
def insider():
    return games.load_path(EXAMPLES / "insider.yaml")


def test_insider_random_games_end_and_only_the_master_and_the_insider_know_the_word(insider):
    """Random bots, 4 to 8 players, the question round's clock running out now and then: every game
    ends in one of the three endings, with the winners they name. Until the word is found, it is
    in no view but the Master's and the Insider's (on their own row), nor in any line the others
    read; everyone sees who the Master is and no other role; the Insider's identity and the pile
    stay on the server. The Master's options do not depend on the word."""
    assert validate_file(EXAMPLES / "insider.yaml").problems == []
    endings = Counter()
    for seed in range(150):
        count = 4 + seed % 5
        match = Match(insider, NAMES[:count], seed=seed, headless=True, timers=True)
        players = [bots.make("random", seed=f"{seed}-{seat}") for seat in range(count)]
        roles = [p["role"] for p in match.players]
        word = match.state["word"]
        assert roles.count("Master") == 1 and roles.count("Insider") == 1
        for steps in range(200):
            if match.over:
                break
            seen = views(match)
            found = match.state["finder"] != 0
            for seat, view in enumerate(seen):
                assert not {"word", "pile", "insider", "words"} & set(view["state"]), seat
                for owner, row in enumerate(view["state"]["players"]):
                    if owner == seat:
                        assert row["role"] == roles[owner]
                        assert row["word"] == (word if roles[owner] in ("Master", "Insider") else "")
                    else:
                        assert row["word"] is None, (seed, seat, owner)
                        assert row["role"] == ("Master" if roles[owner] == "Master" else None), (seed, seat, owner)
                if not found and (seat == count or roles[seat] == "Common"):
                    named = [line["text"] for line in view["log"] if re.search(rf"\b{word}\b", line["text"])]
                    assert not named, (seed, seat, named)
            if match.phase.name == "Questions":
                assert set(match.legal(roles.index("Master"))) == {n for s, n in enumerate(match.names)
                                                                    if roles[s] != "Master"}
                if steps % 4 == 0:
                    match.choose(CLOCK, TIME_UP)
                    continue
            match.choose(*bot_choice(match, players, seen))
        assert match.over, seed
        outcome, winners = match.state["outcome"], set(match.winners)
        insider_seat = roles.index("Insider")
        assert winners == {"time up": set(), "caught": set(range(count)) - {insider_seat},
                           "escaped": {insider_seat}}[outcome], (seed, outcome, winners)
        endings[outcome] += 1
    assert all(endings[e] >= 10 for e in ("time up", "caught", "escaped")), endings


@pytest.fixture(scope="module")
def precinct():
    return games.load_path(EXAMPLES / "precinct.yaml")


def test_precinct_random_games_end_and_a_face_down_card_is_seen_by_its_holder_and_who_looked(precinct):
    """Random bots, 4 to 8 players: every game ends with the Kingpin or the Agent shot, and the
    team of the other leader wins, dead members included. A face-down card is in no view but its
    holder's and the views of those who looked at it (and keep seeing it), nor in a spectator's;
    a card turned face up, or every card of a player shot, is seen by all; a team by its member
    alone. The cards match the published mix: one Agent, one Kingpin on two different players,
    Honest and Crooked for the rest, and the guns on the table and in hand always add up."""
    assert validate_file(EXAMPLES / "precinct.yaml").problems == []
    endings, looks = Counter(), 0
    fields = ("card1", "card2", "card3")
    for seed in range(200):
        count = 4 + seed % 5
        match = Match(precinct, NAMES[:count], seed=seed, headless=True)
        players = [bots.make("random", seed=f"{seed}-{seat}") for seat in range(count)]
        cards = [[p[f] for f in fields] for p in match.players]
        flat = [c for hand in cards for c in hand]
        assert flat.count("Agent") == flat.count("Kingpin") == 1
        assert flat.count("Honest") - flat.count("Crooked") == count % 2
        assert not any("Agent" in hand and "Kingpin" in hand for hand in cards)
        looked: set[tuple[int, int, int]] = set()
        for steps in range(3000):
            if match.over:
                break
            seen = views(match)
            for line in seen[count]["log"]:  # the looks, from the public lines (a last card is looked at at once)
                look = re.fullmatch(r"(\w+) looks at Card (\d) of (\w+)\.", line["text"])
                if look:
                    looked.add((NAMES.index(look[1]), NAMES.index(look[3]), int(look[2]) - 1))
            live = match.players
            assert sum(p["has_gun"] for p in live) + match.state["guns_left"] == count // 2
            assert all(p["cards_down"] == len(p["face_down"]) == [p["up1"], p["up2"], p["up3"]].count(False)
                       for p in live)
            for seat, view in enumerate(seen):
                assert "deck" not in view["state"] and "first_cards" not in view["state"]
                for owner, row in enumerate(view["state"]["players"]):
                    if owner == seat:
                        assert [row[f] for f in fields] == cards[owner] and row["team"] == live[owner]["team"]
                        continue
                    assert row["team"] is None and row["face_down"] is None, (seed, seat, owner)
                    for k, f in enumerate(fields):
                        if live[owner][f"up{k + 1}"] or (seat, owner, k) in looked:
                            assert row[f] == cards[owner][k], (seed, seat, owner, f)
                        else:
                            assert row[f] is None, (seed, seat, owner, f)
            match.choose(*bot_choice(match, players, seen))
        assert match.over, seed
        looks += len(looked)
        victim = match.state["victim"] - 1
        shot = "Kingpin" if "Kingpin" in cards[victim] else "Agent"
        assert shot in cards[victim] and not match.players[victim]["is_alive"]
        team = "Honest" if shot == "Kingpin" else "Crooked"
        assert set(match.winners) == {s for s, p in enumerate(match.players) if p["team"] == team}, seed
        for s, hand in enumerate(cards):
            leader = "Honest" if "Agent" in hand else "Crooked" if "Kingpin" in hand else None
            assert match.players[s]["team"] == (leader or max(("Honest", "Crooked"), key=hand.count))
        endings[shot] += 1
    assert endings["Kingpin"] >= 50 and endings["Agent"] >= 50 and looks > 200, (endings, looks)
