"""Coup over thousands of seeded random games, 2 to 10 players.

Every moment a decision completes (a choice, or an option the engine takes by
itself), the recorder checks the cards, the coins and who is being asked. At the
end of every turn an oracle written from the rules, not from the rules module,
recomputes everyone's coins from the choices made and the hands held.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest

from intrigue.engine import Match, replay

GAMES = 2_000
TREASURY = 50
CLAIMS = {"Tax": "Duke", "Assassinate": "Assassin", "Steal": "Captain", "Exchange": "Ambassador"}
COSTS = {"Assassinate": 3, "Coup": 7}
GAINS = {"Income": 1, "Foreign Aid": 2, "Tax": 3}


def court(players: int) -> Counter:
    copies = 3 if players <= 6 else 4 if players <= 8 else 5
    return Counter({c: copies for c in ("Duke", "Assassin", "Ambassador", "Captain", "Contessa")})


@dataclass
class Moment:
    """A completed decision and the table when it completed (before its effects)."""

    phase: int
    answers: dict[int, str]
    coins: list[int]
    hands: list[list[str]]
    alive: list[bool]


class Recorded(Match):
    """A match that checks the table and keeps a timeline at every completed decision."""

    def __init__(self, *args, **kwargs):
        self.timeline: list[Moment] = []
        super().__init__(*args, **kwargs)

    @property
    def last_decision(self):
        return self.__dict__.get("_last_decision")

    @last_decision.setter
    def last_decision(self, decision):
        self.__dict__["_last_decision"] = decision
        if decision is None:
            return
        for seat in decision.offers:
            assert self.players[seat]["is_alive"], f"a decision was offered to {self.names[seat]}, who is out"
        check_table(self)
        self.timeline.append(Moment(decision.phase_id, dict(decision.answers),
                                    [p["coins"] for p in self.players],
                                    [unrevealed(p) for p in self.players],
                                    [p["is_alive"] for p in self.players]))


def unrevealed(player: dict) -> list[str]:
    return [s["character"] for s in player["influences"].values() if not s["revealed"]]


def check_table(m: Match) -> None:
    """Cards and coins are conserved; life is having an unrevealed card."""
    cards = m.state["court_deck"] + m.state["exchange"]["drawn"] + [
        s["character"] for p in m.players for s in p["influences"].values()]
    assert Counter(cards) == court(len(m.players)), "cards are not conserved"
    assert m.state["treasury"] + sum(p["coins"] for p in m.players) == TREASURY, "coins are not conserved"
    for p in m.players:
        assert p["coins"] >= 0
        assert len(p["influences"]) == 2
        assert p["is_alive"] == bool(unrevealed(p))
        if not p["is_alive"]:
            assert p["coins"] == 0, "the coins of the exiled go back to the treasury"


def play(game, players: int, seed: int) -> Recorded:
    names = [f"P{i + 1}" for i in range(players)]
    match = Recorded(game, names, seed, headless=True)
    rng = random.Random(seed)
    while not match.over:
        for seat in match.pending:
            assert match.players[seat]["is_alive"], "a dead player is pending"
            assert match.legal(seat), "a pending player has no option"
        seat = rng.choice(match.pending)
        match.choose(seat, rng.choice(match.legal(seat)))
        check_table(match)
        assert len(match.log) < 2_000, "the game does not end"
    return match


# -- the coin oracle ---------------------------------------------------------------------------------
def turns(timeline: list[Moment]) -> list[list[Moment]]:
    """Split the timeline at each action declaration (phase 3)."""
    split: list[list[Moment]] = []
    for moment in timeline:
        if moment.phase == 3:
            split.append([])
        if split and moment.answers:
            split[-1].append(moment)
    return split


def expected_coins(turn: list[Moment], end_alive: list[bool]) -> list[int]:
    """What the rules (004 and the rulings) say everyone holds after this turn."""
    declaration = turn[0]
    (actor, option), = declaration.answers.items()
    verb, _, target_name = option.rpartition(" ") if option.split()[-1].startswith("P") else (option, "", "")
    target = int(target_name[1:]) - 1 if target_name else None
    coins = list(declaration.coins)
    coins[actor] -= COSTS.get(verb, 0)
    by_phase = {m.phase: m for m in turn}
    succeeds = True
    challenge = by_phase.get(4)
    if challenge and "Challenge" in challenge.answers.values():
        if CLAIMS[verb] not in challenge.hands[actor]:
            succeeds = False
            coins[actor] += COSTS.get(verb, 0)  # a failed claim's cost is returned
    block = next((by_phase[p] for p in (10, 11, 12) if p in by_phase), None)
    blocker = next(((s, a) for s, a in block.answers.items() if a.startswith("Block ")), None) if block else None
    if succeeds and blocker:
        seat, answer = blocker
        succeeds = False
        block_challenge = by_phase.get(13)
        if block_challenge and "Challenge" in block_challenge.answers.values():
            succeeds = answer.removeprefix("Block ") not in block_challenge.hands[seat]
    if succeeds and verb in GAINS:
        coins[actor] += GAINS[verb]
    if succeeds and verb == "Steal" and end_alive[target]:
        taken = min(2, coins[target])
        coins[target] -= taken
        coins[actor] += taken
    return [c if alive else 0 for c, alive in zip(coins, end_alive)]


def check_coins(match: Recorded) -> int:
    """Every turn's coins, recomputed from its choices; returns the number of turns checked."""
    split = turns(match.timeline)
    ends = [turn_after[0] for turn_after in split[1:]]
    checked = 0
    for index, turn in enumerate(split):
        if index < len(ends):
            after_coins, after_alive = ends[index].coins, ends[index].alive
        else:
            after_coins = [p["coins"] for p in match.players]
            after_alive = [p["is_alive"] for p in match.players]
        assert expected_coins(turn, after_alive) == after_coins, f"turn {index + 1}: {turn}"
        checked += 1
    return checked


# -- the properties -----------------------------------------------------------------------------------------
SEEDS = range(GAMES)


def players_for(seed: int) -> int:
    return 2 + seed % 9


@pytest.fixture(scope="module")
def played(coup):
    return [(seed, play(coup, players_for(seed), seed)) for seed in SEEDS]


def test_thousands_of_games_of_2_to_10_players(played):
    assert len(played) >= 2_000
    assert {m.names.__len__() for _, m in played} == set(range(2, 11))


def test_every_game_ends_with_exactly_one_winner(played):
    for seed, match in played:
        assert match.over, seed
        assert len(match.winners) == 1, seed
        winner = match.winners[0]
        assert [p["is_alive"] for p in match.players].count(True) == 1
        assert match.players[winner]["is_alive"]
        assert match.phase.name == "Game Over — Summary"


def test_coins_only_change_as_the_rules_say(played):
    checked = sum(check_coins(match) for _, match in played)
    assert checked > 10 * GAMES  # many turns, not a handful


def test_every_branch_of_the_flow_is_played(played):
    """The random games reach every phase of the DSL, so the properties cover them all."""
    reached = Counter(moment.phase for _, match in played for moment in match.timeline if moment.answers)
    assert set(reached) >= {3, 4, 6, 8, 9, 10, 11, 12, 13, 15, 17, 18, 21, 22}


def test_the_same_seed_replays_the_same_game(coup, played):
    for seed, match in played[::5]:
        again = replay(coup, match.names, seed, None, [(c.seat, c.option) for c in match.log], headless=True)
        assert again.players == match.players
        assert again.state == match.state
        assert again.winners == match.winners
        twin = play(coup, len(match.names), seed)
        assert [(c.seat, c.option) for c in twin.log] == [(c.seat, c.option) for c in match.log]


def test_replay_with_the_canvas_matches_headless_play(coup, played):
    """Display tools change nothing: a full match and a headless one end the same way."""
    for seed, match in played[:200]:
        full = replay(coup, match.names, seed, None, [(c.seat, c.option) for c in match.log])
        assert full.players == match.players
        assert full.state == match.state
