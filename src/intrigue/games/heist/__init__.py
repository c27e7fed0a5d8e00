"""Heist, the example of ``docs/writing-a-game.md``, written in ``heist.yaml`` alone.

This line only lets a built package carry the game: in a checkout, a folder
holding ``heist/heist.yaml`` is an installed game by itself.
"""

from pathlib import Path

from ...engine.yaml_game import binding_from_dsl

game = binding_from_dsl(Path(__file__).with_name("heist.yaml"), "heist")
