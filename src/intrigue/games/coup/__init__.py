"""Coup, from the seed DSL file ``coup.yaml`` and the rules module ``rules.py``."""

from .rules import game

__all__ = ["game"]
