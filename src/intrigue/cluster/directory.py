"""What every node must see the same way: the lobby listing, room codes and per-address quotas (Redis).

- **Listing**: a hash ``lobby`` of room code → the room's public JSON, written
  by the room's owner whenever the room changes (coalesced: only the newest
  entry per room is written, in one pipeline), read by any node for
  ``GET /api/rooms``.
- **Codes**: a new code is reserved with ``SET … NX`` before the room exists,
  so two nodes never hand out the same code.
- **Quotas per address**: rooms created in the last hour (a sorted set of
  creation times per address) and seats held in rooms not started (a sorted
  set per address of ``room:seat`` members whose score is when the hold
  lapses; owners refresh theirs, so a dead node's holds lapse by themselves).

Reads and quota checks are synchronous (one round trip on loopback, like the
store's), called from the room logic; listing writes are queued and flushed
by the node's task.
"""

from __future__ import annotations

import time
from typing import Any

from .bus import dumps, loads

#: How long a held-seat entry lives without being refreshed by its owner (seconds).
HOLD_SECONDS = 600.0
#: A reserved code that no room used is free again after this long (seconds).
CODE_RESERVATION = 24 * 3600


class Directory:
    """``redis`` is a synchronous ``redis.Redis`` client."""

    def __init__(self, redis: Any, prefix: str = "intrigue:"):
        self.redis = redis
        self.prefix = prefix
        self.pending: dict[str, str | None] = {}

    # -- listing ---------------------------------------------------------------------
    @property
    def lobby(self) -> str:
        return f"{self.prefix}lobby"

    def publish(self, code: str, entry: dict[str, Any] | None) -> None:
        """Queue the room's listing entry (None removes it); :meth:`flush` writes it."""
        self.pending[code] = None if entry is None else dumps(entry)

    async def flush(self, redis: Any) -> int:
        """Write the queued entries with the ``redis.asyncio`` client ``redis``; returns how many."""
        if not self.pending:
            return 0
        batch, self.pending = self.pending, {}
        async with redis.pipeline(transaction=False) as pipe:
            for code, entry in batch.items():
                if entry is None:
                    pipe.hdel(self.lobby, code)
                else:
                    pipe.hset(self.lobby, code, entry)
            await pipe.execute()
        return len(batch)

    def listing(self) -> list[dict[str, Any]]:
        return [loads(v) for v in self.redis.hgetall(self.lobby).values()]

    def entry(self, code: str) -> dict[str, Any] | None:
        value = self.redis.hget(self.lobby, code)
        return loads(value) if value else None

    # -- codes -----------------------------------------------------------------------
    def reserve(self, code: str, owner: str) -> bool:
        return bool(self.redis.set(f"{self.prefix}code:{code}", owner, nx=True, ex=CODE_RESERVATION))

    # -- quotas ----------------------------------------------------------------------
    def created(self, address: str, window: float = 3600.0) -> int:
        """Rooms ``address`` created in the last ``window`` seconds, on any node."""
        key = f"{self.prefix}created:{address}"
        now = time.time()
        pipe = self.redis.pipeline(transaction=False)
        pipe.zremrangebyscore(key, "-inf", now - window)
        pipe.zcard(key)
        return int(pipe.execute()[1])

    def record_creation(self, address: str, code: str, window: float = 3600.0) -> None:
        key = f"{self.prefix}created:{address}"
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(key, {code: time.time()})
        pipe.expire(key, int(window) + 60)
        pipe.execute()

    def held(self, address: str) -> int:
        """Seats ``address`` holds in rooms not started, on any node."""
        return int(self.redis.zcount(f"{self.prefix}held:{address}", time.time(), "+inf"))

    def hold(self, holds: dict[str, set[str]], release: dict[str, set[str]]) -> None:
        """Add (or refresh) and remove ``room:seat`` holds, by address."""
        if not holds and not release:
            return
        until = time.time() + HOLD_SECONDS
        pipe = self.redis.pipeline(transaction=False)
        for address, members in release.items():
            if members:
                pipe.zrem(f"{self.prefix}held:{address}", *members)
        for address, members in holds.items():
            if members:
                key = f"{self.prefix}held:{address}"
                pipe.zadd(key, {m: until for m in members})
                pipe.zremrangebyscore(key, "-inf", time.time())
                pipe.expire(key, int(HOLD_SECONDS) + 60)
        pipe.execute()
