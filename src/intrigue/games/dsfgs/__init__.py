"""DSFGS, written in its DSL file alone: ``dsfgs.yaml`` is the seed plus declarative statements.

Rules and decisions: ``docs/games/dsfgs.md``. ``seed.yaml`` is the seed, unchanged.
"""

from pathlib import Path

from ...dsl.declarative import binding_from_dsl

game = binding_from_dsl(Path(__file__).with_name("dsfgs.yaml"), "dsfgs")
