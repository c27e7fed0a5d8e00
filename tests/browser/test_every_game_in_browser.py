"""Every other installed game plays to its end in the browser through the same client.

One person and random bots; the person clicks whatever the page offers (seeded), so
the test proves the generic client renders each game's components and never gets
stuck: the game reaches its winner banner with no script error. Coup is covered in
depth by test_coup_in_browser.py.
"""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import expect

from intrigue import games as game_registry

from .players import Player, expect_seat

OTHER_GAMES = [g for g in game_registry.installed() if g != "coup"]


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_game_plays_to_the_end_with_bots(server, browser, shots, game):
    info = next(g for g in server.get("/api/games") if g["id"] == game)
    seats = max(info["min_players"], 4) if info["max_players"] >= 4 else info["min_players"]
    joined = server.post("/api/rooms", {"game": game, "name": "Aria", "seats": seats,
                                        "bots": [{"kind": "random"}] * (seats - 1), "options": {}, "private": False})
    phone = game == OTHER_GAMES[-1]
    context = browser.new_context(viewport={"width": 390, "height": 844} if phone else {"width": 1280, "height": 860})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # The token as the lobby would have stored it after creating the room.
    page.goto(server.base + "/")
    page.evaluate("([key, token]) => localStorage.setItem(key, token)",
                  [f"intrigue:token:{joined['room']}", joined["token"]])
    page.goto(server.base + joined["url"])
    expect_seat(page, "Aria")
    page.get_by_role("button", name="Start the game").click()
    aria = Player("Aria", page)
    expect(page.locator("#table[data-version]")).to_be_visible(timeout=10_000)

    rng = random.Random(7)
    # Stuck means no new view for 20 s; a long game is fine up to 150 s in all.
    deadline = time.monotonic() + 150
    pictured = False
    for match in range(3):
        seen, moved = aria.version(), time.monotonic()
        while not aria.over():
            now = time.monotonic()
            if aria.version() != seen:
                seen, moved = aria.version(), now
            assert now - moved < 20, f"{game} is stuck at version {seen} ({len(aria.clicks)} clicks)"
            assert now < deadline, f"{game} did not finish in 150 s ({len(aria.clicks)} clicks)"
            options = aria.options()
            if options:
                if not pictured and len(aria.clicks) >= 3:
                    page.screenshot(path=shots / f"{game}-{'phone' if phone else 'desktop'}.png", full_page=phone)
                    pictured = True
                aria.click(rng.choice(options))
            else:
                page.wait_for_timeout(40)
        expect(page.locator("[data-kind=result]")).to_be_visible()
        if aria.clicks:
            break
        # The bots finished before the person had a say (a quick game): ask for a rematch.
        page.locator("#rematch").click()
        expect(page.locator("#table[data-over=false]")).to_be_visible(timeout=10_000)
    assert aria.clicks, "the person was never offered a choice in three matches"
    page.screenshot(path=shots / f"{game}-over.png", full_page=phone)
    if phone:
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page is wider than the phone"
    assert errors == [], errors
    context.close()
