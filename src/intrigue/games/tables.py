"""What a game ships for the table: its rules drawer, card art and translations.

A game folder may hold ``table/``: ``table.json`` (presentation data, see
docs/protocol.md "The table data") and one catalog per language, ``en.json``,
``fr.json``, ... Each catalog maps a string the game sends, exactly as the game
sends it (a phase name, a prompt, a log template, a card name), to what a player
reads in that language; ``en.json`` may rephrase developer words for people.
A game without ``table.json`` gets a rules drawer made from its DSL declaration
(:func:`intrigue.engine.ui.rules_sheet`); without a catalog, its own words are shown.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..engine import Game
from ..engine.ui import rules_sheet

#: Languages a catalog may be written in (the browser offers these).
LANGUAGES = ("en", "de", "fr", "es", "zh")
_LANG = re.compile(r"^[a-z]{2}$")


def folder(game: Game) -> Path | None:
    """The game's ``table/`` folder (beside its rules module or DSL file), if any."""
    origin = game.binding.module_file
    if not origin:
        return None
    return Path(origin).resolve().parent / "table"


def _read(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a JSON object is expected")
    return data


def catalog(game: Game, lang: str) -> dict[str, str]:
    """The game's strings in ``lang``: English first, overlaid with the language's own."""
    return dict(_catalog(folder(game), lang))


@lru_cache(maxsize=64)
def _catalog(place: Path | None, lang: str) -> tuple[tuple[str, str], ...]:
    if place is None:
        return ()
    merged = {k: v for k, v in _read(place / "en.json").items() if isinstance(v, str)}
    if lang != "en":
        merged.update({k: v for k, v in _read(place / f"{lang}.json").items() if isinstance(v, str)})
    return tuple(merged.items())


_PRESENTATION: dict[tuple[str, Path | None], str] = {}


def _presentation(game: Game) -> str:
    place = folder(game)
    key = (game.id, place)
    if key not in _PRESENTATION:
        data = _read(place / "table.json") if place is not None else {}
        if "sheet" not in data:
            data["sheet"] = rules_sheet(game.definition)
        _PRESENTATION[key] = json.dumps(data)
    return _PRESENTATION[key]


def table(game: Game, lang: str = "en") -> dict[str, Any]:
    """Everything the browser needs to show ``game`` in ``lang`` (GET /api/games/{game}/table)."""
    if not _LANG.match(lang):
        raise ValueError(f"lang must be a two-letter language code, not {lang[:12]!r}")
    place = folder(game)
    langs = [code for code in LANGUAGES if code == "en" or (place is not None and (place / f"{code}.json").is_file())]
    return {"game": game.id, "lang": lang, "languages": langs, **json.loads(_presentation(game)),
            "messages": catalog(game, lang)}
