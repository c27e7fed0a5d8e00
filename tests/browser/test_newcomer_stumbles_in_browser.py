"""What a newcomer stumbled on in the fifth trial, checked as they would see it:

- at a table without a clock (a practice room, the guided game) the decision panel showed an
  empty, full green countdown bar with no time beside it: no bar shows there;
- on a phone, "Learn to play: Coup" without a name asks for one; the newcomer types it and presses
  Enter (the keyboard's Go): that submitted the room form, and they sat alone in a waiting room of
  another game. Enter now starts the guided game they asked for.
"""

from __future__ import annotations

from playwright.sync_api import expect

import re

from .pages import PHONE, open_page, shot, sit_down
from .players import PANEL, Player, wait_until


def test_a_table_without_a_clock_shows_no_countdown(server, browser):
    joined = server.post("/api/games/coup/tutorial", {"name": "Zoe"})
    context, page = open_page(browser, PHONE, has_touch=True)
    sit_down(page, server, joined)
    zoe = Player("Zoe", page)
    wait_until(zoe.options, 20, "Zoe's first decision", page)
    expect(page.locator(f"{PANEL} #decision-prompt")).to_be_visible()
    expect(page.locator(f"{PANEL} .countdown")).to_be_hidden()
    shot(page, "untimed-decision-no-countdown")
    assert not page.js_errors
    context.close()


def test_enter_after_typing_the_name_learn_to_play_asked_for_starts_that_guided_game(server, browser):
    context, page = open_page(browser, PHONE, has_touch=True, is_mobile=True)
    page.goto(server.base + "/")
    page.locator("#learn [data-learn=coup]").tap()
    expect(page.locator(".toast")).to_have_text("Type your name in the form first.")
    expect(page.locator("#name")).to_be_focused()
    page.keyboard.type("Zoe")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/room/\w+$"))
    expect(page.locator("#room-title")).to_contain_text("Coup")
    expect(page.locator("#table-overlay .tutorial")).to_be_visible(timeout=15_000)
    expect(page.locator("#you-are")).to_contain_text("Zoe")
    shot(page, "learn-after-enter")
    assert not page.js_errors
    context.close()
