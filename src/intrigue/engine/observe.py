"""``observe(match, seat)``: the only path by which anything leaves a match.

A seat sees the game's own filtered view of the state (the rules module's
observer), the UI components whose audience includes it, the log lines it may
read, and its own options. ``seat=None`` is the spectator: public only.

In a secret decision nobody learns who acts: ``waiting`` (in both places) lists
everyone in its cover until it closes (a seat that has answered is left out of
its own view only). A choice of N players carries ``pick``; partners of a joint
choice see each other's answers in ``answers``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .ui import PUBLIC

if TYPE_CHECKING:  # pragma: no cover
    from .match import Match

#: How many recent log lines an observation carries.
LOG_TAIL = 80


def observe(match: "Match", seat: int | None) -> dict[str, Any]:
    game = match.game
    decision = match.decision
    pending = decision.pending if decision else []
    you = match.names[seat] if seat is not None else None
    state = game.binding.observe(match, seat) if game.binding.observe else default_state(match, seat)
    events: list[dict[str, Any]] = []
    for event in reversed(match.events):  # the tail only: playouts observe long logs often
        audience = event.audience
        if audience is PUBLIC or audience.includes(match, seat):
            events.append(event.entry)
            if len(events) == LOG_TAIL:
                break
    events.reverse()
    waiting = pending
    if decision is not None and decision.secret and pending:
        waiting = [s for s in decision.cover if s != seat or s in pending]
    names = match.names
    view: dict[str, Any] = {
        "game": game.id,
        "title": game.title,
        "version": match.version,
        "seat": seat,
        "you": you,
        "players": list(names),
        "phase": {"id": match.phase_id, "name": match.phase.name},
        "waiting": [names[s] for s in waiting],
        "decision": None,
        "state": state,
        "components": match.canvas.visible(match, seat),
        "log": events,
        "over": match.over,
        "winners": [names[s] for s in match.winners],
    }
    if decision is not None and pending:
        mine = seat in pending
        shown: dict[str, Any] = {
            "phase": decision.phase_id,
            "kind": decision.wait_for,
            "waiting": [names[s] for s in waiting],
            "options": list(decision.offers[seat]) if mine else [],
        }
        if mine and decision.picks and seat in decision.picks:
            count, pool = decision.picks[seat]
            shown["pick"] = {"count": count, "from": [names[s] for s in pool]}
        if seat in decision.partners:
            shown["answers"] = {names[s]: answer for s, answer in decision.answers.items()
                                if s in decision.partners}
        view["decision"] = shown
    return view


def default_state(match: "Match", seat: int | None) -> dict[str, Any]:
    """For games without an observer: each declared field by its ``visibility``, and the
    game-level names the declaration lists as ``public_state``."""
    from .declarative import visible_fields  # noqa: PLC0415

    state: dict[str, Any] = {"players": [visible_fields(match, owner, seat) for owner in range(len(match.players))]}
    for name in match.game.definition.declaration.public_state or ():
        state[name] = match.state.get(name)
    return state
