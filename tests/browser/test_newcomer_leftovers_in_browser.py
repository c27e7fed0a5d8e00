"""What a newcomer still stumbled on in the sixth trial, checked as they would see it:

- at the end of a match on a desktop, the outcome banners (the last card lost, who is out) floated
  over the top of the seats panel for a few seconds, where the rematch votes show: the winner's box
  says how it ended, so no banner floats once the match is over (as on a phone already);
- on a phone the "Learn to play" row took three lines (English, Spanish; four in German on a narrow
  phone): the six games sit in two rows of three in every language;
- a talk phase (a timer phase) said what the timer would choose for you ("If time runs out: Ada" in
  Two Rooms, as if Ada would be offered a share): its clock chooses nothing for anyone, the phase
  just ends, and the panel no longer says otherwise;
- Two Rooms at a table of one person and bots: the bots offered share after share and the round's
  clock ran only in between, so the first round took minutes (the newcomer declined a hundred
  shares in two and a half minutes); each round now ends once everyone has pressed "Done talking" (or the
  clock runs out);
- Avalon: during a team's vote every tile still read the last team's vote ("vote: Reject" beside
  "deciding"), as if already cast on this team: they are cleared as the next team is proposed;
- Crime Scene at a table of one person and bots: the bots spend their badges at once, and a newcomer
  keeping theirs waited out three minutes of talk a round: "Done talking" ends it, as in Two Rooms;
- on a desktop a chat line said out of sight peeked at the top of the screen, over Rules, Sound and
  Alerts: it peeks at the bottom of the side column.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from .conftest import ROOT, serve
from .pages import DESKTOP, NARROW, PHONE, open_page, shot, sit_down
from .players import PANEL, Player, pick, wait_until

EXAMPLES = ROOT / "docs" / "examples" / "games"


@pytest.fixture(scope="module")
def examples_server(tmp_path_factory):
    yield from serve(tmp_path_factory.mktemp("examples"), "--games", str(EXAMPLES))


def _overlap(page, first: str, second: str) -> bool:
    return page.evaluate("""([a, b]) => {
        const x = document.querySelector(a)?.getBoundingClientRect(), y = document.querySelector(b)?.getBoundingClientRect();
        if (!x || !y || !x.width || !y.width) return false;
        return x.left < y.right && y.left < x.right && x.top < y.bottom && y.top < x.bottom;
    }""", [first, second])


def test_on_a_desktop_no_banner_floats_over_the_seats_once_the_match_is_over(server, browser):
    joined = server.post("/api/rooms", {"game": "coup", "name": "Zoe", "seats": 2, "bots": [{"kind": "random"}],
                                        "options": {"turn_timer": 60, "window_timer": 30}, "private": True})
    context, page = open_page(browser, DESKTOP)
    sit_down(page, server, joined)
    page.get_by_role("button", name="Start the game").click()
    zoe, wanted = Player("Zoe", page), {"challenge"}
    deadline = time.monotonic() + 120
    while not zoe.over():
        assert time.monotonic() < deadline, "the match did not end in 120 s"
        options = zoe.options()
        if options:
            zoe.click(pick(options, wanted))
        page.wait_for_timeout(30)
    # The last move put someone out (a banner during a match): at the end the winner's box says it.
    expect(page.locator("[data-kind=result] .ending")).to_be_visible()
    assert page.locator("#banners [data-banner]").count() == 0
    assert not _overlap(page, "#banners", "#seats-title")
    page.wait_for_timeout(500)
    expect(page.locator("#banners [data-banner]")).to_have_count(0)
    expect(page.locator("#seats-title")).to_be_in_viewport()
    shot(page, "desktop-over-no-banner-on-the-seats")
    assert not page.js_errors
    context.close()


@pytest.mark.parametrize("viewport", [PHONE, NARROW], ids=["phone", "narrow"])
def test_on_a_phone_learn_to_play_takes_two_rows_in_every_language(server, browser, viewport):
    for lang in ("en", "de", "fr", "es", "zh"):
        context, page = open_page(browser, viewport, lang=lang, has_touch=True, is_mobile=True)
        page.goto(server.base + "/")
        buttons = page.locator("#learn [data-learn]")
        expect(buttons).to_have_count(6)
        rows = page.eval_on_selector_all("#learn [data-learn]", """bs => bs.map(b => {
            const box = b.getBoundingClientRect();
            return {top: Math.round(box.top), overflows: b.scrollWidth > b.clientWidth + 1, text: b.textContent};
        })""")
        assert len({row["top"] for row in rows}) == 2, (lang, rows)
        assert not [row for row in rows if row["overflows"]], (lang, rows)
        # the name the guided game asks for is on the first screen, under the row
        name = page.locator("#name").bounding_box()
        assert name["y"] + name["height"] <= viewport["height"], (lang, name)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        shot(page, f"learn-row-{lang}-{viewport['width']}")
        assert not page.js_errors
        context.close()


def test_a_talk_phase_does_not_say_the_timer_will_choose_for_you(server, browser):
    """A timer phase's clock chooses nothing for anyone when it runs out (the phase ends): Werewolf's
    day said "If time runs out: Ready to vote", Two Rooms' talk "If time runs out: Ada" (a share offer)."""
    for attempt in range(4):  # the werewolves may kill Zoe in the first night: then she has no day
        joined = server.post("/api/rooms", {"game": "werewolf", "name": "Zoe", "seats": 6,
                                            "bots": [{"kind": "random"}] * 5, "private": True,
                                            "options": {"turn_timer": 60, "window_timer": 30}})
        context, page = open_page(browser, DESKTOP)
        sit_down(page, server, joined)
        page.get_by_role("button", name="Start the game").click()
        zoe = Player("Zoe", page)
        options = wait_until(lambda: zoe.options() or zoe.over()
                             or page.locator("[data-kind=board] .player.you.out").count(), 60, "a decision", page)
        while isinstance(options, list) and "Ready to vote" not in options:  # else over, or Zoe out
            zoe.click(options[0])  # the night: sleep, or a first name
            options = wait_until(lambda: zoe.options() or zoe.over()
                                 or page.locator("[data-kind=board] .player.you.out").count(), 60, "the day", page)
        if isinstance(options, list) and "Ready to vote" in options:
            expect(page.locator(f"{PANEL} .countdown")).to_be_visible()
            expect(page.locator(f"{PANEL} .timer-default")).to_have_count(0)
            shot(page, "werewolf-day-no-timer-default")
            assert not page.js_errors
            context.close()
            return
        context.close()
    pytest.fail("Zoe never saw a day in four matches")


def test_two_rooms_against_bots_ends_each_round_once_everyone_is_done_talking(examples_server, browser):
    joined = examples_server.post("/api/rooms", {"game": "two_rooms", "name": "Zoe", "seats": 6,
                                                 "bots": [{"kind": "random"}] * 5, "private": True,
                                                 "options": {"turn_timer": 60, "window_timer": 30}})
    context, page = open_page(browser, DESKTOP)
    sit_down(page, examples_server, joined)
    page.get_by_role("button", name="Start the game").click()
    zoe = Player("Zoe", page)
    talks = 0
    started = time.monotonic()
    while not zoe.over():
        # each round's clock is 3, 2 and 1 minutes: the whole match before the first clock ran out
        assert time.monotonic() - started < 150, f"still playing after 150 s ({zoe.clicks})"
        options = zoe.options()
        if not options:
            page.wait_for_timeout(50)
            continue
        if "Done talking" in options:
            expect(page.locator(f"{PANEL} #decision-prompt")).to_have_text(
                "Talk in your room. Choose a player of your room to offer them a share, or press Done talking.")
            expect(page.locator(f"{PANEL} .countdown")).to_be_visible()
            expect(page.locator(f"{PANEL} .timer-default")).to_have_count(0)  # the clock chooses nothing
            if not talks:
                shot(page, "two-rooms-talk")
            talks += 1
            zoe.click("Done talking")
            continue
        for calm in ("No vote", "Decline", "Never mind", "Blue Team"):
            if calm in options:
                zoe.click(calm)
                break
        else:
            zoe.click(options[0])  # a leader's hostages
    assert talks >= 3, zoe.clicks
    expect(page.locator("[data-kind=result]")).to_contain_text("wins")
    shot(page, "two-rooms-over")
    assert not page.js_errors
    context.close()


def test_avalon_a_new_team_vote_shows_no_votes_from_the_last_one(server, browser):
    """Each tile read "vote: Reject" beside "deciding" during the next team's vote (the last team's
    votes stayed until the new ones were shown): they are cleared as the next team is proposed."""
    joined = server.post("/api/rooms", {"game": "avalon", "name": "Zoe", "seats": 5,
                                        "bots": [{"kind": "random"}] * 4, "private": True,
                                        "options": {"turn_timer": 60, "window_timer": 30}})
    context, page = open_page(browser, DESKTOP)
    sit_down(page, server, joined)
    page.get_by_role("button", name="Start the game").click()
    zoe = Player("Zoe", page)
    votes = page.locator("[data-kind=board] .player [data-stat=vote]")
    team_votes = 0
    deadline = time.monotonic() + 120
    while team_votes < 2 and not zoe.over():
        assert time.monotonic() < deadline, zoe.clicks
        options = zoe.options()
        if not options:
            page.wait_for_timeout(40)
            continue
        if options == ["Approve", "Reject"]:
            team_votes += 1
            if team_votes == 2:
                # the first vote was counted (its votes were shown), and none of it is left on the tiles
                assert any(re.fullmatch(r"Approve: \d of 5\.", line) for line in zoe.log()), zoe.log()
                expect(votes).to_have_count(0)
                shot(page, "avalon-second-team-vote")
            zoe.click("Reject" if team_votes == 1 else "Approve")
        else:
            zoe.click(options[0])
    assert team_votes == 2, zoe.clicks
    assert not page.js_errors
    context.close()


def test_on_a_desktop_a_chat_line_peeks_beside_the_table_not_over_the_buttons(server, browser):
    """The peek of a chat line said out of sight sat at the top of the screen, over Rules, Sound and
    Alerts, for six seconds (a click there scrolled to the chat instead)."""
    joined = server.post("/api/rooms", {"game": "coup", "name": "Aria", "seats": 6, "bots": [{"kind": "random"}] * 4,
                                        "options": {"turn_timer": 60, "window_timer": 30}, "private": True})
    context, page = open_page(browser, {"width": 1280, "height": 600})
    sit_down(page, server, joined)
    friend_context, friend = open_page(browser, DESKTOP)
    friend.goto(page.locator("#share-link").input_value())
    friend.get_by_label("Your name").fill("Blaise")
    friend.get_by_role("button", name="Take a seat").click()
    expect(friend.locator("#you-are")).to_contain_text("Blaise")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#table[data-version]")).to_be_visible(timeout=10_000)
    page.evaluate("scrollTo(0, 0)")
    assert page.evaluate("document.querySelector('#chat-text').getBoundingClientRect().top > innerHeight")
    friend.locator("#chat-text").fill("Who has the Duke?")
    friend.locator("#chat-text").press("Enter")
    peek = page.locator(".chat-peek")
    expect(peek).to_contain_text("Blaise Who has the Duke?")
    assert not _overlap(page, ".chat-peek", ".topbar")
    box = peek.bounding_box()
    assert box["x"] >= page.locator(".side").bounding_box()["x"] - 1, box  # beside the table, over the side column
    shot(page, "desktop-chat-peek")
    peek.click()
    expect(page.locator("#chat-text")).to_be_focused()
    assert not page.js_errors and not friend.js_errors
    friend_context.close()
    context.close()


def test_crime_scene_against_bots_ends_the_talk_once_every_badge_holder_is_done(examples_server, browser):
    """The bots use their badges at once: a newcomer keeping theirs waited out three minutes of talk in
    each of three rounds. "Done talking" ends a round's talk once every badge holder has pressed it."""
    joined = examples_server.post("/api/rooms", {"game": "crime_scene", "name": "Zoe", "seats": 4,
                                                 "bots": [{"kind": "random"}] * 3, "private": True,
                                                 "options": {"turn_timer": 60, "window_timer": 30}})
    context, page = open_page(browser, DESKTOP)
    sit_down(page, examples_server, joined)
    page.get_by_role("button", name="Start the game").click()
    zoe = Player("Zoe", page)
    talks = 0
    for match in range(4):  # Zoe may be dealt the scientist (no badge), or the bots solve it first: again
        started = time.monotonic()
        while not zoe.over():
            assert time.monotonic() - started < 150, f"still playing after 150 s ({zoe.clicks})"
            options = zoe.options()
            if not options:
                page.wait_for_timeout(50)
                continue
            if "Use my badge" in options and "Pass" not in options:  # the talk, not the last call
                assert "Done talking" in options, options
                expect(page.locator(f"{PANEL} #decision-prompt")).to_have_text(
                    "Talk over the tiles and the cards. Use your badge to accuse a player (once a game), "
                    "or press Done talking.")
                talks += 1
                zoe.click("Done talking")
                continue
            zoe.click(next((o for o in ("Sleep", "Pass") if o in options), options[0]))
        if talks:
            break
        page.get_by_role("button", name="Play again").click()  # against bots the vote is Zoe's alone
        expect(page.locator("#table")).to_have_attribute("data-over", "false", timeout=15_000)
    assert talks, zoe.clicks
    shot(page, "crime-scene-over")
    assert not page.js_errors
    context.close()
