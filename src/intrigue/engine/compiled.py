"""A game's phase plans compiled to Python at load: who acts, where a ``when`` routes, how a phase runs.

For each phase, the target condition becomes one generated function that walks
the players once, with every game-level name it reads (``current_turn.player_id``)
read once before the walk instead of once per player; a ``next_phase`` written
with ``when`` becomes one function testing each branch in order. Statements'
``where`` filters use the same seat filters. Each phase also becomes one runner
(with its UI and headless): its steps in order, the decision opened by the step
that offers, its effects, its routing, and for a fixed ``next_phase`` the entry
into the next phase, so the phase loop (``Match._settle``) makes one call per
chain of phases. The source is written from the checked expression trees and the
validated model only (:mod:`..dsl.codegen`: literals and name paths via ``repr``;
tool names and descriptions via ``repr``); ``intrigue compile GAME`` prints it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..dsl.codegen import Writer, build
from ..dsl.expressions import Expression, Node, closure_of, compile_expression
from .decision import Decision
from .errors import EngineError
from .scope import _EMPTY, _SPECIAL, Scope, outcome

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game
    from .match import Match

SeatFilter = Callable[..., list[int]]


def _hoisting_writer(subscript: bool = False, choice: str | None = None) -> tuple[Writer, list[str]]:
    """A writer reading each plain game-level name once per call (``_n<K>`` before the loop).

    Only names that are no built-in name (``choice``, ``answer``, ...) are hoisted: they are pure
    reads of the game state, which nothing changes while the players are walked, written out as
    ``Scope.lookup`` walks a path of the state (a key of a dict, else null). ``choice``: how the
    source reads the built-in ``choice`` without a scope (``found.choice``), if it may.
    """
    hoisted: dict[tuple[str, ...], str] = {}
    lines: list[str] = []

    def name(path: tuple[str, ...]) -> str:
        if choice is not None and path == ("choice",):
            return choice
        if path[0] in _SPECIAL:
            writer.uses_scope = True
            return f"scope.lookup({path!r})"
        variable = hoisted.get(path)
        if variable is None:
            variable = hoisted[path] = f"_n{len(hoisted)}"
            lines.append(f"    {variable} = match.state")
            # (by subscript in a filter's quick path: a missing key raises KeyError, and the path with .get runs)
            lines.extend(f"    {variable} = {variable}[{key!r}] if {variable}.__class__ is dict else None"
                         if subscript else
                         f"    {variable} = {variable}.get({key!r}) if {variable}.__class__ is dict else None"
                         for key in path)
        return variable

    writer = Writer(closure_of, name, subscript)
    return writer, lines


def _reads_player(node: Node) -> bool:
    return any(item.kind == "field" for item in node.walk())


def _seat_by_id(tree: Node, quick: Writer) -> list[str]:
    """The quick path's lines for a condition ``player.id == X and ...`` (X reading no player): the
    one seat whose id X is, found by index instead of walking every player; nothing for any other.

    The engine gives player ``seat`` the id ``seat + 1`` and no statement may write ``id`` (the
    validator refuses it), so when X is an int ``x`` in 1..len(players) and ``players[x - 1]['id']
    == x``, that player is the only one whose id equals X, and the filter holds for them or for no
    one. Anything else (X null, a float or a bool, out of range, an id changed by a game's Python
    rules) walks the players as before; a missing key raises ``KeyError`` as the walk would, and the
    ``.get`` path answers. Only used where the test reads no scope: its terms cannot raise anything
    but ``KeyError`` nor change anything, so testing them on one player gives the walk's answer."""
    terms = tree.items if tree.kind == "and" else [tree]
    for index, term in enumerate(terms):
        if term.kind != "compare" or term.op != "==":
            continue
        for own, other in (term.items, term.items[::-1]):
            if own.kind == "field" and tuple(own.path) == ("id",) and not _reads_player(other):
                rest = " and ".join(quick.test(item) for position, item in enumerate(terms) if position != index)
                value = quick.write(other)
                lines = [] if value.isidentifier() else [f"        _id = {value}"]
                value = value if value.isidentifier() else "_id"
                return [*lines,
                        f"        if {value}.__class__ is int and 0 < {value} <= len(match.players):",
                        f"            player = match.players[{value} - 1]",
                        f"            if player['id'] == {value}:",
                        f"                return [{value} - 1] if {rest} else []" if rest else
                        f"                return [{value} - 1]"]
    return []


def seat_filter_source(function: str, tree: Node, text: str) -> tuple[str, dict[str, Any]]:
    """``def function(match, found=None, me=None)``: the seats, in order, for whom the expression holds
    (``found``: the outcome it reads; ``me``: the player an option is offered to)."""
    writer, hoisted = _hoisting_writer()
    test = writer.test(tree)
    fast: list[str] = []
    if not writer.uses_scope:
        # Each player's fields and the game-level names read by subscript, which is quicker than .get; a
        # player or the state without one of them raises KeyError, and then the path below reads them as
        # .get does (null).
        quick, quick_hoisted = _hoisting_writer(subscript=True)
        quick_test = quick.test(tree)
        by_id = _seat_by_id(tree, quick)
        fast = ["    try:",
                *("    " + line for line in quick_hoisted),
                *by_id,
                "        chosen = []",
                "        for seat, player in enumerate(match.players):",
                f"            if {quick_test}:",
                "                chosen.append(seat)",
                "        return chosen",
                "    except KeyError:",
                "        pass"]
    source = "\n".join([
        f"def {function}(match, found=None, me=None):",
        f"    # {text!r}",
        *(["    scope = Scope(match, None, me, found)"] if writer.uses_scope else []),
        *fast,
        *hoisted,
        "    chosen = []",
        "    for seat, player in enumerate(match.players):",
        *(["        scope.player = player"] if writer.uses_scope else []),
        f"        if {test}:",
        "            chosen.append(seat)",
        "    return chosen",
        "",
    ])
    writer.namespace["Scope"] = Scope
    return source, writer.namespace


_FILTERS: dict[str, SeatFilter] = {}


def seat_filter(expression: Expression) -> SeatFilter:
    """The generated seat filter of an expression, built once per text."""
    found = _FILTERS.get(expression.text)
    if found is None:
        if expression.tree is None:  # a literal: true or false for everyone
            value = bool(expression.evaluate(None))

            def found(match: "Match", _found: Any = None, _me: Any = None) -> list[int]:
                return list(range(len(match.players))) if value else []
        else:
            source, namespace = seat_filter_source("seats", expression.tree, expression.text)
            found = build(source, namespace, "seats")
        if len(_FILTERS) < 20_000:
            _FILTERS[expression.text] = found
    return found


def router_source(function: str, branches: list[tuple[int | None, Node | None, str | None]],
                  shadowed: frozenset[str] = frozenset()) -> tuple[str, dict[str, Any]]:
    """``def function(match)``: the phase of the first branch whose ``when`` holds (one without
    ``when`` is the fallback), read in the scope of the decision that closed last.

    Game-level names are read from the state before the first test (pure reads, as the seat filters
    hoist them), ``choice`` from the outcome; a :class:`Scope` is made only for what needs one (another
    built-in name, a closure). ``shadowed``: the built-in names a game-level name hides (``game.shadowed``)."""
    writer, hoisted = _hoisting_writer(choice=None if "choice" in shadowed else "found.choice")
    body: list[str] = []
    for target, tree, text in branches:
        if tree is None:
            body.append(f"    return {target!r}")
            break
        body += [f"    # {text!r}", f"    if {writer.test(tree)}:", f"        return {target!r}"]
    else:
        body.append("    raise EngineError(\"no 'when' holds and there is no fallback\")")
    lines = [f"def {function}(match):", "    found = outcome(match)", "    actor = found.actor"]
    if writer.uses_scope:
        lines += ["    scope = Scope(match, match.players[actor] if actor is not None else None, None, found)",
                  "    player = scope.player"]
    else:
        lines.append("    player = match.players[actor] if actor is not None else _EMPTY")
    writer.namespace.update(Scope=Scope, outcome=outcome, EngineError=EngineError, _EMPTY=_EMPTY)
    return "\n".join(lines + hoisted + body) + "\n", writer.namespace


#: The most phases one runner runs in a row (a phase and the fixed ``next_phase`` chain it enters).
CHAIN = 6
#: The most phases one runner may run in a row with the phases its routes enter too (its calls nest that deep).
DEPTH = 12


def _chain_of(plans: dict[Any, Any], phase_id: Any) -> tuple[Any, ...]:
    """The phases a runner of ``phase_id`` would run: the fixed ``next_phase`` links from it, up to
    :data:`CHAIN` of them, stopping before a phase already in the chain."""
    chain = [phase_id]
    plan = plans[phase_id]
    while not plan.conditional and plan.fixed_next is not None and plan.fixed_next in plans \
            and plan.fixed_next not in chain and len(chain) < CHAIN:
        chain.append(plan.fixed_next)
        plan = plans[plan.fixed_next]
    return tuple(chain)


#: A phase's own bookkeeping as it starts (every value immutable or never changed in place: ``Match.offer``
#: makes the phase's own maps on its first offer).
PHASE_START: dict[str, Any] = {
    "_targets": None, "_offers": None, "_closing": {}, "_manual": frozenset(), "_named": None,
    "_picks": None, "_standing": frozenset(), "_resume": 0, "_stage": "before", "_single": False}
#: The same after a phase that offered nothing: its offer maps are still as a phase starts them.
QUIET_START: dict[str, Any] = {"_targets": None, "_resume": 0, "_stage": "before"}
#: The shared empty values of PHASE_START, as the generated code names them (see ``start_lines``).
START_NAMES: dict[str, Any] = {f"_START{key}": value for key, value in PHASE_START.items()
                               if not (value is None or value.__class__ in (bool, int, str))}
#: What a phase runner returns when it opened a decision (any other value is the next phase, or None: the end).
OPENED = object()


def phase_runner_source(function: str, plan: Any, steps: list[tuple[str | None, str | None, Any]],
                        headless: bool, then: tuple[Any, Callable[..., Any]] | None = None,
                        routed: dict[Any, tuple[Any, Callable[..., Any]]] | None = None
                        ) -> tuple[str, dict[str, Any]]:
    """``def function(match, tools, routers)``: one pass of the phase loop over this phase, straight-line.

    The phase's steps in order (each tool looked up by name as it runs, so a test may replace one;
    an action's statements as their compiled program), the decision opened by the first step that
    offers something (a deciding phase's later steps run on the next call, once it is answered:
    ``match._resume`` says where), then its effects and where it goes next. Returns :data:`OPENED`
    when a decision was opened, else the next phase (``None``: the match is over). Tool names and
    descriptions appear only as ``repr`` literals; the generated routers and the plan's own objects
    are names of the namespace.

    ``then``: the next phase's plan and runner, for a fixed ``next_phase``: the runner enters it as the
    phase loop would (``Match._settle``) and runs it, instead of returning to the loop in between.
    ``routed``: the same for the phases a conditional ``next_phase`` may route to, by phase (the others
    are returned to the loop).
    """
    namespace: dict[str, Any] = {"OPENED": OPENED, "_plan": plan}
    # A decision no secret or joint choice shapes is opened inline (Match._open_decision does the rest).
    plain = not plan.secret and plan.joint is None
    if plain:
        namespace.update(Decision=Decision, _new=object.__new__)
    lines = [f"def {function}(match, tools, routers):",
             f"    # {str(plan.phase.name)!r} ({'headless' if headless else 'with its UI'})"]
    count = len(steps)

    def step_lines(index: int, indent: str, opening: bool) -> list[str]:
        tool, description, program = steps[index]
        # Only the UI's tools read the action's description, and a headless match runs none of them.
        out = [f"{indent}# {description!r}" if headless else f"{indent}match.current_action_text = {description!r}"]
        if tool is None:
            namespace[f"_p{index}"] = program
            out.append(f"{indent}_p{index}.run(match)")
            return out
        out.append(f"{indent}tools[{tool!r}](match)")
        if opening:  # the first step that offers something opens the decision
            if plain:
                out += [f"{indent}offers = match._offers",
                        f"{indent}if offers is not None:",
                        f"{indent}    match._resume = {index + 1}",
                        *_open_lines(plan, indent + "    ")]
            else:
                out += [f"{indent}if match._offers is not None:",
                        f"{indent}    match._resume = {index + 1}",
                        f"{indent}    match._open_decision()",
                        f"{indent}    return OPENED"]
        return out

    def guarded(opening: bool, indent: str) -> list[str]:
        out = [f"{indent}index = match._resume"]
        for index in range(count):
            out.append(f"{indent}if index <= {index}:")
            out += step_lines(index, indent + "    ", opening)
        if not headless:
            out.append(f"{indent}match.current_action_text = None")
        out.append(f"{indent}match._resume = {count}")
        return out

    if plan.deciding:
        lines.append("    if match._stage == 'before':")
        lines += guarded(True, "        ")
        lines += ["        if match._offered_nothing(_plan):", "            return OPENED", "    else:"]
        lines += guarded(False, "        ")
    else:  # nothing to resume: the steps run from the first, every time
        for index in range(count):
            lines += step_lines(index, "    ", False)
        if not headless:
            lines.append("    match.current_action_text = None")
        lines.append(f"    match._resume = {count}")
    if plan.effects is not None:
        namespace["_effects"] = plan.effects
        lines.append("    _effects.run(match)")
    if plan.conditional:
        namespace["_allowed"] = plan.allowed
        lines.append(f"    router = routers[{plan.phase_id!r}]")
        if plan.router is not None:  # the generated router in place of the declarative one it was compiled from
            namespace["_declared"], namespace["_route"] = plan.declared_router, plan.router
            lines.append("    nxt = _route(match) if router is _declared else router(match)")
        else:
            lines.append("    nxt = router(match)")
        for number, (target, (target_plan, target_runner)) in enumerate((routed or {}).items()):
            suffix = target if type(target) is int else f"n{number}"  # a name made of digits only
            namespace[f"_plan_{suffix}"], namespace[f"_run_{suffix}"] = target_plan, target_runner
            lines += [f"    if nxt == {target!r}:  # (a phase the DSL lists)",
                      *_entry_lines(target, f"_plan_{suffix}", f"_run_{suffix}", headless, "        ")]
        if routed:
            namespace.update(START_NAMES)
        lines += ["    if nxt not in _allowed:", "        match._refuse_route(nxt)", "    return nxt"]
    elif then is None:
        lines.append(f"    return {plan.fixed_next!r}")
    else:  # enter the next phase (Match._settle's bookkeeping of a new phase) and run it
        namespace.update(START_NAMES, _then_plan=then[0], _then=then[1])
        lines += _entry_lines(plan.fixed_next, "_then_plan", "_then", headless, "    ")
    return "\n".join(lines) + "\n", namespace


def _open_lines(plan: Any, indent: str) -> list[str]:
    """``match._open_decision()`` of a phase no secret or joint choice shapes, written out for the usual
    case (``offers``: the phase's offers, nobody offered a player to name, nobody out offered anything,
    one chooser of a ``single_player_choice``); anything else goes through the method and its checks."""
    return [
        f"{indent}if match._named is None and match._picks is None"
        + (" and len(offers) == 1:" if plan.wait_for == "single_player_choice" else ":"),
        f"{indent}    players = match.players",
        f"{indent}    for seat in offers:",
        f"{indent}        if players[seat].get('is_alive') is False:",
        f"{indent}            break",
        f"{indent}    else:",
        f"{indent}        decision = _new(Decision)",
        f"{indent}        decision.phase_id = {plan.phase_id!r}",
        f"{indent}        decision.wait_for = {plan.wait_for!r}",
        f"{indent}        decision.offers = offers",
        f"{indent}        decision.closing = match._closing",
        f"{indent}        decision.manual = match._manual",
        f"{indent}        decision.answers = {{}}",
        f"{indent}        decision.closed_by = None",
        f"{indent}        decision.opened_at = match.version",
        f"{indent}        match.decision = decision",
        f"{indent}        if not match._single:  # nobody has a single option: nothing to answer for anyone",
        f"{indent}            match._answered = decision",
        f"{indent}        match._stage = 'deciding'",
        f"{indent}        match.decisions += 1",
        f"{indent}        return OPENED",
        f"{indent}match._open_decision()",
        f"{indent}return OPENED"]


def _entry_lines(phase_id: Any, plan: str, runner: str, headless: bool, indent: str) -> list[str]:
    """Enter ``phase_id`` as the phase loop would (``Match._settle``'s bookkeeping of a new phase) and run it."""
    return [f"{indent}match.phase_id = {phase_id!r}",
            f"{indent}match._plan = {plan}",
            *([] if headless else [f"{indent}match.canvas.begin_phase()"]),  # a headless match's canvas does nothing
            *start_lines(indent),
            f"{indent}return {runner}(match, tools, routers)"]


def start_lines(indent: str, every: bool = False) -> list[str]:
    """A phase's bookkeeping as it starts (:data:`PHASE_START`, or :data:`QUIET_START` after a phase that
    offered nothing) as plain stores, several times cheaper than ``match.__dict__.update``. The shared
    empty values are the namespace's ``_START_<field>`` (:data:`START_NAMES`). ``every``: all of
    :data:`PHASE_START`, without the test (a match's first phase: nothing is set yet)."""
    lines = [] if every else [f"{indent}if match._offers is not None:"]
    inner = indent if every else indent + "    "
    for key, value in PHASE_START.items():
        if every or key not in QUIET_START:
            literal = repr(value) if value is None or value.__class__ in (bool, int, str) else f"_START{key}"
            lines.append(f"{inner}match.{key} = {literal}")
    if not every:
        lines += [f"{indent}match.{key} = {value!r}" for key, value in QUIET_START.items()]
    return lines


def _routed_entries(plans: dict[Any, Any], fixed: dict[Any, Any]) -> dict[Any, list[Any]]:
    """The phases each conditional phase's runner enters itself, of those its ``next_phase`` may name.

    Runners call each other, so the graph of who enters whom (``fixed``: the fixed ``next_phase`` links a
    runner enters) must have no cycle, and no path of more than :data:`DEPTH` phases: a route is taken
    into it only if both stay true. The others go back to the phase loop, which counts them."""
    edges: dict[Any, list[Any]] = {phase_id: ([fixed[phase_id]] if phase_id in fixed else []) for phase_id in plans}

    def longest(start: Any, seen: dict[Any, int]) -> int:
        """The most phases on a path of entries from ``start`` (1: itself)."""
        found = seen.get(start)
        if found is None:
            found = seen[start] = 1 + max((longest(nxt, seen) for nxt in edges[start]), default=0)
        return found

    def reaches(start: Any, goal: Any) -> bool:
        stack, seen = [start], set()
        while stack:
            here = stack.pop()
            if here == goal:
                return True
            if here not in seen:
                seen.add(here)
                stack.extend(edges[here])
        return False

    routed: dict[Any, list[Any]] = {}
    for phase_id, plan in plans.items():
        if not plan.conditional:
            continue
        for ref in plan.phase.next_phase.values():
            target = ref.id
            if target is None or target not in plans or target == phase_id or target in routed.get(phase_id, ()) \
                    or reaches(target, phase_id):
                continue
            edges[phase_id].append(target)
            seen: dict[Any, int] = {}
            if max(longest(start, seen) for start in plans) > DEPTH:
                edges[phase_id].pop()
                continue
            routed.setdefault(phase_id, []).append(target)
    return routed


class CompiledGame:
    """The generated functions of one game and their source (what ``intrigue compile`` prints)."""

    def __init__(self, game: "Game"):
        self.targets: dict[int, SeatFilter] = {}
        self.routers: dict[int, Callable[["Match"], int | None]] = {}
        parts: list[str] = []
        for number, (phase_id, phase) in enumerate(game.phases.items()):
            suffix = phase_id if type(phase_id) is int else f"n{number}"  # a name made of digits only
            condition = game.conditions.get(phase_id)
            if condition is not None and condition.tree is not None:
                name = f"targets_{suffix}"
                source, namespace = seat_filter_source(name, condition.tree, condition.text)
                self.targets[phase_id] = build(source, namespace, name)
                parts.append(f"# phase {phase_id!r} {str(phase.name)!r}: who acts\n{source}")
            router = game.binding.routers.get(phase_id)
            if router is not None and getattr(router, "declarative", False) and isinstance(phase.next_phase, dict):
                branches = []
                for ref in phase.next_phase.values():
                    when = compile_expression(ref.when) if ref.when is not None else None
                    if when is not None and when.tree is None:  # a literal: 'when: true' or 'when: false'
                        if when.evaluate(None):
                            branches.append((ref.id, None, None))
                        continue
                    branches.append((ref.id, when.tree if when is not None else None,
                                     when.text if when is not None else None))
                name = f"route_{suffix}"
                source, namespace = router_source(name, branches, game.shadowed)
                self.routers[phase_id] = build(source, namespace, name)
                parts.append(f"# phase {phase_id!r} {str(phase.name)!r}: next phase\n{source}")
        self.parts = parts

    def add_runners(self, game: "Game") -> None:
        """Each phase's runner, with its UI and headless (once the plans know their steps and routers).

        A phase whose ``next_phase`` is fixed runs the next one itself (it needs no routing), along
        chains of at most :data:`CHAIN` phases that never come back to one already in the chain."""
        parts = self.parts
        plans = game.plans
        suffixes = {phase_id: phase_id if type(phase_id) is int else f"n{number}"
                    for number, phase_id in enumerate(plans)}
        built: dict[tuple[Any, bool], tuple[Callable[..., Any], tuple[Any, ...]]] = {}
        fixed: dict[Any, Any] = {}  # the fixed next phase each runner enters
        for phase_id, plan in plans.items():
            nxt = plan.fixed_next
            if not plan.conditional and nxt is not None and nxt in plans and nxt != phase_id:
                successor = _chain_of(plans, nxt)
                if phase_id not in successor and len(successor) < CHAIN:
                    fixed[phase_id] = nxt
        routes = _routed_entries(plans, fixed)

        def runner(phase_id: Any, headless: bool) -> tuple[Callable[..., Any], tuple[Any, ...]]:
            """The runner and the phases it runs (itself first, then the chain it enters)."""
            found = built.get((phase_id, headless))
            if found is not None:
                return found
            plan = plans[phase_id]
            plan.phase_id = phase_id
            then = None
            chain: tuple[Any, ...] = (phase_id,)
            nxt = fixed.get(phase_id)
            if nxt is not None:
                function, successor = runner(nxt, headless)
                then, chain = (plans[nxt], function), (phase_id, *successor)
            routed = {target: (plans[target], runner(target, headless)[0]) for target in routes.get(phase_id, ())}
            suffix = suffixes[phase_id]
            name = f"phase_{suffix}_headless" if headless else f"phase_{suffix}"
            source, namespace = phase_runner_source(name, plan, plan.headless_steps if headless else plan.steps,
                                                    headless, then, routed)
            function = build(source, namespace, name)
            if headless:
                plan.run_headless = function
            else:
                plan.run = function
            plan.passes = len(chain)
            parts.append(f"# phase {phase_id!r} {str(plan.phase.name)!r}: "
                         f"{'headless' if headless else 'with its UI'}\n{source}")
            built[(phase_id, headless)] = function, chain
            return function, chain

        for headless in (False, True):
            for phase_id in plans:
                runner(phase_id, headless)
        # Every text of the DSL file in the source is a repr: in a comment, or a literal.
        self.source = (f"# {str(game.id)!r}, generated from {str(game.checked.source.file)!r} when it loads\n"
                       "# (expressions the engine evaluates elsewhere run as generated functions too)\n\n"
                       + "\n".join(parts))
