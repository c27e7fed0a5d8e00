"""A view's wire text, built once per change with its log lines encoded once per match, is exactly
``encode`` of the message: the same bytes for every seat, in every installed game."""

from __future__ import annotations

import json
import random

import pytest

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
    entry = {"version": 1, "text": "caf\u00e9 \ud800 \x7f", "tiny": 1e-7, "nan": float("nan"), "n": 10**30}
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
