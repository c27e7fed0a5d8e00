"""The ``intrigue`` command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from . import games as game_registry

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Intrigue: hidden-role and bluffing games from a phase DSL, run exactly.")
console = Console()
errors = Console(stderr=True, soft_wrap=True)  # an error names files: never broken across lines


@app.command()
def validate(files: List[Path] = typer.Argument(..., help="DSL files to check, or installed game ids.")) -> None:
    """Check DSL files; print every problem as file:line: key.path: message.

    An extension file (one with ``extends:``) is checked merged onto the file it extends; an
    installed game's id checks its DSL file and its extension files."""
    from .dsl import validate_file
    from .dsl.overlay import is_extension, validate_extension_file

    failed = False
    paths: list[Path] = []
    for file in files:
        if not file.exists() and str(file) in game_registry.installed():
            binding = game_registry.get(str(file)).binding
            paths += [binding.dsl_path, *binding.extension_paths]
        else:
            paths.append(file)
    for file in paths:
        checked = validate_extension_file(file) if is_extension(file) else validate_file(file)
        for problem in checked.problems:
            print(problem)
        if not checked.ok:
            failed = True
        elif not checked.problems:
            print(f"{file}: ok ({len(checked.definition.phases)} phases)")
    raise typer.Exit(1 if failed else 0)


# ``intrigue check FILE``: the word designers reach for first; the same command, kept out of --help.
app.command(name="check", hidden=True)(validate)


@app.command()
def schema(protocol: bool = typer.Option(False, "--protocol",
                                         help="The WebSocket protocol's messages instead (for client authors).")) -> None:
    """Print the JSON Schema of DSL files (for editors), or with --protocol of the WebSocket messages."""
    if protocol:
        from .protocol import json_schema as protocol_schema

        print(json.dumps(protocol_schema(), indent=2))
        return
    from .dsl import json_schema

    print(json.dumps(json_schema(), indent=2))


@app.command(name="games")
def list_games() -> None:
    """List the installed games and their player ranges."""
    table = Table("id", "title", "players", "summary")
    for game_id in game_registry.installed():
        game = game_registry.get(game_id)
        table.add_row(game_id, game.title, f"{game.min_players}–{game.max_players}", game.binding.summary)
    console.print(table)


@app.command()
def simulate(game: str = typer.Argument(..., help="An installed game id, or a game's YAML file."),
             games: int = typer.Option(100, "--games", "-n"),
             players: int = typer.Option(4, "--players", "-p"), seed: int = 0,
             as_json: bool = typer.Option(False, "--json"),
             option: Optional[List[str]] = typer.Option(None, "--option", "-o",
                                                         help="A game option, key=value (repeatable), "
                                                              "e.g. -o characters=inquisitor -o reformation=true."),
             debug: bool = typer.Option(False, "--debug", help="On a failure, print the whole trace.")) -> None:
    """Play random legal games headless; report speed, wins by seat and the winning side (for a game
    without Python, the phase it ended in; in --json, `wins_by_role`)."""
    from .engine.options import parse_options
    from .simulate import GameFailed
    from .simulate import simulate as run

    loaded = _game(game)
    try:
        options = parse_options(option, loaded, players)
        if not loaded.min_players <= players <= loaded.max_players:
            raise ValueError(f"{loaded.title} takes {loaded.min_players} to {loaded.max_players} players, "
                             f"not {players}")
    except ValueError as exc:
        errors.print(f"[red]{escape(str(exc))}[/]")
        raise typer.Exit(2) from None
    try:
        if as_json or games < 200:
            report = run(loaded, games, players, seed, options=options)
        else:
            with Progress(console=errors, transient=True) as progress:
                task = progress.add_task(f"{game}: {games} games", total=games)
                report = run(loaded, games, players, seed,
                             progress=lambda done: progress.update(task, completed=done), options=options)
    except GameFailed as failed:
        _failed(failed, debug)
    if as_json:
        print(json.dumps(report.as_json(), indent=2))
        return
    chosen = "".join(f", {k}={v}" for k, v in options.items())
    console.print(f"[bold]{escape(loaded.title)}[/], {players} players{escape(chosen)}, {report.games} games "
                  f"in {report.seconds:.2f} s")
    console.print(f"  {report.games_per_second:,.1f} games/s, {report.decisions_per_second:,.0f} decisions/s, "
                  f"{report.decisions_per_game:.1f} decisions per game")
    table = Table("seat", "wins", "share")
    for seat in range(1, players + 1):
        wins = report.wins_by_seat.get(seat, 0)
        table.add_row(str(seat), str(wins), f"{wins / max(report.games, 1):.1%}")
    console.print(table)
    roles = Table("winning side", "games", "share")
    for role, count in sorted(report.wins_by_role.items()):
        roles.add_row(escape(role), str(count), f"{count / max(report.games, 1):.1%}")
    console.print(roles)


def _players_fit(game, players: int) -> None:  # noqa: ANN001
    if not game.min_players <= players <= game.max_players:
        errors.print(f"[red]{escape(game.title)} takes {game.min_players} to {game.max_players} players, "
                     f"not {players}[/]")
        raise typer.Exit(2)


def _failed(failed: BaseException, debug: bool) -> None:
    """A game failed while it was played: one line (file:line, phase, seed, game), or the trace."""
    if debug:
        import traceback

        traceback.print_exception(failed.__cause__ or failed, file=sys.stderr)
    print(f"error: {failed}", file=sys.stderr)
    raise typer.Exit(1)


@app.command()
def scenario(files: List[Path] = typer.Argument(..., help="Scenario files (YAML).")) -> None:
    """Run scenario files; print each failure and 'N passed, M failed'."""
    from .scenario import run_file

    passed = failed = 0
    for folder in files:
        if folder.is_dir() and not _expand([folder]):  # a folder with nothing to run must not pass
            print(f"{folder}: holds no scenario file (*.yaml, *.yml)")
            failed += 1
    for file in _expand(files):
        for outcome in run_file(file):
            if outcome.passed:
                passed += 1
            else:
                failed += 1
                for failure in outcome.failures:
                    print(failure)
    print(f"{passed} passed, {failed} failed")
    raise typer.Exit(1 if failed else 0)


@app.command(name="compile")
def compile_command(game: str = typer.Argument(..., help="An installed game id, or a game's YAML file.")) -> None:
    """Print the Python a game's phase plans are compiled to when it loads (who acts, 'when' routing,
    each phase's runner)."""
    print(_game(game).compiled.source, end="")


def _expand(files: List[Path]) -> List[Path]:
    found: List[Path] = []
    for file in files:
        if file.is_dir():
            found += sorted(file.rglob("*.yaml")) + sorted(file.rglob("*.yml"))
        else:
            found.append(file)
    return found


def _game(spec: str):  # noqa: ANN202
    """An installed game or a game's YAML file; a file that does not load lists its problems."""
    try:
        return game_registry.resolve(spec)
    except KeyError as exc:
        errors.print(f"[red]{escape(str(exc.args[0]))}[/]")
        raise typer.Exit(2) from None
    except Exception as exc:  # noqa: BLE001 - a game file with problems: say them, no trace
        print(f"error: {spec} does not load:\n{exc}", file=sys.stderr)
        raise typer.Exit(2) from None


@app.command()
def demo(named: Optional[str] = typer.Argument(None, metavar="[GAME]", help="The game (or use --game)."),
         game: str = typer.Option("coup", help="An installed game id, or a game's YAML file."),
         players: int = typer.Option(4, "--players", "-p", help="Seats."), seed: int = 0,
         debug: bool = typer.Option(False, "--debug", help="On a failure, print the whole trace.")) -> None:
    """Play one match between random bots in the terminal, printing its public log lines (a choice
    that says nothing publicly prints nothing), then the winners."""
    import random

    from .engine import Match
    from .engine.timing import expiry
    from .simulate import GameFailed, player_names

    game = named or game
    loaded = _game(game)
    _players_fit(loaded, players)
    shown = 0
    match = None
    try:
        match = Match(loaded, player_names(players), seed)
        rng = random.Random(seed)
        while not match.over:
            # a timer phase: its time runs out at once when nobody may answer, else one time in four
            # (a talk phase that players may always answer, and which routes back to itself, ends)
            if not match.pending or (match.clock is not None and rng.random() < 0.25):
                for move in list(expiry(match)):
                    match.choose(*move)
            else:
                seat = rng.choice(match.pending)
                match.choose(seat, rng.choice(match.legal(seat)))
            for event in match.events[shown:]:
                if event.audience.public:
                    console.print(escape(event.text))
            shown = len(match.events)
    except Exception as exc:  # noqa: BLE001
        _failed(GameFailed(loaded, 1, seed, exc), debug)
    # the game's own lines may not say it
    console.print(escape("Winners: " + (", ".join(match.names[s] for s in match.winners) or "nobody")))


@app.command(name="tutorial")
def tutorial_command(game: str = typer.Argument(..., help="An installed game id, or a game's YAML file."),
                     seed: Optional[int] = typer.Option(None, help="Deal the first match from this seed instead "
                                                                   "of the tutorial's (to find one)."),
                     name: str = typer.Option("Zoe", help="The person's name (seat 1).")) -> None:
    """Check a game's guided first game (tutorial.json): play its script, doing what each step asks,
    and print what the person sees and each step as it is reached; exit 1 if the guide goes astray."""
    from .bots.scripted import fill, resolve, walk
    from .games import tutorials

    loaded = _game(game)

    def fail(message: str) -> None:
        errors.print(f"[red]{escape(message)}[/]")
        raise typer.Exit(1)

    try:
        script = tutorials.tutorial(loaded)
    except ValueError as exc:
        fail(str(exc))
    if script is None:
        fail(f"{loaded.id} has no tutorial.json (it goes beside {loaded.binding.module_file})")
    done = walk(loaded, person=name, seed=seed)
    final = done.views[-1] if done.views else {"log": []}
    texts = {step.id: fill(step.text, {arg: resolve(path, final) for arg, path in step.args.items()})
             for step in script.steps}
    lines = [(line["version"], 0, f"{line['version']:>4}  {line['text']}") for line in final["log"]]
    lines += [(version, 1, f"      step {step_id}: {texts[step_id]}") for step_id, version in done.shown]
    for _, _, text in sorted(lines, key=lambda entry: entry[:2]):
        console.print(escape(text))
    if done.astray is not None:
        fail(f"The guide goes astray at step {done.astray!r} (version {done.match.version}): {name} has a "
             f"decision it does not ask for, or its 'by' has passed.")
    console.print(f"All {len(script.steps)} steps reached.")


@app.command(name="play")
def play_command(game: str = typer.Argument("coup", help="An installed game id (intrigue games), or a game's "
                                                       "YAML file."),
                 players: int = typer.Option(4, "--players", "-p", help="Seats, yours included."),
                 bots: str = typer.Option("random", "--bots", "-b", help="The bot in every other seat "
                                          "(random, heuristic[:…], ismcts[:…], llm)."),
                 seat: int = typer.Option(1, "--seat", help="Your seat (1 is first)."),
                 seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the deal (default: random).")) -> None:
    """Play a game against bots in the terminal (you see what a browser seat sees)."""
    import random

    from . import bots as registry
    from .play import play

    loaded = _game(game)
    if not loaded.min_players <= players <= loaded.max_players:
        errors.print(f"[red]{escape(loaded.title)} takes {loaded.min_players} to {loaded.max_players} players[/]")
        raise typer.Exit(2)
    if not 1 <= seat <= players:
        errors.print(f"[red]--seat must be from 1 to {players}[/]")
        raise typer.Exit(2)
    try:
        registry.check(bots, loaded.id)
    except ValueError as exc:
        errors.print(f"[red]{escape(str(exc))}[/]")
        raise typer.Exit(2) from None
    play(loaded, players, bots, seed if seed is not None else random.randrange(2**31), console, console.input,
         seat - 1)


# Commands that live with the part of Intrigue they drive register themselves here.
COMMAND_MODULES: list[str] = ["intrigue.bench.commands", "intrigue.server.commands", "intrigue.store.commands",
                              "intrigue.cluster.commands", "intrigue.bots.commands", "intrigue.graph",
                              "intrigue.client.commands", "intrigue.arena.commands"]


def _register_commands() -> None:
    import importlib

    for module in COMMAND_MODULES:
        importlib.import_module(module).register(app)


def main(argv: Optional[List[str]] = None) -> None:
    _register_commands()
    app(args=argv if argv is not None else sys.argv[1:])


if __name__ == "__main__":  # pragma: no cover
    main()
