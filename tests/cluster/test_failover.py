"""A node killed mid-game, a node paused past its lease: no acknowledged move lost, none applied twice.

Real nodes (``intrigue serve --node``), real PostgreSQL, Redis and HAProxy, real
WebSocket players connected through the proxy.
"""

from __future__ import annotations

import asyncio
import signal
import time

import httpx

from intrigue.server.matches import rebuild
from intrigue.store import open_store

from .players import Table, player

MATCHES = 8


def post(base: str, path: str, body: dict) -> dict:
    answer = httpx.post(base + path, json=body, trust_env=False, timeout=10)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def wait_for(condition, timeout: float, what: str, log=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"{what} did not happen within {timeout} s" +
                         (f"; its log ends:\n{log.read_text()[-3000:]}" if log else ""))


def test_killing_a_node_mid_game_loses_no_acknowledged_move(make_cluster):
    cluster = make_cluster()
    for name in "abc":
        cluster.start_node(name)
    proxy = cluster.start_proxy()
    owner = cluster.nodes["a"]
    # every room is created on node a, so a owns them all; the players come in through the proxy
    tables = []
    for index in range(MATCHES):
        created = post(owner.url, "/api/rooms", {"game": "coup", "name": "Aria", "seats": 2, "private": True,
                                                 "options": {"turn_timer": None, "window_timer": None}})
        joined = post(proxy.url, f"/api/rooms/{created['room']}/join", {"name": "Blake"})
        tables.append((created["room"], created["token"], joined["token"]))
    store = open_store(cluster.store)
    assert {store.holder(room)[0].split(".")[0] for room, _, _ in tables} == {"a"}
    table = Table()

    async def play() -> None:
        url = proxy.url.replace("http", "ws") + "/ws"
        tasks = [asyncio.create_task(player(url, room, token, table, seed=hash((room, seat)), pace=0.03,
                                            host=seat == 0))
                 for room, host, guest in tables for seat, token in enumerate((host, guest))]
        # once every match is under way, kill the node that owns them all
        while len([r for r in table.versions.values() if r >= 3]) < MATCHES:
            await asyncio.sleep(0.05)
        cluster.kill("a")
        killed_at = table.versions.copy()
        await asyncio.gather(*tasks)
        assert any(table.versions[room] > killed_at[room] for room in killed_at), "no move after the kill"

    asyncio.run(play())
    assert set(table.finished) == {room for room, _, _ in tables}, "every match finished"
    assert table.reconnects >= 1
    for room, _, _ in tables:
        holder = store.holder(room)[0]
        assert holder.split(".")[0] in ("b", "c"), f"room {room} is held by {holder}, not a survivor"
        record = store.load_room(room)
        match = store.load_match(record.match)
        log = store.choices(match.id)
        assert [c.version for c in log] == list(range(len(log)))  # each version once, no gap
        replayed = rebuild(match, log)
        final = table.finished[room]
        assert replayed.over and final["version"] == len(log) == match.moves
        assert match.status == "finished" and match.winners == list(replayed.winners)
        for (match_id, version), (seat, option) in table.acked.items():
            if match_id == match.id:  # every acknowledged move is in the log, where it was played
                assert (log[version].seat, log[version].option) == (seat, option)
    assert len(table.acked) > MATCHES * 3


def test_a_node_paused_past_its_lease_cannot_write_when_it_wakes(make_cluster):
    cluster = make_cluster()
    # a's bot waits 3 s before moving, b's 60 s: the only bot move due when a wakes is a's own
    a = cluster.start_node("a", extra=["--bot-delay", "3.0"])
    b = cluster.start_node("b", extra=["--bot-delay", "60"])
    created = post(a.url, "/api/rooms", {"game": "coup", "name": "Aria", "seats": 2, "private": True,
                                         "bots": [{"kind": "random"}],
                                         "options": {"turn_timer": None, "window_timer": None}})
    room = created["room"]
    store = open_store(cluster.store)
    first_holder, first_token = store.holder(room)
    assert first_holder.startswith("a.")
    from tests.server.support import Client

    human = Client(a.ws_url, room, created["token"])
    human.send({"type": "start", "token": created["token"]})
    view = human.settle(lambda v: v["waiting"] == ["Aria"])
    bot = view["players"][1]
    while view["waiting"] != [bot]:  # play until the bot's turn comes: a schedules its move 3 s later…
        options = human.options
        assert options, f"Aria is waited for but offered nothing: {view}"
        human.choose(next((o for o in ("Income", "Pass") if o in options), options[0]))
        view = human.settle(lambda v, seen=view["version"]: v["version"] > seen and v["waiting"])
    version, bot_due = view["version"], time.monotonic() + 3.0
    a.signal(signal.SIGSTOP)  # …and is paused before it makes it
    try:
        holder = wait_for(lambda: (h := store.holder(room)) and h[0].startswith("b.") and h, 15,
                          "node b taking the room over")
        assert holder[1] > first_token
        wait_for(lambda: httpx.get(b.url + f"/api/rooms/{room}", trust_env=False).status_code == 200, 5,
                 "node b serving the room")
        time.sleep(max(0.0, bot_due + 0.5 - time.monotonic()))  # a's bot move is due when it wakes
    finally:
        a.signal(signal.SIGCONT)
    # a wakes with its bot move due at once: the store refuses it (a's token is stale), a lets the room go
    wait_for(lambda: "is no longer the room's" in a.log.read_text(), 10, "node a's write being refused", a.log)
    assert human.closed(10), f"node a closed the connection of the room it no longer owns: {a.log.read_text()[-3000:]}"
    log = store.choices(store.load_room(room).match)
    assert len(log) == version, "the stale bot move was not stored"
    assert store.holder(room) == holder
    # the player reconnects (to any node) and finds the match where the log says, served by b
    again = Client(b.ws_url, room, created["token"])
    assert again.settle(lambda v: v["version"] == version)["waiting"] == [bot]
    wait_for(lambda: httpx.get(a.url + "/api/health", trust_env=False).status_code == 200, 10,
             "node a serving again under a new lease", a.log)
    assert httpx.get(a.url + "/api/health", trust_env=False).json()["node"] != first_holder
    again.close()


def test_a_timer_goes_on_from_when_its_decision_opened_on_the_node_that_takes_over(make_cluster):
    cluster = make_cluster()
    a, b = cluster.start_node("a"), cluster.start_node("b")
    created = post(a.url, "/api/rooms", {"game": "coup", "name": "Aria", "seats": 2, "private": True,
                                         "options": {"turn_timer": 60, "window_timer": 60}})
    post(a.url, f"/api/rooms/{created['room']}/join", {"name": "Blake"})
    post(a.url, f"/api/rooms/{created['room']}/start", {"token": created["token"]})
    started = time.monotonic()
    time.sleep(3)
    cluster.kill("a")
    from tests.server.support import Client

    client = Client(b.ws_url, created["room"], created["token"])  # waits in hello until b owns the room
    view = client.settle(lambda v: v["version"] == 0, timeout=15)
    left = client.timer["seconds_left"]
    assert view["waiting"] and client.timer["seconds"] == 60
    assert 60 - (time.monotonic() - started) - 1 <= left <= 57, f"the timer restarted ({left} s left)"
    client.close()


def test_listings_codes_and_quotas_are_shared_by_every_node(make_cluster):
    cluster = make_cluster()
    quotas = ["--room-quota", "3", "--seats-per-address", "2"]
    a, b = cluster.start_node("a", extra=quotas), cluster.start_node("b", extra=quotas)
    rooms = [httpx.post(node.url + "/api/rooms", json={"game": "coup", "name": "Aria", "seats": 4},
                        trust_env=False).json()["room"] for node in (a, b, a)]
    assert len(set(rooms)) == 3
    for node in (a, b):  # each node lists every node's rooms
        assert sorted(r["room"] for r in httpx.get(node.url + "/api/rooms", trust_env=False).json()) == sorted(rooms)
    refused = httpx.post(b.url + "/api/rooms", json={"game": "coup", "name": "Aria", "seats": 4}, trust_env=False)
    assert refused.status_code == 429 and "created 3 rooms in the last hour" in refused.json()["error"]["message"]
    # joining: the quota counts seats held through any node, in rooms owned by any node
    assert httpx.post(a.url + f"/api/rooms/{rooms[1]}/join", json={"name": "B"}, trust_env=False).status_code == 200
    assert httpx.post(b.url + f"/api/rooms/{rooms[0]}/join", json={"name": "C"}, trust_env=False).status_code == 200
    third = httpx.post(a.url + f"/api/rooms/{rooms[2]}/join", json={"name": "D"}, trust_env=False)
    assert third.status_code == 429 and "you hold 2 seats" in third.json()["error"]["message"]
    seats = httpx.get(b.url + f"/api/rooms/{rooms[0]}", trust_env=False).json()["seats"]
    assert [s["name"] for s in seats[:2]] == ["Aria", "C"]  # b answered for a room a owns
