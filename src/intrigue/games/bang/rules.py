"""BANG!: the rules module binding every tool and branch of ``bang.yaml``.

The DSL (the seed file, unchanged) fixes a coarse flow: turn start 4 → draw 5 →
play 6 → reaction routing 14 → single responder 7 (loops) / group 8 → resolve 9 →
eliminations 10 → win check 11 → discard 12 → next turn 13. The rules of the base
game (docs/games/bang.md) need many more prompts than that, so the module drives
the game with a small **resolution queue** kept in the match state (plain data, so
matches copy, replay and compare exactly):

- ``state.queue`` holds the steps still to resolve for the current card or turn
  start (a shot, a Barrel "draw!", damage, a death-save, the next Duel exchange,
  the next General Store pick...). ``advance`` runs them in order until one needs
  a player: it then sets ``state.reaction.prompt`` and stops.
- Phase 6 is the hub. When a prompt is pending it has no target (its condition,
  ``turn.active_index``, is set to -1) and routes to 14, which routes a one-player
  prompt to 7 and a simultaneous one (Indians!, Gatling, the 1-of-2 character
  choice) to 8. Phase 7 answers and loops to itself while the next prompt is a
  one-player prompt; otherwise 9 → 6 → 14 again, until the queue is empty.
- Players who fail their death-save are out at once (``is_alive`` false, so they
  are never asked anything again), but their elimination (role reveal, cards to
  Vulture Sam or the discard pile, end of game, rewards and penalties) waits in
  ``state.dying`` until the card that caused it has fully resolved: phase 9 then
  routes to 10 and 11, so simultaneous deaths are judged together (rules §8.6).
- ``turn.stage`` says where the active player's turn is: ``predraw``, ``draw``
  (phase 5 asks), ``play`` (phase 6 asks), ``discard`` (phase 12 asks, one card at
  a time, looping 12 → 11 → 6 → 12), ``end`` (skipped by Jail, or dead).
  If a prompt interrupts the start of a turn (a death-save against Dynamite, Lucky
  Duke's choice of "draw!" card), a draw that needs a choice is asked in phase 7.

Option notation (as offered, and as scenario files write them). A card is written
``Name RankSuit`` with suits ``S H D C`` (``BANG! 10D``, ``Missed! 2S``,
``Barrel QS``, ``Rev. Carabine AC``); players by name.

- play step: ``BANG! 10D at Blake`` (Calamity Janet also ``Missed! 2S at Blake``),
  ``Duel QD at Blake``, ``Jail JS at Blake``, ``Panic! JH at Blake (hand)`` (a
  random hand card) or ``Panic! JH at Blake (Barrel QS)`` (a card in front of him),
  ``Cat Balou KH at Blake (hand)`` / ``Cat Balou KH at Blake (Mustang 8H)`` (also
  ``at`` yourself for a card in front of you), ``Beer 6H``, ``Saloon 5H``,
  ``Stagecoach 9S``, ``Wells Fargo 3H``, ``General Store 9C``, ``Indians! KD``,
  ``Gatling 10H``, blue cards by label (``Barrel QS``, ``Volcanic 10S``,
  ``Dynamite 2H``), Sid Ketchum ``Heal with BANG! 10D, Missed! 2S``, and ``Pass``
  (end the play step).
- draw step: ``Draw``; Jesse Jones ``Draw from deck`` / ``Draw from Blake``; Pedro
  Ramirez ``Draw from deck`` / ``Draw from discard``; Kit Carlson
  ``Keep BANG! 10D, Beer 6H`` (two of the three cards, in deck order).
- answering a shot (BANG!, Gatling): ``Missed! 2S`` (Calamity Janet: also a BANG!
  card), against Slab the Killer two cards ``Missed! 2S, Missed! 3S`` (in hand
  order), or ``Pass`` (take the hit). Barrels and Jourdonnais draw automatically
  first (it can only help).
- Duel and Indians!: ``BANG! 10D`` (Calamity Janet: also a Missed! card) or ``Pass``.
- death-save: ``Beer 6H``, ``Heal with <card>, <card>`` (Sid Ketchum) or ``Pass``.
- Lucky Duke's "draw!": ``Choose Beer 6H``; General Store: ``Take Beer 6H``;
  discard step: ``Discard BANG! 10D``; 1-of-2 characters (room option): the name.

Sid Ketchum may also heal before answering a shot, a Duel, Indians! or a Gatling, in his
discard step, and while another player chooses: whenever one player alone is asked
something (a play step, a draw, a response, a discard, a General Store pick), Sid,
if he is below his maximum life with 2 cards or more (all public), is offered
``Heal with <card>, <card>`` and ``Not now`` beside that player. The decision does
not wait for him: the player's answer closes it; if Sid heals first, the same
question is asked again. A dying player whose cards go to the discard pile chooses
their order, one ``Discard <card>`` at a time (the last ends on top).

3 players: the Dodge City variant (Deputy, Outlaw, Renegade, face up; each must
eliminate a personal target; the Deputy starts). 8 players: two Renegades.

Prompts are never
skipped in a way that reveals a hand: the play step and every response are asked
even when ``Pass`` is the only option, unless the hand is empty (which is public).

Scenario setup keys (all optional): ``roles``, ``characters`` (on a rigged table,
players not named have no character: 4 bullets, no ability), ``health``,
``hands``, ``equipment`` (cards in front of a player, Jail and Dynamite included),
``deck`` (top first; every card not named anywhere follows, shuffled unless
``shuffle: false``), ``discard`` (top first), ``dead`` (players already out),
``first``. Extra ``expect`` keys: ``health``, ``max_health``, ``hand``,
``hand_size``, ``equipment``, ``role``, ``role_revealed``, ``character``,
``distance`` (``{Aria: {Blake: 2}}``), ``range``, ``bangs``, ``discard_top``,
``discard``, ``discard_size``, ``deck``, ``deck_size``, ``store``, ``side``,
``active``, ``stage``. Decisions on every [choice] of the rules reference:
docs/games/bang.md.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from ...engine import Audience, Match
from .board import (BLUE_SELF, GROUP, NOT_NOW, RESPONSES, ROLE_NAMES, SETUP_KEYS, SIMPLE, SINGLE, active, alive,
                    bang_allowed, char, clockwise, distance, distances, game, hand, in_play, labels, living,
                    next_living, nm, prompt, reach, table, three_player, weapon)
from .cards import CARDS, CHARACTERS, DECK, HUNTS, LABELS, NAMES, NO_CHARACTER, ROLES_BY_COUNT, WEAPONS, label
from .view import render


def say(m: Match, template: str, *seats: int, banner: dict[str, Any] | None = None, **args: Any) -> None:
    """A log line for everyone (or ``seats``), with the template and values a client translates
    it from (docs/protocol.md): a list value is a list of cards or names, joined by commas."""
    if m.headless:
        return
    text = template.format(**{k: ", ".join(v) if isinstance(v, list) else v for k, v in args.items()})
    data: dict[str, Any] = {"key": template, "args": args}
    if banner:
        data["banner"] = banner
    if len(seats) == 1:
        data["to"] = m.names[seats[0]]
    m.announce(text, Audience.of(*seats) if seats else Audience.everyone(), **data)


def sync(m: Match, seat: int) -> None:
    """Keep the DSL's derived player fields in step with the cards in front of a player."""
    p = m.players[seat]
    gun = weapon(m, seat)
    p["equipment"] = {"weapon": LABELS[gun] if gun else "Colt .45",
                      "other": [LABELS[c] for c in p["table"] if c != gun]}
    p["weapon_range"] = WEAPONS[NAMES[gun]] if gun else 1  # reach(m, seat), its gun already found
    p["range_bonus"] = (in_play(m, seat, "Scope") is not None) + (p["character"] == "Rose Doolan")
    p["distance_bonus"] = (in_play(m, seat, "Mustang") is not None) + (p["character"] == "Paul Regret")


# -- piles -------------------------------------------------------------------------------------------
def draw_card(m: Match) -> str | None:
    """The top card of the deck; an empty deck is refilled from the whole discard pile."""
    deck = m.state["deck"]
    if not deck:
        pile = m.state["discard"]
        if not pile:
            return None
        deck.extend(pile)  # the pile turned over: its bottom card comes first
        pile.clear()
        m.shuffle(deck)
        say(m, "The deck is empty: the discard pile is shuffled into a new deck.")
    return deck.pop(0)


def draw_to_hand(m: Match, seat: int, count: int, why: str = "") -> list[str]:
    got = []
    for _ in range(count):
        card = draw_card(m)
        if card is None:
            break
        m.players[seat]["hand"].append(card)
        got.append(card)
    if got and not m.headless:
        if len(got) > 1:
            say(m, "{player} draws {count} cards" + why + ".", player=nm(m, seat), count=len(got))
        else:
            say(m, "{player} draws 1 card" + why + ".", player=nm(m, seat))
        say(m, "You draw {cards}.", seat, cards=labels(got))
    return got


def to_discard(m: Match, *cards: str) -> None:
    m.state["discard"].extend(cards)


def take_from_hand(m: Match, seat: int, card: str) -> str:
    m.players[seat]["hand"].remove(card)
    return card


def take_from_table(m: Match, seat: int, card: str) -> str:
    m.players[seat]["table"].remove(card)
    sync(m, seat)
    return card


def heal(m: Match, seat: int, amount: int = 1) -> int:
    p = m.players[seat]
    gained = max(0, min(amount, p["max_health"] - p["health"]))
    p["health"] += gained
    return gained


def suzy(m: Match) -> None:
    """Suzy Lafayette draws as soon as her hand is empty, in or out of turn."""
    seat = 0
    for p in m.players:
        if p["character"] == "Suzy Lafayette" and not p["hand"] and p["is_alive"]:
            draw_to_hand(m, seat, 1, " (Suzy Lafayette: empty hand)")
        seat += 1


# -- the resolution queue ----------------------------------------------------------------------------
def push(m: Match, *tasks: dict[str, Any]) -> None:
    """Put tasks at the front of the queue, in the order given (they resolve next)."""
    m.state["queue"][0:0] = list(tasks)


def ask(m: Match, kind: str, seat: int, **data: Any) -> None:
    m.state["reaction"]["prompt"] = {"kind": kind, "seat": seat, **data}


def ask_group(m: Match, kind: str, seats: list[int], **data: Any) -> None:
    m.state["reaction"]["prompt"] = {"kind": kind, "seats": seats, **data}


def advance(m: Match) -> None:
    """Resolve queued steps until one needs a player (a prompt) or none is left."""
    queue = m.state["queue"]
    reaction = m.state["reaction"]
    while not reaction["prompt"] and queue:
        suzy(m)
        task = queue.pop(0)
        TASKS[task["do"]](m, task)
    suzy(m)


# -- "draw!" --------------------------------------------------------------------------------------------
def check(m: Match, seat: int, reason: str) -> None:
    """Turn over the top card for a check; Lucky Duke turns over two and chooses."""
    if char(m, seat) == "Lucky Duke":
        cards = [c for c in (draw_card(m), draw_card(m)) if c is not None]
        if len(cards) == 2:
            m.state["flipped"] = cards
            say(m, "{player} (Lucky Duke) draws! for " + reason_text(reason) + ": {first} and {second}.",
                player=nm(m, seat), first=label(cards[0]), second=label(cards[1]))
            ask(m, "pick", seat, reason=reason)
            return
        card = cards[0] if cards else None
    else:
        card = draw_card(m)
    if card is not None:
        to_discard(m, card)
        say(m, "{player} draws! for " + reason_text(reason) + ": {card}.", player=nm(m, seat), card=label(card))
    resolve_check(m, seat, reason, card)


def reason_text(reason: str) -> str:
    return {"barrel": "the Barrel", "dynamite": "the Dynamite", "jail": "the Jail"}[reason]


def explodes(card: str | None) -> bool:
    return card is not None and CARDS[card].suit == "S" and 2 <= CARDS[card].value <= 9


def under_check(m: Match, card: str, check_card: str | None) -> None:
    """Discard a Jail or Dynamite just under the "draw!" card that decided it, which stays on
    top (Pedro Ramirez may take it)."""
    pile = m.state["discard"]
    depth = 0
    if check_card is not None and check_card in pile:
        depth = len(pile) - pile.index(check_card)
    pile.insert(len(pile) - depth, card)


def resolve_check(m: Match, seat: int, reason: str, card: str | None) -> None:
    heart = card is not None and CARDS[card].suit == "H"
    if reason == "barrel":
        if heart:
            m.state["need"][str(seat)] -= 1
            say(m, "A Heart: the Barrel counts as a Missed! for {player}.", player=nm(m, seat),
                banner={"tone": "good", "title": "Missed!"})
    elif reason == "dynamite":
        dynamite = in_play(m, seat, "Dynamite")
        if dynamite is None:
            return
        if explodes(card):
            under_check(m, take_from_table(m, seat, dynamite), card)
            say(m, "The Dynamite explodes on {player}!", player=nm(m, seat),
                banner={"tone": "bad", "title": "Dynamite!", "card": "Dynamite"})
            push(m, {"do": "damage", "seat": seat, "amount": 3, "source": None})
        else:
            receiver = next_living(m, seat)
            take_from_table(m, seat, dynamite)
            m.players[receiver]["table"].append(dynamite)
            sync(m, receiver)
            say(m, "The Dynamite does not explode; it passes to {player}.", player=nm(m, receiver))
    elif reason == "jail":
        jail = in_play(m, seat, "Jail")
        if jail is None:
            return
        under_check(m, take_from_table(m, seat, jail), card)
        if heart:
            say(m, "A Heart: {player} escapes from Jail.", player=nm(m, seat))
        else:
            m.state["turn"]["stage"] = "end"
            say(m, "{player} stays in Jail and skips this turn.", player=nm(m, seat),
                banner={"tone": "bad", "title": "In Jail", "card": "Jail"})


# -- tasks ---------------------------------------------------------------------------------------------
def t_dynamite(m: Match, task: dict[str, Any]) -> None:
    seat = active(m)
    if alive(m, seat) and in_play(m, seat, "Dynamite"):
        check(m, seat, "dynamite")


def t_jail(m: Match, task: dict[str, Any]) -> None:
    seat = active(m)
    if alive(m, seat) and m.state["turn"]["stage"] != "end" and in_play(m, seat, "Jail"):
        check(m, seat, "jail")


def t_begin_draw(m: Match, task: dict[str, Any]) -> None:
    seat, turn = active(m), m.state["turn"]
    if not alive(m, seat) or turn["stage"] == "end":
        turn["stage"] = "end"
        return
    turn["stage"] = "draw"
    if m.phase_id == 4:
        return  # the draw phase (5) asks
    menu = draw_menu(m, seat)
    if len(menu) == 1:
        do_draw(m, seat, next(iter(menu.values())))
    else:
        ask(m, "draw", seat)


def t_barrel(m: Match, task: dict[str, Any]) -> None:
    seat = task["seat"]
    if alive(m, seat) and m.state["need"].get(str(seat), 0) > 0:
        check(m, seat, "barrel")


def t_shot(m: Match, task: dict[str, Any]) -> None:
    seat = task["seat"]
    if not alive(m, seat):
        return
    if m.state["need"].get(str(seat), 0) <= 0:
        say(m, "{player} avoids the shot.", player=nm(m, seat), banner={"tone": "good", "title": "Missed!"})
        return
    if not hand(m, seat):  # everyone sees the empty hand: nothing to ask
        push(m, {"do": "damage", "seat": seat, "amount": 1, "source": task["source"]})
        return
    ask(m, "shot", seat, source=task["source"], card=task["card"])


def t_damage(m: Match, task: dict[str, Any]) -> None:
    seat, amount, source = task["seat"], task["amount"], task["source"]
    if not alive(m, seat):
        return
    m.players[seat]["health"] -= amount
    say(m, "{player} loses {amount} life ({left} left).", player=nm(m, seat), amount=amount,
        left=max(0, m.players[seat]["health"]), banner={"tone": "bad", "title": "Hit!"})
    if m.players[seat]["health"] <= 0:
        push(m, {"do": "save", "seat": seat, "amount": amount, "source": source})
    else:
        push(m, {"do": "hurt", "seat": seat, "amount": amount, "source": source})


def beer_saves(m: Match) -> bool:
    """Whether a Beer can save a life: more than 2 players alive, counting those already killed by
    the card still resolving (their eliminations wait for its end, rules §8.6), so that a Gatling's
    or Indians!' victims fare the same whatever their seats."""
    return len(living(m)) + len(m.state["dying"]) > 2


def save_menu(m: Match, seat: int) -> dict[str, list[Any]]:
    menu: dict[str, list[Any]] = {}
    if beer_saves(m):
        for card in hand(m, seat):
            if CARDS[card].name == "Beer":
                menu.setdefault(label(card), ["beer", card])
    menu.update(sid_menu(m, seat))
    menu["Pass"] = ["pass"]
    return menu


def sid_menu(m: Match, seat: int) -> dict[str, list[Any]]:
    if char(m, seat) != "Sid Ketchum":
        return {}
    return {f"Heal with {label(a)}, {label(b)}": ["sid", [a, b]] for a, b in combinations(hand(m, seat), 2)}


def t_save(m: Match, task: dict[str, Any]) -> None:
    seat = task["seat"]
    if not alive(m, seat):
        return
    if m.players[seat]["health"] >= 1:
        say(m, "{player} survives.", player=nm(m, seat), banner={"tone": "good", "title": "Saved"})
        push(m, {**task, "do": "hurt"})
        return
    menu = save_menu(m, seat)
    could_hold_beer = bool(hand(m, seat)) and beer_saves(m)
    if len(menu) == 1 and not could_hold_beer:
        die(m, seat, task["source"])  # nothing could save him, as everyone can see
        return
    ask(m, "save", seat, source=task["source"], amount=task["amount"])


def t_hurt(m: Match, task: dict[str, Any]) -> None:
    """What happens after a hit that was survived: Bart Cassidy draws, El Gringo steals."""
    seat, amount, source = task["seat"], task["amount"], task["source"]
    if not alive(m, seat):
        return
    if char(m, seat) == "Bart Cassidy":
        draw_to_hand(m, seat, amount, " (Bart Cassidy)")
    if char(m, seat) == "El Gringo" and source is not None and source != seat and alive(m, source):
        for _ in range(amount):
            if not hand(m, source):
                break
            card = take_from_hand(m, source, m.rng.choice(hand(m, source)))
            hand(m, seat).append(card)
            say(m, "{player} (El Gringo) takes a card from {source}'s hand.", player=nm(m, seat), source=nm(m, source))
            say(m, "{player} takes {card} from {source}.", seat, source, player=nm(m, seat), card=label(card),
                source=nm(m, source))
            suzy(m)


def die(m: Match, seat: int, source: int | None) -> None:
    """The death-save failed: first the dying player orders their cards for the discard pile."""
    m.state["order"][str(seat)] = []
    push(m, {"do": "last_order", "seat": seat, "source": source})


def eliminate(m: Match, seat: int, source: int | None) -> None:
    p = m.players[seat]
    p["is_alive"] = False
    p["health"] = 0
    m.state["dying"].append({"seat": seat, "source": source})
    say(m, "{player} is eliminated.", player=nm(m, seat), banner={"tone": "bad", "title": "Eliminated"})
    if seat == active(m):
        m.state["turn"]["stage"] = "end"


def remaining_cards(m: Match, seat: int) -> list[str]:
    """A dying player's cards not yet ordered: hand, then table (the default order)."""
    done = m.state["order"].get(str(seat), [])
    return [c for c in hand(m, seat) + table(m, seat) if c not in done]


def goes_to_discard(m: Match, seat: int) -> bool:
    """A dead player's cards go to the discard pile unless Vulture Sam (alive) takes them."""
    return not any(char(m, s) == "Vulture Sam" for s in living(m) if s != seat)


def ends_the_game(m: Match, seat: int, source: int | None) -> bool:
    """Whether this death, with the others of the card, decides the game (then no order matters)."""
    p = m.players[seat]
    p["is_alive"] = False
    try:
        if three_player(m):
            return hunted(m, seat, source) or bool(m.state["hunt"]) or len(living(m)) <= 1
        return bool(winning_side(m))
    finally:
        p["is_alive"] = True


def t_last_order(m: Match, task: dict[str, Any]) -> None:
    """Ask the dying player which card goes to the discard pile next, while two labels remain."""
    seat, source = task["seat"], task["source"]
    rest = remaining_cards(m, seat)
    if len({label(c) for c in rest}) > 1 and goes_to_discard(m, seat) and not ends_the_game(m, seat, source):
        ask(m, "order", seat, source=source)
        return
    m.state["order"][str(seat)] = m.state["order"].get(str(seat), []) + rest
    eliminate(m, seat, source)


def t_duel(m: Match, task: dict[str, Any]) -> None:
    seat, other = task["seat"], task["other"]
    if not (alive(m, seat) and alive(m, other)):
        return
    if hand(m, seat):
        ask(m, "duel", seat, other=other, challenger=task["challenger"])
    else:
        duel_lost(m, seat, other, task["challenger"])


def duel_lost(m: Match, seat: int, other: int, challenger: int) -> None:
    source: int | None = other
    if seat == challenger and m.options["duel_challenger_loss"] == "self":
        source = None
    say(m, "{player} loses the Duel.", player=nm(m, seat), banner={"tone": "bad", "title": "Duel lost", "card": "Duel"})
    push(m, {"do": "damage", "seat": seat, "amount": 1, "source": source})


def t_group(m: Match, task: dict[str, Any]) -> None:
    kind = task["kind"]
    seats = [s for s in task["seats"] if alive(m, s)]
    if kind == "gatling":
        for s in seats:
            if m.state["need"].get(str(s), 1) <= 0:
                say(m, "{player} avoids the Gatling.", player=nm(m, s))
        seats = [s for s in seats if m.state["need"].get(str(s), 1) > 0]
    asked = [s for s in seats if hand(m, s)]  # an empty hand is public: no need to ask
    if asked:
        ask_group(m, kind, asked, source=task["source"], order=seats)
    else:
        answer_group(m, {"kind": kind, "seats": [], "order": seats, "source": task["source"]}, {})


def t_store(m: Match, task: dict[str, Any]) -> None:
    seat, store = task["seat"], m.state["store"]
    if not store or not alive(m, seat):
        return
    if len(store) == 1:
        card = store.pop()
        hand(m, seat).append(card)
        say(m, "{player} takes {card} from the General Store.", player=nm(m, seat), card=label(card))
        return
    ask(m, "store", seat)


def t_store_end(m: Match, task: dict[str, Any]) -> None:
    if m.state["store"]:
        to_discard(m, *m.state["store"])
        m.state["store"] = []


def t_choose_characters(m: Match, task: dict[str, Any]) -> None:
    if m.state["candidates"]:
        ask_group(m, "character", living(m))


def t_finish_setup(m: Match, task: dict[str, Any]) -> None:
    for seat in range(len(m.players)):
        set_life(m, seat)
        if m.players[seat]["is_alive"] and not m.players[seat]["hand"]:
            draw_to_hand(m, seat, m.players[seat]["health"])
    say(m, "Starting hands are dealt: as many cards as life points.")


TASKS = {
    "dynamite": t_dynamite, "jail": t_jail, "begin_draw": t_begin_draw, "barrel": t_barrel,
    "shot": t_shot, "damage": t_damage, "save": t_save, "hurt": t_hurt, "duel": t_duel,
    "group": t_group, "store": t_store, "store_end": t_store_end,
    "choose_characters": t_choose_characters, "finish_setup": t_finish_setup, "last_order": t_last_order,
}


# -- menus: what a player may choose now (option text -> action) ---------------------------------------
def play_menu(m: Match, seat: int) -> dict[str, list[Any]]:
    players = m.players
    p = players[seat]
    n = len(players)
    others = [o for o in ((seat + i) % n for i in range(1, n)) if players[o]["is_alive"]]  # clockwise
    calamity = p["character"] == "Calamity Janet"
    kinds = {NAMES[c] for c in p["hand"]}
    aims = "BANG!" in kinds or "Panic!" in kinds or (calamity and "Missed!" in kinds)
    near = distances(m, seat, others) if aims else {}
    if aims and bang_allowed(m, seat):
        far = reach(m, seat)
        shots = [o for o in others if near[o] <= far]
    else:
        shots = []
    names = m.names
    menu: dict[str, list[Any]] = {}
    for card in p["hand"]:
        lab, kind = LABELS[card], NAMES[card]
        if kind == "BANG!" or (kind == "Missed!" and calamity):
            for o in shots:
                menu.setdefault(f"{lab} at {names[o]}", ["bang", card, o])
        elif kind in _SIMPLE:
            menu.setdefault(lab, [kind, card])
        elif kind == "Panic!" or kind == "Cat Balou":
            victims = [o for o in others if kind == "Cat Balou" or near[o] <= 1]
            if kind == "Cat Balou" and m.options["cat_balou_self"]:
                victims.append(seat)
            for o in victims:
                if hand(m, o) and o != seat:
                    menu.setdefault(f"{lab} at {names[o]} (hand)", [kind, card, o, None])
                for target in table(m, o):
                    menu.setdefault(f"{lab} at {names[o]} ({LABELS[target]})", [kind, card, o, target])
        elif kind == "Duel":
            for o in others:
                menu.setdefault(f"{lab} at {names[o]}", ["Duel", card, o])
        elif kind == "Jail":
            for o in others:
                if players[o]["role"] != "Sheriff" and in_play(m, o, "Jail") is None:
                    menu.setdefault(f"{lab} at {names[o]}", ["Jail", card, o])
        elif kind in _BLUE_SELF:
            if kind in WEAPONS or in_play(m, seat, kind) is None:
                menu.setdefault(lab, ["equip", card])
    if p["health"] < p["max_health"]:
        menu.update(sid_menu(m, seat))
    menu["Pass"] = ["pass"]
    return menu


#: the play menu's kinds of card as sets (the same members as the board's tuples)
_SIMPLE, _BLUE_SELF = frozenset(SIMPLE), frozenset(BLUE_SELF)


def draw_menu(m: Match, seat: int) -> dict[str, list[Any]]:
    character = char(m, seat)
    if character == "Kit Carlson":
        kit = m.state["kit"]
        if not kit:
            kit.extend(c for c in (draw_card(m), draw_card(m), draw_card(m)) if c is not None)
            if kit:
                say(m, "You look at {cards}.", seat, cards=labels(kit))
        if len(kit) < 3:
            return {"Draw": ["kit", list(kit)]}
        return {f"Keep {label(a)}, {label(b)}": ["kit", [a, b]] for a, b in combinations(kit, 2)}
    if character == "Jesse Jones":
        menu = {"Draw from deck": ["deck"]}
        for o in clockwise(m, seat):
            if o != seat and hand(m, o):
                menu[f"Draw from {nm(m, o)}"] = ["jesse", o]
        return menu
    if character == "Pedro Ramirez":
        menu = {"Draw from deck": ["deck"]}
        if m.state["discard"]:
            menu["Draw from discard"] = ["pedro"]
        return menu
    return {"Draw": ["deck"]}


def do_draw(m: Match, seat: int, action: list[Any]) -> None:
    kind = action[0]
    if kind == "kit":
        kept = action[1]
        rest = [c for c in m.state["kit"] if c not in kept]
        hand(m, seat).extend(kept)
        m.state["kit"] = []
        m.state["deck"][0:0] = rest  # the card not chosen goes back on top, face down
        say(m, "{player} (Kit Carlson) keeps 2 of the top 3 cards and puts one back.", player=nm(m, seat))
        say(m, "You keep {cards}.", seat, cards=labels(kept))
    elif kind == "jesse":
        victim = action[1]
        card = take_from_hand(m, victim, m.rng.choice(hand(m, victim)))
        hand(m, seat).append(card)
        say(m, "{player} (Jesse Jones) draws his first card from {source}'s hand.", player=nm(m, seat),
            source=nm(m, victim))
        say(m, "{player} takes {card} from {source}.", seat, victim, player=nm(m, seat), card=label(card),
            source=nm(m, victim))
        suzy(m)  # at once, before his second card
        draw_to_hand(m, seat, 1)
    elif kind == "pedro":
        card = m.state["discard"].pop()
        hand(m, seat).append(card)
        say(m, "{player} (Pedro Ramirez) takes {card} from the discard pile.", player=nm(m, seat), card=label(card))
        draw_to_hand(m, seat, 1)
    elif char(m, seat) == "Black Jack":
        draw_to_hand(m, seat, 1)
        second = draw_card(m)
        if second is not None:
            hand(m, seat).append(second)
            say(m, "{player} (Black Jack) shows his second card: {card}.", player=nm(m, seat), card=label(second))
            if CARDS[second].red:
                draw_to_hand(m, seat, 1, " (Black Jack: a red card)")
    else:
        draw_to_hand(m, seat, 2)
    m.state["turn"]["stage"] = "play"
    suzy(m)


def response_cards(m: Match, seat: int, wanted: str) -> list[str]:
    """The cards that count as ``wanted`` (BANG! or Missed!) for this player."""
    also = {"BANG!": "Missed!", "Missed!": "BANG!"}[wanted] if char(m, seat) == "Calamity Janet" else None
    return [c for c in hand(m, seat) if CARDS[c].name in (wanted, also)]


def answer_menu(m: Match, p: dict[str, Any], seat: int) -> dict[str, list[Any]]:
    kind = p["kind"]
    menu: dict[str, list[Any]] = {}
    if kind in ("shot", "gatling"):
        cards = response_cards(m, seat, "Missed!")
        need = m.state["need"].get(str(seat), 1)
        if need <= 1:
            for c in cards:
                menu.setdefault(label(c), ["cards", [c]])
        else:
            for a, b in combinations(cards, 2):
                menu.setdefault(f"{label(a)}, {label(b)}", ["cards", [a, b]])
            if char(m, seat) == "Suzy Lafayette" and len(hand(m, seat)) == 1 and cards:
                menu.setdefault(label(cards[0]), ["cards", [cards[0]]])
        menu["Pass"] = ["pass"]
    elif kind in ("duel", "indians"):
        for c in response_cards(m, seat, "BANG!"):
            menu.setdefault(label(c), ["cards", [c]])
        menu["Pass"] = ["pass"]
    if kind in ("shot", "duel", "gatling", "indians") and m.players[seat]["health"] < m.players[seat]["max_health"]:
        menu.update(sid_menu(m, seat))  # Sid Ketchum may heal at any time, then answer
    elif kind == "save":
        menu = save_menu(m, seat)
    elif kind == "pick":
        menu = {f"Choose {label(c)}": ["pick", c] for c in m.state["flipped"]}
    elif kind == "store":
        menu = {f"Take {label(c)}": ["take", c] for c in m.state["store"]}
    elif kind == "draw":
        menu = draw_menu(m, seat)
    elif kind == "character":
        menu = {name: ["character", name] for name in m.state["candidates"][str(seat)]}
    elif kind == "order":
        menu = {}
        for c in remaining_cards(m, seat):
            menu.setdefault(f"Discard {label(c)}", ["order", c])
    return menu


# -- answers -------------------------------------------------------------------------------------------
def answer(m: Match, p: dict[str, Any], seat: int, action: list[Any]) -> None:
    kind, what = p["kind"], action[0]
    if what == "sid" and kind in ("shot", "duel"):
        sid_heal(m, seat, action[1])
        task = {"do": "shot", "seat": seat, "source": p.get("source"), "card": p.get("card")} if kind == "shot" \
            else {"do": "duel", "seat": seat, "other": p["other"], "challenger": p["challenger"]}
        push(m, task)  # and the same question again
        return
    if kind in ("shot", "gatling"):
        if what == "cards":
            for c in action[1]:
                to_discard(m, take_from_hand(m, seat, c))
            say(m, "{player} plays {cards}.", player=nm(m, seat), cards=labels(action[1]))
            m.state["need"][str(seat)] -= len(action[1])
            if kind == "shot":
                push(m, {"do": "shot", "seat": seat, "source": p["source"], "card": p["card"]})
        else:
            say(m, "{player} takes the hit.", player=nm(m, seat))
            m.state["need"][str(seat)] = 0
            push(m, {"do": "damage", "seat": seat, "amount": 1, "source": p["source"]})
    elif kind == "duel":
        if what == "cards":
            to_discard(m, take_from_hand(m, seat, action[1][0]))
            say(m, "{player} discards {card} in the Duel.", player=nm(m, seat), card=label(action[1][0]))
            push(m, {"do": "duel", "seat": p["other"], "other": seat, "challenger": p["challenger"]})
        else:
            duel_lost(m, seat, p["other"], p["challenger"])
    elif kind == "save":
        if what == "beer":
            to_discard(m, take_from_hand(m, seat, action[1]))
            heal(m, seat)
            say(m, "{player} drinks {card} to stay alive.", player=nm(m, seat), card=label(action[1]),
                banner={"tone": "good", "title": "Saved", "card": label(action[1])})
            push(m, {"do": "save", "seat": seat, "amount": p["amount"], "source": p["source"]})
        elif what == "sid":
            sid_heal(m, seat, action[1])
            push(m, {"do": "save", "seat": seat, "amount": p["amount"], "source": p["source"]})
        else:
            die(m, seat, p["source"])
    elif kind == "pick":
        chosen = action[1]
        other = [c for c in m.state["flipped"] if c != chosen]
        to_discard(m, *other, chosen)
        m.state["flipped"] = []
        say(m, "{player} chooses {card}.", player=nm(m, seat), card=label(chosen))
        resolve_check(m, seat, p["reason"], chosen)
    elif kind == "store":
        card = action[1]
        m.state["store"].remove(card)
        hand(m, seat).append(card)
        say(m, "{player} takes {card} from the General Store.", player=nm(m, seat), card=label(card))
    elif kind == "draw":
        do_draw(m, seat, action)
    elif kind == "order":
        m.state["order"].setdefault(str(seat), []).append(action[1])
        push(m, {"do": "last_order", "seat": seat, "source": p.get("source")})


def answer_group(m: Match, p: dict[str, Any], answers: dict[int, list[Any]]) -> None:
    kind = p["kind"]
    if kind == "character":
        for seat, action in answers.items():
            m.players[seat]["character"] = action[1]
            m.players[seat]["character_ability"] = CHARACTERS[action[1]].ability
            say(m, "{player} plays {card}.", player=nm(m, seat), card=action[1])
        m.state["candidates"] = {}
        return
    hits = []
    for seat in p["order"]:  # clockwise from the player of the card
        action = answers.get(seat, ["pass"])
        if action[0] == "sid":  # Sid Ketchum healed first: he is asked again
            sid_heal(m, seat, action[1])
            hits.insert(0, {"do": "group", "kind": kind, "seats": [seat], "source": p["source"]})
        elif action[0] == "cards":
            for c in action[1]:
                to_discard(m, take_from_hand(m, seat, c))
            say(m, "{player} discards {cards}.", player=nm(m, seat), cards=labels(action[1]))
        else:
            say(m, "{player} takes the hit.", player=nm(m, seat))
            hits.append({"do": "damage", "seat": seat, "amount": 1, "source": p["source"]})
    push(m, *hits)


def sid_heal(m: Match, seat: int, cards: list[str]) -> None:
    for c in cards:
        to_discard(m, take_from_hand(m, seat, c))
    heal(m, seat)
    say(m, "{player} (Sid Ketchum) discards {cards} to regain 1 life.", player=nm(m, seat), cards=labels(cards))


# -- playing a card ------------------------------------------------------------------------------------
def play(m: Match, seat: int, action: list[Any]) -> None:
    kind = action[0]
    if kind == "sid":
        sid_heal(m, seat, action[1])
        return
    card = take_from_hand(m, seat, action[1])
    name = NAMES[card]
    target = action[2] if len(action) > 2 else None
    if not m.headless:  # headless, no line is written: its names are not looked up either
        if target is not None:
            say(m, "{player} plays {card} at {target}.", player=nm(m, seat), card=label(card), target=nm(m, target))
        else:
            say(m, "{player} plays {card}.", player=nm(m, seat), card=label(card))
    if CARDS[card].border == "brown":
        to_discard(m, card)
    if kind == "bang":
        m.players[seat]["bangs_played_this_turn"] += 1
        need = 2 if char(m, seat) == "Slab the Killer" else 1
        m.state["need"] = {str(target): need}
        push(m, *barrels(m, target), {"do": "shot", "seat": target, "source": seat, "card": card})
    elif name == "Beer":
        if len(living(m)) > 2:
            heal(m, seat)
        else:
            say(m, "With two players left, Beer has no effect.")
    elif name == "Saloon":
        for s in living(m):
            heal(m, s)
    elif name == "Stagecoach":
        draw_to_hand(m, seat, 2)
    elif name == "Wells Fargo":
        draw_to_hand(m, seat, 3)
    elif name == "Panic!":
        taken = target_card(m, target, action[3])
        hand(m, seat).append(taken)
        if action[3] is None:
            say(m, "{player} takes a card from {source}'s hand.", player=nm(m, seat), source=nm(m, target))
            say(m, "{player} takes {card} from {source}.", seat, target, player=nm(m, seat), card=label(taken),
                source=nm(m, target))
        else:
            say(m, "{player} takes {card} from {source}.", player=nm(m, seat), card=label(taken), source=nm(m, target))
    elif name == "Cat Balou":
        dropped = target_card(m, target, action[3])
        to_discard(m, dropped)
        say(m, "{player} discards {card}.", player=nm(m, target), card=label(dropped))
    elif name == "General Store":
        cards = [c for c in (draw_card(m) for _ in living(m)) if c is not None]
        m.state["store"] = cards
        say(m, "General Store: {cards}.", cards=labels(cards))
        push(m, *({"do": "store", "seat": s} for s in clockwise(m, seat)), {"do": "store_end"})
    elif name == "Duel":
        push(m, {"do": "duel", "seat": target, "other": seat, "challenger": seat})
    elif name == "Indians!":
        others = [s for s in clockwise(m, seat) if s != seat]
        push(m, {"do": "group", "kind": "indians", "seats": others, "source": seat})
    elif name == "Gatling":
        others = [s for s in clockwise(m, seat) if s != seat]
        m.state["need"] = {str(s): 1 for s in others}
        push(m, *(t for s in others for t in barrels(m, s)),
             {"do": "group", "kind": "gatling", "seats": others, "source": seat})
    elif name == "Jail":
        table(m, target).append(card)
        sync(m, target)
    elif kind == "equip":
        if name in WEAPONS:
            old = weapon(m, seat)
            if old is not None:
                to_discard(m, take_from_table(m, seat, old))
                say(m, "{player} discards {card}.", player=nm(m, seat), card=label(old))
        table(m, seat).append(card)
        sync(m, seat)


def barrels(m: Match, seat: int) -> list[dict[str, Any]]:
    sources = (in_play(m, seat, "Barrel") is not None) + (char(m, seat) == "Jourdonnais")
    return [{"do": "barrel", "seat": seat}] * sources


def target_card(m: Match, seat: int, card: str | None) -> str:
    """A random card from the hand (None), or that card in front of the player."""
    if card is None:
        return take_from_hand(m, seat, m.rng.choice(hand(m, seat)))
    return take_from_table(m, seat, card)


# -- the end of the game ------------------------------------------------------------------------------------
def role(m: Match, seat: int) -> str:
    return m.players[seat]["role"]


def winning_side(m: Match) -> str:
    """'' while the game goes on; judged on who is alive now (rules §2). With 3 players the
    side is the winner's role, decided when the eliminations are processed (``hunt_result``)."""
    players = m.players
    if len(players) == 3:
        return m.state["side"]
    roles = [p["role"] for p in players if p["is_alive"]]
    if "Sheriff" not in roles:
        if roles == ["Renegade"]:
            return "Renegade"
        return "Outlaws"
    if "Outlaw" not in roles and "Renegade" not in roles:
        return "Sheriff"
    return ""


def hunted(m: Match, seat: int, source: int | None) -> bool:
    """3 players: ``source`` personally eliminated its own target."""
    return source is not None and source != seat and HUNTS.get(role(m, source)) == role(m, seat) \
        and m.players[source]["is_alive"]


def hunt_result(m: Match, dying: list[dict[str, Any]]) -> str:
    """3 players, after a card's eliminations: the role that wins, or '' (the game goes on).

    A player who personally eliminates their target wins at once. Any other elimination
    (a wrong target, Dynamite, a Duel lost by its challenger) leaves the two survivors
    playing last man standing: the next elimination decides.
    """
    for d in dying:
        if hunted(m, d["seat"], d["source"]):
            return role(m, d["source"])
    alive_now = living(m)
    if len(alive_now) == 1:
        return role(m, alive_now[0])
    if dying:
        m.state["hunt"] = "last"
    return ""


def winners_of(m: Match, side: str) -> list[int]:
    if three_player(m):
        return [s for s in range(len(m.players)) if role(m, s) == side]
    if side == "Renegade":
        return living(m)
    team = ("Outlaw",) if side == "Outlaws" else ("Sheriff", "Deputy")
    return [s for s in range(len(m.players)) if role(m, s) in team]


# -- phase tools: 0-3, setup ---------------------------------------------------------------------------------
def rigged(m: Match) -> bool:
    return any(key in m.setup for key in ("hands", "characters", "roles", "health", "equipment", "dead"))


def seat_named(m: Match, who: Any, key: str) -> int:
    if who not in m.names:
        raise ValueError(f"setup.{key} names {who!r}, who is not playing")
    return m.names.index(who)


@game.tool
def clear_phase_ui(m: Match) -> None:
    """First tool of every phase: say who may act in the active player's phases."""
    state = m.state
    turn, reaction = state["turn"], state["reaction"]
    p = reaction["prompt"]
    who = -1
    if p:
        reaction["current_responder_id"] = p["seat"] + 1 if "seat" in p else 0
        reaction["affected_player_ids"] = [s + 1 for s in p["seats"]] if "seats" in p else []
    else:
        phase = m.phase_id
        if phase in _OWN_STAGE:
            seat = turn["seat"]
            if turn["stage"] == _OWN_STAGE[phase] and m.players[seat]["is_alive"] and \
                    (phase != 12 or len(hand(m, seat)) > hand_limit(m, seat)):
                who = seat
        reaction["current_responder_id"] = 0
        reaction["affected_player_ids"] = []
    turn["active_index"] = who


#: the phases in which the active player alone acts, and the turn's stage they act in
_OWN_STAGE = {5: "draw", 6: "play", 12: "discard"}


@game.tool(display=True)
def display_game_intro(m: Match) -> None:
    if not m.headless:
        m.canvas.show("text", key="intro", text=(
            "BANG!: the Sheriff (revealed) and his Deputies against the Outlaws and the Renegade. "
            "On your turn: draw 2 cards, play cards, discard down to your life."))


@game.tool
def display_player_setup(m: Match) -> None:
    unknown = set(m.setup) - set(SETUP_KEYS)
    if unknown:
        raise ValueError(f"unknown setup key(s) for bang: {', '.join(sorted(unknown))}")
    say(m, "Players clockwise: {players}.", players=list(m.names))


@game.tool
def assign_roles_randomly(m: Match) -> None:
    given = {seat_named(m, who, "roles"): str(r) for who, r in (m.setup.get("roles") or {}).items()}
    for r in given.values():
        if r not in ROLE_NAMES:
            raise ValueError(f"setup.roles: {r!r} is not a role ({', '.join(ROLE_NAMES)})")
    pool = list(ROLES_BY_COUNT[len(m.players)])
    for r in given.values():
        if r in pool:
            pool.remove(r)
    rest = (pool + ["Outlaw"] * len(m.players))[:len(m.players) - len(given)]
    m.shuffle(rest)
    for seat, p in enumerate(m.players):
        p["role"] = given[seat] if seat in given else rest.pop(0)
        p["is_role_revealed"] = p["role"] == "Sheriff" or three_player(m)  # 3 players: all face up
    if three_player(m):
        if sorted(p["role"] for p in m.players) != sorted(ROLES_BY_COUNT[3]):
            raise ValueError("setup.roles: with 3 players the roles are one Deputy, one Outlaw and one Renegade")
    elif sum(p["role"] == "Sheriff" for p in m.players) != 1:
        raise ValueError("setup.roles must leave exactly one Sheriff")


@game.tool(display=True)
def notify_player_roles(m: Match) -> None:
    for seat, p in enumerate(m.players):
        say(m, "Your role: {role}.", seat, role=p["role"])


@game.tool
def assign_characters_randomly(m: Match) -> None:
    given = {seat_named(m, who, "characters"): c for who, c in (m.setup.get("characters") or {}).items()}
    names = [c for c in CHARACTERS if c not in given.values()]
    m.shuffle(names)
    free = len(names) // max(1, sum(1 for seat in range(len(m.players)) if seat not in given))
    choice = max(1, min(int(m.options["character_choice"]), free))  # 16 characters to share out
    for seat, p in enumerate(m.players):
        if seat in given:
            character = CHARACTERS[given[seat]] if given[seat] else NO_CHARACTER
        elif rigged(m):
            character = NO_CHARACTER
        elif choice > 1:
            offered = [names.pop(0) for _ in range(choice)]
            m.state["candidates"][str(seat)] = offered
            character = NO_CHARACTER
        else:
            character = CHARACTERS[names.pop(0)]
        p["character"] = character.name
        p["character_ability"] = character.ability


@game.tool
def notify_player_characters(m: Match) -> None:
    for seat, p in enumerate(m.players):
        offered = m.state["candidates"].get(str(seat))
        if offered:
            say(m, "Choose your character: {first} or {second}.", seat, first=offered[0], second=offered[-1])
        elif p["character"]:
            say(m, "{player} is {character}: {ability}", player=nm(m, seat), character=p["character"],
                ability=p["character_ability"])


@game.tool
def assign_seat_order(m: Match) -> None:
    for seat, p in enumerate(m.players):
        p.update(seat_index=seat, hand=[], table=[], is_alive=True, bangs_played_this_turn=0,
                 hand_limit_modifier=0)
    for who in m.setup.get("dead") or []:
        m.players[seat_named(m, who, "dead")].update(is_alive=False, is_role_revealed=True)
    if m.setup.get("dead"):
        decided_before_it_starts(m)
    first = m.setup.get("first")
    leader = "Deputy" if three_player(m) else "Sheriff"  # the Deputy starts a 3-player game
    sheriff = next(s for s, p in enumerate(m.players) if p["role"] == leader)
    m.state["turn"]["seat"] = m.names.index(first) if first else sheriff


def decided_before_it_starts(m: Match) -> None:
    """A setup whose ``dead`` players leave the game already decided (rules §2: no Sheriff alive, or
    nobody alive but his side; with 3 players, one survivor) is refused: the game would be played on
    until a card happened to reach the win check."""
    alive = [p["role"] for p in m.players if p["is_alive"]]
    decided = len(alive) < 2 if three_player(m) else \
        "Sheriff" not in alive or not {"Outlaw", "Renegade"} & set(alive)
    if decided:
        living_roles = [f"{m.names[s]} ({p['role']})" for s, p in enumerate(m.players) if p["is_alive"]]
        raise ValueError("setup.dead: the game would be over before it starts (alive: "
                         f"{', '.join(living_roles) or 'nobody'})")


def set_life(m: Match, seat: int) -> None:
    p = m.players[seat]
    life = CHARACTERS[p["character"]].life if p["character"] else NO_CHARACTER.life
    p["max_health"] = life + (p["role"] == "Sheriff")
    health = (m.setup.get("health") or {}).get(m.names[seat])
    p["health"] = p["max_health"] if health is None else int(health)
    if p["health"] > p["max_health"]:
        raise ValueError(f"setup.health.{m.names[seat]}: {health} is above the maximum of {p['max_health']}")
    if not p["is_alive"]:
        p["health"] = 0


@game.tool
def initialize_health_and_reveal_sheriff(m: Match) -> None:
    for who in m.setup.get("health") or {}:
        seat_named(m, who, "health")
    for seat, p in enumerate(m.players):
        set_life(m, seat)
    if three_player(m):
        for seat, p in enumerate(m.players):
            say(m, "{player} is the {role} and must eliminate the {target}.", player=nm(m, seat), role=p["role"],
                target=HUNTS[p["role"]])
        return
    sheriff = next(s for s, p in enumerate(m.players) if p["role"] == "Sheriff")
    say(m, "{player} is the Sheriff.", player=nm(m, sheriff))


def cards_named(m: Match, cards: list[Any], where: str, pool: list[str]) -> list[str]:
    ids = []
    for text in cards:
        card = next((c for c in pool if label(c) == str(text)), None)
        if card is None:
            raise ValueError(f"{where}: {text!r} is not a card left in the deck")
        pool.remove(card)
        ids.append(card)
    return ids


@game.tool
def equip_base_weapons(m: Match) -> None:
    """Everyone starts with the Colt .45 (range 1); a scenario may put cards in play."""
    pool = list(DECK)
    m.state["pool"] = pool
    for who, cards in (m.setup.get("equipment") or {}).items():
        seat = seat_named(m, who, "equipment")
        m.players[seat]["table"] = cards_named(m, cards, f"setup.equipment.{who}", pool)
    for seat in range(len(m.players)):
        sync(m, seat)


@game.tool
def deal_starting_hands_and_display_state(m: Match) -> None:
    pool = m.state.pop("pool")
    hands = m.setup.get("hands") or {}
    for who, cards in hands.items():
        m.players[seat_named(m, who, "hands")]["hand"] = cards_named(m, cards, f"setup.hands.{who}", pool)
    top = cards_named(m, m.setup.get("deck") or [], "setup.deck", pool)
    pile = cards_named(m, m.setup.get("discard") or [], "setup.discard", pool)
    m.shuffle(pool)
    m.state["deck"] = pool
    if not m.state["candidates"]:
        for seat, p in enumerate(m.players):
            if p["is_alive"] and m.names[seat] not in hands:
                draw_to_hand(m, seat, p["health"])
    m.state["deck"] = top + m.state["deck"]
    m.state["discard"] = list(reversed(pile))
    m.state["turn"]["stage"] = "predraw"
    render(m)


# -- phase 4: the start of a turn ---------------------------------------------------------------------------------
@game.tool
def announce_active_player(m: Match) -> None:
    m.state["turn"]["number"] += 1
    if not m.headless:
        say(m, "Turn {number}: {player}.", number=m.state["turn"]["number"], player=nm(m, active(m)))


@game.tool
def reset_turn_counters(m: Match) -> None:
    for p in m.players:
        p["bangs_played_this_turn"] = 0


@game.tool
def resolve_start_of_turn_effects(m: Match) -> None:
    """Dynamite first, then Jail, then the draw (rules §4)."""
    m.state["turn"]["stage"] = "predraw"
    tasks: list[dict[str, Any]] = []
    if m.state["candidates"]:
        tasks += [{"do": "choose_characters"}, {"do": "finish_setup"}]
    tasks += [{"do": "dynamite"}, {"do": "jail"}, {"do": "begin_draw"}]
    m.state["queue"] = tasks
    advance(m)


# -- phase 5: draw ------------------------------------------------------------------------------------------------
@game.tool
def prompt_draw_choices(m: Match) -> None:
    for seat in m.targets:
        offer(m, seat, draw_menu(m, seat), auto=True)


@game.tool
def draw_cards_and_update_state(m: Match) -> None:
    for seat, action in answers(m).items():
        do_draw(m, seat, action)
    if interjected(m) and m.state["turn"]["stage"] == "draw":
        ask(m, "draw", active(m))  # the same question again, in phase 7


def offer(m: Match, seat: int, menu: dict[str, list[Any]], auto: bool) -> None:
    m.state["menus"][str(seat)] = menu
    sid = interjector(m, seat) if m.phase_id in SINGLE else None
    if sid is None:
        m.offer(seat, menu, auto=auto)
    else:
        m.offer(seat, list(menu), auto=auto, closing=list(menu))
        heal = {option: ["interject", action[1]] for option, action in sid_menu(m, sid).items()}
        m.state["menus"][str(sid)] = {**heal, NOT_NOW: ["wait"]}
        m.offer(sid, [*heal, NOT_NOW], closing=list(heal), auto=False, standing=True)


def interjector(m: Match, chooser: int) -> int | None:
    """Sid Ketchum, when he could heal now while ``chooser`` alone decides (all public facts)."""
    for seat, p in enumerate(m.players):
        if p["character"] == "Sid Ketchum" and seat != chooser and p["is_alive"] \
                and p["health"] < p["max_health"] and len(p["hand"]) >= 2:
            return seat
    return None


def answers(m: Match) -> dict[int, list[Any]]:
    """The actions chosen in this phase's decision (menus are then cleared). Sid Ketchum's
    ``Not now`` is no action; his heal beside another player's decision is applied here."""
    decision = m.last_decision
    state = m.state
    menus = state["menus"]
    state["menus"] = {}
    got: dict[int, list[Any]] = {}
    if not decision:
        return got
    for seat, option in decision.answers.items():
        action = menus[str(seat)][option]
        head = action[0]
        if head == "wait":
            continue
        if head == "interject":
            sid_heal(m, seat, action[1])
            state["healed"] = True
            continue
        got[seat] = action
    return got


def interjected(m: Match) -> bool:
    """Whether Sid Ketchum healed beside the decision that just closed (it is then asked again)."""
    return bool(m.state.pop("healed", False))


# -- phase 6: play -------------------------------------------------------------------------------------------------
@game.tool(display=True)
def open_play_interface(m: Match) -> None:
    pass


@game.tool
def enable_card_play_or_pass(m: Match) -> None:
    for seat in m.targets:  # never auto-passed: that would tell the table the hand is unplayable
        offer(m, seat, play_menu(m, seat), auto=False)
    if not m.headless:
        render(m)


@game.tool
def update_play_state(m: Match) -> None:
    chosen = answers(m)
    interjected(m)  # Sid healed instead: the play step is asked again
    for seat, action in chosen.items():
        if action[0] == "pass":
            m.state["turn"]["stage"] = "discard"
        else:
            play(m, seat, action)
            advance(m)


@game.route(6)
def after_play_step(m: Match) -> int:
    if prompt(m):
        return 14
    if m.state["dying"] or m.state["turn"]["stage"] == "play":
        return 9
    return 12


# -- phase 14: reaction routing ---------------------------------------------------------------------------------------
@game.tool(display=True)
def set_reaction_context(m: Match) -> None:
    pass  # clear_phase_ui already set the responders from the pending prompt


@game.route(14)
def after_reaction_routing(m: Match) -> int:
    p = prompt(m)
    if not p:
        return 9
    return 8 if p["kind"] in GROUP else 7


# -- phases 7 and 8: answers -----------------------------------------------------------------------------------------
@game.tools_named("prompt_single_reaction", "create_group_reaction_ui")
def offer_answers(m: Match) -> None:
    """Phases 7 and 8 alike: every player asked gets the answers the pending prompt allows."""
    p = prompt(m)
    for seat in m.targets:
        offer(m, seat, answer_menu(m, p, seat), auto=p["kind"] not in RESPONSES)
    if not m.headless:
        render(m)


@game.tool
def update_reaction_state(m: Match) -> None:
    p = prompt(m)
    chosen = answers(m)
    if interjected(m) and not chosen:
        return  # Sid Ketchum healed first: the same question is asked again
    m.state["reaction"]["prompt"] = {}
    for seat, action in chosen.items():
        answer(m, p, seat, action)
    advance(m)


@game.route(7)
def after_single_reaction(m: Match) -> int:
    p = prompt(m)
    return 7 if p and p["kind"] not in GROUP else 9


@game.tool
def collect_and_update_group_reactions(m: Match) -> None:
    p = prompt(m)
    chosen = answers(m)
    m.state["reaction"]["prompt"] = {}
    answer_group(m, p, chosen)
    advance(m)


# -- phases 9-11: resolution, eliminations, the win -------------------------------------------------------------------
@game.tool
def apply_card_effects_and_damage(m: Match) -> None:
    if not prompt(m):
        advance(m)


@game.tool
def check_pending_eliminations(m: Match) -> None:
    if not prompt(m) and not m.state["queue"]:
        m.state["need"] = {}


@game.tool(display=True)
def update_ui_log(m: Match) -> None:
    render(m)


@game.route(9)
def after_resolution(m: Match) -> int:
    if m.state["dying"] and not prompt(m) and not m.state["queue"]:
        return 10
    return 6


@game.tool
def process_eliminations_and_rewards(m: Match) -> None:
    """Rules §8.4 for the deaths of one card, judged together (§8.6), in an order that does not
    depend on where the victims sit: every role is revealed and the end judged on the state after
    all of them; then every dead player's cards go (to Vulture Sam or the discard pile); then every
    penalty (the Sheriff who eliminated a Deputy discards what he holds); then every reward
    (3 cards per Outlaw eliminated; with 3 players, per player eliminated). The Sheriff who kills
    a Deputy and an Outlaw with one Gatling thus discards his cards and then draws 3."""
    dying = m.state["dying"]
    m.state["dying"] = []
    for d in dying:
        m.players[d["seat"]]["is_role_revealed"] = True
        say(m, "{player} was {role}.", player=nm(m, d["seat"]), role=m.players[d["seat"]]["role"],
            banner={"tone": "info", "title": "Role revealed", "card": m.players[d["seat"]]["role"]})
    side = hunt_result(m, dying) if three_player(m) else winning_side(m)
    for d in dying:
        leave_cards(m, d["seat"])
    credited = [d for d in dying if not side and d["source"] is not None and d["source"] != d["seat"]
                and alive(m, d["source"])]
    for d in credited:
        source = d["source"]
        if role(m, d["seat"]) == "Deputy" and role(m, source) == "Sheriff" and (hand(m, source) or table(m, source)):
            lost = hand(m, source) + table(m, source)
            m.players[source]["hand"], m.players[source]["table"] = [], []
            sync(m, source)
            to_discard(m, *lost)
            say(m, "The Sheriff eliminated a Deputy: {player} discards every card.", player=nm(m, source))
            suzy(m)
    for d in credited:
        if role(m, d["seat"]) == "Outlaw" or three_player(m):
            why = " for eliminating an Outlaw" if role(m, d["seat"]) == "Outlaw" else " for a personal kill"
            draw_to_hand(m, d["source"], 3, why)
            suzy(m)
    m.state["eliminated"] = [d["seat"] for d in dying]
    m.state["side"] = side


def leave_cards(m: Match, seat: int) -> None:
    """The dead player's cards go to Vulture Sam, or to the discard pile in the order the player
    chose (by default hand, then table; the last card ends on top)."""
    p = m.players[seat]
    cards_hand, cards_table = p["hand"], p["table"]
    chosen = [c for c in m.state["order"].pop(str(seat), []) if c in cards_hand or c in cards_table]
    p["hand"], p["table"] = [], []
    sync(m, seat)
    vulture = next((s for s in living(m) if char(m, s) == "Vulture Sam"), None)
    if vulture is not None:
        hand(m, vulture).extend(cards_hand + cards_table)
        if cards_hand or cards_table:
            if cards_table:
                say(m, "{player} (Vulture Sam) takes {source}'s cards, {cards} from the table.", player=nm(m, vulture),
                    source=nm(m, seat), cards=labels(cards_table))
            else:
                say(m, "{player} (Vulture Sam) takes {source}'s cards.", player=nm(m, vulture), source=nm(m, seat))
            if cards_hand:
                say(m, "{player} takes {cards} from {source}'s hand.", vulture, seat, player=nm(m, vulture),
                    cards=labels(cards_hand), source=nm(m, seat))
    else:
        to_discard(m, *chosen, *[c for c in cards_hand + cards_table if c not in chosen])


@game.tool
def update_player_elimination_state(m: Match) -> None:
    for seat in m.state["eliminated"]:
        m.players[seat].update(is_alive=False, health=0, is_role_revealed=True)


@game.tool(display=True)
def display_elimination_results(m: Match) -> None:
    render(m)


@game.tool
def evaluate_win_conditions(m: Match) -> None:
    side = winning_side(m)
    m.state["side"] = side
    if side:
        m.finish(winners_of(m, side))


@game.route(11)
def after_win_check(m: Match) -> int:
    if m.state["side"]:
        return 99
    return 13 if m.state["turn"]["stage"] == "end" else 6


# -- phase 12: discard to the hand limit -------------------------------------------------------------------------------
def hand_limit(m: Match, seat: int) -> int:
    p = m.players[seat]
    return p["health"] + p["hand_limit_modifier"]


@game.tool
def prompt_discard_to_limit(m: Match) -> None:
    if not m.targets:
        if m.state["turn"]["stage"] == "discard":
            m.state["turn"]["stage"] = "end"
        return
    for seat in m.targets:
        menu = {f"Discard {label(c)}": ["discard", c] for c in hand(m, seat)}
        if m.players[seat]["health"] < m.players[seat]["max_health"]:
            menu.update(sid_menu(m, seat))  # Sid Ketchum may heal instead: it raises his limit
        offer(m, seat, menu, auto=True)
    render(m)


@game.tool
def apply_discards_and_update_state(m: Match) -> None:
    chosen = answers(m)
    interjected(m)  # Sid healed beside another player's discard: the step is asked again
    for seat, action in chosen.items():
        if action[0] == "sid":
            sid_heal(m, seat, action[1])
        else:
            to_discard(m, take_from_hand(m, seat, action[1]))
            if not m.headless:
                say(m, "{player} discards {card}.", player=nm(m, seat), card=label(action[1]))
        if len(hand(m, seat)) <= hand_limit(m, seat):
            m.state["turn"]["stage"] = "end"


# -- phase 13: the next turn ----------------------------------------------------------------------------------------
@game.tool
def advance_turn_order(m: Match) -> None:
    m.state["turn"]["seat"] = next_living(m, active(m))
    m.state["turn"]["stage"] = "predraw"


@game.tool(display=True)
def display_turn_transition(m: Match) -> None:
    render(m)


# -- phase 99 ------------------------------------------------------------------------------------------------------------
@game.tool
def display_game_over_summary(m: Match) -> None:
    for p in m.players:
        p["is_role_revealed"] = True
    titles = {"Outlaws": "The Outlaws win", "Sheriff": "The Sheriff and his Deputies win",
              "Renegade": "The Renegade wins", "Deputy": "The Deputy wins", "Outlaw": "The Outlaw wins"}
    say(m, titles.get(m.state["side"], "Game over") + ": {players}.", players=[nm(m, s) for s in m.winners])
    render(m)


@game.summarize
def summarize(m: Match) -> dict[str, Any]:
    return {"side": m.state["side"] or "none", "winners": [nm(m, s) for s in m.winners]}


@game.turn
def active_seat(m: Match) -> int | None:
    return active(m) if m.state["turn"]["stage"] != "setup" else None


# -- timeouts --------------------------------------------------------------------------------------------------------------
@game.on_timeout
def timeout_choice(m: Match, seat: int, options: list[str]) -> str:
    """Pass (end the play step, take the hit); drink a Beer to survive; the favourable "draw!" card."""
    if NOT_NOW in options:  # Sid Ketchum beside another player's decision: he lets it go
        return NOT_NOW
    p = prompt(m)
    if p and p.get("kind") == "save" and seat == p.get("seat"):
        beer = next((o for o in options if o.startswith("Beer ")), None)
        return beer or "Pass"
    if p and p.get("kind") == "order" and seat == p.get("seat"):  # the default order: hand, then table
        return f"Discard {label(remaining_cards(m, seat)[0])}"
    if p and p.get("kind") == "pick" and seat == p.get("seat"):
        good = {"barrel": lambda c: CARDS[c].suit == "H", "jail": lambda c: CARDS[c].suit == "H",
                "dynamite": lambda c: not explodes(c)}[p["reason"]]
        best = next((c for c in m.state["flipped"] if good(c)), m.state["flipped"][0])
        return f"Choose {label(best)}"
    if "Pass" in options:
        return "Pass"
    if options and options[0].startswith("Discard "):
        return random.Random(f"{m.seed}:{m.version}:{seat}").choice(options)
    return options[0]

