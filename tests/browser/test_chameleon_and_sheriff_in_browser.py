"""The seventh designer trial's games (docs/examples/games, served with ``--games``), The Chameleon
and Sheriff of Nottingham, each played to its end in the browser by a person against random bots:
the person clicks what the page offers (seeded), sees their own card (the secret word, or the hand
and the bag) and nobody else's, reads the phase's question on the decision panel, and a banner
whose title names a player ("Ada is not the Chameleon"), and the Chameleon's topic card on the table
through the talk and the vote. Shots in artifacts/screenshots/."""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import expect

from .conftest import ROOT, serve
from .pages import DESKTOP, open_page, shot, sit_down
from .players import PANEL, Player

EXAMPLES = ROOT / "docs" / "examples" / "games"
TITLES = {"chameleon": "How to play The Chameleon", "sheriff": "How to play Sheriff of Nottingham"}
QUESTIONS = {
    "chameleon": {"Give one clue word for the secret word (the Chameleon must bluff).",
                  "Discuss the clues, then get ready to vote.", "Who is the Chameleon?",
                  "The vote is tied. Dealer, who is accused?",
                  "You are caught. Which word on the topic card is the secret word?"},
    "sheriff": {"Put a card from your hand into your bag (1 to 5 cards), or close the bag.",
                "Declare one legal good for your whole bag (the Sheriff will hear the true count).",
                "Offer the Sheriff a bribe to let your bag pass? It is paid only if the bag passes.",
                "Let this bag pass (and take any bribe offered), or open it?"},
}


@pytest.fixture(scope="module")
def examples_server(tmp_path_factory):
    yield from serve(tmp_path_factory.mktemp("designer7"), "--games", str(EXAMPLES))


@pytest.mark.parametrize("game,seats", [("chameleon", 4), ("sheriff", 3)])
def test_a_person_plays_a_whole_game_against_bots(examples_server, browser, game, seats):
    joined = examples_server.post("/api/rooms", {"game": game, "name": "Zoe", "seats": seats,
                                                 "bots": [{"kind": "random"}] * (seats - 1),
                                                 "options": {}, "private": True})
    context, page = open_page(browser, DESKTOP)
    sit_down(page, examples_server, joined)
    # the rules drawer, made from the declaration: the roles and who decides what, phase by phase
    page.locator("#rules-button").click()
    dialog = page.locator("dialog#rules")
    expect(dialog.locator("h2")).to_have_text(TITLES[game])
    expect(dialog.locator("[data-section=turn] li").first).to_be_visible()
    shot(page, f"{game}-designer7-rules")
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Start the game").click()
    zoe = Player("Zoe", page)
    expect(page.locator("#table[data-version]")).to_be_visible(timeout=10_000)
    rng = random.Random(3)
    asked: set[str] = set()
    titles: set[str] = set()
    card_seen: list[bool] = []
    deadline = time.monotonic() + 240  # a guard, not a speed test (the machine is shared)
    while not zoe.over():
        assert time.monotonic() < deadline, f"{game} did not finish ({len(zoe.clicks)} clicks)"
        titles.update(page.eval_on_selector_all("#banners [data-banner] strong", "els => els.map(e => e.textContent)"))
        options = zoe.options()
        if not options:
            page.wait_for_timeout(40)
            continue
        prompt = page.locator(f"{PANEL} #decision-prompt").text_content()
        asked.add(prompt)
        if game == "chameleon" and prompt in ("Discuss the clues, then get ready to vote.", "Who is the Chameleon?"):
            # the topic card stays on the table after the clues (a text display with stays: true)
            topic = page.locator("#table [data-kind=text]", has_text="The topic card, ")
            card_seen.append(topic.count() == 1 and ": " in topic.inner_text())
        if len(zoe.clicks) == 0:
            shot(page, f"{game}-designer7-first-turn")
        zoe.click(rng.choice(options))
    expect(page.locator("[data-kind=result]")).to_be_visible()
    shot(page, f"{game}-designer7-game-over")
    assert zoe.clicks and asked <= QUESTIONS[game], asked - QUESTIONS[game]
    log = " ".join(zoe.log())
    if game == "chameleon":
        # the card Zoe saw: her own role, and the word unless she was the Chameleon
        assert "Zoe — role: " in log
        assert "Ada — role" not in log and "Basil — role" not in log
        named = [t for t in titles if t.endswith(("is the Chameleon", "is not the Chameleon", "escapes"))]
        assert named, f"no banner named a player: {titles}"
        assert not any("{" in t for t in titles), titles
        assert card_seen and all(card_seen), card_seen
    else:
        assert "Zoe — hand: " in log and "Ada — hand" not in log and "Ada — bag" not in log
        assert "is the richest merchant!" in log
    assert not page.js_errors
    context.close()
