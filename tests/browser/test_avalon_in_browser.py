"""The Resistance: Avalon in real browsers: two friends and three bots play to a win.

Aria creates the room, Blaise takes a seat through the invite link, the bots fill
the rest. Each friend clicks what the page offers: a team (player chips, then
Confirm), a vote, a quest card, and, as the Assassin, a name.
Along the way the pages are checked the way a player would notice a leak: during a
quest the whole team is shown as deciding until the last card is in (never
only those still deciding), and no character or side is on the table (but the
Assassin's, once they step forward to name Merlin).
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


def test_two_friends_and_three_bots_play_avalon_to_a_win(server, browser, shots):
    joined = server.post("/api/rooms", {"game": "avalon", "name": "Aria", "seats": 5,
                                        "bots": [{"kind": "random"}] * 3, "options": {}, "private": False})
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

    rng = random.Random(5)
    quests_checked = quests_played = 0
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
            for row in look["rows"]:  # no character on the table, but the Assassin's once they step forward
                assert row["stats"].get("role") in (None, "Assassin") and "side" not in row["stats"], (friend.name, row)
            options = look["options"]
            if options:
                if "Team Building" in look["phase"]:
                    assert all(", " in option for option in options), options  # one option per team
                    assert page.locator("#table .decision.mine .chips [data-pick]").count() == 5  # picked as chips
                elif set(options) <= {"Success", "Fail"}:
                    quests_played += 1
                friend.click(rng.choice(options))
            elif "Quest" in look["phase"] and any(row["waiting"] for row in look["rows"]):
                on_team = [row["name"] for row in look["rows"] if "on team" in row["tags"]]
                deciding = sorted(row["name"] for row in look["rows"] if row["waiting"])
                # the whole team but this friend, who (on the team, with no option) has played
                assert deciding == sorted(n for n in on_team if n != friend.name), (look, friend.name)
                quests_checked += 1
            page.wait_for_timeout(30)
    for friend in friends:
        expect(friend.page.locator("[data-kind=result]")).to_be_visible()
        expect(friend.page.locator("[data-kind=result] .winners")).to_contain_text("Winner")
    aria_page.screenshot(path=shots / "avalon-over.png")
    assert quests_checked and quests_played and friends[0].clicks and friends[1].clicks
    assert aria_page.js_errors == [] and blaise_page.js_errors == []
    aria_context.close()
    blaise_context.close()
