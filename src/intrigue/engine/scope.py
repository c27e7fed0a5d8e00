"""What an expression sees in a match: one player, the game-level names, and the last decision.

Every expression the engine evaluates (who acts, audience groups, visibility,
statements, ``when``, option conditions) reads through one :class:`Scope`:
``player.<field>`` is ``scope.player``; bare names are game-level names, or the
names the DSL provides: ``choice``, ``actor``, ``chosen``, ``picked``, ``asked``,
``answer`` (what the decision that closed last tells, see :class:`Outcome`),
``me`` (the player an option is offered to), ``item`` (each item an ``items`` entry's
``where`` tests), ``player_count`` and ``players``
(every player's record, ``players[id]``). A game-level
name of the same spelling hides one of the newer names (``game.shadowed``), so
older files keep their meaning.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping

if TYPE_CHECKING:  # pragma: no cover
    from .match import Decision, Match

_EMPTY: dict[str, Any] = {}


class Outcome:
    """What a closed decision tells the statements after it.

    ``answers`` are the real answers by seat (a player in the cover of a secret
    decision who only acknowledged it gave none). ``choice`` and ``actor`` are the
    answer and the seat when exactly one player answered, or the answer that
    closed a window for everyone (``closes``); ``chosen`` the player
    that answer names (``picked``: the ids of every player it names, for a
    choice of several players); ``asked`` how many players were asked.
    """

    __slots__ = ("answers", "asked", "choice", "actor", "chosen", "picked", "secret")

    def __init__(self, match: "Match", decision: "Decision | None"):
        self.choice: str | None = None
        self.actor: int | None = None
        self.chosen: int | None = None
        self.picked: list[int] = []
        self.secret = False
        if decision is None:
            self.answers: dict[int, str] = {}
            self.asked = 0
            return
        acks = decision.acks
        self.secret = decision.secret
        if acks:
            self.answers = {seat: answer for seat, answer in decision.answers.items() if seat not in acks}
            self.asked = sum(1 for seat in decision.offers if seat not in acks)
        else:
            self.answers = decision.answers
            self.asked = len(decision.offers)
        if decision.closed_by is not None:  # a window someone closed: the closer's answer
            self.actor, self.choice = decision.closed_by, decision.answers[decision.closed_by]
        elif len(self.answers) == 1:
            (self.actor, self.choice), = self.answers.items()
        if self.choice is not None:
            seats = decision.named.get(self.choice) if decision.named else None
            if seats is None and self.choice in match.names:  # a rules module offering names itself
                seats = (match.names.index(self.choice),)
            if seats:
                self.picked = [seat + 1 for seat in seats]
                if len(seats) == 1:
                    self.chosen = seats[0]


def outcome(match: "Match") -> Outcome:
    """The outcome of the decision that closed last (computed once per decision)."""
    decision = match.last_decision
    if decision is None:
        return Outcome(match, None)
    found = decision.outcome
    if found is None:
        found = decision.outcome = Outcome(match, decision)
    return found


class Scope:
    """See the module docstring. ``players`` is every player (``count`` and ``sum`` walk it)."""

    __slots__ = ("match", "player", "state", "players", "me", "item", "_outcome", "_names")

    def __init__(self, match: "Match", player: Mapping[str, Any] | None = None,
                 me: Mapping[str, Any] | None = None, found: Outcome | None = None):
        self.match = match
        self.player = player if player is not None else _EMPTY
        self.state = match.state
        self.players = match.players
        self.me = me
        self.item: Any = None
        self._outcome = found
        self._names: dict[tuple[str, ...], Any] | None = None  # game-level names read so far

    @property
    def outcome(self) -> Outcome:
        if self._outcome is None:
            self._outcome = outcome(self.match)
        return self._outcome

    def lookup(self, path: tuple[str, ...]) -> Any:
        head = path[0]
        special = _SPECIAL.get(head)
        if special is not None and head not in self.match.game.shadowed:
            return special(self, path)  # never kept with the game-level names
        names = self._names
        if names is None:
            names = self._names = {}
        elif path in names:
            return names[path]
        value: Any = self.state
        for key in path:
            if value.__class__ is dict:
                value = value.get(key)
            else:
                value = None
                break
        names[path] = value
        return value


def _fields(record: Mapping[str, Any] | None, path: tuple[str, ...]) -> Any:
    value: Any = record
    for key in path[1:]:
        value = value.get(key) if value.__class__ is dict or isinstance(value, Mapping) else None
    return value


def _seat_record(scope: Scope, seat: int | None) -> Mapping[str, Any] | None:
    return scope.match.players[seat] if seat is not None else None


def _answer(scope: Scope, path: tuple[str, ...]) -> Any:
    player_id = scope.player.get("id")
    if not isinstance(player_id, int):
        return None
    return scope.outcome.answers.get(player_id - 1)


_SPECIAL: dict[str, Callable[[Scope, tuple[str, ...]], Any]] = {
    "choice": lambda scope, path: scope.outcome.choice if len(path) == 1 else None,
    "actor": lambda scope, path: _fields(_seat_record(scope, scope.outcome.actor), path),
    "chosen": lambda scope, path: _fields(_seat_record(scope, scope.outcome.chosen), path),
    "picked": lambda scope, path: list(scope.outcome.picked) if len(path) == 1 else None,
    "asked": lambda scope, path: scope.outcome.asked if len(path) == 1 else None,
    "answer": _answer,
    "me": lambda scope, path: _fields(scope.me, path),
    "item": lambda scope, path: scope.item if len(path) == 1 else None,
    "player_count": lambda scope, path: len(scope.match.players) if len(path) == 1 else None,
    "players": lambda scope, path: scope.match.players if len(path) == 1 else None,
}
