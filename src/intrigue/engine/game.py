"""A loaded game: its validated DSL, its compiled expressions and its bindings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from ..dsl import Checked, Expression, compile_expression, validate_file
from ..dsl.extensions import ACKNOWLEDGE, NEWER_NAMES, OptionEntry
from ..dsl.model import GameDefinition, Phase
from ..dsl.validate import branches
from .binding import GameBinding
from .errors import BindingError
from .ui import GENERIC_TOOLS

if TYPE_CHECKING:  # pragma: no cover
    from .match import Match


@dataclass
class PhasePlan:
    """A phase flattened for the machine: its steps in order, each a tool name (or ``None`` for an
    action's statements, compiled into a program), and what its decision declares."""

    phase: Phase
    deciding: bool
    wait_for: str
    steps: list[tuple[str | None, str | None, Any]]
    fixed_next: int | None
    conditional: bool
    effects: Any = None            # the phase's statements, compiled (run once it completes)
    #: A timer phase: how long it waits (seconds), or the expression giving it when the phase opens.
    seconds: float | Expression | None = None
    record: str | None = None      # the player field receiving each answer
    secret: bool = False           # who acts is secret (the phase, or one of its options, says so)
    cover: Expression | None = None
    acknowledge: str = ACKNOWLEDGE
    joint: Expression | None = None
    options: Any = None            # the declared options, compiled
    #: The steps a headless match runs: ``steps`` without the display-only tools (they build UI only).
    headless_steps: list[tuple[str | None, str | None, Any]] = field(default_factory=list)
    #: The router the binding had at load (a declarative one) and the generated function run in its place.
    declared_router: Callable[["Match"], int | None] | None = None
    router: Callable[["Match"], int | None] | None = None
    allowed: frozenset[int | None] = frozenset()  # the phases a conditional next_phase may name
    select: Callable[["Match"], list[int]] | None = None  # who acts: the compiled target condition
    #: The target condition (none for a phase without one, or a ``UI_displayed`` phase: nobody acts).
    condition: Expression | None = None
    phase_id: Any = None
    #: One pass of the phase loop over this phase, generated (``compiled.phase_runner_source``), with its
    #: UI and headless.
    run: Callable[..., Any] | None = None
    run_headless: Callable[..., Any] | None = None
    passes: int = 1  # the phases its runner runs when none decides (it and the chain it enters)
    #: A timer phase's ``clock``: the expression whose value names the clock its ``seconds`` are shared on.
    clock: Expression | None = None

    def bind(self, display: set[str], declared: Callable[["Match"], int | None] | None,
             compiled: Callable[["Match"], int | None] | None) -> None:
        """What the game knows once loaded: the display-only tools (no step at all in a headless
        match; the others are looked up by name as they run, so a test may replace one), and a
        generated router standing in for the declarative one the binding holds."""
        self.headless_steps = [step for step in self.steps if step[0] is None or step[0] not in display]
        if self.conditional:
            assert isinstance(self.phase.next_phase, dict)
            self.declared_router, self.router = declared, compiled
            self.allowed = frozenset(ref.id for ref in self.phase.next_phase.values())


def plan(phase: Phase, phase_id: int = 0, where: Callable[[tuple[Any, ...]], str] | None = None) -> PhasePlan:
    """Each step is (tool name or None, the action's description, its compiled statements)."""
    from .declarative import Program, compile_options  # noqa: PLC0415 - statements compile against the engine

    steps: list[tuple[str | None, str | None, Any]] = []
    for index, action in enumerate(phase.actions):
        steps += [(tool, action.description, None) for tool in action.tools]
        if action.effects:
            steps.append((None, action.description,
                          Program(action.effects, ("phases", phase_id, "actions", index, "effects"), where)))
    nxt = phase.next_phase
    conditional = isinstance(nxt, dict)
    fixed = None if conditional or nxt is None else nxt.id
    criteria = phase.completion_criteria
    timed = criteria.type == "timer"
    secret = bool(criteria.secret) or any(isinstance(entry, OptionEntry) and entry.secret
                                          for entry in criteria.options or [])
    cover = None
    if secret and criteria.secret:
        cover = compile_expression(criteria.cover if criteria.cover is not None else "player.is_alive != false")
    joint = None
    if criteria.joint is not None and criteria.joint is not False:
        joint = compile_expression(criteria.joint)
    effects = Program(phase.effects, ("phases", phase_id, "effects"), where) if phase.effects else None
    made = PhasePlan(phase, criteria.type == "player_action" or timed, criteria.wait_for or "", steps, fixed,
                     conditional, effects, _seconds(criteria.seconds) if timed else None, criteria.record, secret,
                     cover, criteria.acknowledge or ACKNOWLEDGE, joint, compile_options(criteria.options))
    if timed and criteria.clock is not None:
        made.clock = compile_expression(criteria.clock)
    return made


@dataclass
class Game:
    """The immutable part of every match of one game."""

    binding: GameBinding
    definition: GameDefinition
    checked: Checked
    conditions: dict[int, Expression] = field(default_factory=dict)
    groups: dict[str, Expression] = field(default_factory=dict)
    tools: dict[str, Callable[["Match"], None]] = field(default_factory=dict)
    first_phase: int = 0
    headless_tools: dict[str, Callable[["Match"], None]] = field(default_factory=dict)
    plans: dict[int, PhasePlan] = field(default_factory=dict)
    #: Newer built-in names (``picked``, ``answer``...) that a game-level name of the same spelling hides.
    shadowed: frozenset[str] = frozenset()
    compiled: Any = None  # the generated functions (compiled.CompiledGame)
    #: What makes a new player (``make(name, id)``: its declared fields) and a copy of the game's declared
    #: state (``make()``; ``binding.state``, never changed once loaded), sharing nothing: made by the first
    #: match (generated functions returning a literal, see ``match._blank_maker``).
    blank_player: Callable[[str, int], dict[str, Any]] | None = None
    blank_state: Callable[[], dict[str, Any]] | None = None

    def where(self, path: tuple[Any, ...]) -> str:
        """``file:line`` of a key path of the game's DSL file."""
        return f"{self.checked.source.file}:{self.checked.source.line_of(path)}"

    @property
    def id(self) -> str:
        return self.binding.id

    @property
    def title(self) -> str:
        return self.binding.title

    @property
    def min_players(self) -> int:
        return self.binding.min_players or self.definition.declaration.min_players or 2

    @property
    def max_players(self) -> int:
        return self.binding.max_players or self.definition.declaration.max_players or 10

    @property
    def phases(self) -> dict[int, Phase]:
        return self.definition.phases

    def in_group(self, match: "Match", group: str, seat: int) -> bool:
        expression = self.groups.get(group)
        if expression is None:
            return False
        return bool(expression(match.scope(seat)))

    def option_defaults(self) -> dict[str, Any]:
        return dict(self.binding.options)

    def option_words(self) -> frozenset[str]:
        """The literal options the phases declare (``Pass``, ``No one``). A player named one of them
        would make the option naming that player read the same as it, so the lobby keeps names apart."""
        return frozenset(entry.option for plan in self.plans.values() for entry in (plan.options or ())
                         if getattr(entry, "option", None) is not None)


def _seconds(seconds: float | str | None) -> float | Expression:
    """A timer phase's length: a number, or its expression compiled (read when the phase opens)."""
    return compile_expression(seconds) if isinstance(seconds, str) else float(seconds or 0.0)


def load(binding: GameBinding) -> Game:
    """Validate the DSL against the binding; every problem is reported at once."""
    from .compiled import CompiledGame  # noqa: PLC0415
    from .declarative import DECLARATIVE_TOOLS, declarative_router  # noqa: PLC0415

    checked = _validate(binding)
    if not checked.ok:
        raise BindingError("\n".join(str(p) for p in checked.errors))
    definition = checked.definition
    assert definition is not None
    problems: list[str] = []
    tools: dict[str, Callable[["Match"], None]] = {}
    for phase_id, phase in definition.phases.items():
        for action in phase.actions:
            for name in action.tools:
                function = binding.tools.get(name) or GENERIC_TOOLS.get(name) or DECLARATIVE_TOOLS.get(name)
                if function is None:
                    problems.append(f"phase {phase_id} ({phase.name}): tool {name!r} is not bound")
                else:
                    tools[name] = function
        refs = branches(phase)
        conditional = isinstance(phase.next_phase, dict)
        if conditional and phase_id not in binding.routers:
            if all(ref is not None and ref.when is not None for _, ref in refs[:-1]):
                binding.routers[phase_id] = declarative_router(phase_id)
            else:
                problems.append(f"phase {phase_id} ({phase.name}): conditional next_phase has no router")
    for phase_id in binding.routers:
        if phase_id not in definition.phases:
            problems.append(f"router for phase {phase_id}, which the DSL does not have")
    if problems:
        raise BindingError(f"{binding.id}: " + "; ".join(problems))
    fields = set(definition.declaration.player_states) | {"id"}
    names = binding.state_names
    conditions = {
        phase_id: compile_expression(phase.completion_criteria.target_players.condition,
                                     player_fields=fields, names=names)
        for phase_id, phase in definition.phases.items()
        if phase.completion_criteria.target_players is not None
    }
    groups = {
        name: compile_expression(group.selection_criteria, player_fields=fields, names=names)
        for name, group in definition.declaration.audience_groups.items()
    }
    display = binding.display_tools | {name for name in GENERIC_TOOLS if name not in binding.tools}
    headless = {name: (_skip if name in display else fn) for name, fn in tools.items()}
    game = Game(binding, definition, checked, conditions, groups, tools, min(definition.phases), headless, {},
                frozenset(name for name in binding.state if name in NEWER_NAMES))
    game.plans = {phase_id: plan(phase, phase_id, game.where) for phase_id, phase in definition.phases.items()}
    game.compiled = CompiledGame(game)
    for phase_id, phase_plan in game.plans.items():
        phase_plan.bind(display, binding.routers.get(phase_id), game.compiled.routers.get(phase_id))
        phase_plan.select = game.compiled.targets.get(phase_id)
        if phase_plan.phase.completion_criteria.type != "UI_displayed":
            phase_plan.condition = conditions.get(phase_id)
    game.compiled.add_runners(game)
    return game


def _validate(binding: GameBinding) -> Checked:
    """The game's DSL file, with its extension files merged onto it (``dsl/overlay.py``)."""
    if binding.extensions:
        from ..dsl.overlay import validate_extended  # noqa: PLC0415

        return validate_extended(binding.dsl_path, binding.extension_paths, names=binding.state_names)
    return validate_file(binding.dsl_path, names=binding.state_names)


def _skip(match: "Match") -> None:
    """A display-only tool in a headless match."""
