"""Check a DSL file and report every problem at once, each with file, line and key path."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from pydantic import BaseModel, ValidationError

from . import source as source_module
from .expressions import ExpressionError, compile_expression
from .extensions import AdvanceEffect, CountEffect, SetEffect
from .model import GameDefinition, NextRef, Phase
from .source import Problem, Source

#: Player fields every game has without declaring them.
IMPLICIT_FIELDS = {"id"}


@dataclass
class Checked:
    """The outcome of validating one file."""

    source: Source
    definition: GameDefinition | None
    problems: list[Problem] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def ok(self) -> bool:
        return self.definition is not None and not self.errors


def validate_file(path: str | Path, *, names: Iterable[str] | None = None) -> Checked:
    return validate_source(source_module.load(path), names=names)


def validate_text(text: str, file: str = "<string>", *, names: Iterable[str] | None = None) -> Checked:
    return validate_source(source_module.parse(text, file), names=names)


def validate_source(source: Source, *, names: Iterable[str] | None = None) -> Checked:
    """Validate parsed data; ``names`` are the game-level names expressions may use."""
    if source.problems and source.data is None:
        return Checked(source, None, list(source.problems))
    if not isinstance(source.data, dict):
        source.problem((), "the file must be a mapping with 'declaration' and 'phases'")
        return Checked(source, None, list(source.problems))
    try:
        definition = GameDefinition.model_validate(source.data)
    except ValidationError as exc:
        for error in exc.errors():
            path = _data_path(source.data, error["loc"])
            source.problem(path, _message(error))
        return Checked(source, None, _sorted(source.problems))
    _Semantics(source, definition, names).run()
    return Checked(source, definition, _sorted(source.problems))


def _sorted(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda p: (p.line, p.path, p.message))


def _message(error: dict[str, Any]) -> str:
    if error["type"] == "missing":
        return "required key is missing"
    if error["type"] == "literal_error":
        return error["msg"].replace("Input should be", "must be")
    message = error["msg"]
    if message.startswith("Value error, "):
        message = message[len("Value error, "):]
    return message[0].lower() + message[1:] if message else message


def _data_path(data: Any, loc: tuple[Any, ...]) -> tuple[Any, ...]:
    """Drop pydantic's union/type tags from ``loc`` so it names keys of the file."""
    path: list[Any] = []
    node = data
    for part in loc:
        key = part
        if isinstance(node, dict):
            if key not in node and isinstance(key, str) and key.isdigit() and int(key) in node:
                key = int(key)
            if key in node:
                path.append(key)
                node = node[key]
                continue
            if isinstance(key, str) and not key[:1].isupper() and "[" not in key and "," not in key:
                path.append(key)  # a missing key: name it
                node = None
            continue
        if isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            path.append(key)
            node = node[key]
    return tuple(path)


class _Semantics:
    def __init__(self, source: Source, definition: GameDefinition, names: Iterable[str] | None):
        self.source = source
        self.d = definition
        self.names = None if names is None else set(names)
        declared = set(definition.declaration.player_states)
        self.fields = (declared | IMPLICIT_FIELDS) if declared else None

    def run(self) -> None:
        self.unknown_keys(self.d, ())
        self.player_tables()
        self.expressions()
        self.graph()

    # -- unknown keys -----------------------------------------------------
    def unknown_keys(self, model: BaseModel, path: tuple[Any, ...]) -> None:
        for key in (model.model_extra or {}):
            if not self._is_free_form(path):
                self.source.problem(path + (key,), f"unknown key {key!r} (ignored)", "warning")
        for name, value in model:
            if name in (model.model_extra or {}):
                continue
            self._walk(value, path + (self._alias(model, name),))

    def _walk(self, value: Any, path: tuple[Any, ...]) -> None:
        if isinstance(value, BaseModel):
            self.unknown_keys(value, path)
        elif isinstance(value, dict):
            for key, item in value.items():
                self._walk(item, path + (key,))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                self._walk(item, path + (index,))

    @staticmethod
    def _alias(model: BaseModel, name: str) -> str:
        info = type(model).model_fields.get(name)
        return info.alias if info and info.alias else name

    @staticmethod
    def _is_free_form(path: tuple[Any, ...]) -> bool:
        # A field spec's example values and similar are free-form.
        return len(path) >= 3 and path[:2] == ("declaration", "player_states")

    # -- player tables ----------------------------------------------------
    def player_tables(self) -> None:
        declaration = self.d.declaration
        declared = set(declaration.player_states)
        if not declared:
            return
        for key in ("player_states_template", "players_example"):
            table = getattr(declaration, key)
            if table is None:
                continue
            inner = "player_states" if table.player_states is not None else "players"
            rows = table.player_states if table.player_states is not None else table.players
            for seat, row in (rows or {}).items():
                for name in row:
                    if name not in declared:
                        self.source.problem(("declaration", key, inner, seat, name),
                                            f"field {name!r} is not declared in player_states")
        if declaration.min_players and declaration.max_players:
            if declaration.min_players > declaration.max_players:
                self.source.problem(("declaration", "max_players"),
                                    "max_players is smaller than min_players")

    # -- expressions ------------------------------------------------------
    def compile(self, text: Any, path: tuple[Any, ...]) -> None:
        try:
            compile_expression(text, player_fields=self.fields, names=self.names)
        except ExpressionError as exc:
            column = f" (column {exc.column})" if exc.column else ""
            self.source.problem(path, f"{exc.message}{column} in {text!r}")

    def expressions(self) -> None:
        for name, group in self.d.declaration.audience_groups.items():
            self.compile(group.selection_criteria,
                         ("declaration", "audience_groups", name, "selection_criteria"))
        for name, spec in self.d.declaration.player_states.items():
            if isinstance(spec.visibility, str) and spec.visibility not in ("public", "owner"):
                self.compile(spec.visibility, ("declaration", "player_states", name, "visibility"))
        for phase_id, phase in self.d.phases.items():
            base = ("phases", phase_id)
            criteria = phase.completion_criteria
            where = base + ("completion_criteria",)
            if criteria.type == "player_action":
                if criteria.wait_for is None:
                    self.source.problem(where, "a player_action phase needs wait_for")
                if criteria.target_players is None:
                    self.source.problem(where, "a player_action phase needs target_players")
                else:
                    self.compile(criteria.target_players.condition,
                                 where + ("target_players", "condition"))
                if criteria.options and criteria.options.players:
                    self.compile(criteria.options.players, where + ("options", "players"))
            for index, action in enumerate(phase.actions):
                if not action.tools and not action.effects:
                    self.source.problem(base + ("actions", index), "an action with no tools", "warning")
                for number, effect in enumerate(action.effects or []):
                    self.effect(effect, base + ("actions", index, "effects", number))
            for number, effect in enumerate(phase.effects or []):
                self.effect(effect, base + ("effects", number))
            if isinstance(phase.next_phase, dict):
                for condition, ref in phase.next_phase.items():
                    if ref.when is not None:
                        self.compile(ref.when, base + ("next_phase", condition, "when"))

    def effect(self, effect: Any, path: tuple[Any, ...]) -> None:
        if isinstance(effect, SetEffect):
            scope, _, name = effect.set.partition(".")
            if scope not in ("game", "actor", "target", "players") or not name:
                self.source.problem(path + ("set",),
                                    f"cannot set {effect.set!r}: write game.<name>, actor.<field>, "
                                    "target.<field> or players.<field>")
            elif scope != "game" and self.fields is not None and name.split(".")[0] not in self.fields:
                self.source.problem(path + ("set",), f"player field {name!r} is not declared in player_states")
            self.compile(effect.to, path + ("to",))
            if effect.where is not None:
                self.compile(effect.where, path + ("where",))
        elif isinstance(effect, CountEffect):
            if not effect.into.startswith("game."):
                self.source.problem(path + ("into",), "a count goes into game.<name>")
        elif isinstance(effect, AdvanceEffect):
            if self.fields is not None and effect.advance not in self.fields:
                self.source.problem(path + ("advance",),
                                    f"player field {effect.advance!r} is not declared in player_states")
            if effect.where is not None:
                self.compile(effect.where, path + ("where",))

    # -- phase graph ------------------------------------------------------
    def graph(self) -> None:
        phases = self.d.phases
        if not phases:
            self.source.problem(("phases",), "there are no phases")
            return
        edges: dict[int, list[int]] = {}
        terminal: set[int] = set()
        for phase_id, phase in phases.items():
            edges[phase_id] = []
            for key, ref in branches(phase):
                path = ("phases", phase_id, "next_phase") + ((key,) if key is not None else ())
                if ref is None or ref.id is None:
                    terminal.add(phase_id)
                    continue
                if ref.id not in phases:
                    self.source.problem(path, f"phase {ref.id} does not exist")
                    continue
                edges[phase_id].append(ref.id)
                target = phases[ref.id]
                if ref.name is not None and ref.name.strip() != target.name.strip():
                    self.source.problem(
                        path, f"names phase {ref.id} {ref.name!r} but that phase is {target.name!r}",
                        "warning")
        first = min(phases)
        reached = reachable(first, edges)
        for phase_id in phases:
            if phase_id not in reached:
                self.source.problem(("phases", phase_id), f"phase {phase_id} is not reachable from phase {first}")
        if not terminal:
            self.source.problem(("phases",), "no phase ends the game (next_phase: null)")
        elif not terminal & reached:
            self.source.problem(("phases",), "no phase that ends the game is reachable")


def branches(phase: Phase) -> list[tuple[str | None, NextRef | None]]:
    """The outgoing references of a phase: ``(condition text or None, ref or None)``."""
    nxt = phase.next_phase
    if nxt is None:
        return [(None, None)]
    if isinstance(nxt, NextRef):
        return [(None, nxt)]
    return list(nxt.items())


def reachable(first: int, edges: dict[int, list[int]]) -> set[int]:
    seen = {first}
    queue = deque([first])
    while queue:
        for target in edges.get(queue.popleft(), []):
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return seen
