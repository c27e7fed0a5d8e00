"""Engine bugs the designer trial found with games written from the docs alone (docs/examples/games).

Each test states what a designer needs (they failed until the engine was fixed).
"""

from __future__ import annotations

from intrigue import bots, games
from intrigue.bots import tournament
from intrigue.engine import Match
from intrigue.scenario import run

from ..conftest import ROOT

EXAMPLES = ROOT / "docs" / "examples" / "games"
SKULL = str(EXAMPLES / "skull.yaml")
CHANCELLOR = str(EXAMPLES / "secret_chancellor.yaml")


def test_a_search_bot_plays_on_when_its_samples_break_the_rules(monkeypatch):
    """A sample may break the rules (a determinizer that cannot rebuild a private fact): in Skull a
    sample with empty stacks beside public stack sizes of 1 or more, where turning over a disc is
    refused by the rules. The search must not stop the table: it drops such samples and, when none
    can be played, plays a random legal option (as without a determinizer). The generic sampler now
    deals the stacks (from each player's own discs), so the broken samples are made here."""
    skull = games.load_path(SKULL)
    match = Match(skull, ["Aria", "Blaise", "Cass"], seed=3, headless=True)
    for seat in range(3):
        match.choose(seat, "Flower")
    match.choose(match.pending[0], "Bid 3")  # three discs down: the challenger turns over the others'
    assert match.phase.name == "Turn Over a Disc"
    seat = match.pending[0]
    view = bots.SeatView(skull, seat, match.observe(seat), tuple(match.legal(seat)))
    bot = bots.make("ismcts:50", seed=1)
    assert bot.choose(view) in match.legal(seat) and bot.fallbacks == 0  # the stacks are dealt: it searches
    sampler = skull.binding.determinize

    def without_stacks(game, observation, seat, rng, **beliefs):
        sample = sampler(game, observation, seat, rng, **beliefs)
        for player in sample.players:
            player["stack"] = []
        return sample

    monkeypatch.setattr(skull.binding, "determinize", without_stacks)
    bot = bots.make("ismcts:50", seed=1)
    option = bot.choose(view)
    assert option in match.legal(seat)
    assert bot.fallbacks == 1
    report = tournament.run(skull, ["ismcts:10", "random"], games=3, seed=1, players=3)
    assert report.games == 3 and report.draws == 0  # every game played to a winner, none stopped


def test_say_shows_a_list_as_its_items_not_as_python_repr():
    """A `say` placeholder holding a list reads "['Flower', 'Skull']" to players (declarative._text
    is str())."""
    outcome = run({"game": SKULL, "players": ["Aria", "Blaise", "Cass"], "first": "Aria",
                   "steps": [{"Aria": "Flower"}, {"Blaise": "Flower"}, {"Cass": "Flower"}, {"Aria": "Bid 3"}]})
    assert outcome.passed, [str(f) for f in outcome.failures]
    lines = [line["text"] for line in outcome.match.observe(1)["log"]]
    challenge = next(line for line in lines if "must turn over" in line)
    assert challenge == "Aria must turn over 3 flowers, their own first: Flower."


def test_a_dsl_game_scenario_refuses_setup_keys_it_does_not_know():
    """yaml_game's check_setup looks at `roles` only: `setup: {deck: …}` or a typo (`role:`) is
    silently ignored, and the scenario runs on the random deal."""
    for setup in ({"role": {"Aria": "Liberal"}}, {"deck": ["Fascist"] * 17}, {"hands": {"Aria": ["Liberal"]}}):
        outcome = run({"game": CHANCELLOR, "players": ["Aria", "Blaise", "Cass", "Dara", "Eli"], "setup": setup,
                       "steps": [{"expect": {"phase": "Nominate a Chancellor"}}]})
        assert not outcome.passed, setup
        assert "setup" in str(outcome.failures[0]), setup


def test_expect_game_checks_a_list_in_order():
    """The `game` expect key compares lists as multisets (yaml_game registers it unordered), so a
    scenario checking the order of a DSL game's deck passes whatever the order."""
    outcome = run({"game": CHANCELLOR, "players": ["Aria", "Blaise", "Cass", "Dara", "Eli"], "first": "Aria",
                   "setup": {"shuffle": False},
                   "steps": [{"expect": {"game": {"deck": ["Fascist"] * 11 + ["Liberal"] * 6}}}]})
    assert not outcome.passed  # the unshuffled deck is six Liberal policies, then eleven Fascist ones


def test_the_lobby_line_of_a_game_without_a_summary_is_its_first_sentence_whole():
    """With no ``declaration.summary`` the lobby shows the description's first sentence; its full stop
    was cut off."""
    skull = games.load_path(SKULL)
    assert skull.binding.summary == "Every player hides discs face down, flowers and one skull."


LOOK_THEN_DRAW = """
declaration:
  title: Look Then Draw
  description: A priest looks at a hand; then the hand changes.
  min_players: 2
  max_players: 2
  roles: [{name: Player, description: Plays.}]
  player_states:
    name: {type: string}
    role: {type: string}
    hand: {type: array, visibility: owner}
    is_alive: {type: boolean}
    is_active: {type: boolean}
  player_states_template:
    player_states:
      1: {name: '', role: Player, hand: [Guard], is_alive: true, is_active: false}
  audience_groups:
    priest: {description: The first seat, selection_criteria: player.id == 1}
  game_state: {}
  role_deal: {roles: {Player: {rest: true}}}
phases:
  0:
    name: Look
    completion_criteria: {type: UI_displayed}
    effects:
    - deal: roles
    - show: hand
      where: player.id == 2
      to: priest
    - set: players.hand
      where: player.id == 2
      to: player.hand + ['Princess']
    - advance: is_active
    next_phase: {id: 1, name: Wait}
  1:
    name: Wait
    completion_criteria:
      type: player_action
      wait_for: single_player_choice
      target_players: {condition: player.is_active == true}
      options: [Done, Again]
    next_phase: {id: 2, name: End}
  2:
    name: End
    completion_criteria: {type: UI_displayed}
    effects:
    - win: 'true'
    next_phase: null
"""


def test_a_field_shown_to_another_seat_stays_as_it_was_shown(tmp_path):
    """`show: hand … to: <someone else>` (the seer recipe; Love Letter's Priest) let the viewer read the
    field live ever after: a card the owner drew later was in the viewer's `view.state`, sent to
    their browser, while the card on their table showed the hand as it was. The viewer keeps what
    they were shown, not what the field becomes."""
    path = tmp_path / "look.yaml"
    path.write_text(LOOK_THEN_DRAW, encoding="utf-8")
    game = games.load_path(str(path))
    match = Match(game, ["Aria", "Blaise"], seed=1)
    blaise = match.players[1]
    assert blaise["hand"] == ["Guard", "Princess"]
    aria_sees = match.observe(0)["state"]["players"][1]
    assert aria_sees["hand"] == ["Guard"]  # as shown; the Princess came later
    assert match.observe(None)["state"]["players"][1]["hand"] is None


def test_the_terminal_board_and_a_shown_card_read_a_list_as_its_items(tmp_path):
    """`intrigue play` drew a public list field as Python ("discards ['Guard', 'Priest']") and a
    `show` of a list field wrote the log line "Aria — hand: ['Guard']", where `say` reads
    "Guard, Priest"."""
    import io

    from rich.console import Console

    from intrigue.play import render_table

    path = tmp_path / "look.yaml"
    path.write_text(LOOK_THEN_DRAW.replace("to: priest", "to: everyone"), encoding="utf-8")
    match = Match(games.load_path(str(path)), ["Aria", "Blaise"], seed=1)
    lines = [entry["text"] for entry in match.observe(0)["log"]]
    assert "Blaise — hand: Guard" in lines
    out = io.StringIO()
    view = {"components": [{"kind": "board", "players": [
        {"name": "Aria", "stats": [{"label": "discards", "value": ["Guard", "Priest"]}]}]}]}
    render_table(Console(file=out, width=100), view)
    assert "discards Guard, Priest" in out.getvalue()


def test_a_failed_expectation_shows_only_what_it_asked_for():
    """A failed `sees` (or `game`) expectation printed every field of every player the viewer sees
    (or every game name, tables included): a screenful to find the one value asked for."""
    outcome = run({"game": SKULL, "players": ["Aria", "Blaise", "Cass"], "first": "Aria",
                   "steps": [{"expect": {"sees": {"Blaise": {"Aria": {"discs": 3}}}, "game": {"bid": 2}}}]})
    assert not outcome.passed
    sees, game = (str(failure) for failure in outcome.failures)
    assert "found {'Blaise': {'Aria': {'discs': 4}}}" in sees and "hand" not in sees
    assert "found {'bid': 0}" in game and "bid_names" not in game


def test_the_rules_drawer_says_choose_a_player_only_where_players_are_offered():
    """The rules sheet made from a DSL game marked every non-literal option entry as "Choose a
    player.": Skull's discs from your hand and its bids (`items:`) read as a choice of players."""
    from intrigue.engine.ui import rules_sheet

    skull = games.load_path(SKULL)
    steps = {step["name"]: step for section in rules_sheet(skull.definition)["sections"]
             for step in section.get("steps", [])}
    assert steps["Turn Over a Disc"]["players"] is True  # {players: ...}
    assert steps["Place a Disc"]["players"] is False     # {items: me.hand}
    assert steps["Raise or Pass"]["players"] is False    # Pass and {items: bids}


LOVE_LETTER = str(EXAMPLES / "love_letter.yaml")


def test_a_scenario_of_a_dsl_game_sets_starting_game_names():
    """To test a rule that needs a given deck, a designer had to copy the whole game with its
    `game_state` reordered (docs/examples/games/decks/): `setup: {game: {deck: [...]}}` sets starting
    values of declared game names for that scenario; anything else there is refused."""
    deck = ["Princess", "Guard", "Baron", "Priest", "King", "Handmaid", "Countess", "Guard", "Prince", "Prince"]
    outcome = run({"game": LOVE_LETTER, "players": ["Aria", "Blaise"], "first": "Aria",
                   "setup": {"shuffle": False, "game": {"deck": deck}},
                   "steps": [{"expect": {"options": {"Aria": ["Countess"]}, "game": {"face_up": ["Guard", "Baron", "Priest"]},
                                         "state": {"Aria": {"hand": ["King", "Countess"]}}}}]})
    assert outcome.passed, [str(f) for f in outcome.failures]
    plain = games.load_path(LOVE_LETTER)
    unchanged = Match(plain, ["Aria", "Blaise"], seed=0, setup={"shuffle": False, "first": "Aria"})
    assert unchanged.players[0]["hand"] == ["Guard", "Priest"]  # the game itself keeps its deck
    for wrong, said in (({"decks": deck}, "setup.game.decks is not a game name"),
                        ({"deck": "Princess"}, "setup.game.deck must be a list"),
                        (["deck"], "setup.game must map")):
        outcome = run({"game": LOVE_LETTER, "players": ["Aria", "Blaise"], "setup": {"game": wrong},
                       "steps": [{"expect": {"phase": "Play a Card"}}]})
        assert not outcome.passed and said in str(outcome.failures[0]), (wrong, [str(f) for f in outcome.failures])


def test_the_rl_environment_plays_games_whose_options_are_items():
    """docs/agents.md: every game gets an action vocabulary, a YAML-only one derived from its
    phases; `{items: ...}` entries gave no labels, so Skull, Secret Chancellor or Love Letter
    stopped at the first card played ("option 'Flower' ... is not in the game's action
    vocabulary")."""
    import numpy as np

    from intrigue.env import make

    for path, players in ((SKULL, 3), (LOVE_LETTER, 3), (CHANCELLOR, 5)):
        env = make(path, players=players, seed=3)
        env.reset(seed=3)
        rng = np.random.default_rng(0)
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        assert env.table.match.over and env.table.match.winners, path


def test_demo_says_who_won(tmp_path, capsys):
    """`intrigue demo` printed the public log lines only: a game whose `win` no `say` announces
    ended without a word on who won."""
    import pytest

    from intrigue.cli import app

    path = tmp_path / "look.yaml"
    path.write_text(LOOK_THEN_DRAW, encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        app(["demo", str(path), "--players", "2"])
    assert done.value.code in (0, None)
    assert capsys.readouterr().out.strip().splitlines()[-1] == "Winners: P1, P2"


def test_an_unknown_expect_key_names_the_known_ones():
    """A misspelt `expect` key (`stat:` for `state:`) said only "unknown expect key 'stat'"."""
    outcome = run({"game": SKULL, "players": ["Aria", "Blaise", "Cass"],
                   "steps": [{"expect": {"stat": {"Aria": {"points": 0}}}}]})
    message = str(outcome.failures[0])
    assert "unknown expect key 'stat'" in message
    assert all(key in message for key in ("state", "phase", "waiting", "options", "sees", "game"))


def test_a_game_file_run_as_a_scenario_says_so():
    """`intrigue scenario my_game.yaml` (the game, not its scenarios) said "game' must be an installed
    game or a game file, not None": a quote cut off, and no word on what went wrong."""
    from intrigue.scenario import run_file

    message = str(run_file(LOVE_LETTER)[0].failures[0])
    assert "'game' must be an installed game or a game file, not None" in message
    assert "a game's own file, not a scenario" in message


def test_validate_given_a_scenario_file_says_to_run_it_as_one(tmp_path):
    """`intrigue validate scenarios/love_letter.yaml` said "YAML syntax error: but found another
    document" (several scenarios in one file), or listed a game's missing keys (one scenario)."""
    from intrigue.dsl import validate_file

    several = [str(p) for p in validate_file(EXAMPLES / "scenarios" / "love_letter.yaml").problems]
    assert len(several) == 1 and "intrigue scenario" in several[0], several
    one = tmp_path / "one.yaml"
    one.write_text("game: ../love_letter.yaml\nplayers: [Aria, Blaise]\nsteps:\n  - Aria: Guard\n", encoding="utf-8")
    single = [str(p) for p in validate_file(one).problems]
    assert len(single) == 1 and "a scenario file" in single[0] and "intrigue scenario" in single[0], single


def test_max_of_one_expression_is_taken_over_the_players():
    """"The highest card wins when the deck runs out" had no expression: `max(a, b, …)` compares its
    arguments, and `max(player.score)` was just the one player's score, so Love Letter's showdown
    needed an if-chain over every rank. With one expression, min and max go over the players, as
    sum does (nulls ignored)."""
    from intrigue.dsl.expressions import compile_expression
    from intrigue.engine.scope import Scope

    match = Match(games.load_path(LOVE_LETTER), ["Aria", "Blaise", "Cass"], seed=1)
    for seat, score in enumerate([3, 8, None]):
        match.players[seat]["score"] = score
    scope = Scope(match, match.players[0], None, None)
    assert compile_expression("max(player.score)").evaluate(scope) == 8
    assert compile_expression("min(player.score)").evaluate(scope) == 3
    assert compile_expression("max(player.score, 5)").evaluate(scope) == 5  # Aria's 3 against 5
    assert scope.player is match.players[0]


SPY = """extends: love_letter.yaml
description: The Spy does nothing when played.
phases:
  12:
    name: Spy
    completion_criteria: {type: UI_displayed}
    effects:
    - say: '{actor.name} slips away.'
    next_phase: {id: 20, name: End of Turn}
branches:
  2:
    If it is the Spy: {id: 12, name: Spy, when: "played == 'Spy'"}
"""


def test_an_extension_file_of_a_game_without_python_is_a_game(tmp_path):
    """`intrigue validate spy.yaml` checked an extension file merged onto the game it extends and
    said ok, but `simulate`, `scenario` or `serve --games` on it failed: "declaration: required key
    is missing" (only a Python binding could list extension files)."""
    import shutil

    shutil.copy(LOVE_LETTER, tmp_path / "love_letter.yaml")
    spy = tmp_path / "spy.yaml"
    spy.write_text(SPY, encoding="utf-8")
    game = games.load_path(spy)
    assert game.id == "spy" and 12 in game.phases and game.title == "Love Letter"
    outcome = run({"game": str(spy), "players": ["Aria", "Blaise"], "first": "Aria",
                   "setup": {"shuffle": False, "game": {"deck": ["Guard", "Guard", "Guard", "Guard", "Spy",
                                                                 "Guard", "Priest", "Baron"]}},
                   "steps": [{"expect": {"options": {"Aria": ["Spy", "Priest"]}}}, {"Aria": "Spy"},
                             {"expect": {"phase": "Play a Card", "waiting": ["Blaise"]}}]})
    assert outcome.passed, [str(f) for f in outcome.failures]
    added, problems = games.add_folder(tmp_path)
    try:
        assert problems == [] and set(added) == {"love_letter", "spy"}
    finally:
        for game_id in added:
            games._EXTRA.pop(game_id, None)
        games.get.cache_clear()
