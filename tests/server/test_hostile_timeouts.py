"""Who ran out of time, across a kill -9, written from docs/protocol.md: a view's ``timeouts`` lists the
match's recent choices the timer made (the browser marks their log lines "(time ran out)"), each told to
everyone only when everyone could see who was deciding, else only to the seat it chose for. The probe: a
restart forgot them all (they lived only in memory), so the marks vanished from every browser."""

from __future__ import annotations

import time

import httpx
from websockets.exceptions import ConnectionClosed

from ..security.table import NAMES, hang_up
from .support import Client, ServerProcess, create_room, join


def last_view(client: Client) -> dict:
    """The last ``view`` message the client got, everything sent before the server went away read."""
    try:
        client.drain(0.2)
    except ConnectionClosed:
        pass
    return [m for m in client.messages if m["type"] == "view"][-1]


def test_the_marks_of_who_ran_out_of_time_survive_a_restart_and_keep_their_secrets(tmp_path):
    server = ServerProcess(tmp_path / "timeouts.db").start()
    try:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            created = create_room(http, game="werewolf", name=NAMES[0], seats=6, private=True,
                                  options={"turn_timer": 2, "window_timer": 2})
            tokens = [created["token"]] + [join(http, created["room"], NAMES[n])["token"] for n in range(1, 6)]
        code = created["room"]
        players = [Client(server.ws_url, code, token) for token in tokens]
        watcher = Client(server.ws_url, code)
        for client in (*players, watcher):
            client.until(lambda m: m["type"] == "welcome")
        players[0].send({"type": "start", "token": tokens[0]})
        # Nobody answers the night: it times out (a secret decision). The day is ended by everyone's
        # "Ready to vote"; nobody votes: the lynch vote times out (a public decision).
        deadline = time.monotonic() + 30
        while not any(message["type"] == "view" and message["timeouts"] for message in watcher.messages):
            assert time.monotonic() < deadline, "the lynch vote never timed out"
            for client in players:
                client.drain(0.02)
                if "Ready to vote" in client.options:
                    client.choose("Ready to vote")
            watcher.drain(0.02)
        server.kill()  # at once: the next decision's timer has two seconds
        before = {client.token: last_view(client) for client in players}
        seen = last_view(watcher)
        assert all(m["view"]["version"] == seen["view"]["version"] for m in before.values())
        for client in players:  # each seat was told of its own night timeout, and of no one else's
            night = [t for t in before[client.token]["timeouts"] if t not in seen["timeouts"]]
            assert night and {t["player"] for t in night} == {client.view["you"]}, night
            assert all(t in before[client.token]["timeouts"] for t in seen["timeouts"])

        server = ServerProcess(tmp_path / "timeouts.db", server.port).start()
        again = [Client(server.ws_url, code, token) for token in tokens]
        watcher = Client(server.ws_url, code)
        for client in (*again, watcher):
            client.settle(lambda v: True)
        for client in (*again, watcher):
            was = before[client.token] if client.token else seen
            view = [m for m in client.messages if m["type"] == "view"][-1]
            assert view["view"]["version"] == was["view"]["version"], "a timer fired before the kill"
            # Before the fix: [] for every seat and the watcher: the browser no longer marked those lines.
            assert view["timeouts"] == was["timeouts"]
    finally:
        server.stop()


def test_a_secret_decision_timeout_counts_no_answer_but_those_the_seat_knows_of(server, http):
    """docs/protocol.md: a secret decision's timeouts are told "only to the seat it chose for, so that a
    secret decision's actors, and whether any of them answered in time, are never told". Each carried the
    match's own version when the timer chose: the first seat to time out at a night opened at version 0
    was told version 2, that is, that two others had answered in time."""
    created = create_room(http, game="werewolf", name=NAMES[0], seats=6, private=True,
                          options={"turn_timer": 1, "window_timer": 1})
    tokens = [created["token"]] + [join(http, created["room"], NAMES[n])["token"] for n in range(1, 6)]
    players = [Client(server.ws_url, created["room"], token) for token in tokens]
    for client in players:
        client.until(lambda m: m["type"] == "welcome")
    players[0].send({"type": "start", "token": tokens[0]})
    for client in players:
        client.settle(lambda v: v["phase"]["name"] == "Night" and v["decision"] is not None)
    opened = players[0].view["version"]
    villagers = [client for client in players if client.options == ["Sleep"]]
    assert villagers  # (six players: two werewolves, a seer, a doctor, two villagers)
    for client in villagers:  # they answer in time; everyone else runs out of it
        client.choose("Sleep")
    for client in players:
        client.settle(lambda v: v["phase"]["name"] != "Night", timeout=10)
    for client in players:
        client.drain(0.1)
    told = {client.view["you"]: [m for m in client.messages if m["type"] == "view"][-1]["timeouts"]
            for client in players}
    for client in players:
        mine = told[client.view["you"]]
        if client in villagers:
            assert mine == [], mine
            continue
        assert [t["player"] for t in mine] == [client.view["you"]], mine
        decision = [v for _, v in client.views if v["phase"]["name"] == "Night" and v["decision"]][0]["decision"]
        werewolves = 2 if "answers" in decision else 1  # a werewolf knows its partner's answers
        # Before the fix: the villagers' two answers were counted in (opened + 2 for the first to time out).
        assert opened <= mine[0]["version"] <= opened + werewolves - 1, (mine, opened, decision)
    for client in players:
        hang_up(client)
