"""Action vocabularies: every action a seat may take, as labels that do not depend on names.

An RL environment needs a fixed action space for a (game, player count). Options
as offered name players (``Steal Bea``), so a *label* replaces each name by the
seat's offset from the chooser, clockwise in seat order: ``{+0}`` is yourself,
``{+1}`` the next seat (``Steal {+1}``). A choice of several players (the
"choose N" decision: names in seat order joined by ``", "``) becomes its offsets
in increasing order (``{+1}, {+3}``). Equal labels are one action: when two
offered options share a label, the environment takes the first one offered.

A game declares its labels for a player count with ``@game.vocabulary`` and, if
its options carry more than player names (BANG!'s card ids), how an option maps
to a label with ``@game.labeler``. A game written in its DSL alone gets both
derived here from what its phases declare: literal options, ``{option: ...}``
entries, ``{players: ...}`` entries (one label per offset) and choose-N entries
(every combination of that many offsets).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any, Iterable

from ..dsl.extensions import ACKNOWLEDGE

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

#: Names of the entry fields a choose-N option entry may use for its count.
PICK_KEYS = ("pick", "count", "choose", "size", "exactly")


def seat_token(offset: int) -> str:
    """The label of the player ``offset`` seats after the chooser (``{+0}``: the chooser)."""
    return "{+%d}" % offset


def seat_tokens(players: int, *, self_too: bool = True) -> list[str]:
    return [seat_token(k) for k in range(0 if self_too else 1, players)]


@lru_cache(maxsize=64)
def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    """Whole-word occurrences of any name, longest first (``P1`` must not match in ``P10``)."""
    ordered = sorted(names, key=len, reverse=True)
    return re.compile(r"(?<![\w])(" + "|".join(re.escape(n) for n in ordered) + r")(?![\w])")


def relative_label(names: list[str], seat: int, option: str) -> str:
    """``option`` with every player name replaced by that player's seat offset from ``seat``."""
    count = len(names)
    index = {name: i for i, name in enumerate(names)}
    parts = option.split(", ")
    if len(parts) > 1 and all(part in index for part in parts):  # a choice of several players
        offsets = sorted((index[part] - seat) % count for part in parts)
        return ", ".join(seat_token(k) for k in offsets)
    if option in index:
        return seat_token((index[option] - seat) % count)
    return _names_pattern(tuple(names)).sub(lambda found: seat_token((index[found.group(1)] - seat) % count),
                                            option)


def with_names(label: str, names: list[str], seat: int) -> str:
    """A label read back with real names (for humans: ``Steal {+1}`` → ``Steal Bea``)."""
    count = len(names)
    return re.sub(r"\{\+(\d+)\}", lambda found: names[(seat + int(found.group(1))) % count], label)


def derive(game: "Game", players: int) -> list[str]:
    """The labels a DSL-only game can offer at ``players``, read from its declared options."""
    labels: list[str] = []
    for phase in game.phases.values():
        criteria = phase.completion_criteria
        for entry in criteria.options or ():
            if getattr(entry, "items", None) is not None:
                labels += _declared_items(game) + seat_tokens(players)
            else:
                labels += _entry_labels(entry, players)
        if criteria.default:
            labels.append(criteria.default)
    # What the cover of a secret decision presses: last, so games that offered it elsewhere keep their ids.
    labels += [phase.completion_criteria.acknowledge or ACKNOWLEDGE for phase in game.phases.values()
               if phase.completion_criteria.secret or _may_acknowledge(phase.completion_criteria.options or ())]
    return list(dict.fromkeys(labels))


def _may_acknowledge(entries: Iterable[Any]) -> bool:
    """A phase with a ``secret: true`` option in which a player asked may be offered nothing (every
    entry has an ``if``, or lists items or players, which may be none): that player presses the
    acknowledgement (Spyfall's agent who has used their accusation while the spy may still reveal)."""
    entries = list(entries)
    return any(getattr(entry, "secret", False) for entry in entries) and all(
        not isinstance(entry, str) and (entry.if_ is not None or entry.items is not None or entry.players is not None)
        for entry in entries)


def _declared_items(game: "Game") -> list[str]:
    """What an ``{items: ...}`` entry may offer, as offered (text): every item of a list the game
    declares, in ``game_state`` or in the players' starting fields (a deck, a hand, bids). Items
    are computed during play, but from those lists: a card drawn from the deck is in the deck."""
    from .declarative import _text  # noqa: PLC0415 - how an item reads as an option

    found: list[str] = []

    def walk(value: Any, listed: bool) -> None:
        if isinstance(value, list):
            for item in value:
                walk(item, True)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item, listed)
        elif listed and value is not None:
            found.append(_text(value))

    walk(game.binding.state, False)
    template = game.definition.declaration.player_states_template
    walk(getattr(template, "player_states", template) if template is not None else None, False)
    return found


def _entry_labels(entry: Any, players: int) -> Iterable[str]:
    if isinstance(entry, str):
        return [entry]
    option = getattr(entry, "option", None)
    if option is not None:
        return [str(option)]
    if getattr(entry, "players", None) is None:
        return []
    self_too = not getattr(entry, "except_self", False)
    sizes = _pick_sizes(entry, players)
    if sizes is None:
        return seat_tokens(players, self_too=self_too)
    offsets = range(0 if self_too else 1, players)
    return [", ".join(seat_token(k) for k in chosen) for size in sizes for chosen in combinations(offsets, size)]


def _pick_sizes(entry: Any, players: int) -> list[int] | None:
    """How many players a choose-N entry picks: a number, a table by player count, or
    (an expression we cannot read ahead) every size from 1 to ``players``. ``None``: one."""
    for key in PICK_KEYS:
        value = getattr(entry, key, None)
        if value is None and hasattr(entry, "model_extra"):
            value = (entry.model_extra or {}).get(key)
        if value is None:
            continue
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            return [value] if value > 1 else None
        if isinstance(value, dict):
            found = value.get(players, value.get(str(players)))
            sizes = found if isinstance(found, list) else [found]
            known = sorted({int(v) for v in sizes if isinstance(v, int) and not isinstance(v, bool)})
            if known:
                return known
        return list(range(1, players + 1))
    return None
