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
