"""Game options from text: what ``--option key=value`` on the command line means.

A game declares its options and their defaults in its binding (the lobby lists
them through ``GET /api/games``); a value is read as a YAML scalar (``true``,
``30``, ``null``, plain text), must have the default's type, and must pass the
game's own check (``GameBinding.check_options``).
"""

from __future__ import annotations

from typing import Any

from .game import Game


def parse_options(pairs: list[str] | None, game: Game, players: int | None = None) -> dict[str, Any]:
    """``["characters=inquisitor", "reformation=true"]`` -> game options, values read as YAML
    scalars (``true``, ``30``, ``null``, text). Raises ``ValueError`` naming what is wrong."""
    import yaml  # noqa: PLC0415

    known = game.binding.options
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"--option takes key=value, not {pair!r}")
        if key not in known:
            raise ValueError(f"unknown option {key!r} for {game.id} (known: {', '.join(known) or 'none'})")
        try:
            value = yaml.safe_load(text) if text.strip() else ""
        except yaml.YAMLError:
            value = text
        default = known[key]
        if default is not None and value is not None and type(value) is not type(default) \
                and not (isinstance(default, float) and isinstance(value, int)):
            raise ValueError(f"option {key} takes a {type(default).__name__}, not {text!r}")
        options[key] = value
    check = game.binding.option_check
    if check is not None:
        problems = check({**game.option_defaults(), **options}, players or game.min_players)
        if problems:
            raise ValueError("; ".join(problems))
    return options
