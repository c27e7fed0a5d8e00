"""The safe expression compiler: what it accepts, what it refuses, and where."""

import pytest

from intrigue.dsl import ExpressionError, compile_expression
from intrigue.dsl.expressions import MappingScope

PLAYER = {"id": 2, "is_alive": True, "coins": 7, "team": "alpha", "hand": {"size": 3}}
GAME = {"current_turn": {"player_id": 2, "target_player_id": 3},
        "reaction": {"affected_player_ids": [1, 3]}}


def ev(text, player=PLAYER, game=GAME, **limits):
    return compile_expression(text, **limits)(MappingScope(player, game))


@pytest.mark.parametrize("text, value", [
    ("player.id == current_turn.player_id and player.is_alive == true", True),
    ("player.id != current_turn.player_id", False),
    ("player.coins >= 7 and player.coins < 10", True),
    ("player.team == 'alpha' or player.team == \"bravo\"", True),
    ("not player.is_alive", False),
    ("player.id in reaction.affected_player_ids", False),
    ("player.id not in reaction.affected_player_ids", True),
    ("player.team in ['alpha', 'gamma']", True),
    ("(player.coins > 3 or false) and not (player.id == 5)", True),
    ("player.missing == null", True),
    ("player.hand.size == 3", True),
    ("current_turn.nothing.deeper == null", True),
    ("player.coins > null", False),
    ("true", True),
])
def test_values(text, value):
    assert ev(text) is value or ev(text) == value


def test_count_of_an_item_in_a_list():
    dice = {**PLAYER, "dice": [3, 5, 3, 1, 3]}
    assert ev("count(player.dice, 3)", player=dice) == 3
    assert ev("count(player.dice, 6)", player=dice) == 0
    assert ev("count(player.dice, 3) + count(player.dice, 1) >= 4", player=dice) is True
    assert ev("count(player.missing, 3)") == 0  # not a list: none of it


def test_count_of_an_item_needs_a_list_where_types_are_known():
    expression = compile_expression("count(player.coins, 2) > 0", player_fields={"coins": "num"})
    assert expression.problems == [("count(list, x) counts in a list, not a number", 7)]


def test_plus_joins_two_texts_and_refuses_a_text_and_a_number():
    """A tile and its marker as one line of the table ('Weather: Foggy'); a number is not text."""
    assert ev("player.team + ': ' + 'one'") == "alpha: one"
    joined = compile_expression("player.team + ': '", player_fields={"team": "text"})
    assert joined.problems == []
    mixed = compile_expression("player.team + player.coins", player_fields={"team": "text", "coins": "num"})
    assert mixed.problems == [("'+' works on numbers, not text (in 'player.team')", 1)]
    with pytest.raises(Exception, match="is not a number"):
        ev("player.team + 1")


@pytest.mark.parametrize("text, message, column", [
    ("__import__('os')", "names starting with '_' are not allowed: '__import__'", 1),
    ("player.__class__", "names starting with '_' are not allowed: '__class__'", 1),
    ("len(player.hand)", "unknown function 'len' (the functions are count, sum, min, max, size, take, drop, without, positions, each)", 1),
    ("player.coins / 2", "unexpected character '/' (use // to divide: arithmetic is on whole numbers)", 14),
    ("player.coins == = 1", "unexpected character '=' (write == to compare)", 17),
    ("if player.coins then 1", "expected 'else' but found 'the end' (an 'if' needs both 'then' and 'else')", 23),
    ("count(player.coins, 2, 3)", "count() takes one condition (over the players) or a list and an item", 1),
    ("player.coins ==", "the expression ends too early", 16),
    ("player.coins == 1 1", "unexpected '1'", 19),
    ("", "the expression is empty", 1),
    ("player", "'player' needs a field, e.g. player.is_alive", 1),
    ("player.id not 3", "unexpected 'not'", 11),
    ("lambda: 1", "unexpected character ':'", 7),
])
def test_refusals_name_the_problem_and_column(text, message, column):
    with pytest.raises(ExpressionError) as error:
        compile_expression(text)
    assert error.value.message == message
    assert error.value.column == column


def test_undeclared_player_fields_and_names_are_refused_when_declarations_exist():
    with pytest.raises(ExpressionError, match="player field 'gold' is not declared"):
        compile_expression("player.gold > 1", player_fields={"coins"})
    with pytest.raises(ExpressionError, match="unknown name 'turn.active'"):
        compile_expression("turn.active == 1", names={"current_turn.player_id"})
    compiled = compile_expression("player.id == current_turn.player_id", player_fields={"coins"},
                                  names={"current_turn.player_id"})
    assert compiled.names == {("current_turn", "player_id")}
    assert compiled.player_fields == {"id"}


def test_compiled_once_evaluated_many_times():
    expression = compile_expression("player.coins >= 3")
    assert [expression(MappingScope({"coins": c})) for c in range(5)] == [False, False, False, True, True]
