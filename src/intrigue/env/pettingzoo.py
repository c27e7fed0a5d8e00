"""PettingZoo environments over any installed game: turn-based (AEC) and parallel.

Agents are ``player_0 … player_{n-1}`` (seat order; match names ``P1 … Pn``).
Every agent has the same spaces:

- action: ``Discrete(len(vocabulary))``, the game's action vocabulary at this
  player count (``actions.py``); action 0 is ``WAIT``;
- observation: ``{"observation": Box(size), "action_mask": Box(0, 1, (actions,), int8)}``,
  the game's encoder (``encoding.py``) from that seat's point of view, and a 1 for
  each action legal now.

With ``infos=True`` each agent's info also carries ``observe`` (the seat's
``observe(match, seat)`` dict, exactly what its browser gets), ``text`` (that
view as text, options numbered by action id) and ``actions`` (``{id: option}``).
They cost a full observation per step, so they are off by default.

Rewards come once, at the end: +1 to each winner, -1 to the others, 0 to all if
the match was truncated (``table.py``). Eliminated players stay agents until
the end (in team games they may still win); they are simply never asked.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from .actions import OFFERED_CACHE
from .table import Table
from .text import render


def _spaces(table: Table) -> tuple[spaces.Space, spaces.Space]:
    observation = spaces.Dict({
        "observation": spaces.Box(-np.inf, np.inf, (table.encoder.size,), np.float32),
        "action_mask": spaces.Box(0, 1, (len(table.space),), np.int8),
    })
    return observation, spaces.Discrete(len(table.space))


class _Seats:
    """What both environments share: spaces, seeds and per-seat observations."""

    metadata = {"render_modes": ["ansi", "human"]}

    def _setup(self, table: Table, seed: int | None, render_mode: str | None, infos: bool) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.table = table
        self.render_mode = render_mode
        self.with_infos = infos
        self.possible_agents = [f"player_{seat}" for seat in range(table.players)]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_space, self._action_space = _spaces(table)
        self._observation_spaces = {agent: self._observation_space for agent in self.possible_agents}
        self._action_spaces = {agent: spaces.Discrete(len(table.space)) for agent in self.possible_agents}
        self._masks: dict[int, tuple[dict[int, str], np.ndarray]] = {}
        self._seeds: random.Random | None = None  # made when first needed (most resets give a seed)
        self._seed_base = seed
        self._seeded = seed is not None
        if seed is not None:
            self._seed_spaces(seed)

    def _seed_spaces(self, seed: int) -> None:
        for seat, agent in enumerate(self.possible_agents):
            self._action_spaces[agent].seed(seed + seat)

    def _match_seed(self, seed: int | None) -> int:
        """``seed`` itself, else the next of a sequence seeded at construction (or at the
        last seeded reset). The action spaces are seeded once, at construction."""
        if seed is not None:
            self._seeds, self._seed_base = None, seed
            return seed
        if not self._seeded:
            self._seeds = random.Random()
            self._seeded = True
        elif self._seeds is None:
            self._seeds = random.Random(self._seed_base)
        return self._seeds.getrandbits(31)

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def _mask(self, seat: int, waiting: bool = False) -> np.ndarray:
        """A new array: 1 for each action ``seat`` may take now (``WAIT`` alone for a seat with
        nothing to decide when ``waiting``). Copied from one made once per distinct offer."""
        table = self.table
        ids = table.offered(seat)
        if not ids:
            mask = np.zeros(len(table.space), np.int8)
            if waiting and not table.done:
                mask[0] = 1
            return mask
        found = self._masks.get(id(ids))
        if found is None or found[0] is not ids:  # the ids dicts are shared: one mask each
            made = np.zeros(len(table.space), np.int8)
            made[list(ids)] = 1
            if len(self._masks) >= OFFERED_CACHE:
                self._masks.clear()
            found = self._masks[id(ids)] = (ids, made)
        return found[1].copy()

    def _observation(self, seat: int, *, waiting: bool = False) -> dict[str, np.ndarray]:
        table = self.table
        size = table.encoder.size
        values = [0.0] * size
        table.encode_into(seat, values)
        return {"observation": np.fromiter(values, np.float32, size), "action_mask": self._mask(seat, waiting)}

    def _info(self, seat: int) -> dict[str, Any]:
        if not self.with_infos:
            return {}
        view = self.table.view(seat)
        actions = self.table.action_names(seat)
        return {"observe": view, "text": render(view, actions), "actions": actions}

    def render(self) -> str | None:
        if self.render_mode is None or self.table.match is None:
            return None
        text = render(self.table.match.observe(None))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.table.match = None


class IntrigueAEC(_Seats, AECEnv):
    """Turn-based: only a seat with a decision is ever selected. See the module docstring."""

    metadata = {"render_modes": ["ansi", "human"], "name": "intrigue_v0", "is_parallelizable": False}

    def __init__(self, table: Table, seed: int | None = None, render_mode: str | None = None,
                 infos: bool = False):
        super().__init__()
        self._setup(table, seed, render_mode, infos)
        self.metadata = {**self.metadata, "name": f"intrigue_{table.game.id}_v0"}
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.table.reset(self._match_seed(seed))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> bool:
        """Select the next agent to act; False once the match is over (or truncated)."""
        seat = self.table.next_seat()
        if seat is None:  # the match ended (or was truncated): every agent takes its last step
            returns = self.table.returns()
            truncated = self.table.truncated
            for agent, reward in zip(self.possible_agents, returns):
                if agent in self.rewards:
                    self.rewards[agent] = reward
                    self.terminations[agent] = not truncated
                    self.truncations[agent] = truncated
            self.agent_selection = self.agents[0]
            return False
        self.agent_selection = self.possible_agents[seat]
        if self.with_infos:
            self.infos[self.agent_selection] = self._info(seat)
        return True

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._observation(self.seat_of[agent])

    def action_mask(self, agent: str) -> np.ndarray:
        """The legal actions of ``agent`` now (cheaper than a full observation)."""
        return self._mask(self.seat_of[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.table.choose(self.seat_of[agent], action)
        if not self._select():  # rewards come only at the end
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()


class IntrigueParallel(_Seats, ParallelEnv):
    """Every live agent acts each cycle; a seat with nothing to decide has only ``WAIT``.

    The seats pending in the decision open at the start of a cycle answer it
    together, applied in a uniformly random order (``table.py``); an answer to a
    window someone else's answer closed is dropped, as a late click would be.
    Actions of seats with nothing to decide are ignored. ``max_cycles`` truncates.
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "intrigue_parallel_v0"}

    def __init__(self, table: Table, seed: int | None = None, render_mode: str | None = None,
                 infos: bool = False, max_cycles: int | None = None):
        self._setup(table, seed, render_mode, infos)
        self.metadata = {**self.metadata, "name": f"intrigue_{table.game.id}_parallel_v0"}
        self.max_cycles = max_cycles
        self.agents: list[str] = []
        self.cycles = 0

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        self.table.reset(self._match_seed(seed))
        self.agents = list(self.possible_agents)
        self.cycles = 0
        return self._observations(), {agent: self._info(self.seat_of[agent]) for agent in self.agents}

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {agent: self._observation(self.seat_of[agent], waiting=True) for agent in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        table = self.table
        decision = table.match.decision
        pending = table.pending()
        missing = [self.possible_agents[seat] for seat in pending if self.possible_agents[seat] not in actions]
        if missing:
            from .actions import EnvError  # noqa: PLC0415

            raise EnvError(f"no action for {', '.join(missing)}, who must answer now")
        order = list(pending)
        table.order.shuffle(order)
        for seat in order:
            if table.done or table.match.decision is not decision or seat not in table.match.pending:
                continue  # the window closed (a Challenge) or moved on: this answer comes too late
            table.choose(seat, actions[self.possible_agents[seat]])
        self.cycles += 1
        truncated = table.truncated or (self.max_cycles is not None and self.cycles >= self.max_cycles
                                        and not table.match.over)
        over = table.match.over
        agents = list(self.agents)
        observations = self._observations()
        returns = table.returns() if over else [0.0] * table.players
        rewards = {agent: returns[self.seat_of[agent]] for agent in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, truncated and not over)
        infos = {agent: self._info(self.seat_of[agent]) for agent in agents}
        if over or truncated:
            table.truncated = table.truncated or truncated
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos
