"""A card face down in front of a player (`visibility: nobody`): a swap they did not see leaves
their view as it was, a look shows them the card as it was then, the end shows it to all; and
`each(e)`, the list a vote count needs."""

from __future__ import annotations

import random

import pytest

from intrigue import bots
from intrigue.dsl import validate_file
from intrigue.engine import Match
from intrigue.engine.determinize import determinize
from intrigue.games import load_path

from ..conftest import ROOT

SWAP = """\
declaration:
  min_players: 3
  max_players: 3
  roles: [{name: Player}]
  player_states:
    name: {type: string}
    role: {type: string}
    card: {type: string, visibility: nobody}
    vote: {type: string}
    votes: {type: num}
  player_states_template:
    player_states:
      1: {name: '', role: '', card: '', vote: null, votes: 0}
  game_state: {cards: [Wolf, Seer, Thief]}
  role_deal: {roles: {Player: {rest: true}}}
phases:
  0:
    name: Deal
    completion_criteria: {type: UI_displayed}
    effects:
    - deal: roles
    - set: players.card
      to: cards[player.id]
    next_phase: {id: 1, name: Swap}
  1:
    name: Swap
    completion_criteria:
      type: player_action
      wait_for: single_player_choice
      target_players: {condition: player.id == 3}
      options:
      - {players: 'true', except_self: true}
      - Keep
    effects:
    - if: chosen.id != null
      then:
      - set: players.card
        where: player.id == actor.id or player.id == chosen.id
        to: players[if player.id == actor.id then chosen.id else actor.id].card
      - show: card
        where: player.id == actor.id
        to: actor
    next_phase: {id: 2, name: Tease}
  2:
    name: Tease
    completion_criteria:
      type: player_action
      wait_for: single_player_choice
      target_players: {condition: player.id == 1}
      options: [Swap back, Stay]
    effects:
    - if: choice == 'Swap back'
      then:
      - set: players.card
        where: player.id == 1 or player.id == 3
        to: players[if player.id == 1 then 3 else 1].card
    next_phase: {id: 3, name: Vote}
  3:
    name: Vote
    completion_criteria:
      type: player_action
      wait_for: all_players_action
      target_players: {condition: 'true'}
      options:
      - {players: 'true', except_self: true}
      record: vote
    effects:
    - set: players.votes
      to: count(each(player.vote), player.name)
    - win: player.votes == max(player.votes)
    next_phase: null
"""


@pytest.fixture()
def swap(tmp_path):
    path = tmp_path / "swap.yaml"
    path.write_text(SWAP)
    return path


def cards(match: Match, seat: int) -> list:
    return [row["card"] for row in match.observe(seat)["state"]["players"]]


def test_nobody_sees_a_face_down_card_not_even_its_owner_until_a_look_and_the_look_keeps_its_moment(swap):
    assert validate_file(swap).problems == []
    match = Match(load_path(swap), ["Aria", "Blaise", "Cass"], seed=1)
    assert [cards(match, seat) for seat in range(3)] == [[None, None, None]] * 3
    match.choose(2, "Aria")  # Cass takes Aria's Wolf and looks at it; Aria does not know
    assert [p["card"] for p in match.players] == ["Thief", "Seer", "Wolf"]
    assert cards(match, 0) == [None, None, None] and cards(match, 1) == [None, None, None]
    assert cards(match, 2) == [None, None, "Wolf"]
    assert [line["text"] for line in match.observe(2)["log"]][-1] == "Cass — card: Wolf"
    assert not [line for line in match.observe(0)["log"] if "card" in line["text"]]
    match.choose(0, "Swap back")  # the Wolf goes back unseen: Cass still knows only what she saw
    assert match.players[2]["card"] == "Thief" and cards(match, 2) == [None, None, "Wolf"]
    for seat, target in ((0, "Cass"), (1, "Cass"), (2, "Aria")):
        match.choose(seat, target)
    assert match.over and cards(match, 0) == ["Wolf", "Seer", "Thief"]  # the end shows every card


def test_an_owner_field_would_have_told_the_swapped_player_their_new_card(swap, tmp_path):
    """Why `nobody` exists: the docs' swap recipe on an `owner` field shows the owner the new value."""
    path = tmp_path / "owner.yaml"
    path.write_text(swap.read_text().replace("visibility: nobody", "visibility: owner"))
    match = Match(load_path(path), ["Aria", "Blaise", "Cass"], seed=1)
    match.choose(2, "Aria")
    assert cards(match, 0)[0] == "Thief"


def test_each_gives_every_players_value_in_seat_order_so_votes_are_counted_per_player(swap):
    match = Match(load_path(swap), ["Aria", "Blaise", "Cass"], seed=1)
    match.choose(2, "Keep")
    match.choose(0, "Stay")
    for seat, target in ((0, "Blaise"), (1, "Cass"), (2, "Blaise")):
        match.choose(seat, target)
    assert [p["votes"] for p in match.players] == [0, 2, 1]
    assert match.winners == [1]


@pytest.mark.parametrize("old, new, expected", [
    ("      target_players: {condition: player.id == 1}", "      target_players: {condition: player.card == 'Wolf'}",
     "swap.yaml:49: warning: phases.2.completion_criteria.target_players.condition: player.card is seen by nobody, "
     "its owner included (visibility: nobody), but being asked to act tells a player about it"),
    ("      options: [Swap back, Stay]", "      options:\n      - {option: Swap back, if: me.card == 'Thief'}\n      - Stay",
     "swap.yaml:51: warning: phases.2.completion_criteria.options.0.if: me.card is seen by nobody, its owner "
     "included (visibility: nobody), but the options a player is offered tell them about it"),
    ("    card: {type: string, visibility: nobody}", "    card: {type: string, visibility: noone}",
     "swap.yaml:8: declaration.player_states.card.visibility: unknown name 'noone'"),
])
def test_reading_a_face_down_card_where_its_owner_would_learn_it_is_warned(swap, old, new, expected):
    text = swap.read_text()
    assert old in text
    swap.write_text(text.replace(old, new, 1))
    found = [str(problem).replace(str(swap), "swap.yaml") for problem in validate_file(swap).problems]
    assert any(line.startswith(expected) for line in found), found


def test_the_search_bots_samples_look_the_same_from_the_seat_through_a_one_night_game():
    """A sample of One Night (no role deal: cards dealt by a shuffle in phase 0) gives the others the
    declared starting values, not the card phase 0 gave the first player (which made every other
    player a Troublemaker and the phase refuse), and keeps the seat's own look at its face-down card."""
    game = load_path(ROOT / "docs" / "examples" / "games" / "one_night.yaml")
    checked = 0
    for seed in range(30):
        match = Match(game, ["A", "B", "C", "D"], seed=seed, headless=True)
        players = [bots.make("random", seed=f"{seed}-{seat}") for seat in range(4)]
        while not match.over:
            seat = match.pending[0]
            observation = match.observe(seat)
            sample = determinize(game, observation, seat, random.Random(seed))
            assert sample is not None, (seed, match.phase.name)
            assert sample.observe(seat)["state"]["players"] == observation["state"]["players"], (seed, seat)
            assert set(sample.legal(seat)) == set(match.legal(seat))
            checked += 1
            view = bots.SeatView(game, seat, observation, tuple(match.legal(seat)))
            match.choose(seat, players[seat].choose(view))
    assert checked > 300
