"""Crash recovery: every open room comes back by re-executing its match's log.

A room that does not replay is reported and left exactly as stored. Rematch
votes come back with their room, and so do the match's recent timeouts (the
view's ``timeouts``, rebuilt from the choices stored with the source
``timeout``). A match whose log ends the game but was not yet marked finished
(the process died between the last move and the result) is finished now, with
its room, in one transaction.

Since a new match and its room's pointer are stored together, no match can be
left without its room. A database written by an older Intrigue may still hold
such orphans: they are settled, finished if their log ends the game, else
``abandoned``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ..store import ChoiceRecord, MatchRecord, RoomRecord, Store
from .matches import clock_spent, opened_time, rebuild
from .room import Room
from .settings import now_iso
from .timers import stored_timeouts

if TYPE_CHECKING:  # pragma: no cover
    from .lobby import Lobby

log = logging.getLogger("intrigue.server")


def recover(lobby: "Lobby") -> list[str]:
    """Reload every open room and re-execute its match's log. Returns what was restored."""
    restored: list[str] = []
    broken: set[int] = set()  # matches of rooms that failed: left exactly as stored
    for record in lobby.store.open_rooms():
        try:
            room = restore(lobby, record)
            if room.status == "closed":
                restored.append(f"{room.code} ({room.game.id}, match {room.match_id} finished; nobody left: closed)")
                continue
            lobby.rooms[room.code] = room
            lobby.changed()
            restored.append(f"{room.code} ({room.game.id}, {room.status}"
                            + (f", match {room.match_id} at version {room.match.version}" if room.match else "")
                            + ")")
        except Exception as exc:  # noqa: BLE001 - one bad room must not stop the others
            problem = f"room {record.code} could not be restored and was left as stored: {exc}"
            log.error(problem)
            lobby.problems.append(problem)
            if record.match is not None:
                broken.add(record.match)
    restored += settle_orphans(lobby, broken)
    return restored


def restore(lobby: "Lobby", record: RoomRecord, loaded: tuple[MatchRecord, list[ChoiceRecord]] | None = None,
            fenced: Store | None = None) -> Room:
    """One stored room back to life, its match re-executed from the log (``loaded``: already read).

    ``fenced`` is the store handle the room writes through (a cluster node's,
    carrying its fencing token); raises if the room does not replay.
    """
    room = Room(lobby, record)
    room.fenced = fenced
    if record.match is not None:
        if loaded is None:
            match_record = lobby.store.load_match(record.match)
            if match_record is None:
                raise ValueError(f"its match {record.match} is missing from the store")
            loaded = (match_record, lobby.store.choices(record.match))
        match_record, choices = loaded
        match = rebuild(match_record, choices)
        room._install(match, record.match)
        room.timer.timeouts = stored_timeouts(match_record, choices, match.game)
        if match.decision is not None:
            room.timer.recovered = (match.decisions, opened_time(match, match_record, choices))
            room.timer.spent = clock_spent(match_record, choices, match.game)
        if match.over and room.status == "playing":
            room.status = "finished" if room.rematch_needed() else "closed"
            room.store.finish_match(record.match, list(match.winners), now_iso(), room.record())
    return room


def settle_orphans(lobby: "Lobby", broken: set[int]) -> list[str]:
    """Matches marked ``playing`` that no restored room plays (in a database from before match
    starts were atomic: a crash between creating a match and saving its room): finished if
    their log ends the game, else ``abandoned``."""
    live = {room.match_id for room in lobby.rooms.values()}
    settled = []
    for record in lobby.store.list_matches("playing", limit=1_000_000):
        if record.id in live or record.id in broken:
            continue
        try:
            match = rebuild(record, lobby.store.choices(record.id))
        except Exception as exc:  # noqa: BLE001
            lobby.problems.append(f"match {record.id} has no room and does not replay; left as stored: {exc}")
            continue
        if match.over:
            lobby.store.finish_match(record.id, list(match.winners), now_iso())
            settled.append(f"match {record.id} (no room): finished")
        else:
            lobby.store.abandon_match(record.id, now_iso())
            settled.append(f"match {record.id} (no room): abandoned at version {match.version}")
    return settled
