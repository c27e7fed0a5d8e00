"""BANG!, from the seed DSL file ``bang.yaml`` and the rules module ``rules.py``."""

from .rules import game

__all__ = ["game"]
