"""Coup, from the seed DSL file ``coup.yaml`` and the rules module ``rules.py``."""

from .rules import game
from . import coach, determinize, reads  # noqa: F401,E402 - register the search bots' sampler, reader and the coach's reasons

__all__ = ["game"]
