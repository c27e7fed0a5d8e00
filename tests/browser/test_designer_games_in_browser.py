"""Hanabi, Mascarade, Love Letter, Guildhall, Crime Scene, Two Rooms and Precinct (docs/examples/games, served with ``--games``) at a table against bots:
on your turn the decision panel asks the phase's question ("Give a clue to another player, discard
a card or play one."), so buttons named only "Ada" or "Basil" say what pressing them does; and the
phase is named for what is done in it, not "Your Turn" (which it also read during a bot's turn); and whose turn it is
is said above the table in a game that sends no turn indicator (Liar's Dice); and Crime Scene's scientist reads their
role once at the start."""

from __future__ import annotations

import pytest
import yaml
from playwright.sync_api import expect

from .conftest import ROOT, serve
from .pages import DESKTOP, open_page, shot, sit_down
from .players import PANEL

EXAMPLES = ROOT / "docs" / "examples" / "games"


@pytest.fixture(scope="module")
def designer_server(tmp_path_factory):
    yield from serve(tmp_path_factory.mktemp("designer"), "--games", str(EXAMPLES))


@pytest.mark.parametrize("game,seats,phase,question", [
    ("hanabi", 2, "Clue, Discard or Play", "Give a clue to another player, discard a card or play one."),
    ("mascarade", 4, "Swap, Look or Announce",
     "Swap (or pretend to) with a player, look at your card, or announce a role."),
    ("love_letter", 2, "Play a Card", "Play one of your two cards."),
    ("guildhall", 2, "Choose a Character", "Keep one character in secret and pass the rest to your left."),
    ("crime_scene", 4, "The Means", "If you are the murderer, choose the means of the murder from your means "
     "cards. If not, press Sleep while the murderer chooses."),
    ("two_rooms", 6, "Choose Leaders", "Who leads your room this round?"),
    ("precinct", 4, "Your Move", "Investigate a card, take a gun, aim your gun, or shoot."),
])
def test_your_turn_in_a_designer_game_says_what_the_buttons_do(designer_server, browser, game, seats, phase, question):
    joined = designer_server.post("/api/rooms", {"game": game, "name": "Zoe", "seats": seats,
                                                 "bots": [{"kind": "random"}] * (seats - 1),
                                                 "options": {}, "private": True})
    context, page = open_page(browser, DESKTOP)
    sit_down(page, designer_server, joined)
    page.get_by_role("button", name="Start the game").click()
    prompt = page.locator(f"{PANEL} #decision-prompt")
    table = page.locator("#table")
    for _ in range(5):  # a bot may end a short game before Zoe's first turn (Love Letter: Ada's Baron loses)
        page.wait_for_function("""() => Boolean(document.querySelector('#table .decision.mine #decision-prompt'))
            || document.querySelector('#table')?.dataset.over === 'true'""", timeout=20_000)
        if table.get_attribute("data-over") != "true":
            break
        page.get_by_role("button", name="Play again").click()  # against bots the rematch vote is Zoe's alone
        expect(table).to_have_attribute("data-over", "false", timeout=15_000)
    expect(prompt).to_have_text(question, timeout=20_000)
    expect(page.locator("#table [data-kind=phase]")).to_have_text(phase)
    shot(page, f"{game}-your-turn-desktop")
    assert not page.js_errors


def test_whose_turn_is_said_above_the_table_in_a_game_without_a_turn_indicator(designer_server, browser):
    """Liar's Dice sends no turn indicator, only the tile marked "turn": the heading said nothing of whose turn it was."""
    joined = designer_server.post("/api/rooms", {"game": "liars_dice", "name": "Zoe", "seats": 2,
                                                 "bots": [{"kind": "random"}], "options": {}, "private": True})
    context, page = open_page(browser, DESKTOP)
    sit_down(page, designer_server, joined)
    page.get_by_role("button", name="Start the game").click()
    # The heading and the tile agree, read at once (the bot may move the turn on between two reads).
    page.wait_for_function("""() => {
        const tile = document.querySelector('#table .player:has(.badge-turn)');
        const pill = document.querySelector('#table .indicators .turn');
        return Boolean(tile && pill) && pill.textContent === (tile.dataset.player === 'Zoe' ? 'Your turn'
            : `${tile.dataset.player}'s turn`);
    }""", timeout=20_000)
    assert not page.js_errors
    context.close()


def test_crime_scenes_scientist_reads_their_role_once(designer_server, browser):
    """The scientist's role went to them, then to everyone: they read it twice at the start."""
    context, page = open_page(browser, DESKTOP)
    for _ in range(15):  # rooms until Zoe is dealt the scientist (one role of four)
        joined = designer_server.post("/api/rooms", {"game": "crime_scene", "name": "Zoe", "seats": 4,
                                                     "bots": [{"kind": "random"}] * 3, "options": {}, "private": True})
        sit_down(page, designer_server, joined)
        page.get_by_role("button", name="Start the game").click()
        log = page.locator("#log li")
        expect(log.filter(has_text="is the forensic scientist")).to_have_count(1, timeout=10_000)
        lines = log.all_inner_texts()
        assert len([line for line in lines if line.startswith("Zoe — role:")]) == 1, lines
        if "Zoe — role: Forensic Scientist" in lines:
            break
    else:
        raise AssertionError("Zoe was never dealt the scientist in fifteen rooms")
    assert not page.js_errors
    context.close()


def test_insiders_word_is_on_the_masters_and_the_insiders_screen_alone(designer_server, browser):
    """Insider: each player reads their own card once (the Master's and the Insider's with the word),
    and a Common's screen names none of the words while the question round runs. The other seats are
    people who joined by the API and never act, so the round does not end before the screen is read."""
    words = yaml.safe_load((EXAMPLES / "insider.yaml").read_text())["declaration"]["game_state"]["words"]
    context, page = open_page(browser, DESKTOP)
    roles = set()
    for _ in range(15):  # rooms until Zoe has been a Common and one who knows the word
        joined = designer_server.post("/api/rooms", {"game": "insider", "name": "Zoe", "seats": 4, "bots": [],
                                                     "options": {"turn_timer": None, "window_timer": None},
                                                     "private": True})
        for name in ("Ada", "Basil", "Cleo"):
            designer_server.post(f"/api/rooms/{joined['room']}/join", {"name": name})
        sit_down(page, designer_server, joined)
        page.get_by_role("button", name="Start the game").click()
        log = page.locator("#log li")
        expect(log.filter(has_text="is the Master and knows the word")).to_have_count(1, timeout=10_000)
        expect(page.locator("#table p.phase")).to_have_text("Questions")
        mine = [line for line in log.all_inner_texts() if line.startswith("Zoe — ")]
        assert len(mine) == 1, mine
        role = mine[0].split("role: ")[1].split(",")[0].split("\n")[0].strip()
        roles.add(role)
        text = page.locator("#table").inner_text() + " ".join(log.all_inner_texts())
        named = [w for w in words if w in text]
        assert len(named) == (0 if role == "Common" else 1), (role, named)  # the word, on the card of who knows it
        if len(roles) == 3:
            break
    else:
        raise AssertionError(f"Zoe was only dealt {roles} in fifteen rooms")
    assert not page.js_errors
    context.close()
