"""A cluster on this machine: nodes (``intrigue serve --node``) and the front proxy, as processes.

Used by ``intrigue cluster up`` (``make cluster``), the cluster tests and
``intrigue bench cluster``. The nodes are started in their own process group
(so ``make cluster`` can return while they run) with their logs in the folder.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from .services import HOST, Proxy, ServiceError, free_port


@dataclass
class NodeProcess:
    name: str
    port: int
    pid: int
    log: Path
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://{HOST}:{self.port}/ws"

    def signal(self, number: int) -> None:
        os.kill(self.pid, number)

    def alive(self) -> bool:
        if self.proc is not None:
            return self.proc.poll() is None
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        return True


def healthy(url: str, timeout: float = 1.0) -> bool:
    try:
        with urllib.request.urlopen(url + "/api/health", timeout=timeout) as answer:
            return answer.status == 200
    except (OSError, urllib.error.URLError):
        return False


@dataclass
class LocalCluster:
    folder: Path
    store: str
    redis: str
    lease: float = 1.5
    extra: list[str] = field(default_factory=list)  # more `intrigue serve` options for every node
    nodes: dict[str, NodeProcess] = field(default_factory=dict)
    proxy: Proxy | None = None

    def start_node(self, name: str, port: int | None = None, timeout: float = 60,
                   extra: list[str] | None = None) -> NodeProcess:
        port = port or free_port()
        self.folder.mkdir(parents=True, exist_ok=True)
        log = self.folder / f"node-{name}.log"
        command = [sys.executable, "-m", "intrigue.cli", "serve", "--host", HOST, "--port", str(port),
                   "--node", name, "--store", self.store, "--redis", self.redis, "--lease", str(self.lease),
                   "--proxy-from", HOST,  # the front proxy runs here: its X-Forwarded-For names the client
                   *self.extra, *(extra or [])]
        with open(log, "ab") as out:
            proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    start_new_session=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        node = NodeProcess(name, port, proc.pid, log, proc)
        self.nodes[name] = node
        deadline = time.monotonic() + timeout
        while not healthy(node.url):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise ServiceError(f"node {name} did not start: {log.read_text(errors='replace')[-1500:]}")
            time.sleep(0.1)
        return node

    def start_proxy(self, names: list[str] | None = None, port: int | None = None) -> Proxy:
        if self.proxy is not None:
            self.proxy.stop()
        chosen = [self.nodes[n] for n in (names or list(self.nodes))]
        self.proxy = Proxy(self.folder, [(n.name, n.port) for n in chosen], port or 0).start()
        deadline = time.monotonic() + 20
        while not healthy(self.proxy.url):
            if time.monotonic() > deadline:
                raise ServiceError("the proxy does not reach any node")
            time.sleep(0.1)
        return self.proxy

    def kill(self, name: str) -> None:
        node = self.nodes[name]
        node.signal(signal.SIGKILL)
        if node.proc is not None:
            node.proc.wait(10)

    def stop_node(self, name: str) -> None:
        node = self.nodes.pop(name)
        if node.alive():
            node.signal(signal.SIGCONT)
            node.signal(signal.SIGTERM)
            deadline = time.monotonic() + 15
            while node.alive() and time.monotonic() < deadline:
                if node.proc is not None and node.proc.poll() is not None:
                    break
                time.sleep(0.05)
            if node.alive():
                node.signal(signal.SIGKILL)
        if node.proc is not None:
            node.proc.wait(10)

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.stop()
            self.proxy = None
        for name in list(self.nodes):
            self.stop_node(name)

    # -- what `intrigue cluster up` leaves behind for `down` ----------------------------------
    def save(self, file: Path, **more: object) -> None:
        state = {"folder": str(self.folder), "store": self.store, "redis": self.redis,
                 "nodes": {n.name: {"port": n.port, "pid": n.pid, "log": str(n.log)} for n in self.nodes.values()},
                 "proxy": {"port": self.proxy.port} if self.proxy else None, **more}
        file.write_text(json.dumps(state, indent=2))

    @classmethod
    def load(cls, file: Path) -> tuple["LocalCluster", dict]:
        state = json.loads(file.read_text())
        cluster = cls(Path(state["folder"]), state["store"], state["redis"])
        cluster.nodes = {name: NodeProcess(name, n["port"], n["pid"], Path(n["log"]))
                         for name, n in state["nodes"].items()}
        if state.get("proxy"):
            cluster.proxy = Proxy(Path(state["folder"]), [], state["proxy"]["port"])
        return cluster, state
