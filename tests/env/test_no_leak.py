"""No leak through sampling: a determinizer's samples do not move toward the hidden truth.

For each game we deal many matches that differ in one hidden fact T (an opponent's
card or role), drawn at random and independently of everything else the observing
seat (seat 0, ``P1``) sees: its own information is fixed, the rest of the deal is
random. At seat 0's first decision we ask the game's determinizer (``binding.determinize``,
the sampler of our search bots and of OpenSpiel's ISMCTS) for one sample S of that
fact. A sampler that reads only the seat's observation gives S independent of T;
one that peeks gives S = T more often than chance.

The check is Pearson's chi-square test of independence on the T × S table
(``scipy.stats.chi2_contingency``), at α = 0.001 with fixed seeds. Its power is
stated, not hoped for: against a sampler that returns the truth in 20% of its
samples (and otherwise samples like the real one), the test's noncentral
chi-square power at the number of deals used is computed and must be at least
0.99; and that very leaky sampler is run and must fail the test.
"""

from __future__ import annotations

import random
from typing import Any, Callable

import numpy as np
import pytest
from scipy.stats import chi2, chi2_contingency, ncx2

from intrigue import games
from intrigue.engine import Match

ALPHA = 0.001
LEAK = 0.2
POWER = 0.99
DEALS = 1000
NAMES = ["P1", "P2", "P3", "P4"]


class Case:
    """How to deal a match whose hidden fact is ``truth``, and read that fact back."""

    def __init__(self, values: list[str], deal: Callable[[random.Random, str, int], Match],
                 read: Callable[[Match], str], draw: Callable[[random.Random], str]):
        self.values, self.deal, self.read, self.draw = values, deal, read, draw


def coup_case() -> Case:
    game = games.get("coup")
    mine = ["Duke", "Captain"]
    court = [c for c in ("Duke", "Assassin", "Ambassador", "Captain", "Contessa") for _ in range(3)]
    for card in mine:
        court.remove(card)

    def draw(rng):
        return rng.choice(court)

    def deal(rng, truth, seed):
        rest = list(court)
        rest.remove(truth)
        rng.shuffle(rest)
        hands = {"P1": mine, "P2": [truth, rest.pop()], "P3": [rest.pop(), rest.pop()], "P4": [rest.pop(), rest.pop()]}
        return Match(game, NAMES, seed, setup={"hands": hands, "deck": rest, "first": "P1"}, headless=True)

    return Case(sorted(set(court)), deal, lambda m: m.players[1]["influences"]["1"]["character"], draw)


def bang_case() -> Case:
    game = games.get("bang")
    others = ["Renegade", "Outlaw", "Outlaw"]

    def deal(rng, truth, seed):
        return Match(game, NAMES, seed, setup={"roles": {"P1": "Sheriff", "P2": truth}}, headless=True)

    return Case(sorted(set(others)), deal, lambda m: m.players[1]["role"], lambda rng: rng.choice(others))


def declared_case(game_id: str) -> Case | None:
    """A DSL game with a role deal: seat 0 holds the role that takes the rest of the seats (the plain
    one: a villager knows nothing of the others, while a werewolf or Merlin would), the others are
    dealt at random."""
    game = games.get(game_id)
    deal_spec = game.definition.declaration.role_deal
    if deal_spec is None:
        return None
    count = max(game.min_players, min(4, game.max_players))
    names = [f"P{i + 1}" for i in range(count)]
    roles: list[str] = []
    rest = next(name for name, spec in deal_spec.roles.items() if spec.rest)
    for name, spec in deal_spec.roles.items():
        if not spec.rest:
            roles += [name] * (spec.counts or {}).get(count, 0)
    roles += [rest] * (count - len(roles))
    mine = rest
    others = list(roles)
    others.remove(mine)
    field = deal_spec.field

    def deal(rng, truth, seed):
        left = list(others)
        left.remove(truth)
        rng.shuffle(left)
        assigned = {names[0]: mine, names[1]: truth, **{name: role for name, role in zip(names[2:], left)}}
        return Match(game, names, seed, setup={"roles": assigned, "first": names[0]}, headless=True)

    return Case(sorted(set(others)), deal, lambda m: m.players[1][field], lambda rng: rng.choice(others))


def case_for(game_id: str) -> Case | None:
    return {"coup": coup_case, "bang": bang_case}.get(game_id, lambda: declared_case(game_id))()


def at_seat_zero_decision(match: Match) -> bool:
    """Others answer with the game's timeout default (never a choice that depends on their
    secrets) until seat 0 has a decision."""
    default = match.game.binding.timeout_choice
    for _ in range(200):
        if match.over:
            return False
        if 0 in match.pending:
            return True
        seat = match.pending[0]
        options = match.legal(seat)
        choice = default(match, seat, options) if default else options[0]
        match.choose(seat, choice if choice in options else options[0])
    return False


def table(case: Case, game_id: str, leak: float = 0.0, seed: int = 0) -> np.ndarray:
    """Counts of (true value, sampled value) over ``DEALS`` deals."""
    game = games.get(game_id)
    rng = random.Random(seed)
    sampler_rng = random.Random(seed + 1)
    index = {value: i for i, value in enumerate(case.values)}
    counts = np.zeros((len(case.values), len(case.values)))
    made = 0
    attempts = 0
    while made < DEALS:
        attempts += 1
        assert attempts < DEALS * 3, "could not reach a decision of seat 0 in most deals"
        truth = case.draw(rng)
        match = case.deal(rng, truth, rng.getrandbits(31))
        if not at_seat_zero_decision(match):
            continue
        sample = game.binding.determinize(game, match.observe(0), 0, sampler_rng)
        assert sample is not None, "the determinizer can sample this decision"
        sampled = case.read(sample)
        if leak and sampler_rng.random() < leak:  # the deliberately leaky sampler peeks
            sampled = case.read(match)
        counts[index[case.read(match)], index[sampled]] += 1
        made += 1
    return counts


def p_value(counts: np.ndarray) -> float:
    counts = counts[counts.sum(axis=1) > 0][:, counts.sum(axis=0) > 0]
    return float(chi2_contingency(counts, correction=False).pvalue)


def power_against_leak(counts: np.ndarray, leak: float) -> float:
    """The chi-square test's power at this many deals against a sampler leaking the truth with
    probability ``leak``, its honest part shaped like the observed samples."""
    total = counts.sum()
    truth = counts.sum(axis=1) / total
    honest = counts.sum(axis=0) / total
    joint = truth[:, None] * ((1 - leak) * honest[None, :] + leak * np.eye(len(truth)))
    sampled = joint.sum(axis=0)
    expected = truth[:, None] * sampled[None, :]
    keep = expected > 0
    w2 = float((((joint - expected) ** 2)[keep] / expected[keep]).sum())
    df = (int((truth > 0).sum()) - 1) * (int((sampled > 0).sum()) - 1)
    return float(ncx2.sf(chi2.isf(ALPHA, df), df, total * w2))


@pytest.mark.parametrize("game_id", games.installed())
def test_samples_are_independent_of_the_hidden_truth(game_id):
    case = case_for(game_id)
    if case is None:
        pytest.skip(f"{game_id} deals no roles: nothing hidden to sample")
    honest = table(case, game_id)
    assert power_against_leak(honest, LEAK) >= POWER
    assert p_value(honest) >= ALPHA, f"{game_id}: sampled values depend on the truth:\n{honest}"
    leaky = table(case, game_id, leak=LEAK)
    assert p_value(leaky) < ALPHA, "the check must catch a sampler that peeks"
