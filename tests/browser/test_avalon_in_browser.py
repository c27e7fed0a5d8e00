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

from .players import LOOK, two_friends_at

def test_two_friends_and_three_bots_play_avalon_to_a_win(server, browser, shots):
    joined = server.post("/api/rooms", {"game": "avalon", "name": "Aria", "seats": 5,
                                        "bots": [{"kind": "random"}] * 3, "options": {}, "private": False})
    (aria_context, blaise_context), friends = two_friends_at(server, browser, joined)
    aria_page, blaise_page = friends[0].page, friends[1].page
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
