"""Counting the answers of a secret decision, written from docs/protocol.md: "In a *secret* decision the
others are not told how many have answered". Every answer is a version; the probes look for the version
anywhere a seat or a watcher can read it while a Werewolf night is open."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ..security.table import Table, hang_up
from .support import FAST, Client, ServerThread


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
