"""Same seed, same game: 1,000 seeded random matches of every installed game hash to the same print.

What is hashed and how to regenerate the prints (only for an intended change of
behaviour, never to make an engine change pass): see ``tests/engine/golden.py``.
The whole file takes about 30 s on the development machine.
"""

import pytest

from intrigue import games

from .golden import GAMES, fingerprint

EXPECTED = {
    'avalon': '586f910cafc6551149f97f39383d1c76133c896776017c676960eee25ea341df',
    'bang': '6deb57910cdea92ea4cfabbb5daac51888d9b1750ae8ec526413d4496ffc316c',
    'coup': '446edc6af9f8d241279d39165cda28ee54750355cf163bc89d1ad24c603e1708',
    'dsfgs': '25057c6c61e1911372ddbf28df5746927d4d65f37d308274617225828f641722',
    'heist': 'cfa63cb8293c369cc414706c106b6118f725d32cebd05aaa32f8d34f098bae7c',
    'werewolf': '4d105b5be53a861fe55c2375ef66626fe86dd6d0d73dd12d665efbedb908506e',
}


def test_every_installed_game_has_a_golden_print():
    assert set(games.installed()) <= set(GAMES) == set(EXPECTED)


@pytest.mark.parametrize("game_id", sorted(EXPECTED))
def test_seeded_games_play_exactly_as_before(game_id):
    assert fingerprint(game_id) == EXPECTED[game_id]
