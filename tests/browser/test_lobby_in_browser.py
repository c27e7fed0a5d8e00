"""The lobby and the room's seat management, as a person uses them.

A private room with the timers off stays out of the open-rooms list; a second
person finds it by its code, takes a seat and leaves again, which frees the seat;
an unknown code says so.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .pages import assert_accessible, sit_down
from .players import expect_seat


def test_private_room_by_code_join_and_leave(server, browser, shots):
    host_ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    guest_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    errors: list[str] = []
    for page in (host, guest):
        page.on("pageerror", lambda error: errors.append(str(error)))

    host.goto(server.base + "/")
    host.get_by_label("Your name").fill("Dora")
    host.get_by_label("Game").select_option("coup")
    host.get_by_label("Seats at the table").fill("3")
    # An option with a fixed set of values is a list in the game's words.
    expect(host.get_by_label("Characters").locator("option")).to_have_text(["Ambassador (base game)", "Inquisitor"])
    host.get_by_label("Private room").check()
    host.get_by_label("Turn timer (seconds)").fill("")
    host.get_by_label("Window timer (seconds)").fill("")
    host.get_by_role("button", name="Create room").click()
    host.wait_for_url(re.compile(r"/room/\w+$"))
    expect_seat(host, "Dora")
    code = host.url.rsplit("/", 1)[1]
    room = server.get(f"/api/rooms/{code}")
    assert room["private"] is True
    assert room["options"]["turn_timer"] is None and room["options"]["window_timer"] is None

    # Private: not in the open rooms list, but reachable by its code.
    guest.goto(server.base + "/")
    expect(guest.locator("#rooms")).not_to_contain_text("Loading")
    expect(guest.locator(f'[data-room="{code}"]')).to_have_count(0)
    guest.get_by_label("Room code").fill(code.lower())
    guest.get_by_role("button", name="Go").click()
    guest.wait_for_url(re.compile(f"/room/{code}$"))
    expect(guest.locator("#you-are")).to_have_text("You are watching as a spectator.")
    guest.get_by_label("Your name").fill("Eli")
    guest.get_by_role("button", name="Take a seat").click()
    expect_seat(guest, "Eli")
    expect(host.locator("#seats")).to_contain_text("Eli")
    expect(guest.locator("#start")).to_have_count(0)
    expect(guest.locator("#room-bar")).to_contain_text("Waiting for Dora to start the game.")
    guest.screenshot(path=shots / "waiting-room-phone.png", full_page=True)

    # Leaving before the start frees the seat and forgets the token.
    guest.get_by_role("button", name="Leave room").click()
    guest.wait_for_url(server.base + "/")
    expect(host.locator("#seats .seat.open")).to_have_count(2)
    assert guest.evaluate(f"localStorage.getItem('intrigue:token:{code}')") is None

    # An unknown code says so.
    guest.goto(server.base + "/room/ZZZZ")
    expect(guest.locator("#table")).to_contain_text("There is no room ZZZZ")
    assert errors == [], errors
    host_ctx.close()
    guest_ctx.close()


def test_a_dropped_connection_comes_back_to_the_same_seat(server, browser):
    """The WebSocket drops mid-game (proxied through Playwright, then cut): the page says
    so, reconnects by itself with its token, and is back at the same seat."""
    joined = server.post("/api/rooms", {"game": "coup", "name": "Fay", "seats": 2, "bots": [{"kind": "random"}],
                                        "options": {}, "private": False})
    context = browser.new_context()
    page = context.new_page()
    sockets = []

    def proxy(socket):
        socket.connect_to_server()
        sockets.append(socket)

    page.route_web_socket(re.compile(r"/ws$"), proxy)
    sit_down(page, server, joined)
    expect_seat(page, "Fay")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#table[data-version]")).to_be_visible()
    hand = page.eval_on_selector_all("[data-kind=hand] .card.secret", "cards => cards.map(c => c.dataset.card)")

    sockets[-1].close(code=1001, reason="network gone")
    expect(page.locator("#connection")).not_to_have_attribute("data-state", "online")
    expect(page.locator("#connection")).to_have_attribute("data-state", "online", timeout=15_000)
    assert len(sockets) == 2, "the page should have opened a second connection"
    expect_seat(page, "Fay")
    again = page.eval_on_selector_all("[data-kind=hand] .card.secret", "cards => cards.map(c => c.dataset.card)")
    assert again and set(again) <= set(hand)
    context.close()


def test_the_lobby_speaks_the_browsers_language_and_passes_the_audit(server, browser):
    """A browser set to Chinese gets the lobby in Simplified Chinese (the games' names and
    lines too); the language menu switches it to Spanish and remembers; the page passes axe."""
    from .pages import NARROW, assert_accessible, open_page, shot

    context, page = open_page(browser, NARROW, locale="zh-CN")
    page.goto(server.base + "/")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(page.locator("#create-title")).to_have_text("创建房间")
    expect(page.locator("#game option[value=coup]")).to_have_text("政变")
    expect(page.locator("#games")).to_contain_text("西部隐藏身份")
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    shot(page, "lobby-zh-360")
    assert_accessible(page, "lobby in Chinese")
    page.get_by_label("语言").select_option("es")
    expect(page.locator("#create-title")).to_have_text("Crear una sala")
    page.goto(server.base + "/history")
    expect(page.locator("h1")).to_have_text("Partidas terminadas")
    assert_accessible(page, "history in Spanish")
    assert page.js_errors == []
    context.close()


def test_back_in_the_lobby_your_private_game_against_bots_is_one_click_away(server, browser):
    """A private room is listed nowhere: a newcomer who went back to the lobby mid-game could not
    find their game again. The lobby lists the rooms this browser holds a seat in, not yet over."""
    joined = server.post("/api/rooms", {"game": "coup", "name": "Gus", "seats": 2, "bots": [{"kind": "random"}],
                                        "options": {"turn_timer": None, "window_timer": None}, "private": True})
    context = browser.new_context()
    page = context.new_page()
    sit_down(page, server, joined)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#table[data-version]")).to_be_visible()
    page.get_by_role("link", name="Intrigue").click()
    mine = page.locator("#mine")
    expect(mine).to_be_visible()
    expect(mine.locator(f"[data-room='{joined['room']}']")).to_contain_text(f"Coup · {joined['room']}")
    assert_accessible(page, "the lobby with Your games")
    mine.get_by_role("link", name="Back to the table").click()
    expect(page).to_have_url(server.base + joined["url"])
    expect_seat(page, "Gus")
    context.close()
