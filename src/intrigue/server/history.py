"""Finished matches: the history list, step-by-step replay, export and import.

Everything here rebuilds a match from the store's log (``matches.rebuild``), so a
replay is exactly the match that was played. A match still in progress is never
replayed or exported: its log would show hidden cards (an Exchange's ``Keep``).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import replace
from typing import Any

from .. import games as game_registry
from ..engine import Match
from ..store import ChoiceRecord, MatchRecord, Store
from .protocol import Refusal
from .matches import game_version, rebuild
from .settings import now_iso

EXPORT_FORMAT = "intrigue-match"
EXPORT_VERSION = 1


def summary(record: MatchRecord, private: bool = False) -> dict[str, Any]:
    """A match of the history list. A match being played shows no ``moves``: its stored count would
    tell anyone how many have answered a secret decision (its players' views say where it is). A match
    of a ``private`` room names no room: the list would hand out the code the lobby does not list."""
    return {"match": record.id, "room": None if private else record.room, "game": record.game,
            "status": record.status,
            "players": list(record.players), "bots": list(record.bots),
            "winners": [record.players[s] for s in record.winners if 0 <= s < len(record.players)],
            "started": record.started, "finished": record.finished,
            "moves": None if record.status == "playing" else record.moves}


def finished_record(store: Store, match_id: int) -> MatchRecord:
    record = store.load_match(match_id) if 0 < match_id < 2**63 else None  # (SQLite's integers are 64-bit)
    if record is None:
        raise Refusal("no_match", f"there is no match {str(match_id)[:20]}", 404)
    if record.status != "finished":
        why = "was abandoned unfinished" if record.status == "abandoned" else "is still being played"
        raise Refusal("in_progress", f"match {match_id} {why}: only finished matches can be replayed or "
                                     "exported (an unfinished one would show hidden cards)", 409)
    if record.game not in game_registry.installed():
        raise Refusal("no_game", f"match {match_id} plays {record.game[:40]!r}, which is not installed here: "
                                 f"serve (or replay, export) with --games DIR, DIR holding {record.game[:40]}.yaml", 404)
    return record


#: Recent replay answers: a finished match never changes, so they stay true.
_CACHE: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
CACHE_SIZE = 512
_CACHE_LOCK = threading.Lock()


def replay_step(store: Store, match_id: int, step: int, seat: str) -> dict[str, Any]:
    """The observation after ``step`` accepted choices, from ``seat`` (an index) or ``all``."""
    record = finished_record(store, match_id)
    key = (str(getattr(store, "path", id(store))), match_id, record.seed, record.finished, step, seat)
    with _CACHE_LOCK:  # the server rebuilds replays in worker threads
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    answer = _replay_step(store, record, step, seat)
    with _CACHE_LOCK:
        _CACHE[key] = answer
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    return answer


def _replay_step(store: Store, record: MatchRecord, step: int, seat: str) -> dict[str, Any]:
    match_id = record.id
    choices = store.choices(match_id)
    if not 0 <= step <= len(choices):
        raise Refusal("bad_message", f"step must be from 0 to {len(choices)}, not {str(step)[:20]}")
    if seat != "all" and not (seat.isascii() and seat.isdigit() and int(seat) < len(record.players)):
        raise Refusal("bad_message", f"seat must be 'all' or a seat from 0 to {len(record.players) - 1}")
    match = replayed(record, choices[:step])
    if seat == "all":
        view = revealed_view(match)
    else:
        view = match.observe(int(seat))
    # The match is over: its step is its version, even inside a secret decision (whose live views show
    # only the answers a seat knows of, so as not to count the others').
    view = {**view, "version": match.version}
    last = choices[step - 1] if step else None
    return {"match": match_id, "game": record.game, "step": step, "steps": len(choices), "moves": len(choices),
            "seat": seat if seat == "all" else int(seat),
            "choice": ({"seat": last.seat, "option": last.option,
                        "player": record.players[last.seat] if 0 <= last.seat < len(record.players) else "(the clock)",
                        "version": last.version, "source": last.source} if last else None),
            "view": view}


def replayed(record: MatchRecord, choices: list[ChoiceRecord]) -> Match:
    """``rebuild``, refusing (409 ``unreplayable``) a log the installed rules no longer accept."""
    try:
        return rebuild(record, choices)
    except (ValueError, KeyError) as exc:
        raise Refusal("unreplayable", f"{exc}; the game's rules have changed since it was played", 409) from None


def revealed_view(match: Match) -> dict[str, Any]:
    """Everything revealed, built generically: the public view plus every seat's private components and log."""
    view = match.observe(None)
    components = {c.get("key"): c for c in view["components"]}
    for seat in range(len(match.names)):
        for component in match.observe(seat)["components"]:
            key = component.get("key")
            if key not in components:
                components[key] = component
    view["components"] = list(components.values())
    view["log"] = [e.entry for e in match.events][-200:]  # with each line's data: a client translates it
    view["seats"] = [match.observe(seat)["state"] for seat in range(len(match.names))]
    if match.decision is not None:
        view["offers"] = {match.names[s]: match.legal(s) for s in match.pending}
    return view


def fingerprint(match: Match) -> str:
    """A digest of the true final state (players, game state, winners, version)."""
    truth = {"players": match.players, "state": match.state, "winners": match.winners,
             "version": match.version, "over": match.over}
    return hashlib.sha256(json.dumps(truth, sort_keys=True, default=str).encode()).hexdigest()


def export_match(store: Store, match_id: int) -> dict[str, Any]:
    record = finished_record(store, match_id)
    choices = store.choices(match_id)
    match = replayed(record, choices)
    return {"format": EXPORT_FORMAT, "format_version": EXPORT_VERSION, "match": record.id,
            "game": record.game, "game_version": record.game_version, "players": record.players,
            "bots": record.bots, "seed": record.seed, "options": record.options,
            "started": record.started, "finished": record.finished,
            "choices": [{"version": c.version, "seat": c.seat, "option": c.option, "source": c.source,
                         "at": c.at} for c in choices],
            "result": {"winners": [record.players[s] for s in match.winners], "version": match.version,
                       "fingerprint": fingerprint(match)}}


def import_match(store: Store, data: Any) -> tuple[int, Match]:
    """Re-execute an exported match, check it ends exactly as exported, and store it as a new finished match."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise ValueError(f"not an exported Intrigue match (expected \"format\": \"{EXPORT_FORMAT}\")")
    if data.get("format_version") != EXPORT_VERSION:
        raise ValueError(f"unsupported export format_version {data.get('format_version')!r}")
    named = data.get("game")
    if not isinstance(named, str) or named not in game_registry.installed():
        raise ValueError(f"the match plays {str(named)[:40]!r}, which is not installed here (import it with "
                         f"--games DIR, DIR holding {str(named)[:40]}.yaml)")
    try:
        game = game_registry.get(data["game"])
        players = [str(p) for p in data["players"]]
        bots = list(data.get("bots") or [None] * len(players))
        seed = int(data["seed"])
        options = dict(data.get("options") or {})
        choices = [ChoiceRecord(int(c["version"]), int(c["seat"]), str(c["option"]), str(c.get("source", "player")),
                                str(c.get("at", ""))) for c in data["choices"]]
        result = data["result"]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"the export is incomplete or malformed: {exc!r}") from None
    record = MatchRecord(0, None, game.id, data.get("game_version", ""), players, bots, seed, options,
                         "finished", [], "")
    match = rebuild(record, choices)
    if not match.over:
        raise ValueError(f"the export's {len(choices)} moves do not finish the match")
    if match.version != result.get("version") or fingerprint(match) != result.get("fingerprint"):
        raise ValueError("the re-executed match does not end in the exported final state "
                         f"(version {match.version} vs {result.get('version')}); the rules may have changed")
    if data.get("game_version") and data["game_version"] != game_version(game):
        pass  # same final state under different rules files: accepted, the fingerprint proves it
    stored = MatchRecord(0, None, game.id, data.get("game_version") or game_version(game), players, bots, seed,
                         options, "finished", list(match.winners), str(data.get("started") or now_iso()),
                         str(data.get("finished") or now_iso()))
    # the log is numbered by the match's own version, as the server stores it; one transaction
    match_id = store.import_match(stored, [replace(c, version=index) for index, c in enumerate(choices)])
    return match_id, match
