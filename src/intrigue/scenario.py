"""Scenario files: scripted matches with expectations (the rules conformance suite).

The format is a public interface, documented in ``docs/scenarios.md``::

    game: coup                  # an installed id, or a game's YAML file (relative to this file)
    players: [Aria, Blake, Casey]
    first: Aria
    seed: 7
    options: {}                 # game options, and the table's timers (turn_timer, window_timer)
    setup: {hands: {...}, coins: {...}, deck: [...], shuffle: false}
    steps:
      - Aria: Tax
      - all: Pass
      - expect: {coins: {Aria: 5}}
      - reject: {Casey: Tax}
      - wait: 15                # the match's own clock moves on: timers that run out fire
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from . import games
from .engine import Game, Match, Refused
from .engine.errors import EngineError
from .engine.timing import TIMER_OPTIONS, MatchClock


class ScenarioError(Exception):
    """The scenario file itself is wrong (not the game); ``key`` is the top-level key at fault."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


KEYS = ("game", "players", "first", "seed", "options", "setup", "steps")  # the format's top-level keys
STEP_KEYS = ("expect", "reject", "all", "wait")


@dataclass
class Failure:
    file: str
    step: int | None
    message: str
    line: int | None = None  # where in the file (known when the scenario was read from one)

    def __str__(self) -> str:
        where = f"step {self.step}: " if self.step is not None else ""
        if self.line is None:
            return f"{self.file}: {where}{self.message}"
        path, _, document = self.file.rpartition("#") if "#" in self.file else (self.file, "", "")
        scenario = f"scenario {document}, " if document else ""
        return f"{path}:{self.line}: {scenario}{where}{self.message}"


@dataclass
class Lines:
    """Line numbers (1-based) of a scenario document: its first line, its top-level keys, its steps."""
    start: int | None = None
    keys: dict[str, int] = field(default_factory=dict)
    steps: list[int] = field(default_factory=list)

    def of_step(self, number: int) -> int | None:
        return self.steps[number - 1] if 0 < number <= len(self.steps) else self.start

    def of_key(self, key: str | None) -> int | None:
        return self.keys.get(key or "", self.start)


def _lines(node: Any) -> Lines:
    lines = Lines(start=node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            lines.keys[str(key.value)] = key.start_mark.line + 1
            if key.value == "steps" and isinstance(value, yaml.SequenceNode):
                lines.steps = [item.start_mark.line + 1 for item in value.value]
    return lines


@dataclass
class Outcome:
    file: str
    failures: list[Failure] = field(default_factory=list)
    match: Match | None = None
    clock: MatchClock | None = None

    @property
    def passed(self) -> bool:
        return not self.failures


def run_file(path: str | Path) -> list[Outcome]:
    """Run one file; a file may hold several scenarios as YAML documents."""
    path = Path(path)
    label = str(path)
    try:
        data = path.read_bytes()
        text = data.decode("utf-8")
        nodes = [n for n in yaml.compose_all(text, Loader=yaml.SafeLoader) if n is not None]
        for node in nodes:
            _check_size(node)
        documents = [d for d in yaml.safe_load_all(text) if d is not None]
    except OSError as exc:
        return [Outcome(label, [Failure(label, None, f"cannot read scenario: {exc}")])]
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return [Outcome(label, [Failure(label, None, f"not UTF-8 text: byte {data[exc.start]:#04x} cannot be "
                                                     "read (save the file as UTF-8)", line)])]
    except yaml.YAMLError as exc:
        return [Outcome(label, [_yaml_failure(label, exc, text)])]
    except ScenarioError as exc:
        return [Outcome(label, [Failure(label, None, str(exc), int(exc.key) if exc.key else None)])]
    if not documents:
        return [Outcome(label, [Failure(label, None, "holds no scenario (the file is empty)")])]
    return [run(document, f"{label}#{i + 1}" if len(documents) > 1 else label, path.parent, _lines(node))
            for i, (document, node) in enumerate(zip(documents, nodes))]


#: The most values a scenario document may hold once its YAML aliases are expanded: a few aliases can
#: stand for billions of values (the "billion laughs"), which the runner would compare one by one.
MAX_VALUES = 100_000


def _check_size(root: yaml.Node) -> None:
    """Refuse a document whose aliases expand past ``MAX_VALUES`` values, or refer to themselves."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in open_nodes:
            raise ScenarioError("a YAML alias refers to the value that contains it", str(node.start_mark.line + 1))
        open_nodes.add(key)
        total = 1
        if isinstance(node, yaml.SequenceNode):
            total += sum(size(item) for item in node.value)
        elif isinstance(node, yaml.MappingNode):
            total += sum(size(k) + size(v) for k, v in node.value)
        open_nodes.discard(key)
        if total > MAX_VALUES:
            raise ScenarioError(f"the YAML aliases here expand to more than {MAX_VALUES:,} values",
                                str(node.start_mark.line + 1))
        sizes[key] = total
        return total

    size(root)


def _yaml_failure(label: str, exc: yaml.YAMLError, text: str = "") -> Failure:
    """A file that is not YAML: the line and column, and what the parser found there."""
    mark = getattr(exc, "problem_mark", None)
    if isinstance(exc, yaml.reader.ReaderError):  # a character YAML does not allow (a NUL, a control code)
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        character = chr(exc.character) if isinstance(exc.character, int) else exc.character
        return Failure(label, None, f"not valid YAML, column {column}: character {character!r} is not "
                                    "allowed in a YAML file", line)
    if mark is None:
        return Failure(label, None, f"not valid YAML: {exc}")
    context = getattr(exc, "context", None)
    problem = getattr(exc, "problem", None) or "syntax error"
    what = f"{problem} ({context})" if context else problem
    return Failure(label, None, f"not valid YAML, column {mark.column + 1}: {what}", mark.line + 1)


def run(scenario: dict[str, Any], label: str = "<scenario>", folder: str | Path | None = None,
        lines: Lines | None = None) -> Outcome:
    """Play one scenario; ``folder`` is where a ``game:`` path is taken from (the file's folder);
    ``lines`` (from the file) puts a line number on each failure."""
    lines = lines or Lines()
    outcome = Outcome(label)
    try:
        match = start(scenario, folder)
    except (ScenarioError, ValueError, KeyError) as exc:
        message = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)  # not KeyError's repr
        key = exc.key if isinstance(exc, ScenarioError) else \
            "setup" if "setup" in message else "options" if "option" in message \
            else "players" if "player" in message else None
        outcome.failures.append(Failure(label, None, message, lines.of_key(key)))
        return outcome
    except EngineError as exc:  # the rules failed before the first step: the scenario fails, not the runner
        outcome.failures.append(Failure(label, None, f"error: {type(exc).__name__}: {exc}"))
        return outcome
    except Exception as exc:  # noqa: BLE001 - a setup the game's check let through fails this scenario, not the run
        outcome.failures.append(Failure(label, None, f"setup refused: {type(exc).__name__}: {exc}",
                                        lines.of_key("setup")))
        return outcome
    outcome.match = match
    outcome.clock = MatchClock(match, timer_options(scenario))
    steps = scenario.get("steps")
    if not steps:  # nothing would be checked: a misspelt `steps:` must not pass
        unknown = [str(key) for key in scenario if key not in KEYS]
        hint = f" (unknown top-level key{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)})" if unknown else ""
        outcome.failures.append(Failure(label, None, f"no steps: 'steps' must be a non-empty list{hint}",
                                        lines.of_key("steps")))
        return outcome
    for number, step in enumerate(steps, start=1):
        try:
            problems = run_step(match, step, outcome.clock)
        except ScenarioError as exc:
            problems = [str(exc)]
        except Exception as exc:  # noqa: BLE001 - an engine error fails the scenario, not the runner
            problems = [f"error: {type(exc).__name__}: {exc}"]
        for problem in problems:
            outcome.failures.append(Failure(label, number, problem, lines.of_step(number)))
        if problems:
            break
    return outcome


def timer_options(scenario: dict[str, Any]) -> dict[str, Any]:
    """The table's timers a scenario sets in ``options`` (the others are the game's)."""
    options = scenario.get("options") or {}
    return {key: value for key, value in options.items() if key in TIMER_OPTIONS} if isinstance(options, dict) else {}


def start(scenario: dict[str, Any], folder: str | Path | None = None) -> Match:
    if not isinstance(scenario, dict):
        raise ScenarioError("a scenario must be a mapping")
    game_id = scenario.get("game")
    if not isinstance(game_id, str) or not game_id:
        hint = (" (this is a game's own file, not a scenario: a scenario names its game, players and steps, "
                "docs/scenarios.md)" if "phases" in scenario or "declaration" in scenario else "")
        raise ScenarioError(f"'game' must be an installed game or a game file, not {game_id!r}{hint}", "game")
    try:
        game = games.resolve(game_id, folder)
    except KeyError:
        raise ScenarioError(f"unknown game {game_id!r} (installed: {', '.join(games.installed())}; "
                            "or give the path of a game's .yaml file)", "game") from None
    except ValueError as exc:
        raise ScenarioError(str(exc), "game") from None
    players = scenario.get("players")
    if not isinstance(players, list) or not players:
        raise ScenarioError("'players' must be a list of names", "players")
    if any(p is None or isinstance(p, (bool, list, dict)) or str(p).strip() == "" for p in players):
        raise ScenarioError(f"player names must be names (text), not {players!r}", "players")
    players = [str(p) for p in players]
    if len(set(players)) != len(players):
        raise ScenarioError("player names must be distinct", "players")
    if "steps" in scenario and scenario["steps"] is not None and not isinstance(scenario["steps"], list):
        raise ScenarioError("'steps' must be a list (each step a line starting with '- ')", "steps")
    setup = scenario.get("setup") or {}
    if not isinstance(setup, dict):
        raise ScenarioError("'setup' must be a mapping", "setup")
    if not isinstance(scenario.get("options") or {}, dict):
        raise ScenarioError("'options' must be a mapping (option: value)", "options")
    setup = dict(setup)
    seed = scenario.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ScenarioError(f"'seed' must be a whole number, not {seed!r}", "seed")
    for key, value in (scenario.get("options") or {}).items():
        if key in TIMER_OPTIONS and value is not None and (
                isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf):
            raise ScenarioError(f"option {key} must be a number of seconds above 0, or null (off), "
                                f"not {value!r}", "options")
    if "shuffle" in setup and not _truth(setup["shuffle"]):
        raise ScenarioError(f"setup refused: setup.shuffle must be true or false, not {setup['shuffle']!r}", "setup")
    if "shuffle" in setup:
        setup["shuffle"] = bool(setup["shuffle"])  # the engine tests `is False`: 0 would have shuffled
    first = scenario.get("first", players[0])  # the format's default: the first listed
    if first not in players:
        raise ScenarioError(f"first player {first!r} is not among the players", "first")
    setup["first"] = first
    try:
        check_setup(game, setup, players)
    except ScenarioError as exc:
        raise ScenarioError(str(exc), "setup") from None
    starting = setup.pop("game", None)  # a game without Python: starting values of its game names
    if starting:
        game = _starting_with(game, starting)
    options = {key: value for key, value in (scenario.get("options") or {}).items() if key not in TIMER_OPTIONS}
    return Match(game, players, seed, options, setup)


def _starting_with(game: Game, starting: dict[str, Any]) -> Game:
    """The game for this scenario only: its declared game names start with ``starting`` (checked by
    the game's setup check), everything else shared."""
    binding = dataclasses.replace(game.binding, state={**game.binding.state, **starting})
    return dataclasses.replace(game, binding=binding, blank_state=None)


#: Setup keys that give each player something (the format's, Coup's and BANG!'s, and the roles of a game
#: without Python): a mapping whose keys must be players; those marked True give each a list.
PER_PLAYER_SETUP = {"hands": True, "revealed": True, "equipment": True, "coins": False, "allegiance": False,
                    "roles": False, "characters": False, "health": False}


def check_setup(game: Game, setup: dict[str, Any], players: list[str]) -> None:
    for key, listed in PER_PLAYER_SETUP.items():
        if not isinstance(setup.get(key) or {}, dict):
            raise ScenarioError(f"setup.{key} must be a mapping (player: …), not {setup[key]!r}")
        for who, value in (setup.get(key) or {}).items():
            if str(who) not in players:
                raise ScenarioError(f"setup.{key} names {who!r}, who is not playing")
            if listed and value is not None and not isinstance(value, list):  # else read letter by letter
                raise ScenarioError(f"setup refused: setup.{key}.{who} must be a list of cards, not {value!r}")
    dead = setup.get("dead")
    if dead is not None and not isinstance(dead, list):
        raise ScenarioError(f"setup refused: setup.dead must be a list of players, not {dead!r}")
    for who in dead or []:
        if str(who) not in players:
            raise ScenarioError(f"setup.dead names {who!r}, who is not playing")
    if setup.get("deck") is not None and not isinstance(setup["deck"], list):
        raise ScenarioError(f"setup refused: setup.deck must be a list of cards, top first, not {setup['deck']!r}")
    checker = game.binding.setup_check
    problems = checker(setup, len(players)) if checker else []
    if problems:
        raise ScenarioError("setup refused: " + "; ".join(problems))


def run_step(match: Match, step: Any, clock: MatchClock | None = None) -> list[str]:
    if not isinstance(step, dict) or not step:
        raise ScenarioError(f"a step must be a mapping, not {step!r}")
    problems: list[str] = []
    for key, value in step.items():
        if key in ("expect", "reject") and not isinstance(value or {}, dict):
            raise ScenarioError(f"'{key}' needs a mapping ({'key' if key == 'expect' else 'player'}: …), "
                                f"not {value!r}")
        if key == "expect":
            found = expect(match, value or {})
            while found and take_forced(match):  # left-out one-option decisions, then look again
                found = expect(match, value or {})
            problems += found
        elif key == "reject":
            problems += reject(match, value or {})
        elif key == "all":
            everyone(match, str(value))
        elif key == "wait":
            wait(match, value, clock)
        elif str(key) not in match.names:
            raise ScenarioError(f"{str(key)!r} is not a player (nor a step: {', '.join(STEP_KEYS)})")
        else:
            choose(match, str(key), value)
        if problems:
            break
    return problems


def seat_of(match: Match, player: Any) -> int:
    """The seat of a player a step or an expectation names; a name that is not playing fails the
    step with that message (not with the engine's refusal)."""
    if str(player) not in match.names:
        raise ScenarioError(f"{str(player)!r} is not a player")
    return match.names.index(str(player))


def take_forced(match: Match) -> int:
    """Take every pending decision in which each pending player has exactly one option, as the format's
    rule has the engine do; returns how many were taken. A game may ask such a decision anyway (taking it
    at once would tell the table something hidden), so a scenario may write it as a step or leave it out:
    the runner takes it when the next step or expectation only makes sense after it."""
    taken = 0
    while match.pending and not match.over and taken < 64:
        only = [(seat, match.legal(seat)) for seat in list(match.pending)]
        if any(len(options) != 1 for _, options in only):
            break
        seat, (option,) = only[0]
        match.choose(seat, option)
        taken += 1
    return taken


def choose(match: Match, player: str, option: Any) -> None:
    seat = seat_of(match, player)
    while (seat not in match.pending or str(option) not in match.legal(seat)) and take_forced(match):
        pass  # a one-option decision the scenario left out: the engine's to take (docs/scenarios.md)
    if seat not in match.pending:
        waiting = ", ".join(match.names[s] for s in match.pending) or "nobody"
        raise ScenarioError(f"{player} is not pending (waiting for {waiting}); "
                            f"phase {match.phase.name!r}")
    try:
        match.choose(seat, str(option))
    except Refused as exc:
        raise ScenarioError(f"{player}: {option!r} was refused: {exc.message}") from None


def wait(match: Match, seconds: Any, clock: MatchClock | None) -> None:
    """``wait: N``: the match's own clock moves on N seconds; a timer that runs out fires exactly as
    on the server (a timer phase ends, a decision's pending seats get their default)."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds < math.inf:
        raise ScenarioError(f"'wait' needs a number of seconds, not {seconds!r}")
    (clock or MatchClock(match)).advance(float(seconds))


def everyone(match: Match, option: str) -> None:
    if not match.pending:
        raise ScenarioError(f"'all: {option}' but nobody is pending")
    decision = match.decision
    for seat in list(match.pending):
        if match.decision is not decision or seat not in match.pending:
            break
        choose(match, match.names[seat], option)


def snapshot(match: Match) -> Any:
    return copy.deepcopy((match.players, match.state, match.version, match.phase_id,
                          match.decision, match.rng.getstate(), match.over))


def reject(match: Match, value: dict[str, Any]) -> list[str]:
    problems = []
    for player, option in value.items():
        before = snapshot(match)
        try:
            seat = match.seat_of(str(player))  # a name that is not playing is refused too (stable format)
            match.choose(seat, str(option))
        except Refused:
            if snapshot(match) != before:
                problems.append(f"refusing {player}: {option} changed the match")
            continue
        problems.append(f"expected {player}: {option!r} to be refused, but it was accepted")
    return problems


def _truth(value: Any) -> bool:
    """A value `alive` and `over` accept: true or false (1 and 0 too); a word such as 'maybe' would be
    taken as true and check nothing."""
    return isinstance(value, bool) or isinstance(value, int) and value in (0, 1)


def _names(match: Match, seats: list[int]) -> list[str]:
    return [match.names[s] for s in seats]


def _same(expected: Any, actual: Any, ordered: bool) -> bool:
    if isinstance(expected, list) and isinstance(actual, list) and not ordered:
        return Counter(map(_freeze, expected)) == Counter(map(_freeze, actual))
    if isinstance(expected, dict) and isinstance(actual, dict):
        # a pile named `deck` is ordered, top first, wherever it is (the scenario format's rule)
        return all(k in actual and _same(v, actual[k], ordered or k == "deck") for k, v in expected.items())
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)) \
            and not isinstance(expected, bool) and not isinstance(actual, bool):
        return expected == actual
    return expected == actual or str(expected) == str(actual) and not isinstance(expected, bool)


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def expect(match: Match, expected: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    readers = match.game.binding.expectations
    for key, want in expected.items():
        if (key in ("options", "alive", "state") or key in readers and readers[key].per_player) \
                and not isinstance(want, dict):
            problems.append(f"expect {key} needs a mapping {{player: …}}, not {want!r}")
            continue
        if key == "phase":
            got: Any = match.phase.name
            ok = str(want).strip() == got.strip()
        elif key == "waiting":
            if want is not None and not isinstance(want, (str, list)):
                problems.append(f"expect waiting needs a list of players, not {want!r}")
                continue
            got = sorted(_names(match, match.pending))
            want_list = [want] if isinstance(want, str) else list(want or [])
            ok = sorted(map(str, want_list)) == got
        elif key == "options":
            got = {}
            ok = True
            for player, options in (want or {}).items():
                seat = seat_of(match, player)
                got[player] = match.legal(seat)
                ok = ok and sorted(map(str, options or [])) == sorted(got[player])
        elif key == "alive":
            if any(not _truth(v) for v in want.values()):
                problems.append(f"expect alive needs true or false for each player, not {want!r}")
                continue
            got = {p: match.alive(seat_of(match, p)) for p in want}
            ok = all(bool(want[p]) == got[p] for p in want)
        elif key == "winner":
            got = _names(match, match.winners) if match.over else None
            want_list = [want] if isinstance(want, str) else want
            ok = match.over and sorted(map(str, want_list)) == sorted(got or [])
        elif key == "over":
            if not _truth(want):
                problems.append(f"expect over needs true or false, not {want!r}")
                continue
            got = match.over
            ok = bool(want) == got
        elif key == "state":
            got = {}
            ok = True
            for player, fields in (want or {}).items():
                if not isinstance(fields, dict):
                    raise ScenarioError(f"expect state.{player} needs a mapping {{field: value}}, not {fields!r}")
                record = match.players[seat_of(match, player)]
                got[player] = {f: record.get(f, "<undeclared>") for f in fields}
                ok = ok and all(f in record and _same(v, record[f], True) for f, v in fields.items())
        elif key in readers:
            reader = readers[key]
            if reader.per_player:
                got = {p: reader.read(match, seat_of(match, p)) for p in (want or {})}
                ok = all(_same(want[p], got[p], reader.ordered) for p in want)
            else:
                got = reader.read(match)
                ok = _same(want, got, reader.ordered)
        else:
            known = ["phase", "waiting", "options", "alive", "winner", "over", "state", *readers]
            problems.append(f"unknown expect key {key!r} for {match.game.id} (known: {', '.join(known)})")
            continue
        if not ok:
            problems.append(f"expected {key} {want!r}, found {_asked(want, got)!r} (phase {match.phase.name!r})")
    return problems


def _asked(want: Any, got: Any) -> Any:
    """What was found, cut to the keys the expectation names (a view or a game's names hold far more)."""
    if isinstance(want, dict) and isinstance(got, dict):
        return {key: _asked(value, got[key]) if key in got else "<missing>" for key, value in want.items()}
    return got
