"""The PettingZoo environments pass PettingZoo's own tests for every installed game,
and play what the engine plays."""

from __future__ import annotations

import random
import warnings
from collections import Counter
from types import SimpleNamespace

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, parallel_seed_test, seed_test
from pettingzoo.utils import parallel_to_aec

from intrigue import games
from intrigue.engine import Match, replay
from intrigue.env import EnvError, make, parallel_env

GAMES = games.installed()


@pytest.fixture(autouse=True)
def _quiet():
    """PettingZoo warns that a dict observation (observation + action_mask) is not a bare array:
    that is the documented shape for masked environments."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("game", GAMES)
def test_api_test(game):
    api_test(make(game, seed=1), num_cycles=200)


@pytest.mark.parametrize("game", GAMES)
def test_seed_test(game):
    seed_test(lambda: make(game, seed=3), num_cycles=100)


@pytest.mark.parametrize("game", GAMES)
def test_parallel_api_and_max_cycles(game):
    def parallel(max_cycles=None):
        return parallel_env(game, seed=5, max_cycles=max_cycles, illegal="timeout")

    parallel_api_test(parallel(), num_cycles=100)
    max_cycles_test(SimpleNamespace(parallel_env=parallel,
                                    env=lambda max_cycles: parallel_to_aec(parallel(max_cycles))))


@pytest.mark.parametrize("game", GAMES)
def test_parallel_seed_test(game):
    """PettingZoo's parallel seed test samples actions without the masks: it runs with illegal="timeout",
    as docs/agents.md shows."""
    parallel_seed_test(lambda: parallel_env(game, seed=1, illegal="timeout"))


def play_random(env, seed):
    """A random policy over the masks, as docs/agents.md shows it."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
        steps += 1
    return steps


@pytest.mark.parametrize("game", GAMES)
def test_a_random_policy_over_the_masks_plays_real_games(game):
    env = make(game, seed=0)
    for seed in range(5):
        play_random(env, seed)
        match = env.table.match
        assert match.over and match.winners, "every game ends with a winner"
        # the environment's match is the engine's: replaying its choices gives the same end
        again = replay(match.game, match.names, seed, None, [(c.seat, c.option) for c in match.log],
                       headless=True)
        assert again.over and again.winners == match.winners


def test_rewards_are_plus_one_for_winners_and_minus_one_for_the_rest():
    env = make("coup", 3, seed=11)
    env.reset(seed=11)
    totals = Counter()
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    winners = {f"player_{seat}" for seat in env.table.match.winners}
    assert len(winners) == 1
    assert all(totals[agent] == (1.0 if agent in winners else -1.0) for agent in env.possible_agents)


def test_masks_are_exactly_the_offered_options():
    env = make("coup", 4, seed=2)
    env.reset(seed=2)
    agent = env.agent_selection
    seat = env.seat_of[agent]
    mask = env.observe(agent)["action_mask"]
    labels = [env.table.space.labels[i] for i in np.flatnonzero(mask)]
    offered = env.table.match.legal(seat)
    assert sorted(env.table.space.describe(seat, env.table.space.index[label]) for label in labels) == sorted(offered)
    assert "Income" in labels and "Steal {+1}" in labels  # the next player clockwise


def test_an_illegal_action_is_refused_and_changes_nothing():
    env = make("coup", 4, seed=2)
    env.reset(seed=2)
    agent = env.agent_selection
    before = (env.table.match.version, env.agent_selection)
    illegal = int(np.flatnonzero(env.action_mask(agent) == 0)[1])
    with pytest.raises(EnvError, match="not legal"):
        env.step(illegal)
    assert (env.table.match.version, env.agent_selection) == before
    with pytest.raises(EnvError, match="no installed game"):
        make("no-such-game")
    with pytest.raises(EnvError, match="takes 2 to 10 players"):
        make("coup", 11)


def test_a_window_is_asked_in_a_uniformly_random_order():
    """Who answers a challenge window first is uniform over the seats that may answer,
    and independent of anything hidden (the order RNG is the table's own)."""
    firsts = Counter()
    env = make("coup", 4, seed=0)
    for seed in range(600):
        env.reset(seed=seed)
        table = env.table
        match = table.match
        actor = match.pending[0]
        env.step(table.space.index["Tax"])  # a claim: the three others may challenge
        assert len(match.pending) == 3
        firsts[(env.seat_of[env.agent_selection] - actor) % 4] += 1
    assert set(firsts) == {1, 2, 3}
    # each of the three is first in 1/3 of the windows: within 4 standard deviations
    assert all(abs(count - 200) < 4 * (600 * (1 / 3) * (2 / 3)) ** 0.5 for count in firsts.values())


def test_infos_carry_the_seat_view_and_its_text():
    env = make("coup", 4, seed=4, infos=True)
    env.reset(seed=4)
    agent = env.agent_selection
    info = env.infos[agent]
    seat = env.seat_of[agent]
    assert info["observe"] == env.table.match.observe(seat)
    assert "Your options:" in info["text"] and "Income" in info["text"]
    assert set(info["actions"].values()) == set(env.table.match.legal(seat))


def test_the_observation_shows_nothing_hidden():
    """Two deals that differ only in the other players' cards give a seat the same vector."""
    game = games.get("coup")
    env = make("coup", 4, seed=0)
    seen = []
    for others in (["Duke", "Duke", "Captain", "Captain", "Contessa", "Contessa"],
                   ["Assassin", "Ambassador", "Contessa", "Duke", "Captain", "Assassin"]):
        hands = {"P1": ["Duke", "Assassin"], "P2": others[0:2], "P3": others[2:4], "P4": others[4:6]}
        match = Match(game, env.table.names, 0, setup={"hands": hands, "first": "P1"}, headless=True)
        values = [0.0] * env.table.encoder.size
        env.table.encoder.encode(match, 0, values)
        seen.append(values)
    assert seen[0] == seen[1]


def test_truncation_after_max_decisions_gives_everyone_zero():
    env = make("coup", 4, seed=1, max_decisions=5)
    env.reset(seed=1)
    rewards = Counter()
    steps = 0
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps == 5 and set(rewards.values()) == {0.0}


def test_a_yaml_file_is_a_game_too(tmp_path):
    path = games.get("heist").binding.dsl_path
    env = make(str(path), 3, seed=0)
    assert play_random(env, 0) > 0 and env.table.match.over


def test_random_play_never_meets_an_option_outside_the_vocabulary():
    """Every option every game offers (over many random games) has a label in its vocabulary."""
    for game_id in GAMES:
        game = games.get(game_id)
        for players in sorted({game.min_players, game.max_players if game_id != "coup" else 6}):
            env = make(game_id, players, seed=0)
            rng = random.Random(players)
            for seed in range(40 if game_id != "bang" else 8):
                env.reset(seed=seed)
                while not env.table.done:
                    seat = env.seat_of[env.agent_selection]
                    offered = env.table.offered(seat)
                    assert len(offered) >= 1
                    env.step(rng.choice(list(offered)))


def test_a_secret_decision_s_cover_presses_its_acknowledgement_through_the_environment(tmp_path):
    """The players who only appear to act in a secret phase press 'Continue' (or the phase's
    `acknowledge`): it is in the vocabulary though no `options` entry names it."""
    from ..server.test_dsl_timing import CLOCKWORK

    path = tmp_path / "clockwork.yaml"
    path.write_text(CLOCKWORK.format(talk=30, pause=5))
    env = make(str(path), 3, seed=0)
    pressed = Counter()
    rng = random.Random(1)
    for seed in range(10):
        env.reset(seed=seed)
        while not env.table.done:
            offered = env.table.offered(env.seat_of[env.agent_selection])
            action = rng.choice(list(offered))
            pressed[offered[action]] += 1
            env.step(action)
        assert env.table.match.over and env.table.match.winners
    assert pressed["Continue"] >= 10  # two guests acknowledge the spy's secret plot in every game


def test_game_options_are_played_and_bad_ones_refused():
    """docs/agents.md: `options=` plays a variant; a typo or a value the game refuses was silently ignored (the
    default game was played), where the lobby and `intrigue simulate -o` refuse it."""
    env = make("coup", players=4, seed=1, options={"characters": "inquisitor"}, infos=True)
    env.reset(seed=1)
    assert any(label.startswith("Examine") for label in env.last()[-1]["actions"].values())
    for bad, words in [({"characters": "bogus"}, "must be ambassador or inquisitor"),
                       ({"charakters": "inquisitor"}, "unknown option 'charakters'"),
                       ({"reformation": "yes"}, "takes a bool")]:
        with pytest.raises(EnvError, match=words):
            make("coup", players=4, options=bad)
        with pytest.raises(EnvError, match=words):
            parallel_env("coup", 4, options=bad)


def test_render_modes_are_the_spectator_text():
    env = make("heist", players=4, seed=1, render_mode="ansi")
    env.reset(seed=1)
    assert env.render().startswith("Heist — spectator.")
    with pytest.raises(ValueError, match="render_mode"):
        make("heist", render_mode="rgb_array")


def test_seeds_are_what_the_page_says():
    """reset(seed=S) deals match S; make(seed=S) seeds the sequence of unseeded resets (docs/agents.md)."""
    def deals(env, resets):
        out = []
        for _ in range(resets):
            env.reset()
            out.append(env.table.match.players)
        return out

    env = make("coup", players=3, seed=7)
    env.reset(seed=7)
    assert env.table.match.players == Match(games.get("coup"), env.table.names, 7, headless=True).players
    assert deals(make("coup", players=3, seed=7), 3) == deals(make("coup", players=3, seed=7), 3)
    first, second = deals(make("coup", players=3, seed=7), 2)
    assert first != second
