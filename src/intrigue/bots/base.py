"""What a bot is given and what it must return.

A bot gets a :class:`SeatView`: the game, its seat, ``observe(match, seat)`` and
the options offered to it. It never gets the match, so nothing it is handed
leads to hidden state (``tests/bots/test_interface.py`` proves it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine import Game

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Match


@dataclass(frozen=True)
class SeatView:
    game: Game
    seat: int
    observation: dict[str, Any]
    options: tuple[str, ...]

    @classmethod
    def of(cls, match: "Match", seat: int) -> "SeatView":
        """What ``seat`` may know now: its observation and its legal options."""
        return cls(match.game, seat, match.observe(seat), tuple(match.legal(seat)))


def seat_view(game: Game, seat: int, observation: dict[str, Any], options: tuple[str, ...]) -> SeatView:
    """``SeatView(game, seat, observation, options)`` made without the frozen dataclass's checks
    (a search's playouts make one per move)."""
    view = _new(SeatView)
    fields = view.__dict__
    fields["game"], fields["seat"], fields["observation"], fields["options"] = game, seat, observation, options
    return view


_new = object.__new__


class Bot:
    """The baseline: a uniformly random legal option."""

    kind = "random"
    #: Whether ``choose`` reads the observation's ``log``: a search's playouts hand a bot that
    #: does not a view without it (``observe(..., log=False)``), which is cheaper to build.
    reads_log = True
    #: Whether ``choose`` reads only the observation's ``version``, ``seat``, ``you``, ``players``,
    #: ``phase`` and ``state`` (and the options): playouts then hand it ``observe(..., brief=True)``.
    brief = False

    def __init__(self, seed: int | str = 0, personality: str | None = None):
        self.rng = random.Random(seed)
        self.personality = personality

    def choose(self, view: SeatView) -> str | None:
        """One of ``view.options``; ``None`` (no answer) lets the game's timeout default be played."""
        return self.rng.choice(view.options)

    def hear(self, speaker: str, text: str) -> None:
        """Table talk reached this seat (a chat line from ``speaker``). Most bots do not listen."""

    def talk(self) -> list[str]:
        """Lines of table talk this bot wants to say now (asked after each choice; most bots say nothing)."""
        return []

    @property
    def label(self) -> str:
        return f"{self.kind}:{self.personality}" if self.personality else self.kind
