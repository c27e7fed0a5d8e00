"""Optional, backward-compatible statements a designer may add to a DSL file.

With them a game runs from its DSL file alone, with no Python (see
``docs/writing-a-game.md``). Every key is optional: the seed files use none, and
a file that uses none means exactly what it meant before.

In the declaration:

- ``title``: the game's display name.
- ``game_state``: game-level names and their initial values. Expressions read
  them bare (``round > round_limit``); statements write them as ``game.<name>``.
- ``role_deal``: roles dealt at random from a distribution by player count.
- ``visibility`` on a declared player field: ``public`` (default), ``owner``, or
  an expression over ``player`` (the owner): the owner always sees the field and
  everyone sees it while the expression holds.

On a ``completion_criteria`` of type ``player_action``:

- ``options``: a list; each entry is a literal option, ``{option: X, if: expr}``
  (offered when ``expr`` holds for the deciding ``player``), or
  ``{players: expr, except_self: true}`` (the name of every player matching).
- ``default``: the option taken for a player whose time runs out (one of the literals).

On a conditional ``next_phase`` entry:

- ``when``: the first entry whose ``when`` holds is taken; the last entry may
  omit it and is then the fallback.

``effects`` (on an action: run after its tools; on a phase: run once the phase
completes, after its choices) is a list of statements, each with exactly one of
the keys below. In them, ``choice`` is the option chosen in the decision that
just closed (if one player chose), ``actor.<field>`` that player and
``chosen.<field>`` the player that option names.

- ``set: game.<name>|actor.<f>|chosen.<f>|players.<f>``, ``to: expr``, and with
  ``players.`` an optional ``where``; in ``to``, ``player`` is the player being set.
- ``count: expr over player``, ``into: game.<name>``: how many players match.
- ``tally: <option>``, ``into: game.<name>``, optional ``majority: game.<name>``
  (true when more than half of the players asked chose it).
- ``advance: <boolean field>``, optional ``where`` and ``rounds: game.<name>``
  (increased when the turn comes back round to the seat that started). When
  nobody holds the flag yet it goes to a random player matching.
- ``deal: roles``: deal ``declaration.role_deal``.
- ``show: <field or list>``, ``where`` (whose), ``to: owner|actor|everyone|<group>``:
  a private card, remembered: the viewers keep seeing those fields of those players.
- ``say: "text with {expressions}"``, optional ``to`` (as for show) and ``where``
  (one line per matching player, who is ``player`` in it).
- ``win: expr over player``: the players matching win.
"""

from __future__ import annotations

import re
from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Strict(BaseModel):
    """Extension statements are new: a typo in one is an error, not a warning."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


Expr = Union[str, bool, int, float, None]

#: The statement keys of an effect, each with the companion keys it accepts.
STATEMENTS: dict[str, set[str]] = {
    "set": {"to", "where"},
    "count": {"into"},
    "tally": {"into", "majority"},
    "advance": {"where", "rounds"},
    "deal": set(),
    "show": {"where", "to"},
    "say": {"to", "where"},
    "win": set(),
}

#: Companion keys a statement cannot do without.
REQUIRED: dict[str, set[str]] = {"set": {"to"}, "count": {"into"}, "tally": {"into"}}


class Effect(_Strict):
    """One statement; see the module docstring for what each key means."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "oneOf": [{"required": [key]} for key in STATEMENTS]})

    set: str | None = Field(None, description="`game.<name>`, `actor.<field>`, `chosen.<field>` or `players.<field>`.")
    count: str | None = Field(None, description="An expression over `player`: how many players match.")
    tally: str | None = Field(None, description="The option whose answers are counted.")
    advance: str | None = Field(None, description="A boolean player field marking whose turn it is.")
    deal: Literal["roles"] | None = Field(None, description="Deal `declaration.role_deal`.")
    show: Union[str, list[str], None] = Field(None, description="Player field(s) shown and remembered.")
    say: str | None = Field(None, description="A log line; `{expression}` is replaced by its value.")
    win: Expr = Field(None, description="An expression over `player`: who wins.")
    to: Expr = Field(None, description="With `set`: an expression. With `show`/`say`: who sees it.")
    where: Expr = Field(None, description="An expression over `player`: which players.")
    into: str | None = Field(None, description="`game.<name>` receiving the number.")
    majority: str | None = Field(None, description="`game.<name>` set to whether more than half chose it.")
    rounds: str | None = Field(None, description="`game.<name>` counting the rounds.")

    @model_validator(mode="before")
    @classmethod
    def _one_statement(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            raise ValueError(f"an effect is a mapping with one of {', '.join(STATEMENTS)}")
        found = [key for key in STATEMENTS if key in data]
        if len(found) != 1:
            what = ", ".join(found) if found else "none"
            raise ValueError(f"an effect needs exactly one of {', '.join(STATEMENTS)} (found: {what})")
        statement = found[0]
        if data[statement] is None:
            raise ValueError(f"'{statement}' needs a value")
        wrong = sorted(k for k in set(data) - {statement} - STATEMENTS[statement] if k in cls.model_fields)
        if wrong:
            raise ValueError(f"'{statement}' does not take {', '.join(repr(k) for k in wrong)}")
        missing = sorted(REQUIRED.get(statement, set()) - set(data))
        if missing:
            raise ValueError(f"'{statement}' needs {', '.join(repr(k) for k in missing)}")
        return data

    @property
    def statement(self) -> str:
        return next(key for key in STATEMENTS if getattr(self, key) is not None)


class OptionEntry(_Strict):
    """A conditional literal option, or one option per matching player."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True,
                              json_schema_extra={"oneOf": [{"required": ["option"]}, {"required": ["players"]}]})

    option: str | None = Field(None, description="A literal option.")
    if_: Expr = Field(None, alias="if", description="With `option`: offered when this holds for the deciding player.")
    players: Expr = Field(None, description="An expression over `player`: each match's name is an option.")
    except_self: bool = Field(False, description="With `players`: leave out the deciding player.")

    @model_validator(mode="before")
    @classmethod
    def _option_or_players(cls, data: Any) -> Any:
        if isinstance(data, dict) and ("option" in data) == ("players" in data):
            raise ValueError("an option entry needs exactly one of 'option' or 'players'")
        if isinstance(data, dict) and "option" in data and "except_self" in data:
            raise ValueError("'except_self' goes with 'players'")
        if isinstance(data, dict) and "players" in data and "if" in data:
            raise ValueError("'if' goes with 'option'")
        return data


OptionSpec = Union[str, OptionEntry]


class RoleCount(_Strict):
    counts: dict[int, int] | None = Field(None, description="Players in the game -> copies of this role.")
    rest: bool = Field(False, description="This role takes every seat not dealt otherwise.")
    fields: dict[str, Any] = Field(default_factory=dict, description="Player fields set for holders.")


class RoleDeal(_Strict):
    field: str = Field("role", description="The player field receiving the role name.")
    roles: dict[str, RoleCount]


VisibilitySpec = Union[str, bool]

#: Names the statements and ``when`` provide beside the declared game names.
DECISION_NAMES = ("choice", "actor", "chosen")

#: ``{expression}`` placeholders in a ``say`` template.
TEMPLATE = re.compile(r"\{([^{}]+)\}")
