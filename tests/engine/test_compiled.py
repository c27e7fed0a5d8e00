"""The generated code means what the interpreted closures mean, and never runs the author's text."""

import ast
import random
import subprocess
import sys
from pathlib import Path

import pytest

from intrigue import games
from intrigue.dsl.codegen import compile_tree
from intrigue.dsl.expressions import MappingScope, closure_of, compile_expression
from intrigue.engine import Match
from intrigue.engine.compiled import seat_filter
from intrigue.engine.scope import Scope

GAMES = sorted(games.installed())


def _states(game, count=6, seed=5):
    """Matches of ``game`` stopped at many points of random play (options and all)."""
    players = list(range(game.min_players, min(game.max_players, 8) + 1))
    for index in range(count):
        rng = random.Random(seed + index)
        match = Match(game, [f"P{i}" for i in range(players[index % len(players)])], seed + index, headless=True)
        while not match.over:
            yield match
            pending = match.pending
            if not pending:
                break
            seat = rng.choice(pending)
            match.choose(seat, rng.choice(match.legal(seat)))
        yield match


def _closure_seats(match, expression):
    scope = Scope(match)
    test = closure_of(expression.tree)
    chosen = []
    for seat, player in enumerate(match.players):
        scope.player = player
        if test(scope):
            chosen.append(seat)
    return chosen


@pytest.mark.parametrize("game_id", GAMES)
def test_generated_selections_agree_with_the_closures(game_id):
    game = games.get(game_id)
    expressions = [e for e in list(game.conditions.values()) + list(game.groups.values()) if e.tree is not None]
    checked = 0
    for match in _states(game):
        for expression in expressions:
            expected = _closure_seats(match, expression)
            assert seat_filter(expression)(match) == expected, expression.text
            scope = Scope(match)
            for player in match.players:
                scope.player = player
                assert expression.evaluate(scope) == closure_of(expression.tree)(scope), expression.text
            checked += 1
        phase_id = match.phase_id
        compiled = game.compiled.targets.get(phase_id)
        if compiled is not None:
            assert compiled(match) == _closure_seats(match, game.conditions[phase_id])
    assert checked > 0 or not expressions


@pytest.mark.parametrize("game_id", [g for g in GAMES if games.get(g).compiled.routers])  # Coup, BANG!: Python
def test_generated_routers_route_as_the_declared_whens(game_id):
    game = games.get(game_id)
    routed = 0
    for match in _states(game, count=4):
        for phase_id, router in game.compiled.routers.items():
            interpreted = game.binding.routers[phase_id]
            outcomes = []
            for route in (router, interpreted):
                try:
                    outcomes.append(("phase", route(match)))
                except Exception as exc:  # noqa: BLE001 - both must fail alike
                    outcomes.append(("error", type(exc).__name__))
            assert outcomes[0] == outcomes[1], phase_id
            routed += 1
    assert routed


@pytest.mark.parametrize("text", [
    "player.name == \"x'); import os; os._exit(3); ('\"",
    "player.name == 'a\\nb' or player.points >= 2",
    "if player.points > 1 then 'a\"b' else \"c'd\"",
    "player.name in ['\\x00', \"'''\", '\"\"\"'] and not (player.points < 0)",
])
def test_text_in_an_expression_only_ever_becomes_a_literal(text):
    expression = compile_expression(text)
    function, source = compile_tree(expression.tree, text, closure_of)
    tree = ast.parse(source)
    calls = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert calls <= {"bool", "_walk", "_lt", "_le", "_gt", "_ge", "_contains", "_mine"} | {f"_f{i}" for i in range(9)}
    for player in ({"name": "x'); import os; os._exit(3); ('", "points": 3}, {"name": "a\nb", "points": 0}, {}):
        scope = MappingScope(player)
        assert function(scope) == closure_of(expression.tree)(scope)


def test_intrigue_compile_prints_the_generated_python():
    run = subprocess.run([sys.executable, "-m", "intrigue.cli", "compile", "coup"], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    tree = ast.parse(run.stdout)  # it is Python
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert {"targets_3", "targets_4"} <= functions  # who declares an action, who may challenge it
    assert "'player.id == current_turn.player_id and player.is_alive == true'" in run.stdout


def test_each_phase_runs_as_a_printed_runner_and_chains_stay_short():
    run = subprocess.run([sys.executable, "-m", "intrigue.cli", "compile", "coup"], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    functions = {node.name for node in ast.parse(run.stdout).body if isinstance(node, ast.FunctionDef)}
    game = games.get("coup")
    for phase_id in game.plans:  # every phase, with its UI and headless (the UI-only tools left out)
        assert {f"phase_{phase_id}", f"phase_{phase_id}_headless"} <= functions
    assert "tools['set_claimed_action_and_character'](match)" in run.stdout
    for game_id in GAMES:
        for plan in games.get(game_id).plans.values():
            assert 1 <= plan.passes <= 6  # a runner enters at most a short chain of fixed next phases


def test_a_tool_replaced_after_load_is_the_one_a_runner_calls():
    game = games.load_path(Path(__file__).parent / "tinygame")
    seen = []
    for tools in (game.tools, game.headless_tools):
        original = tools["record_claim"]

        def record_claim(m, original=original):  # noqa: ANN001, ANN202
            seen.append(m.log[-1].option)
            original(m)

        tools["record_claim"] = record_claim
    for headless in (True, False):
        match = Match(game, ["Ann", "Bob", "Cy"], 4, headless=headless)
        seat = match.pending[0]
        option = match.legal(seat)[0]
        match.choose(seat, option)
        assert seen[-1] == option


@pytest.mark.parametrize("text", [
    "player.id == current_turn.player_id and player.is_alive == true",
    "player.is_alive == true and current_turn.player_id == player.id",
    "player.id == current_turn.player_id",
])
def test_a_seat_found_by_its_id_is_the_seat_the_walk_finds(text):
    """A filter on ``player.id == X`` looks at seat X - 1 only when X is a whole number naming a seat
    whose id it is; anything else (null, a float, a bool, a text, out of range, ids changed, a field
    missing) gets the answer of walking every player."""
    expression = compile_expression(text)
    found = seat_filter(expression)
    match = Match(games.get("coup"), [f"P{i}" for i in range(4)], 3, headless=True)
    match.players[2]["is_alive"] = False
    turn = match.state["current_turn"]
    for value in (1, 2, 3, 4, 0, 5, -1, 1.0, 2.0, True, False, None, "2", [2]):
        turn["player_id"] = value
        assert found(match) == _closure_seats(match, expression), value
    turn["player_id"] = 2
    assert found(match) == [1]
    turn["player_id"] = 3
    assert found(match) == ([] if "is_alive" in text else [2])
    for player, id in zip(match.players, (4, 3, 2, 1)):  # ids a game's Python rules changed
        player["id"] = id
    for value in (1, 2, 3, 4):
        turn["player_id"] = value
        assert found(match) == _closure_seats(match, expression), value
    assert found(match) == [0]  # the player whose id is 4 now
    del match.players[1]["is_alive"]  # a field missing: read as null, as the walk does
    for value in (1, 2, 3, 4, None):
        turn["player_id"] = value
        assert found(match) == _closure_seats(match, expression), value
    del match.state["current_turn"]
    assert found(match) == _closure_seats(match, expression)
