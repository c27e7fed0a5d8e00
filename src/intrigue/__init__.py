"""Intrigue: hidden-role and bluffing games from a phase DSL, run exactly."""

__version__ = "0.1.0"
