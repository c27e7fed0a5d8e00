"""One match behind a fixed action space: what the PettingZoo environments share.

The match is the engine's own (headless, seeded), driven by the offered options
the chosen action ids stand for. Nothing is copied per step: masks are read from
the open decision, observations are encoded only when asked for.

**Who answers when several may.** A decision several seats answer (a challenge
window: every other living player may Challenge or Pass) is asked one seat at a
time in the turn-based environment. The next seat to answer is drawn uniformly
from the seats still pending, with the table's own RNG (seeded from the reset
seed, separate from the match's RNG), so the order is a uniformly random
permutation: it depends on nothing hidden, and every pending seat is equally
likely to be asked first (and so to be the one whose Challenge closes the
window). A seat asked later sees what the browser would show it by then: who
has already answered (``waiting`` shrinks), never what they answered.

**Truncation.** A match that has not ended after ``max_decisions`` decisions
(default ``DECISIONS_PER_PLAYER × players``) is truncated: every agent gets
reward 0. Coup can loop (players stealing coins back and forth) and BANG! has
no bound on its turns; random play ends far earlier (docs/agents.md).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Mapping

from ..engine import Game, Match
from .actions import WAIT, ActionSpace, EnvError
from .encoding import encoder_for

#: What a seat with nothing to decide is offered (read-only, like every answer of ``Table.offered``).
_NOTHING: dict[int, str] = {}
#: The default cap on decisions per match, per player.
DECISIONS_PER_PLAYER = 250
#: What an action the mask forbids does: raise (default), or play the game's timeout default.
ILLEGAL = ("raise", "timeout")


def load_game(game: str | Path | Game) -> Game:
    """An installed game by id, a game folder or YAML file by path, or a loaded game."""
    from .. import games  # noqa: PLC0415

    if isinstance(game, Game):
        return game
    try:
        return games.resolve(game)
    except KeyError as exc:
        raise EnvError(exc.args[0]) from None


def player_names(count: int) -> list[str]:
    return [f"P{i + 1}" for i in range(count)]


def default_players(game: Game) -> int:
    return max(game.min_players, min(4, game.max_players))


def checked_options(game: Game, options: dict[str, Any], players: int) -> dict[str, Any]:
    """The game's options (variants) as the lobby takes them: an unknown key, a value of another type than
    the default's, or one the game's own check refuses is an ``EnvError``, not a silent default game."""
    known = game.binding.options
    for key, value in options.items():
        if key not in known:
            raise EnvError(f"unknown option {key!r} for {game.id} (known: {', '.join(known) or 'none'})")
        default = known[key]
        if default is not None and value is not None and type(value) is not type(default) \
                and not (isinstance(default, float) and type(value) is int):
            raise EnvError(f"option {key} takes a {type(default).__name__}, not {value!r}")
    check = game.binding.option_check
    problems = check({**game.option_defaults(), **options}, players) if check else []
    if problems:
        raise EnvError("; ".join(problems))
    return options


class Table:
    """A seeded match, its action space and its encoder. See the module docstring."""

    def __init__(self, game: str | Path | Game, players: int | None = None,
                 options: Mapping[str, Any] | None = None, max_decisions: int | None = None,
                 illegal: str = "raise"):
        self.game = load_game(game)
        count = players if players is not None else default_players(self.game)
        if not self.game.min_players <= count <= self.game.max_players:
            raise EnvError(f"{self.game.title} takes {self.game.min_players} to {self.game.max_players} "
                           f"players, not {count}")
        if illegal not in ILLEGAL:
            raise EnvError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        self.players = count
        self.names = player_names(count)
        self.options = checked_options(self.game, dict(options or {}), count)
        self.space = ActionSpace(self.game, self.names)
        self.encoder = encoder_for(self.game, count)
        self.max_decisions = max_decisions or DECISIONS_PER_PLAYER * count
        self.illegal = illegal
        self.match: Match | None = None
        self.order = random.Random(0)
        self.decisions = 0
        self.truncated = False
        self._offered: tuple[int, Any, dict[int, str]] | None = None

    # -- the match ------------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        self.match = Match(self.game, self.names, seed, self.options, headless=True)
        self.order = random.Random(f"intrigue-env-order:{seed}")
        self.decisions = 0
        self.truncated = False
        self._offered = None

    @property
    def done(self) -> bool:
        return self.match is None or self.match.over or self.truncated

    def pending(self) -> list[int]:
        return [] if self.done else self.match.pending

    def next_seat(self) -> int | None:
        """The seat to ask next: the only pending one, or one drawn uniformly from several."""
        match = self.match
        if match is None or match.over or self.truncated or match.decision is None:
            return None
        pending = match.decision.pending
        if not pending:
            return None
        return pending[0] if len(pending) == 1 else self.order.choice(pending)

    def offered(self, seat: int) -> dict[int, str]:
        """``{action id: option}`` for ``seat`` now (empty if it has nothing to decide); read-only."""
        match = self.match
        if match is None or match.over or self.truncated:
            return _NOTHING
        decision = match.decision
        if decision is None or seat not in decision.offers or seat in decision.answers \
                or decision.closed_by is not None:
            return _NOTHING
        cached = self._offered
        if cached is not None and cached[0] == seat and cached[1] is decision:
            return cached[2]
        ids = self.space.offered(seat, decision.offers[seat])
        self._offered = (seat, decision, ids)
        return ids

    def mask_into(self, seat: int, out: Any, *, waiting: bool = False) -> None:
        """Set ``out[id] = 1`` for each legal action (``WAIT`` for a seat with nothing to decide
        when ``waiting``)."""
        ids = self.offered(seat)
        if ids:
            for action in ids:
                out[action] = 1
        elif waiting and not self.done:
            out[0] = 1

    def choose(self, seat: int, action: int) -> None:
        """Play ``action`` for ``seat``; an illegal one raises :class:`EnvError` and changes
        nothing, or (``illegal="timeout"``) plays the game's timeout default."""
        ids = self.offered(seat)
        option = ids.get(int(action)) if ids else None
        if option is None:
            if not ids:
                raise EnvError(f"{self.names[seat]} has nothing to decide now")
            if self.illegal == "raise":
                legal = ", ".join(f"{i} ({self.space.labels[i]})" for i in ids)
                raise EnvError(f"action {action!r} is not legal for {self.names[seat]} now; legal: {legal}")
            option = self.timeout_option(seat)
        self.match.choose(seat, option)
        self._offered = None
        self.decisions += 1
        if not self.match.over and self.decisions >= self.max_decisions:
            self.truncated = True

    def timeout_option(self, seat: int) -> str:
        options = list(self.match.decision.offers[seat])
        default = self.game.binding.timeout_choice
        choice = default(self.match, seat, options) if default is not None else None
        return choice if choice in options else options[0]

    def returns(self) -> list[float]:
        """+1 for each winner, -1 for the others; 0 for everyone if truncated or nobody won."""
        match = self.match
        if match is None or not match.over or not match.winners:
            return [0.0] * self.players
        winners = set(match.winners)
        return [1.0 if seat in winners else -1.0 for seat in range(self.players)]

    # -- what a seat sees ---------------------------------------------------------------------
    def encode_into(self, seat: int, out: Any) -> None:
        self.encoder.encode(self.match, seat, out)

    def view(self, seat: int) -> dict[str, Any]:
        return self.match.observe(seat)

    def action_names(self, seat: int) -> dict[int, str]:
        return dict(self.offered(seat))


__all__ = ["DECISIONS_PER_PLAYER", "EnvError", "Table", "WAIT", "load_game", "player_names"]
