"""The UI kit shows a DSL action's description only when the designer marks it as player
text (``player_text``), and the mark is checked like any other key of the DSL."""

from __future__ import annotations

import random
from pathlib import Path

from intrigue import games
from intrigue.dsl import validate_file
from intrigue.dsl.model import json_schema
from intrigue.engine import Match
from intrigue.engine.yaml_game import binding_from_dsl
from intrigue.engine.game import load

GAME = """
declaration:
  title: Marked
  min_players: 2
  max_players: 3
  player_states:
    name: {type: string}
    is_active: {type: boolean}
phases:
  0:
    name: Start
    player_text: Everyone gets ready.
    actions:
    - description: 'TIER 1 - PUBLIC: a note for the developer'
      tools: [createPhaseIndicator, createTextDisplay]
    - description: Welcome to the table.
      player_text: true
      tools: [createTextDisplay]
    - description: 'TIER 1 - PUBLIC: another note'
      player_text: The first vote is coming.
      tools: [createTextDisplay]
    completion_criteria:
      type: player_action
      wait_for: all_players_action
      target_players: {description: Everyone, condition: 'true'}
      options: [Ready, Not yet]
    next_phase: {id: 1, name: Vote}
  1:
    name: Vote
    player_text: Shall we stop here?
    actions:
    - description: 'TIER 3 - INDIVIDUAL: voting panel'
      tools: [createVotingPanel]
    completion_criteria:
      type: player_action
      wait_for: all_players_action
      target_players: {description: Everyone, condition: 'true'}
      options: [Stop, Go on]
      default: Stop
    next_phase: {id: null}
"""


def test_only_marked_descriptions_reach_players(tmp_path: Path):
    path = tmp_path / "marked.yaml"
    path.write_text(GAME, encoding="utf-8")
    game = load(binding_from_dsl(path))
    match = Match(game, ["Aria", "Blake"], seed=1)
    view = match.observe(0)
    texts = [c["text"] for c in view["components"] if c["kind"] == "text"]
    assert texts == ["Welcome to the table.", "The first vote is coming."]
    assert "a note for the developer" not in repr(view) and "TIER" not in repr(view)
    match.choose(0, "Ready")
    match.choose(1, "Ready")
    prompt = next(c for c in match.observe(0)["components"] if c["kind"] == "options")
    assert prompt["prompt"] == "Shall we stop here?"  # the phase's player text, not its name


def test_the_mark_is_in_the_schema_and_validated(tmp_path: Path):
    schema = json_schema()
    assert "player_text" in schema["$defs"]["Action"]["properties"]
    assert "player_text" in schema["$defs"]["Phase"]["properties"]
    bad = GAME.replace("player_text: true", "player_text: 3").replace("player_text: Everyone gets ready.",
                                                                     "player_text: ''")
    path = tmp_path / "bad.yaml"
    path.write_text(bad, encoding="utf-8")
    checked = validate_file(path)
    messages = [str(p) for p in checked.errors]
    assert any("phases.0.actions.1.player_text" in m for m in messages), messages
    assert any("phases.0.player_text" in m and "at least 1 character" in m for m in messages), messages


def test_dsfgs_designer_notes_never_reach_a_player():
    dsfgs = games.get("dsfgs")
    notes = {a.description for p in dsfgs.phases.values() for a in p.actions if a.description and not a.player_text}
    rng = random.Random(4)
    for number in range(5):
        match = Match(dsfgs, ["Aria", "Blake", "Cass", "Dee"], seed=number)
        while not match.over:
            for seat in (None, 0, 1, 2, 3):
                shown = repr(match.observe(seat)["components"])
                assert not any(note in shown for note in notes), shown
                assert "TIER" not in shown
            seat = rng.choice(match.pending)
            match.choose(seat, rng.choice(match.legal(seat)))
