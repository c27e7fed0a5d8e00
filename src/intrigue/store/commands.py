"""``intrigue store copy SRC DST``: move a database between SQLite and PostgreSQL."""

from __future__ import annotations

import typer

store = typer.Typer(help="Manage stores (SQLite files and PostgreSQL databases).", no_args_is_help=True)


@store.command("copy")
def copy_command(source: str = typer.Argument(..., help="A SQLite file or a postgresql:// URL."),
                 destination: str = typer.Argument(..., help="An empty store: a SQLite file (created if "
                                                             "missing) or a postgresql:// URL.")) -> None:
    """Copy every room, match, move and chat line from SRC into the empty DST (match ids kept)."""
    from pathlib import Path  # noqa: PLC0415

    from . import StoreError, is_url  # noqa: PLC0415
    from .copy import copy  # noqa: PLC0415

    if not is_url(source) and not Path(source).is_file():
        typer.echo(f"error: {source} does not exist", err=True)
        raise typer.Exit(2)
    try:
        copied = copy(source, destination)
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"copied {copied.rooms} rooms, {copied.matches} matches, {copied.choices} moves and "
               f"{copied.chat} chat lines from {source} to {destination}")


def register(app: typer.Typer) -> None:
    app.add_typer(store, name="store")
