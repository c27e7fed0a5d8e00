"""Cluster load and failover: real nodes on PostgreSQL and Redis behind HAProxy, real WebSocket clients.

``intrigue bench cluster`` starts PostgreSQL, Redis and HAProxy in a temporary
folder (cluster/services.py), then:

1. **Throughput** for 1, 2 and 3 nodes: the server benchmark's players
   (bench/server.py: four WebSocket clients per Coup match, random legal
   moves, rematches) connect *through the proxy*, which spreads rooms and
   connections over the nodes; a connection whose room another node owns is
   relayed. Accepted moves per second, command → view latency, and the CPU
   the nodes used.
2. **Failover**: N two-player matches all owned by node a (created there),
   their players connected through the proxy, a few moves played; then
   ``kill -9`` of node a, and for every match the time until a move sent after
   the kill is accepted (the players reconnect by themselves, or their gateway
   node moves their connection to the room's new owner). A match's players stop
   once it has accepted that move, so the figure is each match's recovery, not
   its recovery behind the full-speed play of the matches that recovered first.
   Afterwards every move a player saw acknowledged, before or after the kill, is
   checked in the store's log at its version.

Only 127.0.0.1 is contacted; everything stops by itself.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import tempfile
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from ..cluster import services
from ..cluster.local import LocalCluster
from ..protocol import LOG_TAIL
from . import server as single

NODE_OPTIONS = single.LOAD_TEST_QUOTAS  # every node takes the quotas a load test from one address needs


def _database(postgres: services.Postgres) -> str:
    import psycopg  # noqa: PLC0415

    name = f"bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(postgres.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return postgres.url.rsplit("/", 1)[0] + "/" + name


def _cpu(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            total += single.cpu_seconds(pid)
        except OSError:
            pass
    return total


def throughput(postgres: services.Postgres, redis: services.Redis, folder: Path, nodes: int, matches: int,
               seconds: float, think: float, lease: float) -> dict[str, Any]:
    cluster = LocalCluster(folder / f"run{nodes}", _database(postgres), redis.url, lease,
                           [*NODE_OPTIONS, "--cluster-name", f"bench{uuid.uuid4().hex[:6]}"])
    try:
        for index in range(nodes):
            cluster.start_node(chr(ord("a") + index))
        proxy = cluster.start_proxy()
        pids = [n.pid for n in cluster.nodes.values()]
        before, started = _cpu(pids), time.perf_counter()
        figures = asyncio.run(single.play(proxy.port, pids[0], matches, seconds, think, attached=True))
        elapsed = time.perf_counter() - started
        return {"nodes": nodes, "matches": matches, "clients": figures["clients"], "think": think,
                "moves_per_second": figures["moves_per_second"], "latency_ms": figures["latency_ms"],
                "finished_matches": figures["finished_matches"], "errors": figures["errors"],
                "nodes_cpu_percent": round(100 * (_cpu(pids) - before) / elapsed, 1)}
    finally:
        cluster.stop()


@dataclass
class Watch:
    """What the failover players saw."""

    acked: dict[tuple[int, int], tuple[int, str]] = field(default_factory=dict)  # (match, version) → (seat, option)
    warm: set[str] = field(default_factory=set)       # rooms with a few moves played before the kill
    killed_at: float | None = None
    recovered: dict[str, float] = field(default_factory=dict)  # room → seconds from the kill to an accepted move
    seen: dict[str, float] = field(default_factory=dict)  # room → seconds from the kill to a view on a new connection
    reconnects: int = 0
    reconnects_before_kill: int = 0  # e.g. node a marked down by the proxy's health checks while busy
    moved: int = 0  # connections moved to the room's new owner by their gateway (a second welcome)
    errors: dict[str, int] = field(default_factory=dict)


async def failover_player(url: str, room: str, token: str, watch: Watch, warm_moves: int, stop: asyncio.Event,
                          seed: int, delay: float = 0.0) -> None:
    """A two-player match's seat: plays until ``warm_moves`` are made, waits for the kill, then plays until
    its match has accepted a move; reconnects whenever its connection drops. In a two-player match one seat
    is pending at a time, so a view with a higher version than a move was sent at acknowledges that move.
    A ``welcome`` starts a new session (a new connection, or the same one moved to the room's new owner):
    a move sent before it and not acknowledged by the views that follow may have been lost, and is sent
    again."""
    from websockets.asyncio.client import connect  # noqa: PLC0415

    rng = random.Random(seed)
    await asyncio.sleep(delay)  # the players arrive over a few seconds, not all in one instant
    sent: tuple[int, int, int, str, float] | None = None  # match, version, session, option, sent at
    session = 0
    while not stop.is_set():
        latest: tuple[int, dict[str, Any]] | None = None  # (match, view) last received in this session
        try:
            async with connect(url, open_timeout=10, max_size=2 ** 22, compression=None, proxy=None) as ws:
                await ws.send(orjson.dumps({"type": "hello", "room": room, "token": token,
                                            "log_deltas": True}).decode())
                while not stop.is_set():  # noqa: ASYNC110 - a message or a look every 0.5 s
                    try:
                        async with asyncio.timeout(0.5):  # no task per message, as wait_for makes on 3.11
                            message = orjson.loads(await ws.recv(decode=False))
                    except TimeoutError:
                        message = {"type": "tick"}  # look again: the kill may have happened meanwhile
                    if message["type"] == "welcome":
                        session += 1
                        if latest is not None:
                            watch.moved += 1
                        latest = None
                    elif message["type"] == "error":
                        watch.errors[message["code"]] = watch.errors.get(message["code"], 0) + 1
                        if latest is None:  # the hello was refused (its node was busy or gone): try again
                            raise ConnectionError(message["code"])
                    elif message["type"] == "view":
                        if latest is None and watch.killed_at is not None and session > 1:
                            watch.seen.setdefault(room, time.perf_counter() - watch.killed_at)
                        if message["log_after"] is not None and latest is not None:  # a log delta: merged
                            message["view"]["log"] = (latest[1]["log"] + message["view"]["log"])[-LOG_TAIL:]
                        latest = (message["match"], message["view"])
                        match, view = latest
                        if sent is not None and sent[0] == match and view["version"] > sent[1]:
                            watch.acked[(match, sent[1])] = (view["seat"], sent[3])
                            if watch.killed_at is not None and sent[4] >= watch.killed_at:
                                watch.recovered.setdefault(room, time.perf_counter() - watch.killed_at)
                            sent = None
                        if view["version"] >= warm_moves:
                            watch.warm.add(room)
                    if latest is None or latest[1]["over"]:
                        continue
                    match, view = latest
                    options = (view.get("decision") or {}).get("options") or []
                    if not options or (watch.killed_at is None and view["version"] >= warm_moves) \
                            or room in watch.recovered:
                        continue
                    if sent is None or sent[1] != view["version"] or sent[2] != session:
                        option = next((o for o in ("Income", "Pass") if o in options), rng.choice(options))
                        if sent is not None and sent[:2] == (match, view["version"]) and sent[3] in options:
                            option = sent[3]  # sent again: the same move (if both arrive, one is stale)
                        sent = (match, view["version"], session, option, time.perf_counter())
                        await ws.send(json.dumps({"type": "choose", "token": token, "version": view["version"],
                                                  "option": option}))
        except Exception:  # noqa: BLE001 - a dropped connection: reconnect, as a browser does
            if watch.killed_at is None:
                watch.reconnects_before_kill += 1
            else:
                watch.reconnects += 1
            await asyncio.sleep(0.05 + rng.uniform(0, 0.25))


def _loop_factory() -> Any:
    """uvloop's event loop where it is installed: the 2,000 players share the nodes' cores, and every
    CPU-second they save is one the survivors can use (a real site's clients are elsewhere)."""
    try:
        import uvloop  # noqa: PLC0415
    except ImportError:  # pragma: no cover - a dependency on CPython off Windows
        return None
    return uvloop.new_event_loop


def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def failover(postgres: services.Postgres, redis: services.Redis, folder: Path, matches: int, lease: float,
             timeout: float = 60.0) -> dict[str, Any]:
    from ..store import open_store  # noqa: PLC0415

    cluster = LocalCluster(folder / "failover", _database(postgres), redis.url, lease,
                           [*NODE_OPTIONS, "--cluster-name", f"bench{uuid.uuid4().hex[:6]}"])
    try:
        for name in "abc":
            cluster.start_node(name)
        proxy = cluster.start_proxy()
        owner = cluster.nodes["a"]
        tables = []
        for _ in range(matches):  # created, joined and started on node a: a owns every match
            created = _post(owner.url, "/api/rooms", {"game": "coup", "name": "P1", "seats": 2, "private": True,
                                                      "options": {"turn_timer": None, "window_timer": None}})
            joined = _post(owner.url, f"/api/rooms/{created['room']}/join", {"name": "P2"})
            _post(owner.url, f"/api/rooms/{created['room']}/start", {"token": created["token"]})
            tables.append((created["room"], created["token"], joined["token"]))
        watch = Watch()

        async def run() -> dict[str, Any]:
            stop = asyncio.Event()
            url = proxy.url.replace("http", "ws") + "/ws"
            tasks = [asyncio.create_task(failover_player(url, room, token, watch, 2, stop, hash((room, seat)),
                                                         delay=index * 0.004))
                     for index, (room, first, second) in enumerate(tables)
                     for seat, token in enumerate((first, second))]
            deadline = time.perf_counter() + timeout
            while len(watch.warm) < matches and time.perf_counter() < deadline:
                await asyncio.sleep(0.1)
            warm = len(watch.warm)
            await asyncio.sleep(0.5)
            survivors = [cluster.nodes[name].pid for name in "bc"]
            cpu_before = _cpu(survivors)
            watch.killed_at = time.perf_counter()
            cluster.kill("a")
            deadline = watch.killed_at + timeout
            while len(watch.recovered) < matches and time.perf_counter() < deadline:
                await asyncio.sleep(0.05)
            cpu = _cpu(survivors) - cpu_before  # the survivors' CPU from the kill until every match is back
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
            return {"warm": warm, "cpu": cpu}

        with asyncio.Runner(loop_factory=_loop_factory()) as runner:  # the players on uvloop, as the nodes
            state = runner.run(run())
        store = open_store(cluster.store)
        missing = wrong = 0
        logs: dict[int, list[Any]] = {}
        for (match, version), (seat, option) in watch.acked.items():
            log = logs.get(match) or logs.setdefault(match, store.choices(match))
            if version >= len(log):
                missing += 1
            elif (log[version].seat, log[version].option) != (seat, option):
                wrong += 1
        holders = {store.holder(room)[0].split(".")[0] for room, _, _ in tables}
        times = sorted(watch.recovered.values())
        seen = sorted(watch.seen.values())

        def pct(p: float, values: list[float] = times) -> float:
            return round(values[min(len(values) - 1, int(p * len(values)))], 2) if values else 0.0

        return {"matches": matches, "warm_before_kill": state["warm"], "recovered": len(times),
                "seconds_to_all": round(times[-1], 2) if len(times) == matches else None,
                "p50": pct(0.5), "p99": pct(0.99), "lease": lease,
                "survivors_cpu_seconds": round(state["cpu"], 2),
                "survivors_cpu_ms_per_match": round(1000 * state["cpu"] / matches, 2),
                "reconnected_view_p50": pct(0.5, seen), "reconnected_view_p99": pct(0.99, seen),
                "acknowledged_moves": len(watch.acked), "missing_in_log": missing, "different_in_log": wrong,
                "holders_after": sorted(holders), "reconnects": watch.reconnects, "moved": watch.moved,
                "reconnects_before_kill": watch.reconnects_before_kill,
                "errors": watch.errors}
    finally:
        cluster.stop()


def run(node_counts: list[int], matches: int, seconds: float, think: float, failover_matches: int,
        lease: float) -> dict[str, Any]:
    services.install()
    folder = Path(tempfile.mkdtemp(prefix="intrigue-bench-cluster-"))
    folder.chmod(0o755)
    postgres = redis = None
    try:
        postgres = services.Postgres(folder).start()
        redis = services.Redis(folder).start()
        load_before = os.getloadavg()
        figures: dict[str, Any] = {"throughput": [], "load_average_before": [round(x, 2) for x in load_before]}
        for count in node_counts:
            figures["throughput"].append(throughput(postgres, redis, folder, count, matches, seconds, think, lease))
        if failover_matches:
            figures["failover"] = failover(postgres, redis, folder, failover_matches, lease)
        figures["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
        figures["cpus"] = os.cpu_count()
        return figures
    finally:
        if redis is not None:
            redis.stop()
        if postgres is not None:
            postgres.stop()
        shutil.rmtree(folder, ignore_errors=True)
