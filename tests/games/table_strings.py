"""Every string a game can put in front of a player, gathered from its DSL, its table
data and the views of real matches (random choices, every seat and a spectator).

The browser translates these through the game's catalog (``table/<lang>.json``), so
each must be a key of the English catalog, and of every other language's.
"""

from __future__ import annotations

import random
import re
from typing import Any, Iterable

from intrigue.engine import Match, Game
from intrigue.games import tables

WORDLESS = re.compile(r"^[^A-Za-z]*$")


def _card_name(table: dict[str, Any], label: str) -> str | None:
    spec = table.get("cards") or {}
    if not spec.get("pattern"):
        return None
    found = re.match(spec["pattern"].replace("(?<", "(?P<"), label)
    return found.group("name") if found else None


class Strings:
    def __init__(self, game: Game):
        self.game = game
        self.table = tables.table(game, "en")
        self.patterns = [(re.compile(p.replace("(?<", "(?P<")), key) for p, key in self.table.get("options", [])]
        self.found: dict[str, str] = {}   # string -> where it was seen

    def add(self, text: Any, where: str, names: Iterable[str] = ()) -> None:
        """A word or sentence shown as is (looked up whole, or as a card)."""
        if not isinstance(text, str) or not text.strip() or WORDLESS.match(text) or text in set(names):
            return
        if names and set(text.split(", ")) <= set(names):
            return  # a team of players ("Ada, Basil"): names are never translated
        name = _card_name(self.table, text)
        if name is not None:
            self.found.setdefault(name, where)
            return
        self.found.setdefault(text, where)

    def option(self, text: Any, where: str, names: Iterable[str] = ()) -> None:
        """An option: a word, a card, or a form the game's table data declares ("options")."""
        if not isinstance(text, str) or text in set(names) or text in self.found or _card_name(self.table, text):
            self.add(text, where, names)
            return
        for pattern, key in self.patterns:
            found = pattern.match(text)
            if found:
                self.found.setdefault(key, where)
                for group, value in found.groupdict().items():
                    if value is None:
                        continue
                    for part in (value.split(", ") if group == "cards" else [value]):
                        self.add(part, where, names)
                return
        self.add(text, where, names)

    def message(self, text: Any, msg: dict[str, Any] | None, where: str, names: Iterable[str]) -> None:
        """A text with its template: the template, and each value that is a word."""
        if msg and isinstance(msg.get("key"), str):
            self.found.setdefault(msg["key"], where)
            for value in (msg.get("args") or {}).values():
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, bool):
                        self.found.setdefault("yes" if item else "no", where)
                    else:
                        self.add(item, where, names)
        else:
            self.add(text, where, names)

    # -- sources ---------------------------------------------------------------
    def declared(self) -> None:
        definition = self.game.definition
        declaration = definition.declaration
        self.add(self.game.title, "title")
        self.add(self.game.binding.summary, "summary")
        for key in self.game.binding.options:
            if not key.endswith("_timer"):  # the lobby names the timers itself
                self.add(key, "option name")
        for phase in definition.phases.values():
            self.add(phase.name, "phase")
            self.says(list(phase.effects or []) + [e for action in phase.actions for e in action.effects or []])
            for entry in phase.completion_criteria.options or []:
                self.option(entry if isinstance(entry, str) else getattr(entry, "option", None), "declared option")
        self.sheet(self.table.get("sheet") or {})
        for word, text in (self.table.get("about") or {}).items():
            self.add(word, "about")
            self.add(text, "about")
        for _, key in self.table.get("options", []):
            self.found.setdefault(key, "option notation")
        del declaration

    def says(self, effects: list[Any]) -> None:
        """Every ``say`` template, reached in play or not (a rare ending is still shown)."""
        for effect in effects:
            if getattr(effect, "say", None):
                self.found.setdefault(effect.say, "say")
                if getattr(effect, "banner", None):
                    self.found.setdefault(effect.banner.title, "banner")
            self.says(list(getattr(effect, "then", None) or []) + list(getattr(effect, "else_", None) or []))

    def sheet(self, sheet: dict[str, Any]) -> None:
        self.add(sheet.get("summary"), "sheet")
        for section in sheet.get("sections", []):
            self.add(section.get("title"), "sheet")
            for p in section.get("paragraphs", []):
                self.add(p, "sheet")
            for cell in section.get("head", []) + [c for row in section.get("rows", []) for c in row]:
                self.add(cell, "sheet")
            for item in section.get("items", []):
                self.add(item.get("name"), "sheet")
                self.add(item.get("text"), "sheet")
            for step in section.get("steps", []):
                for key in ("name", "text", "who", "default"):
                    self.add(step.get(key), "sheet")
                for option in step.get("options", []):
                    self.option(option, "sheet")

    def view(self, view: dict[str, Any]) -> None:
        names = view["players"]
        self.add(view["phase"]["name"], "phase", names)
        for entry in view["log"]:
            if "key" in entry:
                self.message(entry["text"], {"key": entry["key"], "args": entry.get("args", {})}, "log", names)
            else:
                self.add(entry["text"], "log", names)
            banner = entry.get("banner")
            if banner:
                if "key" in banner:  # a DSL title with {…}: its template, as a line's
                    self.message(banner.get("title"), banner, "banner", names)
                else:
                    self.add(banner.get("title"), "banner", names)
                self.add(banner.get("card"), "banner", names)
        for option in (view.get("decision") or {}).get("options", []):
            self.option(option, "option", names)
        for c in view["components"]:
            msg = c.get("msg") or {}
            kind = c["kind"]
            for field in ("text", "title", "prompt", "name"):
                if field == "text" and c.get("roles"):
                    continue  # the roles list says it, player by player
                if field in c and kind != "turn":
                    self.message(c[field], msg.get(field), f"{kind}.{field}", names)
            for card in c.get("cards", []) if kind == "hand" else []:
                self.add(card, "hand", names)
            for card in c.get("lost", []) if kind == "hand" else []:
                self.add(card, "hand", names)
            for row in c.get("players", []) if kind == "board" else []:
                for stat in row.get("stats", []):
                    self.add(stat["label"], "stat", names)
                    self.add(stat["value"], "stat value", names)
                for tag in row.get("tags", []):
                    self.add(tag, "tag", names)
                for card in row.get("table", []):
                    self.add(card, "in play", names)
                for card in row.get("cards", []):
                    self.add(card.get("label"), "board card", names)
            for role in c.get("roles", []):
                self.add(role.get("role"), "result role", names)
            for option, about in (c.get("about") or {}).items():
                for field in ("label", "claim", "note", "card", "character"):
                    self.add(about.get(field), f"about.{field}", names)
                if about.get("detail") != "hand":
                    self.add(about.get("detail"), "about.detail", names)
                for card in about.get("cards", []):
                    self.add(card, "about.cards", names)
            for item in c.get("unavailable", []):
                for field in ("label", "claim", "note"):
                    self.add(item.get(field), "unavailable", names)
                self.message(item.get("reason"), (item.get("msg") or {}).get("reason"), "unavailable.reason", names)
            for card in (c.get("choose") or {}).get("from", []):
                self.add(card, "choose", names)

    def play(self, players: int, games: int, seed: int = 0, choose=None, options: dict[str, Any] | None = None,
             setup: dict[str, Any] | None = None) -> None:
        rng = random.Random(seed)
        for number in range(games):
            names = [f"P{i}" for i in range(players)]
            match = Match(self.game, names, seed=f"{seed}:{number}", options=options, setup=setup)
            steps = 0
            while not match.over and steps < 3000:
                for seat in [None, *range(players)]:
                    self.view(match.observe(seat))
                seat = rng.choice(match.pending)
                legal = match.legal(seat)
                match.choose(seat, choose(rng, legal) if choose else rng.choice(legal))
                steps += 1
            for seat in [None, *range(players)]:
                self.view(match.observe(seat))


PLURAL_HEAD = re.compile(r"\{\s*([\w.]+)\s*,\s*plural\s*,")
PLURAL_FORM = re.compile(r"\s*(=\d+|zero|one|two|few|many|other)\s*\{")
PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


def variants(template: str) -> list[str]:
    """The texts a catalog template can read as: each plural block ("{n, plural, one {# card}
    other {# cards}}", filled by the browser with Intl.PluralRules) replaced by each of its
    forms, "#" written as the placeholder "{n}"."""
    found = PLURAL_HEAD.search(template)
    if not found:
        return [template]
    at, forms = found.end(), []
    while selector := PLURAL_FORM.match(template, at):
        depth, end = 1, selector.end()
        while end < len(template) and depth:
            depth += {"{": 1, "}": -1}.get(template[end], 0)
            end += 1
        forms.append(template[selector.end():end - 1])
        at = end
    close = re.compile(r"\s*\}").match(template, at)
    if not close or not forms:
        return [template]
    before, after, name = template[:found.start()], template[close.end():], found.group(1)
    return [text for form in forms for text in variants(before + form.replace("#", "{" + name + "}") + after)]


def placeholders(template: str) -> set[str]:
    """The names a template is filled with, in any of its plural forms."""
    return set(PLURAL_HEAD.findall(template)).union(*(PLACEHOLDER.findall(text) for text in variants(template)))
