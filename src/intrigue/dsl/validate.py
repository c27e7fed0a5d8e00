"""Check a DSL file and report every problem at once, each with file, line and key path."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from pydantic import BaseModel, ValidationError

from . import source as source_module
from .expressions import ExpressionError, compile_expression
from .extensions import DECISION_NAMES, TEMPLATE, Effect, OptionEntry, RoleDeal
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
        if self.names is None and definition.declaration.game_state is not None:
            # A game written without Python declares its game-level names itself.
            self.names = leaf_names(definition.declaration.game_state)
        declared = set(definition.declaration.player_states)
        self.fields = (declared | IMPLICIT_FIELDS) if declared else None

    def run(self) -> None:
        self.unknown_keys(self.d, ())
        self.player_tables()
        self.expressions()
        self.extension()
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
            for index, action in enumerate(phase.actions):
                if not action.tools and not action.effects:
                    self.source.problem(base + ("actions", index), "an action with no tools", "warning")
                for number, effect in enumerate(action.effects or []):
                    self.effect(effect, base + ("actions", index, "effects", number))
            for number, effect in enumerate(phase.effects or []):
                self.effect(effect, base + ("effects", number))

    # -- the declarative extension (see extensions.py) ---------------------
    def decision_names(self) -> set[str] | None:
        """Names statements and ``when`` may use: game names plus the decision's."""
        if self.names is None:
            return None
        fields = self.fields or set()
        return (self.names | {"choice"} | {f"actor.{f}" for f in fields}
                | {f"chosen.{f}" for f in fields} | {"actor", "chosen"})

    def compile_decision(self, text: Any, path: tuple[Any, ...]) -> None:
        if isinstance(text, (int, float)) and not isinstance(text, bool):
            return  # a number is its own value (``to: 0``)
        try:
            compile_expression(text, player_fields=self.fields, names=self.decision_names())
        except ExpressionError as exc:
            column = f" (column {exc.column})" if exc.column else ""
            self.source.problem(path, f"{exc.message}{column} in {text!r}")

    def extension(self) -> None:
        declaration = self.d.declaration
        for name in declaration.game_state or {}:
            if name in DECISION_NAMES or name == "player":
                self.source.problem(("declaration", "game_state", name),
                                    f"{name!r} is a reserved name; choose another")
        for index, name in enumerate(declaration.public_state or []):
            if name not in (declaration.game_state or {}) or name == "players":
                self.source.problem(("declaration", "public_state", index),
                                    f"{name!r} is not a name of declaration.game_state")
        deal = declaration.role_deal
        if deal is not None:
            self.role_deal(deal)
        for phase_id, phase in self.d.phases.items():
            base = ("phases", phase_id)
            criteria = phase.completion_criteria
            if criteria.default is not None:
                literals = {e if isinstance(e, str) else e.option for e in criteria.options or []}
                if criteria.default not in literals:
                    self.source.problem(base + ("completion_criteria", "default"),
                                        f"default {criteria.default!r} is not one of this phase's literal options")
            for number, entry in enumerate(phase.completion_criteria.options or []):
                where = base + ("completion_criteria", "options", number)
                if phase.completion_criteria.type != "player_action":
                    self.source.problem(where, "options belong to a player_action phase")
                if isinstance(entry, OptionEntry):
                    if entry.players is not None:
                        self.compile(entry.players, where + ("players",))
                    if entry.if_ is not None:
                        self.compile_decision(entry.if_, where + ("if",))
            if isinstance(phase.next_phase, dict):
                entries = list(phase.next_phase.items())
                guarded = [ref.when is not None for _, ref in entries]
                for index, (condition, ref) in enumerate(entries):
                    if ref.when is not None:
                        self.compile_decision(ref.when, base + ("next_phase", condition, "when"))
                    elif any(guarded) and index < len(entries) - 1:
                        self.source.problem(base + ("next_phase", condition),
                                            "every branch but the last needs 'when' once one has it")

    def role_deal(self, deal: RoleDeal) -> None:
        declaration = self.d.declaration
        path = ("declaration", "role_deal")
        if self.fields is not None and deal.field not in self.fields:
            self.source.problem(path + ("field",), f"player field {deal.field!r} is not declared in player_states")
        known = {role.name for role in declaration.roles}
        rest = [name for name, spec in deal.roles.items() if spec.rest]
        if len(rest) != 1:
            self.source.problem(path + ("roles",), "exactly one role needs 'rest: true' (it takes the other seats)")
        low = declaration.min_players or 1
        high = declaration.max_players
        for name, spec in deal.roles.items():
            where = path + ("roles", name)
            if known and name not in known:
                self.source.problem(where, f"role {name!r} is not declared in roles")
            for field_name in spec.fields:
                if self.fields is not None and field_name not in self.fields:
                    self.source.problem(where + ("fields", field_name),
                                        f"player field {field_name!r} is not declared in player_states")
            if spec.rest:
                continue
            if spec.counts is None:
                self.source.problem(where, "a role needs 'counts' or 'rest: true'")
                continue
            if high is None:
                self.source.problem(("declaration",), "a role_deal needs max_players")
                continue
            for players in range(low, high + 1):
                if players not in spec.counts:
                    self.source.problem(where + ("counts",), f"no count for {players} players")
        if high is not None:
            for players in range(low, high + 1):
                dealt = sum((spec.counts or {}).get(players, 0) for spec in deal.roles.values() if not spec.rest)
                if dealt > players:
                    self.source.problem(path + ("roles",), f"{dealt} roles dealt to {players} players")

    def game_target(self, text: str | None, path: tuple[Any, ...]) -> None:
        if text is None:
            return
        scope, _, name = text.partition(".")
        if scope != "game" or not name:
            self.source.problem(path, f"{text!r} must be game.<name>")
        elif self.names is not None and name not in self.names:
            self.source.problem(path, f"game name {name!r} is not declared in declaration.game_state")

    def audience(self, to: Any, path: tuple[Any, ...]) -> None:
        if to is None or to in ("owner", "actor", "everyone"):
            return
        if not isinstance(to, str) or to not in self.d.declaration.audience_groups:
            self.source.problem(path, f"cannot show to {to!r}: write owner, actor, everyone or an audience group")

    def player_field(self, name: str, path: tuple[Any, ...]) -> None:
        if self.fields is not None and name.split(".")[0] not in self.fields:
            self.source.problem(path, f"player field {name.split('.')[0]!r} is not declared in player_states")

    def effect(self, effect: Effect, path: tuple[Any, ...]) -> None:
        statement = effect.statement
        if statement == "set":
            assert effect.set is not None
            scope, _, name = effect.set.partition(".")
            if scope not in ("game", "actor", "chosen", "players") or not name:
                self.source.problem(path + ("set",),
                                    f"cannot set {effect.set!r}: write game.<name>, actor.<field>, "
                                    "chosen.<field> or players.<field>")
            elif scope == "game":
                self.game_target(effect.set, path + ("set",))
            else:
                self.player_field(name, path + ("set",))
            if effect.where is not None and scope != "players":
                self.source.problem(path + ("where",), "'where' goes with players.<field>")
            self.compile_decision(effect.to, path + ("to",))
        elif statement == "count":
            self.compile_decision(effect.count, path + ("count",))
            self.game_target(effect.into, path + ("into",))
        elif statement == "tally":
            self.game_target(effect.into, path + ("into",))
            self.game_target(effect.majority, path + ("majority",))
        elif statement == "advance":
            assert effect.advance is not None
            self.player_field(effect.advance, path + ("advance",))
            self.game_target(effect.rounds, path + ("rounds",))
        elif statement == "deal":
            if self.d.declaration.role_deal is None:
                self.source.problem(path + ("deal",), "'deal: roles' needs declaration.role_deal")
        elif statement == "show":
            fields = [effect.show] if isinstance(effect.show, str) else list(effect.show or [])
            for name in fields:
                self.player_field(name, path + ("show",))
            self.audience(effect.to, path + ("to",))
        elif statement == "say":
            assert effect.say is not None
            for expression in TEMPLATE.findall(effect.say):
                self.compile_decision(expression, path + ("say",))
            self.audience(effect.to, path + ("to",))
        elif statement == "win":
            self.compile_decision(effect.win, path + ("win",))
        if effect.where is not None:
            self.compile_decision(effect.where, path + ("where",))

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


def leaf_names(state: dict[str, Any], prefix: str = "") -> set[str]:
    """Dotted names of a game-state mapping (``a``, ``a.b``, ...)."""
    names: set[str] = set()
    for key, value in state.items():
        name = f"{prefix}{key}"
        names.add(name)
        if isinstance(value, dict):
            names |= leaf_names(value, name + ".")
    return names
