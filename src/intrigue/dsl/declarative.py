"""Run the DSL's declarative extension: effects, ``when`` routing, declared options.

See :mod:`intrigue.dsl.extensions` for the statements themselves. These functions
are what the engine calls when a DSL file uses them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.match import Match

DECLARATIVE_TOOLS: dict[str, Callable[["Match"], None]] = {}


def run_effects(match: "Match", effects: list[Any]) -> None:
    raise NotImplementedError("declarative effects are not supported yet")


def offer_declared_options(match: "Match") -> None:
    """Offer the options a phase declares in ``completion_criteria.options``."""
    return None


def declarative_router(phase_id: int) -> Callable[["Match"], int]:
    def route(match: "Match") -> int:
        raise NotImplementedError
    return route


def visible_fields(match: "Match", owner: int, seat: int | None) -> dict[str, Any]:
    return {"name": match.names[owner]}
