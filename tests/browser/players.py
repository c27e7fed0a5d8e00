"""A player at a browser: what the page shows them and the clicks they make.

Everything is read from the DOM the client renders (``#table[data-version]``, the
decision panel's ``data-options``, controls with ``data-option``, ``.card`` elements
with ``data-card``), so the tests see what a person sees and click what a person clicks:
an action then its target, a card then its target, the cards to keep then Confirm.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .pages import sit_down

#: The order a test player prefers actions in: it keeps the game short.
ACTION_ORDER = ("Coup", "Assassinate", "Tax", "Steal", "Foreign Aid", "Income")

PANEL = "#table .decision.mine"


def css_string(value: str) -> str:
    return json.dumps(value)


@dataclass
class Player:
    name: str
    page: Page
    clicks: list[str] = field(default_factory=list)

    def version(self) -> int | None:
        value = self.page.get_attribute("#table", "data-version")
        return int(value) if value not in (None, "") else None

    def over(self) -> bool:
        return self.page.get_attribute("#table", "data-over") == "true"

    def options(self) -> list[str]:
        """Every option offered now (a live panel whose buttons are not yet pressed)."""
        return self.page.evaluate("""() => {
            const panel = document.querySelector('#table .decision.mine');
            if (!panel || panel.querySelector('.chosen')) return [];
            if (![...panel.querySelectorAll('button')].some(b => !b.disabled)) return [];
            return JSON.parse(panel.dataset.options || '[]');
        }""")

    def click(self, option: str) -> bool:
        """Choose `option` the way a person would; False if the table moved on first."""
        try:
            self._choose(option)
        except (PlaywrightTimeout, AssertionError):
            return False
        self.clicks.append(option)
        return True

    def _choose(self, option: str) -> None:
        page = self.page
        panel = page.locator(PANEL)
        direct = panel.locator(f"[data-option={css_string(option)}]")
        if direct.count():
            direct.first.click(timeout=2000)
            return
        # An action with targets: the action, then the target.
        for group in panel.locator("[data-group]").all():
            if option in json.loads(group.get_attribute("data-options") or "[]"):
                group.click(timeout=2000)
                panel.locator(f"[data-option={css_string(option)}]").first.click(timeout=2000)
                return
        # Players to pick (contract 1: the names in seat order joined by ", "): tap them, then Confirm.
        chips = panel.locator(".chips [data-pick]")
        if chips.count():
            wanted = option.split(", ")
            for chip in chips.all():
                if chip.get_attribute("data-pick") in wanted and chip.get_attribute("aria-pressed") != "true":
                    chip.click(timeout=2000)
            panel.locator(f"[data-option={css_string(option)}]").first.click(timeout=2000)
            return
        # Cards to keep: tap them, then Confirm.
        pool = panel.locator("[data-choices]")
        if pool.count():
            choices = json.loads(pool.first.get_attribute("data-choices"))
            if option in choices:
                for index in choices[option]:
                    pool.locator(f"[data-pick-index='{index}']").click(timeout=2000)
                panel.locator(f"[data-option={css_string(option)}]").first.click(timeout=2000)
                return
        # A card to play: tap a card and see whether it offers this option.
        for card in panel.locator(".pool .pick-card:not([disabled]):not([aria-disabled=true])").all():
            card.click(timeout=2000)
            wanted = panel.locator(f"[data-option={css_string(option)}]")
            if wanted.count():
                wanted.first.click(timeout=2000)
                return
        raise AssertionError(f"{self.name}: no way to choose {option!r} on the page")

    def hand(self) -> list[str]:
        """This player's own unrevealed cards, as the page shows them (once)."""
        return self.page.eval_on_selector_all(
            "[data-kind=hand] .card.secret, #table .decision.mine .pool:not([data-choices]) .card",
            "cards => cards.map(c => c.dataset.card)")

    def log(self) -> list[str]:
        return self.page.eval_on_selector_all("#log li", "lines => lines.map(l => l.textContent)")

    def board(self) -> tuple[int, dict[str, list[dict]]]:
        """The view's version and, per player on the board, each card's label ('hidden' when
        face down) and state, read in one go so that both belong to the same view."""
        return self.page.evaluate("""() => [Number(document.querySelector('#table').dataset.version),
            Object.fromEntries([...document.querySelectorAll('[data-kind=board] .player')].map(p => [
                p.dataset.player, [...p.querySelectorAll('.cards .card')].map(c => ({
                    card: c.dataset.card, up: c.classList.contains('up'), lost: c.classList.contains('lost'),
                    secret: c.classList.contains('secret'), text: c.textContent.trim()}))]))]""")


def pick(options: list[str], wanted: set[str]) -> str:
    """Challenge and block once each (when first offered), then play to end the game quickly."""
    if "challenge" in wanted and "Challenge" in options:
        wanted.discard("challenge")
        return "Challenge"
    blocks = [o for o in options if o.startswith("Block")]
    if "block" in wanted and blocks:
        wanted.discard("block")
        return blocks[0]
    if "exchange" in wanted and "Exchange" in options:
        wanted.discard("exchange")
        return "Exchange"
    for verb in ACTION_ORDER:
        matching = [o for o in options if o == verb or o.startswith(verb + " ")]
        if matching:
            return matching[0]
    if "Pass" in options:
        return "Pass"
    return options[0]


def wait_until(condition, timeout: float, what: str, poll_page: Page | None = None):
    """Wait for `condition()` to be truthy, letting the page's event loop run in between."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        if poll_page is not None:
            poll_page.wait_for_timeout(50)
        else:
            time.sleep(0.05)


def expect_seat(page: Page, name: str) -> None:
    expect(page.locator("#you-are")).to_contain_text(f"You are {name},", timeout=10_000)


#: A page as the tests of the DSL games see it: the viewport, and the page's script errors collected.
DESKTOP = {"width": 1280, "height": 860}
#: One look at the page, all from the same render: the phase, this seat's options, and per
#: board row its name, whether it is out, whether it is shown as deciding, its tags and facts.
LOOK = """() => {
  const table = document.querySelector('#table');
  const phase = table.querySelector('[data-kind=phase]');
  const panel = table.querySelector('.decision.mine');
  const live = panel && !panel.querySelector('.chosen') && [...panel.querySelectorAll('button')].some(b => !b.disabled);
  return {
    over: table.dataset.over === 'true',
    phase: phase ? phase.textContent : '',
    options: live ? JSON.parse(panel.dataset.options || '[]') : [],
    rows: [...document.querySelectorAll('[data-kind=board] .player')].map(r => ({
      name: r.dataset.player, out: r.classList.contains('out'), waiting: !!r.querySelector('.badge-wait'),
      tags: [...r.querySelectorAll('.tag:not(.role)')].map(t => t.textContent),
      stats: Object.fromEntries([...r.querySelectorAll('[data-stat]')].map(s =>
        [s.dataset.stat, s.querySelector('dd').textContent]))})),
  };
}"""


def new_page(browser):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.js_errors = errors
    return context, page


def two_friends_at(server, browser, joined: dict) -> tuple[list, list[Player]]:
    """Aria (the room's creator, ``joined``) and Blaise, who takes a seat through the invite
    link; Aria starts the game. Returns their browser contexts and the two players."""
    aria_context, aria_page = new_page(browser)
    sit_down(aria_page, server, joined)
    expect_seat(aria_page, "Aria")
    blaise_context, blaise_page = new_page(browser)
    blaise_page.goto(aria_page.locator("#share-link").input_value())
    blaise_page.get_by_label("Your name").fill("Blaise")
    blaise_page.get_by_role("button", name="Take a seat").click()
    expect_seat(blaise_page, "Blaise")
    aria_page.get_by_role("button", name="Start the game").click()
    friends = [Player("Aria", aria_page), Player("Blaise", blaise_page)]
    for friend in friends:
        expect(friend.page.locator("#table[data-version]")).to_be_visible(timeout=10_000)

    return [aria_context, blaise_context], friends
