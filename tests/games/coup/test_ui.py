"""What each seat is shown: UI-kit components with the right audience, and nothing secret.

A browser client renders Coup from ``observe(match, seat)`` alone: the components
(turn, board, hand, text, options, result) and the seat's decision options.
"""

import json
import random

import pytest

from intrigue.engine import Match
from .support import NAMES, SETUP

SEATS = [0, 1, 2, None]  # None: a spectator


def new(coup, **coins):
    return Match(coup, NAMES, 0, None, dict(SETUP, coins=coins))


def components(match, seat):
    return {c["key"]: c for c in match.observe(seat)["components"]}


def who_sees(match, key):
    return [seat for seat in SEATS if key in components(match, seat)]


def test_each_hand_is_shown_to_its_owner_only(coup):
    m = new(coup)
    for seat in SEATS:
        hands = [c for c in components(m, seat).values() if c["kind"] == "hand"]
        if seat is None:
            assert hands == []
        else:
            assert [(h["player"], h["cards"]) for h in hands] == [(NAMES[seat], SETUP["hands"][NAMES[seat]])]


def test_the_action_menu_goes_to_the_active_player_and_the_others_wait(coup):
    m = new(coup)
    assert who_sees(m, "options") == [0]
    assert components(m, 0)["options"]["prompt"] == "Choose your action"
    assert who_sees(m, "waiting") == [1, 2, None]
    assert components(m, 1)["waiting"]["text"] == "Waiting for Aria to choose an action…"
    assert components(m, None)["turn"] == {"key": "turn", "kind": "turn", "player": "Aria"}


def test_the_claim_window_is_offered_to_every_opponent_and_announced_to_all(coup):
    m = new(coup)
    m.choose(0, "Tax")
    assert who_sees(m, "options") == [1, 2]
    assert who_sees(m, "waiting") == [0, None]
    assert who_sees(m, "declared") == SEATS
    assert components(m, None)["declared"]["text"] == "Aria declares Tax, claiming Duke."
    assert m.observe(1)["decision"]["options"] == ["Challenge", "Pass"]
    assert m.observe(0)["decision"]["options"] == []
    m.choose(1, "Pass")  # an answered prompt gives way to the waiting line
    assert who_sees(m, "options") == [2]
    assert who_sees(m, "waiting") == [0, 1, None]
    assert components(m, 1)["waiting"]["text"] == "Waiting for the others to challenge or pass…"


def test_block_options_only_reach_the_target(coup):
    m = new(coup, Aria=3)
    m.choose(0, "Assassinate Blake")
    m.choose(1, "Pass")
    m.choose(2, "Pass")
    assert who_sees(m, "options") == [1]
    assert components(m, 1)["options"]["prompt"] == "Block Aria's Assassinate (Contessa)?"
    assert [m.observe(s)["decision"]["options"] for s in SEATS] == [[], ["Block Contessa", "Pass"], [], []]
    assert who_sees(m, "waiting") == [0, 2, None]
    assert components(m, 2)["waiting"]["text"] == "Waiting for Blake to block (Contessa) or pass…"
    assert who_sees(m, "declared") == SEATS  # what is being blocked stays on the table


def test_a_foreign_aid_block_is_offered_to_every_opponent_and_its_challenge_to_all_but_the_blocker(coup):
    m = new(coup)
    m.choose(0, "Foreign Aid")
    assert who_sees(m, "options") == [1, 2]
    assert m.observe(2)["decision"]["options"] == ["Block Duke", "Pass"]
    m.choose(2, "Block Duke")
    assert who_sees(m, "options") == [0, 1]
    assert who_sees(m, "waiting") == [2, None]
    assert components(m, None)["block"]["text"] == "Casey claims Duke to block Aria's Foreign Aid."


def test_losing_an_influence_shows_the_reason_to_the_loser(coup):
    m = new(coup, Aria=7)
    m.choose(0, "Coup Blake")
    assert components(m, 1)["options"]["prompt"] == "Choose a card to lose (Coup)"
    assert m.observe(1)["decision"]["options"] == ["Lose Captain", "Lose Contessa"]
    assert components(m, 0)["waiting"]["text"] == "Waiting for Blake to lose an influence (Coup)…"


def test_announcements_are_public_and_draws_are_private(coup):
    m = new(coup)
    m.choose(0, "Exchange")
    m.choose(1, "Pass")
    m.choose(2, "Pass")
    public = [e["text"] for e in m.observe(None)["log"]]
    assert "Aria declares Exchange, claiming Ambassador." in public
    assert "Aria draws 2 cards from the court." in public
    assert "You drew Contessa and Captain." in [e["text"] for e in m.observe(0)["log"]]
    for seat in (1, 2, None):
        assert "You drew Contessa and Captain." not in [e["text"] for e in m.observe(seat)["log"]]
    assert who_sees(m, "exchange") == [0]
    assert components(m, 0)["exchange"]["cards"] == ["Duke", "Assassin", "Contessa", "Captain"]
    assert m.observe(0)["state"]["exchange_drawn"] == ["Contessa", "Captain"]
    assert "exchange_drawn" not in m.observe(1)["state"]


def test_a_proven_claim_is_public_but_the_replacement_is_private(coup):
    m = new(coup)
    m.choose(0, "Tax")
    m.choose(1, "Challenge")
    public = [e["text"] for e in m.observe(None)["log"]]
    assert "Aria reveals Duke: the claim was true." in public
    assert not any("Contessa" in text for text in public)
    assert "You drew Contessa." in [e["text"] for e in m.observe(0)["log"]]


def test_lost_cards_are_face_up_for_everyone(coup):
    m = new(coup, Aria=7)
    m.choose(0, "Coup Blake")
    m.choose(1, "Lose Contessa")
    for seat in SEATS:
        blake = components(m, seat)["board"]["players"][1]
        assert blake["cards"] == [{"label": None, "up": False, "lost": False} if seat != 1 else
                                  {"label": None, "up": False, "lost": False},
                                  {"label": "Contessa", "up": True, "lost": True}]
        state = m.observe(seat)["state"]["players"][1]["influences"]
        assert state[1] == {"character": "Contessa", "revealed": True}
        assert state[0]["character"] == ("Captain" if seat == 1 else None)


def test_the_final_reveal_is_public_at_game_over(coup):
    m = Match(coup, ["Aria", "Blake"], 0, None, {
        "hands": {"Aria": ["Duke", "Assassin"], "Blake": ["Captain", "Contessa"]},
        "deck": ["Contessa", "Captain", "Assassin", "Ambassador", "Duke", "Contessa", "Captain", "Assassin",
                 "Ambassador", "Duke", "Ambassador"],
        "coins": {"Aria": 9, "Blake": 1}, "first": "Aria"})
    m.choose(0, "Coup Blake")
    m.choose(1, "Lose Captain")
    m.choose(1, "Income")
    m.choose(0, "Income")
    m.choose(1, "Income")
    m.choose(0, "Assassinate Blake")
    m.choose(1, "Pass")
    m.choose(1, "Pass")
    assert m.over and m.winners == [0]
    spectator = components(m, None)
    assert spectator["result"]["winners"] == ["Aria"]
    assert spectator["result"]["title"] == "Aria wins!"
    assert [[c["label"] for c in p["cards"]] for p in spectator["board"]["players"]] == [
        ["Duke", "Assassin"], ["Captain", "Contessa"]]
    assert all(c["up"] for p in spectator["board"]["players"] for c in p["cards"])
    assert m.observe(None)["state"]["players"][0]["influences"][0]["character"] == "Duke"


@pytest.mark.parametrize("seed", range(60))
def test_no_observation_leaks_a_hidden_card_and_every_decision_is_drawn(coup, seed):
    """Random games: at every moment each seat sees only its own face-down cards, the
    deciding players have a prompt and buttons, and everyone else is told who is awaited."""
    rng = random.Random(seed)
    names = [f"P{i + 1}" for i in range(2 + seed % 5)]
    m = Match(coup, names, seed)
    while not m.over:
        for seat in [*range(len(names)), None]:
            view = m.observe(seat)
            json.dumps(view)  # a client gets plain JSON
            keys = {c["key"] for c in view["components"]}
            for owner, player in enumerate(view["state"]["players"]):
                for slot, card in zip(m.players[owner]["influences"].values(), player["influences"]):
                    hidden = not slot["revealed"] and owner != seat
                    assert (card["character"] is None) == hidden
            board = next(c for c in view["components"] if c["key"] == "board")
            assert all(c["label"] is None for p in board["players"] for c in p["cards"] if not c["up"])
            hands = [c["player"] for c in view["components"] if c["kind"] == "hand"]
            assert hands == ([] if seat is None else [names[seat]] * len(hands))
            if seat in m.pending:
                assert "options" in keys and view["decision"]["options"] == m.legal(seat)
                assert "waiting" not in keys
            else:
                assert "options" not in keys and view["decision"]["options"] == []
                assert "waiting" in keys
        seat = rng.choice(m.pending)
        m.choose(seat, rng.choice(m.legal(seat)))
    assert "result" in {c["key"] for c in m.observe(None)["components"]}
