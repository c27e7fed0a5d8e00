"""Reinforcement-learning environments over any Intrigue game (docs/agents.md).

- :func:`make` — a PettingZoo ``AECEnv`` (turn-based: only a deciding seat acts);
- :func:`parallel_env` — a PettingZoo ``ParallelEnv`` (every seat acts each cycle);
- ``import intrigue.env.openspiel`` — registers every installed game with OpenSpiel.

They need the ``env`` extra (``pip install 'intrigue[env]'``): PettingZoo,
Gymnasium, NumPy and OpenSpiel. The rest of Intrigue does not.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from .actions import WAIT, ActionSpace, EnvError
from .table import DECISIONS_PER_PLAYER, Table, load_game

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Game
    from .pettingzoo import IntrigueAEC, IntrigueParallel

__all__ = ["ActionSpace", "DECISIONS_PER_PLAYER", "EnvError", "WAIT", "make", "parallel_env"]

_MISSING = ("the environments need the 'env' extra: pip install 'intrigue[env]' "
            "(PettingZoo, Gymnasium, NumPy, OpenSpiel)")


def _pettingzoo() -> Any:
    try:
        from . import pettingzoo  # noqa: PLC0415
    except ImportError as missing:  # pragma: no cover - the extra is installed in the tests
        raise ImportError(f"{_MISSING} ({missing})") from missing
    return pettingzoo


def make(game: "str | Path | Game", players: int | None = None, seed: int | None = None, *,
         options: Mapping[str, Any] | None = None, infos: bool = False, render_mode: str | None = None,
         max_decisions: int | None = None, illegal: str = "raise") -> "IntrigueAEC":
    """A turn-based PettingZoo environment for ``game`` (an installed id or a YAML path).

    ``players`` defaults to 4 (within the game's range); ``seed`` seeds the first
    ``reset()`` without a seed and every one after it (``None``: not reproducible);
    ``options`` are the game's options; ``infos=True`` adds the seat's view and
    text to each info; ``illegal="timeout"`` plays the game's timeout default for a
    masked-out action instead of raising.
    """
    table = Table(game, players, options, max_decisions, illegal)
    return _pettingzoo().IntrigueAEC(table, seed=seed, render_mode=render_mode, infos=infos)


def parallel_env(game: "str | Path | Game", players: int | None = None, seed: int | None = None, *,
                 options: Mapping[str, Any] | None = None, infos: bool = False,
                 render_mode: str | None = None, max_cycles: int | None = None,
                 max_decisions: int | None = None, illegal: str = "raise") -> "IntrigueParallel":
    """A parallel PettingZoo environment for ``game``: every live seat acts each cycle
    (``WAIT`` when it has nothing to decide); ``max_cycles`` truncates."""
    table = Table(game, players, options, max_decisions, illegal)
    return _pettingzoo().IntrigueParallel(table, seed=seed, render_mode=render_mode, infos=infos,
                                          max_cycles=max_cycles)
