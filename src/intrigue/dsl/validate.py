"""Check a DSL file and report every problem at once, each with file, line and key path.

Schema errors do not hide the rest: the parts of the file that break the schema
are reported, set aside (a broken statement, a broken option, a broken phase kept
only for its links), and everything else is checked as usual: expressions and
their types, the statements, which decision each statement reads, the secrecy of
who acts, and the phase graph.
"""

from __future__ import annotations

import copy
import re
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

import yaml
from pydantic import BaseModel, ValidationError

from . import source as source_module
from .expressions import (ANY, BOOL, BUILTIN_NAMES, FIELD_TYPES, LIST, NUM, PLAYER, TEXT, Expression, ExpressionError,
                          Node, base, compile_expression, describe, item_type, type_of_value)
from .extensions import (ACKNOWLEDGE, ALIASES, DECISION_NAMES, NEWER_NAMES, TEMPLATE, Effect, OptionEntry, RoleDeal)
from .model import CompletionCriteria, GameDefinition, NextRef, Phase
from .source import Problem, Source

#: Player fields every game has without declaring them.
IMPLICIT_FIELDS = {"id"}

#: What YAML reads as a boolean when written bare.
_BOOLEAN_WORDS = {"yes", "no", "on", "off"}
#: Where text is required, a bare True or False was meant as text too (an option 'True').
_TEXT_TRAPS = _BOOLEAN_WORDS | {"true", "false"}

#: Keys whose value is an expression (text that the DSL compiles), never a YAML list or mapping.
_EXPRESSION_KEYS = {"to", "where", "win", "if", "when", "items", "players", "condition", "count", "most",
                    "choose", "selection_criteria", "joint", "cover", "clock", "seconds"}

COMMA_HINT = ("(inside {...} a comma separates keys: quote text that contains a comma, "
              "or write the mapping on several lines)")


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
    if {"players", "steps"} <= set(source.data) and not {"declaration", "phases"} & set(source.data):
        source.problem((), "this is a scenario file (game, players, steps), not a game: run it with "
                           "`intrigue scenario FILE` (docs/scenarios.md)")
        return Checked(source, None, list(source.problems))
    schema = _Schema(source)
    definition = schema.run()
    if definition is not None:
        _Semantics(source, definition, names, schema).run()
    _yaml_traps(source)
    problems = _dedupe(source.problems)
    return Checked(source, definition if not schema.errors else None, _sorted(problems))


def _sorted(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda p: (p.line, p.path, p.message))


def _dedupe(problems: list[Problem]) -> list[Problem]:
    seen: set[tuple[Any, ...]] = set()
    kept = []
    for problem in problems:
        key = (problem.line, problem.path, problem.message, problem.severity)
        if key not in seen:
            seen.add(key)
            kept.append(problem)
    return kept


# -- the schema, and what is set aside --------------------------------------------------------
class _Schema:
    """Validates the file against the model; on errors, reports them all, then sets the broken
    parts aside until the rest validates, so that the semantic checks can run on it.

    Removing a list item shifts the items after it: ``original`` maps a path in the
    pruned data back to the file's own path, so later messages name the right line.
    """

    def __init__(self, source: Source):
        self.source = source
        self.data = copy.deepcopy(source.data)
        self.errors = False
        self.stubs: set[int] = set()  # phases kept only for their links
        self.pruned: set[tuple[Any, ...]] = set()  # the file's paths set aside
        self._maps: dict[int, list[int]] = {}  # id(list) -> original index of each item
        self.text_traps: set[tuple[Any, ...]] = set()  # where a bare True/False stood for text

    def run(self) -> GameDefinition | None:
        first = True
        for _ in range(500):
            try:
                return GameDefinition.model_validate(self.data)
            except ValidationError as exc:
                self.errors = True
                grouped: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
                for error in exc.errors():
                    grouped.setdefault(_data_path(self.data, error["loc"]), []).append(error)
                if first:
                    for path, errors in grouped.items():
                        self.report(path, errors)
                    first = False
                if not any(self.prune(path) for path in sorted(grouped, key=len, reverse=True)):
                    return None
        return None  # pragma: no cover - a file that keeps breaking

    # -- messages ------------------------------------------------------------------------
    def report(self, path: tuple[Any, ...], errors: list[dict[str, Any]]) -> None:
        original = self.original(path)
        raw = self.source.plain.get(original)
        value = errors[0].get("input")
        wants_text = any(e.get("type") == "string_type" for e in errors)
        if isinstance(value, bool) and raw is not None and (
                raw.lower() in _BOOLEAN_WORDS or raw.lower() in _TEXT_TRAPS and wants_text):
            self.text_traps.add(path)
            self.source.problem(original, f"YAML reads a bare {raw} as the boolean {str(value).lower()}: "
                                          f"quote it ('{raw}') to mean the text")
            return
        if isinstance(value, (list, dict)) and original and original[-1] in _EXPRESSION_KEYS:
            written = yaml.safe_dump(value, default_flow_style=True, width=10**6).strip()
            kind = "list" if isinstance(value, list) else "mapping"
            self.source.problem(original, f"YAML reads {written} here as a {kind}, but an expression is written "
                                          f"as text: quote it ({original[-1]}: '{written}')")
            return
        if len(errors) > 1:  # a union: keep the errors of the branch for the kind of value written
            kind = type(value).__name__
            branch = [e for e in errors if kind in [str(part) for part in e["loc"]]]
            if isinstance(value, (dict, list)):
                branch = branch or [e for e in errors if any(str(part)[:1].isupper() for part in e["loc"])]
            errors = branch or errors
        messages = list(dict.fromkeys(_message(error) for error in errors))
        if len(messages) > 2 and all(error["type"] in ("string_type", "model_type", "dict_type", "model_attributes_type")
                                     or "union" in str(error["loc"]) for error in errors):
            messages = [f"must be text or a mapping, not {type(value).__name__}"]
        message = messages[0] if len(messages) == 1 else " or ".join(messages)
        if any(key[: len(original)] == original for key in self.source.bare_keys):
            message += " " + COMMA_HINT
        self.source.problem(original, message)

    def original(self, path: tuple[Any, ...]) -> tuple[Any, ...]:
        """The file's own path for a path in the pruned data."""
        out: list[Any] = []
        node = self.data
        for part in path:
            if isinstance(node, list) and isinstance(part, int):
                mapping = self._maps.get(id(node))
                out.append(mapping[part] if mapping is not None and part < len(mapping) else part)
                node = node[part] if 0 <= part < len(node) else None
            elif isinstance(node, dict):
                out.append(part)
                node = node.get(part)
            else:
                out.append(part)
                node = None
        return tuple(out)

    # -- setting aside -----------------------------------------------------------------------
    def prune(self, path: tuple[Any, ...]) -> bool:
        """Set aside the smallest part of the data that holds ``path``. True if something changed."""
        if len(path) >= 2 and path[0] == "phases" and len(path) == 2:
            return self.stub(path[1])
        raw = self.source.plain.get(self.original(path))
        if raw is not None and (raw.lower() in _BOOLEAN_WORDS or path in self.text_traps) and self._replace(path, raw):
            return True  # a bare Yes meant the text Yes: check the rest as if it were quoted
        nodes = [self.data]
        for part in path[:-1]:
            node = nodes[-1]
            if isinstance(node, dict) and part in node:
                nodes.append(node[part])
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                nodes.append(node[part])
            else:
                break
        # the deepest list item on the path goes; else the key itself
        self.pruned.add(self.original(path))
        for depth in range(len(nodes) - 1, -1, -1):
            container = nodes[depth]
            key = path[depth] if depth < len(path) else None
            if isinstance(container, list) and isinstance(key, int) and 0 <= key < len(container):
                mapping = self._maps.setdefault(id(container), list(range(len(container))))
                del container[key]
                del mapping[key]
                return True
            if depth == 2 and path[0] == "phases":  # a phase whose own key is broken: keep its links only
                return self.stub(path[1])
            if isinstance(container, dict) and key in container and depth == len(path) - 1:
                if path[:2] == ("declaration", "player_states") and depth == 2:
                    container[key] = {"type": "string"}
                    return True
                del container[key]
                return True
        if len(path) >= 2 and path[0] == "phases":
            return self.stub(path[1])
        return False

    def _replace(self, path: tuple[Any, ...], value: Any) -> bool:
        node = self.data
        for part in path[:-1]:
            node = node[part] if isinstance(node, dict) else node[part] if isinstance(node, list) else None
            if node is None:
                return False
        last = path[-1] if path else None
        if isinstance(node, (dict, list)) and isinstance(_at(node, (last,)), bool):
            node[last] = value
            return True
        return False

    def stub(self, phase_id: Any) -> bool:
        phases = self.data.get("phases")
        if not isinstance(phases, dict) or phase_id not in phases or phase_id in self.stubs:
            if isinstance(phases, dict) and phase_id in phases and phase_id in self.stubs:
                del phases[phase_id]  # even the stub does not validate (a broken link): drop it
                return True
            return False
        old = phases[phase_id] if isinstance(phases[phase_id], dict) else {}
        nxt = old.get("next_phase")
        try:
            Phase.model_validate({"name": "x", "completion_criteria": {"type": "UI_displayed"}, "next_phase": nxt})
        except ValidationError:
            nxt = None
        name = old.get("name") if isinstance(old.get("name"), str) else f"phase {phase_id}"
        phases[phase_id] = {"name": name, "completion_criteria": {"type": "UI_displayed"}, "next_phase": nxt}
        self.stubs.add(phase_id)
        return True


def _message(error: dict[str, Any]) -> str:
    if error["type"] == "missing":
        return "required key is missing"
    if error["type"] == "literal_error":
        return error["msg"].replace("Input should be", "must be")
    message = error["msg"]
    if message.startswith("Value error, "):
        message = message[len("Value error, "):]
    return message[0].lower() + message[1:] if message else message


#: pydantic's names for the branches of a union, which are not keys of the file.
_TAGS = {"str", "int", "float", "bool", "none", "list", "dict"}
_TYPE_TAG = re.compile(r"[\[\],-]")


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
            if isinstance(key, str) and not key[:1].isupper() and not _TYPE_TAG.search(key) and key not in _TAGS:
                path.append(key)  # a missing key: name it
                node = None
            continue
        if isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            path.append(key)
            node = node[key]
    return tuple(path)


def _yaml_traps(source: Source) -> None:
    """Bare Yes/No/On/Off that YAML turned into booleans where text was likely meant."""
    for path, raw in source.plain.items():
        if raw.lower() not in _BOOLEAN_WORDS or not path or not isinstance(_at(source.data, path), bool):
            continue
        if path[:2] == ("declaration", "player_states") or path[-1] in ("is_multiplayer",):
            continue
        if any(p.path == source_module.dotted(path) and "YAML reads" in p.message for p in source.problems):
            continue
        source.problem(path, f"YAML reads a bare {raw} as a boolean: quote it ('{raw}') if you mean the text",
                       "warning")


def _statements(definition: GameDefinition) -> Iterator[Effect]:
    """Every statement of every phase and action, those inside ``then``/``else`` included."""
    def visit(effects: Iterable[Any]) -> Iterator[Effect]:
        for effect in effects or ():
            if isinstance(effect, Effect):
                yield effect
                yield from visit(effect.then or ())
                yield from visit(effect.else_ or ())

    for phase in (definition.phases or {}).values():
        yield from visit(phase.effects or ())
        for action in phase.actions or ():
            yield from visit(action.effects or ())


def _written_names(definition: GameDefinition) -> set[str]:
    """The game-level names some statement writes (``set``, ``into``, ``shuffle``, ...)."""
    return {target[len("game."):] for effect in _statements(definition)
            for target in (effect.set, effect.into, effect.majority, effect.unanimous, effect.rounds, effect.shuffle,
                           effect.roll)
            if isinstance(target, str) and target.startswith("game.")}


def _shuffled_names(definition: GameDefinition) -> set[str]:
    """The game-level names a ``shuffle`` statement reorders."""
    return {effect.shuffle[len("game."):] for effect in _statements(definition)
            if isinstance(effect.shuffle, str) and effect.shuffle.startswith("game.")}


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        if isinstance(data, dict):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data


# -- decisions, as the statements after them see them -------------------------------------------
@dataclass
class _Decision:
    """What the validator knows of one phase's decision."""

    phase: int
    name: str
    literals: set[str]
    names_players: bool   # some options are player names or list items (unknown until play)
    declared: bool        # options are declared in the file (not offered by a rules module)
    several: bool         # several players answer it (and none can close it for all)
    secret: bool          # who acts, or who is offered some option, is secret
    hides_actor: bool = True  # and so is who acted (False: one public player chooses among secret options)


# -- semantics ----------------------------------------------------------------------------------
class _Semantics:
    def __init__(self, source: Source, definition: GameDefinition, names: Iterable[str] | None,
                 schema: _Schema | None = None):
        self.source = source
        self.d = definition
        self.schema = schema
        self.stubs = schema.stubs if schema is not None else set()
        declaration = definition.declaration
        state = declaration.game_state
        self.dsl_only = state is not None
        typed = _typed_names(state or {})
        if names is None:
            self.names: dict[str, Any] | None = typed if state is not None else None
        else:
            self.names = {name: typed.get(name, ANY) for name in names}
        declared = declaration.player_states
        self.field_types: dict[str, Any] | None = None
        if declared:
            self.field_types = {name: FIELD_TYPES.get(str(spec.type).lower(), ANY) for name, spec in declared.items()}
            self.field_types["id"] = NUM
            self.field_types.setdefault("name", TEXT)
        self.fields = set(self.field_types) if self.field_types is not None else None
        self.hidden_fields = {name for name, spec in declared.items()
                              if spec.visibility not in (None, "public", True)}
        self.unseen_fields = {name: spec.visibility for name, spec in declared.items()
                              if spec.visibility in ("nobody", "others")}
        public = set(declaration.public_state or [])
        # a name no statement ever writes is a constant of the rules: everyone knows it
        written = _written_names(definition)
        self.hidden_names = {name for name in (state or {}) if name not in public and name in written} \
            if self.dsl_only else set()
        self.shuffled = _shuffled_names(definition)
        self.decisions: dict[int, _Decision] = {}
        self.before: dict[int, set[int | None]] = {}

    def problem(self, path: tuple[Any, ...], message: str, severity: str = "error") -> None:
        original = self.schema.original(path) if self.schema is not None else path
        if any(key[: len(original)] == original for key in self.source.bare_keys):
            message += " " + COMMA_HINT
        self.source.problem(original, message, severity)

    def set_aside(self, path: tuple[Any, ...]) -> bool:
        """Whether a schema error already made the validator set this part of the file aside."""
        if self.schema is None:
            return False
        original = self.schema.original(path)
        return any(p[: len(original)] == original for p in self.schema.pruned)

    def run(self) -> None:
        self.unknown_keys(self.d, ())
        self.player_tables()
        self.read_decisions()
        self.flow()
        self.expressions()
        self.extension()
        self.graph()

    # -- unknown keys -----------------------------------------------------
    def unknown_keys(self, model: BaseModel, path: tuple[Any, ...]) -> None:
        for key in (model.model_extra or {}):
            if not self._is_free_form(path):
                self.problem(path + (key,), f"unknown key {key!r} (ignored)", "warning")
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
                        self.problem(("declaration", key, inner, seat, name),
                                     f"field {name!r} is not declared in player_states")
        if declaration.min_players and declaration.max_players:
            if declaration.min_players > declaration.max_players:
                self.problem(("declaration", "max_players"), "max_players is smaller than min_players")

    # -- decisions and the flow between them -------------------------------------------------
    def read_decisions(self) -> None:
        for phase_id, phase in self.d.phases.items():
            criteria = phase.completion_criteria
            if phase_id in self.stubs or criteria.type == "UI_displayed":
                continue
            if criteria.type == "timer" and not criteria.options:
                continue
            entries = criteria.options or []
            literals = {e if isinstance(e, str) else e.option for e in entries
                        if isinstance(e, str) or e.option is not None}
            secret = bool(criteria.secret) or any(isinstance(e, OptionEntry) and e.secret for e in entries)
            if secret:
                literals.add(criteria.acknowledge or ACKNOWLEDGE)
            closable = any(isinstance(e, OptionEntry) and e.closes for e in entries)
            # a timer phase that the first answer ends (ends_early: any) is answered by one player
            first = criteria.type == "timer" and criteria.ends_early == "any"
            several = (criteria.type == "timer" or criteria.wait_for in ("all_players_action",
                                                                          "multiple_players_action")) \
                and not closable and not first
            single = first or criteria.type == "player_action" and criteria.wait_for == "single_player_choice"
            self.decisions[phase_id] = _Decision(
                phase_id, phase.name, {str(x) for x in literals},
                any(isinstance(e, OptionEntry) and (e.players is not None or e.items is not None) for e in entries),
                bool(entries), several, secret, hides_actor=bool(criteria.secret) or not single)

    def flow(self) -> None:
        """Which decision may have closed last when each phase begins (None: none yet)."""
        phases = self.d.phases
        if not phases:
            return
        first = min(phases)
        before: dict[int, set[int | None]] = {phase_id: set() for phase_id in phases}
        before[first] = {None}
        queue = deque([first])
        while queue:
            phase_id = queue.popleft()
            after = {phase_id} if phase_id in self.decisions else before[phase_id]
            for _, ref in branches(phases[phase_id]):
                if ref is None or ref.id is None or ref.id not in phases:
                    continue
                if not after <= before[ref.id]:
                    before[ref.id] |= after
                    queue.append(ref.id)
        self.before = before

    def context(self, phase_id: int, after_decision: bool) -> set[int | None]:
        """The decisions a statement (or ``when``) of this phase may read."""
        if after_decision and phase_id in self.decisions:
            return {phase_id}
        return self.before.get(phase_id, set())

    # -- expressions ------------------------------------------------------
    def compile(self, text: Any, path: tuple[Any, ...], *, condition: bool = False, names: Any = None,
                expect: Any = None) -> Expression | None:
        if isinstance(text, (int, float)) and not isinstance(text, bool) and not condition:
            return compile_expression(text)
        try:
            compiled = compile_expression(text, player_fields=self.field_types,
                                          names=self.names if names is None else names)
        except ExpressionError as exc:
            column = f" (column {exc.column})" if exc.column else ""
            self.problem(path, f"{exc.message}{column} in {text!r}")
            return None
        for message, column in compiled.problems:
            self.problem(path, f"{message} (column {column}) in {text!r}")
        if condition and base(compiled.type) not in (BOOL, ANY):
            self.problem(path, f"a condition must be true or false, not {describe(compiled.type)}, in {text!r}")
        if expect is not None and base(compiled.type) not in (expect, ANY, "null"):
            self.problem(path, f"must be {describe(expect)}, not {describe(compiled.type)}, in {text!r}")
        return compiled

    def decision_names(self, me: bool = False) -> dict[str, Any] | None:
        """Names statements, ``when`` and option conditions may use: game names plus the decision's."""
        if self.names is None:
            return None
        types = self.field_types or {}
        names = dict(self.names)
        extra: dict[str, Any] = {"choice": TEXT, "actor": PLAYER, "chosen": PLAYER, "picked": (LIST, NUM),
                                 "asked": NUM, "answer": TEXT}
        for scope in ("actor", "chosen") + (("me",) if me else ()):
            extra[scope] = PLAYER  # the whole record: a value is one of its fields (chosen.id)
            extra.update({f"{scope}.{f}": kind for f, kind in types.items()})
        for name, kind in extra.items():
            if name.split(".")[0] in NEWER_NAMES and name.split(".")[0] in self.names:
                continue  # a game name of the same spelling hides the built-in
            names[name] = kind
        return names

    def expressions(self) -> None:
        for name, group in self.d.declaration.audience_groups.items():
            self.compile(group.selection_criteria, ("declaration", "audience_groups", name, "selection_criteria"),
                         condition=True)
        for name, spec in self.d.declaration.player_states.items():
            if isinstance(spec.visibility, str) and spec.visibility not in ("public", "owner", "nobody", "others"):
                self.compile(spec.visibility, ("declaration", "player_states", name, "visibility"), condition=True)
        for phase_id, phase in self.d.phases.items():
            if phase_id in self.stubs:
                continue
            base_path = ("phases", phase_id)
            criteria = phase.completion_criteria
            where = base_path + ("completion_criteria",)
            if criteria.type == "player_action":
                if criteria.wait_for is None and not self.set_aside(where + ("wait_for",)):
                    self.problem(where, "a player_action phase needs wait_for")
                if criteria.target_players is None and not self.set_aside(where + ("target_players",)):
                    self.problem(where, "a player_action phase needs target_players")
            if criteria.target_players is not None:
                compiled = self.compile(criteria.target_players.condition, where + ("target_players", "condition"),
                                        condition=True)
                self.secret_warning(phase, compiled, where + ("target_players", "condition"), "who acts here")
                self.unseen_warning(criteria.target_players.condition, "player", where + ("target_players", "condition"),
                                    "being asked to act tells a player about it")
                if criteria.type == "player_action" and criteria.wait_for == "single_player_choice":
                    self.single_target(criteria.target_players.condition, compiled,
                                       where + ("target_players", "condition"))
            if criteria.type == "player_action" and phase.player_text \
                    and not any("createVotingPanel" in (action.tools or []) for action in phase.actions):
                self.problem(base_path + ("player_text",), "the question is shown by the voting panel: add "
                             "createVotingPanel to an action's tools, or players read 'Your choice'", "warning")
            for index, action in enumerate(phase.actions):
                if not action.tools and not action.effects:
                    self.problem(base_path + ("actions", index), "an action with no tools", "warning")
                self.action_text(action, base_path + ("actions", index))
                for number, effect in enumerate(action.effects or []):
                    self.effect(effect, base_path + ("actions", index, "effects", number), phase_id, False)
            for number, effect in enumerate(phase.effects or []):
                self.effect(effect, base_path + ("effects", number), phase_id, True)

    def action_text(self, action: Any, path: tuple[Any, ...]) -> None:
        """An action's player text with ``{…}`` values (a topic card) is one text for whoever the display
        reaches: it may read game names every seat sees, not a player's fields nor a hidden name."""
        if action.stays and "createTextDisplay" not in (action.tools or []):
            self.problem(path + ("stays",), "'stays' keeps a text display on the table: add createTextDisplay "
                                            "to the action's tools")
        if action.stays and not action.player_text:
            self.problem(path + ("stays",), "'stays' keeps the action's player text on the table: give it one")
        if not isinstance(action.player_text, str) or self.names is None:
            return
        for found in TEMPLATE.finditer(action.player_text):
            text = found.group(1).strip()
            compiled = self.compile(text, path + ("player_text",))
            if compiled is None:
                continue
            if compiled.player_fields or any(n[0] in ("player", "me", "players", "actor", "chosen")
                                             for n in compiled.names):
                self.problem(path + ("player_text",), f"a text display is one text for the table: it cannot read "
                                                      f"a player's fields, in {{{text}}}")
            hidden = [n[0] for n in compiled.names if n[0] in self.hidden_names]
            if hidden:
                self.problem(path + ("player_text",), f"{{{text}}} reads {', '.join(map(repr, dict.fromkeys(hidden)))}, "
                                                      "which players cannot see, and the text display shows it: "
                                                      "add it to public_state")

    def unseen_warning(self, text: Any, scope: str, path: tuple[Any, ...], why: str) -> None:
        """A ``nobody`` field (a card face down, unseen by its owner) read where its owner learns of it."""
        unseen = sorted(field for field in self.unseen_fields
                        if isinstance(text, str) and re.search(rf"\b{scope}\.{field}\b", text))
        if unseen:
            rule = self.unseen_fields[unseen[0]]
            who = "nobody, its owner included" if rule == "nobody" else "everyone but its owner"
            self.problem(path, f"{scope}.{unseen[0]} is seen by {who} (visibility: {rule}), "
                               f"but {why}", "warning")

    def single_target(self, text: Any, compiled: Expression | None, path: tuple[Any, ...]) -> None:
        """A single_player_choice whose condition reads nothing of `player` holds for every player or
        for none: at the table, several players are asked and the game stops (simulate names it)."""
        if compiled is None or compiled.player_fields or (self.d.declaration.max_players or 2) < 2:
            return
        tree = compiled.tree
        if text is True or tree is not None and tree.kind == "const" and tree.value is True:
            self.problem(path, "a single_player_choice asks one player, but this condition holds for every "
                               "player: name one (player.is_active == true)")
        else:
            self.problem(path, "a single_player_choice asks one player, but this condition does not read "
                               "player: it holds for every player or for none, never for one alone; name one "
                               "(player.is_active == true)", "warning")

    def secret_warning(self, phase: Phase, compiled: Expression | None, path: tuple[Any, ...], what: str,
                       option_secret: bool = False) -> None:
        """Warn when who acts (or who is offered what) depends on something others cannot see."""
        if compiled is None or phase.completion_criteria.secret is not None or option_secret:
            return
        hidden = sorted(compiled.player_fields & self.hidden_fields)
        hidden += sorted(".".join(n) for n in compiled.names
                         if n[0] == "me" and len(n) > 1 and n[1] in self.hidden_fields)
        hidden += sorted(n[0] for n in compiled.names if n[0] in self.hidden_names)
        if hidden:
            which = "the option (or the phase)" if "offered" in what else "the phase"
            self.problem(path, f"{what} depends on {', '.join(repr(h) for h in dict.fromkeys(hidden))}, which other "
                               f"players cannot see: declare {which} `secret: true` (or the phase `secret: false` "
                               "if this is public at this point)", "warning")

    def items_warning(self, compiled: Expression, path: tuple[Any, ...], how: str = "come from") -> None:
        """Warn when the items offered come from something others cannot see: a player left with
        one distinct item is answered by the engine at once, and everyone sees that."""
        hidden = [".".join(n[:2]) for n in compiled.names
                  if n[0] == "me" and len(n) > 1 and n[1] in self.hidden_fields]
        hidden += [n[0] for n in compiled.names if n[0] in self.hidden_names]
        if hidden:
            self.problem(path, f"the items offered {how} {', '.join(repr(h) for h in dict.fromkeys(hidden))}, "
                               "which other players cannot see: a player left with one distinct item is answered "
                               "at once, and everyone sees it; declare the option `secret: true` (then every "
                               "player asked presses their choice)", "warning")

    def order_warning(self, compiled: Expression, path: tuple[Any, ...]) -> None:
        """Warn when the items offered come from a list a ``shuffle`` reorders: options are offered
        in the list's order, so the chooser sees the secret order (a spy's guess from the shuffled
        locations would offer the secret one first)."""
        shuffled = [n[0] for n in compiled.names if n[0] in self.shuffled]
        if shuffled:
            name = shuffled[0]
            self.problem(path, f"the items offered come from {name!r}, which a shuffle reorders: they are offered "
                               "in that order, so the player sees it (its first item may be a secret); offer a "
                               f"list no shuffle touches (set: game.pile to: {name}, then shuffle: game.pile)",
                         "warning")

    # -- the declarative extension (see extensions.py) ---------------------
    def compile_decision(self, text: Any, path: tuple[Any, ...], context: set[int | None] | None = None,
                         *, condition: bool = False, expect: Any = None, me: bool = False,
                         names: Any = None) -> Expression | None:
        names = self.decision_names(me) if names is None else names
        compiled = self.compile(text, path, condition=condition, names=names, expect=expect)
        if compiled is not None and compiled.tree is not None and context is not None:
            self.reads_decision(compiled, path, context)
        return compiled

    def reads_decision(self, compiled: Expression, path: tuple[Any, ...], context: set[int | None]) -> None:
        """``choice``/``chosen``/``actor``/``picked`` after a decision several answer, and option texts
        compared with ``choice`` that the decision never offers."""
        used = {name[0] for name in compiled.names}
        single = {n for n in used & {"choice", "chosen", "actor", "picked"} if n not in (self.names or {})}
        if single:
            for phase_id in sorted(p for p in context if p is not None):
                decision = self.decisions[phase_id]
                if decision.several and decision.declared:
                    word = sorted(single)[0]
                    self.problem(path, f"{word!r} is null after phase {phase_id} ({decision.name!r}), which several "
                                       "players answer: use tally, most or answer instead")
                    break
            else:
                if "chosen" in single:
                    self.nobody_chosen(path, context)
        for text in _choice_literals(compiled.tree):
            for phase_id in sorted(p for p in context if p is not None):
                decision = self.decisions[phase_id]
                if decision.declared and not decision.names_players and text not in decision.literals:
                    self.problem(path, f"option {text!r} is tested but phase {phase_id} ({decision.name!r}) never "
                                       f"offers it (it offers {', '.join(sorted(decision.literals))})")

    def extension(self) -> None:
        declaration = self.d.declaration
        for name in declaration.game_state or {}:
            if name in DECISION_NAMES or name == "player":
                self.problem(("declaration", "game_state", name), f"{name!r} is a reserved name; choose another")
            elif name in NEWER_NAMES:
                self.problem(("declaration", "game_state", name),
                             f"{name!r} hides the built-in name {name!r} in expressions; choose another to use it",
                             "warning")
        for index, name in enumerate(declaration.public_state or []):
            if name not in (declaration.game_state or {}) or name == "players":
                self.problem(("declaration", "public_state", index),
                             f"{name!r} is not a name of declaration.game_state")
            elif name in self.shuffled:
                self.problem(("declaration", "public_state", index),
                             f"{name!r} is shuffled, and public: every seat sees the shuffled order (a deck's next "
                             f"cards, a secret taken from its top); shuffle a copy (set: game.pile to: {name}, "
                             "then shuffle: game.pile) or keep it off public_state", "warning")
        deal = declaration.role_deal
        if deal is not None:
            self.role_deal(deal)
        for phase_id, phase in self.d.phases.items():
            if phase_id in self.stubs:
                continue
            self.criteria(phase_id, phase)
            if isinstance(phase.next_phase, dict):
                self.routing(phase_id, phase)

    def criteria(self, phase_id: int, phase: Phase) -> None:
        base_path = ("phases", phase_id)
        where = base_path + ("completion_criteria",)
        criteria: CompletionCriteria = phase.completion_criteria
        entries = criteria.options or []
        literals = {e if isinstance(e, str) else e.option for e in entries}
        literals.discard(None)
        deciding = criteria.type == "player_action" or (criteria.type == "timer" and bool(entries))
        if criteria.type == "timer":
            if criteria.seconds is None:
                self.problem(where, "a timer phase needs 'seconds'")
            elif isinstance(criteria.seconds, str):  # read when the phase opens; every seat sees the countdown
                compiled = self.compile(criteria.seconds, where + ("seconds",), expect=NUM)
                hidden = [n[0] for n in compiled.names if n[0] in self.hidden_names] if compiled else []
                if compiled is not None and (compiled.player_fields or any(n[0] in ("player", "me") for n in compiled.names)):
                    self.problem(where + ("seconds",), f"'seconds' is read once for the whole table: it cannot "
                                                       f"read a player's fields, in {criteria.seconds!r}")
                elif hidden:
                    self.problem(where + ("seconds",), f"'seconds' reads {', '.join(map(repr, dict.fromkeys(hidden)))}, "
                                                       "which players cannot see, and every seat sees the countdown: "
                                                       "add it to public_state", "warning")
            if entries and criteria.target_players is None:
                self.problem(where + ("options",), "a timer phase with options needs target_players (who may end it early)")
            if criteria.wait_for is not None:
                self.problem(where + ("wait_for",), "'wait_for' belongs to a player_action phase: a timer phase "
                                                    "ends before its time as 'ends_early' says")
            if criteria.clock is not None:  # a game name, never a player's: every seat sees the clock
                self.compile(criteria.clock, where + ("clock",))
        else:
            if criteria.ends_early is not None:
                self.problem(where + ("ends_early",), "'ends_early' belongs to a timer phase")
            if criteria.clock is not None:
                self.problem(where + ("clock",), "'clock' belongs to a timer phase")
            if criteria.seconds is not None:
                self.problem(where + ("seconds",), "'seconds' belongs to a timer phase: a decision's time is the "
                                                   "table's turn_timer or window_timer (a room option)", "warning")
        if criteria.default is not None and criteria.default not in literals:
            self.problem(where + ("default",), f"default {criteria.default!r} is not one of this phase's literal options")
        for key in ("record", "joint", "secret", "cover", "acknowledge"):
            if getattr(criteria, key) is not None and not deciding:
                self.problem(where + (key,), f"{key!r} belongs to a phase where players choose")
        if criteria.record is not None:
            self.written_field(criteria.record, where + ("record",))
        if criteria.joint is not None:
            self.compile(criteria.joint, where + ("joint",), condition=True)
        for key in ("cover", "acknowledge"):
            if getattr(criteria, key) is not None and not criteria.secret:
                self.problem(where + (key,), f"{key!r} goes with 'secret: true'")
        if criteria.cover is not None:
            self.compile(criteria.cover, where + ("cover",), condition=True)
        if criteria.acknowledge is not None and criteria.acknowledge in literals:
            self.problem(where + ("acknowledge",), f"{criteria.acknowledge!r} is also an option of this phase: "
                                                    "choose another word for those who do not act")
        context = self.context(phase_id, False)
        for number, entry in enumerate(entries):
            path = where + ("options", number)
            if not deciding:
                self.problem(path, "options belong to a player_action phase")
            if not isinstance(entry, OptionEntry):
                continue
            if entry.players is not None:
                compiled = self.compile_decision(entry.players, path + ("players",), context, condition=True, me=True)
                if compiled is not None:
                    me_hidden = [n for n in compiled.names if n[0] == "me" and len(n) > 1 and n[1] in self.hidden_fields]
                    if me_hidden:
                        self.secret_warning(phase, compiled, path + ("players",), "which players are offered",
                                            entry.secret)
            if entry.if_ is not None:
                compiled = self.compile_decision(entry.if_, path + ("if",), context, condition=True, me=True)
                self.secret_warning(phase, compiled, path + ("if",),
                                    f"who is offered {entry.option or 'these players'!r}", entry.secret)
            for key in ("players", "if", "items", "where"):
                self.unseen_warning(getattr(entry, ALIASES.get(key, key)), "me", path + (key,),
                                    "the options a player is offered tell them about it")
            if entry.choose is not None:
                self.compile_decision(entry.choose, path + ("choose",), context, expect=NUM, me=True)
            if entry.items is not None:
                compiled = self.compile_decision(entry.items, path + ("items",), context, expect=LIST, me=True)
                if compiled is not None and not entry.secret and phase.completion_criteria.secret is None:
                    self.items_warning(compiled, path + ("items",))
                if compiled is not None:
                    self.order_warning(compiled, path + ("items",))
                if entry.where is not None:
                    self.items_where(phase, entry, compiled, path, context)

    def items_where(self, phase: Phase, entry: OptionEntry, items: Expression | None, path: tuple[Any, ...],
                    context: set[int | None] | None) -> None:
        """``where`` on ``items``: a condition over ``item`` (each item, typed as the list's) and ``me``."""
        names = self.decision_names(True)
        if names is not None and "item" not in (self.names or {}):  # a game name `item` hides it
            names = {**names, "item": item_type(items.type) if items is not None else ANY}
        compiled = self.compile_decision(entry.where, path + ("where",), context, condition=True,
                                         names=names)
        if compiled is not None and not entry.secret and phase.completion_criteria.secret is None:
            self.items_warning(compiled, path + ("where",), "depend on")

    def routing(self, phase_id: int, phase: Phase) -> None:
        base_path = ("phases", phase_id)
        entries = list(phase.next_phase.items())  # type: ignore[union-attr]
        guarded = [ref.when is not None for _, ref in entries]
        context = self.context(phase_id, True)
        compiled_whens = []
        for index, (condition, ref) in enumerate(entries):
            if ref.when is not None:
                compiled_whens.append(self.compile_decision(ref.when, base_path + ("next_phase", condition, "when"),
                                                            context, condition=True))
            elif any(guarded) and index < len(entries) - 1:
                self.problem(base_path + ("next_phase", condition),
                             "every branch but the last needs 'when' once one has it")
        if all(guarded) and entries and not self.exhaustive(compiled_whens, context):
            last = entries[-1][0]
            self.problem(base_path + ("next_phase", last, "when"),
                         "the 'when' chain can fall through (when none holds, no branch is taken): "
                         "give the last branch no 'when', so it is the fallback")

    def exhaustive(self, whens: list[Expression | None], context: set[int | None]) -> bool:
        """True when the ``when`` conditions surely cover every case: one is ``true``, or together
        they test ``choice`` against every option of every decision that may have closed."""
        if any(w is None for w in whens):
            return True  # already reported
        if any(w.tree is not None and w.tree.kind == "const" and w.tree.value is True for w in whens):
            return True
        tested: set[str] = set()
        for compiled in whens:
            tree = compiled.tree
            if tree is None or not _is_choice_test(tree):
                return False
            tested |= set(_choice_literals(tree))
        decisions = [self.decisions.get(p) for p in context if p is not None]
        if not decisions or any(d is None or not d.declared or d.names_players or d.several for d in decisions):
            return False
        return all(d.literals <= tested for d in decisions if d is not None)

    def role_deal(self, deal: RoleDeal) -> None:
        declaration = self.d.declaration
        path = ("declaration", "role_deal")
        if deal.field == "id":
            self.written_field(deal.field, path + ("field",))
        elif self.fields is not None and deal.field not in self.fields:
            self.problem(path + ("field",), f"player field {deal.field!r} is not declared in player_states")
        known = {role.name for role in declaration.roles}
        rest = [name for name, spec in deal.roles.items() if spec.rest]
        if len(rest) != 1:
            self.problem(path + ("roles",), "exactly one role needs 'rest: true' (it takes the other seats)")
        low = declaration.min_players or 1
        high = declaration.max_players
        for name, spec in deal.roles.items():
            where = path + ("roles", name)
            if known and name not in known:
                self.problem(where, f"role {name!r} is not declared in roles")
            for field_name in spec.fields:
                if field_name == "id":
                    self.written_field(field_name, where + ("fields", field_name))
                elif self.fields is not None and field_name not in self.fields:
                    self.problem(where + ("fields", field_name),
                                 f"player field {field_name!r} is not declared in player_states")
            if spec.rest:
                continue
            if spec.counts is None:
                self.problem(where, "a role needs 'counts' or 'rest: true'")
                continue
            if high is None:
                self.problem(("declaration",), "a role_deal needs max_players")
                continue
            for players in range(low, high + 1):
                if players not in spec.counts:
                    self.problem(where + ("counts",), f"no count for {players} players")
        if high is not None:
            for players in range(low, high + 1):
                dealt = sum((spec.counts or {}).get(players, 0) for spec in deal.roles.values() if not spec.rest)
                if dealt > players:
                    self.problem(path + ("roles",), f"{dealt} roles dealt to {players} players")

    def game_target(self, text: str | None, path: tuple[Any, ...]) -> Any:
        """Check ``game.<name>``; returns the name's type."""
        if text is None:
            return ANY
        scope, _, name = text.partition(".")
        if scope != "game" or not name:
            self.problem(path, f"{text!r} must be game.<name>")
        elif self.names is not None and name not in self.names:
            self.problem(path, f"game name {name!r} is not declared in declaration.game_state")
        else:
            return (self.names or {}).get(name, ANY)
        return ANY

    def audience(self, to: Any, path: tuple[Any, ...]) -> None:
        if to is None or to in ("owner", "actor", "everyone", "others"):
            return
        if not isinstance(to, str) or to not in self.d.declaration.audience_groups:
            self.problem(path, f"cannot show to {to!r}: write owner, actor, others, everyone or an audience group")

    def written_field(self, name: str, path: tuple[Any, ...]) -> Any:
        """A player field a statement writes: declared, and not ``id``, which the engine gives (seat + 1)
        and the generated seat filters rely on (``player.id == X`` looks at seat X - 1 only)."""
        if name.split(".")[0] == "id":
            self.problem(path, "player field 'id' is the engine's (1, 2, ... in seat order): it cannot be written")
            return NUM
        return self.player_field(name, path)

    def player_field(self, name: str, path: tuple[Any, ...]) -> Any:
        head = name.split(".")[0]
        if self.fields is not None and head not in self.fields:
            self.problem(path, f"player field {head!r} is not declared in player_states")
            return ANY
        return (self.field_types or {}).get(head, ANY) if "." not in name else ANY

    def effect(self, effect: Effect, path: tuple[Any, ...], phase_id: int, after: bool) -> None:
        statement = effect.statement
        context = self.context(phase_id, after)

        def decision_expr(text: Any, where: tuple[Any, ...], **kwargs: Any) -> Expression | None:
            return self.compile_decision(text, where, context, **kwargs)

        if statement == "set":
            assert effect.set is not None
            scope, _, name = effect.set.partition(".")
            target = ANY
            if scope not in ("game", "actor", "chosen", "players") or not name:
                self.problem(path + ("set",), f"cannot set {effect.set!r}: write game.<name>, actor.<field>, "
                                              "chosen.<field> or players.<field>")
            elif scope == "game":
                target = self.game_target(effect.set, path + ("set",))
            else:
                target = self.written_field(name, path + ("set",))
                if scope in ("actor", "chosen"):
                    self.single_answer(scope, path + ("set",), context)
            if effect.where is not None and scope != "players":
                self.problem(path + ("where",), "'where' goes with players.<field>")
            compiled = decision_expr(effect.to, path + ("to",))
            if compiled is not None and base(compiled.type) == PLAYER:
                self.problem(path + ("to",), f"{effect.to!r} is a whole player, hidden fields and all: keep one of "
                                             f"its fields ({effect.to}.id)")
            elif compiled is not None and base(target) not in (ANY,) and base(compiled.type) not in (ANY, "null") \
                    and base(compiled.type) != base(target):
                self.problem(path + ("to",), f"{effect.set} holds {describe(target)}, but this is "
                                             f"{describe(compiled.type)}: {effect.to!r}")
        elif statement == "count":
            decision_expr(effect.count, path + ("count",), condition=True)
            self.game_target(effect.into, path + ("into",))
        elif statement == "tally":
            self.game_target(effect.into, path + ("into",))
            self.game_target(effect.majority, path + ("majority",))
            self.game_target(effect.unanimous, path + ("unanimous",))
            self.tallied(str(effect.tally), path + ("tally",), context)
        elif statement == "most":
            decision_expr(effect.most, path + ("most",))
            self.game_target(effect.into, path + ("into",))
        elif statement == "advance":
            assert effect.advance is not None
            self.written_field(effect.advance, path + ("advance",))
            self.game_target(effect.rounds, path + ("rounds",))
        elif statement == "shuffle":
            kind = self.game_target(effect.shuffle, path + ("shuffle",))
            if base(kind) not in (LIST, ANY):
                self.problem(path + ("shuffle",), f"{effect.shuffle} is {describe(kind)}: only a list can be shuffled")
        elif statement == "roll":
            assert effect.roll is not None
            scope, _, name = effect.roll.partition(".")
            target = ANY
            if scope not in ("game", "players") or not name:
                self.problem(path + ("roll",), f"cannot roll into {effect.roll!r}: write players.<field> or game.<name>")
            elif scope == "game":
                target = self.game_target(effect.roll, path + ("roll",))
            else:
                target = self.written_field(name, path + ("roll",))
            if effect.where is not None and scope != "players":
                self.problem(path + ("where",), "'where' goes with players.<field>")
            wanted = LIST if effect.dice is not None else NUM
            if base(target) not in (ANY, "null") and base(target) != wanted:
                self.problem(path + ("roll",), f"{effect.roll} holds {describe(target)}, but a roll "
                                               + ("with 'dice' is a list of numbers" if effect.dice is not None
                                                  else "without 'dice' is one number (add dice: N for a list)"))
            for key, text in (("dice", effect.dice), ("sides", effect.sides)):
                if text is None:
                    continue
                if isinstance(text, bool) or (isinstance(text, (int, float)) and (text < (1 if key == "sides" else 0)
                                                                                  or text != int(text))):
                    self.problem(path + (key,), f"{key} must be a whole number{' of faces, 1 or more' if key == 'sides' else ' of dice, 0 or more'}, "
                                                f"not {text!r}")
                    continue
                compiled = decision_expr(text, path + (key,))
                if compiled is not None and base(compiled.type) not in (ANY, NUM, "null"):
                    self.problem(path + (key,), f"{key} must be a number, but this is {describe(compiled.type)}: {text!r}")
        elif statement == "deal":
            if self.d.declaration.role_deal is None:
                self.problem(path + ("deal",), "'deal: roles' needs declaration.role_deal")
        elif statement == "show":
            fields = [effect.show] if isinstance(effect.show, str) else list(effect.show or [])
            for name in fields:
                self.player_field(name, path + ("show",))
            self.audience(effect.to, path + ("to",))
            if effect.except_self and effect.to == "owner":
                self.problem(path + ("except_self",), "with 'to: owner', except_self leaves nobody to show it to")
        elif statement == "say":
            assert effect.say is not None
            secret_reads, reads_player = [], False
            # a banner's title is part of the line: its {…} are read as the line's are
            texts = [(effect.say, path + ("say",))]
            if effect.banner is not None:
                texts.append((effect.banner.title, path + ("banner", "title")))
            for expression, where_found in ((e, at) for text, at in texts for e in TEMPLATE.findall(text)):
                compiled = decision_expr(expression.strip(), where_found)
                if compiled is not None and base(compiled.type) == PLAYER:
                    self.problem(where_found, f"{{{expression.strip()}}} is a whole player, hidden fields and "
                                              f"all: name one field ({{{expression.strip()}.name}})")
                if compiled is not None:
                    secret_reads += [n[0] for n in compiled.names if n[0] in ("actor", "chosen", "choice")]
                    reads_player = reads_player or bool(compiled.player_fields)
            if reads_player and effect.where is None:
                # a line per player needs `where`; without it `player` is the last chooser (null at the start)
                self.problem(path + ("say",), "without 'where', player here is the player who answered last "
                                              "(actor), so this is one line, empty when nobody has answered: add "
                                              "`where:` for one line per matching player, or write actor.<field>",
                             "warning")
            self.audience(effect.to, path + ("to",))
            if secret_reads and effect.to in (None, "everyone", "others") and effect.where is None:
                for phase in sorted(p for p in context if p is not None):
                    decision = self.decisions[phase]
                    if decision.secret and decision.hides_actor:
                        self.problem(path + ("say",), f"everyone reads this line, and it names who acted in phase "
                                                      f"{phase} ({decision.name!r}), where who acts is secret",
                                     "warning")
                        break
                    if decision.secret and {"choice", "chosen"} & set(secret_reads):
                        # one public player chose among secret options: naming them is fine, the choice is
                        # not, unless the rules show it (a card played face up): an explicit `to: everyone`
                        if effect.to == "everyone":
                            break
                        self.problem(path + ("say",), f"everyone reads this line, and it names the choice made "
                                                      f"among secret options in phase {phase} ({decision.name!r}); "
                                                      "if the rules show it to all (a card played face up), "
                                                      "write `to: everyone`", "warning")
                        break
        elif statement == "win":
            decision_expr(effect.win, path + ("win",), condition=True)
        elif statement == "if":
            decision_expr(effect.if_, path + ("if",), condition=True)
            for key, inner in (("then", effect.then), ("else", effect.else_)):
                for number, nested in enumerate(inner or []):
                    self.effect(nested, path + (key, number), phase_id, after)
        if effect.where is not None:
            decision_expr(effect.where, path + ("where",), condition=True)

    def single_answer(self, scope: str, path: tuple[Any, ...], context: set[int | None]) -> None:
        for phase_id in sorted(p for p in context if p is not None):
            decision = self.decisions[phase_id]
            if decision.several and decision.declared:
                self.problem(path, f"{scope!r} is null after phase {phase_id} ({decision.name!r}), which several "
                                   "players answer: use players.<field> with 'where' instead")
                return
        if scope == "chosen":
            self.nobody_chosen(path, context)

    def nobody_chosen(self, path: tuple[Any, ...], context: set[int | None]) -> None:
        """``chosen`` where every decision that may have closed last offers literal options only (no
        ``players:`` or ``items:`` entry): it is null there (a `say` reads it empty, a `set` stops
        the game)."""
        phases = sorted(p for p in context if p is not None)
        if not context or any(self.decisions[p].names_players or not self.decisions[p].declared for p in phases):
            return
        if phases:
            first = self.decisions[phases[0]]
            self.problem(path, f"'chosen' is null after phase {first.phase} ({first.name!r}), whose options name "
                               "no player (chosen is the player an option made with players: names): keep the "
                               "player in a game name (set: game.target to: chosen.id) when they are chosen")
        else:
            self.problem(path, "'chosen' is null here: no decision comes before")

    def tallied(self, option: str, path: tuple[Any, ...], context: set[int | None]) -> None:
        decisions = [p for p in context if p is not None]
        if not decisions:
            self.problem(path, "'tally' counts the answers of the decision that just closed, but no decision "
                               "comes before this statement")
            return
        for phase_id in sorted(decisions):
            decision = self.decisions[phase_id]
            if decision.declared and not decision.names_players and option not in decision.literals:
                self.problem(path, f"option {option!r} is tallied but phase {phase_id} ({decision.name!r}) never "
                                   f"offers it (it offers {', '.join(sorted(decision.literals))})")

    # -- phase graph ------------------------------------------------------
    def graph(self) -> None:
        phases = self.d.phases
        if not phases:
            self.problem(("phases",), "there are no phases")
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
                    self.problem(path, f"phase {ref.id} does not exist")
                    continue
                edges[phase_id].append(ref.id)
                target = phases[ref.id]
                if ref.name is not None and ref.name.strip() != target.name.strip() and ref.id not in self.stubs:
                    self.problem(path, f"names phase {ref.id} {ref.name!r} but that phase is {target.name!r}",
                                 "warning")
        first = min(phases)
        reached = reachable(first, edges)
        for phase_id in phases:
            if phase_id not in reached:
                self.problem(("phases", phase_id), f"phase {phase_id} is not reachable from phase {first}")
        if not terminal:
            self.problem(("phases",), "no phase ends the game (next_phase: null)")
        elif not terminal & reached:
            self.problem(("phases",), "no phase that ends the game is reachable")


def _typed_names(state: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Dotted game-level names with the type of their initial value."""
    names: dict[str, Any] = {}
    for key, value in state.items():
        name = f"{prefix}{key}"
        names[name] = type_of_value(value)
        if isinstance(value, dict) and all(isinstance(k, str) for k in value):
            names.update(_typed_names(value, name + "."))
    return names


def _choice_literals(tree: Node | None) -> list[str]:
    """Text constants compared with ``choice`` (``choice == 'X'``, ``choice in ['X', 'Y']``)."""
    found: list[str] = []
    if tree is None:
        return found
    for node in tree.walk():
        if node.kind != "compare":
            continue
        left, right = node.items
        sides = [(left, right), (right, left)] if node.op in ("==", "!=") else [(left, right)]
        for name, other in sides:
            if name.kind == "name" and name.path == ("choice",):
                if other.kind == "const" and isinstance(other.value, str):
                    found.append(other.value)
                elif other.kind == "list" and node.op in ("in", "not in"):
                    found += [item.value for item in other.items if item.kind == "const" and isinstance(item.value, str)]
    return found


def _is_choice_test(tree: Node) -> bool:
    """``choice == 'X'``, ``choice in [...]`` or an ``or`` of such tests."""
    if tree.kind == "or":
        return all(_is_choice_test(item) for item in tree.items)
    return tree.kind == "compare" and tree.op in ("==", "in") and any(
        item.kind == "name" and item.path == ("choice",) for item in tree.items)


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


__all__ = ["Checked", "branches", "leaf_names", "reachable", "validate_file", "validate_source", "validate_text",
           "BUILTIN_NAMES"]
