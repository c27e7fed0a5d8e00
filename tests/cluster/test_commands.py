"""The documented cluster commands: ``intrigue cluster up/down`` (make cluster) and ``serve --store postgresql://``."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import httpx

from intrigue.cluster.services import free_port
from tests.server.support import Client, ServerProcess


def intrigue(*args, timeout=180):
    return subprocess.run([sys.executable, "-m", "intrigue.cli", *args], capture_output=True, text=True,
                          timeout=timeout)


def test_cluster_up_brings_three_nodes_behind_one_address_and_down_stops_them(services_installed, service_folder):
    folder = service_folder / "up"
    port = free_port()
    up = intrigue("cluster", "up", "--dir", str(folder), "--port", str(port), "--no-install")
    try:
        assert up.returncode == 0, up.stderr
        address = re.search(r"open (http://\S+)/", up.stdout).group(1)
        assert address == f"http://127.0.0.1:{port}"
        state = json.loads((folder / "cluster.json").read_text())
        assert sorted(state["nodes"]) == ["a", "b", "c"]
        status = intrigue("cluster", "status", "--dir", str(folder))
        assert status.stdout.count(": up") == 4, status.stdout
        with httpx.Client(base_url=address, trust_env=False, timeout=10) as http:
            served_by = {http.get("/api/health").json()["node"].split(".")[0] for _ in range(12)}
            room = http.post("/api/rooms", json={"game": "coup", "name": "Aria", "seats": 2}).json()
            guest = http.post(f"/api/rooms/{room['room']}/join", json={"name": "Blake"}).json()
            assert [r["room"] for r in http.get("/api/rooms").json()] == [room["room"]]  # whichever node answers
        assert len(served_by) >= 2, "the proxy spreads requests over the nodes"
        ws = address.replace("http", "ws") + "/ws"
        host, other = Client(ws, room["room"], room["token"]), Client(ws, room["room"], guest["token"])
        host.send({"type": "start", "token": room["token"]})
        for client in (host, other):
            assert client.settle(lambda v: v["version"] == 0)["players"] == ["Aria", "Blake"]
        host.close()
        other.close()
    finally:
        down = intrigue("cluster", "down", "--dir", str(folder))
    assert down.returncode == 0 and "stopped the cluster" in down.stdout
    assert not (folder / "cluster.json").exists()
    for node in state["nodes"].values():
        assert subprocess.run(["kill", "-0", str(node["pid"])], capture_output=True).returncode != 0
    again = intrigue("cluster", "down", "--dir", str(folder))
    assert "no cluster is up" in again.stdout


def test_one_server_on_postgresql_recovers_its_matches_after_kill_9(pg_url, tmp_path):
    server = ServerProcess(tmp_path / "server.db", args=["--store", pg_url]).start()
    try:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            room = http.post("/api/rooms", json={"game": "coup", "name": "Aria", "seats": 2}).json()
            guest = http.post(f"/api/rooms/{room['room']}/join", json={"name": "Blake"}).json()
            http.post(f"/api/rooms/{room['room']}/start", json={"token": room["token"]})
        players = {s["seat"]: Client(server.ws_url, room["room"], s["token"]) for s in (room, guest)}
        for client in players.values():
            client.settle(lambda v: v["version"] == 0)
        mover = next(c for c in players.values() if c.options)
        mover.choose(mover.options[0])
        mover.settle(lambda v: v["version"] == 1)
        server.kill()
        server.start()
        back = Client(server.ws_url, room["room"], room["token"])
        assert back.settle(lambda v: v["version"] == 1)["version"] == 1
    finally:
        server.stop()
    assert intrigue("serve", "--node", "a", "--store", str(tmp_path / "x.db"), "--redis", "redis://x").returncode == 2
