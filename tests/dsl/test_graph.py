"""The phase graph: every installed game draws in three formats; problems show in red."""

import xml.etree.ElementTree as ET

import pytest

from intrigue import games
from intrigue.cli import main
from intrigue.dsl import validate_text
from intrigue.graph import _layout, build, dot, mermaid, shorten, svg

SVG = "{http://www.w3.org/2000/svg}"
GAMES = games.installed()

BROKEN = """
declaration: {player_states: {name: {type: string}}}
phases:
  0:
    name: Start
    completion_criteria: {type: UI_displayed}
    next_phase:
      If it rains: {id: 1, name: Spin}
      Otherwise: {id: 3, name: End}
  1:
    name: Spin
    completion_criteria: {type: timer, seconds: 5}
    next_phase: {id: 2, name: Spin more}
  2:
    name: Spin more
    completion_criteria: {type: UI_displayed}
    next_phase: {id: 1, name: Spin}
  3:
    name: End
    completion_criteria: {type: UI_displayed}
    next_phase: null
  4:
    name: Forgotten
    completion_criteria: {type: UI_displayed}
    next_phase: {id: 3, name: End}
"""


def phases_drawn(text):
    root = ET.fromstring(text)
    return {int(g.get("data-phase")): set(g.get("class").split()) for g in root.iter(f"{SVG}g")
            if g.get("data-phase") is not None}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_draws_every_phase_and_branch(game_id):
    game = games.get(game_id)
    phases = game.definition.phases
    picture = svg(game)
    drawn = phases_drawn(picture)
    assert set(drawn) == set(phases)
    for phase in phases.values():
        assert phase.name.split()[0] in picture
    graph = build(game.definition)
    paths = ET.fromstring(picture).findall(f".//{SVG}path[@marker-end]") + \
        ET.fromstring(picture).findall(f".//{SVG}path[@marker-start]")
    assert len(paths) == len(graph.edges)
    assert not any("unreachable" in flags or "dead-end" in flags for flags in drawn.values())
    assert any("ends" in flags for flags in drawn.values())
    text = mermaid(game)
    assert text.startswith("flowchart TD") and text.count("-->") == len(graph.edges)
    graph_dot = dot(game)
    assert graph_dot.startswith("digraph") and graph_dot.count(" -> ") == len(graph.edges)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_layout_never_overlaps_and_flows_down(game_id):
    game = games.get(game_id)
    layout = _layout(build(game.definition))
    for row in layout["ranks"].values():
        for left, right in zip(row, row[1:]):
            assert left.x + left.right <= right.x - right.left + 0.01
    for index, chain in layout["chains"].items():
        ranks = [layout["items"][key].rank for key in chain]
        assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)


def test_unreachable_phases_and_dead_ends_are_marked():
    checked = validate_text(BROKEN)
    graph = build(checked.definition)
    assert graph.nodes[4].unreachable and not graph.nodes[4].dead_end
    assert graph.nodes[1].dead_end and graph.nodes[2].dead_end  # they spin forever
    assert not graph.nodes[0].dead_end and graph.nodes[3].ends
    drawn = phases_drawn(svg(checked.definition))
    assert "unreachable" in drawn[4] and "dead-end" in drawn[1] and "dead-end" not in drawn[0]
    assert "class p4 unreachable" in mermaid(checked.definition)
    assert 'style="dashed"' in dot(checked.definition)


def test_the_current_phase_is_highlighted():
    drawn = phases_drawn(svg(games.get("coup"), highlight=4))
    assert [pid for pid, flags in drawn.items() if "current" in flags] == [4]


def test_long_conditions_are_shortened():
    assert shorten("If the declared action is Foreign Aid (no claim, blockable by Duke)") == \
        "Foreign Aid (no claim, blockable by Duke)"
    assert shorten("Otherwise, proceed to the next turn") == "otherwise, proceed to the next turn"
    assert shorten("Otherwise") == "otherwise"
    long = shorten("If " + "a very long condition " * 10)
    assert len(long) <= 60 and long.endswith("…")


def test_graph_command(tmp_path, capsys):
    target = tmp_path / "coup.svg"
    with pytest.raises(SystemExit) as done:
        main(["graph", "coup", "-o", str(target)])
    assert done.value.code in (0, None)
    assert set(phases_drawn(target.read_text())) == set(games.get("coup").definition.phases)
    with pytest.raises(SystemExit):
        main(["graph", "dsfgs", "--format", "mermaid"])
    assert capsys.readouterr().out.startswith("flowchart TD")
    broken = tmp_path / "broken.yaml"
    broken.write_text(BROKEN)
    with pytest.raises(SystemExit):
        main(["graph", str(broken), "-o", str(tmp_path / "broken.dot")])
    assert "digraph" in (tmp_path / "broken.dot").read_text()
    with pytest.raises(SystemExit) as bad:
        main(["graph", "no-such-game"])
    assert bad.value.code == 2
    assert "neither an installed game" in capsys.readouterr().err
