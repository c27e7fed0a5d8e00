"""A view's wire text, built once per change with its log lines encoded once per match, is exactly
``encode`` of the message: the same bytes for every seat, in every installed game."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from intrigue import games
from intrigue.engine import Match
from intrigue.server.protocol import LogLines, Prepared, encode


@pytest.mark.parametrize("game_id", games.installed())
def test_every_seats_view_is_sent_as_exactly_the_text_encode_gives(game_id):
    game = games.get(game_id)
    players = max(game.min_players, min(4, game.max_players))
    match = Match(game, [f"Player {n}" for n in range(players)], 7, {})
    rng, lines, checked = random.Random(7), LogLines(), 0
    for _ in range(60):
        for seat in [*range(players), None]:
            message = {"type": "view", "match": 3, "view": match.observe(seat),
                       "timer": {"seconds_left": 0.5, "seconds": 30, "kind": "turn"}, "timeouts": []}
            assert Prepared(message, lines).wire() == encode(message) == json.dumps(
                message, ensure_ascii=True, separators=(",", ":"))
            checked += 1
        if match.over or not match.pending:
            break
        seat = rng.choice(match.pending)
        match.choose(seat, rng.choice(match.legal(seat)), match.version)
    assert checked > players


def test_odd_values_are_sent_as_encode_sends_them():
    entry = {"version": 1, "text": "caf\u00e9 \ud800 \x7f", "tiny": 1e-7, "n": 10**30}
    view = {"log": [entry, entry], "state": {1: "int key", "x": (1, 2)}, "you": "\u2028"}
    message = {"type": "view", "view": view, "timer": None}
    lines = LogLines()
    assert Prepared(message, lines).wire() == encode(message)
    assert Prepared({"type": "view", "view": {2: "x"}}, lines).wire() == encode({"type": "view", "view": {2: "x"}})


def test_a_view_holding_the_log_marker_itself_is_still_sent_exactly():
    from intrigue.server.protocol import _LOG_MARK

    entry = {"version": 0, "text": _LOG_MARK}
    message = {"type": "view", "view": {"state": {"x": _LOG_MARK}, "log": [entry]}}
    assert Prepared(message, LogLines()).wire() == encode(message)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2 ** 70), max_value=2 ** 70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_encode_writes_exactly_what_the_standard_library_writes(value):
    """Fast or not, the wire text is json.dumps(..., ensure_ascii=True, separators=(",", ":")): escapes,
    characters past ASCII, DEL, lone surrogates, tiny and huge floats, ints past 64 bits."""
    assert encode(value) == json.dumps(value, ensure_ascii=True, separators=(",", ":"))


def test_nan_and_infinities_which_json_cannot_carry_are_sent_as_null():
    assert encode({"a": float("nan"), "b": [float("inf"), -float("inf")]}) == '{"a":null,"b":[null,null]}'
