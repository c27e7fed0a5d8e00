"""The durable store: rooms, seats, matches and the append-only log of choices.

A match is fully determined by (game, players, seed, options) and its accepted
choices, so the log is the whole truth; everything else (views, timers, bots) is
rebuilt from it. :class:`Store` is the small interface the server uses;
:class:`~intrigue.store.sqlite.SQLiteStore` implements it in one file (the default) and
:class:`~intrigue.store.postgres.PostgresStore` in a PostgreSQL database that the
nodes of a cluster share (it adds fencing: see its module).

Every write is one whole state change and one transaction: it happens entirely
or not at all, whatever instant the process dies. That is why the interface has
no ``begin``/``commit``: a new match and its room's pointer to it
(:meth:`Store.start_match`), a match's result and its room's new status
(:meth:`Store.finish_match`), a room with its seats and rematch votes
(:meth:`Store.save_room`), one choice (:meth:`Store.append_choice`) and an
imported match with its whole log (:meth:`Store.import_match`). A backend that
fences writers (a token checked inside every write, so that a server that lost
its lease can no longer append) checks it in each of these methods and raises a
:class:`StoreError`; nothing else in the server has to change.

Rule the server keeps: nobody is told of a choice before it is appended
(committed). ``(match, version)`` is unique, so two writes of the same version
cannot both succeed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

#: Chat lines kept per room: adding one deletes the room's older lines beyond these. A hello replays the newest
#: 50; kept without a bound, a seat writing a line every 2 s grew the store by about 15 MB a day.
CHAT_KEPT = 100


class StoreError(RuntimeError):
    """The store could not do what was asked (disk full, read-only, locked…)."""


class CorruptStore(StoreError):
    """The database file is damaged, truncated or not an Intrigue database."""


class Conflict(StoreError):
    """A write contradicts what is stored (a second choice at an existing (match, version)); nothing was written."""


class Fenced(StoreError):
    """A write carried a fencing token that is no longer its room's: another node owns the room now."""


@dataclass
class SeatRecord:
    seat: int
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    left: bool = False


@dataclass
class RoomRecord:
    code: str
    game: str
    host: int
    private: bool
    options: dict[str, Any]
    status: str  # waiting | playing | finished | closed
    created: str
    creator: str = ""
    match: int | None = None
    seats: list[SeatRecord] = field(default_factory=list)
    votes: list[int] = field(default_factory=list)  # seats that voted for a rematch of the finished match


@dataclass
class ChoiceRecord:
    version: int
    seat: int
    option: str
    source: str  # player | timeout | bot | left
    at: str


@dataclass
class MatchRecord:
    id: int
    room: str | None
    game: str
    game_version: str
    players: list[str]
    bots: list[str | None]
    seed: int
    options: dict[str, Any]
    status: str  # playing | finished | abandoned (only in databases from before atomic match starts)
    winners: list[int]
    started: str
    finished: str | None = None
    moves: int = 0


@dataclass
class ChatRecord:
    room: str
    seat: int
    name: str
    text: str
    at: str


class Store(Protocol):
    """What the server needs from durable storage. Each write is one transaction."""

    # rooms and seats
    def save_room(self, room: RoomRecord) -> None:
        """Store ``room`` whole (its seats and rematch votes too), replacing what was stored."""
    def load_room(self, code: str) -> RoomRecord | None: ...
    def open_rooms(self) -> list[RoomRecord]: ...
    def room_codes(self) -> set[str]: ...

    # matches and their log
    def start_match(self, room: RoomRecord, match: MatchRecord) -> int:
        """Store a new ``playing`` match (``match.id``, status, winners and moves are ignored) and
        ``room`` pointing at it, together. Returns the new match's id."""
    def append_choice(self, match: int, choice: ChoiceRecord) -> None:
        """Append one choice; :class:`Conflict` if ``(match, choice.version)`` is already stored."""
    def finish_match(self, match: int, winners: list[int], finished: str, room: RoomRecord | None = None) -> None:
        """Mark the match finished and, if given, store its room's new state, together."""
    def import_match(self, match: MatchRecord, choices: list[ChoiceRecord]) -> int:
        """Store a finished match with no room and its whole log, together. Returns its id."""
    def abandon_match(self, match: int, at: str) -> None:
        """Settle a ``playing`` match no room plays (only an older database can hold one)."""
    def load_match(self, match: int) -> MatchRecord | None: ...
    def choices(self, match: int) -> list[ChoiceRecord]: ...
    def list_matches(self, status: str | None = None, limit: int = 200) -> list[MatchRecord]: ...

    # chat
    def add_chat(self, chat: ChatRecord) -> None:
        """Store a line and delete its room's lines older than the newest ``CHAT_KEPT``, together."""
    def recent_chat(self, room: str, limit: int = 50) -> list[ChatRecord]: ...

    def close(self) -> None: ...


def is_url(location: str) -> bool:
    """True for a PostgreSQL URL (``postgresql://…``), False for a SQLite file."""
    return location.startswith(("postgresql://", "postgres://"))


def open_store(path: str, synchronous: str = "FULL", busy_timeout: float = 5.0, sync_later: bool = False) -> "Store":
    """Open (creating and migrating if needed) the store at ``path``: a SQLite file or a ``postgresql://`` URL.
    ``sync_later``: a SQLite store's commits are synced by its ``flush`` (the server's group commit)."""
    if is_url(path):
        from .postgres import PostgresStore  # noqa: PLC0415

        return PostgresStore(path)
    from .sqlite import SQLiteStore  # noqa: PLC0415

    return SQLiteStore(path, synchronous=synchronous, busy_timeout=busy_timeout, sync_later=sync_later)


__all__ = ["CHAT_KEPT", "ChatRecord", "ChoiceRecord", "Conflict", "CorruptStore", "Fenced", "is_url", "MatchRecord",
           "RoomRecord", "SeatRecord", "Store", "StoreError", "open_store"]
