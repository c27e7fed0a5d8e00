"""Coup in real browsers against a real server: lobby, play to a win, reload, spectator,
rematch, history and replay, and a timer running out.

Three browser contexts are three people (Casey on a 390 px phone); a heuristic bot
takes the fourth seat. The players click the buttons the page shows; a test player
challenges once and blocks once when first offered, and otherwise plays to finish.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from .players import Player, expect_seat, pick, wait_until

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}


def _open(browser, viewport):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.js_errors = errors  # checked at the end: the client never throws
    return context, page


def _create_room(page, base, name, bots, seats, options=None, picture=None):
    """Fill the lobby's create form like a person; returns the room code."""
    page.goto(base + "/")
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Game").select_option("coup")
    page.get_by_label("Seats at the table").fill(str(seats))
    for index, (kind, personality) in enumerate(bots, start=1):
        page.get_by_role("button", name="Add a bot").click()
        page.get_by_label(f"Bot {index}: how hard").select_option(kind)
        if personality:
            page.get_by_label(f"Bot {index}: style").select_option(personality)
    for key, value in (options or {}).items():
        page.locator(f'[data-option="{key}"]').fill(str(value))
    if picture:
        page.screenshot(path=picture, full_page=True)
    page.get_by_role("button", name="Create room").click()
    page.wait_for_url(re.compile(r"/room/\w+$"))
    expect_seat(page, name)
    return page.url.rsplit("/", 1)[1]


def test_three_people_play_coup_to_a_win_then_rematch(server, browser, shots):
    base = server.base
    started = time.monotonic()
    aria_ctx, aria_page = _open(browser, DESKTOP)
    blake_ctx, blake_page = _open(browser, DESKTOP)
    casey_ctx, casey_page = _open(browser, PHONE)
    watch_ctx, watch_page = _open(browser, PHONE)
    pages = [aria_page, blake_page, casey_page, watch_page]

    # Aria creates a 4-seat room with one heuristic bot.
    code = _create_room(aria_page, base, "Aria", bots=[("heuristic", "bold")], seats=4, picture=shots / "lobby.png")
    expect(aria_page.locator("#seats")).to_contain_text("bot · normal, bold")
    aria_page.screenshot(path=shots / "waiting-room.png")

    # Blake finds it in the lobby's open rooms; Casey follows the invite link on her phone.
    blake_page.goto(base + "/")
    blake_page.locator(f'[data-room="{code}"]').get_by_role("link", name="Join").click()
    blake_page.get_by_label("Your name").fill("Blake")
    blake_page.get_by_role("button", name="Take a seat").click()
    expect_seat(blake_page, "Blake")
    casey_page.goto(aria_page.locator("#share-link").input_value())
    casey_page.get_by_label("Your name").fill("Casey")
    casey_page.get_by_role("button", name="Take a seat").click()
    expect_seat(casey_page, "Casey")
    expect(aria_page.locator("#seats .seat.open")).to_have_count(0)

    # Only the host has a Start button.
    expect(blake_page.locator("#start")).to_have_count(0)
    aria_page.get_by_role("button", name="Start the game").click()
    players = [Player("Aria", aria_page), Player("Blake", blake_page), Player("Casey", casey_page)]
    for player in players:
        expect(player.page.locator("#table[data-version]")).to_be_visible(timeout=10_000)
        assert len(player.hand()) == 2, f"{player.name} should see two influences"

    # Chat is shown as text, never as HTML.
    blake_page.get_by_label("Message").fill("<b>I have the Duke</b>, honestly.")
    blake_page.get_by_role("button", name="Send").click()
    expect(aria_page.locator("#chat")).to_contain_text("Blake <b>I have the Duke</b>, honestly.")
    assert aria_page.locator("#chat b").count() == 0
    casey_page.get_by_label("Message").fill("Sure you do, Blake.")
    casey_page.get_by_role("button", name="Send").click()
    expect(aria_page.locator("#chat")).to_contain_text("Casey Sure you do, Blake.")

    # A spectator arrives mid-game through the same link.
    watch_page.goto(f"{base}/room/{code}")
    spectator = Player("Watcher", watch_page)
    expect(watch_page.locator("#you-are")).to_have_text("You are watching as a spectator.")
    expect(watch_page.locator("#table[data-version]")).to_be_visible()

    wanted = {"challenge", "block"}
    clicks = 0
    reloaded = False
    spectator_checks: list[tuple[int, dict]] = []
    next_check = 1
    screenshot_taken = False
    deadline = time.monotonic() + 120
    while not all(p.over() for p in players):
        assert time.monotonic() < deadline, "the game did not finish in 120 s"
        acted = False
        for player in players:
            options = player.options()
            if not options:
                continue
            if not screenshot_taken and player is players[0] and clicks >= 6:
                # A good in-game picture: Aria's desktop view with her options on screen.
                aria_page.screenshot(path=shots / "game-desktop.png")
                casey_page.screenshot(path=shots / "game-phone.png", full_page=True)
                screenshot_taken = True
            choice = pick(options, wanted)
            if not player.click(choice):
                if choice == "Challenge":
                    wanted.add("challenge")
                elif choice.startswith("Block"):
                    wanted.add("block")
                continue
            clicks += 1
            acted = True
            if choice == "Challenge":
                expect(player.page.locator("#log")).to_contain_text(f"{player.name} challenges")
            elif choice.startswith("Block"):
                expect(player.page.locator("#log")).to_contain_text(
                    re.compile(f"{player.name} claims {choice.split()[-1]} to block"))
        if clicks >= 4 and not reloaded:
            # Blake reloads mid-game: same seat, same cards, the table back.
            hand_before = players[1].hand()
            blake_page.reload()
            expect_seat(blake_page, "Blake")
            expect(blake_page.locator("#table[data-version]")).to_be_visible()
            after = players[1].hand()
            assert after and set(after) <= set(hand_before), (hand_before, after)
            reloaded = True
        if clicks >= next_check and len(spectator_checks) < 4 and not spectator.over():
            next_check += 5
            spectator_checks.append(spectator.board())
            assert watch_page.locator("[data-kind=hand], .card.secret").count() == 0
        if not acted:
            aria_page.wait_for_timeout(40)

    # Someone won; every page shows the winner banner.
    for page in (aria_page, blake_page, casey_page, watch_page):
        expect(page.locator("[data-kind=result]")).to_be_visible()
    for page in (casey_page, watch_page):
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "wider than the phone"
    winner_text = aria_page.locator("[data-kind=result] h2").inner_text()
    assert "wins" in winner_text.lower() or "winner" in winner_text.lower(), winner_text
    aria_page.screenshot(path=shots / "game-over.png")
    every_click = [click for player in players for click in player.clicks]
    assert "Challenge" in every_click and any(c.startswith("Block") for c in every_click), every_click
    assert reloaded and spectator_checks

    # What the spectator saw matches the truth at that version: hidden cards stayed hidden.
    room = server.get(f"/api/rooms/{code}")
    match_id = room["match"] if "match" in room else None
    finished = server.get("/api/matches?status=finished")
    entry = next(m for m in finished if match_id is None or m["match"] == match_id)
    match_id = entry["match"]
    for version, board in spectator_checks:
        truth = server.get(f"/api/matches/{match_id}/replay?step={version}&seat=all")
        _spectator_saw_no_hidden_card(board, truth.get("view", truth))

    # Rematch: every human votes; a new match starts with the same seats (bot included).
    for player in players:
        player.page.locator("#rematch").click()
    for player in players:
        expect(player.page.locator("#table[data-over=false]")).to_be_visible(timeout=15_000)
        expect(player.page.locator("[data-kind=result]")).to_have_count(0)
    expect(aria_page.locator("#seats")).to_contain_text("bot · normal, bold")
    assert all(len(p.hand()) == 2 for p in players)
    aria_page.screenshot(path=shots / "rematch.png")

    # History lists the finished match; its replay steps both ways and can reveal everything.
    aria_page.goto(base + "/history")
    row = aria_page.locator(f'tr[data-match="{match_id}"]')
    expect(row).to_contain_text("Aria")
    row.get_by_role("link", name="Replay").click()
    expect(aria_page.locator("#table[data-version='0']")).to_be_visible()
    aria_page.get_by_role("button", name="Forward ▶").click()
    expect(aria_page.locator("#table[data-version='1']")).to_be_visible()
    expect(aria_page.locator("#last-choice")).to_contain_text(" chose ")
    aria_page.get_by_role("button", name="◀ Back").click()
    expect(aria_page.locator("#table[data-version='0']")).to_be_visible()
    expect(aria_page.locator("#last-choice")).to_have_text("The deal, before any choice.")
    aria_page.get_by_label("Seen from").select_option("all")
    expect(aria_page.locator("[data-kind=board] .card.down")).to_have_count(0)
    aria_page.get_by_label("Seen from").select_option("1")
    expect(aria_page.locator("[data-kind=board] .card.down").first).to_be_visible()
    aria_page.screenshot(path=shots / "replay.png")

    for page in pages:
        assert page.js_errors == [], page.js_errors
    for context in (aria_ctx, blake_ctx, casey_ctx, watch_ctx):
        context.close()
    assert time.monotonic() - started < 150


def _spectator_saw_no_hidden_card(board: dict, truth: dict) -> None:
    """`board` (the spectator's page at some version) against `truth` (the seat=all replay
    of that version): each player's unrevealed cards show face down, with no label."""
    hidden = {c["player"]: c["cards"] for c in truth["components"] if c["kind"] == "hand" and not c.get("title")}
    assert set(hidden) == set(board), (hidden, board)
    for name, cards in hidden.items():
        seen = board[name]
        face_down = [c for c in seen if c["card"] == "hidden"]
        assert len(face_down) == len(cards), f"{name}: {len(cards)} hidden cards, spectator saw {seen}"
        assert all(c["text"] == "" and not c["up"] for c in face_down), seen
        # Every card the spectator sees face up is a lost (revealed) one.
        assert all(c["lost"] for c in seen if c["card"] != "hidden"), seen


def test_a_timer_running_out_plays_the_default(server, browser, shots):
    """Nobody clicks: when the 2 s turn timer runs out, the server plays the game's
    default, Income, for Aria."""
    context, page = _open(browser, DESKTOP)
    _create_room(page, server.base, "Aria", bots=[("random", None)], seats=2,
                 options={"turn_timer": 2, "window_timer": 2})
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#table[data-version]")).to_be_visible()
    aria = Player("Aria", page)
    # Wait for Aria's own turn with the countdown showing (the bot may have gone first).
    wait_until(lambda: aria.options() and "Income" in aria.options(), 15, "Aria's turn", page)
    countdown = page.locator(".countdown")
    expect(countdown).to_be_visible()
    left = float(countdown.get_attribute("data-left"))
    assert 0 <= left <= 2.0
    page.screenshot(path=shots / "timer.png")
    before = sum("Aria declares Income" in line for line in aria.log())
    wait_until(lambda: sum("Aria declares Income" in line for line in aria.log()) > before, 10,
               "the timer to play Income for Aria", page)
    assert page.js_errors == []
    context.close()
