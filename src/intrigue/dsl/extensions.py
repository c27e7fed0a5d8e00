"""Optional, backward-compatible statements a designer may add to a DSL file.

With them a game runs from its DSL file alone, with no Python (see
``docs/writing-a-game.md``). Every field is optional: the seed files use none.

- ``effects`` (on an action or a phase): ``- set: target.role_revealed`` /
  ``to: "true"`` assigns the value of an expression to a field. The left side is
  ``game.<name>``, ``actor.<field>`` (the player who chose), ``target.<field>``
  (the player the choice named) or ``players.<field>`` with ``where:``.
  ``- count: "Support Reveal"`` / ``into: game.supports`` tallies the answers of
  the decision that just closed. ``- advance: is_active`` / ``where: ...`` moves a
  boolean turn flag to the next player (seat order) matching ``where``.
- ``when`` on a conditional ``next_phase`` entry: the first entry whose ``when``
  is true is taken; an entry without ``when`` is the fallback.
- ``options`` on ``completion_criteria``: ``literals: [A, B]`` and/or
  ``players: <expression over player>`` (their names become options);
  ``except_self: true`` drops the deciding player.
- ``role_deal`` in the declaration: roles dealt at random, ``counts`` by player
  count (``rest`` gets the remainder), with per-role field values.
- ``visibility`` on a declared player field: ``public`` (default), ``owner``, or
  an expression over ``player`` (the owner) under which everyone may see it.
"""

from __future__ import annotations

from typing import Any, Union

from pydantic import BaseModel, ConfigDict, Field


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SetEffect(_Strict):
    set: str = Field(description="`game.<name>`, `actor.<field>`, `target.<field>` or `players.<field>`.")
    to: Union[str, int, float, bool, None] = Field(description="An expression.")
    where: str | None = Field(None, description="With `players.<field>`: which players.")


class CountEffect(_Strict):
    count: str = Field(description="The option whose answers are counted.")
    into: str = Field(description="`game.<name>` receiving the count.")


class AdvanceEffect(_Strict):
    advance: str = Field(description="A boolean player field marking whose turn it is.")
    where: str | None = Field(None, description="Which players may receive the turn.")


Effect = Union[SetEffect, CountEffect, AdvanceEffect]


class OptionsSpec(_Strict):
    literals: list[str] | None = None
    players: str | None = Field(None, description="An expression over `player`.")
    except_self: bool = False


class RoleCount(_Strict):
    counts: dict[int, int] | None = Field(None, description="Players in the game -> copies of this role.")
    rest: bool = Field(False, description="This role takes every seat not dealt otherwise.")
    fields: dict[str, Any] = Field(default_factory=dict, description="Player fields set for holders.")


class RoleDeal(_Strict):
    field: str = Field("role", description="The player field receiving the role name.")
    roles: dict[str, RoleCount]


VisibilitySpec = Union[str, bool]
