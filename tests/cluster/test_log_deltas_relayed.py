"""Log deltas through a gateway: a connection to one node for a room another node owns merges its
deltas into exactly the log a plain connection to the owner reads, and after the owner is killed
(its gateway moves it to the room's new owner) its first view is whole again."""

from __future__ import annotations

import random
import time

from tests.server.support import Client

from .test_failover import post, wait_for


def test_a_relayed_delta_connection_reads_the_owners_log_through_a_failover(make_cluster):
    cluster = make_cluster()
    a, b = cluster.start_node("a"), cluster.start_node("b")
    created = post(a.url, "/api/rooms", {"game": "coup", "name": "Aria", "seats": 2, "private": True,
                                         "options": {"turn_timer": None, "window_timer": None}})
    room = created["room"]
    blake_token = post(a.url, f"/api/rooms/{room}/join", {"name": "Blake"})["token"]
    aria = Client(a.ws_url, room, created["token"])
    plain = Client(a.ws_url, room, blake_token)            # Blake on the room's own node, every log whole
    relayed = Client(b.ws_url, room, blake_token, log_deltas=True)  # Blake through node b, deltas
    relayed.until(lambda m: m["type"] == "welcome", timeout=15)
    aria.send({"type": "start", "token": created["token"]})
    rng = random.Random(5)

    def play(players: list[Client], moves: int) -> int:
        made = 0
        while made < moves and not players[0].view["over"]:
            for player in players:
                player.drain(0.02)
            mover = next((p for p in players if p.options), None)
            if mover is None:
                continue
            version = mover.view["version"]
            # no challenges: a lost challenge costs an influence, and the match must outlast the failover
            mover.choose(rng.choice([o for o in mover.options if o != "Challenge"] or mover.options))
            for player in players:
                player.settle(lambda v: v["version"] > version, timeout=15)
            plain.settle(lambda v: v["version"] > version, timeout=15)
            relayed.drain(0.05)
            plain.drain(0.05)
            assert relayed.view == plain.view
            made += 1
        return made

    for client in (aria, plain, relayed):
        client.settle(lambda v: v is not None, timeout=15)
    assert play([aria, relayed], 8) >= 4
    deltas = [m for m in relayed.messages if m["type"] == "view" and m["log_after"] is not None]
    assert len(deltas) >= 4

    cluster.kill("a")
    before = len(relayed.messages)
    relayed.until(lambda m: m["type"] == "welcome", timeout=20)  # its gateway moved it: a new session
    first = relayed.until(lambda m: m["type"] == "view", timeout=20)
    assert first["log_after"] is None and relayed.messages.index(first) > before
    aria = Client(b.ws_url, room, created["token"])
    plain = Client(b.ws_url, room, blake_token)
    for client in (aria, plain):
        client.settle(lambda v: v["version"] == relayed.view["version"], timeout=20)
    wait_for(lambda: relayed.view == plain.view or relayed.drain() or plain.drain(), 10, "the same view")
    assert play([aria, relayed], 6) >= 1
    assert len([m for m in relayed.messages[before:] if m["type"] == "view" and m["log_after"] is not None]) >= 1
    time.sleep(0.1)
    for client in (aria, plain, relayed):
        client.close()
