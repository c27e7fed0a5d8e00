"""Coup in real browsers against a real server, as a newcomer meets it: the lobby, the rules
drawer, a whole game to a win (challenges, blocks, lost cards, an Exchange by tapping the
cards to keep), reload, a spectator, rematch, history and replay; and a timer running out.

Three browser contexts are three people (Aria at 1280×800, Casey on a 390×844 phone, Blake
at 1280×800); a heuristic bot takes the fourth seat, a spectator watches on a phone. The
players click what the page shows: an action then its target, a card to lose, the cards to
keep then Confirm. Each moment is photographed into artifacts/screenshots/ (coup-*.png), and
axe-core audits every page on the way.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from .pages import DESKTOP, PHONE, assert_accessible, open_page, shot
from .players import PANEL, Player, expect_seat, pick, wait_until


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
        shot(page, picture, full_page=True)
    page.get_by_role("button", name="Create room").click()
    page.wait_for_url(re.compile(r"/room/\w+$"))
    expect_seat(page, name)
    return page.url.rsplit("/", 1)[1]


def _teaches_the_first_action(page, phone: bool) -> None:
    """An action menu a newcomer can read: claims, costs, what cannot be done yet and why,
    what the timer will choose, Pass nowhere near it."""
    panel = page.locator(PANEL)
    expect(panel.locator("[data-option='Tax']")).to_have_text("Tax · Duke · +3 coins")
    expect(panel.locator("[data-option='Income']")).to_have_text("Income · +1 coin")
    expect(panel.locator("[data-group='Steal']")).to_contain_text("Steal · Captain")
    coins = int(page.locator("[data-kind=board] .player.you [data-stat=coins] dd").inner_text())
    if coins < 3:
        blocked = panel.locator("[data-unavailable='Assassinate']")
        expect(blocked).to_be_disabled()
        expect(blocked).to_have_text("Assassinate · Assassin · −3 coins · a card is lost")
        expect(panel.locator(".unavailable")).to_contain_text("You need 3 coins.")
    expect(panel.locator(".timer-default")).to_have_text("If time runs out: Income · +1 coin")
    # A targeted action opens a row of targets, each a player in their colour.
    panel.locator("[data-group='Steal']").click()
    expect(panel.locator(".targets [data-option^='Steal ']").first).to_be_visible()
    panel.locator("[data-group='Steal']").click()
    assert page.evaluate(f"getComputedStyle(document.querySelector('{PANEL}')).position") == "sticky"
    if phone:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_three_people_play_coup_to_a_win_then_rematch(server, browser):
    base = server.base
    aria_ctx, aria_page = open_page(browser, DESKTOP)
    blake_ctx, blake_page = open_page(browser, DESKTOP)
    casey_ctx, casey_page = open_page(browser, PHONE, has_touch=True)
    watch_ctx, watch_page = open_page(browser, PHONE)
    pages = [aria_page, blake_page, casey_page, watch_page]

    # Aria creates a 4-seat room with one heuristic bot; the lobby passes the audit.
    aria_page.goto(base + "/")
    assert_accessible(aria_page, "lobby")
    code = _create_room(aria_page, base, "Aria", bots=[("heuristic", "bold")], seats=4, picture="coup-lobby-desktop")
    expect(aria_page.locator("#seats")).to_contain_text("bot · normal, bold")
    assert "Bot 1" not in aria_page.locator("#seats").inner_text()  # a friendly name, not "Bot 1"
    assert_accessible(aria_page, "waiting room")

    # The rules drawer teaches the game before it starts: a cheat sheet of actions.
    aria_page.get_by_role("button", name="Rules").click()
    sheet = aria_page.locator("dialog#rules")
    expect(sheet).to_be_visible()
    expect(sheet.locator("h2")).to_have_text("How to play Coup")
    expect(sheet.locator("tr", has_text="Tax")).to_contain_text("Duke")
    expect(sheet.locator("tr", has_text="Foreign Aid")).to_contain_text("Duke")  # blocked by
    expect(sheet).to_contain_text("When time runs out")
    shot(aria_page, "coup-rules-desktop")
    assert_accessible(aria_page, "rules drawer")
    aria_page.keyboard.press("Escape")
    expect(sheet).to_be_hidden()

    # Blake finds it in the lobby's open rooms; Casey follows the invite link on her phone.
    blake_page.goto(base + "/")
    blake_page.locator(f'[data-room="{code}"]').get_by_role("link", name="Join").click()
    blake_page.get_by_label("Your name").fill("Blake")
    blake_page.get_by_role("button", name="Take a seat").click()
    expect_seat(blake_page, "Blake")
    casey_page.goto(aria_page.locator("#share-link").input_value())
    shot(casey_page, "coup-lobby-phone", full_page=True)
    casey_page.get_by_label("Your name").fill("Casey")
    casey_page.get_by_role("button", name="Take a seat").click()
    expect_seat(casey_page, "Casey")
    expect(aria_page.locator("#seats .seat.open")).to_have_count(0)
    # the host is told what to do, the others whom they wait for
    expect(aria_page.locator("#table h2")).to_have_text("Every seat is taken: press “Start the game” when you are ready")
    expect(blake_page.locator("#table h2")).to_have_text("Every seat is taken: waiting for Aria to start")
    shot(aria_page, "coup-waiting-room")

    # Only the host has a Start button.
    expect(blake_page.locator("#start")).to_have_count(0)
    aria_page.get_by_role("button", name="Start the game").click()
    players = [Player("Aria", aria_page), Player("Blake", blake_page), Player("Casey", casey_page)]
    for player in players:
        expect(player.page.locator("#table[data-version]")).to_be_visible(timeout=10_000)
        assert len(player.hand()) == 2, f"{player.name} should see two influences"
        # Your own cards are shown once, not on your tile and again in your hand.
        assert player.page.locator(".card.secret").count() == 2
    # On a phone the room title stays on one line and the page never scrolls sideways.
    title = casey_page.locator("#room-title")
    assert title.evaluate("n => n.scrollHeight <= parseFloat(getComputedStyle(n).lineHeight) * 1.5")
    assert casey_page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Chat is shown as text, never as HTML, with the speaker in their colour.
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

    wanted = {"challenge", "block", "exchange"}
    seen: set[str] = set()
    awaiting = None
    clicks = 0
    reloaded = False
    spectator_checks: list[tuple[int, dict]] = []
    next_check = 1
    deadline = time.monotonic() + 150
    while not all(p.over() for p in players):
        assert time.monotonic() < deadline, "the game did not finish in 150 s"
        acted = False
        for player in players:
            options = player.options()
            if not options:
                continue
            phone = player.page is casey_page
            tag = "phone" if phone else "desktop"
            if "Income" in options and f"turn-{tag}" not in seen:
                _teaches_the_first_action(player.page, phone)
                shot(player.page, f"coup-your-turn-{tag}")
                seen.add(f"turn-{tag}")
            if any(o.startswith("Lose ") for o in options) and "lose" not in seen:
                # Losing a card: the cards themselves are the buttons.
                pool = player.page.locator(f"{PANEL} .pool .pick-card")
                expect(pool.first).to_be_visible()
                assert player.page.locator(f"{PANEL} button[data-option^='Lose ']").count() == 0  # until a card is tapped
                shot(player.page, f"coup-losing-a-card-{tag}")
                seen.add("lose")
            if any(o.startswith("Keep ") for o in options) and "exchange" not in seen:
                # Exchange: tap the cards to keep (the drawn two beside your own), then Confirm.
                pool = player.page.locator(f"{PANEL} [data-choices] .pick-card")
                expect(pool.first).to_be_visible()
                assert pool.count() in (3, 4)  # your one or two cards and the two drawn
                assert player.page.locator(f"{PANEL} button[data-option^='Keep ']").count() == 0  # until cards are tapped
                shot(player.page, f"coup-exchange-{tag}")
                seen.add("exchange")
            if player is players[0] and "keyboard" not in seen and "Pass" in options:
                # Everything is playable by keyboard: Tab to Pass, press Enter.
                aria_page.locator("#table").focus()
                for _ in range(40):
                    aria_page.keyboard.press("Tab")
                    if aria_page.evaluate("document.activeElement.dataset.option") == "Pass":
                        break
                if aria_page.evaluate("document.activeElement.dataset.option") == "Pass":
                    aria_page.keyboard.press("Enter")
                    expect(aria_page.locator(f"{PANEL} .chosen, #table[data-mine=false]").first).to_be_attached()
                    seen.add("keyboard")
                    clicks += 1
                    acted = True
                    continue
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
                awaiting = player  # the outcome follows: a card shown, or a card lost (maybe after a choice)
            elif choice.startswith("Block"):
                expect(player.page.locator("#log")).to_contain_text(
                    re.compile(f"{player.name} claims {choice.split()[-1]} to block"))
                expect(player.page.locator("#banners [data-banner=block]")).to_be_visible()
                shot(player.page, f"coup-block-{tag}")
                seen.add("block")
        if awaiting is not None:
            # The challenge's outcome is told on the table: the claim proven, or a card lost.
            outcome = awaiting.page.locator("#banners [data-banner=proof], #banners [data-banner=lose]")
            if outcome.count():
                shot(awaiting.page, "coup-challenge-outcome")
                seen.add("challenge-outcome")
                awaiting = None
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
            if len(spectator_checks) == 2:
                shot(watch_page, "coup-spectator-phone")
                assert_accessible(watch_page, "spectator's table")
        if clicks == 8 and "playing-audit" not in seen:
            assert_accessible(aria_page, "a table in play")
            seen.add("playing-audit")
        if not acted:
            aria_page.wait_for_timeout(40)

    # Someone won; every page shows the winner banner.
    for page in (aria_page, blake_page, casey_page, watch_page):
        expect(page.locator("[data-kind=result]")).to_be_visible()
    for page in (casey_page, watch_page):
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "wider than the phone"
    winner_text = aria_page.locator("[data-kind=result] h2").inner_text()
    assert "wins" in winner_text.lower() or "winner" in winner_text.lower(), winner_text
    assert aria_page.locator(".badge-turn").count() == 0  # the winner keeps no "turn" badge
    # Under the winner, what ended the match: the log's last lines, not the table's last claim
    # ("Blake declares Tax" read as if it came after the end).
    expect(aria_page.locator("[data-kind=result] [data-kind=ending]")).to_contain_text("How it ended")
    expect(aria_page.locator("[data-kind=ending] li").last).to_have_text(aria_page.locator("#log li").last.inner_text())
    expect(aria_page.locator("#table [data-kind=text]")).to_have_count(0)
    shot(aria_page, "coup-game-over-desktop")
    shot(casey_page, "coup-game-over-phone")
    assert_accessible(aria_page, "game over")
    every_click = [click for player in players for click in player.clicks]
    assert "Challenge" in every_click and any(c.startswith("Block") for c in every_click), every_click
    assert reloaded and spectator_checks and {"turn-desktop", "turn-phone", "keyboard", "challenge-outcome"} <= seen, seen

    # Alerts: Aria heard her turns (a sound made with WebAudio), the live region said so.
    assert int(aria_page.evaluate("document.documentElement.dataset.sounds || 0")) >= 1
    assert aria_page.locator("#alert").inner_text().startswith("Your turn:")
    # One colour per player: Blake's tile, Blake's name in the log and in the chat.
    colour = blake_page.evaluate("""() => {
        const tile = document.querySelector('[data-kind=board] .player[data-player=Blake]');
        const log = [...document.querySelectorAll('#log .pname')].find(n => n.textContent === 'Blake');
        const chat = [...document.querySelectorAll('#chat .pname')].find(n => n.textContent === 'Blake');
        return [getComputedStyle(tile).borderLeftColor, getComputedStyle(log).color, getComputedStyle(chat).color];
    }""")
    assert colour[0] == colour[1] == colour[2], colour
    # Card art: each face-up card carries its icon.
    assert aria_page.locator("[data-kind=board] .card.up svg.art").count() >= 1
    # The recent-events strip is at the top of the phone's page.
    strip = casey_page.locator("#recent")
    expect(strip.locator("li").first).to_be_visible()
    assert strip.bounding_box()["y"] < casey_page.locator("#table").bounding_box()["y"]

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
    shot(aria_page, "coup-rematch")

    # History lists the finished match; its replay steps both ways and can reveal everything.
    aria_page.goto(base + "/history")
    assert_accessible(aria_page, "history")
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
    # Everything revealed: a line only one player saw says whose it was, never "You drew".
    expect(aria_page.locator("#log")).to_contain_text("(seen by")
    assert not [line for line in aria_page.eval_on_selector_all("#log li", "ls => ls.map(l => l.textContent)")
                if line.startswith("You ")]
    aria_page.get_by_label("Seen from").select_option("1")
    expect(aria_page.locator("[data-kind=board] .card.down").first).to_be_visible()
    # the label sits beside its menu, even when the bar wraps onto two lines
    label, menu = (aria_page.locator(s).bounding_box() for s in ("label[for=seat]", "#seat"))
    assert abs((label["y"] + label["height"] / 2) - (menu["y"] + menu["height"] / 2)) < 8, (label, menu)
    shot(aria_page, "coup-replay")
    assert_accessible(aria_page, "replay")

    for page in pages:
        assert page.js_errors == [], page.js_errors
    for context in (aria_ctx, blake_ctx, casey_ctx, watch_ctx):
        context.close()


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


def test_a_timer_running_out_plays_the_default_and_says_so(server, browser):
    """Nobody clicks: the prompt said the timer would choose Income, the 2 s turn timer runs
    out, the server plays Income for Aria, and the table says time ran out: a banner, and
    "(time ran out)" in the log. A sound rang at her turn and again with 5 s left; the
    theme follows the system (light here) and the toggle switches it; alerts are opt-in."""
    context, page = open_page(browser, PHONE, color_scheme="light")
    context.grant_permissions(["notifications"])
    _create_room(page, server.base, "Aria", bots=[("random", None)], seats=2,
                 options={"turn_timer": 2, "window_timer": 2})
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    expect(page.locator("#theme")).to_have_text("Light theme")
    page.locator("#theme").click()
    expect(page.locator("#theme")).to_have_text("Dark theme")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    notify = page.locator("#notify")
    expect(notify).to_have_attribute("aria-pressed", "false")
    notify.click()  # a click also lets the page make sounds
    expect(notify).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#table[data-version]")).to_be_visible()
    aria = Player("Aria", page)
    # Wait for Aria's own turn with the countdown showing (the bot may have gone first).
    wait_until(lambda: aria.options() and "Income" in aria.options(), 15, "Aria's turn", page)
    countdown = page.locator(".countdown")
    expect(countdown).to_be_visible()
    left = float(countdown.get_attribute("data-left"))
    assert 0 <= left <= 2.0
    expect(page.locator(".timer-default")).to_have_text("If time runs out: Income · +1 coin")
    shot(page, "coup-timer-phone")
    # (An earlier window may have timed out too: "Time ran out for Aria" with no line of hers.)
    income = page.locator("#log li[data-timeout]", has_text="Aria declares Income. (time ran out)")
    wait_until(lambda: income.count() > 0, 10, "the timer to play Income for Aria", page)
    expect(page.locator("#banners [data-banner=timeout]").first).to_contain_text("Time ran out for Aria")
    shot(page, "coup-timeout-phone")
    sounds = page.evaluate("document.documentElement.dataset.sounds")
    assert sounds is not None and int(sounds) >= 2, sounds  # the turn chime, then the 5 s warning
    page.reload()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"  # the choice is kept
    assert page.js_errors == []
    context.close()
