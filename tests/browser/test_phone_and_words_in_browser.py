"""What people noticed playing on a phone and in other languages, checked as they would see it:

- on a 390×844 phone your cards are in sight above the decision panel stuck to the bottom
  of the screen (it covered them), the recent-events strip above them (the scroll to them
  hid it), and a long card name fits its card ("Ambassadeur");
- when the match ends the winner and "Play again" (the rematch vote, yours alone against bots) are in sight,
  beside the way to another game, no banner over them, and a rematch starts
  without the last match's banners;
- a chat line said while the chat is far below the table peeks at the top of the screen,
  under an outcome banner showing there (it covered the banner);
- a player whose tab closed is marked offline on their tile until they come back;
- a Chinese list of players has separators ("Aria、Ada、Basil", not "AriaAdaBasil");
- what the timer will choose names the card ("Lose · Assassin", not "Lose");
- from the keyboard, a targeted action or a tapped card moves the focus on to its targets;
- a list on a tile reads as words, and "—" when it is empty;
- a browser set to German gets the table in German on a 360 px phone: the German edition's card
  names ("Großherzog", "Attentäterin"), a German decision heading, no English, and every long
  compound fitting its card or button ("Entwicklungs-hilfe" and BANG!'s "Gemischt-waren-laden"
  break where the catalog's soft hyphens allow).
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .pages import DESKTOP, NARROW, PHONE, english_on_page, english_strings, open_page, shot, sit_down
from .players import Player, pick, wait_until


def _seated(server, browser, viewport, name="Aria", seats=2, bots=1, lang=None, **extra):
    """A page at a room of `seats` (the rest heuristic bots) whose match has started."""
    joined = server.post("/api/rooms", {"game": "coup", "name": name, "seats": seats,
                                        "bots": [{"kind": "heuristic"}] * bots,
                                        "options": {"turn_timer": 120, "window_timer": 60}, "private": True})
    context, page = open_page(browser, viewport, lang=lang, **extra)
    sit_down(page, server, joined)
    expect(page.locator("#you-are")).to_contain_text(name)
    return context, page, joined


def _my_turn(player: Player, timeout=60) -> None:
    """Pass every window until it is this player's turn to choose an action (or the match ends)."""
    def turn():
        options = player.options()
        if options and "Income" not in options:
            player.click("Pass" if "Pass" in options else options[0])
            return False
        return "Income" in options or player.over()
    wait_until(turn, timeout, "Aria's turn", player.page)


def _in_sight(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= -1 and box["y"] + box["height"] <= page.viewport_size["height"] + 1


def overflowing_card_names(page, games: list[str]) -> list[str]:
    """The card names of ``games``, in the page's language, whose label is wider than a card on the
    board of the table shown (the smallest card there is)."""
    return page.evaluate("""async (games) => {
        const {card} = await import('/static/cards.js');
        const {gameTable} = await import('/static/i18n.js');
        const holder = document.querySelector('[data-kind=board] .player .cards');
        const out = [];
        for (const game of games) {
            const table = await gameTable(game);
            for (const name of Object.keys(table.about)) {
                const node = card(table, name, {});
                holder.append(node);
                const label = node.querySelector('.card-label');
                if (label.scrollWidth > node.clientWidth) out.push(label.textContent);
                node.remove();
            }
        }
        return out;
    }""", games)



def test_on_a_phone_your_cards_show_above_the_decision_and_the_rematch_is_in_sight(server, browser):
    context, page, _ = _seated(server, browser, PHONE, seats=3, bots=2, lang="fr", is_mobile=True, has_touch=True)
    page.get_by_role("button", name="Lancer la partie").click()
    aria = Player("Aria", page)
    _my_turn(aria)
    panel = page.locator("#table .decision.mine")
    expect(panel.locator("[data-option='Income']")).to_be_visible()
    hand, bar = page.locator("#table .my-hand").bounding_box(), panel.bounding_box()
    assert hand["y"] >= 0 and hand["y"] + hand["height"] <= bar["y"] + 1, (hand, bar)
    assert bar["height"] <= PHONE["height"] * 0.5 + 1
    # What just happened stays in sight above your cards (the scroll to them hid it).
    strip = page.locator("#recent").bounding_box()
    assert strip["y"] >= -1 and strip["y"] + strip["height"] <= hand["y"] + 1, (strip, hand)
    shot(page, "phone-hand-above-decision")
    # Steal opens its targets where they can be tapped, inside the panel that scrolls.
    panel.locator("[data-group='Steal']").click()
    target, bar = panel.locator(".targets .chip-target").first.bounding_box(), panel.bounding_box()
    assert bar["y"] <= target["y"] and target["y"] + target["height"] <= bar["y"] + bar["height"], (target, bar)
    panel.locator("[data-group='Steal']").click()
    # Every card name fits its card, the long French ones on the board's small cards too.
    overflowing = overflowing_card_names(page, ["coup"])
    assert not overflowing, overflowing

    deadline_moves = 200
    while not aria.over() and deadline_moves:
        deadline_moves -= 1
        options = wait_until(lambda: aria.options() or aria.over(), 60, "a decision or the end", page)
        if options is True:
            break
        aria.click(pick(options, set()))
    expect(page.locator("#table")).to_have_attribute("data-over", "true")
    # Against bots alone the vote is yours: "Play again"; beside it, the way to another game.
    vote = page.get_by_role("button", name="Rejouer")
    expect(vote).to_be_visible()
    expect(page.get_by_role("link", name="Choisir un autre jeu")).to_have_attribute("href", "/")
    wait_until(lambda: _in_sight(page, "#room-bar") and _in_sight(page, "[data-kind=result]"), 5,
               "the winner and the rematch vote in sight", page)
    # No outcome banner floats over them (the strip above says how it ended).
    expect(page.locator("#banners [data-banner]")).to_have_count(0)
    shot(page, "phone-match-over")
    vote.click()
    expect(page.locator("#table")).to_have_attribute("data-over", "false", timeout=15_000)
    expect(page.locator("#banners [data-banner]")).to_have_count(0)
    assert not page.js_errors
    context.close()


def test_a_chat_line_peeks_on_a_phone_and_chinese_lists_have_separators(server, browser):
    # five seats: the chat, right under the table during a match, is below the bottom of the phone's screen
    context, page, joined = _seated(server, browser, DESKTOP, seats=5, bots=3)
    phone, blaise = open_page(browser, PHONE, lang="zh", is_mobile=True, has_touch=True)
    blaise.goto(page.locator("#share-link").input_value())
    blaise.locator("#join-name").fill("Blaise")
    blaise.locator("#join").click()
    expect_seat_zh = blaise.locator("#you-are")
    expect(expect_seat_zh).to_contain_text("Blaise")
    page.get_by_role("button", name="Start the game").click()
    expect(blaise.locator("#table[data-version]")).to_be_visible(timeout=10_000)
    # The log's first line lists the players in seat order, separated as Chinese separates them.
    expect(blaise.locator("#log li").first).to_contain_text("Aria、Blaise、Ada")

    blaise.evaluate("scrollTo(0, 0)")
    page.locator("#chat-text").fill("Bonne chance !")
    page.locator("#chat-text").press("Enter")
    peek = blaise.locator(".chat-peek")
    expect(peek).to_have_text("Aria Bonne chance !")
    expect(page.locator(".chat-peek")).to_have_count(0)  # your own line, and the chat is in sight
    shot(blaise, "phone-chat-peek")
    peek.click()
    expect(blaise.locator("#chat-text")).to_be_focused()
    expect(blaise.locator("#chat")).to_be_in_viewport()
    assert not page.js_errors and not blaise.js_errors

    # Blaise's tab closes: his tile says he is offline; the room link brings him back to his seat.
    link = blaise.url
    blaise.close()
    away = page.locator("[data-kind=board] .player[data-player='Blaise'] .badge-away")
    expect(away).to_have_text("offline")
    again = phone.new_page()
    again.goto(link)
    expect(again.locator("#you-are")).to_contain_text("Blaise")
    expect(away).to_have_count(0)
    phone.close()
    context.close()


def test_what_the_timer_will_choose_names_the_card(server, browser):
    context, page = open_page(browser, DESKTOP)
    page.goto(server.base + "/history")
    said = page.evaluate("""async () => {
        const {optionText} = await import('/static/decision.js');
        const {gameTable, setupI18n} = await import('/static/i18n.js');
        await setupI18n();
        const table = await gameTable('coup');
        return optionText(table, {label: 'Lose', card: 'Assassin'}, 'Lose Assassin', new Set());
    }""")
    assert said == "Lose · Assassin"
    context.close()


def test_keyboard_only_a_targeted_action_goes_on_to_its_targets(server, browser):
    context, page, _ = _seated(server, browser, DESKTOP)
    page.get_by_role("button", name="Start the game").click()
    aria = Player("Aria", page)
    _my_turn(aria)
    page.locator("#table .decision.mine [data-option='Income']").focus()
    steal = page.locator("#table .decision.mine [data-group='Steal']")
    while not page.evaluate("document.activeElement.dataset.group === 'Steal'"):
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    target = page.locator("#table .decision.mine .targets [data-option='Steal Ada']")
    expect(target).to_be_focused()
    expect(steal).to_have_attribute("aria-expanded", "true")
    # The focus is drawn, not only the colour of the button.
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("Enter")
    expect(page.locator("#log")).to_contain_text("Aria declares Steal on Ada", timeout=10_000)
    context.close()


def test_an_empty_list_on_a_tile_reads_as_a_dash_and_a_list_as_words(server, browser):
    """A DSL game's list field (Love Letter's discards) before anything is in it, and after."""
    context, page = open_page(browser, DESKTOP)
    page.goto(server.base + "/history")
    stats = page.evaluate("""async () => {
        const {renderView} = await import('/static/render.js');
        const {setupI18n} = await import('/static/i18n.js');
        await setupI18n();
        const root = document.createElement('section');
        document.querySelector('main').prepend(root);
        const row = (name, discards) => ({name, alive: true, active: false, cards: [], tags: [], table: [],
            stats: [{label: 'discards', value: discards}]});
        renderView(root, {game: 'love_letter', title: 'Love Letter', version: 3, seat: 0, you: 'Aria',
            players: ['Aria', 'Blake'], phase: {id: 1, name: 'Play'}, waiting: [], decision: null, state: {},
            components: [{key: 'board', kind: 'board', players: [row('Aria', []), row('Blake', ['Guard', 'Priest'])]}],
            log: [], over: false, winners: []}, {});
        return [...root.querySelectorAll('[data-stat=discards] dd')].map(d => d.textContent);
    }""")
    assert stats == ["—", "Guard, Priest"]
    context.close()


def test_keyboard_only_a_card_goes_on_to_what_it_can_do(server, browser):
    joined = server.post("/api/rooms", {"game": "bang", "name": "Aria", "seats": 3,
                                        "bots": [{"kind": "random"}] * 2, "options": {}, "private": True})
    context, page = open_page(browser, DESKTOP)
    sit_down(page, server, joined)
    page.get_by_role("button", name="Start the game").click()
    aria = Player("Aria", page)
    playable = page.locator("#table .decision.mine .pool .pick-card:not([disabled]):not([aria-disabled=true])")

    def a_card_to_play():
        if playable.count():
            return True
        options = aria.options()
        if options:  # a response (a Missed!, a discard): let it be the first
            aria.click(options[0])
        return False
    wait_until(a_card_to_play, 90, "a card Aria may play", page)
    playable.first.focus()
    page.keyboard.press("Enter")
    focused = page.evaluate("!!document.activeElement.closest('.card-actions') && document.activeElement.tagName")
    assert focused == "BUTTON"
    context.close()


#: The German edition's names (Heidelberger Spieleverlag), by the card the game sends.
GERMAN_COUP = {"Duke": "Großherzog", "Assassin": "Attentäterin", "Captain": "Captain",
               "Ambassador": "Botschafter", "Contessa": "Contessa"}


def test_a_german_phone_shows_german_cards_and_every_long_word_fits(server, browser):
    joined = server.post("/api/rooms", {"game": "coup", "name": "Aria", "seats": 2,
                                        "bots": [{"kind": "heuristic"}],
                                        "options": {"turn_timer": 120, "window_timer": 60}, "private": True})
    context, page = open_page(browser, NARROW, locale="de-DE", is_mobile=True, has_touch=True)
    page.goto(server.base + "/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#create-title")).to_have_text("Raum erstellen")
    expect(page.locator("#language option[value=de]")).to_have_text("Deutsch")
    sit_down(page, server, joined)
    expect(page.locator("#you-are")).to_contain_text("Aria")
    page.get_by_role("button", name="Partie starten").click()
    aria = Player("Aria", page)
    _my_turn(aria)
    panel = page.locator("#table .decision.mine")
    expect(panel.locator("#decision-prompt")).to_have_text(re.compile(r"^Wähle deine Aktion"))
    expect(panel.locator("[data-option='Income']")).to_contain_text("Einkommen")
    # The characters an action claims are named as the German edition names them, whatever the deal.
    expect(panel.locator("[data-option='Tax']")).to_contain_text("Steuern · Großherzog")
    expect(panel.locator("[data-option='Exchange']")).to_contain_text("Austausch · Botschafter")
    cards = page.eval_on_selector_all("[data-kind=hand] .card.secret",
                                      "cards => cards.map(c => [c.dataset.card, c.querySelector('.card-label').textContent])")
    assert cards and all(label == GERMAN_COUP[card] for card, label in cards), cards
    assert not english_on_page(page, english_strings("de", ["coup"]))
    shot(page, "phone-de-coup")

    # Nothing is wider than the phone, no button's words spill out of it, and every card name of
    # Coup and BANG! fits a board card, the smallest there is.
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    spilling = page.eval_on_selector_all("#table button", """buttons => buttons
        .filter(b => b.offsetParent && b.scrollWidth > b.clientWidth + 1).map(b => b.textContent)""")
    assert not spilling, spilling
    overflowing = overflowing_card_names(page, ["coup", "bang"])
    assert not overflowing, overflowing
    assert not page.js_errors
    context.close()


def test_the_invite_link_and_its_copy_button_stay_inside_the_seats_panel_in_german(server, browser):
    """At desktop width the seats panel is narrow: "Kopieren" is longer than "Copy", and the row must shrink
    its link rather than push the button past the panel's edge."""
    joined = server.post("/api/rooms", {"game": "bang", "name": "Zoe", "seats": 4,
                                        "bots": [{"kind": "random"}] * 3, "options": {}, "private": True})
    context, page = open_page(browser, DESKTOP, lang="de")
    sit_down(page, server, joined)
    copy = page.get_by_role("button", name="Kopieren")
    expect(copy).to_be_visible()
    button = copy.bounding_box()
    panel = page.locator("#share-link").locator("xpath=ancestor::section[1]").bounding_box()
    assert button["x"] + button["width"] <= panel["x"] + panel["width"] - 4, (button, panel)


def test_on_a_narrow_phone_a_long_game_name_wraps_and_the_room_code_stays_whole(server, browser):
    """"The Resistance: Avalon · Room 7KQ2" is wider than a 360 px top bar: it was cut ("Loup-Garou · Sa…")."""
    joined = server.post("/api/rooms", {"game": "avalon", "name": "Aria", "seats": 5, "bots": [{"kind": "random"}] * 4,
                                        "options": {}, "private": True})
    context, page = open_page(browser, NARROW, is_mobile=True, has_touch=True)
    sit_down(page, server, joined)
    title = page.locator("#room-title")
    expect(title).to_have_text(f"The Resistance: Avalon · Room {joined['room']}")
    expect(title.locator(".room-code")).to_be_in_viewport(ratio=1)
    assert title.evaluate("n => n.scrollWidth <= n.clientWidth && n.querySelector('.room-code').getClientRects().length == 1")
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    context.close()


def _boxes_apart(page, first: str, second: str) -> bool:
    """Whether the two elements' boxes on the screen do not overlap."""
    return page.evaluate("""([a, b]) => {
        const p = document.querySelector(a).getBoundingClientRect(), q = document.querySelector(b).getBoundingClientRect();
        return p.bottom <= q.top || q.bottom <= p.top || p.right <= q.left || q.right <= p.left;
    }""", [first, second])


def test_on_a_phone_a_chat_line_peeks_under_an_outcome_banner_not_over_it(server, browser):
    """Both float over the top of a phone's screen: the chat line covered the banner's title."""
    context, page, joined = _seated(server, browser, DESKTOP, seats=5, bots=3)
    phone, blaise = open_page(browser, PHONE, is_mobile=True, has_touch=True)
    blaise.goto(page.locator("#share-link").input_value())
    blaise.locator("#join-name").fill("Blaise")
    blaise.locator("#join").click()
    expect(blaise.locator("#you-are")).to_contain_text("Blaise")
    page.get_by_role("button", name="Start the game").click()
    friends = Player("Aria", page), Player("Blaise", blaise)

    def outcome() -> bool:  # the friends claim Tax and challenge every claim: soon an outcome is a banner
        if blaise.locator("#banners .banner").count():
            return True
        for friend in friends:
            options = friend.options()
            wanted = [o for o in ("Challenge", "Tax", "Pass") if o in options]
            if options:
                friend.click(wanted[0] if wanted else options[0])
        return False

    wait_until(outcome, 60, "an outcome banner on Blaise's phone", blaise)
    blaise.evaluate("scrollTo(0, 0)")  # the table in sight, the chat below it
    banner = blaise.locator("#banners .banner").first
    expect(banner).to_be_visible(timeout=10_000)
    page.locator("#chat-text").fill("Told you so")
    page.locator("#chat-text").press("Enter")
    peek = blaise.locator(".chat-peek")
    expect(peek).to_have_text("Aria Told you so")
    expect(banner).to_be_in_viewport()
    assert _boxes_apart(blaise, "#banners", ".chat-peek"), "the chat line covers the banner"
    shot(blaise, "phone-chat-peek-under-banner")
    # When the banner leaves, the line moves back up to the top of the screen.
    banner.locator(".banner-close").click()
    wait_until(lambda: blaise.evaluate("document.querySelector('.chat-peek')?.getBoundingClientRect().top") < 20,
               5, "the chat line back at the top", blaise)
    assert not page.js_errors and not blaise.js_errors
    phone.close()
    context.close()
