"""A node's lease in Redis: one key with a time to live, renewed while the node is alive.

Every room a node owns is held by this one lease (as an etcd lease holds many
keys), so a node renews one key however many rooms it has. The lease's name is
the node's name plus a random incarnation (``a.3f9c1b2e``): a node that restarts,
or that lost its lease during a pause, gets a new name and never revives the
old one. The renewal is a compare-and-set (extend only if the key still exists),
so a node that paused past its lease learns it lost it instead of recreating it.

A lease also ends as soon as its holder's process is gone: the lease's
connections to Redis carry its name (``CLIENT SETNAME``), and when none is
left on two looks a fifth of the ttl apart (``CLIENT LIST``) the lease is
deleted — on the first look if the holder's bus channel has lost its
subscriber too (two connections closed at once: the process is gone). A
``kill -9`` closes a process's sockets at once, so its death is
seen in a fraction of the ttl instead of after it; a paused (SIGSTOP) or hung
process keeps its connections open, and only the ttl ends its lease. Either
way the old holder cannot write any more: that is the fencing token's job.

Which node writes a room is recorded in the store with a fencing token
(:meth:`~intrigue.store.postgres.PostgresStore.claim`); this lease only says
whether that node is still alive. :func:`preferred` spreads a dead node's rooms
over the live ones (rendezvous hashing), so survivors take them in parallel.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import threading
import time
from typing import Any, Callable

log = logging.getLogger("intrigue.cluster")

#: Extend the lease only if it still exists (a lost lease is never recreated by its old holder).
_RENEW = "if redis.call('exists', KEYS[1]) == 1 then return redis.call('pexpire', KEYS[1], ARGV[1]) else return 0 end"


class Lease:
    """This node's lease (see the module docstring); ``redis`` is a synchronous ``redis.Redis`` client.

    :meth:`keep` renews it from a thread of its own, so a busy event loop (a
    node taking over a thousand rooms, a machine under load) does not lose its
    lease; the thread stops renewing if the loop has shown no sign of life for
    ``stall`` seconds, so a node whose loop hangs loses its rooms too. A
    stopped process (kill -9, SIGSTOP) renews nothing, threads included.
    """

    def __init__(self, redis: Any, node: str, ttl: float = 1.5, prefix: str = "intrigue:", info: dict | None = None,
                 channel: Callable[[str], str] | None = None):
        if not node or any(c in node for c in " .:/"):
            raise ValueError(f"a node name is letters, digits, - and _ (not {node!r})")
        self.redis = redis
        self.node = node
        self.ttl = ttl
        self.prefix = prefix
        self.info = info or {}
        self.name = ""
        self.renewed = 0.0  # monotonic time of the last successful renewal
        self.lost = threading.Event()  # set once a renewal found the lease gone (or Redis away past the ttl)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._named: Any = None  # our own client whose connections carry the lease's name
        self.absent: dict[str, float] = {}  # lease → when it was first seen with no connection left
        #: the pub/sub channel a holder listens on while alive (its bus), a second connection to look at
        self.channel = channel

    def key(self, name: str) -> str:
        return f"{self.prefix}lease:{name}"

    @property
    def members(self) -> str:
        return f"{self.prefix}nodes"

    def acquire(self) -> str:
        """Take a new lease (a new incarnation) and return its name."""
        name = f"{self.node}.{secrets.token_hex(4)}"
        value = json.dumps({"node": self.node, **self.info})
        self.stop_keeping()  # the old lease's thread must not renew through the connections closed next
        self._name_connections(name)  # before the key exists: a lease is never seen without its connection
        self.redis.set(self.key(name), value, px=int(self.ttl * 1000), nx=True)
        self.redis.sadd(self.members, name)
        self.name, self.renewed = name, time.monotonic()
        self.lost.clear()
        return name

    def _name_connections(self, name: str) -> None:
        """From now on the lease talks to Redis on connections named ``name`` (set again on every reconnection)."""
        import redis  # noqa: PLC0415 - the cluster extra

        pool = self.redis.connection_pool
        named = redis.Redis(connection_pool=type(pool)(connection_class=pool.connection_class,
                                                       **{**pool.connection_kwargs, "client_name": name}))
        if self._named is not None:
            self._named.close()
        self.redis = self._named = named

    def renew(self) -> bool:
        """Extend the lease; False if it had expired (then every room it held may have been taken)."""
        kept = self.redis.eval(_RENEW, 1, self.key(self.name), int(self.ttl * 1000))
        if kept:
            self.renewed = time.monotonic()
        return bool(kept)

    def held(self) -> bool:
        """Whether the lease was renewed within its time to live (as this node's clock sees it)."""
        return bool(self.name) and not self.lost.is_set() and time.monotonic() - self.renewed < self.ttl

    def keep(self, alive: Callable[[], bool]) -> None:
        """Renew every fifth of the ttl from a thread, while ``alive()`` says the node still works."""
        self.stop_keeping()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._renew_forever, args=(alive, self._stop), daemon=True,
                                        name=f"lease-{self.name}")
        self._thread.start()

    def stop_keeping(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(2 * self.ttl)
        self._thread = None

    def _renew_forever(self, alive: Callable[[], bool], stop: threading.Event) -> None:
        stalled = False
        while not stop.wait(self.ttl / 5):
            if not alive():
                if not stalled:
                    log.error("lease %s: the node's event loop is stalled; no longer renewing", self.name)
                stalled = True
                continue
            stalled = False
            try:
                late = time.monotonic() - self.renewed
                if not self.renew():
                    log.error("lease %s expired %.2f s after its last renewal: its rooms may be taken", self.name,
                              late)
                    self.lost.set()
                    return
                if late > self.ttl / 2:
                    log.warning("lease %s renewed %.2f s after the last time (the lease lives %.1f s): this "
                                "machine is too busy for the lease", self.name, late, self.ttl)
            except Exception as exc:  # noqa: BLE001 - Redis away: the lease runs out unless it comes back
                if time.monotonic() - self.renewed >= self.ttl:
                    log.error("lease %s: could not renew for %.1f s (%s)", self.name, self.ttl, exc)
                    self.lost.set()
                    return

    def live(self) -> list[str]:
        """The names of the leases alive now (forgetting the expired ones, ending those whose holder is gone)."""
        names = sorted(n.decode() if isinstance(n, bytes) else n for n in self.redis.smembers(self.members))
        if not names:
            return []
        values = self.redis.mget([self.key(n) for n in names])
        dead = [n for n, v in zip(names, values) if v is None]
        alive = [n for n, v in zip(names, values) if v is not None]
        gone = self._disconnected(alive)
        if gone:
            log.warning("lease %s: the connections of %s are closed: %s", self.name, ", ".join(gone),
                        "its process is gone" if len(gone) == 1 else "their processes are gone")
            self.redis.delete(*[self.key(n) for n in gone])
            dead += gone
        if dead:
            self.redis.srem(self.members, *dead)
        return [n for n in alive if n not in gone]

    def _disconnected(self, alive: list[str]) -> list[str]:
        """The leases among ``alive`` (not ours) whose holder is gone (see :meth:`gone`)."""
        peers = [n for n in alive if n != self.name]
        if not peers:
            return []
        try:
            pipe = self.redis.pipeline(transaction=False)
            pipe.client_list()
            if self.channel is not None:
                pipe.pubsub_numsub(*[self.channel(n) for n in peers])
            clients, *numsub = pipe.execute()
        except Exception:  # noqa: BLE001 - CLIENT LIST refused (a managed Redis): the ttl alone ends leases
            return []
        return self.gone(peers, clients, numsub[0] if numsub else None)

    def gone(self, peers: list[str], clients: list[dict[str, Any]], numsub: list[Any] | None,
             now: float | None = None) -> list[str]:
        """Which of the leases ``peers`` have lost their holder, from ``CLIENT LIST`` (``clients``) and
        ``PUBSUB NUMSUB`` of their channels (``numsub``, or None). A lease with no connection left is
        gone on two looks at least a fifth of the ttl apart (a live holder whose connection broke
        reconnects at its next renewal); on the first look if its holder's channel has no subscriber
        either — two connections of one process closed at once: the process is gone (``kill -9``) —
        unless our own connections are younger than the ttl (Redis restarted, or we reconnected:
        everyone may be reconnecting)."""
        now = time.monotonic() if now is None else now
        connected = {client.get("name") for client in clients}
        missing = [n for n in peers if n not in connected]
        self.absent = {n: self.absent.get(n, now) for n in missing}
        if not missing:
            return []
        certain: set[str] = set()
        if numsub is not None and self.channel is not None:
            ours = [int(client.get("age", 0)) for client in clients if client.get("name") == self.name]
            if ours and max(ours) > self.ttl:
                listened = {_text(channel): int(count) for channel, count in numsub}
                certain = {n for n in missing if not listened.get(self.channel(n))}
        return [n for n in missing if n in certain or now - self.absent[n] >= self.ttl / 5]

    def release(self) -> None:
        """Give the lease up at once (a clean stop): the node's rooms are free to be taken."""
        self.stop_keeping()
        if self.name:
            self.redis.delete(self.key(self.name))
            self.redis.srem(self.members, self.name)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def preferred(resource: str, live: list[str]) -> str | None:
    """The live lease that should take ``resource`` first (highest rendezvous hash)."""
    if not live:
        return None
    return max(live, key=lambda name: hashlib.blake2b(f"{resource}|{name}".encode(), digest_size=8).digest())
