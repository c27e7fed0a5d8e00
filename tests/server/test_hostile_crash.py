"""kill -9 of a real server while a hostile client is at it: after a restart on the same SQLite file the
match goes on from the same version with the same views, the chat is still there, and a command
accepted before the kill is still refused when replayed."""

from __future__ import annotations

import json

import httpx

from ..security.table import hang_up
from .support import Client, ServerProcess, create_room, join


def connect(server: ServerProcess, code: str, tokens: list[str]) -> list[Client]:
    players = [Client(server.ws_url, code, token) for token in tokens]
    for player in players:
        player.until(lambda m: m["type"] == "welcome", timeout=10)
    return players


def test_a_kill_during_an_attack_loses_nothing_and_refuses_old_commands_after(tmp_path):
    server = ServerProcess(tmp_path / "attack.db").start()
    try:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            created = create_room(http, private=True, options={"turn_timer": None, "window_timer": None})
            code = created["room"]
            tokens = [created["token"], join(http, code, "Blake")["token"]]
            aria, blake = connect(server, code, tokens)
            aria.send({"type": "start", "token": tokens[0]})
            accepted = None
            for version in range(4):  # Income, turn by turn
                for player in (aria, blake):
                    player.settle(lambda v, n=version: v["version"] == n and v["decision"] is not None)
                mover = aria if aria.options else blake
                accepted = {"type": "choose", "token": mover.token, "version": version, "option": "Income"}
                mover.send(accepted)
            for player in (aria, blake):
                player.settle(lambda v: v["version"] == 4)
            aria.send({"type": "chat", "token": tokens[0], "text": "before the kill"})
            blake.until(lambda m: m["type"] == "chat")
            before = {"views": [aria.view, blake.view], "room": http.get(f"/api/rooms/{code}").json()}
            attacker = Client(server.ws_url, code, tokens[1])
            attacker.until(lambda m: m["type"] == "welcome")
            for frame in ["{", json.dumps({**accepted, "version": 0}), "[" * 60_000, json.dumps({"type": "teleport"}),
                          json.dumps({"type": "choose", "token": tokens[1], "version": 4, "option": "Coup Aria"})]:
                attacker.send(frame)  # the kill lands while these are on the wire or being refused
            giant = Client(server.ws_url)  # `intrigue serve` reads no frame over 1 MiB
            assert giant.send_oversized("x" * (1024 * 1024 + 1)) in (1009, 1006)
        server.kill()
        server = ServerProcess(tmp_path / "attack.db", server.port).start()
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            aria, blake = connect(server, code, tokens)
            for player in (aria, blake):
                player.settle(lambda v: True, timeout=10)
            assert [aria.view, blake.view] == before["views"], "the match changed across the kill"
            chat = [m["text"] for m in aria.messages if m["type"] == "chat"]
            assert chat == ["before the kill"]
            room = http.get(f"/api/rooms/{code}").json()
            assert {**room, "seats": None} == {**before["room"], "seats": None}
            assert [(s["name"], s["left"]) for s in room["seats"]] == [(s["name"], s["left"])
                                                                      for s in before["room"]["seats"]]
            replayer = aria if accepted["token"] == tokens[0] else blake
            replayer.send(accepted)  # a command accepted before the kill, sent again
            assert replayer.error()["code"] == "stale_version"
            mover = aria if aria.options else blake
            mover.choose("Income")
            for player in (aria, blake):
                player.settle(lambda v: v["version"] == 5)
                hang_up(player)
    finally:
        server.stop()
