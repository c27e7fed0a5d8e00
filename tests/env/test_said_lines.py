"""The generic encoder knows every line a game's ``say`` statements write, those inside an ``if`` too:
an agent tells "Aria bids 2." from "Aria passes.", as a player reading the log does."""

from __future__ import annotations

import pytest
import yaml

from intrigue import bots, games
from intrigue.engine import Match
from intrigue.env.encoding import DeclaredEncoder

from ..conftest import ROOT

NAMES = ["Aria", "Blaise", "Cass", "Dara", "Eli", "Fay"]


def said_in_file(game) -> set[str]:
    """Every ``say`` template written anywhere in the game's DSL file, read as plain YAML."""
    found: set[str] = set()

    def visit(node) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("say"), str):
                found.add(node["say"])
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(yaml.safe_load(game.binding.dsl_path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize("game_id", ["avalon", "heist", "werewolf", "skull"])
def test_every_said_line_is_encoded_as_one_of_the_games_lines(game_id):
    game = games.load_path(ROOT / "docs" / "examples" / "games" / "skull.yaml") if game_id == "skull" \
        else games.get(game_id)
    templates = said_in_file(game)
    count = max(game.definition.declaration.min_players, 5 if game_id != "skull" else 4)
    encoder = DeclaredEncoder(game, count)
    other = encoder.offsets["last_said"] + len(encoder.templates)  # "a line the game does not say"
    lines = set()
    for seed in range(6):
        match = Match(game, NAMES[:count], seed=seed, headless=True)
        players = [bots.make("random", seed=f"{seed}-{seat}") for seat in range(count)]
        for _ in range(400):
            if match.over:
                break
            seat = match.pending[0]
            match.choose(seat, players[seat].choose(bots.SeatView(game, seat, match.observe(seat),
                                                                  tuple(match.legal(seat)))))
            for watcher in range(count):
                seen = [e for e in match.events if e.audience.includes(match, watcher)]
                if seen and seen[-1].data.get("key") in templates:
                    out = [0.0] * encoder.size
                    encoder.encode(match, watcher, out)
                    assert out[other] == 0.0, (game_id, seed, seen[-1].text)
                    lines.add(seen[-1].data["key"])
    assert len(lines) >= 3, lines
