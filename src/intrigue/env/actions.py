"""A game's fixed action space at one player count, and the masks of offered options.

Action ``0`` is ``WAIT``: the only legal action of a seat with nothing to decide
in the parallel environment (the turn-based one never asks such a seat). Actions
``1..`` are the game's vocabulary labels (``engine/vocabulary.py``) in the order
the game declares them.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING

from ..engine.vocabulary import derive, relative_label, with_names

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Game

#: The action of a seat that has nothing to decide (parallel environment only).
WAIT = "(wait)"
#: How many distinct (seat, offered options) an action space remembers the ids of.
OFFERED_CACHE = 4096


class EnvError(ValueError):
    """A request the environment refuses (an illegal action, an unknown game)."""


def load_extras(game: "Game") -> None:
    """Import the game package's optional ``vocabulary`` and ``encoding`` modules.

    They register the game's vocabulary on its binding (``@game.vocabulary``) and
    its observation encoder; installed games keep them beside their rules.
    """
    package = f"intrigue.games.{game.id}"
    for module in ("vocabulary", "encoding"):
        name = f"{package}.{module}"
        try:
            found = importlib.util.find_spec(name)
        except ModuleNotFoundError:
            found = None
        if found is not None:
            importlib.import_module(name)


class ActionSpace:
    """The labels of one (game, player count) and the ids of the options a seat is offered.

    ``ids(seat, options)`` maps offered options to action ids, caching each
    (seat, option) pair: labels depend only on the names, the seat and the option.
    """

    def __init__(self, game: "Game", names: list[str]):
        load_extras(game)
        binding = game.binding
        self.game = game
        self.names = list(names)
        declared = binding.actions(len(names)) if binding.actions else derive(game, len(names))
        self.labels: list[str] = [WAIT] + [label for label in dict.fromkeys(declared) if label != WAIT]
        self.index = {label: i for i, label in enumerate(self.labels)}
        self._label = binding.label or relative_label
        self._cache: dict[tuple[int, str], int] = {}
        self._offered: dict[tuple[int, tuple[str, ...]], dict[int, str]] = {}

    def __len__(self) -> int:
        return len(self.labels)

    def id_of(self, seat: int, option: str) -> int:
        key = (seat, option)
        found = self._cache.get(key)
        if found is None:
            label = self._label(self.names, seat, option)
            found = self.index.get(label)
            if found is None:
                raise EnvError(f"{self.game.id}: option {option!r} (label {label!r}) is not in the game's "
                               f"action vocabulary for {len(self.names)} players; declare it with "
                               f"@game.vocabulary (see docs/agents.md)")
            self._cache[key] = found
        return found

    def offered(self, seat: int, options: list[str]) -> dict[int, str]:
        """``{action id: option}`` for the options offered to ``seat`` (first option per id).

        The same options to the same seat give the same dict (a game offers the same few lists
        again and again): it is shared, read-only."""
        key = (seat, tuple(options))
        ids = self._offered.get(key)
        if ids is None:
            ids = self._ids(seat, options)
            if len(self._offered) >= OFFERED_CACHE:
                self._offered.clear()
            self._offered[key] = ids
        return ids

    def _ids(self, seat: int, options: list[str]) -> dict[int, str]:
        ids: dict[int, str] = {}
        cache = self._cache
        for option in options:
            found = cache.get((seat, option))
            if found is None:
                found = self.id_of(seat, option)
            if found not in ids:
                ids[found] = option
        return ids

    def describe(self, seat: int, action: int) -> str:
        """The action as ``seat`` would read it, with real names."""
        if not 0 <= action < len(self.labels):
            raise EnvError(f"action {action} is outside 0..{len(self.labels) - 1}")
        return with_names(self.labels[action], self.names, seat)
