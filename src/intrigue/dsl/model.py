"""The typed model of a phase-DSL game file.

It accepts every shape the seed files' source system emits (see
``docs/writing-a-game.md``) and exports a JSON Schema (``intrigue schema``) so
editors can check a DSL file while it is written. Unknown keys are kept, and the
validator warns about them: a typo must not pass silently, but a newer emitter's
extra key must not break an old engine either.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from .extensions import Effect, OptionSpec, RoleDeal, VisibilitySpec


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class FieldSpec(_Open):
    """One declared player field: its type, an example and what it means."""

    type: str = "string"
    example: Any = None
    description: str | None = None
    visibility: VisibilitySpec | None = Field(
        None, description="Extension: who may see this field: public (the default), owner, nobody (not even "
                    "its owner, until shown), others (every other player, not its owner nor spectators) or an expression over `player` (everyone while it holds; the owner always).")


class Role(_Open):
    name: str
    description: str | None = None


class AudienceGroup(_Open):
    description: str | None = None
    selection_criteria: str = Field(description="An expression over `player`.")


class PlayerStatesTable(_Open):
    player_states: dict[int, dict[str, Any]] | None = None
    players: dict[int, dict[str, Any]] | None = None


class Declaration(_Open):
    title: str | None = Field(None, description="Extension: the game's display name.")
    summary: str | None = Field(
        None, description="Extension: one sentence for players (the lobby's line); default: the description's first.")
    description: str | None = None
    is_multiplayer: bool = True
    min_players: int | None = Field(None, ge=1)
    max_players: int | None = Field(None, ge=1)
    roles: list[Role] = Field(default_factory=list)
    player_states: dict[str, FieldSpec] = Field(default_factory=dict)
    player_states_template: PlayerStatesTable | None = None
    players_example: PlayerStatesTable | None = None
    audience_groups: dict[str, AudienceGroup] = Field(default_factory=dict)
    game_state: dict[str, Any] | None = Field(
        None, description="Extension: game-level state and its initial values.")
    public_state: list[str] | None = Field(
        None, description="Extension: the game_state names every player and spectator sees "
                          "(the others never leave the server).")
    role_deal: RoleDeal | None = Field(
        None, description="Extension: random role assignment from a distribution.")


#: Extension: marks text as meant for players (docs/writing-a-game.md, "Player text").
#: ``true``: the description is player text as written; a string: the player text itself.
PlayerText = Union[bool, Annotated[str, Field(min_length=1)], None]


class Action(_Open):
    description: str | None = None
    player_text: PlayerText = Field(
        None, description="Extension: `true` shows this action's description to players; a string is shown "
                          "instead. Without it the UI kit never shows the description (it is a designer's note).")
    tools: list[str] = Field(default_factory=list)
    stays: bool | None = Field(
        None, description="Extension: with `createTextDisplay`: the text stays on the table after the phase "
                          "(a topic card), until this action draws it again or `clearCanvas` clears the table.")
    effects: list[Effect] | None = Field(
        None, description="Extension: statements run after this action's tools.")


class TargetPlayers(_Open):
    description: str | None = None
    condition: Union[str, bool] = Field(description="An expression over `player` selecting who acts.")


class CompletionCriteria(_Open):
    type: Literal["UI_displayed", "player_action", "timer"]
    description: str | None = None
    wait_for: Literal["single_player_choice", "all_players_action",
                      "multiple_players_action"] | None = None
    target_players: TargetPlayers | None = None
    seconds: Union[Annotated[float, Field(gt=0)], str, None] = Field(
        None, description="For `timer` phases: how long to wait, in seconds: a number, or an expression over "
                          "game names read when the phase opens (a number above 0 then).")
    options: list[OptionSpec] | None = Field(
        None, description="Extension: the options offered to each target player.")
    default: str | None = Field(
        None, description="Extension: the option chosen for a player whose time runs out.")
    record: str | None = Field(
        None, description="Extension: a player field that receives each player's answer when the decision "
                          "closes (null for players not asked).")
    joint: Union[str, bool, None] = Field(
        None, description="Extension: `true` or an expression over `player`: the players asked who match it "
                          "choose together and see each other's answers as they are given.")
    secret: bool | None = Field(
        None, description="Extension: who acts is secret. Everyone in `cover` appears to act until the "
                          "decision closes; nobody is answered automatically. `false` says who acts is "
                          "public here (silences the validator's warning).")
    cover: Union[str, bool, None] = Field(
        None, description="Extension: with `secret`: who appears to act (default: every living player).")
    acknowledge: str | None = Field(
        None, description="Extension: with `secret`: what a player in the cover who does not act presses "
                          "(default: Continue).")
    ends_early: Literal["all", "any", "majority"] | None = Field(
        None, description="Extension: for a `timer` phase with options: it ends before its time when all "
                          "(default), any or a majority of the players asked have answered.")
    clock: Union[str, int, float, bool, None] = Field(
        None, description="Extension: for a `timer` phase: an expression naming its clock. The timer phases "
                          "entered while it has the same value share `seconds`: each runs on from the time "
                          "the earlier ones left (the clock stops between them).")


class NextRef(_Open):
    """A reference to a phase; ``id: null`` means the game ends here."""

    id: int | None = None
    name: str | None = None
    when: Union[str, bool, None] = Field(
        None, description="Extension: an expression choosing this branch.")


NextPhase = Union[NextRef, dict[str, NextRef], None]


class Phase(_Open):
    name: str
    description: str | None = None
    player_text: PlayerText = Field(
        None, description="Extension: the phase's question or explanation for players (`true`: the description "
                          "as written), used as the voting panel's prompt and in the rules drawer.")
    actions: list[Action] = Field(default_factory=list)
    completion_criteria: CompletionCriteria
    next_phase: NextPhase = None
    effects: list[Effect] | None = Field(
        None, description="Extension: statements run once the phase completes (after choices).")


class GameDefinition(_Open):
    """A whole DSL file: the declaration and the phases by id."""

    declaration: Declaration
    phases: dict[int, Phase]


def json_schema() -> dict[str, Any]:
    schema = GameDefinition.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Intrigue phase-DSL game"
    return schema
