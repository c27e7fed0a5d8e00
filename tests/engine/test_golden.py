"""Same seed, same game: 1,000 seeded random matches of every installed game hash to the same print.

What is hashed and how to regenerate the prints (only for an intended change of
behaviour, never to make an engine change pass): see ``tests/engine/golden.py``.
The whole file takes about 30 s on the development machine.
"""

import pytest

from intrigue import games

from .golden import GAMES, fingerprint

EXPECTED = {
    'avalon': '30f140596fd9ff02980332a2cf16800a09ade6d376ad51c72c558a6a3b3008fe',
    'bang': '6deb57910cdea92ea4cfabbb5daac51888d9b1750ae8ec526413d4496ffc316c',
    'coup': 'b8635ecbc9a663735cd6cf89778e1a8fcf69a4cc33b5e4a9506fe3533a15ee91',
    'dsfgs': '25057c6c61e1911372ddbf28df5746927d4d65f37d308274617225828f641722',
    'heist': '413a9cdc2fd5ccd2c20af8bbca2a931d46d36e4608832b7d78ee70be3b547e2a',
    'werewolf': 'bc792dd3d2cf58cc47d161fd36170d2cfa637d4b5a41e62dfae098da4dc4bc56',
}


def test_every_installed_game_has_a_golden_print():
    assert set(games.installed()) <= set(GAMES) == set(EXPECTED)


@pytest.mark.parametrize("game_id", sorted(EXPECTED))
def test_seeded_games_play_exactly_as_before(game_id):
    assert fingerprint(game_id) == EXPECTED[game_id]
