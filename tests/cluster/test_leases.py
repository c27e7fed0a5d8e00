"""Leases in a real Redis: renewal, expiry, no resurrection, and how a dead node's rooms are spread."""

from __future__ import annotations

import time
import uuid

import redis

from intrigue.cluster.directory import Directory
from intrigue.cluster.leases import Lease, preferred


def test_a_lease_lives_while_renewed_and_is_never_recreated_by_its_old_holder(redis_server):
    client = redis.Redis.from_url(redis_server.url)
    prefix = f"t{uuid.uuid4().hex[:8]}:"
    a, b = Lease(client, "a", ttl=0.3, prefix=prefix), Lease(client, "b", ttl=0.3, prefix=prefix)
    name_a, name_b = a.acquire(), b.acquire()
    assert name_a.startswith("a.") and sorted(a.live()) == sorted([name_a, name_b])
    b.keep(alive=lambda: True)  # b renews from its thread; a does not
    time.sleep(0.6)
    assert a.live() == [name_b] and b.held() and not a.held()
    assert a.renew() is False  # the old holder cannot bring its lease back…
    assert client.exists(a.key(name_a)) == 0
    again = a.acquire()  # …it takes a new lease under a new name
    assert again != name_a and sorted(a.live()) == sorted([again, name_b])
    a.release()
    assert a.live() == [name_b]
    stalled = [False]
    b.keep(alive=lambda: not stalled[0])
    stalled[0] = True  # b's event loop stalls: its thread stops renewing and the lease runs out
    time.sleep(0.6)
    assert a.live() == [] and not b.held()
    b.stop_keeping()


def test_rooms_of_a_dead_node_are_spread_over_the_live_ones():
    live = ["b.1111", "c.2222"]
    chosen = [preferred(f"R{i:03d}", live) for i in range(400)]
    assert 150 < chosen.count("b.1111") < 250  # about half each
    assert preferred("R001", live) == preferred("R001", list(reversed(live)))  # every node agrees
    assert preferred("R001", []) is None


def test_a_holder_whose_connections_all_closed_is_gone_on_one_look_a_lone_missing_one_on_two():
    """What a look at CLIENT LIST and PUBSUB NUMSUB concludes (the same rule on every node)."""
    lease = Lease(None, "w", ttl=1.5, prefix="t:", channel=lambda name: f"t:to:{name}")
    lease.name = "w.0001"
    me = {"name": "w.0001", "age": "30"}

    def look(clients, subscribed, at):
        numsub = [(f"t:to:{n}".encode(), 1 if n in subscribed else 0) for n in ("a.1", "b.1")]
        return lease.gone(["a.1", "b.1"], clients, numsub, now=at)

    # a.1 was killed: its lease connection and its bus subscription closed together. b.1 only lost its
    # lease connection (a broken socket it reopens at its next renewal): not gone yet.
    assert look([me], subscribed={"b.1"}, at=100.0) == ["a.1"]
    assert look([me], subscribed={"b.1"}, at=100.2) == ["a.1"]
    assert look([me], subscribed={"b.1"}, at=100.31) == ["a.1", "b.1"]  # still no connection a fifth later
    lease.absent.clear()
    assert look([me, {"name": "b.1", "age": "0"}], subscribed={"b.1"}, at=101.0) == ["a.1"]  # b.1 came back
    # Our own connections are young (Redis restarted, or we reconnected): everyone may be reconnecting,
    # so even a holder with nothing connected gets the fifth of the ttl.
    lease.absent.clear()
    young = {"name": "w.0001", "age": "0"}
    assert look([young], subscribed=set(), at=200.0) == []
    assert look([young], subscribed=set(), at=200.31) == ["a.1", "b.1"]


def test_quotas_and_codes_are_shared_between_nodes(redis_server):
    prefix = f"t{uuid.uuid4().hex[:8]}:"
    one, two = (Directory(redis.Redis.from_url(redis_server.url), prefix) for _ in range(2))
    assert one.reserve("K7QX", "a") and not two.reserve("K7QX", "b")
    one.record_creation("9.9.9.9", "K7QX")
    assert two.created("9.9.9.9") == 1 and two.created("1.1.1.1") == 0
    one.hold({"9.9.9.9": {"K7QX:1", "K7QX:2"}}, {})
    assert two.held("9.9.9.9") == 2
    two.hold({}, {"9.9.9.9": {"K7QX:1"}})
    assert one.held("9.9.9.9") == 1


HOLDER = """
import sys, time, redis
from intrigue.cluster.leases import Lease
lease = Lease(redis.Redis.from_url(sys.argv[1]), sys.argv[2], ttl=float(sys.argv[3]), prefix=sys.argv[4])
print(lease.acquire(), flush=True)
lease.keep(alive=lambda: True)
time.sleep(120)
"""


def test_a_killed_holder_loses_its_lease_at_once_a_paused_one_only_after_the_ttl(redis_server):
    """kill -9 closes the holder's connections to Redis: its lease ends within a fraction of the ttl.
    A paused holder keeps its connections open: its lease lives until the ttl runs out."""
    import os
    import signal
    import subprocess
    import sys

    prefix = f"t{uuid.uuid4().hex[:8]}:"
    ttl = 3.0
    holders = {name: subprocess.Popen([sys.executable, "-c", HOLDER, redis_server.url, name, str(ttl), prefix],
                                      stdout=subprocess.PIPE, text=True) for name in ("killed", "paused")}
    try:
        names = {name: proc.stdout.readline().strip() for name, proc in holders.items()}
        watcher = Lease(redis.Redis.from_url(redis_server.url), "watcher", ttl=ttl, prefix=prefix)
        watcher.acquire()
        watcher.keep(alive=lambda: True)
        assert sorted(watcher.live()) == sorted([*names.values(), watcher.name])
        holders["paused"].send_signal(signal.SIGSTOP)
        os.kill(holders["killed"].pid, signal.SIGKILL)
        holders["killed"].wait(5)
        stopped = time.monotonic()
        while names["killed"] in watcher.live():
            assert time.monotonic() - stopped < ttl / 2, "the killed holder's lease lived on"
            time.sleep(0.05)
        assert names["paused"] in watcher.live(), "a paused holder's lease ended before its ttl"
        while names["paused"] in watcher.live():
            time.sleep(0.1)
        assert time.monotonic() - stopped >= ttl * 0.7, "the paused holder's lease ended before its ttl ran out"
        assert watcher.live() == [watcher.name]
        watcher.release()
    finally:
        for proc in holders.values():
            proc.send_signal(signal.SIGCONT)
            proc.kill()
            proc.wait(5)
