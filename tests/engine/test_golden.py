"""Same seed, same game: 1,000 seeded random matches of every installed game hash to the same print.

What is hashed and how to regenerate the prints (only for an intended change of
behaviour, never to make an engine change pass): see ``tests/engine/golden.py``.
The whole file takes about 30 s on the development machine.
"""

import pytest

from intrigue import games

from .golden import GAMES, fingerprint

EXPECTED = {
    'avalon': '91816468d40973ebb373681c1efe50dc4909f88b9166d27e1740ebee32e574ec',
    'bang': 'de9b3f8c5b93a67cdc566581f5038391df9370cbcb2c682c9ca8848bc41f5080',
    'coup': '446edc6af9f8d241279d39165cda28ee54750355cf163bc89d1ad24c603e1708',
    'dsfgs': '32e30c31d09c3b7dbb69feaed0ea129169484a8813a7829805e051a0ec00b338',
    'heist': 'e8e948a6785aa830ac111dd6e4fc31fd163090cd78672a0ffdb7a4bc381e729e',
    'werewolf': '88923c058cbe1a8eb92a68452b5df850a5ade131bc747b041cb7cfd7e18efea0',
}


def test_every_installed_game_has_a_golden_print():
    assert set(games.installed()) <= set(GAMES) == set(EXPECTED)


@pytest.mark.parametrize("game_id", sorted(EXPECTED))
def test_seeded_games_play_exactly_as_before(game_id):
    assert fingerprint(game_id) == EXPECTED[game_id]
