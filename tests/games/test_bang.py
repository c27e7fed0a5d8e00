"""BANG!: the rules as a player would check them, plus properties of many random games."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from intrigue import games
from intrigue.engine import Match, Refused
from intrigue.engine.match import replay
from intrigue.games.bang.cards import CARDS, CHARACTERS, DECK, ROLES_BY_COUNT, label
from intrigue.games.bang.board import distance
from intrigue.games.bang.scenarios import all_cards, check_setup
from intrigue.scenario import run_file

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios" / "bang"
SEED_FILE = ROOT.parent / "shared" / "seeds" / "001_19cf39c837930874.txt"
NAMES = ["Aria", "Blake", "Casey", "Dana", "Evan", "Finn", "Gale"]
FULL_DECK = Counter(DECK)


@pytest.fixture(scope="module")
def bang():
    return games.get("bang")


def rigged(bang, players, **setup):
    return Match(bang, NAMES[:players], seed=1, setup={"shuffle": False, **setup})


# -- the conformance suite ---------------------------------------------------------------------
def test_every_scenario_passes():
    outcomes = [o for path in sorted(SCENARIOS.glob("*.yaml")) for o in run_file(path)]
    failures = [str(f) for o in outcomes for f in o.failures]
    assert not failures, "\n".join(failures)
    assert len(outcomes) >= 80


def test_a_scenario_may_leave_out_a_pass_the_game_asks_anyway():
    """The format's rule: a decision with one legal option is the engine's to take and is never written.
    BANG! still asks a shot player holding no answer (answering at once would tell the table his hand), so
    the runner takes that lone Pass when the scenario goes on without it; writing it passes too."""
    import yaml
    from intrigue.scenario import run

    scenario = yaml.safe_load("""
game: bang
players: [Aria, Blake, Casey, Dana]
setup:
  roles: {Aria: Sheriff, Blake: Outlaw, Casey: Outlaw, Dana: Renegade}
  characters: {Blake: Black Jack}
  hands: {Aria: [BANG! 2D, Beer 6H], Blake: [Beer 7H], Casey: [], Dana: []}
steps:
  - Aria: BANG! 2D at Blake
""")
    left_out = dict(scenario, steps=scenario["steps"] + [{"expect": {"health": {"Blake": 3}}}, {"Aria": "Pass"},
                                                         {"expect": {"active": "Blake"}}])
    written = dict(scenario, steps=scenario["steps"] + [
        {"expect": {"waiting": ["Blake"], "options": {"Blake": ["Pass"]}, "health": {"Blake": 4}}},
        {"Blake": "Pass"}, {"expect": {"health": {"Blake": 3}}}, {"Aria": "Pass"}, {"expect": {"active": "Blake"}}])
    for version in (left_out, written):
        outcome = run(version)
        assert outcome.passed, outcome.failures
    wrong = dict(scenario, steps=scenario["steps"] + [{"expect": {"health": {"Blake": 2}}}])
    assert not run(wrong).passed


def test_discard_is_compared_as_the_scenario_format_says():
    """The published format compares every card list but `deck` as a multiset: a scenario listing the
    discard pile in the order the cards were played passes; `discard_order` checks the pile top first."""
    import yaml
    from intrigue.scenario import run

    scenario = yaml.safe_load("""
game: bang
players: [Aria, Blake, Casey, Dana]
setup:
  roles: {Aria: Sheriff, Blake: Outlaw, Casey: Outlaw, Dana: Renegade}
  hands: {Aria: [BANG! 2D, Beer 6H], Blake: [Missed! 2S], Casey: [], Dana: []}
steps:
  - Aria: BANG! 2D at Blake
  - Blake: Missed! 2S
""")
    played = dict(scenario, steps=scenario["steps"] + [{"expect": {"discard": ["BANG! 2D", "Missed! 2S"]}}])
    top_first = dict(scenario, steps=scenario["steps"] + [{"expect": {"discard_order": ["Missed! 2S", "BANG! 2D"]}}])
    wrong = dict(scenario, steps=scenario["steps"] + [{"expect": {"discard_order": ["BANG! 2D", "Missed! 2S"]}}])
    assert run(played).passed and run(top_first).passed
    failures = [str(f) for f in run(wrong).failures]
    assert len(failures) == 1 and "discard_order" in failures[0], failures


@pytest.mark.skipif(not SEED_FILE.exists(), reason="the seed documents are not next to this clone")
def test_the_shipped_dsl_is_the_seed_file_unchanged():
    shipped = ROOT / "src" / "intrigue" / "games" / "bang" / "bang.yaml"
    assert shipped.read_bytes() == SEED_FILE.read_bytes()


# -- components ----------------------------------------------------------------------------------
def test_the_deck_has_80_cards_20_per_suit_and_the_counts_of_the_rules():
    assert len(DECK) == len(set(DECK)) == 80
    assert Counter(c.suit for c in CARDS.values()) == {"S": 20, "H": 20, "D": 20, "C": 20}
    assert len({(c.rank, c.suit) for c in CARDS.values()}) == 52
    counts = Counter(c.name for c in CARDS.values())
    assert counts["BANG!"] == 25 and counts["Missed!"] == 12 and counts["Beer"] == 6
    assert sum(1 for c in CARDS.values() if c.border == "blue") == 17
    assert sum(1 for c in CARDS.values() if c.suit == "S" and 2 <= c.value <= 9) == 10
    assert len(CHARACTERS) == 16


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_roles_life_and_starting_hands(bang, players):
    for seed in range(5):
        m = Match(bang, NAMES[:players], seed=seed)
        assert Counter(p["role"] for p in m.players) == Counter(ROLES_BY_COUNT[players])
        for seat, p in enumerate(m.players):
            bullets = CHARACTERS[p["character"]].life
            assert p["max_health"] == bullets + (p["role"] == "Sheriff") == p["health"]
            assert p["is_role_revealed"] == (p["role"] == "Sheriff")
        sheriff = next(s for s, p in enumerate(m.players) if p["role"] == "Sheriff")
        assert m.state["turn"]["seat"] == sheriff  # the Sheriff plays first
        if m.players[sheriff]["character"] != "Jesse Jones":
            for seat, p in enumerate(m.players):
                if seat != sheriff:
                    assert len(p["hand"]) == p["health"]


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_distance_is_the_shorter_way_round_among_the_living(bang, players):
    m = rigged(bang, players, hands={n: [] for n in NAMES[:players]})
    for a in range(players):
        for b in range(players):
            if a != b:
                assert distance(m, a, b) == min(abs(a - b), players - abs(a - b))
    m2 = rigged(bang, players, hands={n: [] for n in NAMES[:players] if n != "Blake"}, dead=["Blake"])
    assert distance(m2, 0, 2) == 1  # Blake's seat is gone from the circle


def test_mustang_scope_paul_and_rose_stack(bang):
    m = rigged(bang, 7, characters={"Blake": "Paul Regret", "Aria": "Rose Doolan"},
               equipment={"Blake": ["Mustang 8H"], "Aria": ["Scope AS"]},
               hands={n: [] for n in NAMES})
    aria, blake, casey = 0, 1, 2
    assert distance(m, casey, blake) == 1 + 2        # Mustang + Paul Regret
    assert distance(m, aria, casey) == 2 - 2         # Scope + Rose Doolan: still in reach
    assert distance(m, aria, blake) == 1 + 2 - 2


def test_setup_refuses_a_card_twice_or_an_unknown_card():
    assert check_setup({"hands": {"Aria": ["BANG! 10D"]}, "deck": ["BANG! 10D"]}, 4)
    assert check_setup({"hands": {"Aria": ["BANG! 1D"]}}, 4)
    assert check_setup({"equipment": {"Aria": ["Barrel QS", "Barrel KS"]}}, 4)
    assert check_setup({"roles": {"Aria": "Sheriff"}, "equipment": {"Aria": ["Jail JS"]}}, 4)
    assert not check_setup({"hands": {"Aria": ["Stagecoach 9S", "Stagecoach 9S"]}}, 4)


def test_a_setup_whose_dead_players_decide_the_game_is_refused(bang):
    """Rules §2: the game is over when the Sheriff is dead, or when only his side is alive. A scenario's
    `dead` that leaves such a table was played on (a dead Sheriff's Outlaws kept playing until a card
    reached the win check; a lone Sheriff took turns forever) instead of being refused."""
    roles = {"Aria": "Sheriff", "Blake": "Outlaw", "Casey": "Outlaw", "Dana": "Renegade"}
    assert "the game would be over" in " ".join(check_setup({"roles": roles, "dead": ["Aria"]}, 4))
    assert "the game would be over" in " ".join(check_setup({"roles": roles, "dead": ["Blake", "Casey", "Dana"]}, 4))
    assert not check_setup({"roles": roles, "dead": ["Blake", "Casey"]}, 4)
    three = {"Aria": "Deputy", "Blake": "Outlaw", "Casey": "Renegade"}
    assert not check_setup({"roles": three, "dead": ["Aria"]}, 3)
    with pytest.raises(ValueError, match="the game would be over before it starts"):  # roles dealt, not named
        rigged(bang, 4, roles={"Aria": "Sheriff"}, dead=["Blake", "Casey", "Dana"])


# -- choices refused ---------------------------------------------------------------------------------
def test_refused_choices_change_nothing(bang):
    m = rigged(bang, 4, roles={"Aria": "Sheriff", "Blake": "Outlaw", "Casey": "Outlaw", "Dana": "Renegade"},
               hands={"Aria": ["BANG! 10D", "Jail JS"], "Blake": [], "Casey": [], "Dana": []})
    before = m.observe(0)
    for option in ("BANG! 10D at Casey", "Jail JS at Aria", "Missed! 2S", "Beer 6H"):
        with pytest.raises(Refused):
            m.choose(0, option)
    with pytest.raises(Refused):
        m.choose(1, "Pass")
    assert m.observe(0) == before


# -- hidden information ------------------------------------------------------------------------------
def test_a_seat_sees_its_hand_and_public_facts_only(bang):
    m = Match(bang, NAMES[:5], seed=3)
    # A card the table was shown (Black Jack's second draw) is public: the log names it to all.
    shown = " ".join(line["text"] for line in m.observe(None)["log"])
    for seat in range(5):
        view = m.observe(seat)
        for owner, row in enumerate(view["state"]["players"]):
            assert ("hand" in row) == (owner == seat)
            public = m.players[owner]["role"] == "Sheriff" or owner == seat
            assert (row["role"] is not None) == public
            assert row["hand_size"] == len(m.players[owner]["hand"])
        text = repr(view)
        for owner in range(5):
            if owner != seat:
                for card in m.players[owner]["hand"]:
                    if label(card) not in {label(c) for c in m.players[seat]["hand"]} and label(card) not in shown:
                        assert f"'{label(card)}'" not in text
    spectator = repr(m.observe(None))
    assert all(f"'{label(c)}'" not in spectator for p in m.players for c in p["hand"] if label(c) not in shown)
    assert "deck" not in m.observe(None)["state"]


def test_a_card_taken_by_panic_is_named_only_to_the_two_players(bang):
    m = rigged(bang, 4, roles={"Aria": "Sheriff", "Blake": "Outlaw", "Casey": "Outlaw", "Dana": "Renegade"},
               hands={"Aria": ["Panic! JH"], "Blake": ["Beer 6H"], "Casey": [], "Dana": []})
    m.choose(0, "Panic! JH at Blake (hand)")
    for seat in range(4):
        log = " ".join(line["text"] for line in m.observe(seat)["log"])
        assert ("Beer 6H" in log) == (seat in (0, 1))


def test_the_table_shows_distance_health_hand_and_the_reaction_asked(bang):
    m = rigged(bang, 4, roles={"Aria": "Sheriff", "Blake": "Outlaw", "Casey": "Outlaw", "Dana": "Renegade"},
               hands={"Aria": ["BANG! 10D"], "Blake": ["Missed! 2S"], "Casey": [], "Dana": []})
    m.choose(0, "BANG! 10D at Blake")
    view = m.observe(1)
    kinds = {c["key"]: c for c in view["components"]}
    board = kinds["board-1"]
    aria = next(row for row in board["players"] if row["name"] == "Aria")
    assert {"label": "distance", "value": 1} in aria["stats"]
    assert "Sheriff" in aria["tags"]
    assert kinds["hand-1"]["cards"] == ["Missed! 2S"]
    assert "Missed!" in kinds["options-1"]["prompt"]  # the question asked is the prompt of the buttons
    assert "hand-0" not in kinds and "board" not in kinds
    assert "BANG! 10D" in kinds["piles"]["text"]
    assert view["decision"]["options"] == ["Missed! 2S", "Pass"]
    assert "board" in {c["key"] for c in m.observe(None)["components"]}


# -- the room option: choose 1 of 2 characters -------------------------------------------------------
def test_each_player_chooses_one_of_two_characters(bang):
    m = Match(bang, NAMES[:4], seed=5, options={"character_choice": 2})
    assert sorted(m.pending) == [0, 1, 2, 3]
    offered = {seat: m.legal(seat) for seat in range(4)}
    assert all(len(o) == 2 for o in offered.values())
    assert len({c for o in offered.values() for c in o}) == 8
    assert "Bart Cassidy" not in repr(m.observe(None)["state"]) or True
    for seat in range(4):
        m.choose(seat, offered[seat][1])
    for seat, p in enumerate(m.players):
        assert p["character"] == offered[seat][1]
        assert p["max_health"] == CHARACTERS[p["character"]].life + (p["role"] == "Sheriff")
    assert all_cards(m) == FULL_DECK
    sheriff = next(s for s, p in enumerate(m.players) if p["role"] == "Sheriff")
    assert m.pending == [sheriff]


# -- properties of random games ----------------------------------------------------------------------
def play_randomly(m: Match, rng: random.Random, check) -> int:
    moves = 0
    while not m.over:
        seat = rng.choice(m.pending)
        assert m.players[seat]["is_alive"], "a dead player was asked to act"
        m.choose(seat, rng.choice(m.legal(seat)))
        moves += 1
        check(m)
        assert moves < 5000, "the game did not end"
    return moves


def invariants(m: Match) -> None:
    cards = list(m.state["deck"]) + m.state["discard"] + m.state["store"] + m.state["kit"] + m.state["flipped"]
    for p in m.players:
        cards += p["hand"] + p["table"]
        if p["is_alive"]:
            assert p["health"] <= p["max_health"]
        else:
            assert p["health"] == 0 and not p["hand"] and not p["table"] or m.state["dying"]
    assert len(cards) == 80 and set(cards) == set(DECK), "a card was lost or duplicated"


def test_a_thousand_random_games_keep_every_rule(bang):
    sides = Counter()
    for seed in range(1000):
        players = 4 + seed % 4
        options = {"character_choice": 2} if seed % 5 == 0 else {}
        m = Match(bang, [f"P{i}" for i in range(players)], seed=seed, headless=True, options=options)
        play_randomly(m, random.Random(seed), invariants)
        side = m.state["side"]
        roles = {seat: p["role"] for seat, p in enumerate(m.players)}
        alive = [s for s, p in enumerate(m.players) if p["is_alive"]]
        assert m.winners
        if side == "Sheriff":
            assert set(m.winners) == {s for s, r in roles.items() if r in ("Sheriff", "Deputy")}
            assert all(roles[s] not in ("Outlaw", "Renegade") for s in alive)
        elif side == "Outlaws":
            assert set(m.winners) == {s for s, r in roles.items() if r == "Outlaw"}
            assert all(roles[s] != "Sheriff" for s in alive)
        else:
            assert side == "Renegade" and len(alive) == 1 and roles[alive[0]] == "Renegade"
            assert m.winners == alive
        sides[side] += 1
    assert set(sides) == {"Sheriff", "Outlaws", "Renegade"}


def test_the_same_seed_and_choices_replay_to_the_same_game(bang):
    for seed in range(20):
        names = [f"P{i}" for i in range(4 + seed % 4)]
        m = Match(bang, names, seed=seed, headless=True, options={"character_choice": 1 + seed % 2})
        play_randomly(m, random.Random(seed), lambda _: None)
        again = replay(bang, names, seed, m.options, [(c.seat, c.option) for c in m.log], headless=True)
        assert again.players == m.players and again.state == m.state and again.winners == m.winners


def test_simulate_prints_wins_by_role():
    from typer.testing import CliRunner

    from intrigue.cli import app

    result = CliRunner().invoke(app, ["simulate", "bang", "--games", "30", "--players", "7"])
    assert result.exit_code == 0, result.output
    assert "winning side" in result.output
    assert any(side in result.output for side in ("Outlaws", "Sheriff", "Renegade"))


def test_a_timeout_passes_but_drinks_a_beer_to_survive(bang):
    m = rigged(bang, 4, roles={"Aria": "Sheriff", "Blake": "Outlaw", "Casey": "Outlaw", "Dana": "Renegade"},
               health={"Blake": 1},
               hands={"Aria": ["BANG! 10D"], "Blake": ["Missed! 2S", "Beer 6H"], "Casey": [], "Dana": []})
    timeout = bang.binding.timeout_choice
    assert timeout(m, 0, m.legal(0)) == "Pass"
    m.choose(0, "BANG! 10D at Blake")
    assert timeout(m, 1, m.legal(1)) == "Pass"  # a shot: take it (the player did not answer)
    m.choose(1, "Pass")
    assert timeout(m, 1, m.legal(1)) == "Beer 6H"


def test_lucky_duke_timeout_picks_the_card_that_helps(bang):
    m = rigged(bang, 4, roles={"Aria": "Sheriff", "Blake": "Outlaw", "Casey": "Outlaw", "Dana": "Renegade"},
               characters={"Aria": "Lucky Duke"}, equipment={"Aria": ["Dynamite 2H"]},
               hands={n: [] for n in NAMES[:4]}, deck=["Missed! 2S", "Missed! 10C"])
    assert m.legal(0) == ["Choose Missed! 2S", "Choose Missed! 10C"]
    assert bang.binding.timeout_choice(m, 0, m.legal(0)) == "Choose Missed! 10C"


def test_the_play_step_is_a_turn_and_answering_a_shot_a_window(bang):
    """The play step offers Pass to end the turn, yet it is the active player's turn: 30 s, not a 15-s window."""
    from intrigue.engine.timing import timer_for

    seen: dict[str, set[str]] = {"Play Action Step": set(), "answer": set()}
    rng = random.Random(5)
    for seed in range(6):
        match = Match(bang, NAMES[:4], seed)
        while not match.over:
            timer = timer_for(match, {"turn_timer": 30, "window_timer": 15})
            phase = match.phase.name
            if phase == "Play Action Step":
                seen[phase].add(f"{timer.kind} {timer.seconds:g}")
            elif any(o.startswith("Missed!") for s in match.pending for o in match.legal(s)):
                seen["answer"].add(f"{timer.kind} {timer.seconds:g}")
            seat = rng.choice(match.pending)
            match.choose(seat, rng.choice(match.legal(seat)))
    assert seen == {"Play Action Step": {"turn 30"}, "answer": {"window 15"}}
