"""Pages as people open them (a viewport, a language, a colour scheme), the accessibility
audit (axe-core, from the axe-playwright-python package), screenshots, and the check that
no English string reaches a page shown in another language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import axe_playwright_python

from intrigue import games
from intrigue.games import tables

from tests.games.table_strings import variants

from .conftest import SHOTS

PHONE = {"width": 390, "height": 844}
NARROW = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
STATIC = Path(__file__).resolve().parents[2] / "src" / "intrigue" / "web" / "static"
AXE = Path(axe_playwright_python.__file__).with_name("axe.min.js").read_text(encoding="utf-8")


def open_page(browser, viewport=DESKTOP, lang: str | None = None, color_scheme: str | None = None, **extra):
    """A new context and page; page.js_errors collects uncaught script errors."""
    context = browser.new_context(viewport=viewport, color_scheme=color_scheme, **extra)
    if lang:
        context.add_init_script(f"try {{ localStorage.setItem('intrigue:lang', {json.dumps(lang)}) }} catch (e) {{}}")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.js_errors = errors
    return context, page


def sit_down(page, server, joined: dict) -> None:
    """Open the room a `POST /api/rooms` answer (`joined`) created, as its host: the page keeps the seat's
    token where the room page looks for it, as after creating the room in the lobby."""
    page.goto(server.base + "/")
    page.evaluate("([key, token]) => localStorage.setItem(key, token)",
                  [f"intrigue:token:{joined['room']}", joined["token"]])
    page.goto(server.base + joined["url"])


def shot(page, name: str, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png", full_page=full_page)


def serious_violations(page) -> list[dict]:
    """axe-core's serious and critical violations on the page as it is now, its animations ended."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE)
    # contrast is judged on the page at rest: a banner fading in is briefly transparent
    page.evaluate("""() => Promise.all(document.getAnimations()
        .filter(a => a.effect && a.effect.getTiming().iterations !== Infinity).map(a => a.finished.catch(() => null)))""")
    found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
        .map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map(n => n.target.join(' '))}))""")
    return [v for v in found if v["impact"] in ("serious", "critical")]


def assert_accessible(page, where: str) -> None:
    problems = serious_violations(page)
    assert not problems, f"{where}: {json.dumps(problems, indent=1)}"


def _chunks(template: str) -> list[str]:
    """The literal parts of a template that are clearly sentences (two words or more)."""
    parts = [part for text in variants(template) for part in re.split(r"\{[^{}]+\}", text)]
    return [p.strip(" .,:;·()") for p in parts if len(p.strip(" .,:;·()").split()) >= 2]


def english_strings(lang: str, game_ids: list[str]) -> list[str]:
    """English strings that must not be seen in `lang`: the client's strings and the games'
    catalogs (a word the language writes the same, like "Duel" or "Agent", is left out)."""
    found: set[str] = set()
    pairs = []
    english = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    other = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    pairs += [(english[k], other[k]) for k in english]
    for game_id in game_ids:
        folder = tables.folder(games.get(game_id))
        english_file = folder / "en.json"
        en = json.loads(english_file.read_text(encoding="utf-8")) if english_file.is_file() else {}
        xx = json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))
        # a game written in YAML alone keeps its own words in English: its keys (en.json, if any, has its plurals)
        keys = en if set(xx) <= set(en) else xx
        pairs += [(en.get(k, k), xx[k]) for k in keys] + [(k, xx[k]) for k in keys]
    for source, translated in pairs:
        if source == translated:
            continue
        for chunk in _chunks(source) or ([source.strip(" .!?:")] if "{" not in source else []):
            if len(chunk) >= 4 and chunk not in translated:
                found.add(chunk)
    return sorted(found)


NO_ENGLISH = """(words) => {
    const text = [document.body.innerText, document.title,
        ...[...document.querySelectorAll('[aria-label]')].map(n => n.getAttribute('aria-label'))].join('\\n');
    const seen = [];
    for (const word of words) {
        const escaped = word.replace(/[.*+?^${}()|[\\]\\\\]/g, '\\\\$&');
        if (new RegExp(`(?<![\\\\p{L}])${escaped}(?![\\\\p{L}])`, 'u').test(text)) seen.push(word);
    }
    return seen;
}"""


def english_on_page(page, words: list[str]) -> list[str]:
    return page.evaluate(NO_ENGLISH, words)
