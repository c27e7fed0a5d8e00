"""A player at a browser: what the page shows them and the clicks they make.

Everything is read from the DOM the client renders (``#table[data-version]``, option
buttons, ``.card`` elements with ``data-card``), so the tests see what a person sees.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

#: The order a test player prefers actions in: it keeps the game short.
ACTION_ORDER = ("Coup", "Assassinate", "Tax", "Steal", "Foreign Aid", "Income")


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
        return self.page.eval_on_selector_all(
            "#table button.option:not([disabled])", "buttons => buttons.map(b => b.dataset.option)")

    def click(self, option: str) -> bool:
        """Click an option button; False if the table moved on first (another view replaced it)."""
        try:
            self.page.locator("#table").get_by_role("button", name=option, exact=True).click(timeout=2000)
        except PlaywrightTimeout:
            return False
        self.clicks.append(option)
        return True

    def hand(self) -> list[str]:
        """This player's own unrevealed cards, as their hand component shows them."""
        return self.page.eval_on_selector_all(
            "[data-kind=hand] .card.secret", "cards => cards.map(c => c.dataset.card)")

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
