"""Server load: real WebSocket clients on loopback playing Coup against a real server.

``intrigue bench server`` starts ``intrigue serve`` as a subprocess on a free
port with a temporary database, opens four real WebSocket clients per match,
and lets them play random legal moves (rematching when a match ends) for a
bounded time. The clients run in processes of their own (``--client-processes``,
the tables dealt out among them), never in the server's, so the server's figures
are its own and one client process's queue is not the measured latency.

It reports accepted moves per second, the latency from sending a ``choose`` to
receiving the view it produced (p50/p95/p99), the CPU the server and the clients
used, the load average before and after (other work on the machine shows there),
the server's resident memory per idle live match, and, with ``--restart N``, how
long the server takes to come back with N unfinished matches in its store after
``kill -9``. Everything stops by itself; only 127.0.0.1 is ever contacted.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from ..protocol import LOG_TAIL

HOST = "127.0.0.1"
PLAYERS = 4
#: What a load test needs from the server it starts: one address (this process) creates every room,
#: joins every seat and holds every socket. The server's defaults (per-address quotas against abuse)
#: are left as they are; only this benchmark's own server is started with these.
#: A load test plays from one address at machine speed (``--think 0``): its server takes quotas
#: no single person needs (the defaults stay as they are for everyone else).
LOAD_TEST_QUOTAS = ["--bot-delay", "0", "--room-quota", "1000000", "--seats-per-address", "1000000",
                    "--sockets-per-address", "1000000", "--connect-rate", "1000000", "--message-rate", "1000",
                    "--max-rooms", "1000000"]
#: Seconds between the client processes' event-loop lag probes.
LAG_TICK = 0.01
#: Processes the load's WebSocket clients run in (the tables are dealt out among them).
CLIENT_PROCESSES = 2


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def start_server(port: int, db: Path, synchronous: str = "full") -> subprocess.Popen:
    command = [sys.executable, "-c", "from intrigue.cli import main; main()", "serve", "--host", HOST,
               "--port", str(port), "--db", str(db), *LOAD_TEST_QUOTAS, "--synchronous", synchronous]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_until_serving(port: int, timeout: float = 60.0) -> float:
    """Seconds until ``GET /api/games`` answers."""
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/api/games", timeout=2) as answer:
                if answer.status == 200:
                    return time.perf_counter() - started
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"the server did not answer within {timeout:.0f} s")


def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"http://{HOST}:{port}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def open_table(port: int) -> tuple[str, list[str]]:
    """A private 4-seat Coup room with timers off; returns its code and the seats' tokens."""
    created = post(port, "/api/rooms", {"game": "coup", "name": "P1", "seats": PLAYERS, "bots": [],
                                        "options": {"turn_timer": None, "window_timer": None},
                                        "private": True})
    tokens = [created["token"]]
    for index in range(2, PLAYERS + 1):
        tokens.append(post(port, f"/api/rooms/{created['room']}/join", {"name": f"P{index}"})["token"])
    return created["room"], tokens


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Load:
    latencies: list[float] = field(default_factory=list)
    finished: int = 0
    errors: dict[str, int] = field(default_factory=dict)


@dataclass
class Stages:
    """One client process's players go through these together: attached, started, then playing."""

    start: asyncio.Event = field(default_factory=asyncio.Event)  # hosts start their matches
    go: asyncio.Event = field(default_factory=asyncio.Event)  # everyone plays (the clock runs)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    welcomed: int = 0
    started: int = 0  # players who have their first match's first view


@dataclass
class Page:
    """What one player's browser shows: the newest view (its log merged), and the click still unanswered."""

    message: dict[str, Any] | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    #: The version the player clicked on and when, until a view past it (or an error) answers.
    clicked: tuple[int, float] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False


async def player(port: int, room: str, token: str, host: bool, load: Load, stages: Stages, seed: int,
                 think: float) -> None:
    """One seat: a browser and the person at it. The page takes every message as it arrives and shows
    the newest view (:func:`_show`); the person reads what is shown, thinks (``think``), and clicks one
    of the options shown *then*, on the newest view, not on one that was replaced while they thought;
    one click at a time: the next view past it (its latency, taken as it arrives) or an error answers it.
    Like a browser, it sends no WebSocket pings (the server pings it, and it answers)."""
    from websockets.asyncio.client import connect  # noqa: PLC0415

    rng = random.Random(seed)
    async with connect(f"ws://{HOST}:{port}/ws", max_size=2 ** 22, compression=None, open_timeout=60,
                       ping_interval=None) as ws:
        # log deltas, as the browser asks for them: each view carries only its new log lines, merged here
        await ws.send(json.dumps({"type": "hello", "room": room, "token": token, "log_deltas": True}))
        while json.loads(await ws.recv())["type"] != "welcome":  # attached: nothing is played yet
            pass
        stages.welcomed += 1
        await stages.start.wait()
        if host:
            await ws.send(json.dumps({"type": "start", "token": token}))
        page = Page()
        shows = asyncio.create_task(_show(ws, page, load, stages))
        closer = asyncio.create_task(_close_when(stages.stop, ws))
        await stages.go.wait()  # every match has started: the measured play begins
        voted_for = None
        answered: tuple[int, int] | None = None  # the (match, version) last clicked on
        while not page.closed:
            await page.changed.wait()
            page.changed.clear()
            message = page.message
            if message is None or page.clicked is not None:
                continue
            view = message["view"]
            if view["over"]:
                if voted_for != message["match"]:
                    if host:
                        load.finished += 1
                    voted_for = message["match"]
                    await ws.send(json.dumps({"type": "rematch", "token": token}))
                continue
            if (message["match"], view["version"]) == answered or not _options(view):
                continue
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))  # a player reads, then clicks
                message = page.message  # what the page shows now
                assert message is not None
                view = message["view"]
                if view["over"] or page.clicked is not None or not _options(view):
                    page.changed.set()  # look again at what is shown
                    continue
            answered = (message["match"], view["version"])
            page.clicked = (view["version"], time.perf_counter())
            await ws.send(json.dumps({"type": "choose", "token": token, "version": view["version"],
                                      "option": rng.choice(_options(view))}))
        await shows
        closer.cancel()


def _options(view: dict[str, Any]) -> list[str]:
    return (view.get("decision") or {}).get("options") or []


async def _show(ws: Any, page: Page, load: Load, stages: Stages) -> None:
    """The page: every message read as it arrives, the newest view shown (see :func:`player`)."""
    current_match = None
    try:
        async for raw in ws:
            if stages.stop.is_set():
                break
            message = orjson.loads(raw)  # the load generator shares the CPUs: it parses fast
            if message["type"] == "error":
                load.errors[message["code"]] = load.errors.get(message["code"], 0) + 1
                if os.environ.get("BENCH_DEBUG"):
                    print(message, file=sys.stderr)
                page.clicked = None  # a refused click: the player looks again
                page.changed.set()
                continue
            if message["type"] != "view":
                continue
            view = message["view"]
            if message["log_after"] is None:
                page.log = view["log"]
            else:  # the lines added since the previous view: appended, the last LOG_TAIL kept
                page.log = (page.log + view["log"])[-LOG_TAIL:]
            if current_match is None:
                stages.started += 1
            if message["match"] != current_match:  # a rematch starts again at version 0
                current_match, page.clicked = message["match"], None
            elif page.clicked is not None and page.clicked[0] < view["version"]:
                load.latencies.append(time.perf_counter() - page.clicked[1])
                page.clicked = None
            page.message = message
            page.changed.set()
    finally:
        page.closed = True
        page.changed.set()


async def _close_when(stop: asyncio.Event, ws: Any) -> None:
    await stop.wait()
    await ws.close()


def open_tables(port: int, matches: int) -> list[tuple[str, list[str]]]:
    """``open_table`` ``matches`` times, a few requests at a time (a big load test opens thousands of seats)."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(lambda _: open_table(port), range(matches)))


async def play(port: int, pid: int, matches: int, seconds: float, think: float,
               attached: bool = True, processes: int = CLIENT_PROCESSES) -> dict[str, Any]:
    """Open the tables, connect the players in ``processes`` client processes, start every match once
    every player has been welcomed, and measure for ``seconds`` once every match has shown its first view:
    the figures are of play, not of a thousand matches starting at once. (``attached`` is kept for
    callers: the clock always waits for every player now.)"""
    baseline = rss_kib(pid)
    tables = open_tables(port, matches)
    groups = [tables[index::processes] for index in range(max(1, processes)) if tables[index::processes]]
    clients = [await ClientProcess.start(port, group, think) for group in groups]
    try:
        welcomed = sum([await client.attached() for client in clients])
        if welcomed < matches * PLAYERS:
            raise RuntimeError(f"only {welcomed} of {matches * PLAYERS} players were welcomed within 120 s")
        await asyncio.sleep(0.5)  # the last room messages delivered
        idle = rss_kib(pid)
        for client in clients:
            client.tell("start")
        started = sum([await client.started() for client in clients])
        if started < matches * PLAYERS:
            raise RuntimeError(f"only {started} of {matches * PLAYERS} players saw their match start within 120 s")
        load_before = os.getloadavg()
        for client in clients:
            client.tell("go")
        cpu_before, started = cpu_seconds(pid), time.perf_counter()
        await asyncio.sleep(seconds)
        for client in clients:
            client.tell("stop")
        elapsed = time.perf_counter() - started
        cpu = cpu_seconds(pid) - cpu_before
        load_after = os.getloadavg()
        reports = [await client.report() for client in clients]
    finally:
        for client in clients:
            await client.end()
    latencies = sorted(latency for report in reports for latency in report["latencies"])
    errors: dict[str, int] = {}
    for report in reports:
        for code, count in report["errors"].items():
            errors[code] = errors.get(code, 0) + count

    lags = sorted(lag for report in reports for lag in report["lags"])

    def pct(p: float, values: list[float] = latencies) -> float:
        return round(values[min(len(values) - 1, int(p * len(values)))] * 1000, 2) if values else 0.0

    return {
        "matches": matches, "clients": matches * PLAYERS, "client_processes": len(clients),
        "seconds": round(elapsed, 2), "think": think,
        "moves": len(latencies), "moves_per_second": round(len(latencies) / elapsed, 1),
        "finished_matches": sum(report["finished"] for report in reports), "errors": errors,
        "latency_ms": {"p50": pct(0.50), "p95": pct(0.95), "p99": pct(0.99),
                       "mean": round(statistics.fmean(latencies) * 1000, 2) if latencies else 0.0},
        # how late the clients' own event loops ran (their lateness is counted in the latency above)
        "clients_lag_ms": {"p99": pct(0.99, lags), "max": round(lags[-1] * 1000, 2) if lags else 0.0},
        "server_cpu_percent": round(100 * cpu / elapsed, 1),
        # the figure the machine's other load disturbs least: the server's CPU time over the moves it accepted
        "server_cpu_ms_per_move": round(1000 * cpu / len(latencies), 3) if latencies else None,
        "clients_cpu_percent": round(100 * sum(report["cpu_seconds"] for report in reports) / elapsed, 1),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after], "cpus": os.cpu_count(),
        "rss_baseline_kib": baseline, "rss_idle_kib": idle,
        "kib_per_idle_match": round((idle - baseline) / matches, 1),
    }


class ClientProcess:
    """One process of load clients (:func:`clients_main`), driven over its stdin and stdout, a JSON line each."""

    def __init__(self, process: asyncio.subprocess.Process):
        self.process = process

    @classmethod
    async def start(cls, port: int, tables: list[tuple[str, list[str]]], think: float) -> "ClientProcess":
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", "from intrigue.bench.server import clients_main; clients_main()",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=2 ** 28)
        client = cls(process)
        client.tell({"port": port, "tables": tables, "think": think})
        return client

    def tell(self, message: Any) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")

    async def _read(self) -> Any:
        assert self.process.stdout is not None
        line = await self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"a client process ended early (exit code {await self.process.wait()})")
        return json.loads(line)

    async def attached(self) -> int:
        return int((await self._read())["welcomed"])

    async def started(self) -> int:
        return int((await self._read())["started"])

    async def report(self) -> dict[str, Any]:
        return await self._read()

    async def end(self) -> None:
        if self.process.returncode is None:
            try:
                await asyncio.wait_for(self.process.wait(), 30)
            except asyncio.TimeoutError:
                self.process.kill()
                await self.process.wait()


def clients_main() -> None:
    """A client process: play the tables it is given, report what its players measured (see ClientProcess).
    On uvloop where it is installed (as the server is): the load generator's own event loop costs less."""
    try:
        import uvloop  # noqa: PLC0415
    except ImportError:  # pragma: no cover - a dependency on CPython off Windows
        asyncio.run(_clients())
        return
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(_clients())


async def _clients() -> None:
    loop = asyncio.get_running_loop()

    async def order() -> Any:
        return json.loads(await loop.run_in_executor(None, sys.stdin.readline))

    task = await order()
    port, think = task["port"], task["think"]
    load, stages = Load(), Stages()
    players = [asyncio.create_task(player(port, room, token, seat == 0, load, stages, hash((room, seat)), think))
               for room, tokens in task["tables"] for seat, token in enumerate(tokens)]

    async def until(count: Any) -> int:
        deadline = time.perf_counter() + 120
        while count() < len(players) and time.perf_counter() < deadline and not all(p.done() for p in players):
            await asyncio.sleep(0.05)
        return count()

    print(json.dumps({"welcomed": await until(lambda: stages.welcomed)}), flush=True)
    await order()  # start
    stages.start.set()
    print(json.dumps({"started": await until(lambda: stages.started)}), flush=True)
    await order()  # go
    # The clients' own garbage collections would be counted as the server's latency (a full one over
    # thousands of players' state paused this process for 0.3-0.7 s): what set-up built is frozen and
    # the collector is off while the clock runs (a player's messages leave no garbage cycles).
    gc.collect()
    gc.freeze()
    gc.disable()
    cpu = time.process_time()
    lags: list[float] = []
    ticker = asyncio.create_task(_lag(lags))
    stages.go.set()
    await order()  # stop
    cpu = time.process_time() - cpu
    ticker.cancel()
    gc.enable()
    stages.stop.set()
    await asyncio.gather(*players, return_exceptions=True)
    print(json.dumps({"latencies": load.latencies, "finished": load.finished, "errors": load.errors,
                      "cpu_seconds": cpu, "lags": lags}), flush=True)


async def _lag(lags: list[float], every: float = LAG_TICK) -> None:
    """How late this process's event loop runs a timer (every ``every`` s): a late client reads its
    views late, and that lateness would be counted as the server's latency."""
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(every)
        lags.append(time.perf_counter() - asked - every)


def restart(port: int, db: Path, matches: int) -> dict[str, Any]:
    """Fill the store with unfinished matches, kill -9 the server, time the restart."""
    server = start_server(port, db)
    try:
        wait_until_serving(port)
        for _ in range(matches):
            room, tokens = open_table(port)
            post(port, f"/api/rooms/{room}/start", {"token": tokens[0]})
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    server = start_server(port, db)
    try:
        seconds = wait_until_serving(port, timeout=120)
    finally:
        server.terminate()
        server.wait()
    return {"unfinished_matches": matches, "restart_seconds": round(seconds, 2)}


def run(matches: int = 100, seconds: float = 15.0, restart_matches: int = 0,
        synchronous: str = "full", think: float = 0.0, processes: int = CLIENT_PROCESSES) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(port, Path(folder) / "bench.db", synchronous)
        try:
            wait_until_serving(port)
            figures = asyncio.run(play(port, server.pid, matches, seconds, think, processes=processes))
            figures["synchronous"] = synchronous
        finally:
            server.terminate()
            server.wait(timeout=30)
        if restart_matches:
            figures["restart"] = restart(free_port(), Path(folder) / "restart.db", restart_matches)
    return figures
