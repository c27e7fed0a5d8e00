"""Run the DSL's declarative extension: statements, ``when`` routing, declared options.

The statements themselves are described in :mod:`intrigue.dsl.extensions`. The
engine calls :func:`run_effects` for ``effects``, :func:`offer_declared_options`
when no tool offered anything in a ``player_action`` phase, a
:func:`declarative_router` for a ``next_phase`` written with ``when``, and
:func:`visible_fields` for the default observation. A game made of a DSL file
alone gets its binding from :mod:`.yaml_game`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Mapping

from .errors import EngineError
from .ui import PUBLIC, Audience
from ..dsl.expressions import Expression, compile_expression
from ..dsl.extensions import TEMPLATE, Effect, OptionEntry

if TYPE_CHECKING:  # pragma: no cover
    from .match import Match

#: Tools this layer provides by name (the engine looks here after the UI kit). None
#: yet: a game without Python says what a phase does with statements, not tools.
DECLARATIVE_TOOLS: dict[str, Callable[["Match"], None]] = {}

#: Where a match keeps who was shown what: ``[viewer, owner, field]`` (viewer -1: everyone).
SEEN = "_seen"
#: Where a match keeps the seat that first held each turn flag (rounds count from it).
STARTED = "_started"


@lru_cache(maxsize=4096)
def _compiled(text: Any) -> Expression:
    """Validation already checked every expression; compile each text once."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        value = text
        return Expression(str(text), lambda scope: value)
    return compile_expression(text)


# -- the scope statements are evaluated in --------------------------------------
class _Decided:
    """What the decision that just closed tells: ``choice``, ``actor``, ``chosen``."""

    __slots__ = ("choice", "actor", "chosen")

    def __init__(self, match: "Match"):
        decision = match.last_decision
        answers = decision.answers if decision is not None else {}
        self.choice: str | None = None
        self.actor: int | None = None
        self.chosen: int | None = None
        if len(answers) == 1:
            (self.actor, self.choice), = answers.items()
            if self.choice in match.names:
                self.chosen = match.names.index(self.choice)


class _Scope:
    __slots__ = ("match", "player", "decided")

    def __init__(self, match: "Match", player: Mapping[str, Any] | None, decided: _Decided):
        self.match = match
        self.player = player if player is not None else {}
        self.decided = decided

    def lookup(self, path: tuple[str, ...]) -> Any:
        head = path[0]
        if head == "choice":
            return self.decided.choice
        if head in ("actor", "chosen"):
            seat = getattr(self.decided, head)
            value: Any = self.match.players[seat] if seat is not None else None
            path = path[1:]
        else:
            value = self.match.state
        for key in path:
            value = value.get(key) if isinstance(value, Mapping) else None
        return value


def _seat_player(match: "Match", seat: int | None) -> Mapping[str, Any] | None:
    return match.players[seat] if seat is not None else None


def _matching(match: "Match", where: Any, decided: _Decided) -> list[int]:
    if where is None:
        return list(range(len(match.players)))
    test = _compiled(where)
    return [seat for seat, player in enumerate(match.players) if test(_Scope(match, player, decided))]


def _game_key(target: str) -> str:
    return target.partition(".")[2]


def _put(record: dict[str, Any], dotted: str, value: Any) -> None:
    *parents, last = dotted.split(".")
    for key in parents:
        record = record.setdefault(key, {})
    record[last] = value


# -- statements -------------------------------------------------------------------
def run_effects(match: "Match", effects: list[Effect]) -> None:
    """Run statements in order; each sees what the previous ones changed."""
    for effect in effects:
        decided = _Decided(match)
        _STATEMENTS[effect.statement](match, effect, decided)
    if not match.headless:
        show_board(match)


#: Fields the board shows as the row's state rather than as a fact.
_BOARD_FLAGS = {"name", "id", "is_alive", "is_active"}


def show_board(match: "Match") -> None:
    """The public table: each player's publicly visible fields (the generic client draws it).

    Statements are the only way a game without Python changes its state, so the
    board is redrawn after each run of them. Secrets never reach it: it is built
    from what a spectator may see.
    """
    specs = match.game.definition.declaration.player_states
    rows = []
    for owner in range(len(match.players)):
        public = visible_fields(match, owner, None)
        stats, tags = [], []
        for name, value in public.items():
            if name in _BOARD_FLAGS or value is None or value == "":
                continue
            spec = specs.get(name)
            if spec is not None and spec.type in ("boolean", "bool"):
                if value:
                    tags.append(name.replace("_", " "))
            else:
                stats.append({"label": name.replace("_", " "), "value": value})
        player = match.players[owner]
        rows.append({"name": match.names[owner], "alive": bool(player.get("is_alive", True)),
                     "active": bool(player.get("is_active", False)), "stats": stats, "cards": [],
                     "tags": tags, "table": []})
    match.canvas.show("board", key="board", players=rows)


def _set(match: "Match", effect: Effect, decided: _Decided) -> None:
    assert effect.set is not None
    scope, _, name = effect.set.partition(".")
    value_of = _compiled(effect.to)
    if scope == "game":
        _put(match.state, name, value_of(_Scope(match, _seat_player(match, decided.actor), decided)))
        return
    if scope == "players":
        seats = _matching(match, effect.where, decided)
    else:
        seat = getattr(decided, scope)
        if seat is None:
            raise EngineError(f"phase {match.phase_id} ({match.phase.name}): 'set: {effect.set}' "
                              f"but no single player chose a {'player' if scope == 'chosen' else 'option'}")
        seats = [seat]
    values = [value_of(_Scope(match, match.players[seat], decided)) for seat in seats]
    for seat, value in zip(seats, values):
        _put(match.players[seat], name, value)


def _count(match: "Match", effect: Effect, decided: _Decided) -> None:
    assert effect.into is not None
    _put(match.state, _game_key(effect.into), len(_matching(match, effect.count, decided)))


def _tally(match: "Match", effect: Effect, decided: _Decided) -> None:
    assert effect.into is not None
    decision = match.last_decision
    answers = list(decision.answers.values()) if decision is not None else []
    asked = len(decision.offers) if decision is not None else 0
    votes = sum(1 for answer in answers if answer == effect.tally)
    _put(match.state, _game_key(effect.into), votes)
    if effect.majority:
        _put(match.state, _game_key(effect.majority), votes * 2 > asked)
    match.announce(f"{effect.tally}: {votes} of {asked}.", key="{option}: {votes} of {asked}.",
                   args={"option": effect.tally, "votes": votes, "asked": asked})


def _advance(match: "Match", effect: Effect, decided: _Decided) -> None:
    """Pass a turn flag to the next matching player in seat order.

    A round is over when the turn comes back round to the seat that started.
    """
    flag = effect.advance
    assert flag is not None
    eligible = _matching(match, effect.where, decided)
    holder = next((seat for seat, player in enumerate(match.players) if player.get(flag)), None)
    for player in match.players:
        player[flag] = False
    if not eligible:
        return
    starts = match.state.setdefault(STARTED, {})
    if holder is None:
        first = match.setup.get("first")
        seat = match.names.index(first) if first in match.names and match.names.index(first) in eligible \
            else match.rng.choice(eligible)
        starts[flag] = seat
    else:
        later = [seat for seat in eligible if seat > holder]
        seat = later[0] if later else eligible[0]
        count = len(match.players)
        passed = {(holder + step) % count for step in range(1, ((seat - holder) % count or count) + 1)}
        if effect.rounds and starts.get(flag) in passed:
            key = _game_key(effect.rounds)
            _put(match.state, key, (_lookup(match.state, key) or 0) + 1)
    match.players[seat][flag] = True


def _lookup(state: Mapping[str, Any], dotted: str) -> Any:
    value: Any = state
    for key in dotted.split("."):
        value = value.get(key) if isinstance(value, Mapping) else None
    return value


def _deal(match: "Match", effect: Effect, decided: _Decided) -> None:
    deal = match.game.definition.declaration.role_deal
    assert deal is not None
    count = len(match.players)
    fixed = match.setup.get("roles")
    if fixed:
        missing = [name for name in match.names if name not in fixed]
        if missing:
            raise EngineError(f"setup.roles gives no role to {', '.join(missing)}")
        roles = [fixed[name] for name in match.names]
    else:
        roles = []
        rest = next(name for name, spec in deal.roles.items() if spec.rest)
        for name, spec in deal.roles.items():
            if not spec.rest:
                roles += [name] * (spec.counts or {}).get(count, 0)
        roles += [rest] * (count - len(roles))
        match.rng.shuffle(roles)
    for seat, role in enumerate(roles):
        match.players[seat][deal.field] = role
        for field, value in deal.roles[role].fields.items():
            match.players[seat][field] = value


def _viewers(match: "Match", to: Any, owner: int | None, decided: _Decided) -> list[int] | None:
    """Seats that see a shown field or a said line; None means everyone."""
    if to is None or to == "everyone":
        return None
    if to == "owner":
        return [owner] if owner is not None else []
    if to == "actor":
        return [decided.actor] if decided.actor is not None else []
    return [seat for seat in range(len(match.players)) if match.game.in_group(match, str(to), seat)]


def _audience(viewers: list[int] | None) -> Audience:
    return PUBLIC if viewers is None else Audience.of(viewers)


def _show(match: "Match", effect: Effect, decided: _Decided) -> None:
    fields = [effect.show] if isinstance(effect.show, str) else list(effect.show or [])
    seen = match.state.setdefault(SEEN, [])
    for owner in _matching(match, effect.where, decided):
        viewers = _viewers(match, effect.to, owner, decided)
        for field in fields:
            for viewer in (viewers if viewers is not None else [-1]):
                if viewer != owner and [viewer, owner, field] not in seen:
                    seen.append([viewer, owner, field])
        if viewers == []:
            continue
        values = [match.players[owner].get(field) for field in fields]
        facts = ", ".join(f"{field}: {value}" for field, value in zip(fields, values))
        audience = _audience(viewers)
        # The templates let a client translate field names and values (docs/protocol.md).
        args = {field: _text(value) for field, value in zip(fields, values)}
        title_key = " · ".join(f"{{{field}}}" for field in fields)
        facts_key = ", ".join(f"{field}: {{{field}}}" for field in fields)
        match.canvas.show("character_card", audience, key=f"shown-{owner}-{audience.describe()}",
                          title=" · ".join(_text(value) for value in values), text=facts,
                          player=match.names[owner], msg={"title": {"key": title_key, "args": args},
                                                          "text": {"key": facts_key, "args": args}})
        match.announce(f"{match.names[owner]} — {facts}", audience, key="{player} — " + facts_key,
                       args={"player": match.names[owner], **args})


def _say(match: "Match", effect: Effect, decided: _Decided) -> None:
    """One log line, or one per player matching ``where`` (then ``player`` is that player)."""
    assert effect.say is not None
    speakers = [decided.actor] if effect.where is None else _matching(match, effect.where, decided)
    for seat in speakers:
        scope = _Scope(match, _seat_player(match, seat), decided)
        args: dict[str, str] = {}

        def fill(found: Any) -> str:
            expression = found.group(1).strip()
            args[expression] = _text(_compiled(expression)(scope))
            return args[expression]

        text = TEMPLATE.sub(fill, effect.say)
        # key and args: the template as written and each placeholder's value, for translation.
        match.announce(text, _audience(_viewers(match, effect.to, seat, decided)), key=effect.say, args=args)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None else str(value)


def _win(match: "Match", effect: Effect, decided: _Decided) -> None:
    match.finish(_matching(match, effect.win, decided))


_STATEMENTS: dict[str, Callable[["Match", Effect, _Decided], None]] = {
    "set": _set, "count": _count, "tally": _tally, "advance": _advance, "deal": _deal,
    "show": _show, "say": _say, "win": _win,
}


# -- options and routing ---------------------------------------------------------------
def offer_declared_options(match: "Match") -> None:
    """Offer each target player the options the phase declares in ``completion_criteria.options``."""
    entries = match.phase.completion_criteria.options
    if not entries:
        return
    decided = _Decided(match)
    for seat in match.targets:
        options: list[str] = []
        me = match.players[seat]
        for entry in entries:
            if isinstance(entry, str):
                options.append(entry)
            elif isinstance(entry, OptionEntry) and entry.option is not None:
                if entry.if_ is None or _compiled(entry.if_)(_Scope(match, me, decided)):
                    options.append(entry.option)
            elif isinstance(entry, OptionEntry):
                options += [match.names[other] for other in _matching(match, entry.players, decided)
                            if not (entry.except_self and other == seat)]
        match.offer(seat, options)


def declarative_router(phase_id: int) -> Callable[["Match"], int | None]:
    """Route by the first ``when`` that holds; an entry without ``when`` is the fallback."""

    def route(match: "Match") -> int | None:
        phase = match.game.phases[phase_id]
        assert isinstance(phase.next_phase, dict)
        decided = _Decided(match)
        scope = _Scope(match, _seat_player(match, decided.actor), decided)
        for ref in phase.next_phase.values():
            if ref.when is None or _compiled(ref.when)(scope):
                return ref.id  # None ends the game, as the DSL allows
        raise EngineError(f"phase {phase_id} ({phase.name}): no 'when' holds and there is no fallback")

    return route


# -- what each seat may see ----------------------------------------------------------
def visible_fields(match: "Match", owner: int, seat: int | None) -> dict[str, Any]:
    """The owner's declared fields as ``seat`` may see them; hidden ones are ``None``.

    A field is hidden by ``visibility: owner`` or an expression (visible to all
    while it holds). The owner always sees their own fields; a viewer keeps
    seeing what a ``show`` statement showed them; once the match is over (or a
    ``win`` statement has named the winners), everything is public.
    """
    player = match.players[owner]
    specs = match.game.definition.declaration.player_states
    seen = match.state.get(SEEN, ())
    ended = match.over or bool(match.winners)  # a 'win' statement ends the secrecy too
    view: dict[str, Any] = {"name": match.names[owner], "id": player.get("id", owner + 1)}
    for name, spec in specs.items():
        if name in view:
            continue
        rule = spec.visibility
        if rule is None or rule == "public" or rule is True or ended or seat == owner:
            visible = True
        elif rule == "owner" or rule is False:
            visible = False
        else:
            visible = bool(_compiled(rule)(match.scope(owner)))
        if not visible:
            visible = [-1, owner, name] in seen or (seat is not None and [seat, owner, name] in seen)
        view[name] = player.get(name) if visible else None
    return view
