"""Werewolf in real browsers: two friends and four bots play to a win.

Aria creates the room, Blaise takes a seat through the invite link, the bots fill
the rest. Each friend clicks what the page offers: a night choice (or Sleep), Ready
to vote when the day's countdown runs, a vote. Along the way the pages are checked
the way a player would notice a leak: at night every living player is shown as
deciding (never just the ones acting), and no living player's role is on the table.
Each dawn puts up its banner (the YAML's `say … banner:`), in the page's words.
"""

from __future__ import annotations

import random
import time

from playwright.sync_api import expect

from .players import LOOK, two_friends_at

def test_two_friends_and_four_bots_play_werewolf_to_a_win(server, browser, shots):
    joined = server.post("/api/rooms", {"game": "werewolf", "name": "Aria", "seats": 6,
                                        "bots": [{"kind": "random"}] * 4, "options": {}, "private": False})
    (aria_context, blaise_context), friends = two_friends_at(server, browser, joined)
    aria_page, blaise_page = friends[0].page, friends[1].page
    rng = random.Random(11)
    nights_checked = days = 0
    pictured = False
    banners: set[str] = set()  # the banner titles the friends were shown
    deadline = time.monotonic() + 180
    while not all(friend.over() for friend in friends):
        assert time.monotonic() < deadline, "the game did not finish in 180 s"
        for friend in friends:
            page = friend.page
            if friend.over():
                continue
            banners.update(page.locator("#banners [data-banner=outcome] strong").all_inner_texts())
            look = page.evaluate(LOOK)
            if look["over"]:  # at the end every secret is shown
                continue
            alive = [row["name"] for row in look["rows"] if not row["out"]]
            for row in look["rows"]:
                assert row["out"] or "role" not in row["stats"], f"{friend.name} sees a living player's role"
            options = look["options"]
            if options:
                if "Night" in look["phase"]:
                    # every seat reads the one question of the night (a heading per role would tell the role)
                    expect(page.locator("#decision-prompt")).to_have_text(
                        "Werewolves: choose your victim. Seer: look into a soul. Doctor: protect someone. "
                        "Villagers: sleep.")
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
    assert banners & {"Killed in the night", "Nobody died"}, banners  # every game has a dawn
    assert banners <= {"Killed in the night", "Nobody died", "Lynched", "Nobody lynched"}, banners
    assert aria_page.js_errors == [] and blaise_page.js_errors == []
    aria_context.close()
    blaise_context.close()
