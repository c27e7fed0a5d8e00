"""The peer: the PyPI package ``coupml`` driven with random legal actions.

Driven exactly as its documentation shows: ``Coup(n, rng)``, ``init_game()``,
then ``play_action(rng.choice(get_legal_actions()))`` until ``is_game_over()``.
Every ``play_action`` counts as a decision.
"""

from __future__ import annotations


def run(games: int, players: int = 4, seed: int = 0) -> int:
    import numpy as np
    from coupml import Coup

    rng = np.random.RandomState(seed)
    decisions = 0
    for _ in range(games):
        coup = Coup(players, rng)
        coup.init_game()
        while not coup.is_game_over():
            coup.play_action(rng.choice(coup.get_legal_actions()))
            decisions += 1
    return decisions
