"""What each seat may see of a BANG! match: the observer and the UI-kit table.

Hidden information (rules §11): hands, roles (except the Sheriff's and the dead's)
and the deck order never leave the server; Kit Carlson's three cards are his
alone; everything in front of players, hand counts, life, the discard pile,
"draw!" cards and the General Store are public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine import Audience, Match
from .cards import CARDS, label
from .board import NOT_NOW, active, char, distance, game, hand, labels, living, nm, prompt, reach


@dataclass(frozen=True)
class _Spectators(Audience):
    """Only viewers without a seat (seated players get their own board)."""

    def includes(self, match: Match, seat: int | None) -> bool:  # noqa: D102
        return seat is None

    def describe(self) -> str:
        return "spectators"


SPECTATORS = _Spectators()


def role_visible(m: Match, owner: int, seat: int | None) -> bool:
    p = m.players[owner]
    return p["is_role_revealed"] or owner == seat or m.over


def bullets(p: dict[str, Any]) -> str:
    health = max(0, p["health"])
    return "●" * health + "○" * max(0, p["max_health"] - health)


def asked(m: Match, seat: int) -> str | None:
    """The reaction being asked of ``seat`` now, in words."""
    question = asked_msg(m, seat)
    return question[0].format(**question[1]) if question else None


def asked_msg(m: Match, seat: int) -> tuple[str, dict[str, Any]] | None:
    """The reaction being asked of ``seat`` now: a template and its values (for translation)."""
    p = prompt(m)
    if not p:
        return None
    kind = p["kind"]
    source = nm(m, p.get("source")) if p.get("source") is not None else None
    if kind == "shot":
        if m.state["need"].get(str(seat), 1) > 1:
            return ("{player} shoots you with {card}: play a Missed! (two Missed! against Slab the Killer) "
                    "or take the hit.", {"player": source, "card": label(p["card"])})
        return "{player} shoots you with {card}: play a Missed! or take the hit.", {"player": source,
                                                                                     "card": label(p["card"])}
    if kind == "gatling":
        return "{player}'s Gatling: play a Missed! or take the hit.", {"player": source}
    if kind == "indians":
        return "{player}'s Indians!: discard a BANG! or lose 1 life.", {"player": source}
    if kind == "duel":
        return "Duel with {player}: discard a BANG! or lose 1 life.", {"player": nm(m, p["other"])}
    if kind == "save":
        return "You are dying: drink a Beer (or use your ability) to stay alive, or pass.", {}
    if kind == "pick":
        return "Lucky Duke: choose the card that counts for the " + p["reason"].title() + ".", {}
    if kind == "store":
        return "General Store: take a card.", {}
    if kind == "draw":
        return "Draw your cards.", {}
    if kind == "character":
        return "Choose your character.", {}
    if kind == "order":
        return "You are eliminated: put your cards on the discard pile one at a time (the last ends on top).", {}
    return None


def about_options(m: Match, seat: int) -> dict[str, dict[str, Any]]:
    """What each offered option does, for buttons that show cards rather than strings
    (docs/protocol.md, "options"): the card played or taken, its target and how far it is."""
    about: dict[str, dict[str, Any]] = {}
    for option, action in (m.state["menus"].get(str(seat)) or {}).items():
        what = action[0]
        item: dict[str, Any] = {}
        if what == "pass":
            item = {"label": "Pass"}
        elif what in ("bang", "Duel", "Jail", "Panic!", "Cat Balou"):
            item = {"card": label(action[1]), "target": nm(m, action[2])}
            if action[2] != seat:
                item["distance"] = max(1, distance(m, seat, action[2]))
            if what in ("Panic!", "Cat Balou"):
                item["detail"] = label(action[3]) if action[3] is not None else "hand"
        elif what in ("pick", "take", "discard"):
            item = {"card": label(action[1]), "label": {"pick": "Choose", "take": "Take", "discard": "Discard"}[what]}
        elif what == "equip" or what in CARDS_BY_NAME:
            item = {"card": label(action[1])}
        elif what in ("cards", "kit", "sid"):
            item = {"cards": labels(action[1])}
            if what == "sid":
                item["label"] = "Heal with"
        elif what == "character":
            item = {"label": action[1], "character": action[1]}
        elif what == "jesse":
            item = {"label": "Draw from", "target": nm(m, action[1])}
        elif what == "interject":  # Sid Ketchum beside another player's decision
            item = {"cards": labels(action[1]), "label": "Heal with"}
        elif what == "wait":
            item = {"label": NOT_NOW}
        elif what == "order":  # a dying player's cards, one at a time onto the discard pile
            item = {"card": label(action[1]), "label": "Discard"}
        about[option] = item
    return about


#: Brown cards played by name (their menu action starts with the card's name).
CARDS_BY_NAME = {card.name for card in CARDS.values()}


def prompt_seats(m: Match) -> list[int]:
    p = prompt(m)
    if not p:
        return []
    return list(p["seats"]) if "seats" in p else [p["seat"]]


def board_rows(m: Match, seat: int | None) -> list[dict[str, Any]]:
    rows = []
    current = active(m)
    for owner, p in enumerate(m.players):
        stats = [{"label": "life", "value": f"{bullets(p)} {max(0, p['health'])}/{p['max_health']}"},
                 {"label": "cards", "value": len(p["hand"])},
                 {"label": "range", "value": reach(m, owner)}]
        if seat is not None and owner != seat and p["is_alive"] and m.players[seat]["is_alive"]:
            stats.append({"label": "distance", "value": max(1, distance(m, seat, owner))})
        tags = []
        if role_visible(m, owner, seat):
            tags.append(p["role"])
        if p["character"]:
            tags.append(p["character"])
        shown = m.over or bool(m.state["side"])  # at the end every hand may be shown
        rows.append({"name": m.names[owner], "alive": p["is_alive"], "active": owner == current,
                     "stats": stats, "tags": tags, "table": labels(p["table"]),
                     "cards": [{"label": label(c) if shown else None, "up": shown, "lost": False}
                               for c in p["hand"]]})
    return rows


def render(m: Match) -> None:
    """Redraw the whole table (skipped in headless matches)."""
    if m.headless:
        return
    canvas = m.canvas
    if m.state["turn"]["number"]:
        canvas.delete("intro")
    canvas.show("phase", key="phase", name=m.phase.name)
    if m.state["turn"]["stage"] != "setup":
        canvas.show("turn", key="turn", player=nm(m, active(m)))
    canvas.show("board", SPECTATORS, key="board", players=board_rows(m, None))
    # The seats asked now: pending, prompted, or offered options by the tool running (the decision opens after it).
    deciding = set(m.pending) | set(prompt_seats(m)) | {int(seat) for seat in m.state["menus"]}
    for seat in range(len(m.players)):
        canvas.show("board", Audience.of(seat), key=f"board-{seat}", players=board_rows(m, seat))
        canvas.show("hand", Audience.of(seat), key=f"hand-{seat}", player=m.names[seat],
                    cards=labels(hand(m, seat)), title="Your hand")
        question = asked_msg(m, seat) if seat in deciding else None
        if NOT_NOW in (m.state["menus"].get(str(seat)) or {}):  # Sid Ketchum beside another player's decision
            question = ("Sid Ketchum: you may discard 2 cards to regain 1 life now, or let the others go on.", {})
        if question is None and m.state["turn"]["stage"] == "play" and seat == active(m) and seat in deciding:
            question = "Your turn: play a card or pass.", {}
        offered = str(seat) in m.state["menus"]  # this seat's options (the decision may open just after)
        if question and not offered:  # asked, but not yet offered: say so on the table
            canvas.show("text", Audience.of(seat), key=f"ask-{seat}", text=question[0].format(**question[1]),
                        tone="warning", msg={"text": {"key": question[0], "args": question[1]}})
        else:
            canvas.delete(f"ask-{seat}")
        if offered:  # the question is the prompt of this seat's buttons
            question = question or ("Your choice", {})
            menu = m.state["menus"].get(str(seat)) or {}
            extra: dict[str, Any] = {}
            if menu and all(action[0] == "kit" for action in menu.values()) and len(m.state["kit"]) == 3:
                extra["choose"] = {"count": 2, "from": labels(m.state["kit"])}  # Kit Carlson: tap the two to keep
            canvas.show("options", Audience.of(seat), key=f"options-{seat}", prompt=question[0].format(**question[1]),
                        msg={"prompt": {"key": question[0], "args": question[1]}}, about=about_options(m, seat),
                        range=reach(m, seat), **extra)
        else:
            canvas.delete(f"options-{seat}")
    pile = m.state["discard"]
    if pile:
        canvas.show("text", key="piles", tone="muted", text=f"Discard pile: {label(pile[-1])} · deck: "
                    f"{len(m.state['deck'])} cards", msg={"text": {"key": "Discard pile: {card} · deck: {count} cards",
                                                                   "args": {"card": label(pile[-1]),
                                                                            "count": len(m.state["deck"])}}})
    else:
        canvas.show("text", key="piles", tone="muted", text=f"Discard pile: empty · deck: {len(m.state['deck'])} cards",
                    msg={"text": {"key": "Discard pile: empty · deck: {count} cards",
                                  "args": {"count": len(m.state["deck"])}}})
    waiting = [nm(m, s) for s in m.pending]
    others = [s for s in range(len(m.players)) if s not in m.pending]
    if waiting and others:
        canvas.show("text", Audience.of(others), key="waiting", tone="muted", text=f"Waiting for {', '.join(waiting)}…",
                    msg={"text": {"key": "Waiting for {players}…", "args": {"players": waiting}}})
    else:
        canvas.delete("waiting")
    if m.state["store"]:
        canvas.show("hand", key="store", player=None, cards=labels(m.state["store"]), title="General Store")
    else:
        canvas.delete("store")
    if m.state["flipped"]:
        canvas.show("text", key="flipped", text="Lucky Duke's draw!: " + ", ".join(labels(m.state["flipped"])),
                    msg={"text": {"key": "Lucky Duke's draw!: {cards}", "args": {"cards": labels(m.state["flipped"])}}})
    else:
        canvas.delete("flipped")
    if m.state["kit"]:
        kit = next(s for s in range(len(m.players)) if char(m, s) == "Kit Carlson")
        canvas.show("hand", Audience.of(kit), key="kit", player=m.names[kit], cards=labels(m.state["kit"]),
                    title="The top three cards: keep two")
    else:
        canvas.delete("kit")
    if m.over or m.state["side"]:
        side = m.state["side"]
        title = {"Outlaws": "The Outlaws win!", "Sheriff": "The Sheriff wins!",
                 "Renegade": "The Renegade wins!", "Deputy": "The Deputy wins!",
                 "Outlaw": "The Outlaw wins!"}.get(side, "Game over")
        roles = [{"player": nm(m, s), "role": m.players[s]["role"]} for s in range(len(m.players))]
        canvas.show("result", key="result", title=title, text=", ".join(
            f"{nm(m, s)} ({m.players[s]['role']})" for s in range(len(m.players))),
            winners=[nm(m, s) for s in m.winners], roles=roles)


@game.observer
def observe(m: Match, seat: int | None) -> dict[str, Any]:
    players = []
    for owner, p in enumerate(m.players):
        row: dict[str, Any] = {
            "name": m.names[owner], "alive": p["is_alive"], "health": max(0, p["health"]),
            "max_health": p["max_health"], "character": p["character"] or None,
            "ability": p["character_ability"] if p["character"] else None,
            "role": p["role"] if role_visible(m, owner, seat) else None,
            "hand_size": len(p["hand"]), "table": labels(p["table"]), "range": reach(m, owner),
        }
        if owner == seat or m.over:
            row["hand"] = labels(p["hand"])
        if seat is not None and owner != seat and p["is_alive"] and m.players[seat]["is_alive"]:
            row["distance"] = max(1, distance(m, seat, owner))
        players.append(row)
    pile = m.state["discard"]
    view: dict[str, Any] = {
        "players": players,
        "active": nm(m, active(m)) if m.state["turn"]["stage"] != "setup" else None,
        "stage": m.state["turn"]["stage"],
        "deck_size": len(m.state["deck"]),
        "discard_top": label(pile[-1]) if pile else None,
        "discard_size": len(pile),
        "store": labels(m.state["store"]),
        "flipped": labels(m.state["flipped"]),
        "alive": [nm(m, s) for s in living(m)],
        "side": m.state["side"] or None,
    }
    p = prompt(m)
    if p:
        asked_seats = prompt_seats(m)
        view["prompt"] = {"kind": p["kind"], "players": [nm(m, s) for s in asked_seats]}
        if seat is not None and seat in asked_seats:
            view["prompt"]["text"] = asked(m, seat)
        elif asked_seats:  # what the prompted player is asked, in their words (all public facts)
            view["prompt"]["question"] = asked(m, asked_seats[0])
    if m.state["hunt"]:
        view["hunt"] = m.state["hunt"]  # 3 players: a wrong kill made it last man standing
    if seat is not None and m.state["kit"] and char(m, seat) == "Kit Carlson":
        view["kit"] = labels(m.state["kit"])
    if seat is not None and str(seat) in m.state["candidates"]:
        view["candidates"] = list(m.state["candidates"][str(seat)])
    return view
