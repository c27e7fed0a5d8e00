"""Each construct of the DSL does what docs/writing-a-game.md says, on small games written for it."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from intrigue.dsl import compile_expression, validate_text
from intrigue.dsl.expressions import MappingScope
from intrigue.engine import Match
from intrigue.engine.errors import RuleError
from intrigue.engine.match import CLOCK, TIME_UP
from intrigue.engine.observe import observe
from intrigue.engine.timing import MatchClock, timer_for
from intrigue.games import load_path

HEAD = """
declaration:
  min_players: 3
  max_players: 5
  player_states:
    name: {type: string}
    role: {type: string, visibility: owner}
    is_alive: {type: boolean}
    pick: {type: string}
    hand: {type: array, visibility: owner}
  player_states_template:
    player_states:
      1: {name: '', role: '', is_alive: true, pick: '', hand: []}
  game_state: {state}
phases:
"""


END = """
9:
  name: End
  completion_criteria: {type: UI_displayed}
  effects:
  - win: player.id == 1
  next_phase: null
"""


def game(tmp_path: Path, phases: str, state: str = "{n: 0, best: null, deck: [], word: null}") -> "object":
    text = HEAD.replace("{state}", state) + textwrap.indent(textwrap.dedent(phases) + END, "  ")
    checked = validate_text(text)
    assert checked.ok, [str(p) for p in checked.problems]
    path = tmp_path / "lab.yaml"
    path.write_text(text)
    return load_path(path)


# -- expressions ----------------------------------------------------------------------------
@pytest.mark.parametrize("text, value", [
    ("1 + 2 * 3 - 4", 3),
    ("7 // 2 + 7 % 2", 4),
    ("-3 + 1", -2),
    ("team[5][2]", 3),
    ("team[player_count][quest]", 2),   # three players: team[3] is [1, 2, 3]
    ("if quest == 2 then 'two' else 'other'", "two"),
    ("min(quest, 5, 9) + max(1, quest)", 4),
    ("count(player.alive == true)", 2),
    ("sum(player.coins)", 5),
    ("size(deck) + size(team)", 5),
    ("take(deck, 2)", ["a", "b"]),
    ("drop(deck, 2) + ['z']", ["c", "z"]),
    ("without(deck, 'b')", ["a", "c"]),
    ("positions(deck + ['a'], 'a')", [1, 4]),   # where an item stands, counted from 1 (a clue's cards)
    ("positions(deck, 'q')", []),
    ("positions(quest, 2)", []),                 # not a list: no position
    ("players[2].coins", 3),
    ("'b' in deck and not ('q' in deck)", True),
])
def test_expression_values(text, value):
    players = [{"id": 1, "alive": True, "coins": 2}, {"id": 2, "alive": False, "coins": 3},
               {"id": 3, "alive": True, "coins": 0}]
    game_names = {"team": {3: [1, 2, 3], 5: [2, 3, 4]}, "quest": 2, "deck": ["a", "b", "c"]}
    assert compile_expression(text)(MappingScope(players[0], game_names, players)) == value


@pytest.mark.parametrize("text, message", [
    ("round + 'x'", "'+' works on numbers, not text"),
    ("round and true", "'and' needs a condition (true/false), not a number"),
    ("flag > 2", "'>' compares two numbers (or two texts), not true/false and a number"),
    ("round == 'one'", "comparing a number with text is always false"),
    ("deck + 1", "'+' joins two lists, not a list and a number"),
    ("size(round)", "size() counts the items of a list or table, not a number"),
    ("take(round, 1)", "take() works on a list, not a number"),
    ("round[1]", "a number cannot be indexed with [...]"),
])
def test_type_errors_are_found_before_the_game_runs(text, message):
    compiled = compile_expression(text, names={"round": 1, "flag": True, "deck": ["a"]} and
                                  {"round": "num", "flag": "bool", "deck": ("list", "text")})
    assert any(message in problem for problem, _ in compiled.problems), compiled.problems



@pytest.mark.parametrize("text", [
    # a list built item by item, each kept or not (there is no filter over a list: Guildhall's
    # districts a player can pay for)
    "(if round >= 1 then ['a'] else []) + (if round >= 2 then ['b'] else [])",
    "deck + (if flag then [] else ['c'])",
    "costs['a'] + costs['b']",            # two table entries: numbers or lists, unknown until run
])
def test_a_list_chosen_by_if_or_read_from_a_table_joins_other_lists(text):
    compiled = compile_expression(text, names={"round": "num", "flag": "bool", "deck": ("list", "text"),
                                               "costs": "table"})
    assert compiled.problems == [] and compiled.type != "num", (compiled.problems, compiled.type)
    joined = compile_expression(f"size({text})", names={"round": "num", "flag": "bool",
                                                         "deck": ("list", "text"), "costs": "table"})
    assert joined.problems == []


def test_a_list_chosen_by_if_still_refuses_a_number():
    compiled = compile_expression("(if round > 1 then ['a'] else []) + 1", names={"round": "num"})
    assert any("'+' joins two lists, not a list and a number" in p for p, _ in compiled.problems), compiled.problems


def test_the_validator_reports_type_errors_with_file_line_and_path():
    text = HEAD.replace("{state}", "{n: 0}") + textwrap.indent(textwrap.dedent("""
    0:
      name: A
      completion_criteria: {type: UI_displayed}
      effects:
      - set: game.n
        to: n + 'x'
      - set: players.is_alive
        to: 3
      next_phase: null
    """), "  ")
    found = [str(p) for p in validate_text(text, "lab.yaml").problems]
    assert "lab.yaml:22: phases.0.effects.0.to: '+' works on numbers, not text (in \"'x'\") (column 5) in \"n + 'x'\"" in found
    assert "lab.yaml:24: phases.0.effects.1.to: players.is_alive holds true/false, but this is a number: 3" in found


# -- statements -----------------------------------------------------------------------------
def test_if_then_else_and_arithmetic(tmp_path):
    lab = game(tmp_path, """
    0:
      name: Count
      completion_criteria: {type: UI_displayed}
      effects:
      - set: game.n
        to: count(player.is_alive == true) * 10 + player_count
      - if: n > 30
        then:
        - set: game.best
          to: "'big'"
        else:
        - set: game.best
          to: "'small'"
      next_phase: {id: 9, name: End}
    """)
    assert Match(lab, ["A", "B", "C"]).state["n"] == 33
    match = Match(lab, ["A", "B", "C", "D"])
    assert match.state["n"] == 44 and match.state["best"] == "big"
    assert Match(lab, ["A", "B", "C"]).state["best"] == "big"


def test_record_most_and_ties(tmp_path):
    lab = game(tmp_path, """
    0:
      name: Vote
      completion_criteria:
        type: player_action
        wait_for: all_players_action
        target_players: {condition: player.is_alive == true}
        options:
        - players: player.is_alive == true
        record: pick
      effects:
      - most: answer
        into: game.best
      next_phase: {id: 9, name: End}
    """)
    match = Match(lab, ["A", "B", "C", "D"])
    for seat, vote in enumerate(["B", "B", "A", "C"]):
        match.choose(seat, vote)
    assert match.state["best"] == "B" and [p["pick"] for p in match.players] == ["B", "B", "A", "C"]
    tie = Match(lab, ["A", "B", "C", "D"])
    for seat, vote in enumerate(["B", "B", "A", "A"]):
        tie.choose(seat, vote)
    assert tie.state["best"] is None  # tie: none, the default


def test_a_random_tie_is_drawn_from_the_match_seed(tmp_path):
    lab = game(tmp_path, """
    0:
      name: Vote
      completion_criteria:
        type: player_action
        wait_for: all_players_action
        target_players: {condition: player.is_alive == true}
        options: [Red, Blue]
      effects:
      - most: answer
        into: game.best
        tie: random
      next_phase: {id: 9, name: End}
    """)
    results = set()
    for seed in range(12):
        match = Match(lab, ["A", "B", "C", "D"], seed=seed)
        for seat, vote in enumerate(["Red", "Blue", "Red", "Blue"]):
            match.choose(seat, vote)
        again = Match(lab, ["A", "B", "C", "D"], seed=seed)
        for seat, vote in enumerate(["Red", "Blue", "Red", "Blue"]):
            again.choose(seat, vote)
        assert match.state["best"] == again.state["best"]  # same seed, same draw
        results.add(match.state["best"])
    assert results == {"Red", "Blue"}


def test_tally_majority_and_unanimity(tmp_path):
    lab = game(tmp_path, """
    0:
      name: Vote
      completion_criteria:
        type: player_action
        wait_for: all_players_action
        target_players: {condition: player.is_alive == true}
        options: ['Yes', 'No']
      effects:
      - tally: 'Yes'
        into: game.n
        majority: game.best
        unanimous: game.word
      next_phase: {id: 9, name: End}
    """)
    match = Match(lab, ["A", "B", "C"])
    for seat in range(3):
        match.choose(seat, "Yes")
    assert (match.state["n"], match.state["best"], match.state["word"]) == (3, True, True)
    entry = match.events[-1].entry
    assert entry["key"] == "{option}: {votes} of {asked}." and entry["args"] == {"option": "Yes", "votes": 3,
                                                                                 "asked": 3}


def test_choose_exactly_n_players(tmp_path):
    lab = game(tmp_path, """
    0:
      name: Team
      completion_criteria:
        type: player_action
        wait_for: single_player_choice
        target_players: {condition: player.id == 1}
        options:
        - players: player.is_alive == true
          choose: player_count - 2
      effects:
      - set: players.pick
        to: "if player.id in picked then 'in' else 'out'"
      next_phase: {id: 9, name: End}
    """)
    match = Match(lab, ["Aria", "Blaise", "Cass", "Dana"])
    assert match.legal(0) == ["Aria, Blaise", "Aria, Cass", "Aria, Dana", "Blaise, Cass", "Blaise, Dana",
                              "Cass, Dana"]
    assert match.observe(0)["decision"]["pick"] == {"count": 2, "from": ["Aria", "Blaise", "Cass", "Dana"]}
    match.choose(0, "Blaise, Dana")
    assert [p["pick"] for p in match.players] == ["out", "in", "out", "in"]


def test_options_from_a_list_a_deck_and_another_players_fields(tmp_path):
    lab = game(tmp_path, """
    0:
      name: Shuffle
      completion_criteria: {type: UI_displayed}
      effects:
      - shuffle: game.deck
      - set: players.hand
        to: take(drop(deck, (player.id - 1) * 2), 2)
      - set: game.deck
        to: drop(deck, player_count * 2)
      next_phase: {id: 1, name: Discard}
    1:
      name: Discard
      completion_criteria:
        type: player_action
        wait_for: single_player_choice
        target_players: {condition: player.id == 1}
        options:
        - items: me.hand
      effects:
      - set: actor.hand
        to: without(actor.hand, choice)
      - set: game.word
        to: players[2].hand[1]
      next_phase: {id: 9, name: End}
    """, state="{n: 0, best: null, deck: [a, b, c, d, e, f, g, h], word: null}")
    frozen = Match(lab, ["A", "B", "C"], setup={"shuffle": False})
    assert [p["hand"] for p in frozen.players] == [["a", "b"], ["c", "d"], ["e", "f"]]
    assert frozen.state["deck"] == ["g", "h"] and frozen.legal(0) == ["a", "b"]
    frozen.choose(0, "b")
    assert frozen.players[0]["hand"] == ["a"] and frozen.state["word"] == "c"
    shuffled = [Match(lab, ["A", "B", "C"], seed=seed).players[0]["hand"] for seed in range(6)]
    assert len({tuple(hand) for hand in shuffled}) > 1
    assert Match(lab, ["A", "B", "C"]).observe(1)["state"]["players"][0]["hand"] is None  # owner only



def test_items_where_offers_only_the_items_it_keeps(tmp_path):
    """Guildhall's build: only the districts the player can pay for (``item`` is each card)."""
    phases = """
    0:
      name: Deal
      completion_criteria: {type: UI_displayed}
      effects:
      - set: players.hand
        to: "['a', 'b', 'c', 'd', 'a']"
      next_phase: {id: 1, name: Build}
    1:
      name: Build
      completion_criteria:
        type: player_action
        wait_for: single_player_choice
        target_players: {condition: player.id == 1}
        options:
        - Build nothing
        - items: me.hand
          where: cost[item] <= n and item != 'b'
          secret: true
      effects:
      - set: game.word
        to: choice
      next_phase: {id: 9, name: End}
    """
    state = "{n: %d, best: null, deck: [a, b, c, d], word: null, cost: {a: 1, b: 1, c: 3, d: 2}}"
    assert Match(game(tmp_path, phases, state % 2), ["A", "B", "C"]).legal(0) == ["Build nothing", "a", "d"]
    (tmp_path / "rich").mkdir()
    richer = Match(game(tmp_path / "rich", phases, state % 3), ["A", "B", "C"])
    assert richer.legal(0) == ["Build nothing", "a", "c", "d"]
    richer.choose(0, "c")
    assert richer.state["word"] == "c"


@pytest.mark.parametrize("entry, expected", [
    ("- {option: Rest, where: item == 'a'}",
     "lab.yaml:24: phases.0.completion_criteria.options.0: 'where' goes with 'items'"),
    ("- {items: deck, where: item > 2}",
     "lab.yaml:24: phases.0.completion_criteria.options.0.where: '>' compares two numbers (or two texts), "
     "not text and a number"),
    ("- {items: deck, where: size(item)}",
     "lab.yaml:24: phases.0.completion_criteria.options.0.where: a condition must be true or false, not a number"),
    ("- {items: deck, where: item != me.role}",
     "lab.yaml:24: warning: phases.0.completion_criteria.options.0.where: the items offered depend on 'me.role', "
     "which other players cannot see"),
    ("- {items: deck, if: item == 'a'}",
     "lab.yaml:24: phases.0.completion_criteria.options.0.if: unknown name 'item'"),
])
def test_where_on_items_is_checked_where_it_is_written(entry, expected):
    text = HEAD.replace("{state}", "{n: 0, deck: [a, b]}") + textwrap.indent(textwrap.dedent("""
    0:
      name: A
      completion_criteria:
        type: player_action
        wait_for: single_player_choice
        target_players: {condition: player.id == 1}
        options:
        %s
      next_phase: null
    """) % entry, "  ")
    found = [str(p) for p in validate_text(text, "lab.yaml").problems]
    assert any(f.startswith(expected) for f in found), found


def test_a_closing_option_ends_the_window_and_names_its_chooser(tmp_path):
    lab = game(tmp_path, """
    0:
      name: Claim
      completion_criteria:
        type: player_action
        wait_for: multiple_players_action
        target_players: {condition: player.id != 1}
        options:
        - Pass
        - option: Challenge
          closes: true
      next_phase:
        Challenged: {id: 1, name: Challenge, when: choice == 'Challenge'}
        Nobody: {id: 9, name: End}
    1:
      name: Challenge
      completion_criteria: {type: UI_displayed}
      effects:
      - set: game.word
        to: actor.name
      next_phase: {id: 9, name: End}
    """)
    match = Match(lab, ["A", "B", "C", "D"])
    match.choose(1, "Pass")
    match.choose(3, "Challenge")
    assert match.over and match.state["word"] == "D"  # C never had to answer
    quiet = Match(lab, ["A", "B", "C", "D"])
    for seat in (1, 2, 3):
        quiet.choose(seat, "Pass")
    assert quiet.over and quiet.state["word"] is None


def test_a_joint_choice_shows_partners_each_others_answers(tmp_path):
    lab = game(tmp_path, """
    0:
      name: Deal
      completion_criteria: {type: UI_displayed}
      effects:
      - set: players.role
        to: "if player.id <= 2 then 'Wolf' else 'Sheep'"
      next_phase: {id: 1, name: Hunt}
    1:
      name: Hunt
      completion_criteria:
        type: player_action
        wait_for: all_players_action
        secret: true
        target_players: {condition: "player.role == 'Wolf'"}
        joint: true
        options:
        - players: "player.role != 'Wolf'"
      effects:
      - most: answer
        into: game.best
        tie: random
      next_phase: {id: 9, name: End}
    """)
    match = Match(lab, ["A", "B", "C", "D"])
    assert match.pending == [0, 1, 2, 3] and match.legal(2) == ["Continue"]
    match.choose(0, "C")
    assert match.observe(1)["decision"]["answers"] == {"A": "C"}
    assert "answers" not in match.observe(2)["decision"]
    assert match.observe(2)["waiting"] == ["A", "B", "C", "D"]
    match.choose(1, "C")
    match.choose(2, "Continue")
    match.choose(3, "Continue")
    assert match.state["best"] == "C"


def test_a_secret_phase_has_a_cover_and_an_acknowledgement(tmp_path):
    lab = game(tmp_path, """
    0:
      name: Night
      completion_criteria:
        type: player_action
        wait_for: single_player_choice
        secret: true
        cover: player.id != 3
        acknowledge: Sleep
        target_players: {condition: player.id == 1}
        options: [Look, Rest]
      next_phase: {id: 9, name: End}
    """)
    match = Match(lab, ["A", "B", "C"])
    assert match.pending == [0, 1] and match.legal(1) == ["Sleep"] and match.legal(2) == []
    assert match.observe(2)["waiting"] == ["A", "B"]
    match.choose(1, "Sleep")
    assert match.observe(None)["waiting"] == ["A", "B"] and match.observe(1)["waiting"] == ["A"]
    match.choose(0, "Look")
    assert match.over


def test_an_actor_outside_the_cover_is_an_error_naming_the_phase(tmp_path):
    lab = game(tmp_path, """
    0:
      name: Night
      completion_criteria:
        type: player_action
        wait_for: single_player_choice
        secret: true
        cover: player.id != 1
        target_players: {condition: player.id == 1}
        options: [Look]
      next_phase: {id: 9, name: End}
    """)
    with pytest.raises(RuleError) as error:
        Match(lab, ["A", "B", "C"])
    assert "lab.yaml:" in str(error.value) and "phase 0 (Night)" in str(error.value)
    assert "A act(s) outside its cover" in str(error.value)


@pytest.mark.parametrize("ends, answers, done", [("all", 2, False), ("all", 3, True), ("any", 1, True),
                                                 ("majority", 1, False), ("majority", 2, True)])
def test_a_timer_phase_ends_early_as_declared(tmp_path, ends, answers, done):
    lab = game(tmp_path, f"""
    0:
      name: Talk
      completion_criteria:
        type: timer
        seconds: 60
        target_players: {{condition: player.is_alive == true}}
        options: [Ready]
        ends_early: {ends}
      next_phase: {{id: 9, name: End}}
    """)
    match = Match(lab, ["A", "B", "C"])
    assert match.clock == 60 and timer_for(match).kind == "phase"
    for seat in range(answers):
        match.choose(seat, "Ready")
    assert match.over is done


def test_a_timer_phase_waits_for_the_clock_ends_at_once_headless_and_a_scenario_clock_fires_it(tmp_path):
    lab = game(tmp_path, """
    0:
      name: Pause
      completion_criteria: {type: timer, seconds: 30}
      next_phase: {id: 1, name: Vote}
    1:
      name: Vote
      completion_criteria:
        type: player_action
        wait_for: all_players_action
        target_players: {condition: player.is_alive == true}
        options: [Red, Blue]
        default: Blue
      effects:
      - tally: Red
        into: game.n
      next_phase: {id: 9, name: End}
    """)
    assert Match(lab, ["A", "B", "C"], headless=True).phase.name == "Vote"
    match = Match(lab, ["A", "B", "C"])
    assert match.phase.name == "Pause" and match.pending == [] and match.observe(0)["decision"] is None
    clock = MatchClock(match)
    assert clock.advance(29) == [] and match.phase.name == "Pause"
    assert clock.advance(1) == [(CLOCK, TIME_UP)] and match.phase.name == "Vote"
    match.choose(0, "Red")
    played = clock.advance(100)  # the vote's window timer (15 s by default) answers the others
    assert played == [(1, "Blue"), (2, "Blue")] and match.over and match.state["n"] == 1


ROUNDS = """
0:
  name: Talk
  completion_criteria: {type: timer, seconds: SECONDS}
  effects:
  - set: game.n
    to: n + 1
  next_phase:
    Another round: {id: 0, name: Talk, when: n < 3}
    Done: {id: 9, name: End}
"""


def test_a_timer_phases_seconds_may_be_an_expression_read_as_it_opens(tmp_path):
    """Rounds of three minutes, then two, then one, written as one phase (Two Rooms' rounds took three)."""
    lab = game(tmp_path, ROUNDS.replace("SECONDS", "180 - 60 * n"))
    match = Match(lab, ["A", "B", "C"])
    clock, lengths = MatchClock(match), []
    while not match.over:
        lengths.append(timer_for(match).seconds)
        assert clock.advance(lengths[-1] - 1) == []  # a second before its time: still talking
        assert clock.advance(1) == [(CLOCK, TIME_UP)]
    assert lengths == [180.0, 120.0, 60.0]


def test_seconds_that_come_to_nothing_stop_the_match_naming_the_phase(tmp_path):
    lab = game(tmp_path, ROUNDS.replace("SECONDS", "60 - 60 * n"))
    match = Match(lab, ["A", "B", "C"])
    assert match.clock == 60  # n is 0: a minute; then n is 1: no time at all
    with pytest.raises(RuleError) as error:
        MatchClock(match).advance(60)
    assert "phase 0 (Talk)" in str(error.value)
    assert "'seconds' ('60 - 60 * n') is 0 here: a timer phase waits a number of seconds above 0" in str(error.value)


@pytest.mark.parametrize("seconds, message", [
    ("player.role", "'seconds' is read once for the whole table: it cannot read a player's fields"),
    ("\"'long'\"", "must be a number, not text"),
    ("nobody", "unknown name 'nobody'"),
    ("180 - 60 * n", "'seconds' reads 'n', which players cannot see, and every seat sees the countdown"),  # a warning
])
def test_seconds_written_as_an_expression_are_checked_with_file_line_and_path(seconds, message):
    text = HEAD.replace("{state}", "{n: 0}") + textwrap.indent(textwrap.dedent(ROUNDS.replace("SECONDS", seconds))
                                                               + END, "  ")
    found = [str(p) for p in validate_text(text, "lab.yaml").problems]
    assert any(f.startswith("lab.yaml:") and "phases.0.completion_criteria.seconds" in f and message in f
               for f in found), found


def test_the_clock_is_refused_when_nothing_waits_for_it(tmp_path):
    from intrigue.engine import Refused

    lab = game(tmp_path, """
    0:
      name: Vote
      completion_criteria:
        type: player_action
        wait_for: single_player_choice
        target_players: {condition: player.id == 1}
        options: [Red, Blue]
      next_phase: {id: 9, name: End}
    """)
    match = Match(lab, ["A", "B", "C"])
    with pytest.raises(Refused) as refused:
        match.choose(CLOCK, TIME_UP)
    assert refused.value.code == "unknown_seat"  # the clock is no seat when no timer phase waits


def test_a_failing_statement_names_its_file_line_and_phase(tmp_path):
    lab = game(tmp_path, """
    0:
      name: Divide
      completion_criteria: {type: UI_displayed}
      effects:
      - set: game.n
        to: 10 // (player_count - 3)
      next_phase: {id: 9, name: End}
    """)
    with pytest.raises(RuleError) as error:
        Match(lab, ["A", "B", "C"])
    assert str(error.value).startswith(f"{tmp_path / 'lab.yaml'}:21: phase 0 (Divide): phases.0.effects.0: "
                                       "division by zero")


def test_say_lines_carry_their_template_and_values(tmp_path):
    lab = game(tmp_path, """
    0:
      name: Hello
      completion_criteria: {type: UI_displayed}
      effects:
      - say: '{player.name} has {player_count - 1} rivals.'
        where: player.id == 2
      next_phase: {id: 9, name: End}
    """)
    entry = Match(lab, ["Aria", "Blaise", "Cass"]).events[-1].entry
    assert entry["text"] == "Blaise has 2 rivals."
    assert entry["key"] == "{player.name} has {player_count - 1} rivals."
    assert entry["args"] == {"player.name": "Blaise", "player_count - 1": "2"}


def test_a_say_lines_banner_reaches_exactly_its_audience(tmp_path):
    """A banner is shown with its line, so it tells nobody more than the line does."""
    lab = game(tmp_path, """
    0:
      name: Hello
      completion_criteria: {type: UI_displayed}
      effects:
      - say: '{player.name} is caught.'
        where: player.id == 2
        to: owner
        banner: {tone: bad, title: Caught}
      - say: Morning comes.
      next_phase: {id: 9, name: End}
    """)
    match = Match(lab, ["Aria", "Blaise", "Cass"])
    for seat in [0, 1, 2, None]:  # None: a spectator
        caught = [e["banner"] for e in observe(match, seat)["log"] if e.get("banner")]
        assert caught == ([{"tone": "bad", "title": "Caught"}] if seat == 1 else [])
    morning = next(e for e in observe(match, 0)["log"] if e["text"] == "Morning comes.")
    assert "banner" not in morning


def test_a_banner_title_holds_values_filled_for_each_line_and_kept_as_a_template(tmp_path):
    """The Chameleon's "Blaise escapes": the title names who, each line's its own player, translatable."""
    lab = game(tmp_path, """
    0:
      name: Hello
      completion_criteria: {type: UI_displayed}
      effects:
      - say: '{player.name} escapes.'
        where: player.id >= 2
        banner: {tone: bad, title: '{player.name} escapes ({player_count} players)'}
      next_phase: {id: 9, name: End}
    """)
    banners = [e["banner"] for e in observe(Match(lab, ["Aria", "Blaise", "Cass"]), 0)["log"] if e.get("banner")]
    assert banners == [{"tone": "bad", "title": f"{name} escapes (3 players)",
                        "key": "{player.name} escapes ({player_count} players)",
                        "args": {"player.name": name, "player_count": "3"}} for name in ("Blaise", "Cass")]


def test_a_secret_phase_whose_role_nobody_holds_still_waits_for_its_cover(tmp_path):
    """One Night's night order: a role left in the centre still takes its turn, so its absence is no tell."""
    lab = game(tmp_path, """
    0:
      name: Robber
      completion_criteria:
        type: player_action
        wait_for: single_player_choice
        secret: true
        target_players: {condition: "player.role == 'Robber'"}
        options: [Rob, Skip]
      next_phase: {id: 9, name: End}
    """)
    match = Match(lab, ["A", "B", "C"])
    assert match.phase.name == "Robber" and match.pending == [0, 1, 2]
    assert all(match.legal(seat) == ["Continue"] for seat in range(3))
    for seat in range(3):
        match.choose(seat, "Continue")
    assert match.over


def test_two_players_swap_roles_in_one_set(tmp_path):
    """The recipe of docs/writing-a-game.md: every value is read before any is written."""
    swap = game(tmp_path, """
    0:
      name: Deal
      completion_criteria: {type: UI_displayed}
      effects:
      - set: players.role
        to: "if player.id == 1 then 'Robber' else if player.id == 2 then 'Seer' else 'Wolf'"
      next_phase: {id: 1, name: Trouble}
    1:
      name: Trouble
      completion_criteria:
        type: player_action
        wait_for: single_player_choice
        target_players: {condition: player.id == 1}
        options:
        - players: true
          except_self: true
          choose: 2
      effects:
      - set: players.role
        where: player.id in picked
        to: "players[if player.id == picked[1] then picked[2] else picked[1]].role"
      next_phase: {id: 9, name: End}
    """)
    match = Match(swap, ["A", "B", "C", "D"])
    match.choose(0, "B, C")
    assert [p["role"] for p in match.players] == ["Robber", "Wolf", "Seer", "Wolf"]
