"""Extension files: phases and branches merged onto a DSL file, validated as one game,
every problem reported at the file and line where it was written."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from intrigue import games, graph
from intrigue.cli import main
from intrigue.dsl.overlay import OTHERWISE, validate_extended, validate_extension_file

GAMES = Path(games.__file__).parent
COUP = GAMES / "coup" / "coup.yaml"
VARIANTS = GAMES / "coup" / "variants.yaml"

BASE = """\
declaration:
  min_players: 2
  player_states:
    is_alive: {type: boolean}
phases:
  0:
    name: Start
    completion_criteria: {type: UI_displayed}
    next_phase: {id: 1, name: Play}
  1:
    name: Play
    completion_criteria: {type: UI_displayed}
    next_phase:
      If someone won: {id: 9, name: End}
      Otherwise: {id: 1, name: Play}
  9:
    name: End
    completion_criteria: {type: UI_displayed}
    next_phase: null
"""


def files(tmp_path: Path, extension: str) -> tuple[Path, Path]:
    base = tmp_path / "game.yaml"
    base.write_text(BASE)
    ext = tmp_path / "variant.yaml"
    ext.write_text(textwrap.dedent(extension))
    return base, ext


def test_coup_and_its_variants_validate_as_one_game():
    checked = validate_extended(COUP, [VARIANTS])
    assert checked.ok, [str(p) for p in checked.errors]
    assert not checked.warnings, [str(p) for p in checked.warnings]
    phases = checked.definition.phases
    assert set(phases) == set(range(0, 25)) | {30, 31, 32, 33, 34, 35, 99}
    deal = phases[1].next_phase  # a single reference became a branch among the new ones
    assert list(deal)[-1] == OTHERWISE and deal[OTHERWISE].id == 2
    assert {ref.id for ref in phases[4].next_phase.values()} >= {31, 20, 5, 11, 12, 22}


def test_the_loaded_coup_game_and_its_graph_have_the_variant_phases(coup):
    assert {30, 31, 32, 33, 34, 35} <= set(coup.phases)
    drawn = graph.build(coup.definition)
    assert "Examine — Target Shows a Card" in {node.name for node in drawn.nodes.values()}
    assert any(e.source == 4 and e.target == 31 for e in drawn.edges)
    assert not any(node.unreachable or node.dead_end for node in drawn.nodes.values())
    assert "Embezzler Proves No Duke" in graph.render(coup, "mermaid")


def test_an_extension_adds_phases_and_branches_to_a_small_game(tmp_path):
    base, ext = files(tmp_path, """\
        extends: game.yaml
        phases:
          5:
            name: Bonus
            completion_criteria: {type: UI_displayed}
            next_phase: {id: 1, name: Play}
        branches:
          0:
            If the bonus is on: {id: 5, name: Bonus}
          1:
            If a bonus was earned: {id: 5, name: Bonus}
        """)
    checked = validate_extension_file(ext)
    assert checked.ok, [str(p) for p in checked.problems]
    phases = checked.definition.phases
    assert list(phases[0].next_phase) == ["If the bonus is on", OTHERWISE]
    assert list(phases[1].next_phase) == ["If a bonus was earned", "If someone won", "Otherwise"]


def test_every_problem_names_the_file_and_line_it_was_written_at(tmp_path):
    base, ext = files(tmp_path, """\
        extends: other.yaml
        colour: blue
        phases:
          1:
            name: Play again
            completion_criteria: {type: UI_displayed}
            next_phase: {id: 9, name: End}
          6:
            name: Broken
            completion_criteria: {type: sometimes}
            next_phase: {id: 7, name: Nowhere}
        branches:
          9:
            If anything: {id: 1, name: Play}
          1:
            If someone won: {id: 9, name: End}
          4:
            If missing: {id: 1, name: Play}
        """)
    checked = validate_extended(base, [ext])
    found = {(Path(p.file).name, p.line, p.message) for p in checked.errors}
    assert ("variant.yaml", 1, "extends 'other.yaml', but it is merged onto game.yaml") in found
    assert ("variant.yaml", 2, "unknown key 'colour' (an extension file has extends, description, "
                               "phases, branches)") in found
    assert ("variant.yaml", 4, "phase 1 already exists in game.yaml; an extension adds phases with new ids") in found
    assert any(name == "variant.yaml" and line == 10 and "must be" in message for name, line, message in found)
    assert ("variant.yaml", 13, "phase 9 ends the game: no branch can leave it") in found
    assert ("variant.yaml", 16, "phase 1 already has the branch 'If someone won'") in found
    assert ("variant.yaml", 17, "phase 4 does not exist") in found
    paths = {p.path for p in checked.errors if Path(p.file).name == "variant.yaml"}
    assert "phases.6.completion_criteria.type" in paths  # the extension's own key path


def test_a_branch_to_a_missing_phase_is_reported_in_the_extension(tmp_path):
    base, ext = files(tmp_path, """\
        extends: game.yaml
        branches:
          1:
            If lost:
              id: 42
              name: Lost
        """)
    checked = validate_extension_file(ext)
    assert [(Path(p.file).name, p.line, p.message) for p in checked.errors] == [
        ("variant.yaml", 4, "phase 42 does not exist")]


def test_intrigue_validate_checks_an_extension_file_merged(tmp_path, capsys):
    with pytest.raises(SystemExit) as done:
        main(["validate", str(VARIANTS)])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"{VARIANTS}: ok (32 phases)"
    base, ext = files(tmp_path, "extends: game.yaml\nbranches:\n  3:\n    If x: {id: 1, name: Play}\n")
    with pytest.raises(SystemExit) as done:
        main(["validate", str(ext)])
    assert done.value.code == 1
    assert f"{ext}:3: branches.3: phase 3 does not exist" in capsys.readouterr().out
