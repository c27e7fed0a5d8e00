"""A game made of a DSL file alone: its binding, with no rules module.

Everything such a game does is in its YAML: statements (:mod:`.declarative`),
``visibility`` for what each seat sees, and the role deal that
:mod:`.determinize` samples for the search bots.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from .binding import GameBinding
from .declarative import visible_fields
from .determinize import determinize

if TYPE_CHECKING:  # pragma: no cover
    from .match import Match

#: What a scenario's ``setup`` can fix in a game without Python (``first`` is set by the runner).
SETUP_KEYS = frozenset({"roles", "shuffle", "first", "game", "rolls"})


def first_sentence(text: str) -> str:
    """The lobby's one line when a game gives no summary: its description up to the first full stop,
    the stop kept."""
    head, stop, _ = text.strip().partition(". ")
    return (head + "." if stop else head).strip()


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    return {str: "text", list: "a list", dict: "a table"}.get(type(value), "anything")


def _starting_names(fixed: Any, state: dict[str, Any]) -> list[str]:
    """A scenario's ``setup.game``: starting values of declared game names (a stacked deck), each of
    the kind of the declared one (``null`` declared: anything)."""
    if fixed is None:
        return []
    if not isinstance(fixed, dict):
        return ["setup.game must map game names to their starting values ({deck: [...]})"]
    problems = []
    for name, value in fixed.items():
        if name not in state:
            problems.append(f"setup.game.{name} is not a game name of this game "
                            f"(declaration.game_state has {', '.join(map(str, state))})")
        elif state[name] is not None and _kind(value) != _kind(state[name]):
            problems.append(f"setup.game.{name} must be {_kind(state[name])}, as declared, not {value!r}")
    return problems


def binding_from_dsl(path: str | Path, game_id: str | None = None) -> GameBinding:
    """A :class:`GameBinding` for a DSL file with no rules module.

    The title, player range and game-level state come from the declaration;
    scenario files get the ``game`` expect key (game-level names) and ``sees``
    (``{viewer: {owner: {field: value or null}}}``), and may fix the deal with
    ``setup: {roles: {player: role}}``.
    """
    path = Path(path).resolve()
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    declaration = data.get("declaration") or {} if isinstance(data, dict) else {}
    state = declaration.get("game_state") or {}
    title = declaration.get("title") or (game_id or path.stem).replace("_", " ").title()
    summary = str(declaration.get("summary") or first_sentence(str(declaration.get("description") or "")))
    binding = GameBinding(game_id or path.stem, title=title, dsl=path, state=dict(state),
                          summary=summary, module_file=str(path))
    roles = {r.get("name") for r in declaration.get("roles") or [] if isinstance(r, dict)}

    @binding.check_setup
    def check_setup(setup: dict[str, Any], players: int) -> list[str]:
        unknown = sorted(set(setup) - SETUP_KEYS)
        if unknown:  # a deck or hands this game cannot take, or a typo: never a silent random deal
            return [f"setup.{key} is not a setup key of a game without Python "
                    f"(it takes {', '.join(sorted(SETUP_KEYS))})" for key in unknown]
        problems = _starting_names(setup.get("game"), state)
        rolls = setup.get("rolls")
        if rolls is not None and not (isinstance(rolls, list) and all(
                isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in rolls)):
            problems.append(f"setup.rolls must be a list of numbers rolled, 1 or more ([3, 1, 6]), not {rolls!r}")
        fixed = setup.get("roles")
        if fixed is None:
            return problems
        if not isinstance(fixed, dict) or len(fixed) != players:
            return problems + [f"setup.roles must give a role to each of the {players} players"]
        return problems + [f"setup.roles: {role!r} is not a role of this game" for role in fixed.values()
                           if roles and role not in roles]

    @binding.expect("game", per_player=False)
    def game_names(match: "Match") -> dict[str, Any]:
        return {key: value for key, value in match.state.items() if not key.startswith("_")}

    @binding.expect("sees")
    def sees(match: "Match", seat: int) -> dict[str, Any]:
        return {match.names[owner]: visible_fields(match, owner, seat) for owner in range(len(match.players))}

    @binding.on_timeout
    def timeout_choice(match: "Match", seat: int, options: list[str]) -> str:
        """The phase's declared ``default``, else ``Pass``, else the first option."""
        default = match.phase.completion_criteria.default
        if default in options:
            return default
        return "Pass" if "Pass" in options else options[0]

    @binding.summarize
    def result(match: "Match") -> dict[str, Any]:
        """The side that won is named by the phase the game ended in."""
        return {"side": match.phase.name if match.over else "unfinished",
                "winners": [match.names[seat] for seat in match.winners]}

    binding.determinize = determinize  # search bots sample what the role deal hides
    return binding
