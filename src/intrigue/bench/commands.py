"""``intrigue bench ...`` commands."""

from __future__ import annotations

import json
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

bench = typer.Typer(help="Measure the engine and the server.", no_args_is_help=True)
console = Console()


@bench.command("engine")
def engine(game: Optional[str] = typer.Option(None, "--game", "-g", help="One game (default: all)."),
           seconds: float = typer.Option(3.0, "--seconds", "-s"),
           players: Optional[int] = typer.Option(None, "--players", "-p"),
           ui: bool = typer.Option(False, "--ui", help="Build UI components too (not headless)."),
           as_json: bool = typer.Option(False, "--json")) -> None:
    """Decisions/s, games/s and decisions per game with random choices, single process."""
    from .. import games as registry
    from .engine import clone_microseconds, measure

    ids = [game] if game else registry.installed()
    try:
        figures = [measure(g, seconds, players, headless=not ui) for g in ids]
    except KeyError as exc:
        console.print(f"[red]{exc.args[0]}[/]")
        raise typer.Exit(2) from None
    except Exception as exc:  # noqa: BLE001 - a game that fails: one line, no trace
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    clone = clone_microseconds() if "coup" in ids else None
    if as_json:
        print(json.dumps({"engine": [f.as_json() for f in figures], "coup_clone_us": clone}, indent=2))
        return
    table = Table("game", "players", "games", "decisions/s", "games/s", "decisions/game")
    for figure in figures:
        row = figure.as_json()
        table.add_row(figure.game, str(figure.players), str(figure.games),
                      f"{row['decisions_per_second']:,.0f}", f"{row['games_per_second']:,.1f}",
                      f"{row['decisions_per_game']:.1f}")
    console.print(table)
    if clone is not None:
        console.print(f"Coup clone mid-game: {clone:.1f} µs")


@bench.command("env")
def env(game: str = typer.Argument(..., help="An installed game or a YAML path."),
        seconds: float = typer.Option(3.0, "--seconds", "-s"),
        players: Optional[int] = typer.Option(None, "--players", "-p"),
        observe: bool = typer.Option(False, "--observe", help="Also build each step's whole observation."),
        as_json: bool = typer.Option(False, "--json")) -> None:
    """Decisions/s through the PettingZoo step() with masks, and the engine's share (env extra)."""
    from .env import measure

    figure = measure(game, seconds, players, observe=observe)
    if as_json:
        print(json.dumps(figure.as_json(), indent=2))
        return
    what = "masks and observations" if observe else "masks"
    console.print(f"{figure.game} ({figure.players} players): {figure.decisions_per_second:,.0f} decisions/s "
                  f"through step() with {what} ({figure.decisions:,} decisions, {figure.games:,} games); "
                  f"the engine takes {figure.engine_share:.0%} of the time, the environment the rest")


@bench.command("server")
def server(matches: int = typer.Option(100, "--matches", "-m", help="Live 4-player Coup matches."),
           seconds: float = typer.Option(15.0, "--seconds", "-s", help="How long they play."),
           restart: int = typer.Option(0, "--restart", help="Also time a restart with this many "
                                                            "unfinished matches in the store."),
           synchronous: str = typer.Option("full", help="The server's SQLite synchronous mode."),
           think: float = typer.Option(0.0, help="Mean seconds a player waits before clicking "
                                                 "(0: as fast as possible)."),
           client_processes: int = typer.Option(2, "--client-processes", min=1, max=64,
                                                help="Processes the clients run in (never the server's)."),
           as_json: bool = typer.Option(False, "--json")) -> None:
    """Real WebSocket clients on loopback: moves/s, latency percentiles, CPU, memory per match."""
    from .server import run

    figures = run(matches, seconds, restart, synchronous, think, client_processes)
    if as_json:
        print(json.dumps(figures, indent=2))
        return
    latency = figures["latency_ms"]
    console.print(f"{figures['matches']} matches, {figures['clients']} WebSocket clients, "
                  f"{figures['seconds']} s: {figures['moves_per_second']:,.1f} accepted moves/s "
                  f"({figures['finished_matches']} matches finished; refusals: {figures['errors'] or 'none'})")
    console.print(f"command → view latency: p50 {latency['p50']} ms, p95 {latency['p95']} ms, "
                  f"p99 {latency['p99']} ms (the clients' event loops ran late by p99 "
                  f"{figures['clients_lag_ms']['p99']} ms, max {figures['clients_lag_ms']['max']} ms)")
    console.print(f"server CPU {figures['server_cpu_percent']}% ({figures['server_cpu_ms_per_move']} ms per accepted "
                  f"move), clients' CPU {figures['clients_cpu_percent']}% "
                  f"({figures['client_processes']} processes), "
                  f"{figures['kib_per_idle_match']} KiB resident per idle live match")
    console.print(f"load average before {figures['load_average_before']}, after {figures['load_average_after']} "
                  f"({figures['cpus']} CPUs)")
    if "restart" in figures:
        console.print(f"restart with {figures['restart']['unfinished_matches']} unfinished matches: "
                      f"{figures['restart']['restart_seconds']} s to serving")


@bench.command("cluster")
def cluster(nodes: str = typer.Option("1,2,3", help="Node counts to measure throughput with (0: skip)."),
            matches: int = typer.Option(100, "--matches", "-m", help="Live 4-player Coup matches per run."),
            seconds: float = typer.Option(10.0, "--seconds", "-s", help="How long each run plays."),
            think: float = typer.Option(0.0, help="Mean seconds a player waits before clicking (0: stress)."),
            failover: int = typer.Option(1000, help="Two-player matches owned by the node killed (0: skip)."),
            lease: float = typer.Option(1.5, help="The nodes' lease in seconds."),
            as_json: bool = typer.Option(False, "--json")) -> None:
    """Nodes on PostgreSQL and Redis behind HAProxy: moves/s and p99 for 1, 2, 3 nodes; failover after kill -9."""
    from .cluster import run

    counts = [int(n) for n in nodes.split(",") if n.strip() and n.strip() != "0"]
    if (not counts and not failover) or any(not 1 <= n <= 3 for n in counts):
        console.print("[red]error:[/] --nodes takes counts from 1 to 3, comma-separated (e.g. 1,2,3), "
                      "or 0 with --failover")
        raise typer.Exit(2)
    figures = run(counts, matches, seconds, think, failover, lease)
    if as_json:
        print(json.dumps(figures, indent=2))
        return
    console.print(f"load average before {figures['load_average_before']}, after {figures['load_average_after']} "
                  f"({figures['cpus']} CPUs)")
    if figures["throughput"]:
        table = Table("nodes", "clients", "moves/s", "p50 ms", "p95 ms", "p99 ms", "nodes' CPU %")
        for row in figures["throughput"]:
            latency = row["latency_ms"]
            table.add_row(str(row["nodes"]), str(row["clients"]), f"{row['moves_per_second']:,.1f}",
                          str(latency["p50"]), str(latency["p95"]), str(latency["p99"]),
                          str(row["nodes_cpu_percent"]))
        console.print(table)
    if "failover" in figures:
        f = figures["failover"]
        console.print(f"failover: kill -9 of the node owning {f['matches']} live matches; {f['recovered']} accepted "
                      f"a move again on another node, all within {f['seconds_to_all']} s (p50 {f['p50']} s, "
                      f"p99 {f['p99']} s; lease {f['lease']} s); {f['acknowledged_moves']} acknowledged moves "
                      f"checked: {f['missing_in_log']} missing, {f['different_in_log']} different; "
                      f"{f['reconnects']} reconnections, {f['moved']} connections moved by their gateway; "
                      f"the survivors used {f['survivors_cpu_seconds']} CPU seconds meanwhile "
                      f"({f['survivors_cpu_ms_per_match']} ms per match)")


@bench.command("coach")
def coach(hints: int = typer.Option(30, "--hints", "-n", min=1, help="Hints to ask for."),
          as_json: bool = typer.Option(False, "--json")) -> None:
    """Hint latency through a real server: Coup tutorial rooms, a hint at each of the player's decisions."""
    from .coach import run

    figures = run(hints)
    if as_json:
        print(json.dumps(figures, indent=2))
        return
    latency = figures["latency_ms"]
    console.print(f"{figures['hints']} hints over WebSockets: p50 {latency['p50']} ms, p95 {latency['p95']} ms, "
                  f"max {latency['max']} ms")
    console.print("reasons: " + ", ".join(f"{key} ×{n}" for key, n in sorted(figures["reasons"].items())))


def register(app: typer.Typer) -> None:
    app.add_typer(bench, name="bench")
