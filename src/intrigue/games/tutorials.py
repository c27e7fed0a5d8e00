"""A game's guided first game: ``tutorial.json`` beside its rules module or DSL file.

The file is data, read by three parts that know no game:

- the server (``POST /api/games/{game}/tutorial``) opens a private practice room
  of ``seats`` seats, with the timers off, one person and ``tutorial`` bots,
  and deals its first match from ``seed`` (a fixed deal);
- the ``tutorial`` bot (``bots/scripted.py``) plays ``script`` in that match: each
  bot seat's ``moves`` in order (a move is played when its ``phase`` is the
  phase the bot is asked in and its option is offered; a move whose ``by`` version
  has passed is dropped), else ``otherwise`` when it is offered, else as the
  ``bots`` spec would; once the script is over (after version ``until``) it is
  simply the ``bots`` spec;
- the browser (``tutorial.js``) shows ``steps`` one at a time over the table
  (docs/web-client.md, "The guided first game").

Step texts are English templates translated by the game's table catalogs. The
file is checked on load: a mistake is a clear error naming the field.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..engine import Game


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Move(_Strict):
    phase: str = Field(description="the phase name the bot is asked in")
    play: str = Field(description="the option it plays there; {0}, {1}… are the names of the players in "
                                  "those seats")
    by: int | None = Field(None, description="dropped once the match's version is past this")


class Script(_Strict):
    until: int = Field(description="the script is over after this version")
    otherwise: str | None = Field(None, description="what a scripted seat plays when its next move is not due")
    moves: dict[int, list[Move]] = Field(default_factory=dict, description="seat -> its moves, in order")


class When(_Strict):
    phase: str | None = Field(None, description="the view's phase name")
    offers: str | None = Field(None, description="an option offered to you: exact, or a regex starting with ^")
    log: dict[str, str | int | bool] | None = Field(None, description="a log entry since the step began with "
                                                                       "these fields")


class Step(_Strict):
    id: str
    text: str = Field(description="an English template, a key of the game's table catalogs")
    args: dict[str, str] = Field(default_factory=dict, description="placeholder -> a path into the view "
                                                                    "(players.1, state.players.0.coins)")
    when: When | None = None
    choose: str | None = Field(None, description="the option the step asks for (args filled in; ^ starts a regex)")
    next: bool = Field(False, description="a Next button ends the step")
    by: int | None = Field(None, description="past this version before the step is shown, the game went astray "
                                             "(so is a decision of yours while the step waits)")


class Tutorial(_Strict):
    seats: int = Field(ge=2)
    seed: int = Field(ge=0)
    bots: str = Field("random", description="the bot spec the tutorial bots play as once the script is over")
    script: Script
    steps: list[Step] = Field(min_length=1)
    astray: str = Field(description="shown when the game leaves the script")

    def public(self, game: Game) -> dict[str, Any]:
        """What the browser needs (GET /api/games/{game}/tutorial): the steps, not the deal."""
        return {"game": game.id, "seats": self.seats,
                "steps": [step.model_dump(exclude_none=True) for step in self.steps], "astray": self.astray}


def path(game: Game) -> Path | None:
    origin = game.binding.module_file
    return Path(origin).resolve().parent / "tutorial.json" if origin else None


def has(game: Game) -> bool:
    """Whether the game ships a tutorial (without reading it)."""
    place = path(game)
    return place is not None and place.is_file()


def tutorial(game: Game) -> Tutorial | None:
    """The game's tutorial, or ``None`` if it has none. Raises ``ValueError`` if the file is wrong."""
    place = path(game)
    return _load(place) if has(game) and place is not None else None


@lru_cache(maxsize=16)
def _load(place: Path) -> Tutorial:
    try:
        return Tutorial.model_validate(json.loads(place.read_text(encoding="utf-8")))
    except (ValueError, ValidationError) as exc:
        raise ValueError(f"{place}: {exc}") from None


def texts(game: Game) -> list[str]:
    """Every template a player may read in the game's tutorial (for the catalogs)."""
    found = tutorial(game)
    return [] if found is None else [step.text for step in found.steps] + [found.astray]
