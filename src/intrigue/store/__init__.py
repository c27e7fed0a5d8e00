"""The durable store: rooms, seats, matches and the append-only log of choices.

A match is fully determined by (game, players, seed, options) and its accepted
choices, so the log is the whole truth; everything else (views, timers, bots) is
rebuilt from it. :class:`Store` is the small interface the server uses;
:class:`~intrigue.store.sqlite.SQLiteStore` implements it in one file (the default) and
:class:`~intrigue.store.postgres.PostgresStore` in a PostgreSQL database that the
nodes of a cluster share (it adds fencing: see its module).

Rule the server keeps: a choice is appended (committed) *before* it is applied to
the match or acknowledged to anyone. ``(match, version)`` is unique, so two writes
of the same version cannot both succeed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


class StoreError(RuntimeError):
    """The store could not do what was asked (disk full, read-only, locked…)."""


class CorruptStore(StoreError):
    """The database file is damaged, truncated or not an Intrigue database."""


class Conflict(StoreError):
    """A second write of an existing (match, version) was refused."""


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
    status: str  # playing | finished | abandoned (its room was lost before the match could go on)
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
    """What the server needs from durable storage."""

    # rooms and seats
    def save_room(self, room: RoomRecord) -> None: ...
    def load_room(self, code: str) -> RoomRecord | None: ...
    def open_rooms(self) -> list[RoomRecord]: ...
    def room_codes(self) -> set[str]: ...

    # matches and their log
    def create_match(self, room: str | None, game: str, game_version: str, players: list[str],
                     bots: list[str | None], seed: int, options: dict[str, Any], started: str) -> int: ...
    def append_choice(self, match: int, choice: ChoiceRecord) -> None: ...
    def finish_match(self, match: int, winners: list[int], finished: str) -> None: ...
    def abandon_match(self, match: int, at: str) -> None: ...
    def load_match(self, match: int) -> MatchRecord | None: ...
    def choices(self, match: int) -> list[ChoiceRecord]: ...
    def list_matches(self, status: str | None = None, limit: int = 200) -> list[MatchRecord]: ...

    # chat
    def add_chat(self, chat: ChatRecord) -> None: ...
    def recent_chat(self, room: str, limit: int = 50) -> list[ChatRecord]: ...

    def close(self) -> None: ...


def is_url(location: str) -> bool:
    """True for a PostgreSQL URL (``postgresql://…``), False for a SQLite file."""
    return location.startswith(("postgresql://", "postgres://"))


def open_store(path: str, synchronous: str = "FULL", busy_timeout: float = 5.0) -> "Store":
    """Open (creating and migrating if needed) the store at ``path``: a SQLite file or a ``postgresql://`` URL."""
    if is_url(path):
        from .postgres import PostgresStore  # noqa: PLC0415

        return PostgresStore(path)
    from .sqlite import SQLiteStore  # noqa: PLC0415

    return SQLiteStore(path, synchronous=synchronous, busy_timeout=busy_timeout)


__all__ = ["ChatRecord", "ChoiceRecord", "Conflict", "CorruptStore", "Fenced", "is_url", "MatchRecord", "RoomRecord",
           "SeatRecord", "Store", "StoreError", "open_store"]
