"""BANG!, from the seed DSL file ``bang.yaml`` and the rules module ``rules.py``."""

from .rules import game
from . import determinize  # noqa: F401,E402 - registers the search bots' sampler

__all__ = ["game"]
