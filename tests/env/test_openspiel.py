"""The installed games under OpenSpiel: chance, information states, resampling, OpenSpiel's
own bots, and golden playthroughs in OpenSpiel's format."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import intrigue.env.openspiel  # noqa: F401 - registers the games
from intrigue.env import EnvError
from intrigue.env.openspiel import register
from intrigue import games
from intrigue.engine import Match

from . import playthroughs

GAMES = games.installed()


def load(game_id, **params):
    text = ",".join(f"{key}={value}" for key, value in sorted(params.items()))
    return pyspiel.load_game(f"python_intrigue_{game_id}({text})" if text else f"python_intrigue_{game_id}")


def chance_step(state, rng):
    actions, probabilities = zip(*state.chance_outcomes())
    assert abs(sum(probabilities) - 1.0) < 1e-9
    state.apply_action(int(rng.choice(actions, p=probabilities)))


def test_every_installed_game_is_registered():
    names = set(pyspiel.registered_names())
    assert {f"python_intrigue_{game_id}" for game_id in GAMES} <= names


@pytest.mark.parametrize("game_id", GAMES)
def test_random_games_end_and_the_deal_is_chance(game_id):
    game = load(game_id)
    rng = np.random.default_rng(1)
    for _ in range(3):
        state = game.new_initial_state()
        assert state.is_chance_node(), "the deal is made of chance nodes"
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                chance_step(state, rng)
            else:
                player = state.current_player()
                legal = state.legal_actions()
                assert legal and all(0 < a < game.num_distinct_actions() for a in legal)
                assert len(state.information_state_tensor(player)) == game.information_state_tensor_size()
                state.apply_action(int(rng.choice(legal)))
                decisions += 1
        assert decisions <= game.max_game_length()
        returns = set(state.returns())
    # winners and losers; in One Night everyone may win (no Werewolf among the players, nobody
    # dies) or nobody (no Werewolf, and a villager dies)
    assert returns == {-1.0, 1.0} or path.stem == "one_night" and len(returns) == 1 and returns <= {-1.0, 1.0}


def test_chance_outcomes_drive_the_deal():
    """The same chance outcomes deal the same cards; other outcomes deal others."""
    game = load("coup", players=2)
    first = game.new_initial_state()
    dealt = []
    for pick in (0, -1):
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[pick][0])
        dealt.append(str(state))
    assert dealt[0] != dealt[1]
    again = game.new_initial_state()
    while again.is_chance_node():
        again.apply_action(again.chance_outcomes()[0][0])
    assert str(again) == dealt[0]
    assert first.chance_outcomes()[0][1] == pytest.approx(3 / 15)  # the first court card: 3 of each of 5


EXAMPLES = sorted((Path(__file__).parents[2] / "docs" / "examples" / "games").glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_game_written_in_yaml_alone_registers_plays_and_resamples(path):
    """A designer's YAML file is an OpenSpiel game too: random games end with winners and losers, and
    OpenSpiel's ISMCTS plays a seat of it through the game's own determinizer."""
    name = register(path)
    assert register(str(path)) == name and name in pyspiel.registered_names()
    game = pyspiel.load_game(f"{name}(max_decisions=40)")
    rng = np.random.RandomState(2)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 6, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(state.returns()) == game.num_players()
    full = pyspiel.load_game(name)
    state = full.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, np.random.default_rng(5))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    returns = set(state.returns())
    # winners and losers; in One Night everyone may win (no Werewolf among the players, nobody
    # dies) or nobody (no Werewolf, and a villager dies); Hanabi is won or lost by the whole table
    # (a show lost names no winner: 0 for everyone, as any game nobody wins); in Insider everyone
    # loses when the word is not found in time; in Spyfall the most points win, and all may tie
    together = path.stem in ("one_night", "hanabi", "insider", "spyfall")
    assert returns == {-1.0, 1.0} or together and len(returns) == 1 and returns <= {-1.0, 0.0, 1.0}


def test_another_game_under_a_registered_id_is_refused(tmp_path):
    """OpenSpiel keeps one game per name (a YAML game's id is its file's name): another game in a file
    named like an installed game is refused, both files named."""
    copy = tmp_path / "coup.yaml"
    copy.write_text((EXAMPLES[0].parent / "skull.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(EnvError, match=r"python_intrigue_coup is already registered for .*; give the game in "
                                       f".*{tmp_path.name}/coup.yaml another id"):
        register(copy)


def test_normal_matches_keep_their_seeded_determinism():
    game = games.get("coup")
    a = Match(game, ["A", "B", "C"], 42, headless=True)
    b = Match(game, ["A", "B", "C"], 42, headless=True)
    assert a.players == b.players and a.state == b.state


@pytest.mark.parametrize("game_id", GAMES)
def test_resampling_keeps_the_players_information_and_deals_again(game_id):
    game = load(game_id)
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 4:
        if state.is_chance_node():
            chance_step(state, rng)
            continue
        player = state.current_player()
        if rng.random() < 0.5:
            sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert sample.information_state_string(player) == state.information_state_string(player)
            assert sample.legal_actions() == state.legal_actions()
            checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked


@pytest.mark.parametrize("game_id", GAMES)
def test_states_serialize_and_pickle_as_their_history(game_id):
    """OpenSpiel's own serialization check (random_sim_test with serialize=True) and pickle: a match holds the
    rules' functions, which pickle could not write, so every state of every game failed to serialize."""
    import pickle

    game = load(game_id)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    assert pickle.loads(pickle.dumps(game)).get_parameters() == game.get_parameters()
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    for _ in range(30):
        if state.is_terminal():
            break
        if state.is_chance_node():
            chance_step(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    for copy in (pickle.loads(pickle.dumps(state)), pyspiel.deserialize_game_and_state(
            pyspiel.serialize_game_and_state(game, state))[1]):
        assert copy.history() == state.history() and str(copy) == str(state)
        assert all(copy.information_state_string(p) == state.information_state_string(p)
                   for p in range(game.num_players()))
    if not state.is_terminal() and not state.is_chance_node():
        sample = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
        with pytest.raises(pyspiel.SpielError, match="resampled state cannot be serialized"):
            pickle.dumps(sample)


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_ismcts_and_mcts_play_it(game_id):
    """OpenSpiel's ISMCTS (resampling through our determinizer) plays seat 0 and MCTS
    seat 1 (MCTS searches the true state: it is a perfect-information algorithm, here only
    to show the game runs under it); the others play at random. Short games keep it quick."""
    game = load(game_id, max_decisions=16)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = {0: ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=rng),
            1: mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=rng)}
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
            continue
        bot = bots.get(state.current_player())
        action = bot.step(state) if bot else int(rng.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves <= 16 and len(state.returns()) == game.num_players()


@pytest.mark.parametrize("path", sorted(playthroughs.HERE.glob("*.txt")), ids=lambda p: p.stem)
def test_golden_playthroughs(path):
    """The checked-in playthrough, replayed action by action, gives the same text
    (regenerate with ``python -m tests.env.playthroughs`` after a deliberate change)."""
    original = path.read_text(encoding="utf-8")
    assert playthroughs.replay(original) == original


def test_the_regeneration_command_writes_a_reproducible_playthrough_of_every_game(tmp_path):
    """Games without a golden file yet (added later) get one too, and it replays the same."""
    playthroughs.main(str(tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"python_intrigue_{g}.txt" for g in GAMES)
    for path in tmp_path.iterdir():
        text = path.read_text(encoding="utf-8")
        assert "IsTerminal() = True" in text
        assert playthroughs.replay(text) == text


def test_openspiel_s_sampling_cfr_solvers_run():
    """docs/agents.md: outcome- and external-sampling MCCFR run on these games (a short run, a policy out)."""
    from open_spiel.python.algorithms import external_sampling_mccfr, outcome_sampling_mccfr

    game = load("heist", players=3, max_decisions=30)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(50):
        solver.iteration()
    state, rng = game.new_initial_state(), np.random.default_rng(0)
    while state.is_chance_node():
        chance_step(state, rng)
    probabilities = solver.average_policy().action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions()) and abs(sum(probabilities.values()) - 1) < 1e-9
    external = external_sampling_mccfr.ExternalSamplingSolver(game, external_sampling_mccfr.AverageType.SIMPLE)
    external.iteration()


def test_full_tree_cfr_runs_on_a_game_cut_to_a_few_decisions():
    from open_spiel.python.algorithms import cfr

    solver = cfr.CFRSolver(load("heist", players=3, max_decisions=3))
    solver.evaluate_and_update_policy()
    assert solver.average_policy().action_probability_array.size
