"""The server's CPU per accepted move on its own path, and its clients' decoding, in one process.

``intrigue bench server`` measures real sockets, but on a machine shared with other work its
CPU per move moves with the load (the server's fixed costs per second are shared by fewer
moves when the clients are starved). This takes the sockets out: ``--rooms`` Coup rooms of
four seats, one ``Connection`` per seat whose outbox is drained as its socket would be, random
legal moves sent as ``choose`` frames through the server's own ``parse`` and ``handle`` (checked,
applied, stored in SQLite, every view encoded), and each view decoded with orjson (and its log
merged) as the benchmark's players do. It prints the server's and the clients' CPU time per
move and the bytes sent per move. Rooms rematch when their match ends.

    .venv/bin/python benchmarks/server_moves.py --rooms 200 --moves 20000            # views as today
    .venv/bin/python benchmarks/server_moves.py --rooms 200 --moves 20000 --deltas   # log deltas

``--server-only`` leaves the clients' decoding out, for counting the server's instructions per move
under ``valgrind --tool=callgrind`` (the figure other work on the machine does not move: run it with
two ``--moves`` and divide the difference, which cancels the start-up). ``--collector`` collects
garbage as the server does (server/heap.py's policy, installed as ``intrigue serve`` installs it)
instead of not at all, and reports the CPU time it took per move.

Run it with an older checkout's ``src`` on PYTHONPATH to compare (``--deltas`` asks with
``hello``'s ``log_deltas``, which a server without deltas ignores).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import tempfile
import time
from pathlib import Path

import orjson

from intrigue.server.app import Connection, handle
from intrigue.server.heap import Heap
from intrigue.server.lobby import Lobby
from intrigue.server.protocol import parse
from intrigue.server.settings import Settings
from intrigue.store import open_store

LOG_TAIL = 80
NO_TIMERS = {"turn_timer": None, "window_timer": None}


async def play(rooms: int, moves: int, deltas: bool, seed: int, folder: str,
               decode: bool = True, collector: bool = False) -> dict[str, float]:
    store = open_store(str(Path(folder) / "bench.db"), synchronous="FULL", sync_later=True)
    deals = random.Random(seed + 1)  # every run deals the same matches (instructions are compared run to run)
    settings = Settings(bot_delay=0.0, room_quota=10 ** 6, max_rooms=10 ** 6, seats_per_address=10 ** 6,
                        match_seed=lambda code: deals.getrandbits(62))
    lobby = Lobby(store, settings)
    rng = random.Random(seed)
    checkpoints = hasattr(store, "checkpoint_due")  # (an older checkpoint leaves them to SQLite, in its commits)
    tables = []
    for _ in range(rooms):
        room, host = lobby.create("bench", "coup", "P1", 4, [], dict(NO_TIMERS), True)
        tokens = [host] + [lobby.join("bench", room.code, f"P{n}")[2] for n in range(2, 5)]
        conns = []
        for token in tokens:
            conn = Connection(None, settings)  # type: ignore[arg-type]  # no socket: the outbox is read here
            handle(lobby, conn, parse(json.dumps({"type": "hello", "room": room.code, "token": token,
                                                   **({"log_deltas": True} if deltas else {})})))
            conns.append(conn)
        handle(lobby, conns[0], parse(json.dumps({"type": "start", "token": tokens[0]})))
        tables.append((room, tokens, conns, [[] for _ in conns]))
    for table in tables:
        drain(table)
    # No garbage collection while the clock runs: a collection over every room's objects lands wherever
    # a move allocates, in the clients' decoding as much as in the server's work (the server's own
    # policy, server/heap.py, is measured by `intrigue bench server`). A move leaves few cycles.
    gc.collect()
    gc.freeze()
    spent = [0.0, 0.0, 0]  # with --collector: CPU seconds collecting, when the current one started, collections

    def timed(phase: str, info: dict) -> None:
        if phase == "start":
            spent[1] = time.process_time()
            return
        spent[0] += time.process_time() - spent[1]
        spent[2] += 1

    heap = Heap()
    if collector:  # the server's own policy (server/heap.py), whatever the checkout on PYTHONPATH has
        heap.install()
        gc.callbacks.append(timed)
    else:
        gc.disable()
    server = client = 0.0
    sent = 0
    for _ in range(moves):
        table = rng.choice(tables)
        room, tokens, conns, logs = table
        match = room.match
        started = time.process_time()
        if match.over:
            for seat, token in enumerate(tokens):
                handle(lobby, conns[seat], parse(json.dumps({"type": "rematch", "token": token})))
        else:
            seat = rng.choice(match.pending)
            option = rng.choice(match.legal(seat))
            handle(lobby, conns[seat], parse(json.dumps({"type": "choose", "token": tokens[seat],
                                                         "version": match.version, "option": option})))
        if checkpoints and store.checkpoint_due():  # the server's checkpoint thread's work, counted here
            store.checkpoint()
        handled = time.process_time() - started
        taking, decoding = drain(table, decode)
        server += handled + taking
        client += decoding
        sent += sum(len(text) for conn in conns for text in conn.__dict__.pop("taken", []))
    if collector:
        gc.callbacks.remove(timed)
        heap.uninstall()
    gc.enable()
    store.close()
    collected = ({"collector_us_per_move": round(1e6 * spent[0] / moves, 1), "collections": spent[2]}
                 if collector else {})
    return {**collected, "server_us_per_move": round(1e6 * server / moves, 1),
            "client_us_per_move": round(1e6 * client / moves, 1),
            "bytes_per_move": round(sent / moves)}


def drain(table, decode: bool = True) -> tuple[float, float]:
    """Take every queued message (the server's cost, as its pump would) and decode it as a client does
    (theirs). Returns (server seconds, client seconds) spent here."""
    _, _, conns, logs = table
    server = client = 0.0
    for index, conn in enumerate(conns):
        taken = conn.__dict__.setdefault("taken", [])
        mark = time.process_time()
        while conn.outbox.items:
            text, _ = conn.outbox.take()
            taken.append(text)
        after = time.process_time()
        server += after - mark
        for text in taken if decode else ():
            message = orjson.loads(text)
            if message["type"] == "view":
                log = message["view"]["log"]
                logs[index] = log if message.get("log_after") is None else (logs[index] + log)[-LOG_TAIL:]
        client += time.process_time() - after
    return server, client


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--moves", type=int, default=20000)
    parser.add_argument("--deltas", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server-only", action="store_true", help="leave the clients' decoding out")
    parser.add_argument("--collector", action="store_true",
                        help="collect garbage as the server does (server/heap.py), and time it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(play(args.rooms, args.moves, args.deltas, args.seed, folder,
                                   not args.server_only, args.collector))
    print(json.dumps({"rooms": args.rooms, "moves": args.moves, "deltas": args.deltas, **figures}))


if __name__ == "__main__":
    main()
