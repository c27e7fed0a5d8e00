"""Coup's variants in real browsers: a Reformation game with the Inquisitor, an Examine
and a Convert, played to a win by two people, with a spectator watching; and every
other combination of options played to a win against a bot.

The pages are read and clicked through text and ARIA roles only (option buttons by
their label, the table's text), so the test does not depend on the client's look.
"""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import expect

from .players import Player, pick, wait_until

DESKTOP = {"width": 1280, "height": 860}
OPTIONS = {"characters": "inquisitor", "reformation": True, "turn_timer": None, "window_timer": None}


def _page(browser, server, room: dict | None, code: str):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda error: page.js_errors.append(str(error)))
    if room is not None:  # the token as the lobby stores it after creating or joining
        page.goto(server.base + "/")
        page.evaluate("([key, token]) => localStorage.setItem(key, token)", [f"intrigue:token:{code}", room["token"]])
    page.goto(f"{server.base}/room/{code}")
    return page


def _text(page) -> str:
    return page.locator("body").inner_text()


def test_a_reformation_game_with_an_examine_is_played_to_a_win(server, browser, shots):
    games = {g["id"]: g for g in server.get("/api/games")}
    assert games["coup"]["options"]["characters"] == "ambassador" and games["coup"]["options"]["reformation"] is False
    created = server.post("/api/rooms", {"game": "coup", "name": "Aria", "seats": 2, "bots": [],
                                         "options": OPTIONS, "private": True})
    code = created["room"]
    joined = server.post(f"/api/rooms/{code}/join", {"name": "Blake"})
    aria_page = _page(browser, server, created, code)
    blake_page = _page(browser, server, joined, code)
    aria_page.get_by_role("button", name="Start the game").click()
    watch_page = _page(browser, server, None, code)
    players = {"Aria": Player("Aria", aria_page), "Blake": Player("Blake", blake_page)}
    for page in (aria_page, blake_page, watch_page):
        expect(page.locator("#table[data-version]")).to_be_visible(timeout=10_000)
        # every seat shows its allegiance, and the Treasury Reserve is on the table
        wait_until(lambda p=page: all(w in _text(p) for w in ("Loyalist", "Reformist", "Treasury Reserve")),
                   10, "the allegiances and the reserve", poll_page=page)

    examined = converted = False
    shown: tuple[str, str] | None = None
    deadline = time.monotonic() + 150
    while not all(p.over() for p in players.values()):
        assert time.monotonic() < deadline, "the game did not finish in 150 s"
        acted = False
        for name, player in players.items():
            other = "Blake" if name == "Aria" else "Aria"
            options = player.options()
            if not options:
                continue
            examine = f"Examine {other}"
            if not examined and examine in options:
                choice = examine
            elif any(o.startswith("Show ") for o in options):
                choice = options[0]
                shown = (name, choice.removeprefix("Show "))
            elif "Force Exchange" in options:
                target, card = shown
                # the examiner sees the shown card; the spectator only that a card was shown
                wait_until(lambda: f"{target}'s {card}" in _text(player.page), 10, "the examined card",
                           poll_page=player.page)
                wait_until(lambda: f"{target} shows a card to {name}" in _text(watch_page), 10,
                           "the spectator's log line", poll_page=watch_page)
                assert f"{target}'s {card}" not in _text(watch_page)
                player.page.screenshot(path=shots / "coup-variants-examine.png")
                choice = "Force Exchange"
                examined = True
            elif examined and not converted and "Convert" in options:
                choice = "Convert"
                converted = True
            elif set(options) == {"Challenge", "Pass"}:
                choice = "Pass"
            else:
                choice = pick(options, set())
            if player.click(choice):
                acted = True
                if choice == "Convert":  # everyone reads it, and the reserve now holds the coin
                    for page in (aria_page, blake_page, watch_page):
                        wait_until(lambda p=page: f"{name} pays 1 to the Treasury Reserve" in _text(p), 10,
                                   "the conversion", poll_page=page)
                player.page.wait_for_timeout(60)
        if not acted:
            aria_page.wait_for_timeout(80)
    assert examined and converted, (examined, converted)
    for page in (aria_page, blake_page, watch_page):
        wait_until(lambda p=page: " wins" in _text(p), 10, "the winner", poll_page=page)
    aria_page.screenshot(path=shots / "coup-variants-over.png")
    for page in (aria_page, blake_page, watch_page):
        assert page.js_errors == [], page.js_errors


OTHER_COMBINATIONS = [
    {"characters": "inquisitor"},
    {"reformation": True, "choose_allegiance": True},
    {"two_player_setup": "official", "characters": "inquisitor", "reformation": True},
]


@pytest.mark.parametrize("options", OTHER_COMBINATIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_every_other_combination_plays_to_a_win_against_a_bot(server, browser, options):
    """One person clicking whatever the page offers (seeded) against a random bot: the page
    never gets stuck and reaches the winner."""
    created = server.post("/api/rooms", {"game": "coup", "name": "Aria", "seats": 2, "bots": [{"kind": "random"}],
                                         "options": {**options, "turn_timer": None, "window_timer": None},
                                         "private": True})
    page = _page(browser, server, created, created["room"])
    page.get_by_role("button", name="Start the game").click()
    aria = Player("Aria", page)
    expect(page.locator("#table[data-version]")).to_be_visible(timeout=10_000)
    rng = random.Random(19)
    deadline = time.monotonic() + 90
    while not aria.over():
        assert time.monotonic() < deadline, f"{options}: no winner in 90 s"
        choices = aria.options()
        if choices:
            aria.click(rng.choice(choices))
        page.wait_for_timeout(40)
    wait_until(lambda: " wins" in _text(page), 10, "the winner", poll_page=page)
    assert aria.clicks and page.js_errors == [], page.js_errors
