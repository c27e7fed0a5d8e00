"""The UI kit: components with an audience, and the DSL's generic UI tools.

A game never sends HTML. Its tools put components on the match's canvas, each
with an audience; ``observe`` hands a seat only the components whose audience
includes it. The browser client renders the component kinds generically:

====================  ===============================================
kind                  props
====================  ===============================================
``text``              ``text``, optional ``tone`` (info, warning, ...)
``phase``             ``name``
``turn``              ``player``
``character_card``    ``title``, ``text``, optional ``player``
``hand``              ``player``, ``cards`` (list of labels)
``options``           ``prompt``; buttons come from the seat's decision
``result``            ``title``, ``text``, optional ``winners``
``board``             ``players``: rows of public facts per player
``timer``             the countdown is drawn from the decision's deadline
====================  ===============================================

Any component may add ``msg``: for a text field made from a template, the
template and its values (``{"text": {"key": "{player} takes {count} coins.",
"args": {"player": "Aria", "count": 3}}}``), so that a client translates the
template and fills it in rather than parsing the English (docs/protocol.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable

from ..dsl.expressions import Expression, compile_expression
from ..dsl.extensions import TEMPLATE
from .scope import Scope, outcome

if TYPE_CHECKING:  # pragma: no cover
    from .match import Match


@dataclass(frozen=True)
class Audience:
    """Who may see something: everyone, a DSL audience group, or listed seats.

    ``pending`` narrows it live: ``True`` keeps only seats whose choice is pending
    (a prompt vanishes once answered), ``False`` only the others (spectators
    included), for "Waiting for …" lines.
    """

    public: bool = False
    group: str | None = None
    seats: frozenset[int] = frozenset()
    pending: bool | None = None

    @staticmethod
    def everyone() -> "Audience":
        return PUBLIC

    @staticmethod
    def of(*seats: int | Iterable[int]) -> "Audience":
        if len(seats) == 1 and seats[0].__class__ is int:  # one seat: a served match's hands, every move
            found = _ONE_SEAT.get(seats[0])
            if found is None:
                found = Audience(seats=frozenset(seats))
                if len(_ONE_SEAT) < 1_000:
                    _ONE_SEAT[seats[0]] = found
            return found
        flat: set[int] = set()
        for seat in seats:
            if isinstance(seat, int):
                flat.add(seat)
            else:
                flat.update(seat)
        listed = frozenset(flat)
        found = _SEATS.get(listed)
        if found is None:
            found = Audience(seats=listed)
            if len(_SEATS) < 10_000:
                _SEATS[listed] = found
        return found

    @staticmethod
    def in_group(name: str) -> "Audience":
        return Audience(group=name)

    def while_pending(self) -> "Audience":
        return _narrowed(self, True)

    def unless_pending(self) -> "Audience":
        return _narrowed(self, False)

    def includes(self, match: "Match", seat: int | None) -> bool:
        return self.includes_among(match, seat, match.pending if self.pending is not None else ())

    def includes_among(self, match: "Match", seat: int | None, pending: Any) -> bool:
        """:meth:`includes`, given ``match.pending`` (for a caller asking of many seats: it is a new list)."""
        if self.pending is not None and (seat is not None and seat in pending) != self.pending:
            return False
        if self.public:
            return True
        if seat is None:
            return False
        if self.group is not None:
            return match.game.in_group(match, self.group, seat)
        return seat in self.seats

    def describe(self) -> str:
        if self.public:
            who = "public"
        elif self.group is not None:
            who = f"group:{self.group}"
        else:
            who = "seats:" + ",".join(str(s) for s in sorted(self.seats))
        return who if self.pending is None else f"{who}:{'pending' if self.pending else 'not pending'}"


PUBLIC = Audience(public=True)

#: ``Audience.of(seat)`` and the narrowed audiences, one object each (frozen, so shared): a served
#: match shows its prompts and hands again at every step, and building a frozen dataclass is not cheap.
_ONE_SEAT: dict[int, Audience] = {}
_SEATS: dict[frozenset[int], Audience] = {}
_NARROWED: dict[tuple[Any, ...], Audience] = {}


def _narrowed(audience: Audience, pending: bool) -> Audience:
    """``replace(audience, pending=pending)``, the same object for equal audiences (by their fields: a
    tuple of them hashes and compares in C, the dataclass's own ``__hash__`` and ``__eq__`` in Python)."""
    key = (audience.public, audience.group, audience.seats, audience.pending, pending)
    found = _NARROWED.get(key)
    if found is None:
        if len(_NARROWED) >= 10_000:
            _NARROWED.clear()
        found = _NARROWED[key] = replace(audience, pending=pending)
    return found


@dataclass
class Component:
    key: str
    kind: str
    audience: Audience
    props: dict[str, Any] = field(default_factory=dict)
    _json: dict[str, Any] | None = field(default=None, init=False, repr=False, compare=False)

    def as_json(self) -> dict[str, Any]:
        return {"key": self.key, "kind": self.kind, **self.props}

    def shared_json(self) -> dict[str, Any]:
        """``as_json()``, one dict for every view that shows this component (read-only): nothing changes
        a component once shown (``Canvas.show`` makes a new one), so it is built once, not once per view."""
        shown = self._json
        if shown is None:
            shown = self._json = {"key": self.key, "kind": self.kind, **self.props}
        return shown


class Canvas:
    """The components currently shown, in the order they were created."""

    def __init__(self) -> None:
        self.components: dict[str, Component] = {}
        self.transient: set[str] = set()
        self._counter = 0

    def show(self, kind: str, audience: Audience = PUBLIC, key: str | None = None, *,
             transient: bool = False, **props: Any) -> str:
        """Show a component; a ``transient`` one disappears when the next phase begins. A component is
        not changed once shown (showing one again under its key replaces it): the props given here are
        the game's to build, not to change afterwards (a served match encodes each component once)."""
        if key is None:
            self._counter += 1
            key = f"{kind}-{self._counter}"
        self.components.pop(key, None)
        self.components[key] = Component(key, kind, audience, props)
        if transient:
            self.transient.add(key)
        else:
            self.transient.discard(key)
        return key

    def begin_phase(self) -> None:
        transient = self.transient
        if transient:  # (most phases begin with none: nothing to remove, no new set)
            components = self.components
            for key in transient:
                components.pop(key, None)
            self.transient = set()

    def delete(self, key: str) -> None:
        self.components.pop(key, None)

    def clear(self, keep: Iterable[str] = ()) -> None:
        kept = keep if isinstance(keep, frozenset) else set(keep)
        self.components = {k: c for k, c in self.components.items() if k in kept}

    def visible(self, match: "Match", seat: int | None) -> list[dict[str, Any]]:
        # PUBLIC (no ``pending``) includes everyone: asked by identity first, as observe asks for every seat
        return [c.as_json() for c in self.components.values()
                if c.audience is PUBLIC or c.audience.includes(match, seat)]

    def copy(self) -> "Canvas":
        other = self.__class__()
        other.components = dict(self.components)
        other.transient = set(self.transient)
        other._counter = self._counter
        return other


# ---------------------------------------------------------------------------
# The DSL's generic UI tools. A game's rules module may override any of them by
# defining a function with the same name. Their text comes from the DSL: the
# phase name, and the *player text* of the action that calls them. An action's
# ``description`` is a note from designer to developer ("TIER 1 - PUBLIC: Show
# phase indicator ..."): it reaches players only when the action is marked
# ``player_text: true`` (or gives ``player_text: "..."`` itself). Every text
# shown is a string of the DSL file, so a game's catalog translates it as written.

_TIER = re.compile(r"^\s*TIER\s*\d\s*-\s*[A-Z]+\s*:\s*", re.IGNORECASE)


def _action(match: "Match") -> Any:
    """The DSL action whose tools are running (found by its description)."""
    description = match.current_action_text
    if description is None:
        return None
    return next((a for a in match.phase.actions if a.description == description), None)


def player_text(item: Any) -> str:
    """An action's or phase's text for players: its ``player_text`` string, its
    description when ``player_text`` is true, else nothing."""
    marked = getattr(item, "player_text", None)
    if isinstance(marked, str):
        return marked.strip()
    if marked is True:
        return _TIER.sub("", item.description or "").strip()
    return ""


def _action_text(match: "Match") -> str:
    action = _action(match)
    return player_text(action) if action is not None else ""


def _tier_audience(match: "Match") -> Audience:
    """TIER 3 (individual) text goes to the deciding players; the rest is public."""
    text = (match.current_action_text or "").upper()
    if "TIER 3" in text:
        return Audience.of(match.targets)
    return PUBLIC


def clearCanvas(match: "Match") -> None:  # noqa: N802 - the DSL's name
    match.canvas.clear(keep=("board",))


def createPhaseIndicator(match: "Match") -> None:  # noqa: N802
    match.canvas.show("phase", key="phase", name=match.phase.name)


def value_text(value: Any) -> str:
    """How a value reads to players: yes/no, nothing for null, a list as its items."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(value_text(item) for item in value)
    return "" if value is None else str(value)


@lru_cache(maxsize=256)
def _pieces(template: str) -> tuple[tuple[str, str, Expression], ...]:
    """A player text's placeholders: each as written, its expression's text, and the expression."""
    return tuple((found.group(0), found.group(1).strip(), compile_expression(found.group(1).strip()))
                 for found in TEMPLATE.finditer(template))


def fill_template(match: "Match", template: str) -> tuple[str, dict[str, str]]:
    """A player text with ``{expression}`` values (a topic card) filled now, and its values by
    placeholder (for translation); the validator lets it read only what every seat sees."""
    scope = Scope(match, None, None, outcome(match))
    args, text = {}, template
    for placeholder, source, expression in _pieces(template):
        args[source] = value_text(expression.evaluate(scope))
        text = text.replace(placeholder, args[source])
    return text, args


def createTextDisplay(match: "Match") -> None:  # noqa: N802
    action = _action(match)
    text = player_text(action) if action is not None else ""
    if not text:
        return
    props: dict[str, Any] = {"text": text}
    if TEMPLATE.search(text):  # {…} values filled now; the template goes along for translation
        filled, args = fill_template(match, text)
        props = {"text": filled, "msg": {"text": {"key": text, "args": args}}}
    if getattr(action, "stays", None):  # a topic card: on the table until drawn again or cleared
        key = f"text-{match.phase_id}-{match.phase.actions.index(action)}"
        match.canvas.show("text", _tier_audience(match), key=key, **props)
    else:
        match.canvas.show("text", _tier_audience(match), transient=True, **props)


def createVotingPanel(match: "Match") -> None:  # noqa: N802
    match.canvas.show("options", Audience.of(_asked(match)), key="options",
                      prompt=player_text(match.phase) or match.phase.name)


def _asked(match: "Match") -> list[int]:
    """Who the question goes to: the players asked, and in a secret phase everyone in its cover
    (each of them appears to act, so the same question to all of them tells nothing)."""
    targets = match.targets
    plan = match.game.plans.get(match.phase_id)
    if plan is None or not plan.secret or plan.cover is None:
        return targets
    return sorted({*targets, *match.seats_where(plan.cover)})


def createCharacterCard(match: "Match") -> None:  # noqa: N802
    text = _action_text(match)
    if text:
        match.canvas.show("character_card", _tier_audience(match), transient=True, title=match.phase.name,
                          text=text)


def createHandsCard(match: "Match") -> None:  # noqa: N802
    text = _action_text(match)
    if text:
        match.canvas.show("hand", _tier_audience(match), transient=True, player=None, cards=[], text=text)


def createTurnIndicator(match: "Match") -> None:  # noqa: N802
    player = match.active_player_name()
    match.canvas.show("turn", key="turn", player=player)


def createResultDisplay(match: "Match") -> None:  # noqa: N802
    match.canvas.show("result", transient=True, title=match.phase.name, text=_action_text(match))


def deleteItem(match: "Match") -> None:  # noqa: N802
    match.canvas.delete("options")


GENERIC_TOOLS = {
    fn.__name__: fn
    for fn in (clearCanvas, createPhaseIndicator, createTextDisplay, createVotingPanel,
               createCharacterCard, createHandsCard, createTurnIndicator, createResultDisplay,
               deleteItem)
}


# ---------------------------------------------------------------------------
# The rules drawer of a game that ships none: made from its declaration.

def rules_sheet(definition: Any) -> dict[str, Any]:
    """What the table teaches about a game written in the DSL alone.

    Only text meant for players goes in: the declaration's summary and
    description, the roles and their descriptions, and for each phase where
    players decide (a timer phase with options too), its name, its player text, who decides (``target_players``'
    description), the options it declares and what the timer chooses. Every
    string is the DSL's own, so the game's catalog translates it.
    """
    declaration = definition.declaration
    sections: list[dict[str, Any]] = []
    if declaration.description:
        sections.append({"id": "goal", "paragraphs": [declaration.description.strip()]})
    if declaration.roles:
        sections.append({"id": "roles", "items": [
            {"name": role.name, "text": (role.description or "").strip()} for role in declaration.roles]})
    steps = []
    for phase_id in sorted(definition.phases):
        phase = definition.phases[phase_id]
        criteria = phase.completion_criteria
        if criteria.type != "player_action" and not (criteria.type == "timer" and criteria.options):
            continue  # a timer phase with options is a decision too (Spyfall's "stop the clock")
        options: list[str] = []
        players = False
        for entry in criteria.options or []:
            if isinstance(entry, str):
                options.append(entry)
            elif getattr(entry, "option", None) is not None:
                options.append(entry.option)
            elif getattr(entry, "players", None) is not None:  # not `items:` (cards, bids): those are no players
                players = True
        step: dict[str, Any] = {"name": phase.name, "text": player_text(phase), "options": options,
                                "players": players, "everyone": criteria.ends_early != "any" if criteria.type == "timer"
                                else criteria.wait_for != "single_player_choice"}
        if criteria.target_players is not None and criteria.target_players.description:
            step["who"] = criteria.target_players.description.strip()
        if criteria.default:
            step["default"] = criteria.default
        steps.append(step)
    if steps:
        sections.append({"id": "turn", "steps": steps})
    return {"summary": (declaration.summary or "").strip(), "sections": sections}
