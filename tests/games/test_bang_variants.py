"""BANG!'s last gaps: the 3- and 8-player variants, the dead player's discard order, Sid
Ketchum beside another player's decision, and eliminations that do not depend on seats."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from intrigue import games
from intrigue.bots import SeatView
from intrigue.bots.ismcts import ISMCTS
from intrigue.engine import Match
from intrigue.engine.match import replay
from intrigue.games.bang.cards import CHARACTERS, DECK, HUNTS, ROLES_BY_COUNT
from intrigue.games.bang.board import NOT_NOW

NAMES = ["Aria", "Blake", "Casey", "Dana", "Evan", "Finn", "Gale", "Hope"]


@pytest.fixture(scope="module")
def bang():
    return games.get("bang")


def all_cards(m: Match) -> Counter:
    state = m.state
    cards = state["deck"] + state["discard"] + state["store"] + state["kit"] + state["flipped"]
    return Counter(cards + [c for p in m.players for c in p["hand"] + p["table"]])


def play_randomly(m: Match, rng: random.Random) -> Counter:
    """Random legal choices to the end, checking cards and life after each; returns what was asked."""
    asked: Counter = Counter()
    while not m.over:
        seat = rng.choice(m.pending)
        assert m.players[seat]["is_alive"]
        options = m.legal(seat)
        asked["standing" if NOT_NOW in options else m.state["reaction"]["prompt"].get("kind", m.phase_id)] += 1
        m.choose(seat, rng.choice(options))
        assert all_cards(m) == Counter(DECK), "a card was lost or duplicated"
        for p in m.players:
            assert p["health"] <= p["max_health"]
        assert len(m.log) < 6000
    return asked


# -- the 3-player variant ------------------------------------------------------------------------------
def test_three_players_are_a_deputy_an_outlaw_and_a_renegade_face_up_and_the_deputy_starts(bang):
    for seed in range(6):
        m = Match(bang, NAMES[:3], seed)
        assert sorted(p["role"] for p in m.players) == ["Deputy", "Outlaw", "Renegade"]
        deputy = next(s for s, p in enumerate(m.players) if p["role"] == "Deputy")
        assert m.state["turn"]["seat"] == deputy
        for seat, p in enumerate(m.players):
            assert p["max_health"] == CHARACTERS[p["character"]].life  # no Sheriff, no extra life
            for viewer in (None, 0, 1, 2):
                assert m.observe(viewer)["state"]["players"][seat]["role"] == p["role"]  # face up


def test_random_three_player_games_end_with_one_winner_as_the_variant_says(bang):
    sides = Counter()
    for seed in range(150):
        m = Match(bang, NAMES[:3], seed, headless=True, options={"character_choice": 1 + seed % 2})
        play_randomly(m, random.Random(seed))
        side = m.state["side"]
        assert len(m.winners) == 1 and m.players[m.winners[0]]["role"] == side
        assert m.players[m.winners[0]]["is_alive"]
        sides[side] += 1
    assert set(sides) == {"Deputy", "Outlaw", "Renegade"}


def test_whoever_eliminates_their_own_target_wins_at_once(bang):
    for hunter, prey in HUNTS.items():
        roles = {"Aria": hunter, "Blake": prey, "Casey": next(r for r in HUNTS if r not in (hunter, prey))}
        m = Match(bang, NAMES[:3], 0, setup={"roles": roles, "health": {"Blake": 1}, "first": "Aria",
                                             "hands": {"Aria": ["BANG! 2D"], "Blake": [], "Casey": []},
                                             "deck": ["Beer 6H", "Beer 7H"]})
        m.choose(0, "BANG! 2D at Blake")
        assert m.over and m.winners == [0] and m.state["side"] == hunter


# -- the 8-player variant ------------------------------------------------------------------------------
def test_eight_players_have_two_renegades(bang):
    assert Counter(ROLES_BY_COUNT[8]) == {"Sheriff": 1, "Deputy": 2, "Outlaw": 3, "Renegade": 2}
    m = Match(bang, NAMES, 4)
    assert Counter(p["role"] for p in m.players) == Counter(ROLES_BY_COUNT[8])


def test_random_eight_player_games_keep_every_rule(bang):
    sides = Counter()
    for seed in range(80):
        m = Match(bang, NAMES, seed, headless=True)
        play_randomly(m, random.Random(seed))
        side = m.state["side"]
        roles = [p["role"] for p in m.players]
        alive = [s for s, p in enumerate(m.players) if p["is_alive"]]
        if side == "Renegade":
            assert len(alive) == 1 and roles[alive[0]] == "Renegade" and m.winners == alive
        elif side == "Outlaws":
            assert set(m.winners) == {s for s, r in enumerate(roles) if r == "Outlaw"}
            assert "Sheriff" not in [roles[s] for s in alive]
        else:
            assert side == "Sheriff" and not {"Outlaw", "Renegade"} & {roles[s] for s in alive}
        sides[side] += 1
    assert {"Sheriff", "Outlaws"} <= set(sides)


@pytest.mark.parametrize("players", [3, 8])
def test_the_same_seed_and_choices_replay_the_same_game(bang, players):
    for seed in range(6):
        m = Match(bang, NAMES[:players], seed, headless=True)
        play_randomly(m, random.Random(seed))
        again = replay(bang, NAMES[:players], seed, m.options, [(c.seat, c.option) for c in m.log], headless=True)
        assert (again.players, again.state, again.winners) == (m.players, m.state, m.winners)


@pytest.mark.parametrize("players", [3, 8])
def test_ismcts_plays_the_variants_to_the_end(bang, players):
    """A searching bot in the first seat, random players elsewhere (to keep it brief)."""
    m = Match(bang, NAMES[:players], 2, headless=True)
    bot = ISMCTS(seed=1, iterations=4)
    rng = random.Random(2)
    searched = 0
    while not m.over:
        seat = rng.choice(m.pending)
        if seat == 0:
            option = bot.choose(SeatView.of(m, seat))
            searched += 1
        else:
            option = rng.choice(m.legal(seat))
        m.choose(seat, option)
        assert len(m.log) < 3000
    assert m.winners and searched


def test_simulate_runs_three_and_eight_players():
    from typer.testing import CliRunner

    from intrigue.cli import app

    for players in ("3", "8"):
        result = CliRunner().invoke(app, ["simulate", "bang", "--games", "10", "--players", players])
        assert result.exit_code == 0, result.output
        assert "winning side" in result.output


# -- the new decisions over many games: every one is asked and every game still ends -------------------------
def test_random_games_ask_the_discard_order_and_let_sid_heal_beside_others(bang):
    asked: Counter = Counter()
    for seed in range(60):
        players = 3 + seed % 6
        m = Match(bang, NAMES[:players], seed, headless=True)
        for p in m.players[:2]:  # Sid Ketchum at the table in every game
            if p["character"] == "Sid Ketchum":
                break
        else:
            m = Match(bang, NAMES[:players], seed, headless=True,
                      setup={"characters": {"Blake": "Sid Ketchum"}})
        asked += play_randomly(m, random.Random(seed))
    assert asked["order"] > 10 and asked["standing"] > 10, asked


def test_timeouts_let_sid_pass_and_put_the_cards_in_the_default_order(bang):
    m = Match(bang, NAMES[:4], 1, setup={
        "roles": {"Aria": "Sheriff", "Blake": "Outlaw", "Casey": "Outlaw", "Dana": "Renegade"},
        "characters": {"Casey": "Sid Ketchum"}, "health": {"Blake": 1, "Casey": 2},
        "hands": {"Aria": ["BANG! 2D"], "Blake": ["Beer 6H", "Missed! 2S"], "Casey": ["Beer 7H", "Beer 8H"],
                  "Dana": []},
        "equipment": {"Blake": ["Scope AS"]}, "deck": ["Beer 9H", "Beer 10H", "Missed! 3S"], "first": "Aria"})
    timeout = bang.binding.timeout_choice
    assert set(m.pending) == {0, 2}
    assert timeout(m, 2, m.legal(2)) == NOT_NOW
    m.choose(0, "BANG! 2D at Blake")
    m.choose(1, "Pass")
    m.choose(1, "Pass")
    assert m.legal(1) == ["Discard Beer 6H", "Discard Missed! 2S", "Discard Scope AS"]
    assert timeout(m, 1, m.legal(1)) == "Discard Beer 6H"  # hand, then table


# -- simultaneous eliminations: the seats do not matter ----------------------------------------------------
def gatling_table(order: tuple[str, ...], shooter_character: str | None = None):
    """The Sheriff's Gatling kills an Outlaw and a Deputy; the victims and the others sit in ``order``."""
    names = ["Sheriff", *order]
    roles = {"Sheriff": "Sheriff", "Outlaw": "Outlaw", "Deputy": "Deputy", "Renegade": "Renegade",
             "Outlaw2": "Outlaw"}
    setup = {"roles": roles, "health": {"Outlaw": 1, "Deputy": 1},
             "hands": {"Sheriff": ["Gatling 10H", "Beer 6H"], **{n: [] for n in order}},
             "equipment": {"Sheriff": ["Scope AS"], "Outlaw": ["Mustang 8H"], "Deputy": ["Volcanic 10S"]},
             "deck": ["Beer 7H", "Beer 8H", "Missed! 2S", "Missed! 3S", "Missed! 4S"],
             "first": "Sheriff", "shuffle": False}
    if shooter_character:
        setup["characters"] = {"Sheriff": shooter_character}
    return Match(games.get("bang"), names, 0, setup=setup)


@pytest.mark.parametrize("character", [None, "Vulture Sam", "Suzy Lafayette"])
def test_the_sheriffs_gatling_ends_the_same_way_whatever_the_seats(character):
    outcomes = set()
    for order in itertools.permutations(["Outlaw", "Deputy", "Renegade", "Outlaw2"]):
        m = gatling_table(order, character)
        m.choose(0, "Gatling 10H")
        sheriff = m.players[0]
        outcomes.add((tuple(sorted(m.names[s] for s, p in enumerate(m.players) if not p["is_alive"])),
                      tuple(sorted(sheriff["hand"])), tuple(sheriff["table"]), sheriff["health"], m.over))
    assert len(outcomes) == 1, outcomes
    (dead, held, table, health, over), = outcomes
    assert dead == ("Deputy", "Outlaw") and not table and not over
    # the penalty took everything, then the reward gave 3 (Suzy Lafayette drew 1 on the empty hand)
    assert len(held) == 3 + (character == "Suzy Lafayette")


@pytest.mark.parametrize("options, message", [
    ({"duel_challenger_loss": "target"}, "option duel_challenger_loss must be self or opponent, not 'target'"),
    ({"character_choice": 0}, "option character_choice must be a whole number from 1 to 16, not 0"),
    ({"cat_balou_self": "yes"}, "option cat_balou_self must be true or false, not 'yes'"),
])
def test_an_option_value_bang_does_not_know_is_refused_by_name(bang, options, message):
    """Any value other than "self" once acted as "opponent" without a word."""
    with pytest.raises(ValueError, match=message):
        Match(bang, ["A", "B", "C", "D"], 1, options)
    Match(bang, ["A", "B", "C", "D"], 1, {"duel_challenger_loss": "opponent", "character_choice": 2})  # known: fine
