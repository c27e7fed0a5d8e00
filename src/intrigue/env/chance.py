"""Chance as explicit outcomes: the engine's RNG, driven by a script of chance actions.

A match draws all its chance from ``match.rng`` (``shuffle``, ``choice`` and
``randrange``). :class:`ChanceRandom` is a ``random.Random`` whose draws are read
from a list of outcomes instead; when the list runs out it raises
:class:`NeedChance` with the outcomes possible at that draw and their
probabilities. The OpenSpiel adapter turns that into a chance node, appends the
outcome chosen there, and runs the interrupted step again from a copy of the
match made before it. Normal matches never see this class: ``Match(seed)`` still
builds its own ``random.Random(seed)``, and the same seed gives the same game.

Outcomes are merged by value: a shuffle is dealt front to back, each position a
chance node whose outcomes are the *distinct* cards left (probability: copies
left / cards left), which gives every arrangement the probability the uniform
shuffle gives it. An outcome's action id is the rank of its value among the distinct
values left, in the order they first come (so a deck of 204 cards of 8 kinds has at most 8
outcomes a draw); a draw with a single possible value is no chance.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from ..engine import Match

#: Chance action ids are ranks among the distinct values of a draw: at most this many values.
MAX_CHANCE_OUTCOMES = 128


class NeedChance(BaseException):
    """The script ran out: the outcomes ``[(action, probability, text)]`` of the next draw.

    A ``BaseException``, so no ``except Exception`` in a rules module swallows it.
    """

    def __init__(self, outcomes: list[tuple[int, float, str]]):
        super().__init__(f"{len(outcomes)} chance outcomes")
        self.outcomes = outcomes


def outcomes_of(items: Sequence[Any], what: str) -> tuple[list[tuple[int, float, str]], list[int]]:
    """One outcome per distinct value of ``items``: (its rank, share, text); and each rank's first index."""
    first: dict[Any, int] = {}
    counts: dict[Any, int] = {}
    for index, item in enumerate(items):
        key = repr(item)
        if key not in first:
            first[key] = index
            counts[key] = 0
        counts[key] += 1
    if len(first) > MAX_CHANCE_OUTCOMES:
        raise ValueError(f"a chance draw over {len(first)} different values; the OpenSpiel adapter allows "
                         f"{MAX_CHANCE_OUTCOMES}")
    total = len(items)
    keys = list(first)
    return ([(rank, counts[key] / total, f"{what} {items[first[key]]}") for rank, key in enumerate(keys)],
            [first[key] for key in keys])


class ChanceRandom(random.Random):
    """A ``random.Random`` whose draws come from ``script`` (see the module docstring)."""

    def __init__(self, script: Sequence[int] = ()):
        super().__init__(0)
        self.script = list(script)
        self.used = 0

    def _draw(self, drawn: tuple[list[tuple[int, float, str]], list[int]]) -> int:
        """The index drawn: the first item of the value the script's next action names."""
        outcomes, index = drawn
        if len(outcomes) == 1:
            return index[0]
        if self.used == len(self.script):
            raise NeedChance(outcomes)
        action = self.script[self.used]
        self.used += 1
        if not 0 <= action < len(index):
            raise ValueError(f"chance action {action} is not an outcome here ({[o[0] for o in outcomes]})")
        return index[action]

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        for i in range(len(x) - 1):
            j = i + self._draw(outcomes_of(x[i:], "next:"))
            x[i], x[j] = x[j], x[i]

    def choice(self, seq: Sequence[Any]) -> Any:  # type: ignore[override]
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self._draw(outcomes_of(seq, "pick:"))]

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        values = list(range(start) if stop is None else range(start, stop, step))
        if not values:
            raise ValueError("empty range for randrange")
        return values[self._draw(outcomes_of(values, "number:"))]

    def _unsupported(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("under OpenSpiel a game may draw chance only with shuffle, choice "
                                  "and randrange")

    random = randint = sample = choices = uniform = getrandbits = gauss = _unsupported  # type: ignore


class ChanceMatch(Match):
    """A match whose very first draws (the deal, in its set-up) already come from ``source``.

    ``Match.__init__`` builds its own seeded RNG; here that assignment is ignored
    and the chance source stays. Copies (``clone``) are plain matches, which the
    adapter gives a fresh :class:`ChanceRandom` before each step.
    """

    def __init__(self, game: Any, names: list[str], source: ChanceRandom, options: Any = None):
        self.__dict__["_source"] = source
        super().__init__(game, names, 0, options, headless=True)

    @property  # type: ignore[override]
    def rng(self) -> random.Random:
        return self._source

    @rng.setter
    def rng(self, value: random.Random) -> None:
        """The engine's own seeded RNG is not used: chance comes from the source."""
