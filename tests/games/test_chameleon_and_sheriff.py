"""The seventh designer trial's games (docs/examples/games): The Chameleon and Sheriff of
Nottingham, written from docs/writing-a-game.md alone. Random bots always finish them, and every
secret stays with whoever may know it: the secret word with everyone but the Chameleon, a hand and
a bag with their merchant until the bag is opened."""

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
def chameleon():
    return games.load_path(EXAMPLES / "chameleon.yaml")


def test_chameleon_random_games_end_and_only_the_chameleon_lacks_the_word(chameleon):
    """Random bots, 3 to 8 players, the talk's clock running out now and then: every game ends with
    someone at 5 points or after 8 rounds, the winners having the most points. Until a round ends,
    every seat but the Chameleon's sees the secret word on its own card and nobody sees another's
    card; the Chameleon's view never holds the word but in the topic card's sixteen; a spectator
    sees no card at all; the dice and the secret stay on the server."""
    assert validate_file(EXAMPLES / "chameleon.yaml").problems == []
    endings, caught = Counter(), Counter()
    for seed in range(150):
        count = 3 + seed % 6
        match = Match(chameleon, NAMES[:count], seed=seed, headless=True, timers=True)
        players = [bots.make("random", seed=f"{seed}-{seat}") for seat in range(count)]
        for steps in range(3000):
            if match.over:
                break
            seen = views(match)
            state = match.state
            secret, roles = state["secret_word"], [p["role"] for p in match.players]
            for seat, view in enumerate(seen):
                assert not {"secret_word", "chameleon", "topic_roll", "secret_roll"} & set(view["state"]), seat
                for owner, row in enumerate(view["state"]["players"]):
                    if owner == seat:
                        assert row["role"] == roles[owner]
                        assert row["word"] == ("" if roles[owner] == "Chameleon" else secret)
                    else:
                        assert row["role"] is None and row["word"] is None, (seed, seat, owner)
                if seat == count or roles[seat] == "Chameleon":  # the spectator, or the Chameleon
                    # this round's lines after the topic card's never name the word (the round ends
                    # at once after a guess)
                    start = max((i for i, line in enumerate(view["log"])
                                 if line["text"].startswith(f"Round {state['round']}.")), default=0)
                    named = [line["text"] for line in view["log"][start + 1:]
                             if re.search(rf"\b{re.escape(secret)}\b", line["text"])]
                    assert not named, (seed, seat, named)
            if match.phase.name == "Talk It Over" and steps % 3 == 0:
                match.choose(CLOCK, TIME_UP)
                continue
            if match.phase.name == "The Chameleon Guesses":
                caught[match.state["accused"] == match.state["chameleon"]] += 1
            match.choose(*bot_choice(match, players, seen))
        assert match.over, seed
        points = [p["points"] for p in match.players]
        assert sorted(match.winners) == [s for s in range(count) if points[s] == max(points)], seed
        assert max(points) >= 5 or match.state["round"] == 8, (seed, points)
        endings["points" if max(points) >= 5 else "eight rounds"] += 1
    assert endings["points"] >= 50 and caught[True] >= 50, (endings, caught)


@pytest.fixture(scope="module")
def sheriff():
    return games.load_path(EXAMPLES / "sheriff.yaml")


def test_sheriff_random_games_end_and_a_bag_is_seen_only_when_opened(sheriff):
    """Random bots, 3 to 5 players: every game ends after each player was the Sheriff twice, the
    richest winning. No seat sees another's hand, bag or contraband's worth, nor the draw pile;
    whichever card a merchant puts in their bag, every other seat and a spectator see the same
    table; a bag's contents are told to all only when the Sheriff opens it; nobody's coins go
    below 0, and the counts on the table match the cards."""
    assert validate_file(EXAMPLES / "sheriff.yaml").problems == []
    outcomes, branches = Counter(), 0
    for seed in range(90):
        count = 3 + seed % 3
        match = Match(sheriff, NAMES[:count], seed=seed, headless=True)
        players = [bots.make("random", seed=f"{seed}-{seat}") for seat in range(count)]
        opened, told, read = 0, [0] * (count + 1), [-1] * (count + 1)  # bags opened; told to each view; versions read
        for steps in range(5000):
            if match.over:
                break
            seen = views(match)
            for seat, view in enumerate(seen):
                assert "deck" not in view["state"] and "cards" not in view["state"]
                for owner, row in enumerate(view["state"]["players"]):
                    if owner != seat:
                        assert row["hand"] is None and row["bag"] is None and row["contraband_value"] is None
                lines = [line["text"] for line in view["log"] if line["version"] > read[seat]]  # the new ones
                read[seat] = max([read[seat]] + [line["version"] for line in view["log"]])
                told[seat] += sum(" opens the bag of " in line for line in lines)
                assert told[seat] == opened, (seed, seat)
                assert not [line for line in lines if " — " in line and not line.startswith(
                    match.names[seat] + " — ")], (seed, seat)  # a card shown is one's own
            for p in match.players:
                # a bag dealt with is emptied onto the stand; its size stays on the table until the round ends
                assert p["coins"] >= 0 and p["hand_size"] == len(p["hand"]) and len(p["bag"]) in (0, p["bag_size"])
            seat, option = bot_choice(match, players, seen)
            if match.phase.name == "Load Your Bag" and seed % 10 == 0:
                legal = match.legal(seat)
                outcomes_seen = []
                for each in legal:
                    if each != "Close the bag":
                        branch = match.clone()
                        branch.choose(seat, each)
                        outcomes_seen.append(branch)
                for other in [s for s in range(count) if s != seat] + [None]:
                    assert len({repr(b.observe(other)) for b in outcomes_seen}) <= 1, (seed, other)
                branches += 1
            if match.phase.name == "Inspect or Let Pass":
                outcomes[option] += 1
                opened += option == "Inspect"
            match.choose(seat, option)
        assert match.over and match.state["round"] == 2 * count + 1, seed
        scores = [p["score"] for p in match.players]
        assert sorted(match.winners) == [s for s in range(count) if scores[s] == max(scores)], seed
        for p in match.players:
            assert p["score"] == p["coins"] + 2 * p["apples"] + 3 * p["cheese"] + 3 * p["bread"] \
                + 4 * p["chickens"] + p["contraband_value"]
    assert branches >= 100 and min(outcomes.values()) >= 300, (branches, outcomes)


def test_the_chameleons_topic_card_stays_on_the_table_all_round(chameleon):
    """The topic card was a log line that scrolled away: it is a text display with the topic's values
    that stays (``stays: true``) from the first clue through the talk and the vote, the same card for
    every seat and the spectator, carrying its template for translation, and a new round puts down the
    new topic's card in its place."""
    match = Match(chameleon, NAMES[:4], seed=3, timers=True)
    players = [bots.make("random", seed=f"3-{seat}") for seat in range(4)]
    phases, topics = set(), []
    while not match.over and len(topics) < 2:
        seen = views(match)
        cards = [[c for c in view["components"] if c["kind"] == "text"] for view in seen]
        if match.phase.name in ("Give a Clue", "Talk It Over", "Vote"):
            state = match.state
            for card in cards:
                assert [c["text"] for c in card] == [
                    f"The topic card, {state['topic']}: {', '.join(state['topic_words'])}."]
                assert card[0]["msg"]["text"] == {"key": "The topic card, {topic}: {topic_words}.", "args": {
                    "topic": state["topic"], "topic_words": ", ".join(state["topic_words"])}}
            phases.add(match.phase.name)
            if not topics or topics[-1] != state["topic"]:
                topics.append(state["topic"])
        if match.phase.name == "Talk It Over":
            match.choose(CLOCK, TIME_UP)
            continue
        match.choose(*bot_choice(match, players, seen))
    assert phases == {"Give a Clue", "Talk It Over", "Vote"} and len(topics) == 2
