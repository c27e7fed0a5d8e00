"""A node's lease in Redis: one key with a time to live, renewed while the node is alive.

Every room a node owns is held by this one lease (as an etcd lease holds many
keys), so a node renews one key however many rooms it has. The lease's name is
the node's name plus a random incarnation (``a.3f9c1b2e``): a node that restarts,
or that lost its lease during a pause, gets a new name and never revives the
old one. The renewal is a compare-and-set (extend only if the key still exists),
so a node that paused past its lease learns it lost it instead of recreating it.

Which node writes a room is recorded in the store with a fencing token
(:meth:`~intrigue.store.postgres.PostgresStore.claim`); this lease only says
whether that node is still alive. :func:`preferred` spreads a dead node's rooms
over the live ones (rendezvous hashing), so survivors take them in parallel.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from typing import Any

#: Extend the lease only if it still exists (a lost lease is never recreated by its old holder).
_RENEW = "if redis.call('exists', KEYS[1]) == 1 then return redis.call('pexpire', KEYS[1], ARGV[1]) else return 0 end"


class Lease:
    """This node's lease (see the module docstring); ``redis`` is a ``redis.asyncio`` client."""

    def __init__(self, redis: Any, node: str, ttl: float = 1.5, prefix: str = "intrigue:", info: dict | None = None):
        if not node or any(c in node for c in " .:/"):
            raise ValueError(f"a node name is letters, digits, - and _ (not {node!r})")
        self.redis = redis
        self.node = node
        self.ttl = ttl
        self.prefix = prefix
        self.info = info or {}
        self.name = ""
        self.renewed = 0.0  # monotonic time of the last successful renewal

    def key(self, name: str) -> str:
        return f"{self.prefix}lease:{name}"

    @property
    def members(self) -> str:
        return f"{self.prefix}nodes"

    async def acquire(self) -> str:
        """Take a new lease (a new incarnation) and return its name."""
        self.name = f"{self.node}.{secrets.token_hex(4)}"
        value = json.dumps({"node": self.node, **self.info})
        await self.redis.set(self.key(self.name), value, px=int(self.ttl * 1000), nx=True)
        await self.redis.sadd(self.members, self.name)
        self.renewed = time.monotonic()
        return self.name

    async def renew(self) -> bool:
        """Extend the lease; False if it had expired (then every room it held may have been taken)."""
        kept = await self.redis.eval(_RENEW, 1, self.key(self.name), int(self.ttl * 1000))
        if kept:
            self.renewed = time.monotonic()
        return bool(kept)

    def held(self) -> bool:
        """Whether the lease was renewed within its time to live (as this node's clock sees it)."""
        return bool(self.name) and time.monotonic() - self.renewed < self.ttl

    async def live(self) -> list[str]:
        """The names of the leases alive now (forgetting the expired ones)."""
        names = sorted(await self.redis.smembers(self.members))
        names = [n.decode() if isinstance(n, bytes) else n for n in names]
        if not names:
            return []
        values = await self.redis.mget([self.key(n) for n in names])
        dead = [n for n, v in zip(names, values) if v is None]
        if dead:
            await self.redis.srem(self.members, *dead)
        return [n for n, v in zip(names, values) if v is not None]

    async def release(self) -> None:
        """Give the lease up at once (a clean stop): the node's rooms are free to be taken."""
        if self.name:
            await self.redis.delete(self.key(self.name))
            await self.redis.srem(self.members, self.name)


def preferred(resource: str, live: list[str]) -> str | None:
    """The live lease that should take ``resource`` first (highest rendezvous hash)."""
    if not live:
        return None
    return max(live, key=lambda name: hashlib.blake2b(f"{resource}|{name}".encode(), digest_size=8).digest())
