"""Run the DSL's declarative extension: statements, ``when`` routing, declared options.

The validated model becomes an executable plan once, when the game loads: each
list of ``effects`` is a :class:`Program`, a list of compiled steps (closures over
compiled expressions) that remember the line they came from, so a failure at run
time names ``file:line``. The engine runs programs after actions and phases,
calls :func:`offer_declared_options` when no tool offered anything in a deciding
phase, a :func:`declarative_router` for a ``next_phase`` written with ``when``,
and :func:`visible_fields` for the default observation. A game made of a DSL file
alone gets its binding from :mod:`.yaml_game`. The statements themselves are
described in ``docs/writing-a-game.md``.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from ..dsl.expressions import EvaluationError, Expression, compile_expression
from ..dsl.extensions import TEMPLATE, Effect, OptionEntry
from .compiled import seat_filter
from .errors import EngineError, RuleError, rule_error
from .scope import Outcome, Scope, outcome
from .ui import PUBLIC, Audience
from .ui import value_text as _text  # how a value reads to players

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game
    from .match import Match

#: Tools this layer provides by name (the engine looks here after the UI kit). None
#: yet: a game without Python says what a phase does with statements, not tools.
DECLARATIVE_TOOLS: dict[str, Callable[["Match"], None]] = {}

#: Where a match keeps who was shown what: ``[viewer, owner, field]`` (viewer -1: everyone).
SEEN = "_seen"
#: The visibility of a field nobody sees, its owner included, until a ``show`` or the end (a card
#: face down in front of a player, which others may swap unseen).
NOBODY = "nobody"
#: The visibility of a field every other seat sees but its owner does not (Hanabi's hand, held
#: facing the table); spectators do not see it either (a player could watch their own hand).
OTHERS = "others"
#: The visibilities under which the owner does not see their own field, only what a ``show`` showed.
UNSEEN_BY_OWNER = (NOBODY, OTHERS)
#: Where a match keeps the seat that first held each turn flag (rounds count from it).
STARTED = "_started"


@lru_cache(maxsize=4096)
def _compiled(text: Any) -> Expression:
    """Validation already checked every expression; compile each text once."""
    return compile_expression(text)


# -- programs -------------------------------------------------------------------------------
Step = Callable[["Match", Outcome], None]


class Program:
    """A list of statements compiled once; ``run(match)`` runs them in order, each seeing what the
    previous ones changed. ``path`` is the key path of the list in the DSL file."""

    __slots__ = ("steps", "paths", "where", "base")

    def __init__(self, effects: list[Effect], path: tuple[Any, ...],
                 where: Callable[[tuple[Any, ...]], str] | None = None):
        self.base = path
        self.where = where
        self.steps: list[Step] = []
        self.paths: list[tuple[Any, ...]] = []
        for index, effect in enumerate(effects):
            self.steps.append(_COMPILERS[effect.statement](effect, path + (index,), where))
            self.paths.append(path + (index,))

    def run(self, match: "Match") -> None:
        self.run_steps(match, outcome(match))
        if not match.headless:
            show_board(match)

    def run_steps(self, match: "Match", found: Outcome) -> None:
        index = 0
        try:
            for index, step in enumerate(self.steps):
                step(match, found)
        except RuleError:
            raise
        except Exception as exc:  # noqa: BLE001 - named where it happened
            path = self.paths[index]
            place = self.where(path) if self.where is not None else None
            raise rule_error(exc, place, match.phase_id, match.phase.name,
                             prefix=f"{'.'.join(map(str, path))}: ") from exc


def run_effects(match: "Match", effects: list[Effect]) -> None:
    """Run statements once (compiling them): for tools and tests outside a loaded plan."""
    Program(effects, ("effects",)).run(match)


# -- helpers ------------------------------------------------------------------------------------
def _value(text: Any) -> Expression:
    return _compiled(text)


def _matching(match: "Match", test: Expression | None, found: Outcome) -> list[int]:
    if test is None:
        return list(range(len(match.players)))
    return seat_filter(test)(match, found)


def _seat_player(match: "Match", seat: int | None) -> Mapping[str, Any] | None:
    return match.players[seat] if seat is not None else None


def _game_key(target: str) -> str:
    return target.partition(".")[2]


def _put(record: dict[str, Any], dotted: str, value: Any) -> None:
    *parents, last = dotted.split(".")
    for key in parents:
        record = record.setdefault(key, {})
    record[last] = value


def _lookup(state: Mapping[str, Any], dotted: str) -> Any:
    value: Any = state
    for key in dotted.split("."):
        value = value.get(key) if isinstance(value, Mapping) else None
    return value


# -- statements -------------------------------------------------------------------------------
Compiler = Callable[[Effect, tuple[Any, ...], Any], Step]


def _set(effect: Effect, path: tuple[Any, ...], where: Any) -> Step:
    assert effect.set is not None
    scope_name, _, name = effect.set.partition(".")
    value_of = _value(effect.to).evaluate
    test = _value(effect.where) if effect.where is not None else None

    if scope_name == "game":
        def set_game(match: "Match", found: Outcome) -> None:
            _put(match.state, name, value_of(Scope(match, _seat_player(match, found.actor), None, found)))

        return set_game

    def set_players(match: "Match", found: Outcome) -> None:
        if scope_name == "players":
            seats = _matching(match, test, found)
        else:
            seat = getattr(found, scope_name)
            if seat is None:
                raise EngineError(f"'set: {effect.set}' but no single player chose a "
                                  f"{'player' if scope_name == 'chosen' else 'option'}")
            seats = [seat]
        scope = Scope(match, None, None, found)
        values = []
        for seat in seats:
            scope.player = match.players[seat]
            values.append(value_of(scope))
        for seat, value in zip(seats, values):
            _put(match.players[seat], name, value)

    return set_players


def _count(effect: Effect, path: tuple[Any, ...], where: Any) -> Step:
    assert effect.into is not None
    test, into = _value(effect.count), _game_key(effect.into)

    def count(match: "Match", found: Outcome) -> None:
        _put(match.state, into, len(_matching(match, test, found)))

    return count


def _tally(effect: Effect, path: tuple[Any, ...], where: Any) -> Step:
    assert effect.into is not None
    option = effect.tally

    def tally(match: "Match", found: Outcome) -> None:
        asked = found.asked
        votes = sum(1 for answer in found.answers.values() if answer == option)
        _put(match.state, _game_key(effect.into or ""), votes)
        if effect.majority:
            _put(match.state, _game_key(effect.majority), votes * 2 > asked)
        if effect.unanimous:
            _put(match.state, _game_key(effect.unanimous), asked > 0 and votes == asked)
        if not found.secret:  # in a secret decision, how many were asked is itself a secret
            match.announce(f"{option}: {votes} of {asked}.", key="{option}: {votes} of {asked}.",
                           args={"option": option, "votes": votes, "asked": asked})

    return tally


def _most(effect: Effect, path: tuple[Any, ...], where: Any) -> Step:
    """The most common value of an expression among the players matching ``where`` (default: the
    players who answered the decision that closed last); a tie gives null, or with ``tie: random``
    one of the tied values drawn with the match's generator."""
    assert effect.into is not None
    value_of = _value(effect.most).evaluate
    test = _value(effect.where) if effect.where is not None else None
    into, tie = _game_key(effect.into), effect.tie or "none"

    def most(match: "Match", found: Outcome) -> None:
        seats = _matching(match, test, found) if test is not None else sorted(found.answers)
        scope = Scope(match, None, None, found)
        counts: Counter = Counter()
        for seat in seats:
            scope.player = match.players[seat]
            value = value_of(scope)
            if value is not None:
                counts[value] += 1  # Counter keeps first-seen order: seat order
        result = None
        if counts:
            best = max(counts.values())
            tied = [value for value, count in counts.items() if count == best]
            if len(tied) == 1:
                result = tied[0]
            elif tie == "random":
                result = tied[match.rng.randrange(len(tied))]
        _put(match.state, into, result)

    return most


def _advance(effect: Effect, path: tuple[Any, ...], where: Any) -> Step:
    """Pass a turn flag to the next matching player in seat order.

    A round is over when the turn comes back round to the seat that started.
    """
    flag = effect.advance
    assert flag is not None
    test = _value(effect.where) if effect.where is not None else None

    def advance(match: "Match", found: Outcome) -> None:
        eligible = _matching(match, test, found)
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

    return advance


def _deal(effect: Effect, path: tuple[Any, ...], where: Any) -> Step:
    def deal(match: "Match", found: Outcome) -> None:
        spec = match.game.definition.declaration.role_deal
        assert spec is not None
        count = len(match.players)
        fixed = match.setup.get("roles")
        if fixed:
            missing = [name for name in match.names if name not in fixed]
            if missing:
                raise EngineError(f"setup.roles gives no role to {', '.join(missing)}")
            roles = [fixed[name] for name in match.names]
        else:
            roles = []
            rest = next(name for name, role in spec.roles.items() if role.rest)
            for name, role in spec.roles.items():
                if not role.rest:
                    roles += [name] * (role.counts or {}).get(count, 0)
            roles += [rest] * (count - len(roles))
            match.rng.shuffle(roles)
        for seat, role in enumerate(roles):
            match.players[seat][spec.field] = role
            for field_name, value in spec.roles[role].fields.items():
                match.players[seat][field_name] = value

    return deal


def _viewers(match: "Match", to: Any, owner: int | None, found: Outcome) -> list[int] | None:
    """Seats that see a shown field or a said line; None means everyone."""
    if to is None or to == "everyone":
        return None
    if to == "owner":
        return [owner] if owner is not None else []
    if to == "actor":
        return [found.actor] if found.actor is not None else []
    if to == OTHERS:  # every seat but the player the line or the card is about
        return [seat for seat in range(len(match.players)) if seat != owner]
    group = match.game.groups.get(str(to))
    return seat_filter(group)(match) if group is not None else []


def _group_viewers(match: "Match", to: Any) -> list[int] | None:
    """The seats of an audience group named by ``to`` (the same for every line a statement writes:
    read once per statement), or None when ``to`` is no group."""
    if to is None or to in ("everyone", "owner", "actor", OTHERS):
        return None
    group = match.game.groups.get(str(to))
    return seat_filter(group)(match) if group is not None else []


def _audience(viewers: list[int] | None) -> Audience:
    return PUBLIC if viewers is None else Audience.of(viewers)


def _shuffle(effect: Effect, path: tuple[Any, ...], where: Any) -> Step:
    """Put a game-level list (a deck) in a random order, with the match's generator (a scenario's
    ``setup: {shuffle: false}`` keeps the order written)."""
    assert effect.shuffle is not None
    name = _game_key(effect.shuffle)

    def shuffle(match: "Match", found: Outcome) -> None:
        pile = _lookup(match.state, name)
        if not isinstance(pile, list):
            raise EvaluationError(f"shuffle: {name} is {pile!r}, not a list")
        pile = list(pile)  # a new list: one another name was set to (set: game.deck to: cards) keeps its order
        match.shuffle(pile)
        _put(match.state, name, pile)

    return shuffle


def statements(game: "Game") -> Iterator[Effect]:
    """Every statement of the game in DSL order, those inside an ``if``'s ``then`` and ``else`` too
    (each after its ``if``): what reads the statements (the sampler, the RL encoder) misses none."""

    def visit(effects: Any) -> Iterator[Effect]:
        for effect in effects or ():
            yield effect
            yield from visit(effect.then)
            yield from visit(effect.else_)

    for phase in game.phases.values():
        yield from visit(phase.effects)
        for action in phase.actions:
            yield from visit(action.effects)


def player_rolls(game: "Game") -> dict[str, list[Effect]]:
    """The player fields ``roll`` statements write (``roll: players.dice``), each with those statements
    in DSL order: the search's sampler rolls a hidden one again, the RL encoder counts its faces."""
    found: dict[str, list[Effect]] = {}
    for effect in statements(game):
        if isinstance(effect.roll, str) and effect.roll.startswith("players."):
            found.setdefault(effect.roll.partition(".")[2], []).append(effect)
    return found


def _roll(effect: Effect, path: tuple[Any, ...], where: Any) -> Step:
    """Dice: a number from 1 to ``sides`` (or, with ``dice``, a list of that many) drawn with the
    match's generator, into a game name or the field of each player matching ``where`` (a scenario's
    ``setup: {rolls: [...]}`` gives the numbers rolled first)."""
    assert effect.roll is not None
    scope_name, _, name = effect.roll.partition(".")
    dice_of = _value(effect.dice).evaluate if effect.dice is not None else None
    sides_of = _value(effect.sides if effect.sides is not None else 6).evaluate
    test = _value(effect.where) if effect.where is not None else None

    def rolled(match: "Match", scope: Scope) -> Any:
        sides = sides_of(scope)
        if isinstance(sides, bool) or not isinstance(sides, int) or sides < 1:
            raise EvaluationError(f"roll: sides is {sides!r}, not a number of faces (1 or more)")
        if dice_of is None:
            return match.roll(sides)
        dice = dice_of(scope)
        if isinstance(dice, bool) or not isinstance(dice, int) or dice < 0:
            raise EvaluationError(f"roll: dice is {dice!r}, not a number of dice (0 or more)")
        return [match.roll(sides) for _ in range(dice)]

    def roll(match: "Match", found: Outcome) -> None:
        if scope_name == "game":
            _put(match.state, name, rolled(match, Scope(match, _seat_player(match, found.actor), None, found)))
            return
        scope = Scope(match, None, None, found)
        for seat in _matching(match, test, found):  # seat order: a scenario's setup.rolls reads that way
            scope.player = match.players[seat]
            _put(match.players[seat], name, rolled(match, scope))

    return roll


def _show(effect: Effect, path: tuple[Any, ...], where: Any) -> Step:
    fields = [effect.show] if isinstance(effect.show, str) else list(effect.show or [])
    test = _value(effect.where) if effect.where is not None else None
    leave_out_owner = bool(effect.except_self)

    def show(match: "Match", found: Outcome) -> None:
        specs = match.game.definition.declaration.player_states
        seen = match.state.setdefault(SEEN, [])
        # where each (viewer, owner, field) is in the list, without a scan each time
        known = {(entry[0], entry[1], entry[2]): index for index, entry in enumerate(seen)}
        group = _group_viewers(match, effect.to)
        for owner in _matching(match, test, found):
            viewers = group if group is not None else _viewers(match, effect.to, owner, found)
            if leave_out_owner:  # the card goes to the audience but the player it is about
                viewers = [seat for seat in (range(len(match.players)) if viewers is None else viewers)
                           if seat != owner]
            for field_name in fields:
                own_look = specs[field_name].visibility in UNSEEN_BY_OWNER if field_name in specs else False
                for viewer in (viewers if viewers is not None else [-1]):
                    if viewer == owner and not own_look:  # the owner sees the field anyway
                        continue
                    # the value as shown now: the viewer does not see what the field becomes later
                    value = match.players[owner].get(field_name)
                    index = known.get((viewer, owner, field_name))
                    if index is None:
                        known[(viewer, owner, field_name)] = len(seen)
                        seen.append([viewer, owner, field_name, _shown_copy(value)])
                    else:
                        seen[index] = [viewer, owner, field_name, _shown_copy(value)]
                    if viewer == -1:  # shown to everyone: a seat's own older look is out of date too
                        for entry in seen:
                            if entry[1] == owner and entry[2] == field_name and entry[0] != -1:
                                entry[3:] = [_shown_copy(value)]
            if viewers == []:
                continue
            values = [match.players[owner].get(field_name) for field_name in fields]
            facts = ", ".join(f"{field_name}: {_text(value)}" for field_name, value in zip(fields, values))
            audience = _audience(viewers)
            # The templates let a client translate field names and values (docs/protocol.md).
            args = {field_name: _text(value) for field_name, value in zip(fields, values)}
            facts_key = ", ".join(f"{field_name}: {{{field_name}}}" for field_name in fields)
            if not match.headless:  # a headless match shows no components
                title_key = " · ".join(f"{{{field_name}}}" for field_name in fields)
                match.canvas.show("character_card", audience, key=f"shown-{owner}-{audience.describe()}",
                                  title=" · ".join(_text(value) for value in values), text=facts,
                                  player=match.names[owner], msg={"title": {"key": title_key, "args": args},
                                                                  "text": {"key": facts_key, "args": args}})
            match.announce(f"{match.names[owner]} — {facts}", audience, key="{player} — " + facts_key,
                           args={"player": match.names[owner], **args})

    return show


def _say(effect: Effect, path: tuple[Any, ...], where: Any) -> Step:
    """One log line, or one per player matching ``where`` (then ``player`` is that player). The line
    carries its template (``key``) and the values put in it (``args``), for translation."""
    assert effect.say is not None
    template = effect.say
    pieces = [(found.group(0), found.group(1).strip(), _value(found.group(1).strip()).evaluate)
              for found in TEMPLATE.finditer(template)]
    test = _value(effect.where) if effect.where is not None else None

    fills = tuple((placeholder, text) for placeholder, text, _ in pieces)
    # the banner goes with the line, so to exactly its audience (the browser translates the title)
    banner = {"tone": effect.banner.tone, "title": effect.banner.title} if effect.banner is not None else None
    # a title with {…} is filled for each line, and keeps its template for translation, as the line does
    headline = banner["title"] if banner is not None else ""
    title_pieces = [(found.group(0), found.group(1).strip(), _value(found.group(1).strip()).evaluate)
                    for found in TEMPLATE.finditer(headline)]
    title_fills = tuple((placeholder, text) for placeholder, text, _ in title_pieces)

    def say(match: "Match", found: Outcome) -> None:
        speakers = [found.actor] if test is None else _matching(match, test, found)
        group = _group_viewers(match, effect.to)
        for seat in speakers:
            scope = Scope(match, _seat_player(match, seat), None, found)
            args = {text: _text(value(scope)) for _, text, value in pieces}  # the values as they are now
            viewers = group if group is not None else _viewers(match, effect.to, seat, found)
            # the line's text is filled in when the log is first read (a headless run never reads it)
            data = {"key": template, "args": args} if banner is None else {"key": template, "args": args,
                                                                          "banner": dict(banner)}
            if title_pieces:
                title_args = {text: _text(value(scope)) for _, text, value in title_pieces}
                data["banner"].update(title=_filled(headline, title_fills, title_args), key=headline,
                                      args=title_args)
            match.announce_later(_filled, (template, fills, args), _audience(viewers), data)

    return say


def _filled(template: str, fills: tuple[tuple[str, str], ...], args: dict[str, str]) -> str:
    """A ``say`` line's text: each placeholder replaced by its value's text, in the template's order."""
    line = template
    for placeholder, text in fills:
        line = line.replace(placeholder, args[text])
    return line


def _win(effect: Effect, path: tuple[Any, ...], where: Any) -> Step:
    test = _value(effect.win)

    def win(match: "Match", found: Outcome) -> None:
        match.finish(_matching(match, test, found))

    return win


def _if(effect: Effect, path: tuple[Any, ...], where: Any) -> Step:
    test = _value(effect.if_).evaluate
    then = Program(effect.then or [], path + ("then",), where)
    otherwise = Program(effect.else_ or [], path + ("else",), where)

    def branch(match: "Match", found: Outcome) -> None:
        chosen = then if test(Scope(match, _seat_player(match, found.actor), None, found)) else otherwise
        chosen.run_steps(match, found)

    return branch


_COMPILERS: dict[str, Compiler] = {
    "set": _set, "count": _count, "tally": _tally, "most": _most, "advance": _advance, "deal": _deal,
    "shuffle": _shuffle, "roll": _roll, "show": _show, "say": _say, "win": _win, "if": _if,
}


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


# -- options and routing ---------------------------------------------------------------
class OptionPlan:
    """One entry of ``completion_criteria.options``, compiled: a literal (``option``), the distinct
    items of a list (``items``, those for which ``where`` holds), or the players matching ``players`` (``except_self``; with
    ``choose``, every combination of that many), each offered only to a deciding player for whom
    ``when`` holds; a ``closes`` option ends the decision for everyone."""

    __slots__ = ("option", "when", "players", "items", "where", "except_self", "choose", "closes")

    def __init__(self, entry: Any):
        if isinstance(entry, str):
            entry = OptionEntry(option=entry)
        self.option: str | None = entry.option
        self.when = _compiled(entry.if_).evaluate if entry.if_ is not None else None
        #: The players a ``players`` entry names, for the player ``me`` it is offered to.
        self.players = seat_filter(_compiled(entry.players)) if entry.players is not None else None
        self.items = _compiled(entry.items).evaluate if entry.items is not None else None
        self.where = _compiled(entry.where).evaluate if entry.where is not None else None
        self.except_self = entry.except_self
        self.choose = _compiled(entry.choose).evaluate if entry.choose is not None else None
        self.closes = entry.closes


def compile_options(entries: list[Any] | None) -> list[OptionPlan] | None:
    return [OptionPlan(entry) for entry in entries] if entries else None


@lru_cache(maxsize=1024)
def _teams(names: tuple[str, ...], pool: tuple[int, ...], count: int) -> dict[str, tuple[int, ...]]:
    """Every choice of ``count`` players of ``pool``: the names in seat order joined by ", " (the
    option a player sees) and the seats it names. The same pools come back often: computed once."""
    return {", ".join(names[seat] for seat in combo): combo for combo in combinations(pool, count)}


def offer_declared_options(match: "Match") -> None:
    """Offer each target player the options the phase declares in ``completion_criteria.options``.

    ``me`` is the player offered; a ``players`` entry offers each matching player's name, or with
    ``choose: N`` every combination of N of them (names in seat order joined by ``", "``).
    """
    entries = match._plan.options  # noqa: SLF001 - the phase's compiled options
    if not entries:
        return
    found = outcome(match)
    named: dict[str, tuple[int, ...]] = {}
    picks: dict[int, tuple[int, tuple[int, ...]]] = {}
    scope = Scope(match, None, None, found)
    players = match.players
    names = match.names
    for seat in match.targets:
        options: list[str] = []
        closing: list[str] = []
        me = players[seat]
        scope.me = me
        for entry in entries:
            if entry.when is not None:
                scope.player = me
                if not entry.when(scope):
                    continue
            if entry.option is not None:
                options.append(entry.option)
                if entry.closes:
                    closing.append(entry.option)
                continue
            if entry.items is not None:
                scope.player = me
                listed = entry.items(scope)
                if not isinstance(listed, (list, tuple)):
                    raise EvaluationError(f"items is {listed!r}, not a list")
                if entry.where is not None:  # the items for which it holds, each named `item`
                    kept = []
                    for item in listed:
                        scope.item = item
                        if entry.where(scope):
                            kept.append(item)
                    scope.item = None
                    listed = kept
                texts = [_text(item) for item in listed if item is not None]
                options += texts
                if entry.closes:
                    closing += texts
                continue
            pool = entry.players(match, found, me)
            if entry.except_self and seat in pool:
                pool.remove(seat)
            if entry.choose is None:
                for other in pool:
                    named[names[other]] = (other,)
                    options.append(names[other])
                continue
            scope.player = me
            count = entry.choose(scope)
            if not isinstance(count, int) or isinstance(count, bool):
                raise EvaluationError(f"choose is {count!r}, not a number")
            picks[seat] = (count, tuple(pool))
            teams = _teams(tuple(names), tuple(pool), count)
            named.update(teams)
            options += teams
        match.offer(seat, options, closing=closing)
    if named:
        match._named = named  # noqa: SLF001 - the options that name players, for chosen/picked
    if picks:
        match._picks = picks  # noqa: SLF001


def declarative_router(phase_id: int) -> Callable[["Match"], int | None]:
    """Route by the first ``when`` that holds; an entry without ``when`` is the fallback."""
    cache: dict[str, Any] = {}

    def route(match: "Match") -> int | None:
        refs = cache.get("refs")
        if refs is None:
            phase = match.game.phases[phase_id]
            assert isinstance(phase.next_phase, dict)
            refs = cache["refs"] = [(ref.id, _compiled(ref.when) if ref.when is not None else None)
                                    for ref in phase.next_phase.values()]
        found = outcome(match)
        scope = Scope(match, _seat_player(match, found.actor), None, found)
        for target, test in refs:
            if test is None or test(scope):
                return target  # None ends the game, as the DSL allows
        raise EngineError("no 'when' holds and there is no fallback")

    route.declarative = True  # type: ignore[attr-defined] - compiled per game at load (compiled.py)
    return route


# -- what each seat may see ----------------------------------------------------------
def visible_fields(match: "Match", owner: int, seat: int | None) -> dict[str, Any]:
    """The owner's declared fields as ``seat`` may see them; hidden ones are ``None``.

    A field is hidden by ``visibility: owner`` or an expression (visible to all
    while it holds). The owner sees their own fields, except a ``nobody`` field (a card face down
    in front of them, which a swap may have changed) and an ``others`` field (a hand held facing
    the table: every other seat sees it, spectators do not); a viewer keeps
    seeing what a ``show`` statement showed them, as it was then; once the match is over (or a
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
        if rule is None or rule == "public" or rule is True or ended or seat == owner and rule not in UNSEEN_BY_OWNER:
            visible = True
        elif rule == OTHERS:
            visible = seat is not None and seat != owner
        elif rule in ("owner", NOBODY) or rule is False:
            visible = False
        else:
            visible = bool(_compiled(rule)(match.scope(owner)))
        if visible:
            view[name] = player.get(name)
        else:
            view[name] = _shown_value(seen, seat, owner, name, player)
    return view


def _shown_copy(value: Any) -> Any:
    """A shown value kept apart from the field (lists and tables are copied)."""
    if isinstance(value, list):
        return [_shown_copy(item) for item in value]
    if isinstance(value, dict):
        return {key: _shown_copy(item) for key, item in value.items()}
    return value


def _shown_value(seen: Any, seat: int | None, owner: int, name: str, player: Mapping[str, Any]) -> Any:
    """What a ``show`` showed ``seat`` (or everyone) of a hidden field: the value at that moment (a
    show to the seat itself is kept up to date by later shows to everyone, so it wins); None if
    nothing was shown. An entry of three items (a match stored before shows kept their value)
    reads the field as it is."""
    found = None
    for entry in seen:
        if entry[1] == owner and entry[2] == name and (entry[0] == -1 and found is None
                                                        or entry[0] == seat and seat is not None):
            found = entry
            if entry[0] != -1:
                break
    if found is None:
        return None
    return found[3] if len(found) > 3 else player.get(name)
