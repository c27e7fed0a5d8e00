"""The engine: pure Python, no I/O, no clock. A match is driven only by choices."""

from .binding import GameBinding
from .errors import BindingError, EngineError, Refused
from .game import Game, load
from .match import Choice, Decision, Match, replay
from .observe import observe
from .ui import PUBLIC, Audience

__all__ = [
    "Audience", "BindingError", "Choice", "Decision", "EngineError", "Game", "GameBinding",
    "Match", "PUBLIC", "Refused", "load", "observe", "replay",
]
