"""The generic RL observation of a game with dice (Liar's Dice, docs/examples/games): a seat's
vector shows how many of its own dice show each face, and nothing of another seat's."""

from __future__ import annotations

from intrigue.engine import Match
from intrigue.env.encoding import encoder_for
from intrigue.games import load_path

from ..conftest import ROOT

LIARS_DICE = ROOT / "docs" / "examples" / "games" / "liars_dice.yaml"


def test_a_seat_sees_its_own_dice_faces_and_not_the_others():
    game = load_path(LIARS_DICE)
    encoder = encoder_for(game, 3)
    names = ["Aria", "Blaise", "Cass"]
    vectors = []
    for others in ([2, 2, 2, 2, 2, 3, 3, 3, 3, 3], [6, 5, 4, 1, 1, 1, 1, 1, 2, 6]):
        match = Match(game, names, 0, headless=True, setup={"first": "Aria", "rolls": [1, 1, 4, 6, 6] + others})
        values = [0.0] * encoder.size
        encoder.encode(match, 0, values)
        vectors.append(values)
    assert vectors[0] == vectors[1]
    at = encoder.offsets["player+0"] + dict((name, at) for name, _, at in encoder._layout)["dice"]
    assert vectors[0][at:at + 7] == [5.0, 2.0, 0.0, 0.0, 1.0, 0.0, 2.0]  # five dice: two 1s, a 4, two 6s
    assert vectors[0][at + 7] == 0.0  # not hidden from its owner
    other = encoder.offsets["player+1"] + at - encoder.offsets["player+0"]
    assert vectors[0][other:other + 7] == [0.0] * 7 and vectors[0][other + 7] == 1.0
