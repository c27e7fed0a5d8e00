"""What a newcomer stumbled on in the fifth trial, checked as they would see it:

- at a table without a clock (a practice room, the guided game) the decision panel showed an
  empty, full green countdown bar with no time beside it: no bar shows there.
"""

from __future__ import annotations

from playwright.sync_api import expect

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
