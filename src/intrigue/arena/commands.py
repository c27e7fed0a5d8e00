"""``intrigue arena``: rate agents over seeded deals with every seat rotation."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

console = Console(width=None if sys.stdout.isatty() else 120)
errors = Console(stderr=True, soft_wrap=True)  # an error names files: never broken across lines


def register(app: typer.Typer) -> None:
    app.command()(arena)


def arena(
    game: str = typer.Argument(..., help="An installed game (intrigue games), or a game's YAML file."),
    agents: str = typer.Option(..., "--agents", "-a", help="Comma-separated agents, one per seat: bot specs "
                               "(random, heuristic[:…], ismcts[:…], llm) or remote:SPEC (a bot in its own "
                               "process over the protocol) or remote:COMMAND (your program)."),
    deals: int = typer.Option(10, "--deals", "-n", help="Seeded deals; each is played once per rotation."),
    seed: int = typer.Option(0, "--seed", help="Seed of the deals."),
    turn_timer: Optional[float] = typer.Option(30, help="With remote agents: the rooms' turn timer (seconds)."),
    window_timer: Optional[float] = typer.Option(15, help="With remote agents: the rooms' window timer (seconds)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Also write the JSON report to this file."),
    plot: Optional[Path] = typer.Option(None, "--plot", help="Write a chart of the ratings (.svg)."),
) -> None:
    """Play every agent in every seat of seeded deals; rate them (OpenSkill) and measure how they play."""
    from .. import games as registry
    from .agents import AgentGone
    from .run import run

    try:
        loaded = registry.resolve(game)
    except KeyError as exc:
        errors.print(f"[red]{escape(str(exc.args[0]))}[/]")
        raise typer.Exit(2) from None
    except Exception as exc:  # noqa: BLE001 - a game file with problems: say them, no trace
        errors.print(f"[red]error: {escape(game)} does not load:[/]\n{escape(str(exc))}")
        raise typer.Exit(2) from None
    game_file = None if game in registry.installed() else Path(game).expanduser().resolve()
    if plot is not None and plot.suffix.lower() != ".svg":
        errors.print(f"[red]--plot writes .svg, not {escape(plot.name)!r}[/]")
        raise typer.Exit(2)
    specs = [spec for spec in agents.split(",") if spec.strip()]
    timers = {"turn_timer": turn_timer, "window_timer": window_timer}
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=errors, transient=True, disable=as_json) as bar:
            task = bar.add_task(f"{game}: {agents}", total=deals * len(specs))
            report = run(loaded, specs, deals, seed, timers,
                         progress=lambda done, total: bar.update(task, completed=done), game_file=game_file)
    except ValueError as exc:
        errors.print(f"[red]{escape(str(exc))}[/]")
        raise typer.Exit(2) from None
    except AgentGone as exc:  # a remote program stopped in the middle of the run
        errors.print(f"[red]{escape(str(exc))}[/]")
        raise typer.Exit(1) from None
    if output is not None:
        output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    if plot is not None:
        from ..bots.plot import ratings_svg

        plot.write_text(ratings_svg(report), encoding="utf-8")
    if as_json:
        print(json.dumps(report, indent=2))
        return
    show(report)
    if plot is not None:
        console.print(f"chart: {plot}")


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def show(report: dict) -> None:
    console.print(f"[bold]{report['game']}[/], {report['players']} agents, {report['deals']} deals × "
                  f"{report['rotations']} rotations = {report['matches']} matches, seed {report['seed']}"
                  + (", on a loopback server" if report["hosted"] else "") + f", {report['seconds']:.1f} s"
                  + (f", {report['draws']} without a winner" if report["draws"] else ""))
    table = Table("rank", "agent", "rating (mu)", f"± {report['interval_sigmas']:g} sigma", "wins", "win rate",
                  "95% CI", "ms/dec")
    rows = {row["agent"]: row for row in report["agents"]}
    for rank, name in enumerate(report["order"], 1):
        row = rows[name]
        low, high = row["interval"]
        table.add_row(str(rank), escape(name), f"{row['mu']:.2f}", f"{low:.2f}–{high:.2f}",
                      f"{row['wins']}/{row['matches']}", f"{row['win_rate']:.1%}",
                      f"{row['ci95'][0]:.1%}–{row['ci95'][1]:.1%}",
                      "–" if row["ms_per_decision"] is None else f"{row['ms_per_decision']:.1f}")
    console.print(table)
    habits = Table("agent", "claims", "bluffs", "blocks", "challenges", "challenge rate", "right",
                   "picks", "other team", "votes", "other team", title="behaviour, measured against the hidden truth")
    for name in report["order"]:
        b = rows[name]["behaviour"]
        habits.add_row(escape(name), str(b.get("claims", 0)), _pct(b["bluff_rate"]), str(b.get("blocks", 0)),
                       str(b.get("challenges", 0)), _pct(b["challenge_rate"]), _pct(b["challenge_accuracy"]),
                       str(b.get("picks", 0)), _pct(b["other_team_picks"]), str(b.get("votes", 0)),
                       _pct(b["other_team_votes"]))
    console.print(habits)
