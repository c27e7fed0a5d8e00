"""Optional, backward-compatible statements a designer may add to a DSL file.

With them a game runs from its DSL file alone, with no Python (the reference is
``docs/writing-a-game.md``). Every key is optional: the seed files use none, and
a file that uses none means exactly what it meant before.

In the declaration: ``title``; ``game_state`` (game-level names and their
initial values, constant tables included; expressions read them bare,
statements write them as ``game.<name>``); ``public_state`` (the names every
view carries); ``role_deal``; ``visibility`` on a player field (``public``,
``owner``, ``nobody``, ``others`` or an expression over ``player``).

On a ``player_action`` (or ``timer``) ``completion_criteria``: ``options`` (each
a literal, ``{option: X, if: expr}``, or ``{players: expr, except_self: true,
choose: N, if: expr}``; ``me`` is the deciding player), ``{items: expr}`` (each item of a list is an option), ``closes: true`` (the
first player to choose it ends the decision for everyone); ``default``, ``record``
(a player field receiving each player's answer), ``joint`` (partners who see
each other's answers as they are given), ``secret`` (who acts is secret),
``cover`` and ``acknowledge`` (who appears to act in a secret phase, and what
those who do not act press), ``ends_early`` and ``clock`` (timer phases).

On a conditional ``next_phase`` entry: ``when``.

``effects`` are statements, each with exactly one of the keys of
:data:`STATEMENTS`: ``set``, ``count``, ``tally``, ``most``, ``advance``, ``deal``,
``shuffle``, ``roll``, ``show``, ``say`` (with an optional ``banner``), ``win`` and ``if``
(with ``then``/``else``).
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
    "tally": {"into", "majority", "unanimous"},
    "most": {"into", "where", "tie"},
    "advance": {"where", "rounds"},
    "deal": set(),
    "shuffle": set(),
    "roll": {"where", "dice", "sides"},
    "show": {"where", "to", "except_self"},
    "say": {"to", "where", "banner"},
    "win": set(),
    "if": {"then", "else"},
}

#: Companion keys a statement cannot do without.
REQUIRED: dict[str, set[str]] = {"set": {"to"}, "count": {"into"}, "tally": {"into"}, "most": {"into"},
                                 "if": {"then"}}

#: The YAML keys of statements whose Python attribute differs (``if`` is a keyword).
ALIASES = {"if": "if_", "else": "else_"}


class Banner(_Strict):
    """What a ``say`` line also shows over the table, as the Python games' outcomes do."""

    tone: Literal["good", "bad", "info"] = Field(description="The banner's colour: `good`, `bad` or `info`.")
    title: str = Field(min_length=1, description="A short headline (translated through the game's catalogs); "
                                              "`{expression}` is replaced by its value, as in the line.")

    @model_validator(mode="before")
    @classmethod
    def _a_mapping(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            raise ValueError("a banner is a mapping: {tone: good, bad or info, title: a short headline}")
        return data


class Effect(_Strict):
    """One statement; see ``docs/writing-a-game.md`` for what each key means."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, json_schema_extra={
        "oneOf": [{"required": [key]} for key in STATEMENTS]})

    set: str | None = Field(None, description="`game.<name>`, `actor.<field>`, `chosen.<field>` or `players.<field>`.")
    count: str | None = Field(None, description="An expression over `player`: how many players match.")
    tally: str | None = Field(None, description="The option whose answers are counted.")
    most: str | None = Field(None, description="An expression over `player` (usually `answer`): its most common "
                                               "value among the players matching `where`.")
    advance: str | None = Field(None, description="A boolean player field marking whose turn it is.")
    deal: Literal["roles"] | None = Field(None, description="Deal `declaration.role_deal`.")
    shuffle: str | None = Field(None, description="`game.<name>`: a list put in a random order (a deck).")
    roll: str | None = Field(None, description="`players.<field>` or `game.<name>`: set to a die roll (a number from "
                                               "1 to `sides`), or with `dice` to a list of that many rolls.")
    dice: Expr = Field(None, description="With `roll`: how many dice (an expression; for `players.<field>`, "
                                         "over `player`); the target becomes a list. Without it: one number.")
    sides: Expr = Field(None, description="With `roll`: the faces of each die (an expression; default 6).")
    show: Union[str, list[str], None] = Field(None, description="Player field(s) shown and remembered.")
    say: str | None = Field(None, description="A log line; `{expression}` is replaced by its value.")
    banner: Banner | None = Field(None, description="With `say`: `{tone: good|bad|info, title: ...}`, a banner "
                                                   "over the table for the line's audience.")
    win: Expr = Field(None, description="An expression over `player`: who wins.")
    if_: Expr = Field(None, alias="if", description="A condition: run `then` when it holds, else `else`.")
    then: list["Effect"] | None = Field(None, description="With `if`: statements run when it holds.")
    else_: list["Effect"] | None = Field(None, alias="else", description="With `if`: statements run otherwise.")
    to: Expr = Field(None, description="With `set`: an expression. With `show`/`say`: who sees it.")
    except_self: bool | None = Field(None, description="With `show`: leave out the player the card is about "
                                                       "(a minion shown to the minions does not see their "
                                                       "own side again).")
    where: Expr = Field(None, description="An expression over `player`: which players.")
    into: str | None = Field(None, description="`game.<name>` receiving the result.")
    majority: str | None = Field(None, description="`game.<name>` set to whether more than half chose it.")
    unanimous: str | None = Field(None, description="`game.<name>` set to whether every player asked chose it.")
    tie: Literal["none", "random"] | None = Field(None, description="With `most`: on a tie, no result (null, "
                                                                   "the default) or one of the tied at random.")
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
        wrong = sorted(k for k in set(data) - {statement} - STATEMENTS[statement]
                       if ALIASES.get(k, k) in cls.model_fields)
        if wrong:
            raise ValueError(f"'{statement}' does not take {', '.join(repr(k) for k in wrong)}")
        missing = sorted(REQUIRED.get(statement, set()) - set(data))
        if missing:
            raise ValueError(f"'{statement}' needs {', '.join(repr(k) for k in missing)}")
        return data

    @property
    def statement(self) -> str:
        return next(key for key in STATEMENTS if getattr(self, ALIASES.get(key, key)) is not None)


class OptionEntry(_Strict):
    """A conditional literal option, the items of a list, or the players one may name (one, or N)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, json_schema_extra={
        "oneOf": [{"required": ["option"]}, {"required": ["players"]}, {"required": ["items"]}]})

    option: str | None = Field(None, description="A literal option.")
    if_: Expr = Field(None, alias="if", description="Offered only to a deciding player (`me`) for whom this holds.")
    players: Expr = Field(None, description="An expression over `player` (and `me`): each match's name is an option.")
    items: Union[str, None] = Field(None, description="An expression giving a list: each distinct item is an option.")
    where: Expr = Field(None, description="With `items`: only the items for which this holds are offered "
                                          "(`item` is each item in turn, `me` the deciding player).")
    except_self: bool = Field(False, description="With `players`: leave out the deciding player.")
    choose: Union[int, str, None] = Field(None, description="With `players`: pick exactly this many of them "
                                                            "(an expression); one option per combination.")
    closes: bool = Field(False, description="With `option` or `items`: the first player to choose it ends the "
                                            "decision for everyone (a challenge).")
    secret: bool = Field(False, description="Who is offered this option is secret (see `secret` on the phase).")

    @model_validator(mode="before")
    @classmethod
    def _option_or_players(cls, data: Any) -> Any:
        if isinstance(data, dict):
            kinds = [key for key in ("option", "players", "items") if key in data]
            if len(kinds) != 1:
                raise ValueError("an option entry needs exactly one of 'option', 'players' or 'items'")
            for key in ("except_self", "choose"):
                if key in data and "players" not in data:
                    raise ValueError(f"'{key}' goes with 'players'")
            if "where" in data and "items" not in data:
                raise ValueError("'where' goes with 'items' (it keeps the items for which it holds, each "
                                 "named `item`); on 'players', write the condition in 'players' itself")
            if "closes" in data and "players" in data:
                raise ValueError("'closes' goes with 'option' or 'items'")
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

#: Names the statements and ``when`` provide beside the declared game names
#: (a game name may not take one of them).
DECISION_NAMES = ("choice", "actor", "chosen")
#: Names added later: a game name of the same spelling hides them (older files keep working).
NEWER_NAMES = ("picked", "asked", "answer", "me", "player_count", "players", "item")
#: The option a player in the cover of a secret phase, who does not act, answers.
ACKNOWLEDGE = "Continue"

#: ``{expression}`` placeholders in a ``say`` template.
TEMPLATE = re.compile(r"\{([^{}]+)\}")


Effect.model_rebuild()
