"""A real ``intrigue serve`` in a subprocess and Debian's Chromium driven by Playwright.

Playwright's own browser download does not work here, so the tests launch the
system Chromium (``make test`` installs it); ``INTRIGUE_CHROMIUM`` overrides the path.
Screenshots land in ``artifacts/screenshots/``.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = os.environ.get("INTRIGUE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, base: str, process: subprocess.Popen, log: Path):
        self.base = base
        self.process = process
        self.log = log

    def get(self, path: str):
        with urllib.request.urlopen(self.base + path, timeout=5) as answer:
            return json.loads(answer.read())

    def post(self, path: str, body: dict):
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode(),
                                         headers={"content-type": "application/json"}, method="POST")
        with urllib.request.urlopen(request, timeout=5) as answer:
            return json.loads(answer.read())


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """`intrigue serve` on a free port with a fresh database, until the session ends."""
    yield from serve(tmp_path_factory.mktemp("server"))


def serve(folder: Path, *extra: str):
    """Run `intrigue serve` (with `extra` arguments) from `folder`; yield it, then stop it."""
    port = _free_port()
    log = folder / "server.log"
    command = [sys.executable, "-m", "intrigue.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--db", str(folder / "intrigue.db"), "--bot-delay", "0.05",
               # every page of the session is one client: the hourly room quota is not under test here
               "--room-quota", "1000", "--connect-rate", "1000", *extra]
    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=folder)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/api/games", timeout=1).read()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"intrigue serve did not start:\n{log.read_text()}")
            time.sleep(0.1)
    yield Server(base, process, log)
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"Chromium not found at {CHROMIUM}: run `make chromium` or set INTRIGUE_CHROMIUM")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture()
def shots():
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@pytest.fixture(autouse=True)
def pictures_on_failure(request):
    """When a browser test fails, photograph every page it left open, then close them."""
    yield
    report = getattr(request.node, "report_call", None)
    if "browser" not in request.fixturenames:
        return
    launched = request.getfixturevalue("browser")
    if report is not None and report.failed:
        SHOTS.mkdir(parents=True, exist_ok=True)
        name = request.node.name.replace("/", "_").replace("[", "-").replace("]", "")
        pages = [page for context in launched.contexts for page in context.pages]
        for index, page in enumerate(pages):
            try:
                page.screenshot(path=SHOTS / f"failed-{name}-{index}.png", full_page=True)
            except Exception:  # noqa: BLE001 - a crashed page has nothing to show
                pass
    for context in list(launched.contexts):
        context.close()
