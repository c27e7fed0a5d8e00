"""``intrigue serve``, ``intrigue backup``, ``intrigue replay``, ``intrigue export`` and ``intrigue import``."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Optional

import typer

DB_HELP = "The SQLite database file."


def _add_games(folders: list[Path], quiet: bool = False) -> None:
    """``--games DIR``: serve (``quiet``: read) the games of these folders beside the installed ones."""
    from .. import games as game_registry  # noqa: PLC0415

    for folder in folders:
        added, problems = game_registry.add_folder(folder)
        for problem in problems:
            typer.echo(f"error: {problem}", err=True)
        if not added and not problems:
            typer.echo(f"warning: {folder} holds no game (<id>.yaml or <id>/<id>.yaml)", err=True)
        for game_id in added if not quiet else ():
            typer.echo(f"serving {game_id} from {folder}", err=True)


def _store(db: Path | str, must_exist: bool = False, synchronous: str = "FULL",  # noqa: ANN202
           sync_later: bool = False):
    from ..store import StoreError, is_url, open_store  # noqa: PLC0415

    if must_exist and not is_url(str(db)) and not Path(db).exists():
        typer.echo(f"error: {db} does not exist", err=True)
        raise typer.Exit(2)
    try:
        return open_store(str(db), synchronous=synchronous, sync_later=sync_later)
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def _restore(backup_file: Path, db: Path) -> None:
    """``serve --restore``: make ``db`` a copy of ``backup_file``, or print why not and exit 2."""
    from ..store import StoreError  # noqa: PLC0415
    from ..store.backup import restore  # noqa: PLC0415

    try:
        restored = restore(backup_file, db)
    except StoreError as exc:
        typer.echo(f"error: cannot restore {backup_file}: {exc}", err=True)
        raise typer.Exit(2) from None
    for aside in restored["moved_aside"]:
        typer.echo(f"kept the previous {db} as {aside}", err=True)
    typer.echo(f"restored {db} from {backup_file}: {restored['rooms']} rooms, {restored['matches']} matches, "
               f"{restored['choices']} choices", err=True)


def _or_exit(read, store, match: int):  # noqa: ANN001, ANN202
    """Read a finished match from the store, or print why not and exit 1."""
    from .protocol import Refusal  # noqa: PLC0415

    try:
        return read(store, match)
    except Refusal as refusal:
        typer.echo(f"error: {refusal.message}", err=True)
        raise typer.Exit(1) from None


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(host: str = typer.Option("127.0.0.1", help="Interface to listen on."),
              port: int = typer.Option(8000, help="TCP port."),
              db: Path = typer.Option(Path("intrigue.db"), "--db", help=DB_HELP),
              bot_delay: float = typer.Option(0.8, help="Seconds a bot thinks before acting."),
              room_quota: int = typer.Option(20, help="Rooms one client may create per hour."),
              disconnect_grace: float = typer.Option(60.0, help="With timers off: seconds before a "
                                                                "disconnected player's choice is made for them."),
              sockets_per_address: int = typer.Option(100, help="WebSockets one address may hold open."),
              connect_rate: float = typer.Option(10.0, help="New WebSockets one address may open per second, "
                                                            "in bursts of ten times as many."),
              seats_per_address: int = typer.Option(30, help="Seats one address may join in rooms not started."),
              max_rooms: int = typer.Option(2000, help="Rooms the server holds at once (waiting and playing)."),
              proxy_from: str = typer.Option("", "--proxy-from", help="Addresses of reverse proxies (comma-"
                                             "separated, e.g. 127.0.0.1) whose X-Forwarded-For header names "
                                             "the client; by default the header is ignored and every quota "
                                             "counts the connection's own address."),
              message_rate: float = typer.Option(10.0, help="WebSocket messages per second one connection may "
                                                            "send (with a burst of four seconds' worth)."),
              synchronous: str = typer.Option("full", help="SQLite synchronous mode: 'full' survives power "
                                                           "loss; 'normal' survives a crash of the server "
                                                           "(kill -9) and is much faster."),
              restore: Optional[Path] = typer.Option(None, "--restore", help="First make --db a copy of this "
                                                     "backup (written by 'intrigue backup'); the file --db was "
                                                     "is renamed aside, never deleted."),
              llm_url: Optional[str] = typer.Option(None, help="An OpenAI-compatible endpoint (base URL, e.g. "
                                                               "http://127.0.0.1:8080/v1) for 'llm' bot seats; "
                                                               "the key is read from INTRIGUE_LLM_KEY."),
              llm_model: Optional[str] = typer.Option(None, help="The model the 'llm' bot asks."),
              store_location: Optional[str] = typer.Option(None, "--store", help="The store: a SQLite file or a "
                                                           "postgresql:// URL (instead of --db)."),
              node: Optional[str] = typer.Option(None, "--node", help="Run as this node of a cluster (needs a "
                                                 "postgresql:// --store and --redis; docs/scaling.md)."),
              redis: Optional[str] = typer.Option(None, "--redis", help="The cluster's Redis (redis://…)."),
              lease: float = typer.Option(1.5, help="Seconds a node's lease lives without renewal (it is renewed "
                                                    "every fifth of that); a dead node's rooms move after it."),
              cluster_name: str = typer.Option("intrigue", "--cluster-name", help="Names this cluster's keys and "
                                               "channels in Redis (several clusters may share one Redis)."),
              games: Optional[list[Path]] = typer.Option(None, "--games", help="A folder of game files "
                                                         "(<id>.yaml), or one such file, to serve beside the "
                                                         "installed games; may be repeated.")) -> None:
        """Serve the lobby, the live games and the web client (recovers unfinished games from the store)."""
        import os  # noqa: PLC0415

        import uvicorn  # noqa: PLC0415

        _add_games(list(games or []))
        from ..bots import llm  # noqa: PLC0415

        if bool(llm_url) != bool(llm_model):
            typer.echo("error: --llm-url and --llm-model go together", err=True)
            raise typer.Exit(2)
        if llm_url and llm_model:
            llm.configure(llm.LLMConfig(llm_url, llm_model, os.environ.get("INTRIGUE_LLM_KEY") or None,
                                        float(os.environ.get("INTRIGUE_LLM_TIMEOUT", "20") or 20)))

        from ..store import is_url  # noqa: PLC0415
        from .app import ClusterOptions, create_app  # noqa: PLC0415
        from .settings import Settings  # noqa: PLC0415

        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
        location = store_location or str(db)
        cluster = None
        if node is not None or redis is not None:
            if node is None or redis is None or not is_url(location):
                typer.echo("error: a cluster node needs --node NAME, --redis redis://… and a postgresql:// --store "
                           "(the nodes share them)", err=True)
                raise typer.Exit(2)
            if not 0.3 <= lease <= 60:
                typer.echo(f"error: --lease must be from 0.3 to 60 seconds, not {lease}", err=True)
                raise typer.Exit(2)
            cluster = ClusterOptions(node, redis, lease, f"{cluster_name}:")
        if restore is not None:
            if is_url(location):
                typer.echo("error: --restore takes a SQLite backup into a --db file, not into a postgresql:// store",
                           err=True)
                raise typer.Exit(2)
            _restore(restore, db)
        store = _store(location, synchronous=synchronous, sync_later=True)  # group commit: server/durability.py
        settings = Settings(bot_delay=bot_delay, room_quota=room_quota, disconnect_grace=disconnect_grace,
                            sockets_per_address=sockets_per_address, seats_per_address=seats_per_address,
                            connect_rate=connect_rate, connect_burst=10 * connect_rate,
                            message_rate=message_rate, message_burst=4 * message_rate, max_rooms=max_rooms)
        application = create_app(store, settings, cluster=cluster)
        for line in application.state.restored:
            typer.echo(f"restored room {line}", err=True)
        for problem in application.state.lobby.problems:
            typer.echo(f"error: {problem}", err=True)
        where = f"node {node} of a cluster, " if node else ""
        typer.echo(f"Intrigue on http://{host}:{port}/ ({where}store {getattr(store, 'path', location)})", err=True)
        # loop "auto": uvloop where it is installed (a dependency on CPython off Windows): less of the
        # event loop's CPU per message than asyncio's own loop (docs/performance.md)
        # X-Forwarded-For is believed only from the proxies named: without them a client could name any
        # address in it and escape every per-address quota (docs/security.md).
        proxies = [address.strip() for address in proxy_from.split(",") if address.strip()]
        uvicorn.run(application, host=host, port=port, ws_max_size=1024 * 1024, log_level="warning",
                    ws_per_message_deflate=False, loop="auto", proxy_headers=bool(proxies),
                    forwarded_allow_ips=proxies or None)

    @app.command()
    def backup(db: Path = typer.Argument(..., metavar="DB", help="The database to copy (a server may be using it)."),
               file: Path = typer.Argument(..., metavar="FILE",
                                           help="The backup file to write (replaced if it exists).")) -> None:
        """Write a consistent copy of a live database (SQLite's online backup API); restore it with
        'intrigue serve --restore FILE'."""
        from ..store import StoreError  # noqa: PLC0415
        from ..store.backup import backup as copy  # noqa: PLC0415

        try:
            held = copy(db, file)
        except StoreError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        typer.echo(f"backed up {db} to {file}: {held['rooms']} rooms, {held['matches']} matches, "
                   f"{held['choices']} choices (schema version {held['schema_version']})", err=True)

    @app.command()
    def replay(match: int = typer.Argument(..., help="The match id (see /history)."),
               db: Path = typer.Option(Path("intrigue.db"), "--db", help=DB_HELP),
               games: Optional[list[Path]] = typer.Option(None, "--games", help="A folder of game files the "
                                                          "match may come from (as given to serve).")) -> None:
        """Print a finished match move by move: each choice, then the public log lines it caused."""
        from ..engine.errors import Refused  # noqa: PLC0415
        from .history import finished_record  # noqa: PLC0415
        from .matches import rebuild  # noqa: PLC0415

        _add_games(list(games or []), quiet=True)
        store = _store(db, must_exist=True)
        record = _or_exit(finished_record, store, match)
        choices = store.choices(match)
        played = rebuild(record, [])
        typer.echo(f"Match {record.id}: {record.game}, {', '.join(record.players)} (seed {record.seed}), "
                   f"{len(choices)} moves, started {record.started}")
        shown = 0
        for line in _public_lines(played, shown):
            typer.echo(f"        {line}")
        shown = len(played.events)
        for choice in choices:
            try:
                played.choose(choice.seat, choice.option, choice.version)
            except Refused as refused:
                typer.echo(f"error: match {match} does not replay at version {choice.version} "
                           f"({choice.option!r}): {refused.message}; the game's rules have changed", err=True)
                raise typer.Exit(1) from None
            how = "" if choice.source == "player" else f" ({choice.source})"
            who = record.players[choice.seat] if 0 <= choice.seat < len(record.players) else "(the clock)"
            typer.echo(f"{choice.version + 1:>4}. {who}: {choice.option}{how}")
            for line in _public_lines(played, shown):
                typer.echo(f"        {line}")
            shown = len(played.events)
        winners = ", ".join(record.players[s] for s in played.winners) or "nobody"
        typer.echo(f"Winner: {winners}")

    @app.command(name="export")
    def export_command(match: int = typer.Argument(..., help="The match id."),
                       output: Optional[Path] = typer.Option(None, "-o", "--output", help="File (default stdout)."),
                       db: Path = typer.Option(Path("intrigue.db"), "--db", help=DB_HELP),
                       games: Optional[list[Path]] = typer.Option(None, "--games", help="A folder of game files "
                                                                  "the match may come from (as given to serve).")
                       ) -> None:
        """Write a finished match as JSON (game, players, seed, options, every move, final-state fingerprint)."""
        from .history import export_match  # noqa: PLC0415

        _add_games(list(games or []), quiet=True)
        store = _store(db, must_exist=True)
        data = _or_exit(export_match, store, match)
        text = json.dumps(data, indent=2, ensure_ascii=False)
        if output is None:
            sys.stdout.write(text + "\n")
        else:
            output.write_text(text + "\n", encoding="utf-8")
            typer.echo(f"wrote match {match} to {output}", err=True)

    @app.command(name="import")
    def import_command(file: Path = typer.Argument(..., help="A file written by 'intrigue export'."),
                       db: Path = typer.Option(Path("intrigue.db"), "--db", help=DB_HELP),
                       games: Optional[list[Path]] = typer.Option(None, "--games", help="A folder of game files "
                                                                  "the match may come from (as given to serve).")
                       ) -> None:
        """Re-play an exported match, check it ends in the same final state, and store it."""
        from .history import import_match  # noqa: PLC0415

        _add_games(list(games or []), quiet=True)
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            typer.echo(f"error: cannot read {file}: {exc}", err=True)
            raise typer.Exit(1) from None
        store = _store(db)
        try:
            match_id, played = import_match(store, data)
        except (ValueError, KeyError) as exc:
            typer.echo(f"error: {file}: {exc}", err=True)
            raise typer.Exit(1) from None
        winners = ", ".join(played.names[s] for s in played.winners) or "nobody"
        typer.echo(f"imported as match {match_id}: {played.version} moves, same final state, winner {winners}")


def _public_lines(match, start: int) -> list[str]:  # noqa: ANN001
    return [event.text for event in match.events[start:] if event.audience.public]
