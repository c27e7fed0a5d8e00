"""What every fixed-size observation vector shares: its layout, and where the match stands.

The RL encoders (Coup's, BANG!'s and the generic one read from a declaration)
lay out named fields of fixed widths one after another, and each marks the
current phase, whether the seat is asked to decide and what kind of decision is
open. Those parts are the engine's vocabulary, so they live here once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:  # pragma: no cover
    from .match import Match

#: The DSL's ``wait_for`` values, in the order an encoder's ``decision_kind`` field uses.
DECISION_KINDS = ("single_player_choice", "all_players_action", "multiple_players_action")


def layout(fields: Iterable[tuple[str, int]]) -> tuple[dict[str, int], int]:
    """Each field's offset when the fields are laid end to end, and the total size."""
    offsets: dict[str, int] = {}
    at = 0
    for name, width in fields:
        offsets[name] = at
        at += width
    return offsets, at


def phase_index(game: Any) -> dict[int, int]:
    """Each phase id's slot in a ``phase`` field (phases in id order)."""
    return {phase_id: i for i, phase_id in enumerate(sorted(game.phases))}


def encode_turn(out: Any, offsets: dict[str, int], phases: dict[int, int], match: "Match", seat: int) -> None:
    """Mark the ``phase``, ``deciding`` and ``decision_kind`` fields for ``seat``."""
    out[offsets["phase"] + phases[match.phase_id]] = 1.0
    decision = match.decision
    if decision is not None:
        out[offsets["deciding"]] = 1.0 if seat in decision.pending else 0.0
        if decision.wait_for in DECISION_KINDS:
            out[offsets["decision_kind"] + DECISION_KINDS.index(decision.wait_for)] = 1.0
