"""``Match.observe_seats``: every seat's view at once, what they share built once, is exactly the views
``observe`` builds one seat at a time (the same dicts, the same JSON text, keys in the same order), in
every installed game, at every step of random matches, for every seat and the spectator."""

from __future__ import annotations

import json
import random

import pytest

from intrigue import games
from intrigue.engine import Match


def text(view: dict) -> str:
    return json.dumps(view, ensure_ascii=True, separators=(",", ":"))


def options_for(game, rng: random.Random) -> dict:
    options = {key: rng.choice(values) for key, values in game.binding.option_choices.items()}
    for key, default in game.binding.options.items():
        if isinstance(default, bool):
            options[key] = rng.random() < 0.5
    return options


@pytest.mark.parametrize("game_id", games.installed())
def test_every_seats_view_observed_together_is_its_view_observed_alone(game_id):
    game = games.get(game_id)
    matches = 12 if game_id == "coup" else 3
    checked = 0
    for number in range(matches):
        rng = random.Random(number)
        players = rng.randint(game.min_players, game.max_players)
        try:
            match = Match(game, [f"Player {n}" for n in range(players)], number, options_for(game, rng))
        except ValueError:  # options this table size refuses
            match = Match(game, [f"Player {n}" for n in range(players)], number, {})
        seats = [None, *range(players)]
        for _ in range(150):
            alone = [match.observe(seat) for seat in seats]
            together = match.observe_seats(seats)
            assert together == alone
            assert [text(view) for view in together] == [text(view) for view in alone]
            checked += 1
            if match.over or not match.pending:
                break
            seat = rng.choice(match.pending)
            match.choose(seat, rng.choice(match.legal(seat)))
    assert checked > matches


def test_the_parts_every_seat_sees_are_built_once():
    match = Match(games.get("coup"), ["A", "B", "C", "D"], 3)
    views = match.observe_seats([0, 1, 2, 3, None])
    board = [c for c in views[0]["components"] if c["kind"] == "board"][0]
    assert all(any(c is board for c in view["components"]) for view in views)
    assert views[0]["state"]["players"][1] is views[2]["state"]["players"][1]  # B's row as A and C see it
    assert views[1]["state"]["players"][1] != views[0]["state"]["players"][1]  # B sees its own cards


@pytest.mark.parametrize("game_id", games.installed())
def test_a_component_is_never_changed_once_shown(game_id):
    """What lets a served match encode each component once while it is shown (server.protocol.Fragments):
    the games build a component's props and leave them be; a change shows a new component."""
    game = games.get(game_id)
    for number in range(4):
        rng = random.Random(number)
        players = rng.randint(game.min_players, game.max_players)
        match = Match(game, [f"Player {n}" for n in range(players)], number, {})
        first: dict[int, tuple] = {}
        for _ in range(150):
            for component in match.canvas.components.values():
                shown = first.setdefault(id(component), (component, text(component.as_json())))
                assert shown[0] is not component or shown[1] == text(component.as_json()), component.key
            if match.over or not match.pending:
                break
            seat = rng.choice(match.pending)
            match.choose(seat, rng.choice(match.legal(seat)))
