"""Werewolf in real browsers: two friends and four bots play to a win.

Aria creates the room, Blaise takes a seat through the invite link, the bots fill
the rest. Each friend clicks what the page offers: a night choice (or Sleep), Ready
to vote when the day's countdown runs, a vote. Along the way the pages are checked
the way a player would notice a leak: at night every living player is shown as
deciding (never just the ones acting), and no living player's role is on the table.
"""

from __future__ import annotations

import random
import time

from playwright.sync_api import expect

from .players import Player, expect_seat

DESKTOP = {"width": 1280, "height": 860}
#: One look at the page, all from the same render: the phase, this seat's options, and per
#: board row its name, whether it is out, whether it is shown as deciding, its tags and facts.
LOOK = """() => {
  const table = document.querySelector('#table');
  const phase = table.querySelector('[data-kind=phase]');
  const panel = table.querySelector('.decision.mine');
  const live = panel && !panel.querySelector('.chosen') && [...panel.querySelectorAll('button')].some(b => !b.disabled);
  return {
    over: table.dataset.over === 'true',
    phase: phase ? phase.textContent : '',
    options: live ? JSON.parse(panel.dataset.options || '[]') : [],
    rows: [...document.querySelectorAll('[data-kind=board] .player')].map(r => ({
      name: r.dataset.player, out: r.classList.contains('out'), waiting: !!r.querySelector('.badge-wait'),
      tags: [...r.querySelectorAll('.tag:not(.role)')].map(t => t.textContent),
      stats: Object.fromEntries([...r.querySelectorAll('[data-stat]')].map(s =>
        [s.dataset.stat, s.querySelector('dd').textContent]))})),
  };
}"""


def _page(browser):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.js_errors = errors
    return context, page


def test_two_friends_and_four_bots_play_werewolf_to_a_win(server, browser, shots):
    joined = server.post("/api/rooms", {"game": "werewolf", "name": "Aria", "seats": 6,
                                        "bots": [{"kind": "random"}] * 4, "options": {}, "private": False})
    aria_context, aria_page = _page(browser)
    aria_page.goto(server.base + "/")
    aria_page.evaluate("([key, token]) => localStorage.setItem(key, token)",
                       [f"intrigue:token:{joined['room']}", joined["token"]])
    aria_page.goto(server.base + joined["url"])
    expect_seat(aria_page, "Aria")
    blaise_context, blaise_page = _page(browser)
    blaise_page.goto(aria_page.locator("#share-link").input_value())
    blaise_page.get_by_label("Your name").fill("Blaise")
    blaise_page.get_by_role("button", name="Take a seat").click()
    expect_seat(blaise_page, "Blaise")
    aria_page.get_by_role("button", name="Start the game").click()
    friends = [Player("Aria", aria_page), Player("Blaise", blaise_page)]
    for friend in friends:
        expect(friend.page.locator("#table[data-version]")).to_be_visible(timeout=10_000)

    rng = random.Random(11)
    nights_checked = days = 0
    pictured = False
    deadline = time.monotonic() + 180
    while not all(friend.over() for friend in friends):
        assert time.monotonic() < deadline, "the game did not finish in 180 s"
        for friend in friends:
            page = friend.page
            if friend.over():
                continue
            look = page.evaluate(LOOK)
            if look["over"]:  # at the end every secret is shown
                continue
            alive = [row["name"] for row in look["rows"] if not row["out"]]
            for row in look["rows"]:
                assert row["out"] or "role" not in row["stats"], f"{friend.name} sees a living player's role"
            options = look["options"]
            if options:
                if "Night" in look["phase"] and not pictured:
                    page.screenshot(path=shots / "werewolf-night.png")
                    pictured = True
                if "Ready to vote" in options:
                    expect(page.locator(".countdown").first).to_be_visible()
                    days += 1
                    friend.click("Ready to vote")
                else:
                    friend.click(rng.choice(options))
            elif "Night" in look["phase"] and any(row["waiting"] for row in look["rows"]):
                # this friend has answered: everyone else alive still appears to be deciding
                deciding = sorted(row["name"] for row in look["rows"] if row["waiting"])
                assert deciding == sorted(n for n in alive if n != friend.name), (look, friend.name)
                nights_checked += 1
            page.wait_for_timeout(30)
    for friend in friends:
        expect(friend.page.locator("[data-kind=result]")).to_be_visible()
        expect(friend.page.locator("[data-kind=result] .winners")).to_contain_text("Winner")
    aria_page.screenshot(path=shots / "werewolf-over.png")
    assert nights_checked and days and friends[0].clicks and friends[1].clicks
    assert aria_page.js_errors == [] and blaise_page.js_errors == []
    aria_context.close()
    blaise_context.close()
