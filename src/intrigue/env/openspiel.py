"""Every installed game as an OpenSpiel game: ``import intrigue.env.openspiel`` registers them, and
``register(path)`` registers a game written in YAML (or a game folder) the same way.

``pyspiel.load_game("python_intrigue_coup(players=4)")``. Parameters: ``players``
(default 4 within the game's range) and ``max_decisions`` (the truncation cap,
default ``DECISIONS_PER_PLAYER × players``; ``MaxGameLength()`` is that cap, and
a truncated match returns 0 to everyone). The game is sequential with explicit
chance (``chance.py``): every shuffle and deal of the engine is a run of chance
nodes, and when several players may answer one decision (a challenge window) a
chance node picks, uniformly among those still pending, who answers next.
Actions are the game's vocabulary (``actions.py``), the same ids as in the
PettingZoo environments. Returns: +1 to each winner, -1 to the others.

What a player knows (its information state): every log line it could read, in
order, its view (the game's filtered state, the phase, who is pending, its
options) each time it chose, its own choices, and its view now. The string is
exactly that; the tensor is the seat's observation encoding (``encoding.py``)
followed by how often it took each action (not perfect recall: the string is).
The observation string and tensor are the view now and the encoding alone.

``state.resample_from_infostate(player, sampler)`` returns a state consistent with
that player's information, its hidden part dealt by the game's determinizer
(``binding.determinize``) from the player's own observation only: the resampled
state keeps the player's information state and knows nothing else of the real
one. OpenSpiel's Python ISMCTS calls it (``open_spiel.python.algorithms.ismcts``).

A state serializes (``pyspiel.serialize_game_and_state``, ``pickle``) as its history, replayed when read back.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from .. import games as registry
from ..engine import EngineError, Game, Match
from .actions import ActionSpace, EnvError
from .chance import MAX_CHANCE_OUTCOMES, ChanceMatch, ChanceRandom, NeedChance
from .encoding import encoder_for
from .table import DECISIONS_PER_PLAYER, default_players, load_game, player_names

PREFIX = "python_intrigue_"
#: How many recent log lines the observation string keeps.
OBSERVED_LINES = 5


class _Spec:
    """The immutable part of every state of one (game, players): shared, never copied."""

    def __init__(self, game: Game, players: int, max_decisions: int):
        self.game = game
        self.players = players
        self.names = player_names(players)
        self.space = ActionSpace(game, self.names)
        self.encoder = encoder_for(game, players)
        self.max_decisions = max_decisions

    def __deepcopy__(self, memo: dict) -> "_Spec":
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by name: the game's rules are code, found again in the registered games."""
        return _spec_of, (PREFIX + self.game.id, self.players, self.max_decisions)


def _spec_of(name: str, players: int, max_decisions: int) -> _Spec:
    key = (name, players, max_decisions)
    if key not in _SPECS:
        if name not in _FACTORIES:
            raise pyspiel.SpielError(f"{name} is not registered in this process (intrigue.env.openspiel.register)")
        _SPECS[key] = _Spec(_FACTORIES[name].game, players, max_decisions)
    return _SPECS[key]


_SPECS: dict[tuple[str, int, int], _Spec] = {}


class _Unbuilt:
    """A pickled state's core, rebuilt from the state's history on first use: a match holds the rules'
    own functions, which pickle cannot write (``pyspiel.serialize_game_and_state``, ``pickle``)."""


class _Core:
    """A state's match, the step waiting for chance, and each player's memory."""

    def __init__(self, spec: _Spec):
        self.spec = spec
        self.match: Match | None = None
        self.step: tuple[Any, ...] | None = ("setup",)
        self.script: list[int] = []
        self.chance: list[tuple[int, float, str]] | None = None
        self.seat: int | None = None
        self.decisions = 0
        self.truncated = False
        #: A resampled state (``resample``): its hidden part is the determinizer's guess.
        self.sampled = False
        self.memory: list[list[str]] = [[] for _ in range(spec.players)]
        self.marks = [0] * spec.players
        self.taken = [[0] * len(spec.space) for _ in range(spec.players)]
        self._run()

    def __deepcopy__(self, memo: dict) -> "_Core":
        other = _Core.__new__(_Core)
        other.__dict__.update(self.__dict__)
        other.match = self.match.clone() if self.match is not None else None
        other.step = self.step
        other.script = list(self.script)
        other.memory = [list(chunks) for chunks in self.memory]
        other.marks = list(self.marks)
        other.taken = [list(row) for row in self.taken]
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        if self.sampled:
            raise pyspiel.SpielError("a resampled state cannot be serialized: its hidden part is the "
                                     "determinizer's guess, not a history of actions")
        return _Unbuilt, ()

    # -- the machine ---------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.step is None and self.match is not None and (self.match.over or self.truncated)

    def _run(self) -> None:
        """Run the waiting step with the outcomes so far; stop at the next chance node."""
        step = self.step
        if step is None or step[0] == "order":
            return
        source = ChanceRandom(self.script)
        spec = self.spec
        try:
            if step[0] == "setup":
                trial: Match = ChanceMatch(spec.game, spec.names, source)
            else:
                assert self.match is not None
                trial = self.match.clone()
                trial.rng = source
                trial.choose(step[1], step[2])
        except NeedChance as need:
            self.chance = need.outcomes
            return
        except EngineError:
            if not self.sampled:
                raise
            # The guess held a private fact the rules cannot play on (a hidden list the determinizer
            # started empty): this sample ends here, every return 0, as a truncation does.
            self.step, self.script, self.chance, self.seat, self.truncated = None, [], None, None, True
            return
        self.match = trial
        self.step = None
        self.script = []
        self.chance = None
        if step[0] != "setup":
            self.decisions += 1
            if not trial.over and self.decisions >= spec.max_decisions:
                self.truncated = True
        self._next_seat()

    def _next_seat(self) -> None:
        match = self.match
        self.seat = None
        if self.over or match is None:
            return
        pending = match.pending
        if len(pending) == 1:
            self.seat = pending[0]
        elif pending:  # several may answer: chance picks who answers next
            self.step = ("order",)
            self.chance = [(seat, 1.0 / len(pending), f"next to answer: {self.spec.names[seat]}")
                           for seat in sorted(pending)]

    def apply(self, action: int) -> None:
        if self.chance is not None:
            if all(action != outcome[0] for outcome in self.chance):
                raise ValueError(f"chance action {action} is not an outcome here")
            if self.step == ("order",):
                self.step, self.chance, self.seat = None, None, action
                return
            self.script.append(action)
            self._run()
            return
        seat = self.seat
        assert seat is not None and self.match is not None
        offered = self.offered(seat)
        if action not in offered:
            raise ValueError(f"action {action} is not legal for {self.spec.names[seat]}")
        self.memory[seat].append(self.chunk(seat) + f"> {offered[action]}\n")
        self.marks[seat] = len(self.match.events)
        self.taken[seat][action] += 1
        self.step = ("choose", seat, offered[action])
        self.script = []
        self._run()

    def offered(self, seat: int) -> dict[int, str]:
        decision = self.match.decision if self.match is not None else None
        if decision is None or seat not in decision.pending:
            return {}
        return self.spec.space.offered(seat, decision.offers[seat])

    # -- what a player knows ---------------------------------------------------------------
    def view_line(self, seat: int) -> str:
        view = self.match.observe(seat)
        decision = view["decision"] or {}
        return json.dumps({"phase": view["phase"]["name"], "waiting": view["waiting"],
                           "options": decision.get("options", []), "state": view["state"],
                           "over": view["over"], "winners": view["winners"]},
                          sort_keys=True, separators=(",", ":"), default=str) + "\n"

    def chunk(self, seat: int) -> str:
        """What ``seat`` has seen since its last choice: new log lines and its view now."""
        match = self.match
        if match is None:
            return ""
        lines = [event.text for event in match.events[self.marks[seat]:] if event.audience.includes(match, seat)]
        return "".join(f"| {line}\n" for line in lines) + self.view_line(seat)

    def information(self, seat: int) -> str:
        return "".join(self.memory[seat]) + self.chunk(seat)

    def observation(self, seat: int) -> str:
        match = self.match
        if match is None:
            return ""
        lines = [event.text for event in match.events if event.audience.includes(match, seat)][-OBSERVED_LINES:]
        return "".join(f"| {line}\n" for line in lines) + self.view_line(seat)

    def encode(self, seat: int, out: np.ndarray, with_history: bool) -> None:
        out.fill(0.0)
        if self.match is None:
            return
        values = [0.0] * self.spec.encoder.size
        self.spec.encoder.encode(self.match, seat, values)
        out[:len(values)] = values
        if with_history:
            out[len(values):] = np.minimum(self.taken[seat], 10) / 10.0

    def returns(self) -> list[float]:
        match = self.match
        if match is None or not match.over or self.truncated or not match.winners:
            return [0.0] * self.spec.players
        winners = set(match.winners)
        return [1.0 if seat in winners else -1.0 for seat in range(self.spec.players)]

    def resample(self, seat: int, rng: random.Random) -> "_Core | None":
        """A core consistent with what ``seat`` knows, its hidden part drawn by the determinizer."""
        determinize = self.spec.game.binding.determinize
        if determinize is None or self.match is None or self.step is not None:
            return None
        sample = determinize(self.spec.game, self.match.observe(seat), seat, rng)
        if sample is None:
            return None
        sample.rng = ChanceRandom()
        other = _Core.__new__(_Core)
        other.__dict__.update(self.__dict__)
        other.match = sample
        other.sampled = True
        other.script = []
        other.memory = [[] for _ in range(self.spec.players)]
        seen = self.chunk(seat)[:-len(self.view_line(seat))]  # the log lines since its last choice
        other.memory[seat] = list(self.memory[seat]) + [seen]
        other.marks = [len(sample.events)] * self.spec.players
        other.taken = [[0] * len(self.spec.space) for _ in range(self.spec.players)]
        other.taken[seat] = list(self.taken[seat])
        return other


class IntrigueState(pyspiel.State):
    """One state of an Intrigue game under OpenSpiel (see the module docstring)."""

    def __init__(self, game: "IntrigueGame", core: _Core | None = None):
        super().__init__(game)
        self._spec = game.spec
        self._c = core  # built on first use: OpenSpiel's clone() makes a new state, then copies ours

    @property
    def _core(self) -> _Core:
        core = self._c
        if core.__class__ is _Core:
            return core
        core = _Core(self._spec)  # new, or unpickled: the history replayed
        for action in self.history():
            core.apply(action)
        self._c = core
        return core

    def current_player(self) -> int:
        core = self._core
        if core.over:
            return pyspiel.PlayerId.TERMINAL
        if core.chance is not None:
            return pyspiel.PlayerId.CHANCE
        return core.seat

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._core.offered(player)) if player == self._core.seat else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(action, probability) for action, probability, _ in self._core.chance or ()]

    def _apply_action(self, action: int) -> None:
        self._core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        if player == pyspiel.PlayerId.CHANCE:
            return next((text for a, _, text in core.chance or () if a == action), f"chance {action}")
        offered = core.offered(player) if player == core.seat else {}
        return offered.get(action) or core.spec.space.describe(player, action)

    def is_terminal(self) -> bool:
        return self._core.over

    def returns(self) -> list[float]:
        return self._core.returns()

    def resample_from_infostate(self, player: int, sampler: Any) -> "IntrigueState":
        """A state the player cannot tell from this one, hidden information dealt again."""
        rng = random.Random(int(sampler() * 2**31))
        core = self._core.resample(player, rng)
        if core is None:
            raise pyspiel.SpielError(f"{self._core.spec.game.id}: no determinizer sample for this state")
        return IntrigueState(self.get_game(), core)

    def __str__(self) -> str:
        core = self._core
        match = core.match
        if match is None:
            return "dealing"
        lines = [f"phase {match.phase_id} {match.phase.name}; decisions {core.decisions}"]
        for seat, player in enumerate(match.players):
            fields = {key: value for key, value in player.items() if key not in ("name", "id")}
            lines.append(f"{match.names[seat]}: {json.dumps(fields, sort_keys=True, default=str)}")
        return "\n".join(lines)


class _Observer:
    """OpenSpiel's observer protocol: strings and tensors from one player's point of view."""

    def __init__(self, game: "IntrigueGame", iig_obs_type: Any):
        self.spec = game.spec
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.private = iig_obs_type is None or iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = iig_obs_type is None or iig_obs_type.public_info
        if self.private and self.public:
            size = self.spec.encoder.size + (len(self.spec.space) if self.perfect_recall else 0)
            self.tensor: np.ndarray | None = np.zeros(size, np.float32)
            self.dict = {"info_state" if self.perfect_recall else "observation": self.tensor}
        else:
            self.tensor, self.dict = None, {}

    def set_from(self, state: IntrigueState, player: int) -> None:
        if self.tensor is not None:
            state._core.encode(player, self.tensor, self.perfect_recall)

    def string_from(self, state: IntrigueState, player: int) -> str | None:
        core = state._core
        if not self.private:  # the public part: what a spectator sees
            return _public(core)
        if not self.public:
            return None
        return core.information(player) if self.perfect_recall else core.observation(player)


def _public(core: _Core) -> str:
    match = core.match
    if match is None:
        return ""
    view = match.observe(None)
    return json.dumps({"phase": view["phase"]["name"], "waiting": view["waiting"], "state": view["state"]},
                      sort_keys=True, separators=(",", ":"), default=str)


class IntrigueGame(pyspiel.Game):
    """An Intrigue game under OpenSpiel."""

    #: Set on the per-game subclass ``register`` makes.
    game: Game
    kind: Any = None

    def __init__(self, params: dict[str, Any] | None = None):
        game = self.game
        params = dict(params or {})
        players = int(params.get("players", default_players(game)))
        if not game.min_players <= players <= game.max_players:
            raise pyspiel.SpielError(f"{game.title} takes {game.min_players} to {game.max_players} players")
        cap = int(params.get("max_decisions", 0)) or DECISIONS_PER_PLAYER * players
        self.spec = _Spec(game, players, cap)
        info = pyspiel.GameInfo(num_distinct_actions=len(self.spec.space), max_chance_outcomes=MAX_CHANCE_OUTCOMES,
                                num_players=players, min_utility=-1.0, max_utility=1.0, utility_sum=None,
                                max_game_length=cap)
        super().__init__(self.kind, info, {"players": players, "max_decisions": cap})

    def new_initial_state(self) -> IntrigueState:
        return IntrigueState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return _Observer(self, iig_obs_type)


def game_type(game: Game) -> Any:
    return pyspiel.GameType(
        short_name=PREFIX + game.id,
        long_name=f"Intrigue {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": default_players(game), "max_decisions": 0},
    )


def register(game: str | Path | Game) -> str:
    """Register a game (an installed id, a game folder or YAML file, or a loaded game) and return its
    OpenSpiel name, ``python_intrigue_<id>``. Every installed game is registered on import; registering
    the same game again returns the name. Another game with a registered game's id is refused
    (OpenSpiel keeps one game per name for the life of the process)."""
    loaded = load_game(game)
    name = PREFIX + loaded.id
    known = _FACTORIES.get(name)
    if known is not None:
        if _same_game(known.game, loaded):
            return name
        raise EnvError(f"{name} is already registered for {_origin(known.game)}; "
                       f"give the game in {_origin(loaded)} another id")
    if name not in pyspiel.registered_names():
        # A class, not a closure: OpenSpiel keeps the factory until the process ends, and
        # freeing a plain function then (after Python has shut down) aborts the process.
        factory = type(f"Intrigue_{loaded.id}", (IntrigueGame,), {"game": loaded, "kind": game_type(loaded)})
        pyspiel.register_game(factory.kind, factory)
        _FACTORIES[name] = factory
        globals()[factory.__name__] = factory  # where pickle looks a game's class up
    return name


_FACTORIES: dict[str, type[IntrigueGame]] = {}


def _origin(game: Game) -> str:
    return str(game.checked.source.file)


def _same_game(one: Game, other: Game) -> bool:
    """The same game loaded twice (the same DSL file) is the same registration."""
    return one is other or Path(_origin(one)).resolve() == Path(_origin(other)).resolve()


REGISTERED = [register(game_id) for game_id in registry.installed()]

__all__ = ["IntrigueGame", "IntrigueState", "PREFIX", "REGISTERED", "register"]
