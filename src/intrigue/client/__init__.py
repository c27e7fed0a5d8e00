"""A client of Intrigue's WebSocket protocol, and bots that play through it.

:class:`Client` (asyncio) joins a room by its invite link, receives views,
chooses, chats and reconnects with its token; :func:`play_seat` seats any bot
behind it (``intrigue agent URL --bot KIND``). The messages are the models of
:mod:`intrigue.protocol`. See docs/agents.md and docs/protocol.md.
"""

from .agent import Outcome, play_seat
from .session import Client, ClientError, Invite, SeatTicket, create, join, parse_invite

__all__ = ["Client", "ClientError", "Invite", "Outcome", "SeatTicket", "create", "join", "parse_invite",
           "play_seat"]
