"""Matches with remote agents: played on a real Intrigue server on loopback.

When an agent of the lineup plays over the protocol, the arena starts the real
server (``create_app``, SQLite in a temporary directory) on ``127.0.0.1`` and a
free port, and every seat of every match plays through it: the arena's own
agents through :func:`intrigue.client.play_seat`, remote ones in their own
process. The server is told each room's seed (``Settings.match_seed``), so
every rotation of a deal is dealt the same cards. Those seeds are drawn in
secret for the run (a remote program that knew them could deal every hand
itself) and the server shows no history (``Settings.history``: a finished
rotation would show the next one's hands). The moves are then read back from
the server's store.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from pathlib import Path
from typing import Any

from ..bots import Bot
from ..client import Client, create, join, play_seat
from ..client.session import _post
from ..server.settings import Settings
from ..store import open_store

#: A match that has not ended after this many seconds is abandoned (an agent that never answers
#: cannot hold a timed room this long; an untimed one could).
MATCH_LIMIT = 1800.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LoopbackServer:
    """The real server in a thread on 127.0.0.1, with room for bots that answer at once."""

    def __init__(self, directory: Path):
        import uvicorn  # noqa: PLC0415

        from ..server.app import create_app  # noqa: PLC0415

        self.seeds: dict[str, int] = {}
        self.store = open_store(str(directory / "arena.db"), synchronous="OFF")
        settings = Settings(bot_delay=0.0, room_quota=10**9, message_rate=1000.0, message_burst=1000.0,
                            flood_limit=10**6, sockets_per_address=10**6, seats_per_address=10**6,
                            connect_rate=10**6, connect_burst=10**6,
                            chat_rate=1.0, chat_burst=5.0, match_seed=self.seeds.get, history=False)
        self.app = create_app(self.store, settings, static=directory / "static")
        self.port = _free_port()
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="error",
                                ws_max_size=1024 * 1024, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True, name="arena-server")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> "LoopbackServer":
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the arena's loopback server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.store.close()


async def play_hosted(host: LoopbackServer, game_id: str, seats: list[Bot | Any], seed: int,
                      timers: dict[str, Any]) -> tuple[list[tuple[int, str]], list[int]]:
    """One match on the loopback server: ``seats[s]`` is a local :class:`Bot` or a remote process.

    Returns the accepted choices ``(seat, option)`` in order and the winning seats.
    """
    names = [f"P{s + 1}" for s in range(len(seats))]
    first = await create(host.url, game_id, names[0], len(seats), private=True, options=timers)
    tickets = [first] + [await join(first.invite, name) for name in names[1:]]
    room = first.invite.room
    host.seeds[room] = seed
    tasks: list[asyncio.Task[Any]] = []
    clients: list[Client] = []
    for s, agent in enumerate(seats):
        if isinstance(agent, Bot):
            client = Client(first.invite, tickets[s].token)
            await client.connect()
            clients.append(client)
            tasks.append(asyncio.create_task(play_seat(client, agent, games=1)))
    watcher = Client(first.invite)  # a spectator: sees the end
    await watcher.connect()
    try:
        # The match starts before a remote agent gets its seat: holding a seat of a room not started, it
        # could leave it (the seat freed, the table one short; the host's, and the start refused) or never
        # come (the arena waited for it, then failed). Its seat is now played on the rooms' timers until it
        # connects, and if it leaves (docs/agents.md).
        await _post(host.url, f"/api/rooms/{room}/start", {"token": first.token})
        for s, agent in enumerate(seats):
            if not isinstance(agent, Bot):
                agent.seat(first.invite.link, tickets[s].token, room, s)
        async with asyncio.timeout(MATCH_LIMIT):
            while not watcher.over:
                await watcher.recv()
        match_id = watcher.match
        assert match_id is not None
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        for client in [*clients, watcher]:
            await client.close()
        host.seeds.pop(room, None)
    record = host.store.load_match(match_id)
    assert record is not None
    choices = [(c.seat, c.option) for c in host.store.choices(match_id)]
    return choices, list(record.winners or [])
