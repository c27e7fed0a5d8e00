"""``intrigue agent``: seat any built-in bot in a room on any Intrigue server."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    app.command()(agent)


def agent(
    link: str = typer.Argument(..., help="The room's invite link (http://HOST:PORT/room/CODE), or '-' to read "
                                         "seats from standard input, one JSON object a line."),
    bot: str = typer.Option("random", "--bot", "-b", help="The bot that plays: random, heuristic[:…], "
                                                          "ismcts[:…], llm (intrigue.bots.make)."),
    name: Optional[str] = typer.Option(None, "--name", help="Display name when joining (default: '<kind> agent')."),
    token: Optional[str] = typer.Option(None, "--token", help="Play the seat this token holds instead of joining "
                                                              "(e.g. after a restart of the agent)."),
    games: int = typer.Option(1, "--games", "-n", help="Matches to play in the room (voting rematches)."),
    seed: int = typer.Option(0, "--seed", help="The bot's seed."),
    game_dir: Optional[list[str]] = typer.Option(None, "--game-dir", help="A folder of games the server "
                                                 "serves with 'serve --games DIR', or one game's .yaml file "
                                                 "(repeatable): the bot needs their rules too."),
) -> None:
    """Seat a bot in a room over the WebSocket protocol and play until the match is over.

    With '-', each line of standard input is a seat to play, as
    {"url": "http://HOST:PORT/room/CODE", "token": "…"}; one match is played per
    line, in order, and a line {"match": …, "seat": …, "won": …} is printed
    when it ends (this is how `intrigue arena` seats remote agents).
    """
    from .. import games as game_registry
    from ..bots import make
    from .session import ClientError

    for folder in game_dir or ():
        _, problems = game_registry.add_folder(folder)
        for problem in problems:
            typer.echo(f"error: {problem}", err=True)
        if problems:
            raise typer.Exit(2)
    try:
        player = make(bot, seed=seed)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    try:
        if link == "-":
            asyncio.run(_from_stdin(player, games))
        else:
            asyncio.run(_one_room(player, link, name or f"{bot.partition(':')[0]} agent", token, games))
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    except ClientError as exc:
        typer.echo(f"error: {exc.code}: {exc.message}", err=True)
        raise typer.Exit(1) from None


async def _one_room(player, link: str, name: str, token: str | None, games: int) -> None:  # noqa: ANN001
    from .agent import play_seat, require_installed
    from .session import Client, join, parse_invite, room_info

    invite = parse_invite(link)
    require_installed(str((await room_info(invite)).get("game")))  # before taking a seat it could not play
    if token is None:
        ticket = await join(invite, name)
        token = ticket.token
        typer.echo(f"joined room {invite.room} at seat {ticket.seat} as {name!r}", err=True)
    async with Client(invite, token) as client:
        outcomes = await play_seat(client, player, games=games, on_outcome=lambda o: typer.echo(
            f"match {o.match}: {'won' if o.won else 'lost'} (winners: {', '.join(o.winners) or 'nobody'}; "
            f"{o.choices} choices, {o.defaults} left to the timeout default)"))
    wins = sum(o.won for o in outcomes)
    typer.echo(f"{player.label}: {wins} of {len(outcomes)} won")


async def _from_stdin(player, games: int) -> None:  # noqa: ANN001
    from .agent import play_seat
    from .session import Client, ClientError

    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            return
        if not line.strip():
            continue
        try:
            seat = json.loads(line)
            url, token = str(seat["url"]), str(seat["token"])
        except (ValueError, KeyError, TypeError):
            raise ValueError(f"a seat line must be {{\"url\": …, \"token\": …}}, not {line.strip()[:80]!r}") from None
        try:
            async with Client(url, token) as client:
                outcomes = await play_seat(client, player, games=games)
            for o in outcomes:
                print(json.dumps({"match": o.match, "seat": o.seat, "won": o.won}), flush=True)
        except ClientError as exc:
            print(json.dumps({"error": exc.code, "message": exc.message}), flush=True)
