"""The WebSocket protocol's messages, defined once (docs/protocol.md).

The server validates what arrives with the client models here
(:func:`command`), the client library (:mod:`intrigue.client`) builds what it
sends from them and reads what it gets with the server models, and
:func:`json_schema` publishes both directions for client authors
(``intrigue schema --protocol``, ``GET /api/protocol.json``).

This module sits below every other layer (it needs only pydantic), so the
server, the client and the bots that play through the client share it without
importing each other. Frame-level checks (size, JSON, nesting) and the cleaning
of names and chat are the server's (:mod:`intrigue.server.protocol`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, TypeAdapter, ValidationError

#: Every error code the server may answer with, and what it means (docs/protocol.md lists the same).
ERROR_CODES: dict[str, str] = {
    "bad_json": "the frame is not valid JSON (or is absurdly deeply nested)",
    "too_large": "the message is over 64 KiB",
    "binary": "a binary frame: send JSON text",
    "unknown_type": "the message's type is not a client message type",
    "bad_message": "not a flat JSON object, or a field of the wrong type, or missing (other than the token); "
                   "a name or chat line that is empty or too long",
    "no_room": "no 'hello' yet, or the room does not exist (any more)",
    "bad_token": "the token is missing, or holds no seat in this room (spectators cannot act or chat)",
    "not_started": "the room's match has not started",
    "over": "the match is over",
    "not_pending": "it is not your decision",
    "not_offered": "the option is not one of yours now",
    "stale_version": "the command's version is not one of the open decision",
    "rate_limited": "too many messages (or chat lines): this one was ignored",
    "quota": "too many connections (from your address, or in the room)",
    "not_host": "only the host can start the match",
    "not_enough_players": "too few seated players to start",
    "already_started": "the match has already started",
    "not_over": "a rematch vote before game over",
    "not_practice": "a hint outside a practice room (another person sits at the table)",
    "storage": "the server could not store the change, so nothing changed; try again",
    "internal": "a server bug; nothing changed",
    "moved": "in a cluster: the room now belongs to another node; nothing changed, reconnect",
    "unavailable": "in a cluster: the room's node did not answer in time; nothing changed, try again",
}

#: How many log lines a view carries (the last ones the seat may read): a client merging log deltas keeps
#: this many. The engine's ``observe`` builds the log (``engine.observe.LOG_TAIL``, the same number, tested).
LOG_TAIL = 80

ErrorCode = Literal["bad_json", "too_large", "binary", "unknown_type", "bad_message", "no_room", "bad_token",
                    "not_started", "over", "not_pending", "not_offered", "stale_version", "rate_limited",
                    "quota", "not_host", "not_enough_players", "already_started", "not_over", "not_practice",
                    "storage", "internal", "moved", "unavailable"]


class ProtocolError(ValueError):
    """A client message that does not fit the protocol: ``code`` is one of :data:`ERROR_CODES`."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


# -- client -> server -----------------------------------------------------------------------------------
class _Command(BaseModel):
    """A client message. Unknown extra fields are ignored; ``null`` counts as a missing field."""

    model_config = ConfigDict(extra="ignore")


class Hello(_Command):
    """Attach to a room: as its seat (with the seat's token) or as a spectator (without)."""

    type: Literal["hello"] = "hello"
    room: StrictStr = Field(description="the room code (case-insensitive)")
    token: StrictStr | None = Field(None, description="the seat's token; leave it out to watch")
    log_deltas: StrictBool | None = Field(None, description="true: each `view` on this connection carries "
                                                            "`log_after`, and its `view.log` only the lines "
                                                            "added since the previous view (see `View`)")


class Choose(_Command):
    """Make a choice in the current match."""

    type: Literal["choose"] = "choose"
    token: StrictStr
    version: StrictInt = Field(description="the `version` of the view the choice was made from")
    option: StrictStr = Field(description="one of `view.decision.options`, verbatim")
    match: StrictInt | None = Field(None, description="optional: the `match` of the view it was made from; "
                                                      "another match's is refused (`stale_version`)")


class Chat(_Command):
    """Say something to the room (seats only: without a token the answer is `bad_token`)."""

    type: Literal["chat"] = "chat"
    token: StrictStr | None = None
    text: StrictStr = Field(description="at most 300 characters, plain text")


class Start(_Command):
    """The host starts the match."""

    type: Literal["start"] = "start"
    token: StrictStr


class Rematch(_Command):
    """Vote for a rematch after game over."""

    type: Literal["rematch"] = "rematch"
    token: StrictStr
    match: StrictInt | None = Field(None, description="optional: the `match` of the view that ended; "
                                                      "another match's is refused (`stale_version`)")


class HintRequest(_Command):
    """Ask the coach what to play now and why (only in a practice room, only when it is your decision)."""

    type: Literal["hint"] = "hint"
    token: StrictStr
    version: StrictInt = Field(description="the `version` of the view the hint is for (of the open decision)")
    match: StrictInt | None = Field(None, description="optional: the `match` of the view the hint is for; "
                                                      "another match's is refused (`stale_version`)")


class Ping(_Command):
    """Keep-alive; answered by `pong`."""

    type: Literal["ping"] = "ping"


#: type -> model of every message a client may send.
COMMANDS: dict[str, type[_Command]] = {"hello": Hello, "choose": Choose, "chat": Chat, "start": Start,
                                       "rematch": Rematch, "hint": HintRequest, "ping": Ping}

ClientMessage = Annotated[Union[Hello, Choose, Chat, Start, Rematch, HintRequest, Ping], Field(discriminator="type")]


def command(message: dict[str, Any]) -> _Command:
    """Check one decoded client message (a flat JSON object) against its model.

    Raises :class:`ProtocolError`: ``unknown_type`` for a type that is not a
    command, ``bad_token`` when a command that needs a token has none,
    ``bad_message`` for any other missing or mistyped field.
    """
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message must have a string 'type'")
    model = COMMANDS.get(kind)
    if model is None:
        shown = "".join(ch for ch in kind[:40] if ch.isprintable())
        raise ProtocolError("unknown_type", f"unknown message type {shown!r} (known: {', '.join(COMMANDS)})")
    present = {key: value for key, value in message.items() if value is not None}
    try:
        return model.model_validate(present)
    except ValidationError as exc:
        raise _refusal(kind, exc) from None


def _refusal(kind: str, exc: ValidationError) -> ProtocolError:
    problems = exc.errors(include_url=False, include_input=False)
    if any(p["type"] == "missing" and p["loc"] == ("token",) for p in problems):
        return ProtocolError("bad_token", f"'{kind}' needs your seat's token (the field 'token')")
    problem = problems[0]
    field = ".".join(str(part) for part in problem["loc"]) or "type"
    if problem["type"] == "missing":
        return ProtocolError("bad_message", f"'{kind}' needs the field '{field}'")
    expected = ("an integer" if problem["type"].startswith("int") else
                "true or false" if problem["type"].startswith("bool") else "a string")
    return ProtocolError("bad_message", f"'{field}' must be {expected}")


# -- server -> client -----------------------------------------------------------------------------------
class _Message(BaseModel):
    """A server message. Clients should ignore fields they do not know: new ones may be added."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


class Welcome(_Message):
    """Answers `hello` (and is sent again when the seats are renumbered at the start)."""

    type: Literal["welcome"] = "welcome"
    room: str
    seat: int | None = Field(description="the seat's index, or null for a spectator")
    name: str | None
    spectator: bool


class SeatInfo(_Message):
    seat: int
    name: str | None = Field(description="null: the seat is free")
    bot: str | None = Field(description="the bot's spec (`kind` or `kind:personality`), null for a person")
    connected: bool
    left: bool


class Rematches(_Message):
    votes: list[int]
    needed: list[int]


class RoomInfo(_Message):
    """A room as `GET /api/rooms/{room}` shows it; with ``type: "room"`` on the socket."""

    type: Literal["room"] = "room"
    room: str
    game: str
    title: str
    status: Literal["waiting", "playing", "finished", "closed"]
    host: int
    match: int | None
    private: bool
    seats: list[SeatInfo]
    min_players: int
    max_players: int
    rematch: Rematches
    options: dict[str, Any]
    created: str


class Timer(_Message):
    seconds_left: float
    seconds: float
    kind: Literal["turn", "window", "grace", "phase"]
    default: str | None = Field(None, description="only in the view of a seat that is pending: the option the "
                                                  "timer will choose for it")


class TimedOut(_Message):
    """A recent choice the timer made (a view's `timeouts`): its log lines carry `version + 1`."""

    version: int = Field(description="the version the choice was made at (in a secret decision, as the seat "
                                     "knew it then)")
    player: str


class Phase(_Message):
    id: int
    name: str


class Pick(_Message):
    count: int
    choices: list[str] = Field(alias="from", description="the players one may pick, in seat order")


class Decision(_Message):
    phase: int
    kind: str
    waiting: list[str] = Field(description="in a secret decision: everyone who could be acting, never exactly "
                                           "the actors")
    options: list[str] = Field(description="empty for a seat that is not pending; sent back verbatim")
    pick: Pick | None = Field(None, description="a choice of exactly N players: each option is N names in seat "
                                                "order joined by ', '")
    answers: dict[str, str] | None = Field(None, description="a joint choice: the partners' answers so far")


class LogLine(_Message):
    version: int
    text: str
    key: str | None = Field(None, description="the line's template as written (a DSL say line), for translation")
    args: dict[str, Any] | None = Field(None, description="each placeholder's value")


class Observation(_Message):
    """``observe(match, seat)``: what one seat (or a spectator) may know."""

    game: str
    title: str
    version: int
    seat: int | None
    you: str | None
    players: list[str]
    phase: Phase
    waiting: list[str]
    decision: Decision | None
    state: dict[str, Any]
    components: list[dict[str, Any]]
    log: list[LogLine]
    over: bool
    winners: list[str]


class View(_Message):
    type: Literal["view"] = "view"
    match: int
    view: Observation
    timer: Timer | None
    timeouts: list[TimedOut] = Field(default_factory=list, description="the match's last 20 choices the timer "
                                     "made that this seat may be told of (the browser marks their lines)")
    log_after: int | None = Field(None, description="only on a connection whose `hello` asked for `log_deltas`: "
                                                    "null, `view.log` is the whole log; a number, the `version` "
                                                    "of the previous view sent on this connection, and `view.log` "
                                                    "holds only the lines added since it: append them to that "
                                                    "view's log and keep the last 80")


class ChatLine(_Message):
    type: Literal["chat"] = "chat"
    sender: str = Field(alias="from", description="the speaker's display name")
    seat: int | None = Field(description="the speaker's seat now (seats are renumbered at the start); null for "
                                         "someone who left the table before the match started")
    text: str
    at: str


class Error(_Message):
    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    about: Literal["hint"] | None = Field(None, description="present when the error answers a `hint` request")


class Reason(_Message):
    """One sentence: ``key`` and ``args`` translate it (like a log line), ``text`` is the English."""

    key: str = Field(description="an id of the client's catalog (`coach.*`) or a template of the game's catalog")
    args: dict[str, Any] = Field(description="the values of the template's placeholders")
    text: str


class Hint(_Message):
    """The coach's answer to `hint`: one of the seat's options now, and why."""

    type: Literal["hint"] = "hint"
    version: int = Field(description="the match's version when the hint was asked for")
    option: str = Field(description="one of `view.decision.options`, verbatim")
    reason: Reason


class Pong(_Message):
    type: Literal["pong"] = "pong"


ServerMessage = Annotated[Union[Welcome, RoomInfo, View, ChatLine, Hint, Error, Pong], Field(discriminator="type")]

#: type -> model of every message the server sends.
MESSAGES: dict[str, type[_Message]] = {"welcome": Welcome, "room": RoomInfo, "view": View, "chat": ChatLine,
                                       "hint": Hint, "error": Error, "pong": Pong}

_SERVER = TypeAdapter(ServerMessage)


def message(data: dict[str, Any]) -> _Message:
    """Read one server message (raises pydantic's ``ValidationError`` if it does not fit)."""
    return _SERVER.validate_python(data)


def json_schema() -> dict[str, Any]:
    """JSON Schema (draft 2020-12) of the protocol: ``client`` and ``server`` messages under ``$defs``."""
    client = TypeAdapter(ClientMessage).json_schema(ref_template="#/$defs/{model}")
    server = _SERVER.json_schema(ref_template="#/$defs/{model}", mode="serialization")
    defs = {**client.pop("$defs", {}), **server.pop("$defs", {})}
    for definition in defs.values():  # `type` has a default in Python, but every message on the wire carries it
        if "const" in definition.get("properties", {}).get("type", {}):
            definition["properties"]["type"].pop("default", None)
            definition["required"] = ["type", *[f for f in definition.get("required", []) if f != "type"]]
    defs["ClientMessage"] = client
    defs["ServerMessage"] = server
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Intrigue WebSocket protocol",
        "description": "One JSON object per text frame on /ws. A client sends a ClientMessage and receives "
                       "ServerMessages (docs/protocol.md). Server messages may gain fields: ignore unknown ones.",
        "anyOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": defs,
    }
