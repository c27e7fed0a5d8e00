"""``intrigue tournament``: pit bots against each other and report with confidence intervals."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

console = Console(width=None if sys.stdout.isatty() else 110)  # piped: wide enough for the tables
errors = Console(stderr=True, soft_wrap=True)  # an error names files: never broken across lines


def register(app: typer.Typer) -> None:
    app.command()(tournament)


def tournament(
    game: str = typer.Argument(..., help="An installed game (intrigue games), or a game's YAML file."),
    bots: str = typer.Option(..., "--bots", "-b", help="Comma-separated bot specs, one per seat "
                             "(the last fills the rest): random, heuristic[:cautious|bold|honest], "
                             "ismcts[:fast|strong|<N>|<N>ms]."),
    games: int = typer.Option(100, "--games", "-n", help="Matches to play."),
    seed: int = typer.Option(0, "--seed", help="Seed of the whole tournament."),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Seats (default: one per bot)."),
    workers: int = typer.Option(1, "--workers", "-w", help="Processes to play on."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    plot: Optional[Path] = typer.Option(None, "--plot", help="Write a bar chart (.svg, or .png with matplotlib)."),
    habits: bool = typer.Option(False, "--habits", help="Also measure claims, bluffs and challenges (Coup)."),
    option: Optional[list[str]] = typer.Option(None, "--option", "-o", help="A game option, key=value "
                                               "(repeatable), e.g. -o characters=inquisitor -o reformation=true."),
) -> None:
    """Play bots against each other with seats rotated; report win rates with 95% intervals.

    Ctrl-C (or SIGTERM) stops early and reports the games finished so far.
    """
    from .. import games as registry
    from ..engine.errors import EngineError
    from .tournament import run

    try:
        loaded = registry.resolve(game)
    except KeyError as exc:
        errors.print(f"[red]{escape(str(exc.args[0]))}[/]")
        raise typer.Exit(2) from None
    except Exception as exc:  # noqa: BLE001 - a game file with problems: say them, no trace
        errors.print(f"[red]error: {escape(game)} does not load:[/]\n{escape(str(exc))}")
        raise typer.Exit(2) from None
    if plot is not None and plot.suffix.lower() not in (".svg", ".png"):
        errors.print(f"[red]--plot writes .svg or .png, not {plot.name!r}[/]")
        raise typer.Exit(2)
    specs = bots.split(",")
    _interrupt_on_sigterm()
    try:
        from ..engine.options import parse_options

        options = parse_options(option, loaded, players or len(specs))
        if as_json:
            report = run(loaded, specs, games, seed, players, workers, habits, options=options)
        else:
            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), TimeRemainingColumn(), console=errors, transient=True) as bar:
                task = bar.add_task(f"{game}: {bots}", total=games)
                report = run(loaded, specs, games, seed, players, workers, habits,
                             progress=lambda done: bar.update(task, completed=done), options=options)
    except ValueError as exc:
        errors.print(f"[red]{escape(str(exc))}[/]")
        raise typer.Exit(2) from None
    except EngineError as exc:  # the game's rules failed in a match: one line, no trace
        print(f"error: {exc}", file=sys.stderr)
        raise typer.Exit(1) from None
    data = report.as_json()
    if plot is not None:
        from .plot import save

        try:
            save(data, plot)
        except ValueError as exc:
            errors.print(f"[red]{escape(str(exc))}[/]")
            raise typer.Exit(2) from None
    if as_json:
        print(json.dumps(data, indent=2))
        return
    show(data)
    if plot is not None:
        console.print(f"chart: {plot}")


def _interrupt_on_sigterm() -> None:
    """``kill`` (SIGTERM) stops a long tournament like Ctrl-C: with a report of the games finished."""
    import signal

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    signal.signal(signal.SIGINT, interrupt)


def show(data: dict) -> None:
    if data.get("interrupted"):
        console.print(f"[yellow]interrupted: the figures below are from the {data['games']} games finished[/]")
    chosen = "".join(f", {k}={v}" for k, v in (data.get("options") or {}).items())
    console.print(f"[bold]{data['game']}[/], {data['players']} players{escape(chosen)}, {data['games']} games, "
                  f"seed {data['seed']}, "
                  f"{data['workers']} worker(s), {data['seconds']:.1f} s"
                  + (f", {data['draws']} without a winner" if data["draws"] else ""))
    console.print(f"an even chance is {1 / data['players']:.1%} per seat")
    table = Table("bot", "seats", "wins", "rate", "95% CI", "ms/dec", "max ms", "iter/dec")
    for bot in data["bots"]:
        low, high = bot["ci95"]
        table.add_row(bot["bot"], str(bot["seats"]), f"{bot['wins']}/{bot['games']}", f"{bot['win_rate']:.1%}",
                      f"{low:.1%}–{high:.1%}",
                      f"{bot['ms_per_decision']:.1f}", f"{bot['slowest_ms']:.0f}",
                      f"{bot['iterations_per_decision']:.0f}" if bot["iterations_per_decision"] else "–")
    console.print(table)
    seats = Table("seat", *[bot["bot"] for bot in data["bots"]], title="wins by seat")
    for seat, wins in data["wins_by_seat"].items():
        seats.add_row(seat, *[str(wins.get(bot["bot"], 0)) for bot in data["bots"]])
    console.print(seats)
    sides = sorted({side for bot in data["bots"] for side in bot["wins_by_role"]})
    roles = Table("bot", *sides, title="wins by role (winning side)")
    for bot in data["bots"]:
        roles.add_row(bot["bot"], *[str(bot["wins_by_role"].get(side, 0)) for side in sides])
    console.print(roles)
    if any("habits" in bot for bot in data["bots"]):
        habits = Table("bot", "claims", "bluffed", "chances", "challenged", "right", title="habits (chances: "
                       "times Challenge was offered)")
        for bot in data["bots"]:
            h = bot.get("habits") or {}

            def pct(key: str) -> str:
                return "–" if h.get(key) is None else f"{h[key]:.1%}"

            habits.add_row(bot["bot"], str(h.get("claims", 0)), pct("bluff_rate"), str(h.get("chances", 0)),
                           pct("challenge_rate"), pct("challenge_accuracy"))
        console.print(habits)
