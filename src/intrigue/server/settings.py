"""The server's knobs and the room options every game shares (its timers)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from ..engine.timing import TIMER_OPTIONS

#: The two timer options of every room are the engine's (seconds; ``None`` is off): ``TIMER_OPTIONS``.
TIMER_RANGE = (1, 3600)
#: After a restart a recovered decision's timer runs on, but leaves at least this
#: many seconds, so that players have time to reconnect.
RECOVERY_GRACE = 10.0


@dataclass
class Settings:
    """Server knobs (tests make bots instant and quotas roomy)."""

    bot_delay: float = 0.8          # seconds a bot "thinks" before acting
    secret_pace: float = 2.0        # in a secret decision, bots' answers land together, no sooner than this
    disconnect_grace: float = 60.0  # with timers off: seconds before a disconnected seat is decided
    room_quota: int = 20            # rooms one client may create per hour
    message_rate: float = 10.0      # WebSocket messages per second per connection…
    message_burst: float = 40.0     # …with this burst
    flood_limit: int = 40           # messages refused for rate; the last of them closes the connection
    hello_rate: float = 1.0         # hellos per second per connection (each builds a view: costly)…
    hello_burst: float = 5.0        # …with this burst
    chat_rate: float = 0.5          # chat lines per second per seat…
    chat_burst: float = 5.0         # …with this burst
    hint_rate: float = 0.2          # hints per second per seat (practice rooms only)…
    hint_burst: float = 3.0         # …with this burst
    hint_milliseconds: float = 600.0  # the search's budget for one hint
    max_rooms: int = 2000           # rooms held at once (waiting + playing)
    sockets_per_address: int = 100  # WebSockets one address may hold open (each costs a task and a socket)
    connect_rate: float = 10.0      # new WebSockets one address may open per second…
    connect_burst: float = 100.0    # …with this burst (each is a handshake, and for a seat news to its room)
    seats_per_address: int = 30     # seats one address may take by joining rooms that have not started
    max_connections: int = 200      # connections (players + spectators) per room
    presence_rate: float = 2.0      # "who is connected" told to a room this often per second…
    presence_burst: float = 20.0    # …after this many at once (later changes go in one deferred message)
    idle_close: float = 6 * 3600    # a waiting or finished room nobody is in is closed after this long
    #: Who picks a new match's seed, given the room code (the arena replays seeded deals); None, or a
    #: None answer: a secret random seed. Never set by `intrigue serve`: a known seed reveals every card.
    match_seed: Callable[[str], int | None] | None = None
    #: Whether ``/api/matches`` and replays are served. The arena's server does not: the rotations of a deal
    #: are dealt the same cards, so a finished one would show a remote agent the hands of the next.
    history: bool = True


def now_iso() -> str:
    """The time the store records (UTC, microseconds): ``datetime.now(timezone.utc).strftime(
    "%Y-%m-%dT%H:%M:%S.%fZ")``, with the date and time of day formatted once a second (every move
    stores one; formatting the datetime each time cost 2% of the server at 1,000 matches)."""
    now = time.time()
    second = int(now)
    if second != _SECOND[0]:
        _SECOND[:] = [second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))]
    return f"{_SECOND[1]}.{int((now - second) * 1_000_000):06d}Z"


#: The second ``now_iso`` last formatted, and its text.
_SECOND: list = [None, ""]
