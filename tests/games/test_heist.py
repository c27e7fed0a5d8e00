"""Heist, the YAML-only example game of docs/writing-a-game.md: random bots always finish it."""

import random
from collections import Counter

import pytest

from intrigue import bots, games
from intrigue.engine import Match
from intrigue.games import load_path
from intrigue.simulate import random_play
from intrigue.scenario import run

NAMES = ["Aria", "Blaise", "Cass", "Dana", "Eli", "Fay"]


def play_with_random_bots(match, seed):
    """Every seat is the random bot, seeing only its own observation."""
    players = [bots.make("random", seed=f"{seed}-{seat}") for seat in range(len(match.names))]
    choices = 0
    while not match.over:
        seat = match.pending[0]
        view = bots.SeatView(match.game, seat, match.observe(seat), tuple(match.legal(seat)))
        match.choose(seat, players[seat].choose(view))
        choices += 1
        assert choices < 500
    return choices


@pytest.fixture(scope="module")
def heist():
    return games.get("heist")


def test_a_thousand_random_games_end_with_one_side_winning(heist):
    sides = Counter()
    for seed in range(1000):
        count = 3 + seed % 4
        match = Match(heist, NAMES[:count], seed=seed, headless=True)
        choices = play_with_random_bots(match, seed)
        thief = next(s for s, p in enumerate(match.players) if p["role"] == "Thief")
        assert match.over and choices <= 3 * count * (1 + count)  # 3 rounds of turns and votes
        if match.winners == [thief]:
            sides["thief"] += 1
        else:
            assert match.winners == [s for s in range(count) if s != thief]
            sides["guards"] += 1
        assert match.state["round"] <= match.state["round_limit"] + 1
    assert sides["thief"] > 100 and sides["guards"] > 100


def test_the_bare_dsl_file_loads_as_the_same_game(heist):
    bare = load_path(heist.binding.dsl_path)
    assert bare.title == "Heist" and (bare.min_players, bare.max_players) == (3, 6)
    one = Match(heist, NAMES[:4], seed=9, headless=True)
    two = Match(bare, NAMES[:4], seed=9, headless=True)
    random_play(one, random.Random(1))
    random_play(two, random.Random(1))
    assert one.players == two.players and one.winners == two.winners


def test_the_tutorial_walkthrough():
    outcome = run({
        "game": "heist", "players": ["Aria", "Blaise", "Cass"], "first": "Aria",
        "setup": {"roles": {"Aria": "Guard", "Blaise": "Thief", "Cass": "Guard"}},
        "steps": [
            {"expect": {"options": {"Aria": ["Pass", "Blaise", "Cass"]},
                        "sees": {"Aria": {"Blaise": {"role": None}, "Aria": {"role": "Guard"}}}}},
            {"Aria": "Blaise"},
            {"expect": {"phase": "Vote", "waiting": ["Aria", "Blaise", "Cass"]}},
            {"Aria": "Guilty"}, {"Blaise": "Innocent"}, {"Cass": "Guilty"},
            {"expect": {"winner": ["Aria", "Cass"], "alive": {"Blaise": False},
                        "game": {"guilty_votes": 2, "convicted": True, "thieves_free": 0}}},
        ],
    })
    assert outcome.passed, [str(f) for f in outcome.failures]


def test_a_wrong_conviction_leaving_one_guard_lets_the_thief_win():
    outcome = run({
        "game": "heist", "players": ["Aria", "Blaise", "Cass"], "first": "Blaise",
        "setup": {"roles": {"Aria": "Guard", "Blaise": "Thief", "Cass": "Guard"}},
        "steps": [{"Blaise": "Cass"}, {"all": "Guilty"},
                  {"expect": {"winner": "Blaise", "sees": {"Aria": {"Cass": {"role": "Guard"}}}}}],
    })
    assert outcome.passed, [str(f) for f in outcome.failures]


def test_a_folder_holding_only_a_dsl_file_is_an_installed_game(tmp_path, monkeypatch, heist):
    """The tutorial's promise: copy a YAML file into games/<id>/ and it is a game."""
    folder = tmp_path / "my_heist"
    folder.mkdir()
    (folder / "my_heist.yaml").write_text(heist.binding.dsl_path.read_text().replace("title: Heist", "title: My Heist"))
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(tmp_path)])
    assert "my_heist" in games.installed()
    mine = games.get("my_heist")
    assert mine.title == "My Heist" and mine.id == "my_heist"
    match = Match(mine, NAMES[:5], seed=4, headless=True)
    random_play(match, random.Random(4))
    assert match.over and match.winners
