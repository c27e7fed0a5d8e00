"""What a first browser trial noticed at the table, checked as a person sees it:

- on a desktop, outcome banners do not push the board and your cards under the decision
  panel (they float over the top of the side column), and the heading says whose turn it is, then what to do;
- choosing a card to lose, the hint says "Tap a card, then “Lose”" (not "see what you can
  do with it"), and the lost card shows once, on your tile, not again under "Your cards";
- a role every player shares ("Player" in Skull) is not shown on every tile; the heading
  names the player whose tile is marked "turn", and no phase once the match is over; a line
  about the table shows each player in their colour;
- a count reads in the language's singular or plural ("1 Fail card", "1 carte").
"""

from __future__ import annotations

from playwright.sync_api import expect

from .pages import DESKTOP, open_page, shot, sit_down
from .players import Player, wait_until
from .test_table_parts_in_browser import RENDER, _view


def _box(page, selector):
    return page.locator(selector).bounding_box()


def _play_income_only(server, browser) -> tuple[int, int]:
    """A match of Coup in which Aria takes Income and lets everything pass, so that the bot grows
    rich and takes her cards; checked at each decision. Returns (cards Aria chose to lose,
    her turns that came while an outcome was announced)."""
    joined = server.post("/api/rooms", {"game": "coup", "name": "Aria", "seats": 2, "bots": [{"kind": "heuristic"}],
                                        "options": {"turn_timer": 120, "window_timer": 60}, "private": True})
    context, page = open_page(browser, DESKTOP)
    sit_down(page, server, joined)
    page.get_by_role("button", name="Start the game").click()
    aria = Player("Aria", page)
    table_top = None
    with_banners = lost = 0
    while not aria.over():
        options = wait_until(lambda: aria.options() or aria.over(), 60, "a decision or the end", page)
        if options is True:
            break
        if "Income" in options:
            # The heading: whose turn, then what to do.
            expect(page.locator("#table .indicators > p").first).to_have_text("Your turn")
            expect(page.locator("#table [data-kind=phase]")).to_have_text("Choose an action")
            # An outcome announced or not, the table stays where it was: your cards above the panel.
            top = _box(page, "#table")["y"]
            table_top = top if table_top is None else table_top
            assert abs(top - table_top) <= 1, (top, table_top)
            hand, panel = _box(page, "#table .my-hand"), _box(page, "#table .decision.mine")
            assert hand["y"] >= 0 and hand["y"] + hand["height"] <= panel["y"] + 1, (hand, panel)
            if page.locator("#banners [data-banner]").count():
                with_banners += 1
                expect(page.locator("#banners [data-banner]").first).to_be_in_viewport()
                shot(page, "desktop-banner-over-the-seats")
            aria.click("Income")
        elif any(o.startswith("Lose ") for o in options):
            panel = page.locator("#table .decision.mine")
            expect(panel.locator(".card-actions [data-hint]")).to_have_text("Tap a card, then “Lose”.")
            aria.click(next(o for o in options if o.startswith("Lose ")))
            lost += 1
            if lost == 1:
                # The lost card lies on her tile, once; "Your cards" holds the one she keeps.
                mine = page.locator("[data-kind=board] .player.you")
                expect(mine.locator(".card.lost")).to_have_count(1)
                expect(page.locator("#table .my-hand .card.lost")).to_have_count(0)
                expect(page.locator("#table .my-hand .card")).to_have_count(1)
        else:
            aria.click("Pass" if "Pass" in options else options[0])
    assert not page.js_errors
    context.close()
    return lost, with_banners


def test_banners_leave_the_board_in_sight_and_a_lost_card_shows_once(server, browser):
    # A match may end with no card to choose (two alike are lost without asking): play another.
    lost = with_banners = 0
    for _ in range(4):
        more_lost, more_banners = _play_income_only(server, browser)
        lost, with_banners = lost + more_lost, with_banners + more_banners
        if lost and with_banners:
            break
    assert lost, "Aria never chose a card to lose"
    assert with_banners, "no turn of Aria's came while an outcome was announced"


ROLE_ROWS = """(role) => ['Aria', 'Blake', 'Cass'].map((name, i) => ({name, alive: true, active: i === 0,
    stats: [{label: 'role', value: Array.isArray(role) ? role[i] : role}, {label: 'points', value: 0}],
    cards: [], tags: [], table: []}))"""


def test_a_shared_role_is_not_shown_and_counts_read_singular_or_plural(server, browser):
    context, page = open_page(browser, DESKTOP)
    page.goto(server.base + "/history")
    for role, shown in (("Player", 0), (["Merlin", "Minion", "Servant"], 3)):
        rows = page.evaluate(ROLE_ROWS, role)
        view = _view(players=["Aria", "Blake", "Cass"], components=[
            {"key": "phase", "kind": "phase", "name": "Pick a team"}, {"key": "board", "kind": "board", "players": rows}])
        page.evaluate(RENDER, [view, None])
        expect(page.locator("#probe-table [data-stat=role]")).to_have_count(shown)
        expect(page.locator("#probe-table [data-stat=points]")).to_have_count(3)
    # A turn indicator left from an earlier phase names Aria; the tile marked "turn" is Blake's: the heading says Blake.
    rows = page.evaluate(ROLE_ROWS, "Player")
    rows[0]["active"], rows[1]["active"] = False, True
    board = {"key": "board", "kind": "board", "players": rows}
    phase = {"key": "phase", "kind": "phase", "name": "Place a Disc"}
    page.evaluate(RENDER, [_view(players=["Aria", "Blake", "Cass"], components=[
        phase, {"key": "turn", "kind": "turn", "player": "Aria"}, board]), None])
    expect(page.locator("#probe-table [data-kind=turn]")).to_have_text("Blake's turn")
    # A line about the table names each player in their colour, as the log does.
    page.evaluate(RENDER, [_view(players=["Aria", "Blake", "Cass"], components=[
        phase, {"key": "say", "kind": "text", "text": "Blake declares Steal on Cass."}, board]), None])
    expect(page.locator("#probe-table [data-kind=text] .pname")).to_have_text(["Blake", "Cass"])
    # Once the match is over, the result says so, not the last phase's name.
    page.evaluate(RENDER, [_view(players=["Aria", "Blake", "Cass"], over=True, winners=["Blake"],
                                 components=[phase, board]), None])
    expect(page.locator("#probe-table [data-kind=result]")).to_contain_text("Blake")
    expect(page.locator("#probe-table [data-kind=phase]")).to_have_count(0)

    said = page.evaluate("""async () => {
        const {lineText} = await import('/static/events.js');
        const {gameTable, t} = await import('/static/i18n.js');
        const avalon = await gameTable('avalon');
        const view = {players: ['Aria'], you: 'Aria'};
        const fails = (n) => lineText(avalon, {key: 'Quest {quest} fails with {fails} Fail card(s).',
            text: '', args: {quest: 2, fails: n}}, view);
        const wins = lineText(avalon, {key: 'Quest {quest} succeeds ({fails} Fail card(s)).', text: '',
            args: {quest: 1, fails: 0}}, view);
        return [fails(1), fails(2), wins, t('decision.pickplayers', {count: 1}), t('decision.tapkeep', {count: 2})];
    }""")
    assert said == ["Quest 2 fails with 1 Fail card.", "Quest 2 fails with 2 Fail cards.",
                    "Quest 1 succeeds (no Fail card).", "Choose 1 player", "Tap the 2 cards to keep"]
    context.close()

    context, page = open_page(browser, DESKTOP, lang="fr")
    page.goto(server.base + "/history")
    said = page.evaluate("""async () => {
        const {gameText, gameTable, setupI18n, t} = await import('/static/i18n.js');
        await setupI18n();
        const bang = await gameTable('bang');
        const deck = (n) => gameText(bang, '', {key: 'Discard pile: empty · deck: {count} cards', args: {count: n}});
        const lives = gameText(bang, '', {key: '{player} loses {amount} life ({left} left).',
            args: {player: 'Aria', amount: 2, left: 1}}, new Set(['Aria']));
        return [deck(1), deck(3), lives, t('decision.pickplayers', {count: 1}), t('decision.kept', {n: 2, count: 2})];
    }""")
    assert said == ["Défausse : vide · pioche : 1 carte", "Défausse : vide · pioche : 3 cartes",
                    "Aria perd 2 vies (1 restante).", "Choisissez 1 joueur", "2 sur 2 choisies"]
    assert not page.js_errors
    context.close()


def test_at_six_seats_on_a_laptop_the_newest_log_line_is_in_sight(server, browser):
    """Beside the table the log came below the seats: with six players its newest lines (what just
    happened) were under the bottom of a 1280×720 screen. During a match it comes first."""
    joined = server.post("/api/rooms", {"game": "coup", "name": "Aria", "seats": 6, "bots": [{"kind": "heuristic"}] * 5,
                                        "options": {"turn_timer": 120, "window_timer": 60}, "private": True})
    context, page = open_page(browser, {"width": 1280, "height": 720})
    sit_down(page, server, joined)
    page.get_by_role("button", name="Start the game").click()
    aria = Player("Aria", page)
    # Enough turns for the log to fill its panel (Aria takes Income and lets everything pass).
    while len(aria.log()) < 14 and not aria.over():
        options = wait_until(lambda: aria.options() or aria.over(), 60, "a decision or the end", page)
        if options is True:
            break
        aria.click("Income" if "Income" in options else "Pass" if "Pass" in options else options[0])
    page.evaluate("scrollTo(0, 0)")
    newest = page.locator("#log li").last
    expect(newest).to_be_in_viewport(ratio=0.5)
    assert not page.js_errors
    context.close()
