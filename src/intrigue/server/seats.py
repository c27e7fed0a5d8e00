"""A room's seats: who sits there (player or bot), their token's hash and their connections."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..store import SeatRecord
from .protocol import Bucket


def token_hash(token: str) -> str:
    """Only this hash of a seat's token is kept (in memory and in the store)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Sink(Protocol):
    """Where a room's messages for one connection go (a WebSocket, or a test's recorder).

    A sink may also have ``deltas`` (:class:`~intrigue.server.protocol.Deltas`, set by ``hello``'s
    ``log_deltas``): then its views' logs are deltas; without it (or None) every view is full.
    """

    seat: int | None

    def send(self, message: dict[str, Any]) -> None: ...


@dataclass
class Seat:
    seat: int
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    left: bool = False
    sinks: list[Sink] = field(default_factory=list)
    chat: Bucket | None = None
    #: The address that joined this seat (memory only: it bounds what one address holds).
    address: str | None = None

    @property
    def taken(self) -> bool:
        return self.name is not None

    @property
    def human(self) -> bool:
        return self.taken and self.bot is None

    @property
    def connected(self) -> bool:
        return self.bot is not None or (self.human and not self.left and bool(self.sinks))

    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "bot": self.bot, "connected": self.connected,
                "left": self.left}

    def record(self) -> SeatRecord:
        return SeatRecord(self.seat, self.name, self.bot, self.token_hash, self.left)
