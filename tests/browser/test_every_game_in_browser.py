"""Every other installed game plays to its end in the browser through the same client, each
in another language and at another width: BANG! in French at 1280×800, DSFGS in Spanish on
a 390×844 phone, Werewolf in French at 1280×800, Avalon in Chinese on a 390×844 phone,
Heist (no table data of its own) in English at 360 px.

One person and random bots; the person clicks whatever the page offers (seeded), the way a
person does (a card, then its target). The tests prove the generic client renders each
game and never gets stuck, that no English string reaches a page shown in French,
Spanish or Chinese during a whole game (lobby, table, spectator, replay), that the rules drawer
teaches every game (made from the DSL for games without a sheet), that cards are picked
as cards with their suit and rank, and that every page passes the axe-core audit. Each
moment is photographed into artifacts/screenshots/<game>-*.png.
"""

from __future__ import annotations

import random
import re
import time

import pytest
from playwright.sync_api import expect

from intrigue import games as game_registry

from .pages import DESKTOP, NARROW, PHONE, assert_accessible, english_on_page, english_strings, open_page, shot
from .players import PANEL, Player, expect_seat

CASES = {
    "bang": {"lang": "fr", "viewport": DESKTOP, "seats": 4, "rules": "Comment jouer à BANG!"},
    "dsfgs": {"lang": "es", "viewport": PHONE, "seats": 5, "rules": "Cómo se juega a DSFGS"},
    "heist": {"lang": None, "viewport": NARROW, "seats": 4, "rules": "How to play Heist"},
    "werewolf": {"lang": "fr", "viewport": DESKTOP, "seats": 6, "rules": "Comment jouer à Loup-Garou"},
    "avalon": {"lang": "zh", "viewport": PHONE, "seats": 5, "rules": "抵抗组织：阿瓦隆玩法"},
}
OTHER_GAMES = [g for g in game_registry.installed() if g != "coup"]


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_game_plays_to_the_end_with_bots(server, browser, game):
    case = CASES.get(game, {"lang": None, "viewport": DESKTOP, "seats": 4, "rules": None})
    lang, viewport = case["lang"], case["viewport"]
    info = next(g for g in server.get("/api/games") if g["id"] == game)
    seats = max(info["min_players"], min(case["seats"], info["max_players"]))
    joined = server.post("/api/rooms", {"game": game, "name": "Aria", "seats": seats,
                                        "bots": [{"kind": "random"}] * (seats - 1),
                                        "options": {"turn_timer": 6, "window_timer": 6}, "private": False})
    context, page = open_page(browser, viewport, lang=lang)
    english = english_strings(lang, [game]) if lang else []

    def no_english(where: str) -> None:
        if english:
            found = english_on_page(page, english)
            assert not found, f"{game} in {lang}, {where}: English on the page: {found}"

    # The lobby, in the language.
    page.goto(server.base + "/")
    expect(page.locator("#games li").first).to_be_visible()
    no_english("lobby")
    shot(page, f"{game}-lobby")
    page.evaluate("([key, token]) => localStorage.setItem(key, token)",
                  [f"intrigue:token:{joined['room']}", joined["token"]])
    page.goto(server.base + joined["url"])
    expect(page.locator("#seats .seat")).to_have_count(seats)
    if lang is None:
        expect_seat(page, "Aria")
    # The rules drawer teaches the game (made from its declaration when it ships no sheet).
    page.locator("#rules-button").click()
    dialog = page.locator("dialog#rules")
    if case["rules"]:
        expect(dialog.locator("h2")).to_have_text(case["rules"])
    expect(dialog.locator(".sheet-section").first).to_be_visible()
    if game in ("dsfgs", "heist"):
        expect(dialog.locator("[data-section=roles] dt")).to_have_count(2)
        expect(dialog.locator("[data-section=turn] li").first).to_be_visible()
    no_english("rules drawer")
    shot(page, f"{game}-rules")
    assert_accessible(page, f"{game} rules drawer")
    page.keyboard.press("Escape")
    page.locator("#start").click()
    aria = Player("Aria", page)
    expect(page.locator("#table[data-version]")).to_be_visible(timeout=10_000)

    rng = random.Random(7)
    seen: set[str] = set()
    spectator = None
    deadline = time.monotonic() + 240  # a guard, not a speed test (CI shares 2 cores)
    for match in range(3):
        last, moved = aria.version(), time.monotonic()
        while not aria.over():
            now = time.monotonic()
            if aria.version() != last:
                last, moved = aria.version(), now
                if len(aria.clicks) % 4 == 0:
                    no_english(f"version {last}")
            assert now - moved < 20, f"{game} is stuck at version {last} ({len(aria.clicks)} clicks)"
            assert now < deadline, f"{game} did not finish in 240 s ({len(aria.clicks)} clicks)"
            # read at once: a banner may leave between listing it and reading it (it would be waited for)
            for kind in page.eval_on_selector_all("#banners [data-banner]", "els => els.map(e => e.dataset.banner)"):
                if kind and f"banner-{kind}" not in seen:
                    seen.add(f"banner-{kind}")
                    shot(page, f"{game}-banner-{kind}")
            options = aria.options()
            if not options:
                page.wait_for_timeout(40)
                continue
            if "turn" not in seen:
                seen.add("turn")
                shot(page, f"{game}-your-turn")
                assert_accessible(page, f"{game} at the table")
                if viewport["width"] <= 390:
                    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            if game == "heist" and "question" not in seen:
                # The question is the phase's player text, not "Your choice".
                seen.add("question")
                expect(page.locator("#decision-prompt")).to_have_text(
                    re.compile(r"Accuse a free player of being the thief|Is the accused the thief"))
            if game == "bang" and "cards" not in seen and page.locator(f"{PANEL} .pool .pick-card").count():
                _cards_are_picked_as_cards(page)
                shot(page, f"{game}-pick-a-card")
                seen.add("cards")
            if "timeout" not in seen and len(aria.clicks) >= 3:
                # Let the timer choose once: the table says it did.
                seen.add("timeout")
                expect(page.locator(".timer-default")).to_be_visible()
                expect(page.locator("#log li[data-timeout]").first).to_be_attached(timeout=15_000)
                shot(page, f"{game}-timeout")
                continue
            if spectator is None and len(aria.clicks) >= 2:
                spectator = _spectator(browser, server, joined["room"], lang, viewport, game, english)
            aria.click(_choice(rng, options))
        expect(page.locator("[data-kind=result]")).to_be_visible()
        if aria.clicks:
            break
        # The bots finished before the person had a say (a quick game): ask for a rematch.
        page.locator("#rematch").click()
        expect(page.locator("#table[data-over=false]")).to_be_visible(timeout=10_000)
    assert aria.clicks, "the person was never offered a choice in three matches"
    no_english("game over")
    if english:  # the check sees English when there is some (it can fail)
        page.evaluate("(text) => { const p = document.createElement('p'); p.id = 'probe'; p.textContent = text; "
                      "document.body.append(p); }", english[len(english) // 2])
        assert english_on_page(page, english), "the English check missed a planted English string"
        page.evaluate("document.getElementById('probe').remove()")
    shot(page, f"{game}-game-over")
    assert_accessible(page, f"{game} game over")
    if viewport["width"] <= 390:
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], "wider than the phone"

    # Rematch, then the replay of the finished match.
    match_id = server.get(f"/api/rooms/{joined['room']}")["match"]
    page.locator("#rematch").click()
    expect(page.locator("#table[data-over=false]")).to_be_visible(timeout=10_000)
    shot(page, f"{game}-rematch")
    page.goto(f"{server.base}/replay/{match_id}?step=3&seat=all")
    expect(page.locator("#table[data-version='3']")).to_be_visible()
    no_english("replay")
    shot(page, f"{game}-replay")
    if spectator is not None:
        assert spectator.js_errors == [], spectator.js_errors
        spectator.context.close()
    assert page.js_errors == [], page.js_errors
    context.close()


def _choice(rng: random.Random, options: list[str]) -> str:
    """Seeded, leaning to what ends a game sooner: an attack when there is one."""
    attacks = [o for o in options if " at " in o]
    return rng.choice(attacks) if attacks and rng.random() < 0.8 else rng.choice(options)


def _spectator(browser, server, room, lang, viewport, game, english):
    """Someone watching mid-game, in the same language: public view only, no English."""
    context, page = open_page(browser, viewport, lang=lang)
    page.goto(f"{server.base}/room/{room}")
    expect(page.locator("#table[data-version]")).to_be_visible()
    assert page.locator(".card.secret").count() == 0
    if english:
        found = english_on_page(page, english)
        assert not found, f"{game} spectator: English on the page: {found}"
    shot(page, f"{game}-spectator")
    return page


def _cards_are_picked_as_cards(page) -> None:
    """BANG!: the hand is cards with their rank and suit; a card shows what it does and,
    when it has targets, each with its distance."""
    pool = page.locator(f"{PANEL} .pool")
    corners = pool.locator(".card-corner").all_inner_texts()
    assert corners and all(re.fullmatch(r"(10|[2-9JQKA])[♠♥♦♣]", c) for c in corners), corners
    for card in pool.locator(".pick-card:not([disabled]):not([aria-disabled=true])").all():
        card.click()
        help_text = page.locator(f"{PANEL} .card-help")
        expect(help_text).to_be_visible()
        targets = page.locator(f"{PANEL} .card-actions .chip-target")
        if targets.count():
            assert re.search(r"\d", targets.first.inner_text()), targets.first.inner_text()  # distance shown
            break
    # A character's ability shows on hover, focus or a tap.
    term = page.locator("[data-kind=board] .term").first
    if term.count():
        term.click()
        expect(term).to_have_attribute("aria-expanded", "true")
        expect(page.locator("[data-kind=board] .term[aria-expanded=true] + .tip")).to_be_visible()
