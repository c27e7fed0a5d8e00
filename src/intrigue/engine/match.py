"""A match: the DSL's phase machine, driven only by choices.

A :class:`Match` is fully determined by (game, player names, seed, options, setup,
accepted choices). It does no I/O and reads no clock; all chance comes from
``self.rng``. Everything that leaves it goes through :meth:`Match.observe`.
"""

from __future__ import annotations

import copy
import json
import marshal
import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from ..dsl.codegen import build
from .compiled import OPENED, PHASE_START, START_NAMES, start_lines
from .decision import Decision, TimedDecision
from .declarative import offer_declared_options
from .errors import EngineError, Refused, RuleError, rule_error
from .game import Game
from .observe import observe as _observe
from .observe import observe_seats as _observe_seats
from .scope import Scope
from .ui import PUBLIC, Audience, Canvas

#: How many phases may pass without a decision before we call it a loop.
MAX_PHASES_WITHOUT_DECISION = 5_000
#: What a phase has offered before its first offer (never changed: ``offer`` makes new ones; a decision
#: none of whose options closes it keeps this one).
_NO_CLOSING: dict[int, frozenset[str]] = PHASE_START["_closing"]
_NO_SEATS: frozenset[int] = PHASE_START["_manual"]
_NOT_STANDING: frozenset[int] = PHASE_START["_standing"]
#: A shuffle's steps by the pile's length: (i, i + 1, its bit length) for i from the top down.
_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}
#: Tuples of options offered before that held each option once (a rules module's shared menus).
_DISTINCT: set[tuple[str, ...]] = set()


@dataclass(slots=True)
class Choice:
    """An accepted choice, as the log keeps it (slots: a match keeps every one)."""

    seat: int
    option: str
    version: int

    def as_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "option": self.option, "version": self.version}


@dataclass
class Event:
    """A line of the game log, with who may read it."""

    version: int
    text: str
    audience: Audience = PUBLIC
    data: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def later(cls, version: int, render: Callable[..., str], args: tuple[Any, ...], audience: Audience,
              data: dict[str, Any] | tuple[Any, ...] | None) -> "Event":
        """A line whose ``text`` is ``render(*args)``, written when first read: headless runs
        (simulation, search, training) never read most lines. ``args`` must not change afterwards.
        ``data`` given as a tuple ``(make, *values)`` is ``make(*values)``, made here (when the
        log is read), not by the rules as they play."""
        event = cls.__new__(cls)
        if data is None:
            data = {}
        elif data.__class__ is tuple:
            data = data[0](*data[1:])
        event.__dict__ = {"version": version, "audience": audience, "data": data,
                          "_render": render, "_inputs": args}
        return event

    def __getattr__(self, name: str) -> Any:
        """``text`` of a line made by :meth:`later`, and ``entry``: the line as an observation carries
        it (data keys starting with ``_`` stay private). Each is built when first read (headless runs
        never read them), then an attribute like any other, shared by every observation: read-only."""
        if name == "text":
            attributes = self.__dict__
            render = attributes.get("_render")
            if render is None:  # not a later line, or another thread has just written it
                if "text" in attributes:
                    return attributes["text"]
                raise AttributeError(name)
            text = render(*attributes["_inputs"])
            attributes["text"] = text  # before the inputs go: a thread reading meanwhile finds one or the other
            attributes.pop("_render", None)
            attributes.pop("_inputs", None)
            return text
        if name != "entry":
            raise AttributeError(name)
        entry = {"version": self.version, "text": self.text}
        data = self.data
        for key in data:
            if key.startswith("_"):
                entry.update({key: value for key, value in data.items() if not key.startswith("_")})
                break
        else:
            entry.update(data)  # (most lines: nothing private to leave out)
        self.__dict__["entry"] = entry
        return entry


#: The pseudo-seat of the clock: ``choose(CLOCK, TIME_UP)`` says a timer phase ran out of time.
CLOCK = -1
#: Where a match counts the numbers of a scenario's ``setup.rolls`` its dice have used.
ROLLED = "_rolled"
TIME_UP = "(time is up)"


class _NullCanvas(Canvas):
    """Headless matches (simulation, search) skip building UI components."""

    def show(self, kind: str, audience: Audience = PUBLIC, key: str | None = None, **props: Any) -> str:
        return key or kind

    def copy(self) -> "_NullCanvas":
        return self

    def clear(self, keep: Iterable[str] = ()) -> None:
        return None

    def delete(self, key: str) -> None:
        return None

    def begin_phase(self) -> None:
        return None

    def visible(self, match: "Match", seat: int | None) -> list[dict[str, Any]]:
        return []


#: The most (names, options) pairs whose check a game remembers (``_checked_options``).
_CHECKED_LIMIT = 1_000


def _checked_options(game: Game, names: list[str], options: Mapping[str, Any] | None) -> dict[str, Any]:
    """A new match's options (the game's defaults, updated), after checking them and the names: raise
    ValueError if the game refuses them. The answer for the same names and options is remembered by the
    game (a simulation starts thousands of matches alike): the checks read only the game and them."""
    try:
        key: Any = (tuple(names), tuple(options.items()) if options else ())
        checked = game.__dict__.setdefault("_checked_options", {})  # (no field: a replaced game checks again)
        found = checked.get(key)
    except TypeError:  # an option's value that is no key (a list): checked every time
        key = found = None
    if found is not None:
        return dict(found)
    if not game.min_players <= len(names) <= game.max_players:
        raise ValueError(f"{game.title} takes {game.min_players} to {game.max_players} players, "
                         f"not {len(names)}")
    if len(set(names)) != len(names):
        raise ValueError("player names must be distinct")
    if options:
        unknown = set(options) - set(game.binding.options)
        if unknown:
            raise ValueError(f"unknown option(s) for {game.id}: {', '.join(sorted(unknown))}")
    values = game.option_defaults()
    if options:
        values.update(options)
    refused = game.binding.option_check(values, len(names)) if game.binding.option_check else []
    if refused:
        raise ValueError(f"{game.title}: " + "; ".join(refused))
    if key is not None and len(checked) < _CHECKED_LIMIT:
        checked[key] = dict(values)
    return values


#: A match's fields: slots (see :class:`Match`), all set by ``__init__``.
_FIELDS = ("game", "names", "seed", "options", "setup", "headless", "timers", "_rng", "_rng_state", "players",
           "state", "canvas", "_events", "_later", "_log", "_choices", "version", "decisions", "phase_id",
           "decision", "last_decision", "over", "winners", "_targets", "current_action_text", "_offers",
           "_closing", "_manual", "_named", "_picks", "_standing", "_resume", "_stage", "_answered", "_single",
           "_plan", "_machine", "_log_tail")
#: The fields ``clone`` copies into objects of the copy's own; it shares every other field's value.
_COPIED = ("_rng", "_rng_state", "players", "state", "canvas", "_events", "_later", "_log", "_choices",
           "decision", "winners", "_targets", "setup")
#: ``share(source, other)``: the fields ``clone`` shares, stored one by one (slots have no ``__dict__``
#: to update at once).
_share = build("def share(source, other):\n" + "".join(
    f"    other.{name} = source.{name}\n" for name in _FIELDS if name not in _COPIED), {}, "share")
#: ``start_phase(match)``: what a phase starts with (:data:`PHASE_START`), one store each.
_start_phase = build("def start_phase(match):\n" + "\n".join(start_lines("    ", every=True)) + "\n",
                     dict(START_NAMES), "start_phase")
#: The canvas of every headless match: it keeps nothing, so one serves all.
_NULL_CANVAS = _NullCanvas()


class Match:
    """One game being played. See the module docstring.

    Its fields are slots: the engine, the generated runners and the rules read and write dozens of them
    a decision, and CPython 3.11 keeps more than 30 attributes in a dict, read by hashed lookup; a slot
    is read at a fixed offset. The instance's ``__dict__`` holds what other layers add."""

    __slots__ = _FIELDS + ("__dict__", "__weakref__")

    def __init__(self, game: Game, players: list[str], seed: int | str = 0,
                 options: Mapping[str, Any] | None = None, setup: Mapping[str, Any] | None = None,
                 headless: bool = False, timers: bool | None = None):
        self.game = game
        self.names = list(players)
        self.seed = seed
        self.options = _checked_options(game, self.names, options)
        self.setup: dict[str, Any] = dict(setup or {})
        self.headless = headless
        #: Whether a ``timer`` phase waits for its clock (``choose(CLOCK, TIME_UP)``); without
        #: timers (headless runs by default) it ends at once.
        self.timers = (not headless) if timers is None else timers
        self._rng = random.Random(seed)  # (what the ``rng`` setter stores; a subclass's ``rng`` may ignore it)
        self._rng_state = None
        make = game.blank_player
        if make is None:  # a new player's declared fields, made by a generated function: once per game
            make = game.blank_player = _player_maker(_player_template(game))
        self.players: list[dict[str, Any]] = [make(name, seat + 1) for seat, name in enumerate(self.names)]
        make = game.blank_state
        if make is None:  # the declared state likewise
            make = game.blank_state = _blank_maker(game.binding.state)
        self.state: dict[str, Any] = make()
        self.canvas: Canvas = _NULL_CANVAS if headless else Canvas()
        self._events: list[Event] = []
        self._later: list[tuple[Any, ...]] = []  # lines announced later, not yet made Events (see ``events``)
        self._log: list[Choice] = []
        self._choices: list[tuple[int, str, int]] = []  # accepted choices not yet made Choices (see ``log``)
        self.version = 0
        self.decisions = 0
        self.phase_id = game.first_phase
        self.decision: Decision | None = None
        self.last_decision: Decision | None = None
        self.over = False
        self.winners: list[int] = []
        self.current_action_text: str | None = None
        self._answered: Decision | None = None  # the decision the engine last answered single options in
        self._log_tail: tuple[Any, ...] | None = None  # the log's last lines as views show them (``observe``)
        #: What the phase loop runs with (the game's, never replaced: a test may replace a tool in its table).
        self._machine = (game.plans, game.headless_tools if headless else game.tools, game.binding.routers, headless)
        self._enter(self.phase_id)
        self._settle()

    @property
    def rng(self) -> random.Random:
        """The match's only source of chance. Handing it out forgets the cached state ``clone`` reads.

        A clone's generator is made from that state when first asked for (many playouts never draw)."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random.__new__(random.Random)
            rng.setstate(self._rng_state)
        self._rng_state = None
        return rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value
        self._rng_state = None

    @property
    def events(self) -> list[Event]:
        """The log lines, oldest first. A line added by :meth:`announce_later` is kept as a tuple of
        its inputs until the log is first read after it (headless runs never read it), then made an
        :class:`Event` once, here, in the order the lines were added. A match is used by one thread
        at a time (as for every other change to it)."""
        later = self._later
        if later:
            events = self._events
            make = Event.later
            for line in later:
                events.append(make(*line))
            later.clear()
        return self._events

    @events.setter
    def events(self, lines: list[Event]) -> None:
        self._events = lines
        self._later = []

    @property
    def log(self) -> list[Choice]:
        """The accepted choices, oldest first. ``choose`` keeps each as a tuple until the log is first
        read after it (random play and search never read it), then it becomes a :class:`Choice` here."""
        later = self._choices
        if later:
            log = self._log
            for seat, option, version in later:
                log.append(Choice(seat, option, version))
            later.clear()
        return self._log

    @log.setter
    def log(self, choices: list[Choice]) -> None:
        self._log = choices
        self._choices = []

    def _new_player(self, seat: int) -> dict[str, Any]:
        """A player of ``seat`` as the match started it (the declared fields, its name and id)."""
        return self.game.blank_player(self.names[seat], seat + 1)  # (made by the first match of the game)

    # -- the public API -----------------------------------------------------
    @property
    def phase(self):  # noqa: ANN201 - a dsl.model.Phase
        return self._plan.phase

    @property
    def targets(self) -> list[int]:
        """The seats ``target_players.condition`` selects in this phase.

        Evaluated when first needed in the phase, so tools that run before the
        prompt (recording who blocked, say) are seen by the condition. Until then
        ``last_decision`` is the previous phase's; afterwards it is this phase's.
        """
        targets = self._targets
        if targets is None:
            plan = self._plan
            condition = plan.condition
            if condition is None:
                targets = []
            else:
                select = plan.select
                targets = select(self) if select is not None else self.seats_where(condition)
                if not targets and self._stage == "before":
                    # Nobody to ask: the phase completes as if everyone passed, and
                    # the tools after the prompt see an empty decision.
                    self.last_decision = Decision(self.phase_id, plan.wait_for)
            self._targets = targets
        return targets

    @property
    def pending(self) -> list[int]:
        return self.decision.pending if self.decision else []

    @property
    def clock(self) -> float | None:
        """The seconds of the timer phase the match waits in, if it waits for its clock."""
        decision = self.decision
        return decision.clock if decision is not None and not decision.complete else None

    def legal(self, seat: int) -> list[str]:
        """The options ``seat`` may choose now (empty if it is not pending)."""
        if self.decision is None or not self.decision.waits_for(seat):
            return []
        return list(self.decision.offers[seat])

    def seat_of(self, name: str) -> int:
        try:
            return self.names.index(name)
        except ValueError:
            raise Refused("unknown_seat", f"there is no player named {name!r}") from None

    def choose(self, seat: int, option: str, version: int | None = None) -> None:
        """Apply a choice, or raise :class:`Refused` and change nothing."""
        decision = self.decision
        # What check() accepts, in the common case (an open plain decision, a seat it waits for, an
        # option offered to it), tested inline; anything else goes through check() itself.
        if version is not None or decision is None or decision.__class__ is not Decision \
                or seat.__class__ is not int or self.over or decision.closed_by is not None \
                or seat in decision.answers or option not in decision.offers.get(seat, ()):
            self.check(seat, option, version)
            assert decision is not None
            if seat == CLOCK:  # (never offered: only check() lets the clock through)
                self._choices.append((seat, option, self.version))
                self.version += 1
                decision.timed_out = True
                self._settle()
                return
        self.choose_offered(seat, option)

    def choose_offered(self, seat: int, option: str) -> None:
        """:meth:`choose` after its checks, for a driver whose pick is always one of ``legal(seat)`` of
        a pending seat (``random_play``, a search's playouts): nothing is checked, so anything else
        breaks the match. What a person or a program sends goes through :meth:`choose`."""
        decision = self.decision
        self._choices.append((seat, option, self.version))  # a Choice once the log is read
        self.version += 1
        answers = decision.answers
        answers[seat] = option
        closing = decision.closing
        if closing and option in closing.get(seat, ()):
            decision.closed_by = seat
        elif decision.__class__ is Decision and self._answered is decision:
            # Its single options were answered, and every answer is a seat it offers to: it is complete
            # once as many seats have answered as it offers to.
            if len(answers) < len(decision.offers):
                return  # others still to answer: nothing to run
            self._settle(decision)
            return
        self._settle()

    def _current(self, version: Any) -> bool:
        """A command issued from a view of the open decision is current.

        In a simultaneous window everyone answers the same decision: a Pass sent
        while another player's Pass was landing must not be refused. Anything
        issued before the decision opened (a replayed command) is stale.
        """
        if not isinstance(version, int) or isinstance(version, bool):
            return False
        decision = self.decision
        opened = decision.opened_at if decision is not None else self.version
        if decision is not None and decision.secret:
            # Nobody is told how many have answered a secret decision, so no version it may reach
            # (one answer per seat of its cover) is refused: the refusal would tell.
            return opened <= version <= max(self.version, opened + len(decision.cover) - 1)
        return opened <= version <= self.version

    def check(self, seat: int, option: str, version: int | None = None) -> None:
        """Raise :class:`Refused` if ``choose(seat, option, version)`` would be refused."""
        if self.over:
            raise Refused("over", "the match is over")
        if version is not None and not self._current(version):
            if self.decision is not None and self.decision.secret:  # (its answers so far are not told)
                raise Refused("stale_version", f"version {version} is stale: the open decision opened at "
                                               f"version {self.decision.opened_at}")
            raise Refused("stale_version", f"version {version} is stale: the match is at version {self.version}")
        if seat == CLOCK and option == TIME_UP and self.decision is not None and self.decision.clock is not None \
                and not self.decision.complete:
            return  # the clock's move: the timer phase's time is up
        if not isinstance(seat, int) or not 0 <= seat < len(self.names):
            raise Refused("unknown_seat", f"there is no seat {seat!r}")
        decision = self.decision
        if decision is None or not decision.waits_for(seat):
            pending = self.pending
            if decision is not None and decision.secret:  # as its view says: who could act, not who does
                pending = [s for s in decision.cover if s != seat or s in pending]
            waiting = ", ".join(self.names[s] for s in pending) or "nobody"
            raise Refused("not_pending", f"{self.names[seat]} has no choice to make now (waiting for {waiting})")
        if option not in decision.offers[seat]:
            offered = ", ".join(decision.offers[seat])
            raise Refused("not_offered",
                          f"{option!r} is not an option for {self.names[seat]} now (offered: {offered})")

    def clone(self) -> "Match":
        """An independent copy (for search bots); cheap enough to call per decision."""
        other = Match.__new__(Match)
        _share(self, other)
        added = self.__dict__  # (what other layers set on it)
        if added:
            other.__dict__.update(added)
        # The generator's state is read once while nobody draws from it (a search clones one match
        # many times): the state is cached until the generator is next handed out.
        state = self._rng_state if self.__class__ is Match else None
        if state is None:
            state = self.rng.getstate()
            self._rng_state = state
        other._rng = None  # made from the state when first asked for (see ``rng``)
        other._rng_state = state
        other.players, other.state = copy_state(self.players, self.state)
        other.canvas = self.canvas.copy()
        other._events, other._later = list(self._events), list(self._later)  # lines not yet read stay tuples
        other._log, other._choices = list(self._log), list(self._choices)  # (each copy makes its own objects)
        other.decision = self.decision.copy() if self.decision is not None else None
        other.winners = list(self.winners)
        other._targets = list(self._targets) if self._targets is not None else None
        other.setup = dict(self.setup)
        return other

    def observe(self, seat: int | None, *, log: bool = True, brief: bool = False) -> dict[str, Any]:
        return _observe(self, seat, log, brief)

    def observe_seats(self, seats: list[int | None]) -> list[dict[str, Any]]:
        """``[self.observe(seat) for seat in seats]``, what the views share built once (read-only)."""
        return _observe_seats(self, seats)

    # -- helpers for rules modules --------------------------------------------
    def offer(self, seat: int, options: Iterable[str], *, closing: Iterable[str] = (),
              auto: bool = True, standing: bool = False) -> None:
        """Offer ``options`` to ``seat`` in the current ``player_action`` phase.

        ``closing`` options end the window for everyone at once (the first
        ``Challenge``). ``auto=False`` keeps a single option from being taken
        automatically (a response prompt must not reveal that a hand is empty).
        ``standing=True`` is an out-of-turn offer beside the decision's own
        chooser (BANG!'s Sid Ketchum may heal while another player chooses): it
        does not count as a second chooser of a ``single_player_choice``; the
        game makes the chooser's options closing, so nobody waits for it.
        """
        offers = self._offers
        if offers is None:  # (``_closing`` stays the shared empty map until a closing option is offered)
            offers = self._offers = {}
            self._manual = _NO_SEATS  # made a set of its own by the first auto=False (rare)
        unique = list(options)
        count = len(unique)
        if count > 2 and (options.__class__ is not tuple or options not in _DISTINCT):
            unique = list(dict.fromkeys(unique))  # each option once, in order
            if len(unique) == count and options.__class__ is tuple and len(_DISTINCT) < 20_000:
                _DISTINCT.add(options)  # a tuple seen to hold each option once (a rules module's shared menu)
            count = len(unique)
        elif count == 2 and unique[0] == unique[1]:
            del unique[1]
            count = 1
        if count:
            offers[seat] = unique
            if closing:  # read as closing.get(seat, ()): a seat without closing options needs no entry
                closes = self._closing
                if closes is _NO_CLOSING:
                    closes = self._closing = {}
                closes[seat] = closing if closing.__class__ is frozenset else frozenset(closing)
            if count == 1:
                self._single = True
            if not auto:
                self._manual = self._manual | {seat}
            if standing:
                self._standing = self._standing | {seat}

    def offer_all(self, seats: Iterable[int], options: Iterable[str], *, closing: Iterable[str] = (),
                  auto: bool = True) -> None:
        """``offer(seat, options, closing=closing, auto=auto)`` for each of ``seats`` in order (a window
        everyone answers: Challenge or Pass), with the options checked once instead of once per seat."""
        seats = seats if seats.__class__ is list or seats.__class__ is tuple else list(seats)
        if not seats:
            return
        offers = self._offers
        if offers is None:
            offers = self._offers = {}
            self._manual = _NO_SEATS
        unique = list(options)
        count = len(unique)
        if count > 2 and (options.__class__ is not tuple or options not in _DISTINCT):
            unique = list(dict.fromkeys(unique))
            if len(unique) == count and options.__class__ is tuple and len(_DISTINCT) < 20_000:
                _DISTINCT.add(options)
            count = len(unique)
        elif count == 2 and unique[0] == unique[1]:
            del unique[1]
            count = 1
        if not count:
            return
        if closing:
            closes = self._closing
            if closes is _NO_CLOSING:
                closes = self._closing = {}
            frozen = closing if closing.__class__ is frozenset else frozenset(closing)
            for seat in seats:
                offers[seat] = list(unique)  # each seat its own list, as offer() makes it
                closes[seat] = frozen
        else:
            for seat in seats:
                offers[seat] = list(unique)
        if count == 1:
            self._single = True
        if not auto:
            self._manual = self._manual | set(seats)

    def announce(self, text: str, audience: Audience = PUBLIC, **data: Any) -> None:
        if self._later:
            self.events  # noqa: B018 - the lines announced later become Events first: the log keeps its order
        self._events.append(Event(self.version, text, audience, data))

    def announce_later(self, render: Callable[..., str], inputs: tuple[Any, ...], audience: Audience = PUBLIC,
                       data: dict[str, Any] | tuple[Any, ...] | None = None) -> None:
        """:meth:`announce` of the line ``render(*inputs)``, written only when someone reads it
        (``inputs`` must not change afterwards); ``data`` becomes the event's own. Not even the
        :class:`Event` is made until the log is read (:attr:`events`). ``data`` may be a tuple
        ``(make, *values)`` (the values must not change either): the event's data is then
        ``make(*values)``, built only if the log is read, as the text is (a headless run saves
        building a dict for each line)."""
        self._later.append((self.version, render, inputs, audience, data))  # (None: the Event makes its {})

    def finish(self, winners: Iterable[int]) -> None:
        self.winners = sorted(set(winners))

    def scope(self, seat: int | None) -> Scope:
        return Scope(self, self.players[seat] if seat is not None else None)

    def evaluate(self, expression: Any, seat: int | None) -> Any:
        return expression(self.scope(seat))

    def seats_where(self, expression: Any) -> list[int]:
        scope = Scope(self)
        test = getattr(expression, "evaluate", expression)
        chosen = []
        for seat, player in enumerate(self.players):
            scope.player = player
            if test(scope):
                chosen.append(seat)
        return chosen

    def active_player_name(self) -> str | None:
        finder = self.game.binding.active_seat
        seat = finder(self) if finder else next(
            (s for s, p in enumerate(self.players) if p.get("is_active")), None)
        return self.names[seat] if seat is not None else None

    def alive(self, seat: int) -> bool:
        return bool(self.players[seat].get("is_alive", True))

    def shuffle(self, pile: list[Any]) -> None:
        """Shuffle a pile with the match's RNG (a scenario may freeze its order).

        For the standard generator this is ``random.Random.shuffle`` written out (the same draws of
        ``getrandbits``, the same swaps: the same order), without a call per card."""
        if self.setup.get("shuffle", True) is False:
            return
        rng = self.rng
        if rng.__class__ is not random.Random:
            rng.shuffle(pile)
            return
        getrandbits = rng.getrandbits
        steps = _SHUFFLE_STEPS.get(len(pile))
        if steps is None:
            steps = tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(pile) - 1, 0, -1))
            if len(pile) <= 1_000:
                _SHUFFLE_STEPS[len(pile)] = steps
        for i, below, bits in steps:  # Random._randbelow_with_getrandbits(i + 1), inline
            j = getrandbits(bits)
            while j >= below:
                j = getrandbits(bits)
            pile[i], pile[j] = pile[j], pile[i]

    def roll(self, sides: int) -> int:
        """One die of ``sides`` faces, rolled with the match's RNG; a scenario's ``setup.rolls``
        gives the first numbers rolled, in order (then the dice are random again)."""
        fixed = self.setup.get("rolls") or ()
        used = self.state.get(ROLLED, 0)
        if used < len(fixed):
            self.state[ROLLED] = used + 1
            value = fixed[used]
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
                raise EngineError(f"setup.rolls[{used + 1}] is {value!r}, not a roll of a die of {sides} faces")
            return value
        return self.rng.randrange(sides) + 1  # randrange: a chance node under OpenSpiel (env/chance.py)

    @property
    def turn_timeout_default(self) -> Any:
        return self.game.binding.timeout_choice

    # -- the phase machine ------------------------------------------------------
    def _enter(self, phase_id: int) -> None:
        plan = self.game.plans.get(phase_id)
        if plan is None:
            raise EngineError(f"phase {phase_id} does not exist")
        self.phase_id = phase_id
        self._plan = plan
        self.canvas.begin_phase()
        _start_phase(self)

    def _offered_nothing(self, plan: Any) -> bool:
        """A deciding phase whose steps offered nothing: the DSL's own options, a clock, or an empty
        target set (then the phase goes on at once). True when a decision was opened."""
        seconds = plan.seconds
        if seconds is not None:
            return self._open_clock(seconds if seconds.__class__ is float else self._length(seconds))
        offer_declared_options(self)
        if self._offers or (plan.secret and self._cover_of_nobody()):
            self._open_decision()  # a secret phase nobody acts in still takes its time
            return True
        if self.targets:
            raise EngineError(f"phase {self.phase_id} ({plan.phase.name}): no option was offered to "
                              f"{', '.join(self.names[s] for s in self.targets)}")
        self.last_decision = Decision(self.phase_id, plan.wait_for)
        return False

    def _length(self, seconds: Any) -> float:
        """A timer phase's ``seconds`` written as an expression, read as the phase opens."""
        value = seconds(Scope(self))
        if value.__class__ not in (int, float) or not value > 0:
            raise ValueError(f"'seconds' ({seconds.text!r}) is {value!r} here: a timer phase waits a "
                             "number of seconds above 0")
        return float(value)

    def _open_clock(self, seconds: float) -> bool:
        """A timer phase: wait for the clock (and the early-end answers it declares), unless the
        match runs without timers: then it ends at once, as if its time had run out."""
        options = bool(self.phase.completion_criteria.options)
        if not self.timers:
            if options:
                self.last_decision = TimedDecision(self.phase_id, "timer", clock=seconds, timed_out=True)
            return False
        if options:
            offer_declared_options(self)
        self._open_decision(clock=seconds)
        return True

    def _open_decision(self, clock: float | None = None) -> None:
        plan = self._plan
        offers = self._offers
        if offers is None:  # nobody was offered anything (a secret phase still waits for its cover)
            self._offers = offers = {}
            self._closing, self._manual = {}, _NO_SEATS
        if plan.wait_for == "single_player_choice" and len(offers) > 1 \
                and len([seat for seat in offers if seat not in self._standing]) > 1:
            raise EngineError(f"phase {self.phase_id} ({self.phase.name}) is a single_player_choice "
                              f"but options were offered to {len(offers)} players")
        players = self.players
        for seat in offers:
            if players[seat].get("is_alive") is False:
                raise EngineError(f"phase {self.phase_id}: options offered to {self.names[seat]}, who is out")
        if clock is None:
            # The phase's own offer maps become the decision's: nothing offers after it opens.
            decision = Decision.__new__(Decision)
            decision.phase_id = self.phase_id
            decision.wait_for = plan.wait_for
            decision.offers = offers
            decision.closing = self._closing
            decision.manual = self._manual
            decision.answers = {}
            decision.closed_by = None
            decision.opened_at = self.version
        else:
            decision = TimedDecision(self.phase_id, "timer", offers, opened_at=self.version, clock=clock,
                                     ends_early=plan.phase.completion_criteria.ends_early or "all")
            if plan.clock is not None:
                decision.clock_key = json.dumps(plan.clock(self.scope(None)), sort_keys=True, default=str)
        if self._named is not None:
            decision.named = self._named  # type: ignore[misc]
        if self._picks is not None:
            decision.picks = self._picks  # type: ignore[misc]
        if plan.secret:
            self._hide_actors(decision)
        if plan.joint is not None:
            decision.partners = frozenset(seat for seat in offers  # type: ignore[misc]
                                          if seat not in decision.acks and plan.joint(self.scope(seat)))
        self.decision = decision
        if not self._single:  # nobody has a single option: nothing to answer for anyone
            self._answered = decision
        self._stage = "deciding"
        self.decisions += 1

    def _cover_of_nobody(self) -> bool:
        """Whether a secret phase whose role nobody holds has a cover to wait for."""
        return self._plan.cover is not None and bool(self.seats_where(self._plan.cover))

    def _hide_actors(self, decision: Decision) -> None:
        """A secret decision: everyone in the cover appears to act until it closes. Those who do not
        act are offered the acknowledgement; nobody is answered automatically."""
        plan = self._plan
        offers = decision.offers
        if plan.cover is not None:
            cover = self.seats_where(plan.cover)
        else:  # a secret option: every player asked, offered something or not, appears to act
            players = self.players
            cover = sorted({*offers, *(seat for seat in self.targets if players[seat].get("is_alive") is not False)})
        outside = [self.names[seat] for seat in offers if seat not in cover]
        if outside:
            raise EngineError(f"phase {self.phase_id} ({self.phase.name}) is secret, but "
                              f"{', '.join(outside)} act(s) outside its cover")
        decision.offers = {seat: offers.get(seat) or [plan.acknowledge] for seat in cover}
        decision.acks = frozenset(seat for seat in cover if seat not in offers)  # type: ignore[misc]
        decision.cover = tuple(cover)  # type: ignore[misc]
        decision.secret = True  # type: ignore[misc]
        decision.automatic = False  # type: ignore[misc] - a secret decision answers nobody by itself

    def _auto_answer(self) -> None:
        """A seat with a single option is answered at once (never in a secret decision, which tells
        nothing by answering for anyone, nor in a timer phase, which waits)."""
        decision = self.decision
        assert decision is not None
        answers, manual, closing = decision.answers, decision.manual, decision.closing
        for seat, options in decision.offers.items():
            if decision.closed_by is not None:
                return
            if len(options) == 1 and seat not in answers and seat not in manual:
                answers[seat] = options[0]
                if options[0] in closing.get(seat, ()):
                    decision.closed_by = seat

    def _settle(self, complete: Decision | None = None) -> None:
        """Run phases until a choice is needed or the match is over.

        ``complete``: the open decision, when the caller knows it is complete and needs no automatic
        answers (``choose``, after its last answer). A failure of the rules is re-raised as
        :class:`RuleError`, naming the file, line and phase.
        """
        budget = MAX_PHASES_WITHOUT_DECISION
        plans, tools, routers, headless = self._machine
        try:
            while not self.over:
                decision = self.decision
                plan = self._plan
                if decision is not None:
                    if decision is not complete:
                        if self._answered is not decision and decision.automatic:
                            # once per decision: its offers never change, so a second pass finds nothing
                            self._auto_answer()
                            self._answered = decision
                        if decision.__class__ is Decision:  # decision.complete, inline
                            if decision.closed_by is None:
                                answers = decision.answers
                                for seat in decision.offers:
                                    if seat not in answers:
                                        return
                        elif not decision.complete:
                            return
                    complete = None  # (a decision opened later is not known complete)
                    self.decision = None
                    self._stage = "after"
                    if decision.__class__ is Decision or decision.clock is None \
                            or plan.phase.completion_criteria.options:  # (a plain Decision has no clock)
                        self.last_decision = decision  # statements read it from now on
                        if plan.record is not None:
                            self._record(decision)
                # The phase's generated runner: its steps, the decision, its effects and the next phase.
                nxt = plan.run_headless(self, tools, routers) if headless else plan.run(self, tools, routers)
                if nxt is OPENED:
                    decision = self.decision
                    if self._answered is decision and decision.__class__ is Decision and decision.offers:
                        return  # a new plain decision nobody is answered in automatically: it waits
                    continue
                if nxt is None:
                    self.over = True
                    self._targets = []
                    return
                # The runner may have entered and run the phases after it: at least plan.passes of them
                # (a fixed chain), more along the routes it enters (those never lead back to it).
                budget -= plan.passes
                if budget <= 0:
                    raise EngineError(f"{MAX_PHASES_WITHOUT_DECISION} phases passed without a decision "
                                      f"(last: {self.phase_id} {self.phase.name})")
                plan = plans.get(nxt)  # self._enter(nxt), inline
                if plan is None:
                    raise EngineError(f"phase {nxt} does not exist")
                self.phase_id = nxt
                self._plan = plan
                if not headless:  # (a headless match's canvas does nothing)
                    self.canvas.begin_phase()
                if self._offers is not None:  # PHASE_START, as plain stores (cheaper than __dict__.update)
                    self._offers = None
                    self._closing = _NO_CLOSING
                    self._manual = _NO_SEATS
                    self._named = None
                    self._picks = None
                    self._standing = _NOT_STANDING
                    self._single = False
                self._targets = None  # QUIET_START
                self._resume = 0
                self._stage = "before"
        except (RuleError, Refused):
            raise
        except Exception as exc:  # noqa: BLE001 - named where it happened
            raise rule_error(exc, self.game.where(("phases", self.phase_id)), self.phase_id,
                             self.phase.name) from exc

    def _record(self, decision: Decision) -> None:
        """``record: <field>``: each player's answer (null for those not asked) in that field."""
        field_name = self._plan.record
        acks = decision.acks
        for seat, player in enumerate(self.players):
            answer = decision.answers.get(seat)
            player[field_name] = answer if seat not in acks else None

    def _refuse_route(self, chosen: Any) -> None:
        plan = self._plan
        allowed = [ref.id for ref in plan.phase.next_phase.values()]
        raise EngineError(f"router of phase {self.phase_id} ({plan.phase.name}) returned {chosen!r}; "
                          f"the DSL allows {allowed}")


def copy_data(value: Any) -> Any:
    """Deep-copy plain data (dicts, lists, scalars) several times faster than ``deepcopy``."""
    kind = value.__class__
    if kind is dict:
        return {key: copy_data(item) if item.__class__ in _CONTAINERS else item
                for key, item in value.items()}
    if kind is list:
        return [copy_data(item) if item.__class__ in _CONTAINERS else item for item in value]
    if kind in _SCALARS:
        return value
    return copy.deepcopy(value)


def copy_state(players: list[dict[str, Any]], state: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A deep copy of a match's players and game state, at once.

    They are plain data, which ``marshal`` copies in C, about twice as fast as :func:`copy_data`
    (objects shared between them stay shared, as in the match copied). Anything ``marshal`` refuses
    (an object of a rules module's own class) falls back to :func:`copy_data`.
    """
    try:
        return marshal.loads(marshal.dumps((players, state)))  # type: ignore[no-any-return]
    except ValueError:
        return [copy_data(player) for player in players], copy_data(state)


def fresh_copy(value: Any) -> Any:
    """A copy of declared plain data (a template) in which nothing is shared, as :func:`copy_data`
    makes it, in C: ``marshal`` format 2 writes every occurrence of an object on its own."""
    try:
        return marshal.loads(marshal.dumps(value, 2))
    except ValueError:
        return copy_data(value)


_CONTAINERS = {dict, list, set, tuple}
_SCALARS = {int, str, float, bool, type(None), tuple, frozenset}


def _player_template(game: Game) -> dict[str, Any]:
    """A new player's fields as the DSL declares them (``name`` and ``id`` are the match's)."""
    declaration = game.definition.declaration
    template: dict[str, Any] = {}
    table = declaration.player_states_template
    rows = (table.player_states or table.players) if table else None
    if rows:
        template = fresh_copy(next(iter(rows.values())))
    else:
        for name, spec in declaration.player_states.items():
            template[name] = _blank(spec.type)
    return template


def _literal(value: Any) -> str:
    """``value`` as a Python literal that makes an equal copy sharing no container with it (plain data
    only: dicts, lists, strings, numbers, booleans, null; anything else raises ValueError)."""
    kind = value.__class__
    if kind is dict:
        return "{" + ", ".join(f"{_literal(key)}: {_literal(item)}" for key, item in value.items()) + "}"
    if kind is list:
        return "[" + ", ".join(_literal(item) for item in value) + "]"
    if value is None or kind is str or kind is int or kind is bool or (kind is float and math.isfinite(value)):
        return repr(value)
    raise ValueError(f"not plain data: {kind.__name__}")


#: The longest literal a blank maker is generated for (a larger template is copied with marshal).
_LITERAL_LIMIT = 100_000


def _blank_maker(value: Any) -> Callable[[], Any]:
    """A function returning a fresh copy of declared plain data (the game's state), sharing nothing: a
    generated ``return <literal>`` (the keys are the code's constants, hashed once, where a copy by
    ``marshal`` makes and hashes every string again), else a copy by ``marshal`` format 2."""
    try:
        literal = _literal(value)
    except (ValueError, RecursionError):
        literal = ""
    if literal and len(literal) <= _LITERAL_LIMIT:
        return build(f"def blank():\n    return {literal}\n", {}, "blank")
    try:
        blob = marshal.dumps(value, 2)  # each occurrence of an object on its own: each load shares nothing
    except ValueError:
        return lambda: copy_data(value)
    return lambda: marshal.loads(blob)


def _player_maker(template: dict[str, Any]) -> Callable[[str, int], dict[str, Any]]:
    """``make(name, id)``: a new player, the declared fields with ``name`` and ``id`` set (where the
    template has them, else added in that order), as :func:`_blank_maker` makes a copy."""
    fields = dict(template)
    fields.setdefault("name", None)
    fields.setdefault("id", None)
    try:
        items = [f"{_literal(key)}: {'name' if key == 'name' else 'id' if key == 'id' else _literal(item)}"
                 for key, item in fields.items()]
    except (ValueError, RecursionError):
        items = []
    source = "{" + ", ".join(items) + "}"
    if items and len(source) <= _LITERAL_LIMIT:
        return build(f"def player(name, id):\n    return {source}\n", {}, "player")
    blank = _blank_maker(template)

    def player(name: str, id: int) -> dict[str, Any]:  # noqa: A002
        made = blank()
        made["name"] = name
        made["id"] = id
        return made
    return player


def _blank(kind: str) -> Any:
    return {"num": 0, "number": 0, "int": 0, "boolean": False, "bool": False, "array": [],
            "list": [], "dict": {}, "object": {}}.get(kind, "")


def replay(game: Game, players: list[str], seed: int | str, options: Mapping[str, Any] | None,
           choices: Iterable[tuple[int, str]], setup: Mapping[str, Any] | None = None,
           headless: bool = False) -> Match:
    """Re-execute a log of choices; the result equals the original match."""
    match = Match(game, players, seed, options, setup, headless=headless)
    for seat, option in choices:
        match.choose(seat, option)
    return match
