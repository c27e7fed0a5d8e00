"""The phase graph of a game as a picture: SVG, Mermaid or Graphviz DOT.

A 25-phase YAML file is hard to read; a diagram is not. Phases are nodes shaped
by their completion type (a rounded box runs by itself, a hexagon waits for
players, a stadium waits for a timer; a double border ends the game), labelled
with their name and who acts. Edges carry their branch conditions, shortened.
Phases no path reaches from the first one, and phases from which the game can
never end (dead ends), are drawn in red.

The SVG is laid out here, with no dependency: a layered layout in the manner of
Graphviz's ``dot`` (cycles broken along a depth-first search, longest-path
layers, each branch label given its own slot between two layers so it never
covers a node, barycentric ordering, then positions pulled towards neighbours).

``svg(game, highlight=phase_id)`` is what the server uses to show a match's
current phase. ``intrigue graph GAME|FILE [--format svg|mermaid|dot] [-o FILE]``
is the command line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from .dsl.model import GameDefinition, Phase
from .dsl.validate import branches, reachable

# -- the graph as data ------------------------------------------------------------

WAITS = {"single_player_choice": "one player chooses", "all_players_action": "everyone answers",
         "multiple_players_action": "any may answer"}


@dataclass
class Node:
    id: int
    name: str
    kind: str  # UI_displayed | player_action | timer | missing
    who: str = ""
    ends: bool = False
    unreachable: bool = False
    dead_end: bool = False
    first: bool = False


@dataclass
class Edge:
    source: int
    target: int
    label: str = ""
    full: str = ""


@dataclass
class PhaseGraph:
    title: str
    nodes: dict[int, Node] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)


def _who(phase: Phase) -> str:
    criteria = phase.completion_criteria
    if criteria.type == "timer":
        if isinstance(criteria.seconds, str):
            return f"timer ({criteria.seconds}) s"
        return f"timer {criteria.seconds:g} s" if criteria.seconds else "timer"
    if criteria.type != "player_action":
        return "automatic"
    target = criteria.target_players
    who = ""
    if target is not None:
        who = (target.description or str(target.condition)).strip().rstrip(".")
    wait = WAITS.get(criteria.wait_for or "", "")
    return f"{who} · {wait}" if who and wait else who or wait


def shorten(condition: str, limit: int = 60) -> str:
    """A branch condition short enough to sit on an edge."""
    text = re.sub(r"\s+", " ", condition).strip()
    text = re.sub(r"^(if|when)\s+", "", text, flags=re.IGNORECASE)
    text = re.sub(r"^otherwise\b[,:]?\s*", lambda m: "otherwise, " if m.group(0).strip() != "otherwise" else
                  "otherwise", text, flags=re.IGNORECASE).rstrip(", ")
    for filler in ("the declared action is ", "the original action is ", "the original action was ",
                   "the active player chooses ", "the active player ", "the played card "):
        if text.lower().startswith(filler):
            text = text[len(filler):]
    text = re.sub(r"^the\s+", "", text, flags=re.IGNORECASE)
    if len(text) > limit:
        text = re.sub(r"\s*\([^)]*\)", "", text).strip()
    if len(text) > limit:
        text = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return text


def build(definition: GameDefinition, title: str = "") -> PhaseGraph:
    graph = PhaseGraph(title or definition.declaration.title or "")
    phases = definition.phases
    first = min(phases)
    edges: dict[int, list[int]] = {}
    missing: set[int] = set()
    for phase_id, phase in phases.items():
        node = Node(phase_id, phase.name.strip(), phase.completion_criteria.type, _who(phase),
                    first=phase_id == first)
        graph.nodes[phase_id] = node
        edges[phase_id] = []
        for condition, ref in branches(phase):
            if ref is None or ref.id is None:
                node.ends = True
                continue
            if ref.id not in phases:
                missing.add(ref.id)
            edges[phase_id].append(ref.id)
            full = condition or ""
            graph.edges.append(Edge(phase_id, ref.id, shorten(full) if full else "", full))
    for phase_id in sorted(missing):
        graph.nodes[phase_id] = Node(phase_id, f"missing phase {phase_id}", "missing", "does not exist",
                                     dead_end=True)
    reached = reachable(first, edges)
    ending = {pid for pid, node in graph.nodes.items() if node.ends}
    for phase_id, node in graph.nodes.items():
        node.unreachable = phase_id not in reached and node.kind != "missing"
        node.dead_end = node.dead_end or not (reachable(phase_id, edges) & ending)
    return graph


def _definition(game_or_definition: Any) -> tuple[GameDefinition, str]:
    """Accept a loaded Game, a GameDefinition, an installed game id or a DSL file path."""
    if isinstance(game_or_definition, GameDefinition):
        return game_or_definition, game_or_definition.declaration.title or ""
    definition = getattr(game_or_definition, "definition", None)
    if isinstance(definition, GameDefinition):
        return definition, getattr(game_or_definition, "title", "")
    from . import games  # noqa: PLC0415
    from .dsl import validate_file  # noqa: PLC0415

    text = str(game_or_definition)
    try:
        game = games.resolve(text)
        return game.definition, game.title
    except KeyError:
        raise ValueError(f"{text!r} is neither an installed game ({', '.join(games.installed())}) "
                         "nor a file") from None
    except Exception:  # noqa: BLE001 - a file that does not load is still drawn, problems in red
        pass
    path = Path(text)
    if path.is_dir():
        found = sorted(path.glob("*.yaml"))
        if not found:
            raise ValueError(f"{path}: no DSL file (*.yaml) in this folder")
        path = found[0]
    if not path.is_file():
        raise ValueError(f"{text!r} is neither an installed game ({', '.join(games.installed())}) nor a file")
    checked = validate_file(path)
    if checked.definition is None:
        raise ValueError("\n".join(str(p) for p in checked.errors))
    return checked.definition, checked.definition.declaration.title or path.stem


# -- Mermaid and DOT ------------------------------------------------------------------

def _text_label(node: Node) -> str:
    return f"{node.id} · {node.name}\n{node.who}" if node.who else f"{node.id} · {node.name}"


def mermaid(game_or_definition: Any, highlight: int | None = None) -> str:
    definition, title = _definition(game_or_definition)
    graph = build(definition, title)

    def quote(text: str) -> str:
        return '"' + text.replace('"', "#quot;").replace("\n", "<br/>") + '"'

    shapes = {"UI_displayed": ("(", ")"), "player_action": ("{{", "}}"), "timer": ("([", "])"),
              "missing": ("[/", "/]")}
    lines = ["flowchart TD"]
    for node in graph.nodes.values():
        left, right = shapes.get(node.kind, ("[", "]"))
        lines.append(f"  p{node.id}{left}{quote(_text_label(node))}{right}")
    for edge in graph.edges:
        label = f"|{quote(edge.label)}|" if edge.label else ""
        lines.append(f"  p{edge.source} -->{label} p{edge.target}")
    classes = {"ends": "stroke-width:4px", "unreachable": "fill:#fde2e2,stroke:#c62828,stroke-dasharray:5 3",
               "deadend": "fill:#fde2e2,stroke:#c62828", "current": "fill:#fff3c4,stroke:#e08a00,stroke-width:4px"}
    for name, style in classes.items():
        lines.append(f"  classDef {name} {style}")
    for node in graph.nodes.values():
        for name, flag in (("ends", node.ends), ("unreachable", node.unreachable),
                           ("deadend", node.dead_end and not node.unreachable), ("current", node.id == highlight)):
            if flag:
                lines.append(f"  class p{node.id} {name}")
    return "\n".join(lines) + "\n"


def dot(game_or_definition: Any, highlight: int | None = None) -> str:
    definition, title = _definition(game_or_definition)
    graph = build(definition, title)

    def quote(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'

    shapes = {"UI_displayed": 'shape=box, style="rounded,filled", fillcolor="#eef3fb"',
              "player_action": 'shape=hexagon, style=filled, fillcolor="#fff6df"',
              "timer": 'shape=box, style="rounded,filled", fillcolor="#e8f6ea"',
              "missing": 'shape=box, style="dashed", color="#c62828"'}
    lines = [f"digraph {quote(graph.title or 'phases')} {{", '  rankdir=TB;',
             '  node [fontname="Helvetica", fontsize=11];', '  edge [fontname="Helvetica", fontsize=9];']
    for node in graph.nodes.values():
        extra = shapes[node.kind]
        if node.ends:
            extra += ", peripheries=2"
        if node.unreachable or node.dead_end:
            extra += ', color="#c62828", fontcolor="#c62828"'
            if node.unreachable:
                extra += ', style="dashed"'
        if node.id == highlight:
            extra += ', penwidth=3, color="#e08a00"'
        lines.append(f"  p{node.id} [label={quote(_text_label(node))}, {extra}];")
    for edge in graph.edges:
        label = f" [label={quote(edge.label)}, tooltip={quote(edge.full)}]" if edge.label else ""
        lines.append(f"  p{edge.source} -> p{edge.target}{label};")
    lines.append("}")
    return "\n".join(lines) + "\n"


# -- the SVG layout -------------------------------------------------------------------

FONT = "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif"
NAME_SIZE, WHO_SIZE, LABEL_SIZE = 13, 10.5, 10
NODE_GAP, LABEL_LINE = 26, 12.5
NODE_MAX = 210


def _width(text: str, size: float, bold: bool = False) -> float:
    """An estimate of rendered text width (no font metrics needed)."""
    narrow = sum(1 for c in text if c in "iljtfr.,:;'|! ·")
    wide = sum(1 for c in text if c in "MWmw—")
    return size * ((len(text) - narrow - wide) * (0.63 if bold else 0.55) + narrow * 0.3 + wide * 0.85)


def _wrap(text: str, size: float, limit: float, lines: int, bold: bool = False) -> list[str]:
    words = text.split()
    out: list[str] = []
    current = ""
    for word in words:
        trial = f"{current} {word}".strip()
        if current and _width(trial, size, bold) > limit:
            out.append(current)
            current = word
        else:
            current = trial
    if current:
        out.append(current)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1].rstrip(",;:") + "…"
    return out or [""]


@dataclass
class _Item:
    """A node or a point an edge passes through, at one rank of the layout."""

    key: Any
    rank: int
    left: float
    right: float
    height: float
    x: float = 0.0
    order: float = 0.0
    ups: list[Any] = field(default_factory=list)
    downs: list[Any] = field(default_factory=list)


@dataclass
class _Box:
    node: Node
    name: list[str]
    who: list[str]
    width: float
    height: float


def _box(node: Node) -> _Box:
    name = _wrap(f"{node.id} · {node.name}", NAME_SIZE, NODE_MAX - 28, 2, bold=True)
    who = _wrap(node.who, WHO_SIZE, NODE_MAX - 28, 2) if node.who else []
    width = max([_width(line, NAME_SIZE, True) for line in name] + [_width(line, WHO_SIZE) for line in who])
    width = max(width + (50 if node.kind == "player_action" else 30), 96)
    height = 14 + len(name) * 16 + len(who) * 13
    return _Box(node, name, who, width, height)


def _layers(graph: PhaseGraph) -> tuple[dict[int, int], set[tuple[int, int, int]], set[int]]:
    """Longest-path layers after reversing the back edges of a depth-first search."""
    out: dict[int, list[tuple[int, int]]] = {n: [] for n in graph.nodes}
    for index, edge in enumerate(graph.edges):
        out[edge.source].append((edge.target, index))
    state: dict[int, int] = {}
    back: set[int] = set()
    roots = sorted(graph.nodes, key=lambda n: (not graph.nodes[n].first, n))
    for root in roots:
        if root in state:
            continue
        stack = [(root, iter(out[root]))]
        state[root] = 1
        while stack:
            node, children = stack[-1]
            for target, index in children:
                if state.get(target) == 1:
                    back.add(index)
                elif target not in state:
                    state[target] = 1
                    stack.append((target, iter(out[target])))
                    break
            else:
                state[node] = 2
                stack.pop()
    forward: dict[int, list[int]] = {n: [] for n in graph.nodes}
    indegree = {n: 0 for n in graph.nodes}
    directed: set[tuple[int, int, int]] = set()
    for index, edge in enumerate(graph.edges):
        if edge.source == edge.target:
            continue
        source, target = (edge.target, edge.source) if index in back else (edge.source, edge.target)
        directed.add((source, target, index))
        forward[source].append(target)
        indegree[target] += 1
    layer = {n: 0 for n in graph.nodes}
    ready = [n for n in sorted(graph.nodes) if indegree[n] == 0]
    while ready:
        node = ready.pop(0)
        for target in forward[node]:
            layer[target] = max(layer[target], layer[node] + 1)
            indegree[target] -= 1
            if indegree[target] == 0:
                ready.append(target)
    return layer, directed, back


def _layout(graph: PhaseGraph) -> dict[str, Any]:
    boxes = {nid: _box(node) for nid, node in graph.nodes.items()}
    layer, directed, back = _layers(graph)
    items: dict[Any, _Item] = {}
    loops = {edge.source: edge for edge in graph.edges if edge.source == edge.target}
    for nid, box in boxes.items():
        right = box.width / 2
        if nid in loops:  # room for the loop and its label on the right
            label = _wrap(loops[nid].label, LABEL_SIZE, 110, 3) if loops[nid].label else []
            right += 46 + max([_width(line, LABEL_SIZE) for line in label] + [0])
        items[("n", nid)] = _Item(("n", nid), 2 * layer[nid], box.width / 2, right, box.height)
    chains: dict[int, list[Any]] = {}
    labels: dict[int, list[str]] = {}
    for source, target, index in sorted(directed, key=lambda e: e[2]):
        edge = graph.edges[index]
        text = _wrap(edge.label, LABEL_SIZE, 150, 3) if edge.label else []
        labels[index] = text
        start, end = 2 * layer[source], 2 * layer[target]
        chain: list[Any] = [("n", source)]
        # a loop back is labelled halfway, on its dashed line, away from both ends
        label_rank = (start + (end - start) // 2) | 1 if index in back else start + 1
        for rank in range(start + 1, end):
            key = ("d", index, rank)
            width = max(_width(line, LABEL_SIZE) for line in text) + 10 if text and rank == label_rank else 0
            height = len(text) * LABEL_LINE + 6 if text and rank == label_rank else 8
            items[key] = _Item(key, rank, 6, 6 + width, height)
            chain.append(key)
        chain.append(("n", target))
        for upper, lower in zip(chain, chain[1:]):
            items[upper].downs.append(lower)
            items[lower].ups.append(upper)
        chains[index] = chain
    ranks: dict[int, list[_Item]] = {}
    for item in items.values():
        ranks.setdefault(item.rank, []).append(item)
    # initial order: depth-first from the first phase, so branches start in DSL order
    seen: dict[Any, int] = {}

    def visit(key: Any) -> None:
        stack = [key]
        while stack:
            current = stack.pop()
            if current in seen:
                continue
            seen[current] = len(seen)
            stack.extend(reversed(items[current].downs))

    for nid in sorted(graph.nodes, key=lambda n: (not graph.nodes[n].first, n)):
        visit(("n", nid))
    for rank in ranks.values():
        rank.sort(key=lambda item: seen.get(item.key, 0))
        for position, item in enumerate(rank):
            item.order = position
    levels = sorted(ranks)
    best = _crossings(ranks, items)
    best_orders = {key: item.order for key, item in items.items()}
    for sweep in range(16):
        down = sweep % 2 == 0
        for rank in (levels[1:] if down else levels[-2::-1]):
            row = ranks[rank]
            for item in row:
                near = item.ups if down else item.downs
                if near:
                    item.order = sum(items[k].order for k in near) / len(near) + item.order * 1e-3
            row.sort(key=lambda item: item.order)
            for position, item in enumerate(row):
                item.order = position
        count = _crossings(ranks, items)
        if count < best:
            best, best_orders = count, {key: item.order for key, item in items.items()}
    for key, order in best_orders.items():
        items[key].order = order
    for row in ranks.values():
        row.sort(key=lambda item: item.order)
    # x: pack, then pull each item towards its neighbours without overlapping
    for row in ranks.values():
        x = 0.0
        for item in row:
            x += item.left
            item.x = x
            x += item.right + NODE_GAP
    for sweep in range(24):
        down = sweep % 2 == 0
        for rank in (levels if down else levels[::-1]):
            row = ranks[rank]
            wanted = []
            for item in row:
                side = item.ups if down else item.downs
                near = [items[k].x for k in side] or \
                       [items[k].x for k in (item.downs if down else item.ups)]
                if item.key[0] == "d":
                    # an edge's points line up with the edge's previous point: long edges run straight
                    dummies = [items[k].x for k in side if k[0] == "d"]
                    near = dummies or near
                wanted.append(_median(near) if near else item.x)
            _place(row, wanted)
    left = min(item.x - item.left for item in items.values())
    for item in items.values():
        item.x -= left
    tops: dict[int, float] = {}
    y = 64.0
    for rank in levels:
        tops[rank] = y
        gap = 26 if rank % 2 == 0 else 10
        y += max(item.height for item in ranks[rank]) + gap
    width = max(item.x + item.right for item in items.values())
    return {"boxes": boxes, "items": items, "chains": chains, "labels": labels, "back": back,
            "tops": tops, "ranks": ranks, "width": width, "height": y, "layer": layer}


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _place(row: list[_Item], wanted: list[float]) -> None:
    """Put each item as near its wanted x as the order and the gaps allow."""
    count = len(row)
    if not count:
        return
    right = [0.0] * count
    for i, item in enumerate(row):
        right[i] = wanted[i] if i == 0 else max(wanted[i], right[i - 1] + row[i - 1].right + NODE_GAP + item.left)
    left = [0.0] * count
    for i in range(count - 1, -1, -1):
        item = row[i]
        left[i] = wanted[i] if i == count - 1 else min(wanted[i], left[i + 1] - row[i + 1].left - NODE_GAP - item.right)
    for i, item in enumerate(row):
        item.x = (right[i] + left[i]) / 2
    for i in range(1, count):  # the average may overlap: push right where needed
        low = row[i - 1].x + row[i - 1].right + NODE_GAP + row[i].left
        if row[i].x < low:
            row[i].x = low


def _crossings(ranks: dict[int, list[_Item]], items: dict[Any, _Item]) -> int:
    total = 0
    for row in ranks.values():
        pairs = sorted((item.order, items[down].order) for item in row for down in item.downs)
        for i, (_, a) in enumerate(pairs):
            for _, b in pairs[i + 1:]:
                if b < a:
                    total += 1
    return total


# -- drawing --------------------------------------------------------------------------

COLOURS = {"UI_displayed": ("#eef3fb", "#5b7db1"), "player_action": ("#fff6df", "#b7862b"),
           "timer": ("#e8f6ea", "#4f9a5a"), "missing": ("#fde2e2", "#c62828")}
RED = "#c62828"
LEGEND_WIDTH = 790.0


def _port(items: dict[Any, _Item], node: _Item, neighbour: Any, below: bool, width: float) -> float:
    """Where on the node's side an edge attaches: spread in the order of the edges' other ends."""
    side = sorted(node.downs if below else node.ups, key=lambda k: (items[k].x, str(k)))
    if len(side) < 2:
        return 0.0
    spacing = min(16.0, (width - 36) / (len(side) - 1))
    return (side.index(neighbour) - (len(side) - 1) / 2) * spacing


def _shape(kind: str, x: float, y: float, w: float, h: float, fill: str, stroke: str, extra: str = "") -> str:
    if kind == "player_action":
        cut = min(14.0, h / 2)
        points = [(x + cut, y), (x + w - cut, y), (x + w, y + h / 2), (x + w - cut, y + h), (x + cut, y + h),
                  (x, y + h / 2)]
        text = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        return f'<polygon points="{text}" fill="{fill}" stroke="{stroke}"{extra}/>'
    radius = h / 2 if kind == "timer" else 9
    return (f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{radius:.1f}" '
            f'fill="{fill}" stroke="{stroke}"{extra}/>')


#: Layouts by definition: the server redraws a game's graph for every phase it highlights.
_LAYOUTS: dict[int, tuple[GameDefinition, PhaseGraph, dict[str, Any]]] = {}


def _laid_out(definition: GameDefinition, title: str) -> tuple[PhaseGraph, dict[str, Any]]:
    cached = _LAYOUTS.get(id(definition))
    if cached is None or cached[0] is not definition or cached[1].title != title:
        graph = build(definition, title)
        cached = (definition, graph, _layout(graph))
        if len(_LAYOUTS) > 64:
            _LAYOUTS.clear()
        _LAYOUTS[id(definition)] = cached
    return cached[1], cached[2]


def svg(game_or_definition: Any, highlight: int | None = None) -> str:
    """The phase graph as a standalone SVG document; ``highlight`` marks the current phase."""
    definition, title = _definition(game_or_definition)
    graph, layout = _laid_out(definition, title)
    items: dict[Any, _Item] = layout["items"]
    tops: dict[int, float] = layout["tops"]
    margin = 24.0
    width = max(layout["width"] + 2 * margin, LEGEND_WIDTH + 2 * margin)
    height = layout["height"] + margin
    parts: list[str] = []

    def centre_y(item: _Item) -> float:
        top = tops[item.rank]
        row_height = max(other.height for other in layout["ranks"][item.rank])
        return top + row_height / 2

    # edges first, under the nodes
    edge_parts: list[str] = []
    label_parts: list[str] = []
    for index, chain in layout["chains"].items():
        edge = graph.edges[index]
        reverse = index in layout["back"]
        points: list[tuple[float, float]] = []
        for position, key in enumerate(chain):
            item = items[key]
            cx = item.x + margin
            cy = centre_y(item)
            if key[0] == "n":
                box = layout["boxes"][key[1]]
                neighbour = chain[1] if position == 0 else chain[-2]
                cx += _port(items, item, neighbour, below=position == 0, width=box.width)
                cy = cy + box.height / 2 if position == 0 else cy - box.height / 2
            points.append((cx, cy))
        path = [f"M{points[0][0]:.1f},{points[0][1]:.1f}"]
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            bend = (y1 - y0) / 2
            path.append(f"C{x0:.1f},{y0 + bend:.1f} {x1:.1f},{y1 - bend:.1f} {x1:.1f},{y1:.1f}")
        colour = "#8a5a00" if reverse else "#5f6b7a"
        marker = "start" if reverse else "end"
        dash = ' stroke-dasharray="6 4"' if reverse else ""
        tip = escape(edge.full or f"{edge.source} → {edge.target}")
        edge_parts.append(f'<path d="{" ".join(path)}" fill="none" stroke="{colour}" stroke-width="1.4"{dash} '
                          f'marker-{marker}="url(#arrow{"-back" if reverse else ""})"><title>{tip}</title></path>')
        text = layout["labels"].get(index) or []
        if text:
            label_key = next((k for k in chain if k[0] == "d" and items[k].right > 6 + 1), None)
            if label_key is not None:
                item = items[label_key]
                lx = item.x + margin + 5
                ly = centre_y(item) - (len(text) * LABEL_LINE) / 2 + LABEL_LINE - 3
                box_w = item.right - 6
                label_parts.append(
                    f'<rect x="{lx - 2:.1f}" y="{ly - LABEL_LINE + 2:.1f}" width="{box_w:.1f}" '
                    f'height="{len(text) * LABEL_LINE + 3:.1f}" rx="3" fill="#ffffff" fill-opacity="0.95"/>')
                spans = "".join(f'<tspan x="{lx:.1f}" dy="{0 if i == 0 else LABEL_LINE}">{escape(line)}</tspan>'
                                for i, line in enumerate(text))
                label_parts.append(f'<text x="{lx:.1f}" y="{ly:.1f}" font-size="{LABEL_SIZE}" fill="#3d4650">'
                                   f'<title>{tip}</title>{spans}</text>')
    # self loops
    for index, edge in enumerate(graph.edges):
        if edge.source != edge.target:
            continue
        item = items[("n", edge.source)]
        box = layout["boxes"][edge.source]
        cx, cy = item.x + margin + box.width / 2, centre_y(item)
        edge_parts.append(f'<path d="M{cx:.1f},{cy - 8:.1f} C{cx + 42:.1f},{cy - 30:.1f} {cx + 42:.1f},{cy + 30:.1f} '
                          f'{cx:.1f},{cy + 8:.1f}" fill="none" stroke="#5f6b7a" stroke-width="1.4" '
                          f'marker-end="url(#arrow)"><title>{escape(edge.full)}</title></path>')
        if edge.label:
            lines = _wrap(edge.label, LABEL_SIZE, 110, 3)
            spans = "".join(f'<tspan x="{cx + 46:.1f}" dy="{0 if i == 0 else LABEL_LINE}">{escape(line)}</tspan>'
                            for i, line in enumerate(lines))
            label_parts.append(f'<text x="{cx + 46:.1f}" y="{cy - (len(lines) - 1) * LABEL_LINE / 2 + 3:.1f}" '
                               f'font-size="{LABEL_SIZE}" fill="#3d4650"><title>{escape(edge.full)}</title>{spans}</text>')
    node_parts: list[str] = []
    for nid, box in layout["boxes"].items():
        node = box.node
        item = items[("n", nid)]
        x = item.x + margin - box.width / 2
        y = centre_y(item) - box.height / 2
        fill, stroke = COLOURS[node.kind]
        extra = ' stroke-width="1.5"'
        if node.unreachable or node.dead_end:
            fill, stroke = "#fde2e2", RED
            extra = ' stroke-width="2"' + (' stroke-dasharray="6 3"' if node.unreachable else "")
        tags = [t for t, on in (("unreachable", node.unreachable), ("dead end", node.dead_end and node.kind != "missing"),
                                ("start", node.first), ("end", node.ends)) if on]
        flags = [flag for flag, on in (("current", nid == highlight), ("ends", node.ends),
                                       ("unreachable", node.unreachable), ("dead-end", node.dead_end)) if on]
        group = [f'<g class="{" ".join(["phase"] + flags)}" data-phase="{nid}">'
                 f'<title>{escape(f"phase {nid}: {node.name}")}</title>']
        if nid == highlight:
            group.append(_shape(node.kind, x - 6, y - 6, box.width + 12, box.height + 12, "#ffe08a", "#e08a00",
                                ' stroke-width="3"'))
        if node.ends:
            group.append(_shape(node.kind, x - 4, y - 4, box.width + 8, box.height + 8, "none", stroke, extra))
        group.append(_shape(node.kind, x, y, box.width, box.height, fill, stroke, extra))
        ty = y + 8 + NAME_SIZE
        for line in box.name:
            group.append(f'<text x="{x + box.width / 2:.1f}" y="{ty:.1f}" font-size="{NAME_SIZE}" font-weight="600" '
                         f'text-anchor="middle" fill="#1d2733">{escape(line)}</text>')
            ty += 16
        for line in box.who:
            group.append(f'<text x="{x + box.width / 2:.1f}" y="{ty - 2:.1f}" font-size="{WHO_SIZE}" '
                         f'text-anchor="middle" fill="#4a5562">{escape(line)}</text>')
            ty += 13
        if tags and (node.unreachable or node.dead_end):
            group.append(f'<text x="{x + box.width - 4:.1f}" y="{y - 4:.1f}" font-size="10" font-weight="700" '
                         f'text-anchor="end" fill="{RED}">{escape(", ".join(t for t in tags if t not in ("start", "end")))}</text>')
        group.append("</g>")
        node_parts.append("".join(group))
    legend = _legend(margin)
    heading = escape(f"{title} — phase graph" if title else "Phase graph")
    parts.append(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
                 f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="{FONT}">')
    parts.append(f"<title>{heading}</title>")
    parts.append('<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
                 'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#5f6b7a"/></marker>'
                 '<marker id="arrow-back" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
                 'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#8a5a00"/></marker></defs>')
    parts.append('<rect width="100%" height="100%" fill="#ffffff"/>')
    parts.append(f'<text x="{margin}" y="26" font-size="16" font-weight="700" fill="#1d2733">{heading}</text>')
    parts.append(legend)
    parts.extend(edge_parts)
    parts.extend(label_parts)
    parts.extend(node_parts)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _legend(margin: float) -> str:
    x, y = margin, 40.0
    out = []
    for kind, text in (("UI_displayed", "runs by itself"), ("player_action", "waits for players"),
                       ("timer", "waits for a timer")):
        fill, stroke = COLOURS[kind]
        out.append(_shape(kind, x, y, 30, 14, fill, stroke, ' stroke-width="1.2"'))
        out.append(f'<text x="{x + 36}" y="{y + 11}" font-size="10.5" fill="#4a5562">{text}</text>')
        x += 40 + _width(text, 10.5) + 16
    out.append(_shape("UI_displayed", x, y, 30, 14, "none", "#5b7db1", ' stroke-width="1.2"'))
    out.append(_shape("UI_displayed", x + 3, y + 3, 24, 8, "#eef3fb", "#5b7db1", ' stroke-width="1"'))
    out.append(f'<text x="{x + 36}" y="{y + 11}" font-size="10.5" fill="#4a5562">ends the game</text>')
    x += 40 + _width("ends the game", 10.5) + 16
    out.append(f'<path d="M{x},{y + 7} h30" stroke="#8a5a00" stroke-dasharray="6 4" stroke-width="1.4"/>')
    out.append(f'<text x="{x + 36}" y="{y + 11}" font-size="10.5" fill="#4a5562">loops back</text>')
    x += 40 + _width("loops back", 10.5) + 16
    out.append(_shape("UI_displayed", x, y, 30, 14, "#fde2e2", RED, ' stroke-width="1.5" stroke-dasharray="4 2"'))
    out.append(f'<text x="{x + 36}" y="{y + 11}" font-size="10.5" fill="{RED}">unreachable / dead end</text>')
    return "".join(out)


# -- the command line --------------------------------------------------------------------

FORMATS = {"svg": svg, "mermaid": mermaid, "dot": dot}
SUFFIXES = {".svg": "svg", ".mmd": "mermaid", ".mermaid": "mermaid", ".dot": "dot", ".gv": "dot"}


def render(game_or_definition: Any, fmt: str = "svg", highlight: int | None = None) -> str:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (choose svg, mermaid or dot)")
    return FORMATS[fmt](game_or_definition, highlight=highlight)


def register(app: Any) -> None:
    import typer  # noqa: PLC0415

    @app.command()
    def graph(game: str = typer.Argument(..., help="An installed game id, or a DSL file."),
              fmt: str = typer.Option(None, "--format", "-f", help="svg, mermaid or dot (default: from -o, else svg)."),
              output: Path = typer.Option(None, "--output", "-o", help="Write here instead of printing."),
              highlight: int = typer.Option(None, "--highlight", help="A phase id to mark.")) -> None:
        """Draw the phase graph: phases by completion type, branch conditions, problems in red."""
        chosen = fmt or (SUFFIXES.get(output.suffix.lower(), "svg") if output else "svg")
        try:
            text = render(game, chosen, highlight)
        except ValueError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if output is None:
            typer.echo(text, nl=False)
        else:
            output.write_text(text, encoding="utf-8")
            typer.echo(f"wrote {output} ({chosen})", err=True)
