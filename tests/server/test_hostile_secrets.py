"""Counting the answers of a secret decision, written from docs/protocol.md: "In a *secret* decision the
others are not told how many have answered". Every answer is a version; the probes look for the version
anywhere a seat or a watcher can read it while a Werewolf night is open."""

from __future__ import annotations

import time
from dataclasses import replace

import httpx
import pytest

from ..security.table import Table, hang_up
from .support import FAST, Client, ServerProcess, ServerThread, create_room, join


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    settings = replace(FAST, disconnect_grace=3600.0, sockets_per_address=1000)
    with ServerThread(tmp_path_factory.mktemp("hostile-secrets") / "intrigue.db", settings) as running:
        yield running


@pytest.fixture(scope="module")
def http(server):
    with server.http() as client:
        yield client


def test_a_reconnection_a_new_watcher_or_an_answer_does_not_count_the_answers_of_a_night(server, http):
    table = Table(server, http, "werewolf", humans=6)
    while not (table.match.decision and table.match.decision.secret):
        mover = table.pending()
        table.move(mover, mover.options[0])
    decision = table.match.decision
    opened = decision.opened_at
    # Two seats that are not partners (werewolves see each other's votes): the first answers, the second
    # reconnects, then answers too.
    first = table.clients[decision.cover[0]]
    second = next(table.clients[s] for s in decision.cover[1:]
                  if not {s, decision.cover[0]} <= decision.partners)
    table.move(first, first.options[0])
    assert table.match.decision.secret and table.match.version == opened + 1  # the night goes on
    # Before the fix: a reload, a second tab or a new watcher was shown opened + 1 (someone had answered).
    again = Client(server.ws_url, table.code, second.token)
    watcher = Client(server.ws_url, table.code)
    for client in (again, watcher):
        client.settle(lambda v: True)
    assert again.view["version"] == watcher.view["version"] == opened
    assert again.view == second.view  # exactly what the seat held
    # Before the fix: the second answerer's version jumped by two (it learnt one answer came before its own).
    second.choose(second.options[0])
    second.settle(lambda v: not v["decision"] or not v["decision"]["options"])
    if table.match.decision is not None and table.match.decision.secret:
        assert second.view["version"] == opened + 1
        # The versions shown are still current: everyone else answers with the one they hold.
        for client in table.clients:
            if client.options:
                client.choose(client.options[0])
        for client in (*table.clients, watcher):
            client.settle(lambda v: v["version"] > opened + 2 or v["over"])
    assert table.match.version >= opened + 2 and not (table.match.decision and table.match.decision.opened_at == opened)
    hang_up(again)
    hang_up(watcher)
    table.close()


def test_a_kill_in_the_middle_of_a_night_brings_back_every_view_and_its_clock_and_counts_nothing(tmp_path):
    """kill -9 while a Werewolf night is open and one seat has answered: after the restart every seat's
    view is exactly what it held (the answerer's answer kept, nobody else told of it, a new watcher
    neither), the night's clock runs on from when it opened, and the night ends when the others answer."""
    server = ServerProcess(tmp_path / "night.db").start()
    try:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            created = create_room(http, game="werewolf", name="Aria", seats=6, private=True,
                                  options={"turn_timer": 120, "window_timer": 60})
            tokens = [created["token"]] + [join(http, created["room"], name)["token"]
                                           for name in ("Blake", "Casey", "Drew", "Emery", "Finn")]
        clients = [Client(server.ws_url, created["room"], token) for token in tokens]
        for client in clients:
            client.until(lambda m: m["type"] == "welcome")
        clients[0].send({"type": "start", "token": tokens[0]})
        for client in clients:
            client.settle(lambda v: v["decision"] is not None)
        night = clients[0].view["phase"]
        answerer = next(c for c in clients if c.options)
        answerer.choose(answerer.options[0])
        answerer.settle(lambda v: not v["decision"]["options"])
        for client in clients:
            client.drain(0.1)
        held = [client.view for client in clients]
        assert sorted(v["version"] for v in held) in ([0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 1, 1])  # a werewolf's partner
        waited = 2.0
        time.sleep(waited)
        server.kill()
        server = ServerProcess(tmp_path / "night.db", server.port).start()
        again = [Client(server.ws_url, created["room"], token) for token in tokens]
        watcher = Client(server.ws_url, created["room"])
        for client in (*again, watcher):
            client.settle(lambda v: True)
        assert [client.view for client in again] == held
        assert watcher.view["version"] == 0
        for client in again:
            assert client.timer["kind"] == "window" and 10 <= client.timer["seconds_left"] <= 60 - waited
        answering = [client for client in again if client.options]
        for client in answering:
            client.choose(client.options[0])
        for client in (*again, watcher):
            client.settle(lambda v: v["phase"] != night or v["over"], timeout=10)
        assert again[0].view["version"] == 1 + len(answering)  # the answer before the kill counted once
        for client in (*again, watcher):
            hang_up(client)
    finally:
        server.stop()


def test_a_night_nobody_answered_tells_each_seat_only_of_its_own_timeout(server, http):
    """docs/protocol.md: a timeout is sent to everyone only when everyone could see who was deciding. When
    nobody had answered a Werewolf night, the seats still waiting were every seat the night covers, and the
    list of who ran out of time went to everyone: it told the table that nobody had answered in time."""
    table = Table(server, http, "werewolf", humans=6, timers={"turn_timer": 1, "window_timer": 1})
    watcher = Client(server.ws_url, table.code)
    deadline = time.monotonic() + 20
    while not (table.match.decision and table.match.decision.secret) and time.monotonic() < deadline:
        time.sleep(0.02)
    night = table.match.decision
    assert night is not None and night.secret, "no night reached"
    opened = night.opened_at
    while table.match.decision is night and time.monotonic() < deadline:
        time.sleep(0.02)
    assert table.match.decision is not night, "the night's timer never fired"
    time.sleep(0.3)
    for client in (*table.clients, watcher):
        client.drain()
        me = client.view and client.view.get("you")
        told = {entry["player"] for message in client.messages if message["type"] == "view"
                for entry in message["timeouts"] if entry["version"] >= opened}
        assert told <= ({me} if me else set()), (me, told)
    hang_up(watcher)
    table.close()


@pytest.mark.parametrize("answered", [True, False], ids=["answered-then-left", "left-without-answering"])
def test_a_night_grace_runs_once_for_a_seat_and_tells_nothing(tmp_path, answered):
    """docs/protocol.md: with timers off a disconnected player "is decided for after a 60-second grace
    period". At a night (a secret decision) any disconnected seat that could be acting starts it, answered or
    not. For one that had answered it pressed nothing, and a new grace started at once: a countdown shown to
    every connection, again and again, for as long as the others took to answer."""
    grace = 1.0
    with ServerThread(tmp_path / "grace.db", replace(FAST, disconnect_grace=grace)) as server, \
            server.http() as http:
        table = Table(server, http, "werewolf", humans=6)
        watcher = Client(server.ws_url, table.code)
        watcher.settle(lambda v: v["phase"]["name"] == "Night")
        leaver = next(c for c in table.clients if c.options == ["Sleep"])  # a villager
        if answered:
            leaver.choose("Sleep")
            leaver.settle(lambda v: "Sleep" not in (v["decision"] or {}).get("options", []))
        hang_up(leaver)
        began = len(watcher.messages)
        time.sleep(4 * grace)  # nobody else answers
        watcher.drain(0.2)
        timers = [m["timer"] and m["timer"]["kind"] for m in watcher.messages[began:] if m["type"] == "view"]
        # One grace, then none (the villager's Sleep was pressed, or had been given): before the fix,
        # ["grace", "grace", "grace", "grace"] when the villager had answered.
        assert timers == ["grace", None], timers
        assert watcher.view["phase"]["name"] == "Night"  # the others have not answered: the night goes on
        for client in table.clients:
            if client is not leaver:
                hang_up(client)
        hang_up(watcher)
