"""What a decision's timer is and what it chooses when it runs out.

The engine has no clock; whoever keeps time (the server, a scenario's ``wait:``)
asks here which timer a decision gets and which option expiry plays, so every
clock follows one policy.

A *window* (a decision that waits for several players, or that a seat may
decline because ``Pass`` is offered) runs the short ``window_timer``; any other
decision the ``turn_timer``. On expiry every seat still pending gets the game's
timeout choice (``binding.timeout_choice``; without one, ``Pass`` if offered,
else the first option).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .match import Decision, Match

log = logging.getLogger("intrigue.engine")


def is_window(decision: "Decision") -> bool:
    """Challenge/block/response windows get the short timer."""
    return decision.wait_for != "single_player_choice" or any("Pass" in options
                                                              for options in decision.offers.values())


def timer_kind(decision: "Decision") -> str:
    """``"window"`` or ``"turn"``: which of a table's two timers this decision runs."""
    return "window" if is_window(decision) else "turn"


def timeout_choice(match: "Match", seat: int, options: list[str]) -> str:
    """The game's default for a seat that did not answer in time."""
    chooser = match.game.binding.timeout_choice
    if chooser is not None:
        try:
            picked = chooser(match, seat, list(options))
            if picked in options:
                return picked
            log.error("%s: timeout choice %r is not offered (%s)", match.game.id, picked, options)
        except Exception:  # noqa: BLE001 - a rules bug must not stall the game
            log.exception("%s: timeout choice failed", match.game.id)
    return "Pass" if "Pass" in options else options[0]
