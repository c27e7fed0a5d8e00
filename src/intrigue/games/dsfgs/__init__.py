"""DSFGS, written in its DSL file alone: ``dsfgs.yaml`` is the seed plus declarative statements.

Rules and the decisions the seed leaves open: ``docs/games/dsfgs.md``.
``seed.yaml`` is the seed, unchanged.

Option notation (as offered, and as scenario files write them): ``Reveal Self``,
``Peek Player``, ``Accuse Player``, ``Pass``; a target is the player's name; the
vote is ``Support Reveal`` or ``Do Not Support``. Scenario ``expect`` keys: the
common ones plus ``game`` (game-level names) and ``sees`` (one view of another
player); ``setup: {roles: {player: role}}`` fixes the deal.
"""

from pathlib import Path

from ...engine.yaml_game import binding_from_dsl

game = binding_from_dsl(Path(__file__).with_name("dsfgs.yaml"), "dsfgs")
