"""BANG!, from the seed DSL file ``bang.yaml`` and the rules module ``rules.py``."""

from .board import game
from . import rules, scenarios, determinize  # noqa: F401 - register tools, setup checks, expect keys, the sampler

__all__ = ["game"]
