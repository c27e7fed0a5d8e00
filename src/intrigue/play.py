"""``intrigue play``: a person against bots in a terminal.

The person's seat sees exactly what a browser seat sees: each screen is drawn
from ``observe(match, seat)`` (the components, the log lines the seat may read,
its options), never from the match itself. Bots play the other seats through
their own views. Options are numbered; ``/say TEXT`` talks to the table (bots
that listen, like ``llm``, hear it), ``/quit`` leaves. There is no clock: the
game waits for the person, and a timer phase nobody can end early (a DSL
``timer`` without ``options``) runs out at once, as in a simulation.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import bots
from .engine import Game, Match
from .engine.timing import expiry, timeout_choice

NAMES = ["Robin", "Aria", "Blake", "Casey", "Drew", "Ellis", "Finley", "Gray", "Harper", "Indy"]


def render_table(console: Console, view: dict[str, Any]) -> None:
    """Draw the seat's view of the table from its components (as the browser does, in text)."""
    for component in view["components"]:
        kind = component.get("kind")
        if kind == "board":
            table = Table("player", "cards", "stats", "tags", box=None, pad_edge=False)
            for player in component.get("players", []):
                cards = ", ".join(("[strike]" + escape(str(c.get("label"))) + "[/]") if c.get("lost")
                                  else escape(str(c["label"])) if c.get("label") else "▮"
                                  for c in player.get("cards", []))
                stats = ", ".join(f"{escape(str(s['label']))} {escape(_reads(s['value']))}"
                                  for s in player.get("stats", []))
                name = escape(player.get("name", ""))
                if not player.get("alive", True):
                    name = f"[dim]{name} (out)[/]"
                table.add_row(name, cards, stats, escape(", ".join(map(str, player.get("tags", [])))))
            console.print(table)
        elif kind == "hand":
            console.print(f"[bold]{escape(component.get('title') or 'Your hand')}:[/] "
                          + escape(", ".join(map(str, component.get("cards", [])))))
        elif kind == "character_card":
            whose = f"{component['player']} · " if component.get("player") else ""  # a shown card names its owner
            console.print(f"[bold]{escape(whose + str(component.get('title', '')))}[/]: "
                          f"{escape(str(component.get('text', '')))}")
        elif kind == "text":
            console.print(escape(str(component.get("text", ""))))


def _reads(value: Any) -> str:
    """A stat as players read it (as the log lines do): a list as its items, none when empty."""
    if isinstance(value, (list, tuple)):
        return ", ".join(_reads(item) for item in value) if value else "none"
    return str(value)


def play(game: Game, players: int, bot_spec: str, seed: int, console: Console,
         ask: Callable[[str], str], seat: int = 0) -> Match:
    """Play one match with the person at ``seat``; ``ask`` reads a line of input."""
    names = NAMES[:players] if players <= len(NAMES) else [f"P{i + 1}" for i in range(players)]
    if seat:
        names[0], names[seat] = names[seat], names[0]
    match = Match(game, names, seed)
    others = {s: bots.make(bot_spec, seed=f"{seed}:{s}") for s in range(players) if s != seat}
    order = random.Random(seed)
    console.print(f"[bold]{escape(game.title)}[/]: you are [bold]{escape(names[seat])}[/], "
                  f"against {players - 1} {escape(bot_spec)} bot(s). Type a number to choose, "
                  "/say TEXT to talk, /quit to leave.")
    seen_version = -1
    while not match.over:
        pending = match.pending
        if seat in pending:
            view = match.observe(seat)
            console.rule(f"{escape(view['phase']['name'])} · version {view['version']}")
            _new_lines(console, view, seen_version)
            seen_version = view["version"]
            render_table(console, view)
            options = view["decision"]["options"]
            for number, option in enumerate(options, 1):
                console.print(f"  [cyan]{number}[/]. {escape(option)}")
            choice = _read_choice(console, ask, options, others, names[seat])
            if choice is None:
                console.print("You left the table.")
                return match
            match.choose(seat, choice)
            continue
        if not pending:  # a timer phase waiting for its clock: its time runs out now
            console.print(f"[dim]{escape(match.phase.name)}: the time runs out.[/]")
            for move in list(expiry(match)):
                match.choose(*move)
            continue
        current = pending[0] if len(pending) == 1 else order.choice(pending)
        bot = others[current]
        view = bots.SeatView.of(match, current)
        try:
            option = bot.choose(view)
        except Exception:  # noqa: BLE001 - a failing bot gets the timeout default, as on the server
            option = None
        if option not in view.options:
            option = timeout_choice(match, current, list(view.options))
        for line in bot.talk()[:1]:
            console.print(f"[magenta]{escape(names[current])} says:[/] {escape(line[:300])}")
            for other, listener in others.items():
                if other != current:
                    listener.hear(names[current], line[:300])
        match.choose(current, option)
    view = match.observe(seat)
    console.rule("Game over")
    _new_lines(console, view, seen_version)
    winners = ", ".join(view["winners"]) or "nobody"
    console.print(f"[bold]Winner: {escape(winners)}[/]" + (" — you won!" if names[seat] in view["winners"] else ""))
    return match


def _new_lines(console: Console, view: dict[str, Any], since: int) -> None:
    for entry in view["log"]:
        if entry["version"] > since or since < 0:
            console.print(f"  [dim]·[/] {escape(entry['text'])}")


def _read_choice(console: Console, ask: Callable[[str], str], options: list[str], others: dict[int, bots.Bot],
                 me: str) -> str | None:
    while True:
        try:
            line = ask(f"Your choice (1-{len(options)}): ").strip()
        except EOFError:
            return None
        if line == "/quit":
            return None
        if line.startswith("/say "):
            text = " ".join(line[5:].split())[:300]
            if text:
                for listener in others.values():
                    listener.hear(me, text)
                console.print(f"[magenta]{escape(me)} says:[/] {escape(text)}")
            continue
        if line.isdigit() and 1 <= int(line) <= len(options):
            return options[int(line) - 1]
        if line in options:
            return line
        same = [option for option in options if option.casefold() == line.casefold()]
        if len(same) == 1:  # "pass" for Pass, as a person types it
            return same[0]
        console.print(f"[red]Type a number from 1 to {len(options)}, or an option as listed.[/]")
