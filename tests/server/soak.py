"""Soak: many matches played by real WebSocket clients while the server is killed (SIGKILL) every few seconds.

Run it with ``make soak`` (ten minutes and at least 100 kills; ``SOAK_SECONDS=60
make soak`` for one minute and at least 10) or ``python -m tests.server.soak
--seconds 60``. A restart takes longer on a loaded machine, so the run goes on
past its duration until it has killed the server once per 6 seconds of it (at
most four times the duration in all). It is not part of the test suite
(``tests/server/test_soak.py`` only proves the command works, for a few seconds).

``intrigue serve`` runs as a subprocess on a free port with a fresh database.
Rooms of Coup and BANG! (some with bots, some with short timers) are played by
one asyncio client per human seat, with random legal moves and rematches. Each
client sends one command at a time, followed by a ``ping``: the server handles a
connection's messages in order, so when the ``pong`` arrives without an
``error`` before it, the command was accepted (a move stored, a vote stored).
That is an *acknowledged* command; one still unanswered when the kill lands is
*in flight* (it may or may not have been stored).

After every kill, with the server dead, the database is read and checked:

- every acknowledged move is stored exactly once, in order: a seat's stored
  player moves in a match are its acknowledged ones, plus at most the one in
  flight (then it counts as acknowledged from then on), nothing else;
- every version a client was shown is stored (no bot or timeout move lost);
- every acknowledged rematch vote is stored while its room waits on it;
- no match is ``abandoned``, none is ``playing`` without a room that plays it,
  no room points at a match that is not stored;
- every match finished since the last check replays and exports.

Then the server is started again and the clients reconnect with their tokens.
The exit status is 0 only if no check failed; the figures are printed as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
QUOTAS = ["--room-quota", "1000000", "--seats-per-address", "1000000", "--sockets-per-address", "100000",
          "--connect-rate", "100000"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"http://{HOST}:{port}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


@dataclass
class Seat:
    """One human seat and everything its client was told."""

    room: str
    seat: int
    token: str
    #: (match, seat) -> options of this seat's acknowledged moves, in order
    acked: dict[int, list[str]] = field(default_factory=dict)
    #: matches whose rematch this seat's vote was acknowledged for
    voted: set[int] = field(default_factory=set)
    #: the command unanswered when the connection died: ("choose", match, option) or ("vote", match, "")
    inflight: tuple[str, int, str] | None = None
    view: dict[str, Any] | None = None
    match: int | None = None


@dataclass
class Figures:
    kills: int = 0
    restart_seconds: list[float] = field(default_factory=list)
    acked_moves: int = 0
    acked_votes: int = 0
    inflight_kept: int = 0
    inflight_dropped: int = 0
    refusals: dict[str, int] = field(default_factory=dict)
    exported: set[int] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)


class Soak:
    def __init__(self, seconds: float, rooms: int, gap: tuple[float, float], seed: int, folder: Path,
                 kills: int = 0):
        self.seconds, self.rooms, self.gap, self.kills = seconds, rooms, gap, kills
        self.rng = random.Random(seed)
        self.folder = folder
        self.db = folder / "soak.db"
        self.port = free_port()
        self.server: subprocess.Popen[bytes] | None = None
        self.seats: list[Seat] = []
        #: match -> the highest version a client was shown
        self.seen: dict[int, int] = {}
        self.figures = Figures()

    # -- the server ------------------------------------------------------------------------------
    def start_server(self) -> float:
        started = time.perf_counter()
        log = open(self.folder / "server.log", "ab")  # noqa: SIM115 - the child keeps it open
        self.server = subprocess.Popen(
            [sys.executable, "-m", "intrigue.cli", "serve", "--host", HOST, "--port", str(self.port),
             "--db", str(self.db), "--bot-delay", "0.05", *QUOTAS],
            stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        log.close()
        while True:
            try:
                with urllib.request.urlopen(f"http://{HOST}:{self.port}/api/games", timeout=2) as answer:
                    if answer.status == 200:
                        return time.perf_counter() - started
            except OSError:
                pass
            if self.server.poll() is not None or time.perf_counter() - started > 120:
                tail = (self.folder / "server.log").read_text(errors="replace")[-3000:]
                raise RuntimeError(f"the server did not start:\n{tail}")
            time.sleep(0.05)

    def kill_server(self) -> None:
        assert self.server is not None
        self.server.send_signal(signal.SIGKILL)
        self.server.wait(30)
        self.figures.kills += 1

    # -- the tables ------------------------------------------------------------------------------
    def open_rooms(self) -> None:
        for index in range(self.rooms):
            rng = self.rng
            if index % 5 == 4:
                game, humans, bots = "bang", 2, 2
            else:
                game, humans, bots = "coup", rng.randint(2, 3), rng.choice([0, 0, 1])
            timed = index % 4 == 1  # a quarter of the rooms run short timers: timeouts happen, also after restarts
            options = {"turn_timer": 3, "window_timer": 2} if timed else {"turn_timer": None, "window_timer": None}
            created = post(self.port, "/api/rooms", {"game": game, "name": f"R{index}a", "seats": humans + bots,
                                                     "bots": [{"kind": "random"}] * bots, "options": options,
                                                     "private": True})
            code = created["room"]
            self.seats.append(Seat(code, 0, created["token"]))
            for n in range(1, humans):
                joined = post(self.port, f"/api/rooms/{code}/join", {"name": f"R{index}{chr(97 + n)}"})
                self.seats.append(Seat(code, joined["seat"], joined["token"]))
            post(self.port, f"/api/rooms/{code}/start", {"token": created["token"]})

    async def play(self, seat: Seat, rng: random.Random) -> None:
        """One client until the connection dies. Leaves an unanswered command in ``seat.inflight``."""
        from websockets.asyncio.client import connect  # noqa: PLC0415
        from websockets.exceptions import ConnectionClosed, InvalidHandshake  # noqa: PLC0415

        loop = asyncio.get_running_loop()
        outstanding: tuple[str, int, str] | None = None
        refused: str | None = None
        act_at: float | None = None
        try:
            async with connect(f"ws://{HOST}:{self.port}/ws", max_size=2 ** 22, compression=None,
                               open_timeout=10) as ws:
                await ws.send(json.dumps({"type": "hello", "room": seat.room, "token": seat.token}))
                while True:
                    wait = None if act_at is None else max(0.0, act_at - loop.time())
                    try:
                        raw = await asyncio.wait_for(ws.recv(), wait)
                    except asyncio.TimeoutError:
                        raw = None
                    if raw is not None:
                        message = json.loads(raw)
                        kind = message["type"]
                        if kind == "view":
                            seat.view, seat.match = message["view"], message["match"]
                            self.seen[seat.match] = max(self.seen.get(seat.match, 0), seat.view["version"])
                        elif kind == "error":
                            if outstanding is None:
                                self.figures.problems.append(f"{seat.room}/{seat.seat}: an error nobody asked "
                                                             f"for: {message}")
                            refused = message["code"]
                        elif kind == "pong" and outstanding is not None:
                            what, match, option = outstanding
                            if refused is None:
                                if what == "choose":
                                    seat.acked.setdefault(match, []).append(option)
                                    self.figures.acked_moves += 1
                                else:
                                    seat.voted.add(match)
                                    self.figures.acked_votes += 1
                            else:
                                self.figures.refusals[refused] = self.figures.refusals.get(refused, 0) + 1
                            outstanding, refused = None, None
                    view = seat.view
                    if outstanding is not None or view is None or seat.match is None:
                        act_at = None
                        continue
                    wants = (view["over"] and seat.match not in seat.voted) or bool(
                        not view["over"] and (view.get("decision") or {}).get("options"))
                    if not wants:
                        act_at = None
                        continue
                    if act_at is None:  # a player reads, then clicks; now and then one wanders off
                        act_at = loop.time() + (rng.uniform(3, 5) if rng.random() < 0.01 else rng.uniform(0, 0.25))
                    if loop.time() < act_at:
                        continue
                    act_at = None
                    if view["over"]:
                        outstanding = ("vote", seat.match, "")
                        await ws.send(json.dumps({"type": "rematch", "token": seat.token}))
                    else:
                        option = rng.choice(view["decision"]["options"])
                        outstanding = ("choose", seat.match, option)
                        await ws.send(json.dumps({"type": "choose", "token": seat.token,
                                                  "version": view["version"], "option": option}))
                    await ws.send(json.dumps({"type": "ping"}))
        except (ConnectionClosed, InvalidHandshake, OSError, asyncio.TimeoutError):
            pass
        finally:
            seat.inflight = outstanding

    # -- the checks ------------------------------------------------------------------------------
    def verify(self) -> None:
        """With the server dead: the database against everything the clients were told."""
        from intrigue.server.history import export_match  # noqa: PLC0415
        from intrigue.server.protocol import Refusal  # noqa: PLC0415
        from intrigue.store import StoreError, open_store  # noqa: PLC0415

        problems = self.figures.problems
        store = open_store(str(self.db))
        try:
            rooms = {code: store.load_room(code) for code in store.room_codes()}
            matches = {m.id: m for m in store.list_matches(limit=10 ** 9)}
            logs = {}
            for match_id in matches:
                try:
                    logs[match_id] = store.choices(match_id)
                except StoreError as exc:  # a gap in a log
                    problems.append(str(exc))
                    logs[match_id] = []
            played = {r.match for r in rooms.values() if r.match is not None and r.status != "closed"}
            for room in rooms.values():
                if room.match is not None and room.match not in matches:
                    problems.append(f"room {room.code} points at match {room.match}, which is not stored")
            for record in matches.values():
                if record.status == "abandoned":
                    problems.append(f"match {record.id} was abandoned")
                elif record.status == "playing" and record.id not in played:
                    problems.append(f"match {record.id} is playing but no room plays it (an orphan)")
            for match_id, version in self.seen.items():
                if len(logs.get(match_id, [])) < version:
                    problems.append(f"match {match_id}: a client was shown version {version}, "
                                    f"{len(logs.get(match_id, []))} moves are stored")
            for seat in self.seats:
                self._verify_seat(seat, rooms, logs)
            for match_id, record in matches.items():
                if record.status == "finished" and match_id not in self.figures.exported:
                    try:
                        exported = export_match(store, match_id)
                    except (Refusal, ValueError) as exc:
                        problems.append(f"finished match {match_id} does not replay or export: {exc}")
                        continue
                    if [record.players[s] for s in record.winners] != exported["result"]["winners"]:
                        problems.append(f"finished match {match_id} replays to other winners")
                    self.figures.exported.add(match_id)
            self.stored = {"matches": len(matches), "moves": sum(len(log) for log in logs.values()),
                           "finished": sum(m.status == "finished" for m in matches.values()),
                           "by_source": _by_source(logs)}
        finally:
            store.close()

    def _verify_seat(self, seat: Seat, rooms: dict[str, Any], logs: dict[int, list[Any]]) -> None:
        problems = self.figures.problems
        inflight, seat.inflight = seat.inflight, None
        matches = set(seat.acked) | ({inflight[1]} if inflight and inflight[0] == "choose" else set())
        for match_id in matches:
            acked = seat.acked.setdefault(match_id, [])
            stored = [c.option for c in logs.get(match_id, []) if c.seat == seat.seat and c.source == "player"]
            where = f"room {seat.room} seat {seat.seat} match {match_id}"
            if stored[:len(acked)] != acked:
                problems.append(f"{where}: acknowledged moves {acked} but stored {stored}")
                continue
            extra = stored[len(acked):]
            if not extra:
                if inflight and inflight[0] == "choose" and inflight[1] == match_id:
                    self.figures.inflight_dropped += 1
            elif len(extra) == 1 and inflight == ("choose", match_id, extra[0]):
                acked.append(extra[0])  # the move in flight was stored: it is acknowledged now
                self.figures.inflight_kept += 1
            else:
                problems.append(f"{where}: stored moves nobody acknowledged or sent twice: {extra} "
                                f"(acknowledged {acked}, in flight {inflight})")
        room = rooms.get(seat.room)
        if inflight and inflight[0] == "vote" and room is not None and \
                (seat.seat in room.votes or room.match != inflight[1]):
            seat.voted.add(inflight[1])
        for match_id in seat.voted:
            if room is not None and room.match == match_id and room.status == "finished" and \
                    seat.seat not in room.votes:
                problems.append(f"room {seat.room}: seat {seat.seat}'s acknowledged rematch vote is not stored")

    # -- the run ---------------------------------------------------------------------------------
    async def generation(self, seconds: float) -> None:
        """Clients play for ``seconds``, then the server is killed under them."""
        tasks = [asyncio.create_task(self.play(seat, random.Random(self.rng.random()))) for seat in self.seats]
        await asyncio.sleep(seconds)
        self.kill_server()
        done, pending = await asyncio.wait(tasks, timeout=30)
        for task in pending:  # a client that did not notice the dead server in 30 s
            task.cancel()
            self.figures.problems.append("a client hung on a dead server")

    def run(self) -> dict[str, Any]:
        began = time.monotonic()
        self.figures.restart_seconds.append(self.start_server())
        self.open_rooms()
        while True:
            asyncio.run(self.generation(self.rng.uniform(*self.gap)))
            self.verify()
            elapsed = time.monotonic() - began
            if len(self.figures.problems) > 50 or elapsed >= 4 * self.seconds or \
                    (elapsed >= self.seconds and self.figures.kills >= self.kills):
                break
            self.figures.restart_seconds.append(self.start_server())
        figures = self.figures
        restarts = figures.restart_seconds[1:]
        return {"seconds": round(time.monotonic() - began, 1), "rooms": self.rooms,
                "clients": len(self.seats), "kills": figures.kills, "kills_wanted": self.kills,
                "restart_seconds": {"mean": round(sum(restarts) / len(restarts), 2) if restarts else None,
                                    "max": round(max(restarts), 2) if restarts else None},
                "matches": self.stored["matches"], "finished_matches": self.stored["finished"],
                "finished_replayed_and_exported": len(figures.exported),
                "stored_moves": self.stored["moves"], "stored_by_source": self.stored["by_source"],
                "acknowledged_moves_verified": sum(len(a) for s in self.seats for a in s.acked.values()),
                "acknowledged_votes": figures.acked_votes,
                "in_flight_at_a_kill": {"stored": figures.inflight_kept, "not_stored": figures.inflight_dropped},
                "refusals": figures.refusals, "problems": figures.problems[:50]}


def _by_source(logs: dict[int, list[Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for log in logs.values():
        for choice in log:
            counts[choice.source] = counts.get(choice.source, 0) + 1
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.server.soak", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("SOAK_SECONDS", 600)),
                        help="how long to play and kill (default $SOAK_SECONDS or 600)")
    parser.add_argument("--rooms", type=int, default=int(os.environ.get("SOAK_ROOMS", 40)))
    parser.add_argument("--kills", type=int, default=int(os.environ.get("SOAK_KILLS", 0)) or None,
                        help="go on past --seconds until this many kills (default one per 6 s of --seconds: "
                             "100 in ten minutes, however slow restarts are on a loaded machine; at most "
                             "four times --seconds in all)")
    parser.add_argument("--every", type=float, nargs=2, default=(1.5, 4.0), metavar=("MIN", "MAX"),
                        help="seconds of play between two kills (uniform; default 1.5 4)")
    parser.add_argument("--seed", type=int, default=int(os.environ.get("SOAK_SEED", 1)))
    parser.add_argument("--keep", type=Path, default=None, help="keep the database and server log in this folder")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="intrigue-soak-"))
    try:
        kills = args.kills if args.kills is not None else max(1, int(args.seconds // 6))
        figures = Soak(args.seconds, args.rooms, tuple(args.every), args.seed, folder, kills).run()
    finally:
        if args.keep is not None:
            args.keep.mkdir(parents=True, exist_ok=True)
            for name in ("soak.db", "server.log"):
                if (folder / name).exists():
                    shutil.copy(folder / name, args.keep / name)
        shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(figures, indent=2))
    if figures["problems"]:
        print(f"soak FAIL: {len(figures['problems'])} problems after {figures['kills']} kills; first: "
              f"{figures['problems'][0]}", file=sys.stderr)
    else:
        print(f"soak PASS: {figures['kills']} kills survived, {figures['acknowledged_moves_verified']} acknowledged "
              f"moves verified exactly once ({figures['stored_moves']} stored), {figures['matches']} matches "
              f"({figures['finished_matches']} finished, each replayed and exported); no move lost or doubled, "
              "no match orphaned or abandoned", file=sys.stderr)
    return 0 if not figures["problems"] else 1


if __name__ == "__main__":
    sys.exit(main())
