"""Backups of a live SQLite store, and restoring one.

:func:`backup` uses SQLite's online backup API: the copy is made in one step
inside one read transaction, so it is the database exactly as it was at one
instant (every committed move before it, none after), while the server goes on
writing (in WAL mode a reader does not block the writer). The copy is written
next to the destination and renamed over it only once it is complete and has
passed SQLite's integrity check, so a crash during a backup never leaves a
half-written file under the backup's name.

:func:`restore` puts a backup in place of a database file. The file it replaces
(with its ``-wal`` and ``-shm`` companions) is renamed aside, never deleted:
restoring is the moment an operator is most likely to be wrong about which file
matters.
"""

from __future__ import annotations

import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

from . import StoreError
from .sqlite import SCHEMA_VERSION

_COMPANIONS = ("-wal", "-shm")


def _schema_version(db: sqlite3.Connection, path: Path) -> int:
    try:
        row = db.execute("SELECT version FROM schema_version").fetchone()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path} is not an Intrigue database ({exc})") from None
    if row is None:
        raise StoreError(f"{path} is not an Intrigue database (its schema_version table is empty)")
    return int(row[0])


def _verify(path: Path) -> int:
    """Integrity check and schema version of a finished copy; raise StoreError if it is no good."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        problems = [row[0] for row in db.execute("PRAGMA integrity_check").fetchall()]
        if problems != ["ok"]:
            raise StoreError(f"{path} failed SQLite's integrity check: {'; '.join(problems[:5])}")
        return _schema_version(db, path)
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path} is damaged or not a database ({exc})") from None
    finally:
        db.close()


def _copy(source: Path, destination: Path) -> int:
    """Copy the database ``source`` (live or not) to ``destination`` atomically; returns its schema version."""
    if not source.is_file():
        raise StoreError(f"{source} does not exist or is not a file")
    partial = destination.with_name(destination.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
        try:
            version = _schema_version(src, source)
            if version > SCHEMA_VERSION:
                raise StoreError(f"{source} has schema version {version}, newer than this Intrigue "
                                 f"({SCHEMA_VERSION})")
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst, pages=-1)  # one step: one read transaction, one consistent instant
                dst.execute("PRAGMA journal_mode=DELETE")  # a single self-contained file
            finally:
                dst.close()
        finally:
            src.close()
        _verify(partial)
        with open(partial, "rb") as file:
            os.fsync(file.fileno())
        os.replace(partial, destination)
        _fsync_folder(destination.parent)
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"could not copy {source} to {destination}: {exc}") from None
    except OSError as exc:
        raise StoreError(f"could not write {destination}: {exc}") from None
    finally:
        partial.unlink(missing_ok=True)
    return version


def _fsync_folder(folder: Path) -> None:
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def backup(database: str | Path, file: str | Path) -> dict[str, int]:
    """Write a consistent copy of ``database`` (which a server may be using) to ``file``.

    Returns what the copy holds: schema version, rooms, matches and choices.
    """
    database, file = Path(database), Path(file)
    if file.exists() and file.resolve() == database.resolve():
        raise StoreError(f"the backup file {file} is the database itself")
    if file.is_dir():
        raise StoreError(f"{file} is a directory; give the backup a file name")
    try:  # backups/intrigue-<date>.db: the folder is made on the first backup
        file.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot make the folder {file.parent}: {exc.strerror}") from None
    version = _copy(database, file)
    return {"schema_version": version, **_counts(file)}


def restore(file: str | Path, database: str | Path) -> dict[str, object]:
    """Make ``database`` a copy of the backup ``file``. Whatever ``database`` was is renamed aside.

    Returns what was restored and where the replaced files went (``moved_aside``).
    """
    file, database = Path(file), Path(database)
    if not file.is_file():
        raise StoreError(f"the backup {file} does not exist or is not a file")
    if database.exists() and database.resolve() == file.resolve():
        raise StoreError(f"the backup {file} is the database itself")
    _verify(file)
    moved: list[str] = []
    if database.exists():
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        aside = database.with_name(f"{database.name}.before-restore-{stamp}")
        for suffix in ("",) + _COMPANIONS:
            current = Path(str(database) + suffix)
            if current.exists():
                os.replace(current, Path(str(aside) + suffix))
                moved.append(str(aside) + suffix)
    else:
        for suffix in _COMPANIONS:  # a stale journal without its database must not meet the restored file
            Path(str(database) + suffix).unlink(missing_ok=True)
    version = _copy(file, database)
    return {"schema_version": version, **_counts(database), "moved_aside": moved}


def _counts(path: Path) -> dict[str, int]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {table: int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])  # noqa: S608 - fixed names
                for table in ("rooms", "matches", "choices")}
    finally:
        db.close()
