"""The table data games ship: every string a player can be shown is in the English catalog
(for a game written in YAML alone, whose English is its own words: in every other
language's), every language has every key with the same placeholders, and the browser's
own catalogs agree with each other and with the strings its code uses.

The strings are gathered from the DSL, the table data and the views of real matches
(``table_strings.py``), so a log line, prompt or option added to a game without its
translation fails here.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

from intrigue import games
from intrigue.engine.ui import rules_sheet
from intrigue.games import tables

from .table_strings import Strings, placeholders

LANGUAGES = ("de", "fr", "es", "zh")
SEED_GAMES = {"coup": [(4, 12, 0), (2, 6, 1), (6, 3, 2)],
              "bang": [(5, 4, 0), (4, 3, 1), (7, 2, 2)],
              "dsfgs": [(5, 10, 0), (3, 6, 1), (8, 3, 2)]}
#: The variants' games: (players, games, seed, options, setup).
VARIANT_GAMES = {
    "coup": [(3, 8, 3, {"characters": "inquisitor", "reformation": True}, None),
             (4, 4, 4, {"reformation": True, "choose_allegiance": True}, None),
             (2, 4, 5, {"two_player_setup": "official", "characters": "inquisitor", "reformation": True}, None),
             (3, 3, 6, {}, {"revealed": {"P1": ["Duke"]}})],
    "bang": [(3, 4, 3, None, None), (8, 2, 4, None, None),
             (4, 4, 5, None, {"characters": {"P1": "Sid Ketchum", "P2": "Vulture Sam", "P3": "Pedro Ramirez"}})],
}
#: Games written in YAML alone: their English is the YAML's own words, so ``en.json`` holds at
#: most the lines that need plural forms, and each other language holds every string.
OWN_WORDS = {"avalon": [(5, 6, 0), (7, 3, 1), (10, 2, 2), (8, 2, 3), (9, 2, 4)],
             "werewolf": [(6, 6, 0), (9, 3, 1), (16, 1, 2)],
             "heist": [(3, 8, 0), (4, 4, 1), (6, 4, 2)]}
STATIC = Path(__file__).resolve().parents[2] / "src" / "intrigue" / "web" / "static"


def catalog(game_id: str, lang: str) -> dict[str, str]:
    path = tables.folder(games.get(game_id)) / f"{lang}.json"
    if lang == "en" and game_id in OWN_WORDS and not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def shown(game_id: str) -> dict[str, str]:
    """Every string the game can put in front of a player -> where it was seen."""
    strings = Strings(games.get(game_id))
    strings.declared()
    for players, count, seed in SEED_GAMES.get(game_id) or OWN_WORDS[game_id]:
        strings.play(players, count, seed=seed)
    for players, count, seed, options, setup in VARIANT_GAMES.get(game_id, []):
        strings.play(players, count, seed=seed, options=options, setup=setup)
    return strings.found


@pytest.mark.parametrize("game_id", sorted(SEED_GAMES))
def test_every_string_a_player_sees_is_in_the_catalog(game_id):
    english = catalog(game_id, "en")
    missing = {text: where for text, where in shown(game_id).items() if text not in english}
    assert not missing, f"{game_id}: strings with no catalog entry: {missing}"


@pytest.mark.parametrize("game_id", sorted(OWN_WORDS))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_yaml_game_says_every_string_in_every_language(game_id, lang):
    """Avalon, Werewolf and Heist: each phase, option, role, log line, stat and rules-drawer
    text a player can be shown (summary and title too) has its translation, with the same
    placeholders; every language has the same keys, and the plural lines of ``en.json``."""
    other = catalog(game_id, lang)
    missing = {text: where for text, where in shown(game_id).items() if text not in other}
    assert not missing, f"{game_id}/{lang}: strings with no translation: {missing}"
    plural = {key for key, text in catalog(game_id, "en").items() if "plural" in text}
    assert plural <= set(other), sorted(plural - set(other))
    reference = catalog(game_id, "fr")
    assert set(other) == set(reference), (sorted(set(reference) - set(other)), sorted(set(other) - set(reference)))
    for key, text in other.items():
        assert text.strip(), f"{game_id}/{lang}: {key!r} is empty"
        assert placeholders(text) == placeholders(key), (lang, key, text)


def test_the_yaml_games_use_the_names_of_the_published_editions():
    french = {game: tables.table(games.get(game), "fr")["messages"] for game in ("werewolf", "avalon")}
    # Les Loups-garous de Thiercelieux: the Salvateur protects as the Doctor does.
    assert [french["werewolf"][r] for r in ("Villager", "Werewolf", "Seer", "Doctor")] == \
        ["Simple Villageois", "Loup-Garou", "Voyante", "Salvateur"]
    assert [french["avalon"][r] for r in ("Merlin", "Percival", "Morgana", "Mordred", "Oberon", "Assassin")] == \
        ["Merlin", "Perceval", "Morgane", "Mordred", "Oberon", "Assassin"]
    german = tables.table(games.get("werewolf"), "de")["messages"]
    assert [german[r] for r in ("Villager", "Werewolf", "Seer")] == ["Dorfbewohner", "Werwolf", "Seherin"]


@pytest.mark.parametrize("game_id", sorted(SEED_GAMES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_every_key_with_the_same_placeholders(game_id, lang):
    english, other = catalog(game_id, "en"), catalog(game_id, lang)
    assert set(other) == set(english), (sorted(set(english) - set(other)), sorted(set(other) - set(english)))
    for key, text in other.items():
        assert text.strip(), f"{game_id}/{lang}: {key!r} is empty"
        assert placeholders(text) == placeholders(key), (lang, key, text)
        assert placeholders(english[key]) == placeholders(key), ("en", key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_client_catalogs_have_the_same_ids_and_placeholders(lang):
    english = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    other = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert set(other) == set(english), (sorted(set(english) - set(other)), sorted(set(other) - set(english)))
    for key, text in other.items():
        assert text.strip() and placeholders(text) == placeholders(english[key]), (key, text)


def test_every_string_id_the_client_uses_is_in_its_catalog():
    english = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    used: set[str] = set()
    for path in list(STATIC.glob("*.js")) + list(STATIC.glob("*.html")):
        source = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'\bt\("([a-z]+\.[a-z_]+)"', source))
        used |= set(re.findall(r'data-i18n(?:-[a-z]+)?="([a-z]+\.[a-z_]+)"', source))
    assert len(used) > 150
    assert not used - set(english), sorted(used - set(english))
    # Ids built at run time: a difficulty, a bot style, a room status, a timer option.
    for kind in ("easy", "normal", "hard"):
        assert f"difficulty.{kind}" in english
    from intrigue import bots

    for entry in bots.kinds():
        assert f"difficulty.{entry['difficulty']}" in english
        assert all(f"personality.{p}" in english for p in entry["personalities"])
    assert all(f"status.{s}" in english for s in ("waiting", "playing", "finished"))


def test_table_data_in_a_language_overlays_english():
    coup = games.get("coup")
    french = tables.table(coup, "fr")
    assert french["messages"]["Tax"] == "Taxe"
    assert french["messages"]["Action Challenge Window"] == "Chacun peut contester l'annonce"
    assert set(french["languages"]) == {"en", "de", "fr", "es", "zh"}
    assert tables.table(coup, "de")["messages"]["Duke"] == "Großherzog"  # the German edition's name
    english = tables.table(coup, "en")
    assert english["messages"]["Challenger Loses Influence"] == "The challenger loses a card"  # people's words
    assert english["art"]["Duke"] == "crown" and english["sheet"]["sections"]
    with pytest.raises(ValueError):
        tables.table(coup, "../etc")


def test_a_game_without_table_data_gets_a_rules_drawer_from_its_declaration():
    heist = games.get("heist")
    data = tables.table(heist, "fr")
    assert "table.json" not in {p.name for p in tables.folder(heist).iterdir()}
    assert data["messages"]["Guard"] == "Gardien" and data["languages"] == ["en", "de", "fr", "es", "zh"]
    sections = {s["id"]: s for s in data["sheet"]["sections"]}
    assert [item["name"] for item in sections["roles"]["items"]] == ["Guard", "Thief"]
    steps = sections["turn"]["steps"]
    assert steps and all(step["name"] in {p.name for p in heist.phases.values()} for step in steps)
    assert any(step.get("default") for step in steps) and any(step["players"] for step in steps)
    assert data["sheet"] == rules_sheet(heist.definition)
