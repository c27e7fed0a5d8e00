"""Fixed-size numeric observations: a game's own encoder, or one read from its declaration.

An encoder has ``size``, ``fields`` (``[(name, width), ...]`` in order) and
``encode(match, seat, out)``, which writes what ``seat`` may see into ``out``
(a zero-filled sequence of ``size`` numbers). Coup and BANG! ship theirs in
``games/<id>/encoding.py``. Any other game gets :class:`DeclaredEncoder`, built
from its DSL declaration: every declared player field as that seat sees it
(hidden fields are flagged, never read; a list a ``roll`` statement writes is its length
and how many of its dice show each face), the ``public_state`` names, the phase,
whether the seat is deciding, and the log: how often the seat has seen each of
the game's ``say`` lines, and which one it saw last.
"""

from __future__ import annotations

import importlib
import re
from typing import TYPE_CHECKING, Any

from ..dsl.extensions import TEMPLATE
from ..engine.declarative import player_rolls, statements, visible_fields
from ..engine.encoding import DECISION_KINDS, encode_turn, layout, phase_index
from .actions import load_extras

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Game, Match

_NUMBERS = ("num", "number", "int", "integer", "float")
_BOOLEANS = ("boolean", "bool")
_SKIP = ("name", "id")


def encoder_for(game: "Game", players: int) -> Any:
    """The game's own encoder if its package has ``encoding.py``, else a declared one."""
    load_extras(game)
    try:
        module = importlib.import_module(f"intrigue.games.{game.id}.encoding")
    except ModuleNotFoundError:
        return DeclaredEncoder(game, players)
    return module.encoder(game, players)


class DeclaredEncoder:
    """The generic encoder for games written in their DSL alone. See the module docstring."""

    def __init__(self, game: "Game", players: int):
        declaration = game.definition.declaration
        self.players = players
        self.specs = {name: spec for name, spec in declaration.player_states.items() if name not in _SKIP}
        text = game.binding.dsl_path.read_text(encoding="utf-8") if game.binding.dsl_path.is_file() else ""
        self.categories = {name: _categories(name, spec, declaration, text)
                           for name, spec in self.specs.items() if _kind(spec) == "text"}
        self.public = list(declaration.public_state or ())
        self.phases = phase_index(game)
        self.faces = {name: sides for name, sides in _rolled_faces(game).items() if name in self.specs}
        self.templates = _templates(game)
        self._template_of: dict[str, int] = {}
        per_player = 0
        self._layout: list[tuple[str, str, int]] = []  # (field, kind, offset within a player)
        for name, spec in self.specs.items():
            kind = "dice" if name in self.faces else _kind(spec)
            width = len(self.categories[name]) + 1 if kind == "text" else 1 + self.faces.get(name, 0)
            self._layout.append((name, kind, per_player))
            per_player += width + 1  # + "hidden from you"
        self.per_player = per_player
        fields: list[tuple[str, int]] = [(f"player+{k}", per_player) for k in range(players)]
        fields += [("public_state", len(self.public)), ("phase", len(self.phases)), ("deciding", 1),
                   ("decision_kind", len(DECISION_KINDS)), ("pending", 1),
                   ("said", len(self.templates) + 1), ("last_said", len(self.templates) + 1)]
        self.fields = fields
        self.offsets, self.size = layout(fields)
        self._seen: dict[int, tuple[Any, int, list[int], int]] = {}

    def _template(self, line: str) -> int:
        found = self._template_of.get(line)
        if found is None:
            found = next((i for i, pattern in enumerate(self.templates) if pattern.fullmatch(line)),
                         len(self.templates))
            self._template_of[line] = found
        return found

    def _said(self, match: "Match", seat: int) -> tuple[list[int], int]:
        """Lines of the log this seat has seen, by template, read incrementally."""
        known, read, counts, last = self._seen.get(seat, (None, 0, [], -1))
        events = match.events
        if known is not match or read > len(events):
            read, counts, last = 0, [0] * (len(self.templates) + 1), -1
        for event in events[read:]:
            if event.audience.includes(match, seat):
                last = self._template(event.text)
                counts[last] += 1
        self._seen[seat] = (match, len(events), counts, last)
        return counts, last

    def encode(self, match: "Match", seat: int, out: Any) -> None:
        n = self.players
        for owner in range(n):
            base = ((owner - seat) % n) * self.per_player
            seen = visible_fields(match, owner, seat)
            for name, kind, at in self._layout:
                value = seen.get(name)
                if value is None:
                    out[base + at + (len(self.categories[name]) + 1 if kind == "text"
                                     else 1 + self.faces.get(name, 0))] = 1.0
                    continue
                if kind == "text":
                    values = self.categories[name]
                    out[base + at + (values.index(value) if value in values else len(values))] = 1.0
                elif kind == "dice":  # how many dice, and how many show each face
                    dice = value if isinstance(value, list) else [value]
                    out[base + at] = float(len(dice))
                    for face in dice:
                        if isinstance(face, int) and 1 <= face <= self.faces[name]:
                            out[base + at + face] += 1.0
                elif kind == "list":
                    out[base + at] = float(len(value)) if hasattr(value, "__len__") else 0.0
                else:
                    out[base + at] = _number(value)
        public = self.offsets["public_state"]
        for i, name in enumerate(self.public):
            out[public + i] = _number(match.state.get(name))
        encode_turn(out, self.offsets, self.phases, match, seat)
        decision = match.decision
        if decision is not None:
            out[self.offsets["pending"]] = len(decision.pending) / n
        counts, last = self._said(match, seat)
        said = self.offsets["said"]
        for i, count in enumerate(counts):
            if count:
                out[said + i] = min(count, 20) / 10.0
        if last >= 0:
            out[self.offsets["last_said"] + last] = 1.0


def _kind(spec: Any) -> str:
    kind = (spec.type or "string").lower()
    if kind in _NUMBERS or kind in _BOOLEANS:
        return "number"
    if kind in ("array", "list", "dict", "object"):
        return "list"
    return "text"


def _number(value: Any) -> float:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, (str, list, dict)):
        return float(len(value) > 0)
    return 0.0


def _categories(name: str, spec: Any, declaration: Any, text: str) -> list[str]:
    """The values a text field is known to take: roles, examples, and the literals the
    game compares it with (``player.role == 'Thief'``)."""
    values: list[str] = []
    deal = declaration.role_deal
    if deal is not None and deal.field == name:
        values += list(deal.roles)
    if name == "role":
        values += [role.name for role in declaration.roles]
    if isinstance(spec.example, str) and spec.example:
        values.append(spec.example)
    pattern = re.compile(r"\b" + re.escape(name) + r"\s*[!=]=\s*['\"]([^'\"]+)['\"]")
    values += pattern.findall(text)
    return sorted(dict.fromkeys(values))


def _rolled_faces(game: "Game") -> dict[str, int]:
    """The player fields ``roll`` statements write, each with its dice's faces (``sides`` written as a
    number, else 6; the most of any statement writing it)."""
    return {name: max(_sides(effect) for effect in statements) for name, statements in player_rolls(game).items()}


def _sides(effect: Any) -> int:
    return effect.sides if isinstance(effect.sides, int) and not isinstance(effect.sides, bool) else 6


def _templates(game: "Game") -> list[re.Pattern[str]]:
    """A pattern per ``say`` line of the DSL (inside an ``if`` too), its ``{expressions}`` matching anything."""
    lines = [effect.say for effect in statements(game) if effect.say]
    patterns = []
    for line in dict.fromkeys(lines):
        parts = TEMPLATE.split(line)  # literal, expression, literal, ...
        patterns.append(re.compile("".join(re.escape(part) if i % 2 == 0 else ".*?"
                                           for i, part in enumerate(parts))))
    return patterns
