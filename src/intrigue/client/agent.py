"""A bot playing a seat over the protocol: what ``intrigue agent URL --bot KIND`` runs.

The bot sees exactly what the seat's ``view`` carries (wrapped in the same
:class:`~intrigue.bots.SeatView` the server's own bots get) and thinks in a
worker thread, so the connection keeps reading while it thinks. Each choice is
followed by a ``ping``: the server answers commands in order, so when the
``pong`` arrives the choice has been taken, or refused with an ``error`` that
came first; only then does the agent consider the seat's next decision. A
refused choice (the decision moved on while it thought) is thought again from
the newest view. A bot that gives no answer (``None``, or it failed) leaves the
decision to the server's timer, which plays the game's timeout default; with
no timer running it sends the generic default (``Pass`` if offered, else the
first option) so that an untimed room never waits for it.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, Callable

from .. import games as game_registry
from ..bots import Bot, SeatView
from ..engine import Game
from .session import CHOICE_ERRORS, Client

log = logging.getLogger("intrigue.agent")


@dataclass
class Outcome:
    """One finished match as the agent's seat saw it."""

    match: int | None
    seat: int | None
    you: str | None
    winners: list[str]
    choices: int = 0
    defaults: int = 0

    @property
    def won(self) -> bool:
        return self.you is not None and self.you in self.winners


@dataclass
class _State:
    thinking: "asyncio.Task[str | None] | None" = None
    thought_on: dict[str, Any] | None = None
    pongs: int = 0  # pings sent after choices and not answered yet
    declined: set[tuple[Any, ...]] = field(default_factory=set)
    voted: set[int | None] = field(default_factory=set)
    recorded: set[int | None] = field(default_factory=set)
    choices: int = 0
    defaults: int = 0


def _key(client: Client, view: dict[str, Any]) -> tuple[Any, ...]:
    decision = view.get("decision") or {}
    return client.match, decision.get("phase"), tuple(decision.get("options") or ()), view.get("seat")


def _same_decision(a: dict[str, Any], b: dict[str, Any]) -> bool:
    da, db = a.get("decision") or {}, b.get("decision") or {}
    return da.get("phase") == db.get("phase") and da.get("options") == db.get("options") and bool(db.get("options"))


async def play_seat(client: Client, bot: Bot, games: int = 1,
                    on_outcome: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Play the connected seat with ``bot`` until ``games`` matches are over (voting rematches between them).

    ``bot`` is any object with ``choose(view)`` (a :class:`SeatView` in, an option or ``None`` out); its
    ``hear(speaker, text)`` and ``talk()`` are used when it has them, as the built-in bots do."""
    state = _State()
    outcomes: list[Outcome] = []
    loaded: dict[str, Game] = {}
    reader: asyncio.Task[dict[str, Any]] | None = None

    def game_of(view: dict[str, Any]) -> Game:
        if view["game"] not in loaded:
            require_installed(view["game"])
            loaded[view["game"]] = game_registry.get(view["game"])
        return loaded[view["game"]]

    async def consider() -> None:
        """Start thinking if the seat has a decision and nothing of ours is pending."""
        view = client.view
        if view is None or view.get("over") or state.thinking is not None or state.pongs or not client.options:
            return
        if client.seat is None or _key(client, view) in state.declined:
            return
        seat_view = SeatView(game_of(view), client.seat, view, tuple(client.options))
        state.thought_on = view
        state.thinking = asyncio.create_task(asyncio.to_thread(_choose, bot, seat_view))

    async def thought(option: str | None) -> None:
        basis, latest = state.thought_on, client.view
        state.thinking, state.thought_on = None, None
        talk = getattr(bot, "talk", None)  # your own bot may be an object with choose() alone
        for line in (talk() if talk else [])[:1]:  # at most one line of table talk a decision
            if line.strip():
                await client.say(line[:300])
        if basis is None or latest is None or not _same_decision(basis, latest):
            await consider()  # the decision moved on while the bot thought
            return
        if option is None or option not in client.options:
            state.declined.add(_key(client, latest))
            state.defaults += 1
            if client.timer is not None:
                return  # the server's timer plays the game's timeout default
            options = client.options
            option = "Pass" if "Pass" in options else options[0]
        state.choices += 1
        state.pongs += 1
        await client.choose(option, int(basis["version"]))
        await client.ping()

    async def on_message(message: dict[str, Any]) -> bool:
        kind = message["type"]
        if kind == "error" and message.get("code") == "rate_limited" and state.pongs:
            await asyncio.sleep(1.0)  # the ping may be the message that was ignored: back off, then go on
            state.pongs = 0
            await consider()
        elif kind == "error":  # a refused choice is followed by its pong, which brings the next thought
            level = logging.DEBUG if message.get("code") in CHOICE_ERRORS else logging.WARNING
            log.log(level, "server error: %s: %s", message.get("code"), message.get("message"))
        elif kind == "pong":
            state.pongs = max(0, state.pongs - 1)
            if not state.pongs:
                await consider()
        elif kind == "welcome":
            state.pongs = 0  # after a reconnection: the full view follows
        elif kind == "chat":
            hear = getattr(bot, "hear", None)
            if hear and not message.get("replayed") and message.get("seat") != client.seat:
                hear(str(message.get("from", "")), str(message.get("text", "")))
        elif kind == "view":
            view = message["view"]
            if view.get("over"):
                return await finished(view)
            await consider()
        return False

    async def finished(view: dict[str, Any]) -> bool:
        if client.match not in state.recorded:
            state.recorded.add(client.match)
            outcome = Outcome(client.match, client.seat, view.get("you"), list(view.get("winners") or []),
                              state.choices, state.defaults)
            state.choices = state.defaults = 0
            outcomes.append(outcome)
            if on_outcome:
                on_outcome(outcome)
        if len(outcomes) >= games:
            return True
        if client.match not in state.voted:
            state.voted.add(client.match)
            await client.rematch()
        return False

    try:
        if client.view is not None and client.view.get("over") and await finished(client.view):
            return outcomes
        await consider()
        while True:
            if reader is None:
                reader = asyncio.create_task(client.recv())
            waiting = {reader} | ({state.thinking} if state.thinking else set())
            done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if state.thinking is not None and state.thinking in done:
                await thought(state.thinking.result())
            if reader in done:
                message = reader.result()
                reader = None
                if await on_message(message):
                    return outcomes
    finally:
        for task in (reader, state.thinking):
            if task is not None and not task.done():
                task.cancel()


def require_installed(game: str) -> None:
    """The bot plays with the game's rules: a room playing a game not installed here is refused."""
    if game not in game_registry.installed():
        raise ValueError(f"the room plays {game!r}, which is not installed here: if the server "
                         "serves it with 'serve --games DIR', give the agent '--game-dir DIR'")


def _choose(bot: Bot, view: SeatView) -> str | None:
    try:
        return bot.choose(view)
    except Exception:  # noqa: BLE001 - a failing bot leaves the decision to the timeout default
        log.exception("the bot failed; the game's timeout default will be played")
        return None
