"""The room page asks for log deltas and merges them: after several moves its log shows exactly
the lines a connection without deltas gets for the same seat (private lines included)."""

from __future__ import annotations

import json
import random
import time

from playwright.sync_api import expect
from websockets.sync.client import connect

from .pages import sit_down
from .players import Player, expect_seat, new_page, wait_until


def test_the_page_merges_log_deltas_into_the_whole_log(server, browser):
    created = server.post("/api/rooms", {"game": "coup", "name": "Aria", "seats": 3, "private": True,
                                         "bots": [{"kind": "random"}, {"kind": "random"}],
                                         "options": {"turn_timer": None, "window_timer": None}})
    room, token = created["room"], created["token"]
    context, page = new_page(browser)
    frames: list[dict] = []
    page.on("websocket", lambda socket: socket.on(
        "framereceived", lambda payload: frames.append(json.loads(payload)) if isinstance(payload, str) else None))
    sit_down(page, server, created)
    expect_seat(page, "Aria")
    # Today's client: the same seat on a plain connection, every view's log whole.
    plain = connect(server.base.replace("http", "ws") + "/ws", proxy=None, max_size=2 ** 22, legacy=True)
    plain.send(json.dumps({"type": "hello", "room": room, "token": token}))
    full: dict[int, dict] = {}

    def read_plain(until: float = 0.05) -> None:
        while True:
            try:
                message = json.loads(plain.recv(timeout=until))
            except TimeoutError:
                return
            if message["type"] == "view":
                assert "log_after" not in message
                full[message["view"]["version"]] = message["view"]

    page.get_by_role("button", name="Start the game").click()
    aria = Player("Aria", page)
    expect(page.locator("#table[data-version]")).to_be_visible(timeout=10_000)
    rng = random.Random(11)

    def deltas() -> list[dict]:
        return [f for f in frames if f.get("type") == "view" and f["log_after"] is not None]

    deadline = time.monotonic() + 90
    while len(deltas()) < 10 and not aria.over() and time.monotonic() < deadline:
        options = aria.options()  # Aria plays from the page; the bots play their turns
        if options:
            aria.click(rng.choice(options))
        read_plain()
        page.wait_for_timeout(50)
    assert len(deltas()) >= 4, "too few views came as deltas"

    def same_log() -> bool:
        read_plain()
        version = aria.version()
        if version not in full:
            return False
        shown = page.eval_on_selector_all("#log li", "ls => ls.map(l => Number(l.dataset.version))")
        return shown == [line["version"] for line in full[version]["log"]] and aria.version() == version

    wait_until(same_log, 10, "the page's log to equal the plain connection's", page)
    lines = aria.log()
    assert len(lines) > 8 and any(line.startswith("Your cards: ") for line in lines), lines
    views = [f for f in frames if f.get("type") == "view"]
    assert views[0]["log_after"] is None
    assert all(len(f["view"]["log"]) < len(lines) for f in deltas())
    assert page.js_errors == [], page.js_errors
    plain.close()
    context.close()
