"""Coup's board: the binding and the vocabulary every part of the game reads.

The base rules (``rules.py``) and the variants' own phases (``inquisitor.py``,
``reformation.py``, ``two_player.py``) all speak of seats, hands, the court deck
and the prompt on the table; those words live here, below all of them, so that
the rules can use the variants' modules and the variants the common words
without an import circle.
"""

from __future__ import annotations

from typing import Any

from ...engine import PUBLIC, Audience, GameBinding, Match
from . import variants
from .variants import reformation, reunified

#: The base game's five characters (``variants.characters(options)`` for a match's own).
CHARACTERS = variants.characters()
#: Every character that can be in play in some variant.
ALL_CHARACTERS = ("Duke", "Assassin", "Ambassador", "Inquisitor", "Captain", "Contessa")
TREASURY = 50

#: What each action claims in the base game (``variants.claims(options)`` for a match's own),
#: what actions cost, and who may block what.
CLAIMS = variants.claims({})
COSTS = {"Assassinate": 3, "Coup": 7}
BLOCKERS = variants.blockers({})
TARGETED = ("Steal", "Assassinate", "Coup", "Examine")

game = GameBinding(
    "coup",
    title="Coup",
    dsl="coup.yaml",
    extensions=("variants.yaml",),
    min_players=2,
    max_players=10,
    summary="Bluff, challenge and eliminate: the last player with influence wins. "
            "Variants: the Inquisitor, the Reformation (allegiances), the official two-player set-up.",
    options={"turn_timer": 30, "window_timer": 15, "characters": "ambassador", "reformation": False,
             "choose_allegiance": False, "two_player_setup": "simple"},
    state={
        "current_turn": {"player_id": 0, "target_player_id": 0, "action": "", "character": ""},
        "challenge": {"challenger_id": 0, "claim_true": False},
        "block": {"blocker_id": 0, "character": "", "failed": False},
        "block_challenge": {"challenger_id": 0, "claim_true": False},
        "proof": {"player_id": 0, "slot": "", "character": ""},
        "exchange": {"drawn": []},
        "court_deck": [],
        "treasury": TREASURY,
        "paid": 0,
        "eliminated": [],
        "turn_number": 0,
        # the variants (empty or zero in the base game)
        "allegiance": [],
        "reserve": 0,
        "examine": {"target_id": 0, "slot": "", "character": ""},
        "sets": {},
        "set_aside": {},
    },
)
game.check_options(variants.check_options)
game.option_choices.update(variants.CHOICES)


# -- small helpers (the vocabulary the rules below are written in) ----------------
def seat_of_id(player_id: int) -> int:
    return player_id - 1


def actor(m: Match) -> int:
    return m.state["current_turn"]["player_id"] - 1  # seat_of_id, inline: read at every step


def target(m: Match) -> int | None:
    target_id = m.state["current_turn"]["target_player_id"]
    return target_id - 1 if target_id else None


def action(m: Match) -> str:
    return m.state["current_turn"]["action"]


def hand(m: Match, seat: int) -> list[str]:
    """Unrevealed influences, in slot order."""
    return [slot["character"] for slot in m.players[seat]["influences"].values() if not slot["revealed"]]


def revealed(m: Match, seat: int) -> list[str]:
    return [slot["character"] for slot in m.players[seat]["influences"].values() if slot["revealed"]]


def living(m: Match) -> list[int]:
    return [seat for seat, player in enumerate(m.players) if player["is_alive"]]


def name(m: Match, seat: int | None) -> str:
    return m.names[seat] if seat is not None else "nobody"


def court_size(players: int) -> int:
    return 5 * variants.copies(players)


def court(players: int, options: dict[str, Any] | None = None) -> list[str]:
    """The court of a game of ``players`` (with the Inquisitor if ``options`` say so)."""
    return variants.court(players, options)


#: ``claims`` by the options it depends on (the fifth character, the Reformation).
_CLAIMS: dict[tuple[Any, bool], dict[str, str]] = {}


def claims(m: Match) -> dict[str, str]:
    """What each action claims in this match (one dict per variant, shared: read-only)."""
    options = m.options
    key = (options.get("characters"), bool(options.get("reformation")))
    found = _CLAIMS.get(key)
    if found is None:
        found = _CLAIMS[key] = variants.claims(options)
    return found


def in_play(m: Match) -> tuple[str, ...]:
    return variants.characters(m.options)


def draw(m: Match) -> str:
    return m.state["court_deck"].pop(0)


def return_to_court(m: Match, cards: list[str]) -> None:
    """Returned cards go under the pile, then the court is shuffled."""
    m.state["court_deck"].extend(cards)
    m.shuffle(m.state["court_deck"])


def pay(m: Match, seat: int, amount: int) -> None:
    m.players[seat]["coins"] -= amount
    m.state["treasury"] += amount


def gain(m: Match, seat: int, amount: int) -> None:
    m.players[seat]["coins"] += amount
    m.state["treasury"] -= amount


def show_hands(m: Match) -> None:
    """Each player's own influences, visible to that player only."""
    if m.headless:
        return
    show = m.canvas.show
    names = m.names
    for seat, player in enumerate(m.players):
        cards, lost = [], []  # hand(m, seat) and revealed(m, seat), in one pass over the slots
        for slot in player["influences"].values():
            (lost if slot["revealed"] else cards).append(slot["character"])
        show("hand", Audience.of(seat), key=f"hand-{seat}", player=names[seat], cards=cards, lost=lost)


def show_board(m: Match, everything: bool = False) -> None:
    """The public table: coins, face-down and lost influences, who is out; with the
    Reformation each seat's allegiance (a stat, a tag and a field for colouring) and the
    Treasury Reserve."""
    if m.headless:
        return
    active = actor(m) if m.state["current_turn"]["player_id"] else None
    sides = m.state["allegiance"] if reformation(m) else None  # allegiance(m, seat), read once
    names = m.names
    rows = []
    for seat, p in enumerate(m.players):
        side = sides[seat] if sides is not None else ""
        row = {"name": names[seat], "alive": p["is_alive"], "active": seat == active,
               "stats": [{"label": "coins", "value": p["coins"]}],
               "cards": [{"label": slot["character"] if (slot["revealed"] or everything) else None,
                          "up": slot["revealed"] or everything, "lost": slot["revealed"]}
                         for slot in p["influences"].values() if slot["character"] or slot["revealed"]],
               "tags": [side] if side else [], "table": []}  # "out" is the row's alive flag
        if side:
            row["stats"].append({"label": "allegiance", "value": side})
            row["allegiance"] = side
        rows.append(row)
    m.canvas.show("board", key="board", players=rows)
    if reformation(m):
        show_reserve(m)


def show_reserve(m: Match) -> None:
    """The Treasury Reserve, and whether the allegiance restriction is on."""
    coins = m.state["reserve"]
    template = "Treasury Reserve: {coins} coin. " if coins == 1 else "Treasury Reserve: {coins} coins. "
    template += ("Every living player has the same allegiance: anyone may target anyone." if reunified(m) else
                 "You may not Coup, Assassinate, Steal from or Examine a player of your allegiance, "
                 "nor block their Foreign Aid.")
    show_text(m, "reserve", template, tone="info", coins=coins)


def tell(m: Match, template: str, audience: Audience = PUBLIC, data: dict[str, Any] | None = None,
         **args: Any) -> None:
    """A log line, with the template and values a client translates it from (docs/protocol.md).

    A line for one player only names them in ``to``, so that a replay showing every
    line says whose it was.
    """
    line = {"key": template, "args": args, **data} if data else {"key": template, "args": args}
    if audience is not PUBLIC and not audience.public and len(audience.seats) == 1:
        line["to"] = m.names[next(iter(audience.seats))]
    m.announce_later(english, (template, args), audience, line)


def say(m: Match, template: str, args: dict[str, Any], audience: Audience = PUBLIC,
        data: dict[str, Any] | None = None) -> None:
    """:func:`tell` with the values as a dict of their own (the hot lines build it once, not as keywords)."""
    line = {"key": template, "args": args, **data} if data else {"key": template, "args": args}
    if audience is not PUBLIC and not audience.public and len(audience.seats) == 1:
        line["to"] = m.names[next(iter(audience.seats))]
    m.announce_later(english, (template, args), audience, line)


def english(template: str, args: dict[str, Any]) -> str:
    """The English text; a list value (of names or cards) is joined by commas."""
    for value in args.values():
        if isinstance(value, list):
            return template.format(**{k: ", ".join(v) if isinstance(v, list) else v for k, v in args.items()})
    return template.format(**args)  # (most lines: no list to join, no dict to build)


def msg(template: str, **args: Any) -> tuple[str, dict[str, Any]]:
    """A component's text and its translation data: ``text, {"key": template, "args": args}``."""
    return english(template, args), {"key": template, "args": args}


def show_text(m: Match, key: str, template: str, audience: Audience = PUBLIC, tone: str | None = None,
              **args: Any) -> str | None:
    """A text component (none in a headless match: nobody sees it)."""
    if m.headless:
        return None
    text, data = msg(template, **args)
    extra = {"tone": tone} if tone else {}
    m.canvas.show("text", audience, key=key, text=text, msg={"text": data}, **extra)
    return text


def prompt(m: Match, text: tuple[str, dict[str, Any]], waiting: tuple[str, dict[str, Any]], **about: Any) -> None:
    """The deciding players get the prompt (their buttons are their options) until they
    answer; everyone else, spectators and those who answered included, is told who is awaited.

    ``about`` adds what the buttons mean (docs/protocol.md, "options"): per option its
    ``label``, ``claim``, ``cost``, ``gain``, ``target``, ``card``; the actions not
    offered yet with the reason (``unavailable``); the cards to pick from (``choose``).
    """
    if m.headless:
        return
    m.canvas.show("options", Audience.of(m.targets).while_pending(), key="options", prompt=text[0],
                  msg={"prompt": text[1]}, **about)
    m.canvas.show("text", PUBLIC.unless_pending(), key="waiting", text=waiting[0], tone="muted",
                  msg={"text": waiting[1]})


# -- who a phase asks, read off the state ----------------------------------------------------------------
def asked(m: Match, player_id: int) -> tuple[int, ...] | list[int]:
    """The seats a phase that asks one player asks (coup.yaml: ``player.id == <a turn's field> and
    player.is_alive``): that player's seat, from the field the tool holds, not through ``m.targets``
    (a property and the generated seat filter, at every prompt). Nobody: ``m.targets``, then empty,
    which records the phase's empty decision as it did."""
    if player_id and m.players[player_id - 1]["is_alive"]:
        return SEAT_ALONE[player_id - 1]
    return m.targets


#: ``(seat,)`` by seat: ``asked``'s answer, made once (a new tuple at every prompt cost more).
SEAT_ALONE = tuple((seat,) for seat in range(10))


def others(m: Match, player_id: int) -> tuple[int, ...] | list[int]:
    """The seats a window asks (``player.id != <a turn's field> and player.is_alive``): every living
    seat but that player's, in seat order, shared by the seat and who is alive (``offer_all`` reads it)."""
    # Who is alive as one number, the cache's key: a leading 1 (for the count), then a bit per seat. A
    # loop of adds makes no object: fewer machine instructions than tuple(map(itemgetter("is_alive"),
    # players)) (about 2.4 k against 3.2 k for four players, under callgrind).
    alive = 1
    for player in m.players:
        alive = alive + alive + player["is_alive"]
    found = _OTHERS.get((player_id, alive))
    if found is None:
        found = _OTHERS[(player_id, alive)] = tuple(seat for seat, player in enumerate(m.players)
                                                    if player["is_alive"] and seat != player_id - 1)
    return found or m.targets  # (nobody: as asked)


#: ``others`` by the player it leaves out and who is alive (as ``others`` numbers it).
_OTHERS: dict[tuple[int, int], tuple[int, ...]] = {}


def decided(m: Match) -> bool:
    """One player has influence left: the game is won, whatever remains of the turn.

    Checked every turn: a loop that stops at the second living player (most turns) costs fewer
    machine instructions than counting them all, in Python or in C (``sum(map(...))``)."""
    alive = False
    for player in m.players:
        if player["is_alive"]:
            if alive:
                return False
            alive = True
    return alive
