"""Parts of the table that the three seed games do not reach yet, rendered by the real client
module in Chromium from views written to the protocol's contracts (docs/protocol.md):

- choose exactly N players (``decision.pick``): N-of-M player chips and Confirm, which
  sends the chosen names in seat order joined by ", ";
- a secret decision: ``waiting`` names every player who could be acting, and the page says
  whom the table waits for without marking anyone as the actor;
- a DSL timer phase (``timer.kind == "phase"``): the countdown says the phase ends;
- the end: under the winner, how it ended (the log's last lines, an empty value as "—"), and not the
  table's last line, out of date by then; your cards, face up on your tile, not again under "Your cards".
"""

from __future__ import annotations

from playwright.sync_api import expect

from .pages import PHONE, assert_accessible, open_page, shot

PLAYERS = ["Aria", "Blake", "Cass", "Dee", "Eli"]


def _view(**changes):
    view = {"game": "heist", "title": "Heist", "version": 7, "seat": 0, "you": "Aria", "players": PLAYERS,
            "phase": {"id": 2, "name": "Pick a team"}, "waiting": ["Aria"], "decision": None, "state": {},
            "components": [
                {"key": "phase", "kind": "phase", "name": "Pick a team"},
                {"key": "board", "kind": "board", "players": [
                    {"name": n, "alive": True, "active": n == "Aria", "stats": [], "cards": [], "tags": [], "table": []}
                    for n in PLAYERS]}],
            "log": [], "over": False, "winners": []}
    view.update(changes)
    return view


RENDER = """async ([view, timer]) => {
    const {renderView, Countdown} = await import('/static/render.js');
    const {setupI18n} = await import('/static/i18n.js');
    await setupI18n();
    window.sent = [];
    const root = document.querySelector('#probe-table') || Object.assign(document.createElement('section'),
        {id: 'probe-table', className: 'table'});
    root.setAttribute('aria-label', 'Table');
    document.querySelector('main').prepend(root);
    const countdown = new Countdown();
    countdown.set(timer);
    renderView(root, view, {countdown: countdown.node, timer, onChoose: (option) => window.sent.push(option)});
}"""


def test_choose_n_players_secret_waiting_and_a_phase_timer(server, browser):
    context, page = open_page(browser, PHONE)
    page.goto(server.base + "/history")
    options = ["Aria, Blake", "Aria, Cass", "Blake, Dee", "Cass, Eli", "Blake, Cass"]
    decision = {"phase": 2, "kind": "single_player_choice", "waiting": ["Aria"], "options": options,
                "pick": {"count": 2, "from": PLAYERS}}
    view = _view(decision=decision, components=_view()["components"] + [
        {"key": "options", "kind": "options", "prompt": "Choose 2 players for the mission"}])
    page.evaluate(RENDER, [view, {"seconds_left": 20, "seconds": 30, "kind": "turn"}])
    panel = page.locator("#probe-table .decision.mine")
    expect(panel.locator("h2")).to_have_text("Choose 2 players for the mission")
    confirm = panel.get_by_role("button", name="Confirm")
    expect(confirm).to_be_disabled()
    panel.locator("[data-pick=Cass]").click()
    panel.locator("[data-pick=Blake]").click()
    panel.locator("[data-pick=Dee]").click()  # a third is not taken: exactly N
    expect(panel.locator("[data-pick=Dee]")).to_have_attribute("aria-pressed", "false")
    expect(panel.locator(".pick-status")).to_have_text("2 of 2 chosen")
    expect(confirm).to_be_enabled()
    shot(page, "parts-choose-two-players")
    assert_accessible(page, "choose-N panel")
    confirm.click()
    assert page.evaluate("window.sent") == ["Blake, Cass"]  # seat order, joined by ", "

    # A secret decision: every living player is listed as awaited; nobody is marked acting.
    everyone = ["Aria", "Blake", "Cass", "Dee", "Eli"]
    secret = _view(seat=2, you="Cass", waiting=everyone,
                   decision={"phase": 3, "kind": "all_players_action", "waiting": everyone, "options": []})
    page.evaluate(RENDER, [secret, {"seconds_left": 12, "seconds": 15, "kind": "window"}])
    table = page.locator("#probe-table")
    expect(table.locator(".waiting")).to_have_text("Waiting for Aria, Blake, Cass, Dee, and Eli")
    expect(table.locator(".decision.mine")).to_have_count(0)
    expect(table.locator(".countdown-label")).to_have_text("time to answer")

    # A timer phase (nobody decides): the countdown says when the phase ends.
    timed = _view(waiting=[], decision=None)
    page.evaluate(RENDER, [timed, {"seconds_left": 50, "seconds": 90, "kind": "phase"}])
    expect(table.locator(".indicators .countdown-label")).to_have_text("phase ends in")
    expect(table.locator(".indicators .countdown")).to_be_visible()
    shot(page, "parts-timer-phase")
    assert page.js_errors == []
    context.close()


def test_the_end_says_how_it_ended_not_the_last_claim(server, browser):
    context, page = open_page(browser, {"width": 1280, "height": 800})
    page.goto(server.base + "/history")
    log = [{"version": 5, "text": "Aria bids 3.", "key": "{player} bids {n}.", "args": {"player": "Aria", "n": 3}},
           {"version": 6, "text": "Blake meets a skull.", "key": "{player} meets a skull.", "args": {"player": "Blake"}},
           {"version": 6, "text": "Blake — hand: Flower, stack: ", "key": "{player} — hand: {hand}, stack: {stack}",
            "args": {"player": "Blake", "hand": "Flower", "stack": ""}},
           {"version": 7, "text": "Aria wins.", "key": "{player} wins.", "args": {"player": "Aria"}}]
    board = _view()["components"][1]
    board["players"][0]["cards"] = [{"label": "Duke", "lost": False}, {"label": "Captain", "lost": True}]
    view = _view(over=True, winners=["Aria"], waiting=[], log=log, components=[_view()["components"][0], board] + [
        {"key": "hand-0", "kind": "hand", "player": "Aria", "cards": ["Duke"], "lost": ["Captain"]},
        {"key": "said", "kind": "text", "text": "Aria bids 3."},
        {"key": "result", "kind": "result", "title": "Game Over", "winners": ["Aria"]}])
    page.evaluate(RENDER, [view, None])
    ending = page.locator("#probe-table [data-kind=result] [data-kind=ending] li")
    expect(ending).to_have_text(["Blake meets a skull.", "Blake — hand: Flower, stack: —", "Aria wins."])
    expect(page.locator("#probe-table [data-kind=text]")).to_have_count(0)
    # Sheriff of Nottingham's end: the last move writes every player's score, then the winner; all shown
    scores = [{"version": 9, "text": f"{name}: {n} coins.", "key": "{player.name}: {player.coins} coins.",
               "args": {"player.name": name, "player.coins": str(n)}} for name, n in [("Aria", 50), ("Blake", 61),
                                                                                    ("Casey", 40), ("Dana", 12)]]
    page.evaluate(RENDER, [{**view, "log": log + scores + [{"version": 9, "text": "Blake is the richest merchant!"}]},
                           None])
    expect(ending).to_have_text([line["text"] for line in scores] + ["Blake is the richest merchant!"])
    # Aria's Duke, face up on her tile for everyone now, is not shown again under "Your cards".
    expect(page.locator("#probe-table [data-kind=board] .player[data-player=Aria] .card")).to_have_count(2)
    expect(page.locator("#probe-table [data-kind=hand]")).to_have_count(0)
    assert not page.js_errors
    context.close()
