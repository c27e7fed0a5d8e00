"""What the example games' random-play tests share: the folder, seat names, every view, a bot's pick."""

from __future__ import annotations

from intrigue import bots
from intrigue.engine import Match

from ..conftest import ROOT

EXAMPLES = ROOT / "docs" / "examples" / "games"
NAMES = ["Aria", "Blaise", "Cass", "Dara", "Eli", "Fay", "Gus", "Hana"]


def views(match: Match) -> list[dict]:
    """Every seat's view, then the spectator's."""
    return [match.observe(seat) for seat in range(len(match.names))] + [match.observe(None)]


def bot_choice(match: Match, players: list, seen: list[dict]) -> tuple[int, str]:
    seat = match.pending[0]
    legal = tuple(match.legal(seat))
    return seat, players[seat].choose(bots.SeatView(match.game, seat, seen[seat], legal))
