"""The guided first games of BANG!, Avalon, Werewolf, Heist and DSFGS, as a newcomer meets them in a real browser.

From the lobby's "Learn to play …" to the last step: every step's card is read (its text, in the
page's language), and the newcomer does what it says the way a keyboard user would: Next, or
"Show me" (which moves the focus to the card, target, player chip or button the step asks for)
then Enter, again until the step is done. Along the way, what the step talks about is checked on
the table: the Sheriff's badge and range in BANG!, Merlin's card and the two minions marked evil in
Avalon, what the Seer learns in Werewolf, the Guard's seat and the two votes in Heist, the Agent's
peek in DSFGS, the result at the end. BANG! is followed in French at phone size too, Avalon in Chinese;
Werewolf in Spanish and Heist in German only, at desktop size; DSFGS in French only, at phone size.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from intrigue import games
from intrigue.games import tables, tutorials

from .pages import DESKTOP, PHONE, assert_accessible, english_on_page, english_strings, open_page, shot
from .players import LOOK, PANEL

CARD = "#table-overlay .tutorial"
NAMES = ["Zoe", "Ada", "Basil", "Cleo", "Dmitri", "Edie"]


def client_strings(lang: str) -> dict[str, str]:
    from .pages import STATIC

    return json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def step_text(game_id: str, lang: str, step) -> str:
    """The step's text as the page should show it: the catalog's, its names filled in."""
    catalog = tables.catalog(games.get(game_id), lang)  # English first (a YAML game's is its own words)
    text = catalog[step.text] if lang != "en" else catalog.get(step.text, step.text)
    for name, path in step.args.items():
        value = "Zoe" if path == "you" else NAMES[int(path.split(".")[1])]
        text = text.replace("{" + name + "}", value)
    return text.replace("\u00ad", "")


def bang_word(lang: str, word: str) -> str:
    catalog = json.loads((tables.folder(games.get("bang")) / f"{lang}.json").read_text(encoding="utf-8"))
    return catalog.get(word, word)


def press(page, locator) -> None:
    locator.focus()
    page.keyboard.press("Enter")


def look(page) -> dict:
    return page.evaluate(LOOK)


def row(page, name: str) -> dict:
    return next(r for r in look(page)["rows"] if r["name"] == name)


def learn(page, server, game_id: str, ui: dict[str, str], tag: str, lang: str = "en") -> None:
    """From the lobby: the game's "Learn to play" button, with a name typed first."""
    page.goto(server.base + "/")
    learn = page.locator("#learn")
    expect(learn).to_be_visible()
    button = learn.locator(f"[data-learn='{game_id}']")
    # The button shows the game's name; its accessible name says what it does.
    name = button.inner_text().strip()
    title = games.get(game_id).title
    assert name == tables.catalog(games.get(game_id), lang).get(title, title)
    expect(button).to_have_attribute("aria-label", ui["lobby.learngame"].replace("{game}", name))
    page.locator("#name").fill("Zoe")
    shot(page, f"learn-lobby-{tag}")
    press(page, button)
    page.wait_for_url(re.compile(r"/room/\w+$"))


def follow(page, game_id: str, lang: str, step, check=None) -> None:
    """Read the step, then do what it says: Next, or Show me + Enter until the game moves on."""
    card = page.locator(CARD)
    expect(card).to_have_attribute("data-step", step.id, timeout=20_000)
    expect(card.locator(".tutorial-text")).to_have_text(step_text(game_id, lang, step))
    if check:
        check(page)
    if step.next:
        press(page, card.locator(".tutorial-next"))
        return
    expect(card.locator(".tutorial-show")).to_be_visible()
    expect(page.locator(f"{PANEL} .coach-target").first).to_be_visible()
    for _ in range(8):
        press(page, card.locator(".tutorial-show"))
        focused = page.evaluate("(() => { const e = document.activeElement; return e && e.closest('#table .decision.mine')"
                                " ? {option: e.dataset.option || null, pick: e.dataset.pick || null,"
                                " card: e.dataset.card || null} : null; })()")
        assert focused, f"step {step.id}: Show me left the focus outside the decision"
        page.keyboard.press("Enter")
        if focused["option"]:  # the option itself: chosen
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"step {step.id}: Show me never reached the option")


@pytest.mark.parametrize("viewport,lang,tag", [(DESKTOP, "en", "desktop"), (PHONE, "fr", "phone")])
def test_a_newcomer_learns_bang_with_the_guided_game(server, browser, viewport, lang, tag):
    context, page = open_page(browser, viewport, lang=lang, has_touch=viewport is PHONE)
    ui = client_strings(lang)
    learn(page, server, "bang", ui, f"bang-{tag}", lang)
    script = tutorials.tutorial(games.get("bang"))
    steps = {s.id: s for s in script.steps}
    card = page.locator(CARD)

    def welcome(page):  # the Sheriff's badge is on Zoe's seat for everyone, with 5 life
        zoe = page.locator("[data-kind=board] .player[data-player='Zoe']")
        expect(zoe).to_contain_text(bang_word(lang, "Sheriff"))
        expect(zoe).to_contain_text("5/5")
        expect(card.locator(".tutorial-count")).to_have_text(
            ui["tutorial.step"].replace("{n}", "1").replace("{count}", str(len(script.steps))))
        shot(page, f"learn-bang-welcome-{tag}")
        assert_accessible(page, "BANG! guided game: welcome")

    def range_one(page):  # the Colt .45 reaches 1, and the Winchester is marked in the hand
        assert row(page, "Zoe")["stats"].get("range") == "1", row(page, "Zoe")
        expect(page.locator(f"{PANEL} [data-card='Winchester 8S'].coach-target")).to_have_count(1)

    follow(page, "bang", lang, steps["welcome"], welcome)
    follow(page, "bang", lang, steps["life"])
    follow(page, "bang", lang, steps["gun"], range_one)
    follow(page, "bang", lang, steps["barrel"],  # the Winchester is in play: range 5
           lambda p: expect(p.locator("[data-kind=board] .player[data-player='Zoe'] [data-stat=range] dd")).to_have_text("5"))
    follow(page, "bang", lang, steps["bang"])
    def missed_not_now(page):  # a Missed! cannot be played on your turn: tapped, it says what it does and why not
        press(page, page.locator(f"{PANEL} .pick-card.unplayable[data-card^='Missed!']").first)
        expect(page.locator(f"{PANEL} [data-hint=unplayable]")).to_have_text(ui["decision.cannotplay"])
        expect(page.locator(f"{PANEL} .card-help")).to_contain_text(bang_word(lang, "Missed!"))

    follow(page, "bang", lang, steps["end"], missed_not_now)
    follow(page, "bang", lang, steps["missed"])
    follow(page, "bang", lang, steps["duel"])
    follow(page, "bang", lang, steps["hit"])
    follow(page, "bang", lang, steps["stagecoach"],  # the hit cost a life: 3 of 5
           lambda p: expect(p.locator("[data-kind=board] .player[data-player='Zoe']")).to_contain_text("3/5"))
    follow(page, "bang", lang, steps["beer"])
    follow(page, "bang", lang, steps["limit"])
    shot(page, f"learn-bang-limit-{tag}")

    def limit_reached(page):  # what the guided game did, as the table shows it before the discard:
        # 4 of 5 life after the Beer, 5 cards, the Winchester and the Barrel in front of Zoe
        board = page.locator("[data-kind=board] .player[data-player='Zoe']")
        expect(board).to_contain_text("4/5")
        expect(board.locator("[data-stat=cards] dd")).to_have_text("5")
        expect(board).to_contain_text(bang_word(lang, "Winchester"))
        expect(board).to_contain_text(bang_word(lang, "Barrel"))

    follow(page, "bang", lang, steps["discard"], limit_reached)
    follow(page, "bang", lang, steps["alone"])
    expect(page.locator(CARD)).to_have_count(0)
    if lang != "en":
        seen = english_on_page(page, english_strings(lang, ["bang"]))
        assert not seen, f"English on the {lang} page: {seen}"
    assert not page.js_errors, page.js_errors
    context.close()


@pytest.mark.parametrize("viewport,lang,tag", [(DESKTOP, "en", "desktop"), (PHONE, "zh", "phone")])
def test_a_newcomer_learns_avalon_with_the_guided_game(server, browser, viewport, lang, tag):
    context, page = open_page(browser, viewport, lang=lang, has_touch=viewport is PHONE)
    ui = client_strings(lang)
    learn(page, server, "avalon", ui, f"avalon-{tag}", lang)
    script = tutorials.tutorial(games.get("avalon"))
    steps = {s.id: s for s in script.steps}
    words = tables.catalog(games.get("avalon"), lang)

    def word(text: str, **args: str) -> str:
        said = words.get(text, text)
        for name, value in args.items():
            said = said.replace("{" + name + "}", value)
        return said

    def merlin_sees(page):  # on Zoe's seat: Merlin; Ada and Dmitri are marked evil, nobody else
        tile = lambda name: page.locator(f"[data-kind=board] .player[data-player='{name}']")
        expect(tile("Zoe")).to_contain_text(f"{word('Merlin')} · {word('good')}")
        for name in ("Ada", "Dmitri"):
            expect(tile(name)).to_contain_text(word("evil"))
        for name in ("Basil", "Cleo"):
            expect(tile(name)).not_to_contain_text(word("evil"))
            expect(tile(name)).not_to_contain_text(word("good"))

    follow(page, "avalon", lang, steps["welcome"])
    follow(page, "avalon", lang, steps["role"], merlin_sees)
    shot(page, f"learn-avalon-role-{tag}")
    assert_accessible(page, "Avalon guided game: your role")
    # Leading: the step marks the two players to pick; Show me walks through them, then Confirm.
    def leading(page):  # the two players to pick are marked, under the phase's own heading
        expect(page.locator(f"{PANEL} [data-pick].coach-target")).to_have_count(2)
        expect(page.locator("#decision-prompt")).to_have_text(word("Team Building"))

    follow(page, "avalon", lang, steps["propose"], leading)
    follow(page, "avalon", lang, steps["vote"], lambda p: expect(p.locator("#log")).to_contain_text(
        word("{actor.name} proposes {choice} for quest {quest}.", **{"actor.name": "Zoe", "choice": "Zoe, Basil",
                                                                      "quest": "1"})))
    follow(page, "avalon", lang, steps["quest"])
    follow(page, "avalon", lang, steps["reject"])
    shot(page, f"learn-avalon-reject-{tag}")
    follow(page, "avalon", lang, steps["failed"],
           lambda p: expect(p.locator("#log")).to_contain_text("Quest 2 fails with 1 Fail card.") if lang == "en" else None)
    follow(page, "avalon", lang, steps["approve"])
    follow(page, "avalon", lang, steps["approve4"])
    follow(page, "avalon", lang, steps["quest4"])
    follow(page, "avalon", lang, steps["assassin"])
    follow(page, "avalon", lang, steps["won"],
           lambda p: expect(p.locator("[data-kind=result] .winners")).to_contain_text("Zoe"))
    shot(page, f"learn-avalon-won-{tag}")
    expect(page.locator(CARD)).to_have_count(0)
    expect(page.locator("#log")).to_contain_text(word("Merlin stays hidden. Good wins!"))
    if lang != "en":
        seen = english_on_page(page, english_strings(lang, ["avalon"]))
        assert not seen, f"English on the {lang} page: {seen}"
    assert not page.js_errors, page.js_errors
    context.close()


def test_a_newcomer_learns_werewolf_with_the_guided_game(server, browser):
    lang = "es"
    context, page = open_page(browser, DESKTOP, lang=lang)
    ui = client_strings(lang)
    learn(page, server, "werewolf", ui, "werewolf-desktop", lang)
    steps = {s.id: s for s in tutorials.tutorial(games.get("werewolf")).steps}
    words = tables.catalog(games.get("werewolf"), lang)

    def word(text: str, **args: str) -> str:
        said = words.get(text, text)
        for name, value in args.items():
            said = said.replace("{" + name + "}", value)
        return said

    def tile(name: str):
        return page.locator(f"[data-kind=board] .player[data-player='{name}']")

    def seer(page):  # Zoe's seat says Seer; nobody else's role or side is shown
        expect(tile("Zoe")).to_contain_text(word("Seer"))
        for name in NAMES[1:]:
            expect(tile(name)).not_to_contain_text(word("werewolves"))

    def ada_seen(page):  # after the night: Ada's side, for the Seer only; Edie's death in the log
        expect(tile("Ada")).to_contain_text(word("werewolves"))
        expect(tile("Dmitri")).not_to_contain_text(word("werewolves"))
        expect(page.locator("#log")).to_contain_text(word(
            "Dawn of day {day}: {player.name} was killed in the night. They were a {player.role}.",
            day="1", **{"player.name": "Edie", "player.role": word("Villager")}))
        # the day's decision (Ready to vote) asks the day's question, not the night's
        expect(page.locator("#decision-prompt")).to_have_text(
            word("Talk in the chat: who are the werewolves? Press Ready to vote when you are done."))

    follow(page, "werewolf", lang, steps["welcome"])
    follow(page, "werewolf", lang, steps["role"], seer)
    shot(page, "learn-werewolf-role-desktop")
    assert_accessible(page, "Werewolf guided game: your role")
    follow(page, "werewolf", lang, steps["look"])
    follow(page, "werewolf", lang, steps["talk"], ada_seen)
    shot(page, "learn-werewolf-day-desktop")
    follow(page, "werewolf", lang, steps["vote"])
    follow(page, "werewolf", lang, steps["lynched"], lambda p: expect(p.locator("#log")).to_contain_text(
        word("The village lynches {player.name}. They were a {player.role}.",
             **{"player.name": "Ada", "player.role": word("Werewolf")})))
    follow(page, "werewolf", lang, steps["look2"])
    follow(page, "werewolf", lang, steps["talk2"], lambda p: expect(tile("Dmitri")).to_contain_text(word("werewolves")))
    follow(page, "werewolf", lang, steps["vote2"])
    follow(page, "werewolf", lang, steps["won"],
           lambda p: expect(p.locator("[data-kind=result] .winners")).to_contain_text("Zoe"))
    shot(page, "learn-werewolf-won-desktop")
    expect(page.locator(CARD)).to_have_count(0)
    expect(page.locator("#log")).to_contain_text(word("Every werewolf is dead. The village wins!"))
    seen = english_on_page(page, english_strings(lang, ["werewolf"]))
    assert not seen, f"English on the {lang} page: {seen}"
    assert not page.js_errors, page.js_errors
    context.close()


def words_of(game_id: str, lang: str):
    """The game's catalog in `lang` as a function: a template, its placeholders filled in."""
    words = tables.catalog(games.get(game_id), lang)

    def word(text: str, **args: str) -> str:
        said = words.get(text, text)
        for name, value in args.items():
            said = said.replace("{" + name + "}", value)
        return said

    return word


def test_a_newcomer_learns_heist_with_the_guided_game(server, browser):
    lang = "de"
    context, page = open_page(browser, DESKTOP, lang=lang)
    learn(page, server, "heist", client_strings(lang), "heist-desktop", lang)
    steps = {s.id: s for s in tutorials.tutorial(games.get("heist")).steps}
    word = words_of("heist", lang)

    def tile(name: str):
        return page.locator(f"[data-kind=board] .player[data-player='{name}']")

    def guard(page):  # Zoe's seat says Guard; nobody's seat says Thief
        expect(tile("Zoe")).to_contain_text(word("Guard"))
        for name in NAMES[1:4]:
            expect(tile(name)).not_to_contain_text(word("Thief"))

    def accused(page):  # Cleo's accusation in the log; the vote asks its own question
        expect(page.locator("#log")).to_contain_text(word("{actor.name} accuses {chosen.name}. Guilty or innocent?",
                                                          **{"actor.name": "Cleo", "chosen.name": "Basil"}))
        expect(page.locator("#decision-prompt")).to_have_text(
            word("Is the accused the thief? A majority of Guilty sends them to jail."))

    follow(page, "heist", lang, steps["welcome"])
    follow(page, "heist", lang, steps["role"], guard)
    shot(page, "learn-heist-role-desktop")
    assert_accessible(page, "Heist guided game: your role")
    follow(page, "heist", lang, steps["turns"])
    follow(page, "heist", lang, steps["vote"], accused)
    follow(page, "heist", lang, steps["spared"])
    follow(page, "heist", lang, steps["accuse"], lambda p: expect(p.locator("#decision-prompt")).to_have_text(
        word("Accuse a free player of being the thief, or pass.")))
    follow(page, "heist", lang, steps["vote2"])
    follow(page, "heist", lang, steps["won"],
           lambda p: expect(p.locator("[data-kind=result] .winners")).to_contain_text("Zoe"))
    shot(page, "learn-heist-won-desktop")
    expect(page.locator(CARD)).to_have_count(0)
    expect(tile("Cleo")).to_contain_text(word("Thief"))  # a jailed player's role is shown to all
    expect(page.locator("#log")).to_contain_text(word("The thief is caught. The guards win!"))
    seen = english_on_page(page, english_strings(lang, ["heist"]))
    assert not seen, f"English on the {lang} page: {seen}"
    assert not page.js_errors, page.js_errors
    context.close()


def test_a_newcomer_learns_dsfgs_with_the_guided_game(server, browser):
    lang = "fr"
    context, page = open_page(browser, PHONE, lang=lang, has_touch=True)
    learn(page, server, "dsfgs", client_strings(lang), "dsfgs-phone", lang)
    steps = {s.id: s for s in tutorials.tutorial(games.get("dsfgs")).steps}
    word = words_of("dsfgs", lang)

    def tile(name: str):
        return page.locator(f"[data-kind=board] .player[data-player='{name}']")

    def agent(page):  # Zoe's seat says Agent; nobody's seat says Mole
        expect(tile("Zoe")).to_contain_text(word("Agent"))
        for name in NAMES[1:4]:
            expect(tile(name)).not_to_contain_text(word("Mole"))

    def peeked(page):  # after the peek: Cleo's seat says Mole, for Zoe; Ada's and Basil's say nothing
        expect(tile("Cleo")).to_contain_text(word("Mole"))
        for name in ("Ada", "Basil"):
            expect(tile(name)).not_to_contain_text(word("Mole"))
            expect(tile(name)).not_to_contain_text(word("Agent"))

    def accused(page):  # Basil revealed himself an Agent (for all to see); Cleo accuses Zoe
        expect(tile("Basil")).to_contain_text(word("Agent"))
        expect(page.locator("#log")).to_contain_text(word("{actor.name} accuses {chosen.name}.",
                                                          **{"actor.name": "Cleo", "chosen.name": "Zoe"}))

    follow(page, "dsfgs", lang, steps["welcome"])
    follow(page, "dsfgs", lang, steps["role"], agent)
    follow(page, "dsfgs", lang, steps["turn"])
    follow(page, "dsfgs", lang, steps["peek"])
    follow(page, "dsfgs", lang, steps["seen"], peeked)
    shot(page, "learn-dsfgs-peek-phone")
    assert_accessible(page, "DSFGS guided game: a peek")
    follow(page, "dsfgs", lang, steps["accused"], accused)
    follow(page, "dsfgs", lang, steps["tie"])
    follow(page, "dsfgs", lang, steps["accuse"])
    follow(page, "dsfgs", lang, steps["target"])
    follow(page, "dsfgs", lang, steps["support"])
    follow(page, "dsfgs", lang, steps["won"],
           lambda p: expect(p.locator("[data-kind=result] .winners")).to_contain_text("Zoe"))
    shot(page, "learn-dsfgs-won-phone")
    expect(page.locator(CARD)).to_have_count(0)
    expect(page.locator("#log")).to_contain_text(word("Every Mole is exposed: the Agents win."))
    seen = english_on_page(page, english_strings(lang, ["dsfgs"]))
    assert not seen, f"English on the {lang} page: {seen}"
    assert not page.js_errors, page.js_errors
    context.close()


def test_the_lobby_offers_every_guided_game_in_one_short_row(server, browser):
    context, page = open_page(browser, DESKTOP)
    page.goto(server.base + "/")
    learn = page.locator("#learn")
    expect(learn).to_be_visible()
    taught = sorted(g for g in games.installed() if tutorials.has(games.get(g)))
    offered = sorted(learn.locator("[data-learn]").evaluate_all("bs => bs.map(b => b.dataset.learn)"))
    assert offered == taught
    # One short row: the buttons fit on one line of the panel at desktop size, and at phone size
    # (six games, "The Resistance: Avalon" alone on the first) they take at most three lines.
    tops = learn.locator("[data-learn]").evaluate_all("bs => bs.map(b => Math.round(b.getBoundingClientRect().top))")
    assert len(set(tops)) == 1, tops
    shot(page, "learn-lobby-desktop")
    assert_accessible(page, "lobby with every guided game")
    page.set_viewport_size(PHONE)
    tops = learn.locator("[data-learn]").evaluate_all("bs => bs.map(b => Math.round(b.getBoundingClientRect().top))")
    assert len(set(tops)) <= 3, tops
    shot(page, "learn-lobby-phone")
    context.close()
