"""Golden OpenSpiel playthroughs of the installed games, in OpenSpiel's own format.

Regenerate (after a deliberate change to a game's rules, texts or encoding):

    .venv/bin/python -m tests.env.playthroughs tests/env/playthroughs
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from open_spiel.python.algorithms.generate_playthrough import playthrough

import intrigue.env.openspiel  # noqa: F401 - registers the games
from intrigue import games

HERE = Path(__file__).parent / "playthroughs"
#: Short games keep the files readable: the match is truncated after this many decisions.
DECISIONS = 12
SEED = 7


def game_string(game_id: str) -> str:
    players = max(games.get(game_id).min_players, min(4, games.get(game_id).max_players))
    return f"python_intrigue_{game_id}(max_decisions={DECISIONS},players={players})"


def generate(game_id: str) -> str:
    return playthrough(game_string(game_id), action_sequence=None, seed=SEED)


def replay(text: str) -> str:
    """The same game string and actions again: the text it gives now."""
    game = re.search(r"^game: (.*)$", text, re.M).group(1)
    actions = [int(found) for found in re.findall(r"^action: (-?\d+)$", text, re.M)]
    return playthrough(game, action_sequence=actions, seed=SEED)


def main(folder: str) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for game_id in games.installed():
        (out / f"python_intrigue_{game_id}.txt").write_text(generate(game_id), encoding="utf-8")
        print(f"wrote {out / f'python_intrigue_{game_id}.txt'}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(HERE))
