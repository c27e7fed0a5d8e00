"""Heist: the example game of ``docs/writing-a-game.md``, written in ``heist.yaml`` alone."""

from pathlib import Path

from ...dsl.declarative import binding_from_dsl

game = binding_from_dsl(Path(__file__).with_name("heist.yaml"), "heist")
