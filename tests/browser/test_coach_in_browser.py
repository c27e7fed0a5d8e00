"""The guided first game of Coup and the coach, as a newcomer meets them in a real browser.

From the lobby's "Learn to play Coup" to "you're on your own": every step of the card above
the table is read, followed with the keyboard (Next, then "Show me" to reach the option the
step asks for, then Enter), audited by axe-core, and photographed (coach-*.png); Hint is
used during the guided game and after it. At 1280×800 in English and at 390×844 in French
(where no English sentence may reach the page).
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from intrigue import games
from intrigue.games import tables, tutorials

from .pages import DESKTOP, PHONE, assert_accessible, english_on_page, english_strings, open_page, shot
from .players import PANEL, Player, expect_seat

COUP = games.get("coup")
CARD = "#table-overlay .tutorial"


def catalog(lang: str) -> dict[str, str]:
    return json.loads((tables.folder(COUP) / f"{lang}.json").read_text(encoding="utf-8"))


def client_strings(lang: str) -> dict[str, str]:
    from .pages import STATIC

    return json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def step_text(lang: str, step_id: str, **args: str) -> str:
    step = next(s for s in tutorials.tutorial(COUP).steps if s.id == step_id)
    text = catalog(lang)[step.text]
    for name, value in args.items():
        text = text.replace("{" + name + "}", value)
    return text


def at_step(page, step_id: str) -> None:
    expect(page.locator(CARD)).to_have_attribute("data-step", step_id, timeout=15_000)


def press(page, locator) -> None:
    """Reach a control with the keyboard's focus and press Enter, as a keyboard user would."""
    locator.focus()
    page.keyboard.press("Enter")


def show_me_then_enter(page, option: str) -> None:
    """'Show me' moves the focus to the option the step asks for; Enter chooses it."""
    press(page, page.locator(f"{CARD} .tutorial-show"))
    focused = page.evaluate("document.activeElement && document.activeElement.dataset.option")
    assert focused == option, f"Show me focused {focused!r}, not {option!r}"
    page.keyboard.press("Enter")


def ask_for_a_hint(page, ui: dict[str, str]) -> str:
    """Press Hint; the coach answers in the panel with one of the options offered, marked on the table."""
    panel = page.locator(PANEL)
    offered = json.loads(panel.get_attribute("data-options"))
    panel.get_by_role("button", name=ui["coach.hint"]).click()
    says = panel.locator(".coach-says[data-state='hint']")
    expect(says).to_be_visible(timeout=15_000)
    assert says.get_attribute("aria-live") == "polite"
    option = says.get_attribute("data-option")
    assert option in offered
    prefix = ui["coach.suggests"].split("{")[0]
    expect(says).to_contain_text(prefix)
    text = says.inner_text()
    assert len(text) > len(prefix) + 10 and "{" not in text, text  # a whole sentence, every placeholder filled
    assert panel.locator(".suggested").count() >= 1
    return option


@pytest.mark.parametrize("viewport,lang,tag", [(DESKTOP, "en", "desktop"), (PHONE, "fr", "phone")])
def test_a_newcomer_learns_coup_with_the_guided_game_and_the_coach(server, browser, viewport, lang, tag):
    context, page = open_page(browser, viewport, lang=lang, has_touch=viewport is PHONE)
    ui = client_strings(lang)
    page.goto(server.base + "/")
    learn = page.locator("#learn")
    expect(learn).to_be_visible()
    expect(learn.locator("h2")).to_have_text(ui["lobby.learn"])
    # Without a name, the lobby says what to do first.
    learn.locator("[data-learn='coup']").click()
    expect(page.locator("#toasts")).to_contain_text(ui["lobby.learnname"])
    page.locator("#name").fill("Zoe")
    shot(page, f"coach-lobby-{tag}")
    assert_accessible(page, "lobby with Learn to play")
    press(page, learn.locator("[data-learn='coup']"))
    page.wait_for_url(re.compile(r"/room/\w+$"))
    if lang == "en":
        expect_seat(page, "Zoe")
    zoe = Player("Zoe", page)

    # 1-2. Welcome, and your cards and what they do.
    at_step(page, "welcome")
    card = page.locator(CARD)
    expect(card.locator(".tutorial-text")).to_have_text(step_text(lang, "welcome", ada="Ada", basil="Basil"))
    assert card.locator(".tutorial-text").get_attribute("aria-live") == "polite"
    expect(card.locator(".tutorial-count")).to_have_text(ui["tutorial.step"].replace("{n}", "1").replace("{count}", "10"))
    shot(page, f"coach-welcome-{tag}")
    assert_accessible(page, "guided game: welcome")
    press(page, card.locator(".tutorial-next"))
    at_step(page, "cards")
    expect(card.locator(".tutorial-text")).to_have_text(step_text(lang, "cards"))
    assert sorted(zoe.hand()) == sorted(["Duke", "Contessa"]) or lang != "en"
    # Next kept the keyboard's focus in the card.
    assert page.evaluate("document.activeElement.classList.contains('tutorial-next')")
    page.keyboard.press("Enter")

    # 3. Income, Foreign Aid and Tax: the step marks Income on the table.
    at_step(page, "income")
    expect(card.locator(".tutorial-text")).to_have_text(step_text(lang, "income"))
    expect(page.locator(f"{PANEL} [data-option='Income']")).to_have_class(re.compile(r"coach-target"))
    shot(page, f"coach-income-{tag}")
    # The coach is there from the first decision (it knows only what Zoe sees: it may disagree).
    ask_for_a_hint(page, ui)
    shot(page, f"coach-hint-{tag}")
    assert_accessible(page, "a hint during the guided game")
    show_me_then_enter(page, "Income")

    # 4. A bot's claim you can challenge.
    at_step(page, "challenge")
    expect(card.locator(".tutorial-text")).to_have_text(step_text(lang, "challenge", ada="Ada"))
    shot(page, f"coach-challenge-{tag}")
    show_me_then_enter(page, "Challenge")

    # 5. Caught: Ada loses a card.
    at_step(page, "caught")
    expect(card.locator(".tutorial-text")).to_have_text(step_text(lang, "caught", ada="Ada"))
    shot(page, f"coach-caught-{tag}")
    page.reload()  # the guide resumes at the same step
    at_step(page, "caught")
    card = page.locator(CARD)
    press(page, card.locator(".tutorial-next"))

    # 6-7. A block: Zoe's Duke stops Basil's Foreign Aid.
    at_step(page, "block")
    show_me_then_enter(page, "Block Duke")
    at_step(page, "blocked")
    expect(card.locator(".tutorial-text")).to_have_text(step_text(lang, "blocked", basil="Basil"))
    if viewport is PHONE:  # the block's banner floats over the top of the screen, alone: the guide stays put
        expect(page.locator("#banners [data-banner]")).to_have_count(1)
        expect(page.locator("#banners [data-banner]")).to_be_in_viewport()
        gap = page.evaluate("() => { scrollTo(0, 0); return document.querySelector('#table-overlay')"
                            ".getBoundingClientRect().top - document.querySelector('#recent').getBoundingClientRect().bottom; }")
        assert gap < 20, f"{gap} px between the recent-events strip and the guide"
        shot(page, f"coach-blocked-{tag}")
    press(page, card.locator(".tutorial-next"))

    # 8-9. A bluff, called: losing a card.
    at_step(page, "bluff")
    show_me_then_enter(page, "Steal Ada")
    at_step(page, "lose")
    expect(card.locator(".tutorial-text")).to_have_text(step_text(lang, "lose", ada="Ada"))
    shot(page, f"coach-lose-{tag}")
    assert_accessible(page, "guided game: losing a card")
    # Which card to lose is Zoe's choice: Show me brings the focus to her cards, untouched.
    press(page, card.locator(".tutorial-show"))
    assert page.evaluate("document.activeElement.dataset.card") in ("Duke", "Contessa")
    assert page.locator(f"{PANEL} [data-card].coach-target").count() == 2
    zoe.click("Lose Contessa")

    # 10. On your own, with the coach.
    at_step(page, "alone")
    expect(card.locator(".tutorial-text")).to_have_text(step_text(lang, "alone"))
    expect(card.locator(".tutorial-next")).to_have_text(ui["tutorial.done"])
    shot(page, f"coach-alone-{tag}")
    press(page, card.locator(".tutorial-next"))
    expect(page.locator(CARD)).to_have_count(0)
    if lang != "en":
        seen = english_on_page(page, english_strings(lang, ["coup"]))
        assert not seen, f"English on the {lang} page: {seen}"

    # The coach stays: at Zoe's next decision, Hint answers again (a game of its own now).
    page.wait_for_function("() => { const p = document.querySelector('#table .decision.mine');"
                           " return p && !p.querySelector('.chosen') && p.querySelector('.hint-button'); }",
                           timeout=30_000)
    ask_for_a_hint(page, ui)
    shot(page, f"coach-on-your-own-{tag}")
    assert_accessible(page, "a hint after the guided game")
    if lang != "en":
        seen = english_on_page(page, english_strings(lang, ["coup"]))
        assert not seen, f"English on the {lang} page: {seen}"
    # A reload does not bring the finished guide back.
    page.reload()
    expect(page.locator("#table[data-version]")).to_be_visible(timeout=10_000)
    expect(page.locator(CARD)).to_have_count(0)
    assert not page.js_errors, page.js_errors
    context.close()


def test_the_guide_says_so_when_the_game_leaves_its_script(server, browser):
    context, page = open_page(browser, DESKTOP)
    page.goto(server.base + "/")
    expect(page.locator("#learn")).to_be_visible()
    page.locator("#name").fill("Zoe")
    page.locator("[data-learn='coup']").click()
    page.wait_for_url(re.compile(r"/room/\w+$"))
    for step in ("welcome", "cards"):
        at_step(page, step)
        page.locator(f"{CARD} .tutorial-next").click()
    at_step(page, "income")
    Player("Zoe", page).click("Income")
    at_step(page, "challenge")
    Player("Zoe", page).click("Pass")  # not what the step asks: Ada's Tax stands, nobody is caught
    at_step(page, "astray")
    card = page.locator(CARD)
    expect(card.locator(".tutorial-text")).to_have_text(catalog("en")[tutorials.tutorial(COUP).astray])
    expect(card.locator(".tutorial-show")).to_be_hidden()
    shot(page, "coach-astray-desktop")
    assert_accessible(page, "the guide after the game left its script")
    press(page, card.locator(".tutorial-next"))
    expect(page.locator(CARD)).to_have_count(0)
    assert not page.js_errors, page.js_errors
    context.close()


def test_no_hint_button_at_a_table_with_another_person(server, browser):
    aria_ctx, aria = open_page(browser, DESKTOP)
    blake_ctx, blake = open_page(browser, DESKTOP)
    room = server.post("/api/rooms", {"game": "coup", "name": "Aria", "seats": 3, "bots": [{"kind": "heuristic"}],
                                      "private": True, "options": {"turn_timer": None, "window_timer": None}})
    joined = server.post(f"/api/rooms/{room['room']}/join", {"name": "Blake"})
    for page, token in ((aria, room["token"]), (blake, joined["token"])):
        page.goto(server.base + "/")
        page.evaluate(f"localStorage.setItem('intrigue:token:{room['room']}', {json.dumps(token)})")
    server.post(f"/api/rooms/{room['room']}/start", {"token": room["token"]})
    for page in (aria, blake):
        page.goto(f"{server.base}/room/{room['room']}")
        expect(page.locator("#table[data-version]")).to_be_visible(timeout=10_000)
    deciding = None
    for _ in range(100):
        deciding = next((p for p in (aria, blake) if p.locator(PANEL).count()), None)
        if deciding:
            break
        aria.wait_for_timeout(100)
    assert deciding is not None, "nobody got a decision"
    assert deciding.locator(f"{PANEL} .hint-button").count() == 0
    assert deciding.locator(CARD).count() == 0
    aria_ctx.close()
    blake_ctx.close()
