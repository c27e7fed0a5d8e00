"""The protocol fuzzer against a real server, then proof that every match is intact and playable.

Intact: each match in memory has exactly the state of a replay of its stored log
(the true-state fingerprint and the version). Playable: every unfinished match is
then played to the end by fresh clients holding the seats' tokens.
"""

from __future__ import annotations

import random
import time

from intrigue.server.history import fingerprint
from intrigue.server.matches import rebuild
from intrigue.server.settings import Settings

from ..server.support import Client, ServerThread
from .fuzzer import DOCUMENTED_CODES, ProtocolFuzzer
from .table import hang_up, live_rooms

SEED = 20261122
SECONDS = 4.0

FUZZ = Settings(bot_delay=0.0, room_quota=10_000, disconnect_grace=0.3, chat_rate=2, chat_burst=5,
                message_rate=200, message_burst=200, flood_limit=50,
                connect_rate=10_000, connect_burst=10_000)  # the crowd shares one address


def intact(server: ServerThread) -> list[str]:
    problems = []
    for code, room in live_rooms(server):
        if room.match is None:
            continue
        # The server thread may still apply a grace-timer move while we look: take the
        # live match's version and fingerprint together, then replay that many stored
        # choices. A choice is applied a moment before it is appended (in one call of
        # the server's thread, before anyone is told), so a log one shorter than the
        # live version is a move caught in between: look again.
        for _ in range(200):
            version = room.match.version
            live = fingerprint(room.match)
            if room.match.version != version:
                continue
            stored = server.store.choices(room.match_id)
            if len(stored) >= version:
                break
            time.sleep(0.005)
        record = server.store.load_match(room.match_id)
        replayed = rebuild(record, stored[:version])
        if len(stored) < version or replayed.version != version or fingerprint(replayed) != live:
            problems.append(f"room {code}: match {room.match_id} differs from a replay of its stored log "
                            f"(version {version}, {len(stored)} stored, replay at {replayed.version})")
    return problems


def play_to_the_end(server: ServerThread, seats, timeout: float = 60) -> int:
    """Connect every human seat of every unfinished match and play random legal moves until all end."""
    rng = random.Random(SEED)
    lobby = server.app.state.lobby
    clients = [Client(server.ws_url, s.room, s.token) for s in seats
               if s.room in lobby.rooms and lobby.rooms[s.room].match is not None
               and not lobby.rooms[s.room].match.over and _holds_seat(lobby.rooms[s.room], s.token)]
    deadline = time.monotonic() + timeout
    finished = 0
    while True:
        live = [r for r in lobby.rooms.values() if r.match is not None and not r.match.over and r.status == "playing"]
        if not live:
            break
        assert time.monotonic() < deadline, f"matches did not finish: {[r.code for r in live]}"
        for client in clients:
            client.drain(0.002)
        ready = [c for c in clients if c.options and not c.view["over"]]
        for client in ready:
            client.choose(rng.choice(client.options))
        time.sleep(0.002 if ready else 0.02)
    finished = sum(1 for r in lobby.rooms.values() if r.match is not None and r.match.over)
    for client in clients:
        hang_up(client)
    return finished


def _holds_seat(room, token: str) -> bool:  # noqa: ANN001
    try:
        room.seat_for(token)
        return True
    except Exception:  # noqa: BLE001 - a seat that was left
        return False


def test_a_crowd_of_hostile_clients_breaks_nothing(tmp_path):
    with ServerThread(tmp_path / "fuzz.db", FUZZ) as server:
        started = time.monotonic()
        report = ProtocolFuzzer(server.url, SEED, seconds=SECONDS, max_actions=20_000).run()
        took = time.monotonic() - started
        print(report.summary())
        assert not report.internal, f"the server hit a bug: {report.internal[:5]}"
        assert not report.http_5xx, report.http_5xx[:5]
        assert not report.undocumented, report.undocumented[:5]
        assert took < SECONDS + 10
        # the fuzzer really attacked and really played
        assert sum(report.actions.values()) > 200
        assert {"bad_token", "bad_json"} <= set(report.codes)
        assert {"stale_version", "not_offered"} & set(report.codes)  # a choice refused (which one: timing)
        assert report.accepted_moves > 20
        rooms = server.app.state.lobby.rooms
        assert {rooms[c].game.id for c in report.rooms if c in rooms} >= {"coup"}
        # every match is what its stored log says, and can still be finished
        assert intact(server) == []
        with server.http() as http:
            assert http.get("/api/games").status_code == 200
        finished = play_to_the_end(server, report.seats)
        assert finished >= len([c for c in report.rooms if c in rooms and rooms[c].match is not None])
        assert intact(server) == []


def test_the_integrity_check_sees_a_move_that_is_not_in_the_log(tmp_path):
    """``intact`` is not vacuous: a move applied in memory but not stored is caught."""
    with ServerThread(tmp_path / "check.db", FUZZ) as server, server.http() as http:
        from .table import Table

        table = Table(server, http, "coup")
        assert intact(server) == []
        match = table.match
        seat = match.pending[0]
        match.choose(seat, match.legal(seat)[0])  # behind the store's back
        assert intact(server) != []
        table.close()


def test_documented_codes_cover_every_code_the_server_can_raise():
    """Every ``Refusal("code", ...)`` of the server and every engine ``Refused("code", ...)`` it passes on
    is named in docs/protocol.md (``unknown_seat`` cannot reach a client: the seat comes from the token)."""
    import ast
    from pathlib import Path

    import intrigue

    root = Path(intrigue.__file__).parent
    found = {}
    for path in list((root / "server").glob("*.py")) + list((root / "engine").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("Refusal", "Refused") \
                    and node.args and isinstance(node.args[0], ast.Constant):
                found[node.args[0].value] = f"{path.name}:{node.lineno}"
    found.pop("unknown_seat", None)
    assert len(found) > 15
    assert set(found) <= DOCUMENTED_CODES, {c: w for c, w in found.items() if c not in DOCUMENTED_CODES}
