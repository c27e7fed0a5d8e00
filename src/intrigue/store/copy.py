"""``intrigue store copy SRC DST``: every room, seat, match, move and chat line from one store to another.

SRC and DST are each a SQLite file or a ``postgresql://`` URL, so a database
moves from SQLite to PostgreSQL and back. Everything is read through the
:class:`~intrigue.store.Store` interface and written in one transaction, with
match ids kept (history links stay valid); the destination must be empty, and
the copy is checked afterwards (same rooms, same matches, same logs). Fencing
tokens are not copied: they belong to a running cluster, whose nodes claim the
rooms again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from . import ChatRecord, ChoiceRecord, MatchRecord, RoomRecord, Store, StoreError, open_store

ALL = 10**12


@dataclass
class Copied:
    rooms: int = 0
    matches: int = 0
    choices: int = 0
    chat: int = 0


@dataclass
class Contents:
    rooms: list[RoomRecord]
    matches: list[tuple[MatchRecord, list[ChoiceRecord]]]
    chat: list[ChatRecord]


def read_all(store: Store) -> Contents:
    rooms = [room for code in sorted(store.room_codes()) if (room := store.load_room(code)) is not None]
    matches = [(record, store.choices(record.id)) for record in sorted(store.list_matches(None, ALL),
                                                                       key=lambda m: m.id)]
    chat = [line for room in rooms for line in store.recent_chat(room.code, ALL)]
    return Contents(rooms, matches, chat)


def copy(source: str, destination: str) -> Copied:
    """Copy SRC into the empty DST; raise StoreError naming what is wrong (then DST is unchanged)."""
    if source == destination:
        raise StoreError("the source and the destination are the same store")
    src = open_store(source)
    try:
        dst = open_store(destination)
        try:
            if dst.room_codes() or dst.list_matches(None, 1):
                raise StoreError(f"{destination} is not empty: a copy needs an empty store (nothing was written)")
            contents = read_all(src)
            _write(dst, contents)
            again = read_all(dst)
            if _key(again) != _key(contents):
                raise StoreError(f"the copy in {destination} differs from {source}: check both stores")
            return Copied(len(contents.rooms), len(contents.matches), sum(len(c) for _, c in contents.matches),
                          len(contents.chat))
        finally:
            dst.close()
    finally:
        src.close()


def _key(contents: Contents) -> Any:
    return contents.rooms, contents.matches, contents.chat


def _rows(contents: Contents) -> dict[str, list[tuple[Any, ...]]]:
    return {
        "rooms": [(r.code, r.game, r.host, r.private, json.dumps(r.options), r.status, r.created, r.creator, r.match,
                   json.dumps(sorted(r.votes))) for r in contents.rooms],
        "seats": [(r.code, s.seat, s.name, s.bot, s.token_hash, s.left) for r in contents.rooms for s in r.seats],
        "matches": [(m.id, m.room, m.game, m.game_version, json.dumps(m.players), json.dumps(m.bots), m.seed,
                     json.dumps(m.options), m.status, json.dumps(m.winners), m.started, m.finished)
                    for m, _ in contents.matches],
        "choices": [(m.id, c.version, c.seat, c.option, c.source, c.at) for m, log in contents.matches for c in log],
        "chat": [(c.room, c.seat, c.name, c.text, c.at) for c in contents.chat],
    }


_COLUMNS = {
    "rooms": "code, game, host, private, options, status, created, creator, match, votes",
    "seats": 'room, seat, name, bot, token_hash, "left"',
    "matches": "id, room, game, game_version, players, bots, seed, options, status, winners, started, finished",
    "choices": "match, version, seat, option, source, at",
    "chat": "room, seat, name, text, at",
}


def _write(store: Store, contents: Contents) -> None:
    rows = _rows(contents)
    from .postgres import PostgresStore  # noqa: PLC0415 - importing the module needs no driver
    from .sqlite import SQLiteStore  # noqa: PLC0415

    if isinstance(store, SQLiteStore):
        with store._transaction() as tx:
            for table in ("rooms", "seats", "matches", "choices", "chat"):
                marks = ", ".join("?" * len(_COLUMNS[table].split(",")))
                for row in rows[table]:
                    tx.execute(f"INSERT INTO {table} ({_COLUMNS[table]}) VALUES ({marks})",
                               tuple(int(v) if isinstance(v, bool) else v for v in row))
    elif isinstance(store, PostgresStore):
        def write(conn: Any) -> None:
            with conn.transaction(), conn.cursor() as cursor:
                for table in ("rooms", "seats", "matches", "choices", "chat"):
                    marks = ", ".join(["%s"] * len(_COLUMNS[table].split(",")))
                    if rows[table]:
                        cursor.executemany(f"INSERT INTO {table} ({_COLUMNS[table]}) VALUES ({marks})", rows[table])
                # the next match id follows the copied ones
                cursor.execute("SELECT setval(pg_get_serial_sequence('matches', 'id'), "
                               "COALESCE((SELECT MAX(id) FROM matches), 0) + 1, false)")

        store._do(write)
    else:  # pragma: no cover - a third implementation would add its writer here
        raise StoreError(f"cannot copy into a {type(store).__name__}")
