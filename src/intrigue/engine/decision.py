"""An open decision of a match: who must answer, with which options (its own module so that the
generated phase runners, which open plain decisions themselves, may build one: ``compiled`` is
imported by ``match``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar


class _Extras:
    """Gives a :class:`Decision` an instance dict beside its slots: what only some decisions have
    (``secret``, ``cover``, ``named``, a timer's fields...) overrides the class's common value there."""


@dataclass(slots=True)  # the fields every decision has in slots: made and read without a dict
class Decision(_Extras):
    """An open ``player_action`` completion: who must answer, with which options.

    A *secret* decision (the phase or one of its options is declared ``secret``)
    answers nobody automatically, and everyone in ``cover`` appears to act until
    it closes; ``acks`` are the seats of the cover that do not act and are only
    offered the acknowledgement. ``partners`` see each other's answers as they are
    given (a joint choice). ``named`` maps an option to the seats it names (a
    player, or several chosen together); ``picks`` says, per seat, how many of
    which players it picks. A *timed* decision (a ``timer`` phase) has ``clock``
    seconds: it closes when they run out (``timed_out``) or, with options, early
    as ``ends_early`` says.
    """

    phase_id: int
    wait_for: str
    offers: dict[int, list[str]] = field(default_factory=dict)
    closing: dict[int, frozenset[str]] = field(default_factory=dict)
    manual: set[int] | frozenset[int] = field(default_factory=set)
    answers: dict[int, str] = field(default_factory=dict)
    closed_by: int | None = None
    opened_at: int = 0
    # What only some decisions have is set on those (the class holds the common value), so that
    # the decisions of every game stay as cheap to make as they were.
    secret: ClassVar[bool] = False
    cover: ClassVar[tuple[int, ...]] = ()
    acks: ClassVar[frozenset[int]] = frozenset()
    partners: ClassVar[frozenset[int]] = frozenset()
    named: ClassVar[dict[str, tuple[int, ...]] | None] = None
    picks: ClassVar[dict[int, tuple[int, tuple[int, ...]]] | None] = None
    outcome: ClassVar[Any] = None  # the Outcome statements read, computed once it is closed
    #: Whether a seat with a single option is answered by the engine (not in secret or timed decisions).
    automatic: ClassVar[bool] = True
    clock: ClassVar[float | None] = None

    @property
    def pending(self) -> list[int]:
        if self.closed_by is not None:
            return []
        answers = self.answers
        if not answers:
            return list(self.offers)
        return [seat for seat in self.offers if seat not in answers]

    @property
    def complete(self) -> bool:
        if self.closed_by is not None:
            return True
        answers = self.answers
        for seat in self.offers:
            if seat not in answers:
                return False
        return True

    def waits_for(self, seat: int) -> bool:
        """``seat in self.pending``, without building the list."""
        return self.closed_by is None and seat in self.offers and seat not in self.answers

    def who_chose(self, *options: str) -> list[int]:
        return [seat for seat, answer in self.answers.items() if answer in options]

    def answer_of(self, seat: int) -> str | None:
        return self.answers.get(seat)

    def copy(self) -> "Decision":
        other = object.__new__(self.__class__)
        other.__dict__.update(self.__dict__)
        other.phase_id, other.wait_for, other.closed_by, other.opened_at = \
            self.phase_id, self.wait_for, self.closed_by, self.opened_at
        other.offers = {s: list(o) for s, o in self.offers.items()}
        other.closing = dict(self.closing)
        other.manual = set(self.manual)
        other.answers = dict(self.answers)
        other.__dict__.pop("outcome", None)
        return other

    @property
    def closer(self) -> tuple[int, str] | None:
        if self.closed_by is None:
            return None
        return self.closed_by, self.answers[self.closed_by]


@dataclass
class TimedDecision(Decision):
    """A ``timer`` phase waiting for its clock: it closes when ``clock`` seconds run out
    (``timed_out``) or, when it offers options, early as ``ends_early`` says (all, any or a
    majority of the players asked have answered). Nobody is answered automatically."""

    clock: float | None = 0.0  # type: ignore[misc]
    ends_early: str = "all"
    timed_out: bool = False
    #: The value of the phase's ``clock`` (as JSON text): timer phases of one value share ``clock`` seconds.
    clock_key: str | None = None
    automatic: ClassVar[bool] = False

    @property
    def pending(self) -> list[int]:
        if self.complete:
            return []
        return [seat for seat in self.offers if seat not in self.answers]

    def waits_for(self, seat: int) -> bool:
        return seat in self.pending

    @property
    def complete(self) -> bool:
        if self.timed_out:
            return True
        if not self.offers:
            return False
        answered, asked = len(self.answers), len(self.offers)
        acks = self.acks
        if acks and self.ends_early != "all":  # an acknowledgement is no answer: it never ends the clock
            answered = sum(1 for seat in self.answers if seat not in acks)
            asked -= len(acks)
        if self.ends_early == "any":
            return answered > 0
        if self.ends_early == "majority":
            return answered * 2 > asked
        return answered == asked
