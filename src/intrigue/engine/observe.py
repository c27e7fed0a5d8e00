"""``observe(match, seat)``: the only path by which anything leaves a match.

A seat sees the game's own filtered view of the state (the rules module's
observer), the UI components whose audience includes it, the log lines it may
read, and its own options. ``seat=None`` is the spectator: public only.
Every call builds a new view; the log entries in it are shared, read-only.
``observe_seats(match, seats)`` builds the same views for several seats at once,
sharing (read-only) what they have in common: a served match's change.

In a secret decision nobody learns who acts: ``waiting`` (in both places) lists
everyone in its cover until it closes (a seat that has answered is left out of
its own view only). A choice of N players carries ``pick``; partners of a joint
choice see each other's answers in ``answers``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .ui import PUBLIC, Audience

if TYPE_CHECKING:  # pragma: no cover
    from .match import Match

#: How many recent log lines an observation carries.
LOG_TAIL = 80


def observe(match: "Match", seat: int | None, log: bool = True, brief: bool = False) -> dict[str, Any]:
    """``log=False``: the same view with an empty ``log``, for a reader that never reads it
    (a search's playout bots); it tells the seat less, never more. ``brief=True``: only the
    view's ``game``, ``version``, ``seat``, ``you``, ``players``, ``phase``, ``state`` and ``over``
    (no log, components, waiting list or decision), for a playout bot that reads nothing else."""
    game = match.game
    names = match.names
    observer = game.binding.observe
    state = observer(match, seat) if observer else default_state(match, seat)
    version = shown_version(match, seat)
    if brief:
        return {"game": game.id, "version": version, "seat": seat,
                "you": names[seat] if seat is not None else None, "players": list(names),
                "phase": {"id": match.phase_id, "name": match._plan.phase.name}, "state": state,
                "over": match.over}
    decision = match.decision
    pending = decision.pending if decision is not None else []
    waiting = pending
    if decision is not None and decision.secret and pending:
        waiting = [s for s in decision.cover if s != seat or s in pending]
    waiting_names = [names[s] for s in waiting]
    winners = match.winners
    view: dict[str, Any] = {
        "game": game.id,
        "title": game.title,
        "version": version,
        "seat": seat,
        "you": names[seat] if seat is not None else None,
        "players": list(names),
        "phase": {"id": match.phase_id, "name": match._plan.phase.name},
        "waiting": waiting_names,
        "decision": None,
        "state": state,
        "components": match.canvas.visible(match, seat),
        "log": log_tail(match, seat) if log else [],
        "over": match.over,
        "winners": [names[s] for s in winners] if winners else [],
    }
    if decision is not None and pending:
        view["decision"] = shown_decision(decision, seat, names, list(waiting_names))
    return view


def shown_decision(decision: Any, seat: int | None, names: list[str], waiting: list[str],
                   pending: list[int] | None = None) -> dict[str, Any]:
    """The open decision as ``seat`` sees it: its options only if it is pending, the pick it makes,
    and its partners' answers in a joint choice (``waiting``: a list of its own, as the seat may see it;
    ``pending``: ``decision.pending``, for a caller that has it)."""
    mine = seat in (decision.pending if pending is None else pending)
    shown: dict[str, Any] = {
        "phase": decision.phase_id,
        "kind": decision.wait_for,
        "waiting": waiting,
        "options": list(decision.offers[seat]) if mine else [],
    }
    if mine and decision.picks and seat in decision.picks:
        count, pool = decision.picks[seat]
        shown["pick"] = {"count": count, "from": [names[s] for s in pool]}
    if seat in decision.partners:
        shown["answers"] = {names[s]: answer for s, answer in decision.answers.items() if s in decision.partners}
    return shown


def shown_version(match: "Match", seat: int | None) -> int:
    """The match's version as ``seat`` may know it. While a secret decision is open, each answer to it
    is a version, so the true one would count the answers given (to a player who reconnects, to a new
    spectator, to an answerer whose version jumps past the others'): the seat is shown the version the
    decision opened at plus the answers it knows of, its own and its partners' in a joint choice. Every
    version from the opening one on is current for ``choose`` while the decision is open."""
    decision = match.decision
    if decision is None or not decision.secret or not decision.answers or decision.complete or match.over:
        return match.version
    known = {seat, *decision.partners} if seat in decision.partners else {seat}
    return decision.opened_at + sum(1 for answered in decision.answers if answered in known)


def observe_seats(match: "Match", seats: list[int | None]) -> list[dict[str, Any]]:
    """``[observe(match, seat) for seat in seats]`` (equal views, keys in the same order), with what they
    have in common built once: the names, the phase, the waiting list, the winners, each component's
    JSON (once per component: ``Component.shared_json``), the log when every line is public, and the
    game's state through its ``seats_observer`` if it has one. The views share those objects: they are
    read-only (a served match sends every connected seat its view at every change; building each from
    nothing cost a quarter of the server's CPU)."""
    game = match.game
    names = match.names
    binding = game.binding
    if binding.observe_seats is not None:
        states = binding.observe_seats(match, seats)
    elif binding.observe is not None:
        states = [binding.observe(match, seat) for seat in seats]
    else:
        states = [default_state(match, seat) for seat in seats]
    decision = match.decision
    pending = decision.pending if decision is not None else []
    secret = decision is not None and decision.secret and bool(pending)
    shown_names = [names[s] for s in pending]
    shown_copy = list(shown_names)
    winners = match.winners
    game_id, title = game.id, game.title
    players = list(names)
    phase = {"id": match.phase_id, "name": match._plan.phase.name}
    over = match.over
    winner_names = [names[s] for s in winners] if winners else []
    # Each component's JSON once, and the seats of a plain audience (listed seats, not narrowed by
    # ``pending``) tested inline: the same answers as ``includes_among``, without a call per seat.
    components = []
    for c in match.canvas.components.values():
        audience = c.audience
        if audience is PUBLIC:
            components.append((0, None, c.shared_json()))
        elif audience.__class__ is Audience and audience.pending is None and not audience.public \
                and audience.group is None:
            components.append((1, audience.seats, c))
        else:
            components.append((2, audience, c))
    logs = _log_tails(match, seats)
    # every seat's version is the match's, as shown_version says, unless a secret decision has answers
    version = match.version if decision is None or not decision.secret or not decision.answers \
        or decision.complete or over else None
    # an open decision that is not secret, picks nobody and has no partners shows every seat the same,
    # but for the options of those it waits for
    plain = decision is not None and not secret and not decision.picks and not decision.partners
    idle: dict[str, Any] | None = None
    views = []
    for seat, state, log in zip(seats, states, logs):
        waiting_names = shown_names
        if secret:
            waiting_names = [names[s] for s in decision.cover if s != seat or s in pending]  # type: ignore[union-attr]
        view: dict[str, Any] = {  # one literal, the keys in ``observe``'s order
            "game": game_id,
            "title": title,
            "version": version if version is not None else shown_version(match, seat),
            "seat": seat,
            "you": names[seat] if seat is not None else None,
            "players": players,
            "phase": phase,
            "waiting": waiting_names,
            "decision": None,
            "state": state,
            "components": [shown if kind == 0 else shown.shared_json() for kind, audience, shown in components
                           if kind == 0 or (seat in audience if kind == 1
                                            else audience.includes_among(match, seat, pending)
                                            if audience.__class__ is Audience
                                            else audience.includes(match, seat))],
            "log": log,
            "over": over,
            "winners": winner_names,
        }
        if decision is not None and pending:
            if plain:  # shown_decision, inline: one dict for every seat that does not answer
                if seat in pending:
                    view["decision"] = {"phase": decision.phase_id, "kind": decision.wait_for,  # type: ignore[union-attr]
                                        "waiting": shown_copy, "options": list(decision.offers[seat])}  # type: ignore[union-attr]
                else:
                    if idle is None:
                        idle = {"phase": decision.phase_id, "kind": decision.wait_for,  # type: ignore[union-attr]
                                "waiting": shown_copy, "options": []}
                    view["decision"] = idle
            else:
                view["decision"] = shown_decision(decision, seat, names,
                                                  list(waiting_names) if secret else shown_copy, pending)
        views.append(view)
    return views


def _log_tails(match: "Match", seats: list[int | None]) -> list[list[dict[str, Any]]]:
    """``[log_tail(match, seat) for seat in seats]``; one list for all when every line of it is public."""
    lines = match.events
    if lines:
        cached = match._log_tail
        if cached is None or cached[0] != len(lines) or cached[1] is not lines[-1]:
            cached = match._log_tail = _suffix(lines, cached)
        if not cached[3]:
            return [list(cached[2])] * len(seats)
    return [log_tail(match, seat) for seat in seats]


def log_tail(match: "Match", seat: int | None) -> list[dict[str, Any]]:
    """The last ``LOG_TAIL`` lines ``seat`` may read, oldest first (a new list of shared, read-only entries).

    Every seat (and the spectator) reads each public line, so the lines any of them reads lie in
    the shortest suffix of the log holding ``LOG_TAIL`` public lines. That suffix's entries and its
    other lines are found once per log (the log only grows: its length and last line name it) and
    kept on the match as an immutable tuple, which a clone may share; each seat then asks only the
    non-public lines of it whether it may read them, as the line-by-line scan did, when it observes.
    """
    lines = match.events
    count = len(lines)
    if not count:
        return []
    cached = match._log_tail
    if cached is None or cached[0] != count or cached[1] is not lines[-1]:
        cached = match._log_tail = _suffix(lines, cached)
    entries, hidden = cached[2], cached[3]
    if not hidden:
        return list(entries)
    shown: list[dict[str, Any]] = []
    start = 0
    for index, audience in hidden:
        # a line for listed seats (the usual private line) is asked inline, as ``includes`` answers it
        if not (seat is not None and seat in audience.seats
                if audience.__class__ is Audience and audience.pending is None and not audience.public
                and audience.group is None else audience.includes(match, seat)):
            shown += entries[start:index]
            start = index + 1
    if start == 0:
        return list(entries[-LOG_TAIL:]) if len(entries) > LOG_TAIL else list(entries)
    shown += entries[start:]
    return shown if len(shown) <= LOG_TAIL else shown[-LOG_TAIL:]


def _suffix(lines: list[Any], cached: tuple[Any, ...] | None) -> tuple[Any, ...]:
    """(length, last line, the suffix's entries, its non-public lines as (index in the suffix, audience),
    its count of public lines): extended from ``cached`` when the log has only grown since."""
    count = len(lines)
    if cached is not None and cached[0] <= count and lines[cached[0] - 1] is cached[1]:
        start, entries, hidden, public = cached[0], cached[2], cached[3], cached[4]
    else:
        start, entries, hidden, public = 0, (), (), 0
    base = len(entries) - start
    more: list[Any] = []
    added: list[tuple[int, Any]] = []
    for position in range(start, count):
        line = lines[position]
        audience = line.audience
        if audience is PUBLIC:
            public += 1
        else:
            added.append((base + position, audience))
        more.append(line.entry)
    entries += tuple(more)
    hidden += tuple(added)
    if public > LOG_TAIL:  # start at the LOG_TAIL-th public line from the end, as a backward scan stops
        drop = skipped = 0
        while public > LOG_TAIL or (skipped < len(hidden) and hidden[skipped][0] == drop):
            if skipped < len(hidden) and hidden[skipped][0] == drop:
                skipped += 1
            else:
                public -= 1
            drop += 1
        entries = entries[drop:]
        hidden = tuple((index - drop, audience) for index, audience in hidden[skipped:])
    return (count, lines[-1], entries, hidden, public)


def default_state(match: "Match", seat: int | None) -> dict[str, Any]:
    """For games without an observer: each declared field by its ``visibility``, and the
    game-level names the declaration lists as ``public_state``."""
    from .declarative import visible_fields  # noqa: PLC0415

    state: dict[str, Any] = {"players": [visible_fields(match, owner, seat) for owner in range(len(match.players))]}
    for name in match.game.definition.declaration.public_state or ():
        state[name] = match.state.get(name)
    return state
