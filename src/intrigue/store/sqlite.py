"""The SQLite store (standard library ``sqlite3``, WAL journal).

Every write method is one transaction (``BEGIN IMMEDIATE`` … ``COMMIT``) holding
one whole state change, committed before the method returns, with
``synchronous=FULL`` by default so an acknowledged move survives a crash of the
process or of the machine. The schema is versioned: ``MIGRATIONS[i]`` takes a
database from version ``i`` to ``i + 1`` (append only: a released entry is never
edited), and opening a database runs the ones it lacks, each in its own
transaction. A damaged file raises :class:`CorruptStore` naming the file and
what is wrong; nothing is rewritten or dropped.

``sync_later=True`` (``intrigue serve`` uses it) keeps that durability without
making the caller wait for the disk: with ``synchronous=FULL`` the connection
commits as ``NORMAL`` does (into the WAL, no fsync) and counts its commits in
``commits``; :meth:`flush`, called from another thread, syncs the WAL and so
makes every commit counted before it started as durable as ``FULL`` would have.
The server tells nobody of a change until a flush has covered it
(``server/durability.py``), so one fsync covers the commits of many rooms
instead of each waiting for its own on the event loop. Such a store leaves
checkpoints (copying the WAL's pages into the database file, with an fsync of
each) to :meth:`checkpoint`, which the server runs in a thread every
:data:`CHECKPOINT_EVERY` commits: SQLite's own, every 1,000 WAL pages, ran on
the thread that committed, the event loop, which they held for 5–30 ms each on a
busy disk. ``wal_autocheckpoint`` stays as a fallback at :data:`FALLBACK_PAGES`.

Crash tests need the process to die *inside* a transaction, between two of its
statements. ``INTRIGUE_TEST_CRASH_AT=start_match`` (or ``finish_match``, or
``start_match:2`` for the second time) makes the process kill itself with
SIGKILL at that point; the variable is read once when the store opens, so
a production server pays one attribute test per match start or end.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from . import (CHAT_KEPT, ChatRecord, ChoiceRecord, Conflict, CorruptStore, MatchRecord, RoomRecord, SeatRecord,
               StoreError)

#: The first release's schema, then one entry per later change (never edit a released one).
MIGRATIONS: list[str] = [
    """
    CREATE TABLE rooms (
        code TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        host INTEGER NOT NULL,
        private INTEGER NOT NULL,
        options TEXT NOT NULL,
        status TEXT NOT NULL,
        created TEXT NOT NULL,
        creator TEXT NOT NULL DEFAULT '',
        match INTEGER
    );
    CREATE TABLE seats (
        room TEXT NOT NULL REFERENCES rooms(code),
        seat INTEGER NOT NULL,
        name TEXT,
        bot TEXT,
        token_hash TEXT,
        left INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (room, seat)
    );
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        room TEXT,
        game TEXT NOT NULL,
        game_version TEXT NOT NULL,
        players TEXT NOT NULL,
        bots TEXT NOT NULL,
        seed INTEGER NOT NULL,
        options TEXT NOT NULL,
        status TEXT NOT NULL,
        winners TEXT NOT NULL DEFAULT '[]',
        started TEXT NOT NULL,
        finished TEXT
    );
    CREATE TABLE choices (
        match INTEGER NOT NULL REFERENCES matches(id),
        version INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        option TEXT NOT NULL,
        source TEXT NOT NULL,
        at TEXT NOT NULL,
        UNIQUE (match, version)
    );
    CREATE TABLE chat (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        room TEXT NOT NULL,
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        text TEXT NOT NULL,
        at TEXT NOT NULL
    );
    CREATE INDEX chat_by_room ON chat(room, id);
    CREATE INDEX matches_by_status ON matches(status, id);
    """,
    # 2: rematch votes are stored with their room (they were memory-only)
    """
    ALTER TABLE rooms ADD COLUMN votes TEXT NOT NULL DEFAULT '[]';
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)


#: With ``sync_later``: commits between two checkpoints run by :meth:`SQLiteStore.checkpoint` (two or three
#: WAL pages a move: well under SQLite's 1,000-page default).
CHECKPOINT_EVERY = 300
#: …and SQLite's own automatic checkpoint, on the committing thread, only past this many WAL pages (if nothing
#: calls :meth:`SQLiteStore.checkpoint`, the WAL still stays bounded).
FALLBACK_PAGES = 20_000


class SQLiteStore:
    """See the module docstring. Safe to share between threads (one lock)."""

    def __init__(self, path: str | Path, synchronous: str = "FULL", busy_timeout: float = 5.0,
                 sync_later: bool = False):
        self.path = str(path)
        self._lock = threading.RLock()
        #: Commits are synced by :meth:`flush`, not by COMMIT (see the module docstring).
        self.sync_later = sync_later and synchronous.upper() in ("FULL", "EXTRA") and self.path != ":memory:"
        #: Commits made so far (a flush started after the n-th makes the first n durable).
        self.commits = 0
        #: ``commits`` when the last :meth:`checkpoint` started; its own connection, made by the first one.
        self._checkpointed_at = 0
        self._checkpointer: sqlite3.Connection | None = None
        self._checkpoint_lock = threading.Lock()
        self._closed = False
        self._crash_at = _crash_points(os.environ.get("INTRIGUE_TEST_CRASH_AT", ""))
        if self.path != ":memory:":
            file = Path(self.path)
            if file.exists() and file.is_dir():
                raise StoreError(f"{self.path} is a directory, not a database file")
            if file.exists() and 0 < file.stat().st_size < 100:
                raise CorruptStore(f"{self.path} is truncated ({file.stat().st_size} bytes): it is not a "
                                   "usable Intrigue database. It was left untouched; restore a backup or "
                                   "choose another file with --db.")
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA foreign_keys=ON")
            mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if self.path != ":memory:" and str(mode).lower() != "wal":
                raise StoreError(f"{self.path}: could not switch to WAL mode (got {mode})")
            if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
                raise StoreError(f"unknown synchronous mode {synchronous!r}")
            self._db.execute(f"PRAGMA synchronous={'NORMAL' if self.sync_later else synchronous.upper()}")
            if self.sync_later:
                self._db.execute(f"PRAGMA wal_autocheckpoint={FALLBACK_PAGES}")
            self._db.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
            self._check_integrity()
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise CorruptStore(f"{self.path} is damaged or not an Intrigue database ({exc}). It was left "
                               "untouched; restore a backup or choose another file with --db.") from exc

    # -- opening ---------------------------------------------------------------
    def _check_integrity(self) -> None:
        rows = [row[0] for row in self._db.execute("PRAGMA quick_check").fetchall()]
        if rows != ["ok"]:
            raise CorruptStore(f"{self.path} failed SQLite's integrity check: {'; '.join(rows[:5])}. It was "
                               "left untouched; restore a backup or choose another file with --db.")

    def _migrate(self) -> None:
        tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "schema_version" not in tables:
            if tables - {"sqlite_sequence"}:
                raise CorruptStore(f"{self.path} holds tables ({', '.join(sorted(tables))}) but no "
                                   "schema_version: it is not an Intrigue database")
            self._db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            self._db.execute("INSERT INTO schema_version VALUES (0)")
        row = self._db.execute("SELECT version FROM schema_version").fetchone()
        if row is None:
            raise CorruptStore(f"{self.path}: the schema_version table is empty")
        current = row[0]
        if current > SCHEMA_VERSION:
            raise StoreError(f"{self.path} has schema version {current}, newer than this Intrigue "
                             f"({SCHEMA_VERSION}): upgrade Intrigue to open it")
        for version in range(current, SCHEMA_VERSION):
            with self._transaction() as db:
                db.executescript_in_tx(MIGRATIONS[version])
                db.execute("UPDATE schema_version SET version = ?", (version + 1,))

    def flush(self) -> None:
        """Sync the WAL to disk (``sync_later``): every commit made before this call is then durable.

        Called from a thread of its own while the event loop goes on committing; SQLite's
        own writes to the WAL are done by then (COMMIT has returned). Without a WAL file
        (nothing written since the last checkpoint) the database file is synced.
        """
        for name in (self.path + "-wal", self.path):
            try:
                fd = os.open(name, os.O_RDONLY)
            except FileNotFoundError:
                continue
            try:
                os.fdatasync(fd)
            finally:
                os.close(fd)
            return

    def checkpoint_due(self) -> bool:
        """Whether :meth:`checkpoint` should run (``sync_later``: every :data:`CHECKPOINT_EVERY` commits)."""
        return self.sync_later and self.commits - self._checkpointed_at >= CHECKPOINT_EVERY

    def checkpoint(self) -> tuple[int, int, int] | None:
        """Copy the WAL's committed pages into the database file: ``PRAGMA wal_checkpoint(PASSIVE)`` on a
        connection of its own, which neither waits for the writer nor holds it up, so a thread can run it
        while the event loop commits. Returns SQLite's (busy, WAL frames, frames copied); None once closed.
        With ``synchronous=NORMAL`` the checkpoint syncs the WAL before it and the database file after."""
        with self._checkpoint_lock:
            if self._closed:
                return None
            at = self.commits
            try:
                if self._checkpointer is None:
                    self._checkpointer = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
                    self._checkpointer.execute("PRAGMA synchronous=NORMAL")
                row = self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            except sqlite3.DatabaseError as exc:
                raise _wrap(self.path, exc) from exc
            self._checkpointed_at = at
            return int(row[0]), int(row[1]), int(row[2])

    # -- plumbing ----------------------------------------------------------------
    class _Tx:
        def __init__(self, db: sqlite3.Connection):
            self.db = db

        def execute(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Cursor:
            return self.db.execute(sql, params)

        def executescript_in_tx(self, script: str) -> None:
            for statement in script.split(";"):
                if statement.strip():
                    self.db.execute(statement)

    def _transaction(self) -> "_TxContext":
        return _TxContext(self)

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.DatabaseError as exc:
                raise _wrap(self.path, exc) from exc

    # -- rooms -----------------------------------------------------------------
    def save_room(self, room: RoomRecord) -> None:
        with self._transaction() as tx:
            self._write_room(tx, room)

    def _write_room(self, tx: "SQLiteStore._Tx", room: RoomRecord) -> None:
        tx.execute("INSERT OR REPLACE INTO rooms (code, game, host, private, options, status, created, "
                   "creator, match, votes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (room.code, room.game, room.host, int(room.private), json.dumps(room.options),
                    room.status, room.created, room.creator, room.match, json.dumps(sorted(room.votes))))
        tx.execute("DELETE FROM seats WHERE room = ?", (room.code,))
        for seat in room.seats:
            tx.execute("INSERT INTO seats (room, seat, name, bot, token_hash, left) VALUES (?, ?, ?, ?, ?, ?)",
                       (room.code, seat.seat, seat.name, seat.bot, seat.token_hash, int(seat.left)))

    def load_room(self, code: str) -> RoomRecord | None:
        rows = self._read(_ROOM_SELECT + " WHERE code = ?", (code,))
        return self._room(rows[0]) if rows else None

    def open_rooms(self) -> list[RoomRecord]:
        rows = self._read(_ROOM_SELECT + " WHERE status != 'closed' ORDER BY created")
        return [self._room(row) for row in rows]

    def room_codes(self) -> set[str]:
        return {row[0] for row in self._read("SELECT code FROM rooms")}

    def _room(self, row: tuple[Any, ...]) -> RoomRecord:
        seats = [SeatRecord(seat, name, bot, token_hash, bool(left)) for seat, name, bot, token_hash, left in
                 self._read("SELECT seat, name, bot, token_hash, left FROM seats WHERE room = ? ORDER BY seat",
                            (row[0],))]
        return RoomRecord(code=row[0], game=row[1], host=row[2], private=bool(row[3]),
                          options=json.loads(row[4]), status=row[5], created=row[6], creator=row[7],
                          match=row[8], seats=seats, votes=json.loads(row[9]))

    # -- matches ---------------------------------------------------------------
    def start_match(self, room: RoomRecord, match: MatchRecord) -> int:
        with self._transaction() as tx:
            match_id = self._insert_match(tx, match, "playing")
            self._crash("start_match")
            self._write_room(tx, replace(room, match=match_id))
        return match_id

    def _insert_match(self, tx: "SQLiteStore._Tx", match: MatchRecord, status: str) -> int:
        cursor = tx.execute("INSERT INTO matches (room, game, game_version, players, bots, seed, options, "
                            "status, winners, started, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            (match.room, match.game, match.game_version, json.dumps(match.players),
                             json.dumps(match.bots), match.seed, json.dumps(match.options), status,
                             json.dumps(match.winners if status == "finished" else []), match.started,
                             match.finished if status == "finished" else None))
        return int(cursor.lastrowid)

    def append_choice(self, match: int, choice: ChoiceRecord) -> None:
        """One INSERT, a transaction of its own (the connection autocommits): what BEGIN IMMEDIATE, the
        INSERT and COMMIT did, in one statement instead of three (a served match appends at every move)."""
        with self._lock:
            try:
                self._db.execute(_INSERT_CHOICE, (match, choice.version, choice.seat, choice.option, choice.source,
                                                  choice.at))
            except sqlite3.IntegrityError as exc:  # refused whole, nothing written
                raise Conflict(f"match {match} already has a choice at version {choice.version}") from exc
            except sqlite3.DatabaseError as exc:
                raise _wrap(self.path, exc) from exc
            self.commits += 1

    @staticmethod
    def _insert_choice(tx: "SQLiteStore._Tx", match: int, choice: ChoiceRecord) -> None:
        tx.execute(_INSERT_CHOICE, (match, choice.version, choice.seat, choice.option, choice.source, choice.at))

    def finish_match(self, match: int, winners: list[int], finished: str, room: RoomRecord | None = None) -> None:
        with self._transaction() as tx:
            tx.execute("UPDATE matches SET status = 'finished', winners = ?, finished = ? WHERE id = ?",
                       (json.dumps(winners), finished, match))
            if room is not None:
                self._crash("finish_match")
                self._write_room(tx, room)

    def import_match(self, match: MatchRecord, choices: list[ChoiceRecord]) -> int:
        with self._transaction() as tx:
            match_id = self._insert_match(tx, replace(match, room=None), "finished")
            for choice in choices:
                self._insert_choice(tx, match_id, choice)
        return match_id

    def abandon_match(self, match: int, at: str) -> None:
        with self._transaction() as tx:
            tx.execute("UPDATE matches SET status = 'abandoned', finished = ? WHERE id = ?", (at, match))

    def load_match(self, match: int) -> MatchRecord | None:
        rows = self._read(_MATCH_SELECT + " WHERE m.id = ? GROUP BY m.id", (match,))
        return _match(rows[0]) if rows else None

    def choices(self, match: int) -> list[ChoiceRecord]:
        rows = self._read("SELECT version, seat, option, source, at FROM choices WHERE match = ? ORDER BY version",
                          (match,))
        records = [ChoiceRecord(*row) for row in rows]
        for expected, record in enumerate(records):
            if record.version != expected:
                raise CorruptStore(f"{self.path}: the log of match {match} has a gap: version {expected} is "
                                   f"missing (found {record.version})")
        return records

    def list_matches(self, status: str | None = None, limit: int = 200) -> list[MatchRecord]:
        if status is None:
            rows = self._read(_MATCH_SELECT + " GROUP BY m.id ORDER BY m.id DESC LIMIT ?", (limit,))
        else:
            rows = self._read(_MATCH_SELECT + " WHERE m.status = ? GROUP BY m.id ORDER BY m.id DESC LIMIT ?",
                              (status, limit))
        return [_match(row) for row in rows]

    def _crash(self, point: str) -> None:
        """Die here (SIGKILL, mid-transaction) if a crash test asked for it; see the module docstring."""
        if self._crash_at and point in self._crash_at:
            self._crash_at[point] -= 1
            if self._crash_at[point] <= 0:
                os.kill(os.getpid(), signal.SIGKILL)

    # -- chat ------------------------------------------------------------------
    def add_chat(self, chat: ChatRecord) -> None:
        with self._transaction() as tx:
            tx.execute("INSERT INTO chat (room, seat, name, text, at) VALUES (?, ?, ?, ?, ?)",
                       (chat.room, chat.seat, chat.name, chat.text, chat.at))
            tx.execute("DELETE FROM chat WHERE room = ? AND id <= (SELECT id FROM chat WHERE room = ? "
                       "ORDER BY id DESC LIMIT 1 OFFSET ?)", (chat.room, chat.room, CHAT_KEPT))

    def recent_chat(self, room: str, limit: int = 50) -> list[ChatRecord]:
        rows = self._read("SELECT room, seat, name, text, at FROM chat WHERE room = ? ORDER BY id DESC LIMIT ?",
                          (room, limit))
        return [ChatRecord(*row) for row in reversed(rows)]

    def close(self) -> None:
        with self._checkpoint_lock:  # (a checkpoint running in another thread finishes first)
            self._closed = True
            if self._checkpointer is not None:
                self._checkpointer.close()
                self._checkpointer = None
        with self._lock:
            self._db.close()


_ROOM_SELECT = "SELECT code, game, host, private, options, status, created, creator, match, votes FROM rooms"
_MATCH_SELECT = ("SELECT m.id, m.room, m.game, m.game_version, m.players, m.bots, m.seed, m.options, m.status, "
                 "m.winners, m.started, m.finished, COUNT(c.version) FROM matches m "
                 "LEFT JOIN choices c ON c.match = m.id")


def _match(row: tuple[Any, ...]) -> MatchRecord:
    return MatchRecord(id=row[0], room=row[1], game=row[2], game_version=row[3], players=json.loads(row[4]),
                       bots=json.loads(row[5]), seed=row[6], options=json.loads(row[7]), status=row[8],
                       winners=json.loads(row[9]), started=row[10], finished=row[11], moves=row[12])


def _crash_points(spec: str) -> dict[str, int]:
    """``"start_match:2,finish_match"`` -> ``{"start_match": 2, "finish_match": 1}`` (see the module docstring)."""
    points: dict[str, int] = {}
    for item in filter(None, (part.strip() for part in spec.split(","))):
        name, _, count = item.partition(":")
        points[name] = int(count) if count.isdigit() else 1
    return points


def _wrap(path: str, exc: sqlite3.DatabaseError) -> StoreError:
    text = str(exc)
    if "malformed" in text or "not a database" in text:
        return CorruptStore(f"{path} is damaged ({text}); it was left untouched")
    return StoreError(f"{path}: {text}")


_INSERT_CHOICE = "INSERT INTO choices (match, version, seat, option, source, at) VALUES (?, ?, ?, ?, ?, ?)"


class _TxContext:
    """``with store._transaction() as tx``: BEGIN IMMEDIATE … COMMIT, or ROLLBACK and raise."""

    def __init__(self, store: SQLiteStore):
        self.store = store

    def __enter__(self) -> SQLiteStore._Tx:
        self.store._lock.acquire()
        try:
            self.store._db.execute("BEGIN IMMEDIATE")
        except sqlite3.DatabaseError as exc:
            self.store._lock.release()
            raise _wrap(self.store.path, exc) from exc
        return SQLiteStore._Tx(self.store._db)

    def __exit__(self, kind: Any, exc: BaseException | None, tb: Any) -> None:
        try:
            if exc is None:
                try:
                    self.store._db.execute("COMMIT")
                except sqlite3.DatabaseError as error:
                    self.store._db.execute("ROLLBACK")
                    raise _wrap(self.store.path, error) from error
                self.store.commits += 1
            else:
                try:
                    self.store._db.execute("ROLLBACK")
                except sqlite3.DatabaseError:
                    pass
                if isinstance(exc, sqlite3.IntegrityError):  # the whole change is refused, nothing written
                    raise Conflict(f"{self.store.path}: {exc}") from exc
                if isinstance(exc, sqlite3.DatabaseError):
                    raise _wrap(self.store.path, exc) from exc
        finally:
            self.store._lock.release()

