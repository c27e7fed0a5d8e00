"""How a game's rules module attaches behaviour to its DSL file.

A rules module creates one :class:`GameBinding` and decorates plain functions::

    game = GameBinding("coup", title="Coup", dsl="coup.yaml", state={...})

    @game.tool
    def apply_action_effects(m): ...          # named after the DSL tool

    @game.route(4)
    def after_action_challenge_window(m): ... # returns one of the ids phase 4 lists

    @game.observer
    def observe(m, seat): ...                 # what that seat may see of the state

Tools run in the order the DSL lists them. In a ``player_action`` phase, the tool
that calls ``m.offer(...)`` opens the decision; the tools after it run once the
decision is answered. The DSL's generic UI tools (``createTextDisplay``, ...) are
provided by the engine's UI kit unless the module defines its own.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..dsl.validate import leaf_names

if TYPE_CHECKING:  # pragma: no cover
    from .match import Match

Tool = Callable[["Match"], None]
Router = Callable[["Match"], int]



@dataclass
class Expectation:
    """A scenario ``expect`` key: read the true value from a match."""

    read: Callable[..., Any]
    per_player: bool
    ordered: bool = False


@dataclass
class GameBinding:
    """Everything a game adds to its DSL file. See the module docstring."""

    id: str
    title: str
    dsl: str | Path
    state: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    #: For options with a fixed set of values: the values (the lobby offers them as a list).
    option_choices: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    min_players: int | None = None
    max_players: int | None = None
    summary: str = ""
    module_file: str | None = None
    tools: dict[str, Tool] = field(default_factory=dict)
    display_tools: set[str] = field(default_factory=set)
    routers: dict[int, Router] = field(default_factory=dict)
    observe: Callable[["Match", int | None], dict[str, Any]] | None = None
    #: ``observe`` for several seats at once (the same states, what they share built once); optional.
    observe_seats: Callable[["Match", list[int | None]], list[dict[str, Any]]] | None = None
    timeout_choice: Callable[["Match", int, list[str]], str] | None = None
    #: Phase id -> ``"turn"`` or ``"window"``: which of the table's timers the phase's decisions run,
    #: where the engine's rule (engine/timing.py: ``Pass`` offered makes a window) reads the phase wrong.
    timers: dict[int, str] = field(default_factory=dict)
    setup_check: Callable[[dict[str, Any], int], list[str]] | None = None
    expectations: dict[str, Expectation] = field(default_factory=dict)
    result: Callable[["Match"], dict[str, Any]] | None = None
    active_seat: Callable[["Match"], int | None] | None = None
    secrets: Callable[["Match", int | None], set[str]] | None = None
    determinize: Callable[..., "Match"] | None = None
    reads: Callable[[dict[str, Any]], dict[int, float]] | None = None
    explain: Callable[..., tuple[str, dict[str, Any]] | None] | None = None
    actions: Callable[[int], list[str]] | None = None
    label: Callable[[list[str], int, str], str] | None = None
    option_check: Callable[[dict[str, Any], int], list[str]] | None = None
    extensions: tuple[str | Path, ...] = ()  # extension files merged onto the DSL file (dsl/overlay.py)

    def __post_init__(self) -> None:
        if self.module_file is None:  # the rules module that created us
            frame = inspect.currentframe()
            while frame is not None and (frame.f_code.co_filename in (__file__, "<string>")
                                         or frame.f_code.co_filename.startswith("<")):
                frame = frame.f_back
            self.module_file = frame.f_code.co_filename if frame else None

    # -- where the DSL file is ------------------------------------------------
    @property
    def dsl_path(self) -> Path:
        path = Path(self.dsl)
        if not path.is_absolute():
            path = Path(self.module_file or ".").parent / path
        return path

    @property
    def extension_paths(self) -> list[Path]:
        """Extension files merged onto the DSL file (``dsl/overlay.py``), beside it by default."""
        return [path if Path(path).is_absolute() else self.dsl_path.parent / path
                for path in map(Path, self.extensions)]

    @property
    def state_names(self) -> set[str]:
        """Dotted game-level names that DSL expressions may use."""
        return leaf_names(self.state)

    # -- decorators -----------------------------------------------------------
    def tool(self, fn: Tool | None = None, *, name: str | None = None, display: bool = False) -> Any:
        """Bind a DSL tool. ``display=True`` marks a tool that only shows things, or does nothing a
        headless match needs (a step left as a no-op): headless matches (simulation, search bots)
        have no step for it, so it is neither looked up nor called."""

        def register(function: Tool) -> Tool:
            self.tools[name or function.__name__] = function
            if display:
                self.display_tools.add(name or function.__name__)
            return function

        return register(fn) if fn is not None else register

    def tools_named(self, *names: str) -> Callable[[Tool], Tool]:
        """Bind one function to several DSL tool names that mean the same thing."""

        def register(function: Tool) -> Tool:
            for name in names:
                self.tools[name] = function
            return function

        return register

    def route(self, phase_id: int) -> Callable[[Router], Router]:
        def register(function: Router) -> Router:
            self.routers[phase_id] = function
            return function

        return register

    def observer(self, fn: Callable[["Match", int | None], dict[str, Any]]) -> Any:
        self.observe = fn
        return fn

    def seats_observer(self, fn: Callable[["Match", list[int | None]], list[dict[str, Any]]]) -> Any:
        """Register ``fn(m, seats)``: exactly ``[observe(m, seat) for seat in seats]``, the parts every
        seat sees built once and shared (read-only). A served match asks it at every change for every
        connected seat; without one the observer is asked once per seat."""
        self.observe_seats = fn
        return fn

    def on_timeout(self, fn: Callable[["Match", int, list[str]], str]) -> Any:
        self.timeout_choice = fn
        return fn

    def check_setup(self, fn: Callable[[dict[str, Any], int], list[str]]) -> Any:
        self.setup_check = fn
        return fn

    def check_options(self, fn: Callable[[dict[str, Any], int], list[str]]) -> Any:
        """Register ``fn(options, players) -> problems``: option values this game refuses
        (a new match raises ``ValueError`` naming them)."""
        self.option_check = fn
        return fn

    def expect(self, key: str, *, per_player: bool = True, ordered: bool = False) -> Callable[..., Any]:
        def register(function: Callable[..., Any]) -> Callable[..., Any]:
            self.expectations[key] = Expectation(function, per_player, ordered)
            return function

        return register

    def summarize(self, fn: Callable[["Match"], dict[str, Any]]) -> Any:
        self.result = fn
        return fn

    def turn(self, fn: Callable[["Match"], int | None]) -> Any:
        self.active_seat = fn
        return fn

    def hidden(self, fn: Callable[["Match", int | None], set[str]]) -> Any:
        """Register the list of secrets a seat must never see (for leak tests)."""
        self.secrets = fn
        return fn

    def determinizer(self, fn: Callable[..., "Match"]) -> Any:
        """Register ``fn(game, observation, seat, rng) -> Match``: a headless match
        consistent with what ``seat`` observes, its hidden information sampled
        with ``rng`` (search bots plan on such samples; see docs/bots.md)."""
        self.determinize = fn
        return fn

    def vocabulary(self, fn: Callable[[int], list[str]]) -> Any:
        """Register ``fn(players) -> labels``: every action a seat may ever take at that
        player count, as labels (``engine/vocabulary.py``). RL environments turn it into
        a fixed action space; without it the labels are derived from the DSL's options."""
        self.actions = fn
        return fn

    def labeler(self, fn: Callable[[list[str], int, str], str]) -> Any:
        """Register ``fn(names, seat, option) -> label``: the vocabulary label of an offered
        option. It may depend only on its arguments (environments cache it). Default:
        player names become seat offsets (``engine.vocabulary.relative_label``)."""
        self.label = fn
        return fn

    def reader(self, fn: Callable[[dict[str, Any]], dict[int, float]]) -> Any:
        """Register ``fn(observation) -> {seat: p}``: how likely each other seat is to be
        playing at random, judged from what the observer saw (its log). Search bots
        model such players as erratic and believe their claims less."""
        self.reads = fn
        return fn

    def explainer(self, fn: Callable[..., tuple[str, dict[str, Any]] | None]) -> Any:
        """Register ``fn(observation, seat, option, stats) -> (template, args) | None``: why the
        coach's suggested ``option`` is good, as one sentence built only from what ``seat``
        observes (``stats``: each option's search visits and win rate). ``None``: the coach
        falls back to the search's own figures (``bots/coach.py``, docs/bots.md)."""
        self.explain = fn
        return fn
