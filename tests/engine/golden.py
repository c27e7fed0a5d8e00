"""Golden fingerprints: same seed, same game, for every installed game.

Each game plays a fixed list of seeded random matches (player counts and game
options cycled), and everything a match leaves behind is hashed into one
fingerprint per game: the log of choices with their options, every log line with
its audience and data, the players' and the game's final state, the winners, the
random generator's final state (so a change in how often it is drawn shows), and
for every tenth match (played with its UI built, not headless) the final
observation of a spectator and of seat 0. Each match is cloned at a random point
and played on from the clone, so a clone that loses anything changes the print.

An engine change that alters any of this fails ``test_golden.py``. When a change
of behaviour is intended (a rules fix), regenerate the expected prints with::

    .venv/bin/python -m tests.engine.golden

and paste the printed ``EXPECTED`` into ``tests/engine/test_golden.py``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

from intrigue import games
from intrigue.engine import Match
from intrigue.engine.timing import expiry

#: Matches per game (1,000 each keeps the whole test near half a minute on the development machine).
GAMES = {"avalon": 1000, "bang": 1000, "coup": 1000, "dsfgs": 1000, "heist": 1000, "werewolf": 1000}

#: Game options cycled over the matches (each game's defaults first).
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "coup": [{}, {"characters": "inquisitor"}, {"reformation": True},
             {"reformation": True, "choose_allegiance": True, "characters": "inquisitor"},
             {"two_player_setup": "official"}],
    "bang": [{}, {"character_choice": 2}, {"duel_challenger_loss": "opponent", "cat_balou_self": False}],
}


def _encode(value: Any) -> Any:
    """Plain data for hashing: sets sorted, tuples as lists, anything else by repr."""
    if isinstance(value, dict):
        return {str(key): _encode(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encode(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_encode(item) for item in value), key=repr)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def _play(match: Match, rng: random.Random, clone_at: int) -> tuple[Match, int]:
    made = 0
    while not match.over:
        if made == clone_at:
            match = match.clone()
        pending = match.pending
        if not pending:  # a timer phase waiting for its clock
            for move in list(expiry(match)):
                match.choose(*move)
            continue
        seat = pending[0] if len(pending) == 1 else rng.choice(pending)
        match.choose(seat, rng.choice(match.legal(seat)))
        made += 1
        if made > 100_000:
            raise RuntimeError(f"no end (seed {match.seed})")
    return match, made


def match_record(game_id: str, index: int) -> dict[str, Any]:
    """One seeded match, played out, as plain data."""
    game = games.get(game_id)
    counts = list(range(game.min_players, min(game.max_players, 10) + 1))
    players = counts[index % len(counts)]
    variants = OPTIONS.get(game_id, [{}])
    options = variants[(index // len(counts)) % len(variants)]
    headless = index % 10 != 0
    seed = 7_000_003 * index + 11
    rng = random.Random(seed)
    names = [f"P{i + 1}" for i in range(players)]
    match = Match(game, names, seed, options, headless=headless)
    match, made = _play(match, rng, clone_at=rng.randrange(20))
    record: dict[str, Any] = {
        "players": players, "options": options, "made": made, "version": match.version,
        "decisions": match.decisions, "phase": match.phase_id, "winners": match.winners,
        "log": [(c.seat, c.option, c.version) for c in match.log],
        "events": [(e.version, e.text, repr(e.audience), e.data) for e in match.events],
        "final_players": match.players, "state": match.state, "rng": match.rng.getstate(),
    }
    if not headless:
        record["observe"] = [match.observe(None), match.observe(0)]
    return record


def fingerprint(game_id: str, count: int | None = None) -> str:
    digest = hashlib.sha256()
    for index in range(GAMES[game_id] if count is None else count):
        text = json.dumps(_encode(match_record(game_id, index)), sort_keys=True, separators=(",", ":"))
        digest.update(text.encode())
        digest.update(b"\n")
    return digest.hexdigest()


def main(argv: list[str]) -> None:
    wanted = argv or sorted(GAMES)
    print("EXPECTED = {")
    for game_id in wanted:
        print(f"    {game_id!r}: {fingerprint(game_id)!r},")
    print("}")


if __name__ == "__main__":
    missing = set(games.installed()) - set(GAMES)
    if missing:
        sys.exit(f"add these games to GAMES: {', '.join(sorted(missing))}")
    main(sys.argv[1:])
