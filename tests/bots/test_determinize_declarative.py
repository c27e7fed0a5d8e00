"""The generic determinizer of DSL-only games (DSFGS, Heist) rebuilds what a seat sees."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from intrigue import games
from intrigue.bots import SeatView
from intrigue.bots.ismcts import ISMCTS
from intrigue.engine.determinize import _composition
from intrigue.engine import Match

from .helpers import decisions


@pytest.fixture(scope="module", params=["dsfgs", "heist"])
def game(request):
    return games.get(request.param)



def test_a_sample_shows_the_seat_exactly_what_it_observes(game):
    deal = game.definition.declaration.role_deal
    sample_rng = random.Random(1)
    checked = Counter()
    for players in range(game.min_players, game.max_players + 1):
        for match, seat in decisions(game, players, range(4)):
            seen = match.observe(seat)
            sample = game.binding.determinize(game, seen, seat, sample_rng)
            assert sample is not None, (match.phase_id, seen["decision"])
            again = sample.observe(seat)
            assert again["state"] == seen["state"]
            assert again["decision"] == seen["decision"]
            assert sample.phase_id == match.phase_id and sample.pending == match.pending
            roles = Counter(p[deal.field] for p in sample.players)
            assert roles == _composition(deal, players)  # the deal's composition, always
            for player in sample.players:  # each role with the fields it sets
                assert all(player[name] == value for name, value in deal.roles[player[deal.field]].fields.items())
            checked[seen["decision"]["kind"]] += 1
    assert sum(checked.values()) > 300
    assert checked["all_players_action"] > 50  # votes, some with answers already given


def test_samples_deal_the_hidden_roles_anew(game):
    field = game.definition.declaration.role_deal.field
    for seed in range(20):  # a seat that does not know everyone's role (not a DSFGS Mole)
        match = Match(game, ["P1", "P2", "P3", "P4", "P5"], seed, headless=True)
        seat = match.pending[0]
        seen = match.observe(seat)
        if sum(row[field] is None for row in seen["state"]["players"]) >= 2:
            break
    rng = random.Random(0)
    dealt = Counter()
    for _ in range(80):
        sample = game.binding.determinize(game, seen, seat, rng)
        assert sample.players[seat][field] == match.players[seat][field]
        dealt[tuple(p[field] for p in sample.players)] += 1
    assert len(dealt) >= 3


def test_the_true_hidden_roles_are_never_read(game):
    """Two deals that differ only in roles the seat cannot see give the same samples."""
    deal = game.definition.declaration.role_deal
    tried = 0
    for match, seat in decisions(game, 5, range(3)):
        hidden = [s for s, row in enumerate(match.observe(seat)["state"]["players"])
                  if s != seat and row[deal.field] is None]
        twin = match.clone()
        a, b = next(((a, b) for a in hidden for b in hidden
                     if twin.players[a][deal.field] != twin.players[b][deal.field]), (None, None))
        if a is None:
            continue
        for name in {deal.field, *(n for spec in deal.roles.values() for n in spec.fields)}:
            twin.players[a][name], twin.players[b][name] = twin.players[b][name], twin.players[a][name]
        seen, seen_twin = match.observe(seat), twin.observe(seat)
        assert seen == seen_twin
        first = game.binding.determinize(game, seen, seat, random.Random(5))
        second = game.binding.determinize(game, seen_twin, seat, random.Random(5))
        assert first.players == second.players and first.state == second.state
        tried += 1
    assert tried >= 10


def test_ismcts_searches_declarative_games(game):
    searched = 0
    for match, seat in decisions(game, 5, range(2)):
        view = SeatView.of(match, seat)
        if len(view.options) < 2:
            continue
        bot = ISMCTS(seed=1, iterations=6)
        assert bot.choose(view) in view.options
        assert bot.fallbacks == 0 and bot.last_iterations == 6
        searched += 1
    assert searched >= 10


def test_a_hidden_field_no_role_explains_starts_at_its_starting_value():
    """A secret the role deal does not set (Werewolf's doctor remembers whom they protected) is not
    guessed: in another seat's sample it has its starting value; the doctor's own sample keeps it."""
    werewolf = games.get("werewolf")
    roles = {"A": "Werewolf", "B": "Werewolf", "C": "Seer", "D": "Doctor", "E": "Villager", "F": "Villager"}
    match = Match(werewolf, list(roles), 1, setup={"roles": roles}, headless=True)
    for seat, option in [(0, "E"), (1, "E"), (2, "A"), (3, "F"), (4, "Sleep"), (5, "Sleep"), (0, "No one"),
                         (1, "No one"), (2, "No one"), (3, "No one"), (5, "No one")]:
        match.choose(seat, option)
    assert match.phase.name == "Night" and match.players[3]["protected_last"] == "F"
    doctor = werewolf.binding.determinize(werewolf, match.observe(3), 3, random.Random(0))
    assert doctor.players[3]["protected_last"] == "F" and "F" not in doctor.legal(3)
    wolf = werewolf.binding.determinize(werewolf, match.observe(0), 0, random.Random(0))
    assert wolf.players[3]["protected_last"] == "" and wolf.observe(0)["state"] == match.observe(0)["state"]
