"""Coup: the rules module binding every tool and branch of ``coup.yaml`` and ``variants.yaml``.

The DSL (the seed file, unchanged) fixes the flow of phases; ``variants.yaml``
extends it for the official variants (the Inquisitor, the Reformation, the
official two-player set-up: new phases 30–35 and branches into them; see
``dsl/overlay.py``). This module makes each step exact, following the rules
(``004``, ``../shared/rules/coup-expansions.md``) and the settled rulings
(``docs/games/coup.md``). The variants' own phases live in ``inquisitor.py``,
``reformation.py`` and ``two_player.py``; ``variants.py`` holds their vocabulary.

Option notation (as offered, and as scenario files write them):

- turn action: ``Income``, ``Foreign Aid``, ``Tax``, ``Exchange``,
  ``Steal <player>``, ``Assassinate <player>``, ``Coup <player>`` (only
  affordable actions, only living opponents; only ``Coup`` at 10+ coins)
- windows: ``Challenge``, ``Pass``, ``Block Duke``, ``Block Contessa``,
  ``Block Captain``, ``Block Ambassador`` (``Challenge`` and ``Block …`` close
  the window for everyone)
- proving a claim: ``Reveal <Character>``; losing an influence: ``Lose <Character>``
- Exchange: ``Keep <Character>`` or ``Keep <Character>, <Character>`` (names in
  alphabetical order, one option per distinct multiset)
- with ``characters: inquisitor``: ``Exchange`` claims the Inquisitor (draw 1);
  ``Examine <player>``; the target answers ``Show <Character>``; the examiner
  ``Return`` or ``Force Exchange``; a Steal is blocked with ``Block Captain`` or
  ``Block Inquisitor``
- with ``reformation: true``: ``Convert`` (yourself, 1 coin), ``Convert <player>``
  (2 coins), ``Embezzle``; with ``choose_allegiance``, the start player answers
  ``Loyalist`` or ``Reformist``
- official two-player set-up: ``Keep <Character>`` (the card kept from your set)

Scenario setup keys: ``hands``, ``deck``, ``coins``, ``shuffle``, and for the
variants ``allegiance`` (``{player: Loyalist|Reformist}``), ``reserve`` (the
Treasury Reserve) and ``revealed`` (``{player: [Character, ...]}``: cards already
lost). ``expect`` keys: ``coins``, ``hand`` (unrevealed influences), ``revealed``
(lost influences), ``outcome`` (``last_action_outcome``), ``allegiance``,
``reserve``, plus ``treasury`` and the common keys.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

from ...engine import PUBLIC, Audience, Match
from . import variants
from .variants import NO_DUKE, allegiance, may_target, reformation, reunified
from .board import (ALL_CHARACTERS, CLAIMS, COSTS, TARGETED, TREASURY, action, actor, asked, claims,
                    court, court_size, decided, draw, english, gain, game, hand, in_play, living, msg, name, others,
                    pay, prompt, return_to_court, revealed, say, seat_of_id, show_board, show_hands, show_text,
                    target, tell)
from .inquisitor import examined_view
from .reformation import convert, deal_allegiances, embezzle
from .two_player import official, prepare_sets, set_aside_view


# -- phase 0: introduction ------------------------------------------------------------
@game.tool(display=True)
def clear_previous_ui(m: Match) -> None:
    """A new step of the turn: the table, the hands and what was declared this turn stay."""
    players = len(m.players)
    kept = _KEPT.get(players)
    if kept is None:
        kept = _KEPT[players] = frozenset(("board", "reserve", "turn", "declared", "block", "examined")
                                          + tuple(f"hand-{s}" for s in range(players)))
    m.canvas.clear(keep=kept)


#: What ``clear_previous_ui`` keeps, by the number of players.
_KEPT: dict[int, frozenset[str]] = {}


@game.tool(display=True)
def display_game_intro(m: Match) -> None:
    template = ("Coup: claim characters (truthfully or not) to take actions; challenge claims you "
                "doubt; the last player with influence wins.")
    if variants.fifth(m.options) == "Inquisitor":
        template += (" Inquisitor: it replaces the Ambassador. Exchange draws 1 card; Examine makes another "
                     "player show you a card of their choice, which you may force them to exchange; the "
                     "Inquisitor blocks Steal.")
    if reformation(m):
        template += (" Reformation: while both allegiances are alive, nobody may Coup, Assassinate, Steal from or "
                     "Examine their own side, nor block its Foreign Aid. Convert (1 coin yourself, 2 another "
                     "player) pays onto the Treasury Reserve; Embezzle takes it all, claiming to hold no Duke.")
    show_text(m, "intro", template)


@game.tool(display=True)
def display_player_setup(m: Match) -> None:
    show_text(m, "setup", "Players in seat order: {players}.", players=list(m.names))
    tell(m, "Players in seat order: {players}.", players=list(m.names))


# -- phase 1: the deal ---------------------------------------------------------------
def lost_at_start(m: Match) -> dict[str, list[str]]:
    """``setup.revealed``: the cards each player has already lost when a scenario starts."""
    if not m.setup:  # the usual match: nothing set up
        return {}
    for key in ("revealed", "allegiance"):
        for who in m.setup.get(key) or {}:
            if who not in m.names:
                raise ValueError(f"setup refused: setup.{key} names {who!r}, who is not playing")
    return {who: list(cards or []) for who, cards in (m.setup.get("revealed") or {}).items()}


def check_court(m: Match, cards: list[str], what: str) -> None:
    """A scenario's cards must be exactly the court of this match (its options included)."""
    wanted = court(len(m.players), m.options)
    if Counter(cards) != Counter(wanted):
        raise ValueError(f"setup refused: {what} must hold exactly the court of {len(wanted)} cards "
                         f"({variants.copies(len(m.players))} of each of {', '.join(in_play(m))}); "
                         f"got {dict(Counter(cards))}")


#: The court before the shuffle, by player count and fifth character (each match shuffles its own copy).
_COURTS: dict[tuple[int, Any], tuple[str, ...]] = {}


def _court(players: int, fifth: Any) -> tuple[str, ...]:
    found = _COURTS.get((players, fifth))
    if found is None:
        found = _COURTS[(players, fifth)] = tuple(court(players, {"characters": fifth}))
    return found


@game.tool
def initialize_and_shuffle_deck(m: Match) -> None:

    if not m.setup:  # the usual match: the whole court, shuffled (a shared tuple copied, then shuffled)
        if m.options["two_player_setup"] == "official" and len(m.players) == 2:  # official(m)
            prepare_sets(m)
            return
        options = m.options
        key = (len(m.players), options.get("characters"))
        deck = _COURTS.get(key)
        deck = list(deck if deck is not None else _court(*key))
        m.shuffle(deck)
        m.state["court_deck"] = deck
        return
    if official(m):
        prepare_sets(m)
        return
    lost = [card for cards in lost_at_start(m).values() for card in cards]
    if "deck" in m.setup and not m.setup.get("hands"):  # a scenario's whole court, top first
        m.state["court_deck"] = list(m.setup["deck"])
        check_court(m, m.state["court_deck"] + lost, "without hands, setup.deck (with setup.revealed)")
        return
    deck = list(_court(len(m.players), m.options.get("characters")))
    for card in lost:
        if card not in deck:
            check_court(m, deck + lost, "setup.revealed")
        deck.remove(card)
    m.shuffle(deck)
    m.state["court_deck"] = deck


@game.tool
def deal_influences_randomly(m: Match) -> None:
    state = m.state
    if state["sets"]:  # the official two-player set-up deals in its own phase (35)
        return
    if not m.setup:  # the usual deal: two each from the top of the court, in seat order
        deck = state["court_deck"]
        dealt = 2 * len(m.players)
        top = deck[:dealt]  # (taken off the court at once, not card by card)
        del deck[:dealt]
        index = 0
        for player in m.players:  # a new player's two slots are face down with no character yet
            slots = player["influences"]
            slots["1"]["character"] = top[index]
            slots["2"]["character"] = top[index + 1]
            index += 2
        return
    hands = m.setup.get("hands")
    lost = lost_at_start(m)
    if hands:
        dealt = []
        for seat, player_name in enumerate(m.names):
            cards = [(card, False) for card in hands.get(player_name, [])]
            cards += [(card, True) for card in lost.get(player_name, [])]
            m.players[seat]["influences"] = {
                str(i + 1): {"character": card, "revealed": gone} for i, (card, gone) in enumerate(cards)}
            dealt += [card for card, _ in cards]
        m.state["court_deck"] = list(m.setup.get("deck", []))
        if "deck" in m.setup:  # a whole court (scenarios always give one: check_setup)
            check_court(m, dealt + m.state["court_deck"], "hands and deck")
        return
    if not lost:  # the usual deal: two each from the top of the court, in seat order
        deck = m.state["court_deck"]
        dealt = 2 * len(m.players)
        top = deck[:dealt]  # (taken off the court at once, not card by card)
        del deck[:dealt]
        for player, first, second in zip(m.players, top[::2], top[1::2]):
            player["influences"] = {"1": {"character": first, "revealed": False},
                                    "2": {"character": second, "revealed": False}}
        return
    for seat in range(len(m.players)):
        gone = lost.get(m.names[seat], [])
        cards = [(draw(m), False) for _ in range(2 - len(gone))] + [(card, True) for card in gone]
        m.players[seat]["influences"] = {
            str(i + 1): {"character": card, "revealed": out} for i, (card, out) in enumerate(cards)}


@game.tool
def initialize_player_coins_and_status(m: Match) -> None:
    for player in m.players:
        player["is_alive"], player["coins"] = True, 2
    m.state["treasury"] = TREASURY - 2 * len(m.players)


@game.tool(display=True)
def notify_player_influences_privately(m: Match) -> None:
    show_hands(m)
    for seat in range(len(m.players)):
        cards = hand(m, seat)
        if len(cards) == 2:
            tell(m, "Your influences: {first} and {second}.", Audience.of(seat), first=cards[0], second=cards[1])
        elif cards:
            tell(m, "Your influence: {first}.", Audience.of(seat), first=cards[0])


@game.tool
def set_initial_turn_order(m: Match) -> None:
    setup = m.setup  # empty in the usual match: every player dealt two cards face down, nobody out
    if not setup:
        players = len(m.players)
        rng = m.rng
        if rng.__class__ is random.Random:  # rng.randrange(players), written out: the same draws
            bits = players.bit_length()
            seat = rng.getrandbits(bits)
            while seat >= players:
                seat = rng.getrandbits(bits)
        else:  # (a generator of its own, such as OpenSpiel's chance nodes, sees its randrange)
            seat = rng.randrange(players)
        m.state["current_turn"]["player_id"] = seat + 1
        if players == 2:  # the common 2-player variant: the starter gets 1 coin
            pay(m, seat, 1)
        if m.options["reformation"]:
            deal_allegiances(m, seat)
        who = {"player": m.names[seat]}  # tell(m, "{player} takes the first turn.", player=...)
        m.announce_later(english, (_FIRST, who), PUBLIC, {"key": _FIRST, "args": who})
        return
    if setup and not m.state["sets"]:
        for seat, player in enumerate(m.players):  # a scenario may start with players out
            for slot in player["influences"].values():
                if not slot["revealed"]:
                    break
            else:  # no card in hand
                player["is_alive"] = False
                pay(m, seat, player["coins"])
    first = setup.get("first")
    if first and not m.players[m.names.index(first)]["is_alive"]:
        raise ValueError(f"setup refused: the first player {first} has no influence left")
    if first:
        seat = m.names.index(first)
    elif not setup or all(p["is_alive"] for p in m.players):
        seat = m.rng.randrange(len(m.players))
    else:
        seat = m.rng.choice(living(m))
    m.state["current_turn"]["player_id"] = seat + 1
    if len(m.players) == 2:  # the common 2-player variant: the starter gets 1 coin
        pay(m, seat, 1)
    coins = setup.get("coins") or {}
    for player_name, amount in coins.items():
        who = m.names.index(player_name)
        if m.players[who]["is_alive"]:
            gain(m, who, amount - m.players[who]["coins"])
    if reformation(m):

        deal_allegiances(m, seat)
    elif "allegiance" in setup or "reserve" in setup:
        raise ValueError("setup refused: setup.allegiance and setup.reserve need the option reformation: true")
    tell(m, "{player} takes the first turn.", player=m.names[seat])


_FIRST = "{player} takes the first turn."


@game.route(1)
def after_the_deal(m: Match) -> int:
    """The variants' set-up choices, if any (phases 35 and 34), then the first turn."""
    if m.state["sets"]:
        return 35
    return 34 if reformation(m) and not all(m.state["allegiance"]) else 2


# -- phase 2: start of turn ---------------------------------------------------------------
@game.tool
def highlight_active_player(m: Match) -> None:
    m.state["turn_number"] += 1
    if not m.headless:
        m.canvas.show("turn", key="turn", player=name(m, actor(m)))


@game.tool(display=True)
def display_public_state(m: Match) -> None:
    show_board(m)
    show_hands(m)


@game.tool(display=True)
def display_forced_coup_rule(m: Match) -> None:
    if m.players[actor(m)]["coins"] >= 10:
        show_text(m, "forced", "{player} has 10 or more coins and must launch a Coup.", tone="warning",
                  player=name(m, actor(m)))


# -- phase 3: action declaration ---------------------------------------------------------------
#: The turn actions of a match without the Reformation, by what they depend on (the names, the seat,
#: who is alive, the coins as the costs divide them, the fifth character: whether Examine is in play).
_ACTIONS: dict[tuple[Any, ...], tuple[str, ...]] = {}
#: The same with the Reformation (see ``_menu``).
_REFORMED: dict[tuple[Any, ...], tuple[str, ...]] = {}
#: The coins below 10 as the Reformation's menu divides them (Convert yourself, Convert another,
#: Assassinate, Coup): 0, 1, 2, 3-6, 7-9.
_REFORMED_COINS = tuple(sum(coins >= cost for cost in (variants.CONVERT_SELF, variants.CONVERT_OTHER, COSTS["Assassinate"],
                                                        COSTS["Coup"])) for coins in range(10))


def action_options(m: Match, seat: int) -> list[str]:
    """Only affordable actions, only living opponents; with the Reformation, Coup,
    Assassinate, Steal and Examine only at the other side (unless all are one side)."""
    return list(_menu(m, seat))


def _menu(m: Match, seat: int) -> tuple[str, ...] | list[str]:
    """:func:`action_options`, shared where it can be (read-only: ``offer`` copies it)."""
    options = m.options  # (every option is set: a match fills in the defaults)
    players = m.players
    coins = players[seat]["coins"]
    alive = 1  # who is alive as one number, as board.others numbers it (read every turn)
    for player in players:
        alive = alive + alive + player["is_alive"]
    if options["reformation"]:  # variants.reformation, inline
        # The menu depends as well on the allegiances (who may target whom) and on the coins up to 10
        # (Convert costs 1 or 2): all in the key, the rest as without the Reformation.
        key = (tuple(m.names), seat, alive, tuple(m.state["allegiance"]),
               _REFORMED_COINS[coins] if coins < 10 else 5, options["characters"])
        cache = _REFORMED
    else:
        key = (tuple(m.names), seat, alive,
               0 if coins < 3 else 1 if coins < 7 else 2 if coins < 10 else 3,
               options["characters"])  # the fifth character: whether Examine is in play
        cache = _ACTIONS
    found = cache.get(key)
    if found is None:
        if len(cache) >= 50_000:
            cache.clear()
        found = cache[key] = tuple(_action_options(m, seat))
    return found


def _action_options(m: Match, seat: int) -> list[str]:
    coins = m.players[seat]["coins"]
    others = [s for s in living(m) if s != seat]
    aims = [m.names[s] for s in others if may_target(m, seat, s)]
    coups = [f"Coup {o}" for o in aims] if coins >= 7 else []
    if coins >= 10:
        return coups
    options = ["Income", "Foreign Aid", "Tax", "Exchange"]
    if reformation(m):
        options.append("Embezzle")
        if coins >= variants.CONVERT_SELF:
            options.append("Convert")
    options += [f"Steal {o}" for o in aims]
    if "Examine" in claims(m):
        options += [f"Examine {o}" for o in aims]
    if coins >= 3:
        options += [f"Assassinate {o}" for o in aims]
    if reformation(m) and coins >= variants.CONVERT_OTHER:
        options += [f"Convert {m.names[s]}" for s in others]
    return options + coups


#: What each action does, as its button says it (beside the claim and the cost).
GAINS = {"Income": 1, "Foreign Aid": 2, "Tax": 3}
NOTES = {"Steal": "take 2 coins", "Exchange": "swap cards", "Assassinate": "a card is lost", "Coup": "a card is lost",
         "Examine": "see a card", "Convert": "flip an allegiance", "Embezzle": "claims no Duke"}


def about_action(m: Match, option: str) -> dict[str, Any]:
    verb, victim = parse_action(m, option)
    about: dict[str, Any] = {"label": verb}
    claim = claims(m).get(verb)
    if claim and claim != NO_DUKE:
        about["claim"] = claim
    if verb in COSTS:
        about["cost"] = COSTS[verb]
    if verb == "Convert":  # paid onto the Treasury Reserve
        about["cost"] = variants.CONVERT_OTHER if victim is not None else variants.CONVERT_SELF
    if verb in GAINS:
        about["gain"] = GAINS[verb]
    if verb == "Embezzle":
        about["gain"] = m.state["reserve"]
    if verb in NOTES:
        about["note"] = NOTES[verb]
    if victim is not None:
        about["target"] = m.names[victim]
    return about


def unavailable_actions(m: Match, seat: int) -> list[dict[str, Any]]:
    """The actions the menu leaves out, each with why (a beginner should know they exist)."""
    coins = m.players[seat]["coins"]
    out = []
    if coins >= 10:
        verbs = ["Income", "Foreign Aid", "Tax", "Exchange", "Steal", "Assassinate"]
        verbs += ["Examine"] if "Examine" in claims(m) else []
        verbs += ["Embezzle", "Convert"] if reformation(m) else []
        for verb in verbs:
            reason, data = msg("With 10 or more coins you must launch a Coup.")
            out.append({**about_action(m, verb), "reason": reason, "msg": {"reason": data}})
    for verb in ("Assassinate", "Coup"):
        if coins < COSTS[verb]:
            reason, data = msg("You need {coins} coins.", coins=COSTS[verb])
            out.append({"label": verb, **({"claim": CLAIMS[verb]} if verb in CLAIMS else {}), "cost": COSTS[verb],
                        "note": NOTES[verb], "reason": reason, "msg": {"reason": data}})
    return out


@game.tool(display=True)
def show_action_menu(m: Match) -> None:
    seat = actor(m)
    coins = m.players[seat]["coins"]
    forced = coins >= 10
    ask = msg("Choose your action (10 or more coins: you must Coup)") if forced else msg("Choose your action")
    options = m.options
    if options.get("reformation"):  # Embezzle's gain is the reserve: built for each menu
        about = {option: about_action(m, option) for option in action_options(m, seat)}
        unavailable = unavailable_actions(m, seat)
    else:
        # Without the Reformation a button's facts depend only on its option and the fifth character, and
        # what is unavailable only on the coins as the costs divide them: built once, shared (read-only,
        # like every component's props once shown).
        fifth = options.get("characters")
        about = {}
        for option in _menu(m, seat):
            found = _ABOUT.get((option, fifth))
            if found is None:
                found = about_action(m, option)
                if len(_ABOUT) < 10_000:
                    _ABOUT[(option, fifth)] = found
            about[option] = found
        key = (3 if forced else 0 if coins < 3 else 1 if coins < 7 else 2, fifth)
        shared = _UNAVAILABLE.get(key)
        if shared is None:
            shared = _UNAVAILABLE[key] = unavailable_actions(m, seat)
        unavailable = list(shared)
    prompt(m, ask, msg("Waiting for {player} to choose an action…", player=name(m, seat)),
           about=about, unavailable=unavailable)


#: ``about_action`` by option and fifth character, and ``unavailable_actions`` by the coins' bracket and
#: fifth character, without the Reformation (see ``show_action_menu``).
_ABOUT: dict[tuple[str, Any], dict[str, Any]] = {}
_UNAVAILABLE: dict[tuple[int, Any], list[dict[str, Any]]] = {}


@game.tool
def prompt_player_action_selection(m: Match) -> None:
    seat = m.state["current_turn"]["player_id"] - 1  # asked(m, ...), inline: the turn's player is alive
    m.offer(seat, _menu(m, seat))


VERBS = ("Foreign Aid", "Income", "Tax", "Exchange", "Steal", "Assassinate", "Coup", "Examine", "Convert",
         "Embezzle")


def parse_action(m: Match, option: str) -> tuple[str, int | None]:
    found = _PARSED.get(option)
    if found is None:
        found = _parse(option)
        if len(_PARSED) < 10_000:
            _PARSED[option] = found
    verb, victim = found
    return verb, (m.names.index(victim) if victim is not None else None)


#: An option's verb and the name it targets, by option.
_PARSED: dict[str, tuple[str, str | None]] = {}


def _parse(option: str) -> tuple[str, str | None]:
    for verb in VERBS:
        if option == verb:
            return verb, None
        if option.startswith(verb + " "):
            return verb, option[len(verb) + 1:]
    raise ValueError(f"not a Coup action: {option!r}")


@game.tool
def set_claimed_action_and_character(m: Match) -> None:
    state = m.state
    turn = state["current_turn"]
    seat = turn["player_id"] - 1  # actor(m), inline
    chosen = m.last_decision.answers[seat]  # (the phase's one chooser: always answered)
    options = m.options
    # The option's verb, whom it names, what it claims and the declaration's template depend only on the
    # option and the variant: worked out once (parse_action, claims and _declaration), shared read-only.
    key = (chosen, options["characters"], options["reformation"])  # (a match fills in every option)
    found = _DECLARED.get(key)
    if found is None:
        found = _declared(m, chosen)
        if len(_DECLARED) < 10_000:
            _DECLARED[key] = found
    verb, aimed, claim, template, named = found
    names = m.names
    victim_id = names.index(aimed) + 1 if aimed is not None else 0
    turn["action"], turn["character"], turn["target_player_id"] = verb, claim, victim_id
    # The last turn's challenge, block and block challenge are cleared (most turns recorded none: a
    # record names its challenger or blocker whenever it is set, so that field alone tells), and what it paid.
    if state["challenge"]["challenger_id"]:
        state["challenge"].update(NO_CHALLENGE)
    if state["block"]["blocker_id"]:
        state["block"].update(NO_BLOCK)
    if state["block_challenge"]["challenger_id"]:
        state["block_challenge"].update(NO_CHALLENGE)
    if state["paid"]:
        state["paid"] = 0
    player = m.players[seat]
    player["claimed_action"], player["claimed_character"], player["target_player_id"] = verb, claim, victim_id
    who = names[seat]
    if not m.headless:
        args = declared_args(who, verb, aimed, named, claim)
        m.canvas.show("text", key="declared", text=template.format(**args),
                      msg={"text": {"key": template, "args": args}})
    # say(m, template, args, PUBLIC, data), its values made when the line is read: one declaration every turn
    m.announce_later(declared_text, (found, who), PUBLIC, (declared_line, found, who, seat, player["coins"]))


#: A turn's challenge and block records as the declaration leaves them.
NO_CHALLENGE = {"challenger_id": 0, "claim_true": False}
NO_BLOCK = {"blocker_id": 0, "character": "", "failed": False}


# -- the hot log lines' data ----------------------------------------------------------------------------
# Given to ``announce_later`` as ``(maker, *values)``: the dict a client reads is made only when the
# log is read (a headless run never reads it), not by every turn that writes the line.
def declared_args(who: str, verb: str, aimed: str | None, named: bool, claim: str) -> dict[str, Any]:
    """``_declaration``'s values, in its order."""
    args = {"player": who, "action": verb}
    if aimed is not None:
        args["target"] = aimed
    if named:
        args["character"] = claim
    return args


def declared_text(found: tuple[str, str | None, str, str, bool], who: str) -> str:
    """The declaration's text, from what ``_DECLARED`` holds for the option and who declared it."""
    verb, aimed, claim, template, _ = found
    return template.format(player=who, action=verb, target=aimed, character=claim)  # (unused names ignored)


def declared_line(found: tuple[str, str | None, str, str, bool], who: str, seat: int, coins: int) -> dict[str, Any]:
    verb, aimed, claim, template, named = found
    return {"key": template, "args": declared_args(who, verb, aimed, named, claim), "event": "declare",
            "seat": seat, "action": verb, "character": claim, "coins": coins}


def challenge_text(template: str, who: str, claimant: str, character: str) -> str:
    return template.format(player=who, claimant=claimant, character=character)


def challenge_line(template: str, who: str, claimant: str, character: str, challenger: int,
                   claimant_seat: int) -> dict[str, Any]:
    """A challenge of a claim (of an action or a block); the claim to hold no Duke names no character."""
    args = {"player": who, "claimant": claimant}
    if character != NO_DUKE:
        args["character"] = character
    return {"key": template, "args": args, "event": "challenge", "seat": challenger, "claimant": claimant_seat}


def proof_line(template: str, args: dict[str, Any], seat: int, character: str) -> dict[str, Any]:
    return {"key": template, "args": args, "event": "proof", "seat": seat,
            "banner": {"tone": "good", "title": "The claim was true", "card": character}}


def loss_text(who: str, character: str) -> str:
    return f"{who} loses an influence: {character}."  # LOSS's text


def loss_line(who: str, character: str, seat: int, phase_id: int) -> dict[str, Any]:
    """A lost card, its banner titled by the phase that took it."""
    return {"key": LOSS, "args": {"player": who, "character": character}, "event": "lose", "seat": seat,
            "banner": {"tone": "bad", "title": LOSS_TITLES.get(phase_id, "A card is lost"), "card": character}}


#: A lost card's line, and an elimination's.
LOSS, OUT = "{player} loses an influence: {character}.", "{player} is out of the game."


def out_text(who: str) -> str:
    return f"{who} is out of the game."  # OUT's text


def out_line(who: str) -> dict[str, Any]:
    return {"key": OUT, "args": {"player": who}, "banner": {"tone": "bad", "title": "Eliminated"}}


def block_line(template: str, args: dict[str, Any], seat: int, character: str) -> dict[str, Any]:
    return {"key": template, "args": args, "event": "block", "seat": seat, "character": character,
            "banner": {"tone": "info", "title": "Blocked?", "card": character}}


def banner_line(template: str, args: dict[str, Any], tone: str, title: str) -> dict[str, Any]:
    return {"key": template, "args": args, "banner": {"tone": tone, "title": title}}


#: By chosen option and variant (the fifth character, the Reformation): the verb, the name it targets,
#: the character it claims (``""`` for none), the declaration's template and whether it names the claim.
_DECLARED: dict[tuple[str, Any, Any], tuple[str, str | None, str, str, bool]] = {}


def _declared(m: Match, option: str) -> tuple[str, str | None, str, str, bool]:
    verb, victim = parse_action(m, option)
    claim = claims(m).get(verb, "")
    template, args = _declaration(m.names, actor(m), verb, victim, claim)
    return verb, (m.names[victim] if victim is not None else None), claim, template, "character" in args


def declaration(m: Match) -> tuple[str, dict[str, Any]]:
    """``Aria declares Assassinate on Blake, claiming Assassin.``, as a template and its values."""
    return _declaration(m.names, actor(m), action(m), target(m), m.state["current_turn"]["character"])


def _declaration(names: list[str], seat: int, verb: str, victim: int | None,
                 character: str) -> tuple[str, dict[str, Any]]:
    args = {"player": names[seat], "action": verb}
    if victim is not None:
        args["target"] = names[victim]
    if character and character != NO_DUKE:
        args["character"] = character
    key = (victim is not None, verb == "Convert", character)
    template = _DECLARATIONS.get(key)
    if template is None:
        template = "{player} declares {action}"
        if victim is not None:
            template += " on {target}"
        elif verb == "Convert":
            template += " on themselves"
        if character == NO_DUKE:
            template += ", claiming to hold no Duke"
        elif character:
            template += ", claiming {character}"
        template = _DECLARATIONS[key] = template + "."
    return template, args


#: A declaration's template by whether it names a target, whether it is a Convert, and the claim.
_DECLARATIONS: dict[tuple[bool, bool, str], str] = {}


@game.tool
def validate_and_apply_action_costs(m: Match) -> None:
    state = m.state
    turn = state["current_turn"]
    verb = turn["action"]
    seat = turn["player_id"] - 1  # actor(m), inline
    if verb in TARGETED:
        victim = turn["target_player_id"] - 1  # target(m), inline
        if victim < 0 or victim == seat or not m.players[victim]["is_alive"] or \
                (m.options["reformation"] and not may_target(m, seat, victim)):
            # the offered options make this impossible
            raise AssertionError(f"{verb} needs a living opponent it may target")
    if verb in COSTS:  # pay(m, seat, cost), inline
        cost = COSTS[verb]
        m.players[seat]["coins"] -= cost
        state["treasury"] += cost
        state["paid"] = cost


@game.route(3)
def after_action_declaration(m: Match) -> int:
    """A claimed character opens the challenge window (``action(m) in claims(m)``, read off the
    claim the declaration recorded: routed every turn)."""
    turn = m.state["current_turn"]
    if turn["character"]:
        return 4
    return UNCLAIMED_NEXT[turn["action"]]


#: Where an action that claims nothing leads.
UNCLAIMED_NEXT = {"Foreign Aid": 10, "Income": 20, "Coup": 21, "Convert": 20}


# -- phase 4: the action's challenge window -----------------------------------------------------
#: A challenge window's options, and the one that closes it (``offer`` copies the first, keeps the second).
CHALLENGE_OR_PASS = ("Challenge", "Pass")
CHALLENGE = frozenset(("Challenge",))


@game.tool(display=True)
def display_declared_action(m: Match) -> None:
    template, args = declaration(m)
    m.canvas.show("text", key="declared", text=template.format(**args), msg={"text": {"key": template, "args": args}})


@game.tool
def collect_action_challenge_responses(m: Match) -> None:
    # one window to every seat at once
    m.offer_all(others(m, m.state["current_turn"]["player_id"]), CHALLENGE_OR_PASS, closing=CHALLENGE)
    if m.headless:  # the prompt is UI only
        return
    turn = m.state["current_turn"]
    if turn["character"] == NO_DUKE:
        ask = msg("Challenge {player}'s claim to hold no Duke ({action})?", player=name(m, actor(m)),
                  action=turn["action"])
    else:
        ask = msg("Challenge {player}'s {character} ({action})?", player=name(m, actor(m)),
                  character=turn["character"], action=turn["action"])
    prompt(m, ask, msg("Waiting for the others to challenge or pass…"),
           about={"Challenge": {"label": "Challenge", "note": "doubt the claim"}, "Pass": {"label": "Pass"}})


@game.route(4)
def after_action_challenge_window(m: Match) -> int:
    if "Challenge" in m.last_decision.answers.values():  # who_chose("Challenge"), without the list
        return 5
    return after_claim_stands(m)


def after_claim_stands(m: Match) -> int:
    verb = m.state["current_turn"]["action"]  # action(m), inline: routed most turns
    if verb == "Examine":  # nothing to examine once the target is out (or the game is won)
        victim = target(m)
        return 31 if victim is not None and m.players[victim]["is_alive"] and not decided(m) else 23
    return AFTER_CLAIM[verb]


#: Where an unchallenged (or proven) claim leads, by action.
AFTER_CLAIM = {"Assassinate": 11, "Steal": 12, "Tax": 20, "Exchange": 22, "Embezzle": 20}


# -- phase 5: does the claimant hold the card? --------------------------------------------------------
@game.tool
def evaluate_action_claim_truth(m: Match) -> None:
    answers = m.last_decision.answers  # who_chose("Challenge")[0], without the list (nor an items view)
    for challenger in answers:
        if answers[challenger] == "Challenge":
            break
    state = m.state
    turn = state["current_turn"]
    claim = turn["character"]
    claimant = turn["player_id"] - 1  # actor(m), inline
    if claim == NO_DUKE:  # the Reformation's Embezzle
        truth = variants.holds(hand(m, claimant), claim)
    else:  # variants.holds(hand(m, claimant), claim), inline: is the claimed card face down in the hand?
        for slot in m.players[claimant]["influences"].values():
            if slot["character"] == claim and not slot["revealed"]:
                truth = True
                break
        else:
            truth = False
    challenge = state["challenge"]
    challenge["challenger_id"], challenge["claim_true"] = challenger + 1, truth
    names = m.names
    who, claimant_name = names[challenger], names[claimant]
    template = "{player} challenges {claimant}'s claim to hold no Duke." if claim == NO_DUKE else \
        "{player} challenges {claimant}'s {character}."
    if not m.headless:  # a text component: nobody sees it headless
        show_text(m, "challenge", template, **challenge_line(template, who, claimant_name, claim,
                                                             challenger, claimant)["args"])
    # say(m, template, args, PUBLIC, data), its values made when read: a claim is challenged most turns
    m.announce_later(challenge_text, (template, who, claimant_name, claim), PUBLIC,
                     (challenge_line, template, who, claimant_name, claim, challenger, claimant))


@game.route(5)
def after_evaluate_action_challenge(m: Match) -> int:
    state = m.state
    if not state["challenge"]["claim_true"]:
        return 9
    # action(m), inline: no Duke, the whole hand is shown (phase 30)
    return 30 if state["current_turn"]["action"] == "Embezzle" else 6


# -- phases 6, 7, 15, 16: proof and replacement -------------------------------------------------------------
def offer_proof(m: Match, player_id: int, character: str) -> None:
    for seat in asked(m, player_id):
        m.offer(seat, REVEAL[character])
        if m.headless:
            continue
        prompt(m, msg("Show your {character}: the claim was true", character=character),
               msg("Waiting for {player} to show the card…", player=m.names[seat]),
               about={f"Reveal {character}": {"label": "Reveal", "card": character}})


#: ``Reveal <Character>``, the one option of a proof, by character (shared: ``offer`` copies it).
REVEAL = {character: (f"Reveal {character}",) for character in ALL_CHARACTERS}


@game.tool
def prompt_reveal_matching_influence(m: Match) -> None:
    turn = m.state["current_turn"]
    offer_proof(m, turn["player_id"], turn["character"])


@game.tool
def prompt_blocker_reveal_matching_influence(m: Match) -> None:
    block = m.state["block"]
    offer_proof(m, block["blocker_id"], block["character"])


@game.tool
def update_influence_reveal_for_proof(m: Match) -> None:
    decision = m.last_decision
    if not decision.answers:
        return
    seat, option = next(iter(decision.answers.items()))
    character = option.removeprefix("Reveal ")
    for slot, card in m.players[seat]["influences"].items():  # the shown card's slot (a loop: no generator)
        if not card["revealed"] and card["character"] == character:
            break
    else:
        raise StopIteration  # as the search for the card did before: no such card in hand
    proof = m.state["proof"]  # stores, not update(**keywords): no dict of keywords to make
    proof["player_id"], proof["slot"], proof["character"] = seat + 1, slot, character
    template = "{player} reveals {character}: the claim was true."
    args = {"player": m.names[seat], "character": character}
    m.announce_later(english, (template, args), PUBLIC, (proof_line, template, args, seat, character))


@game.tool
def replace_proof_with_deck_card(m: Match) -> None:
    """Rules: return the card to the court, reshuffle, and take a random replacement."""
    proof = m.state["proof"]
    seat = seat_of_id(proof["player_id"])
    slot = m.players[seat]["influences"][proof["slot"]]
    return_to_court(m, [slot["character"]])
    slot["character"] = draw(m)
    template = "{player} returns {character} to the court and draws a new card."
    args = {"player": m.names[seat], "character": proof["character"]}
    m.announce_later(english, (template, args), PUBLIC, {"key": template, "args": args})  # say(m, template, args)
    template, args = "You drew {character}.", {"character": slot["character"]}
    m.announce_later(english, (template, args), Audience.of(seat),  # tell(m, template, Audience.of(seat), ...)
                     {"key": template, "args": args, "to": m.names[seat]})
    show_hands(m)


@game.tool
def return_card_to_deck_and_shuffle(m: Match) -> None:
    """The proof went back before the replacement was drawn; nothing is left to return."""
    proof = m.state["proof"]
    proof["player_id"], proof["slot"], proof["character"] = 0, "", ""


@game.tool
def set_action_outcome_challenged_and_won(m: Match) -> None:
    m.players[actor(m)]["last_action_outcome"] = "challenged_and_won"


# -- losing an influence (phases 8, 9, 17, 18, 21) -------------------------------------------------
#: A hand's ``Lose`` options by its cards (shared: ``offer`` copies them).
_LOSSES: dict[tuple[str, ...], tuple[str, ...]] = {}


def offer_loss(m: Match, player_id: int, reason: str) -> None:
    """One ``Lose`` option per distinct card in hand, in alphabetical order."""
    for seat in asked(m, player_id):
        cards = []  # hand(m, seat), inline
        for slot in m.players[seat]["influences"].values():
            if not slot["revealed"]:
                cards.append(slot["character"])
        key = tuple(cards)
        options = _LOSSES.get(key)
        if options is None:
            options = _LOSSES[key] = tuple(f"Lose {c}" for c in sorted(set(cards)))
        m.offer(seat, options)
        if m.headless:
            continue
        prompt(m, msg("Choose a card to lose ({reason})", reason=reason),
               msg("Waiting for {player} to lose an influence ({reason})…", player=m.names[seat], reason=reason),
               about={option: {"label": "Lose", "card": option.removeprefix("Lose ")} for option in options})


@game.tool
def prompt_challenger_reveal_loss(m: Match) -> None:
    offer_loss(m, m.state["challenge"]["challenger_id"], "failed challenge")


@game.tool
def prompt_claimant_reveal_loss(m: Match) -> None:
    offer_loss(m, m.state["current_turn"]["player_id"], "caught bluffing")


@game.tool
def prompt_block_challenger_reveal_loss(m: Match) -> None:
    offer_loss(m, m.state["block_challenge"]["challenger_id"], "failed challenge")


@game.tool
def prompt_blocker_reveal_loss(m: Match) -> None:
    offer_loss(m, m.state["block"]["blocker_id"], "block caught bluffing")


@game.tool
def prompt_target_reveal_loss(m: Match) -> None:
    turn = m.state["current_turn"]
    offer_loss(m, turn["target_player_id"], "Coup" if turn["action"] == "Coup" else "assassinated")


@game.tool
def update_player_state_after_loss(m: Match) -> None:
    answers = m.last_decision.answers
    for seat in answers:
        lose_influence(m, seat, answers[seat][5:])  # option.removeprefix("Lose "): only Lose options are offered


#: The banner over a lost card, by the phase that takes it (coup.yaml's phase ids).
LOSS_TITLES = {8: "The challenge failed", 9: "Caught bluffing", 17: "The challenge failed",
               18: "Caught bluffing", 21: "A card is lost"}


def lose_influence(m: Match, seat: int, character: str) -> None:
    player = m.players[seat]
    left = False  # whether an unrevealed card remains once this one is lost
    lost = None
    for slot in player["influences"].values():
        if not slot["revealed"]:
            if lost is None and slot["character"] == character:
                lost = slot
            else:
                left = True
    if lost is None:
        raise StopIteration  # as the search for the card did before: no such card in hand
    lost["revealed"] = True
    who = m.names[seat]
    # tell(m, LOSS, data=..., player=..., character=...), its values made when read: a card is lost most turns
    m.announce_later(loss_text, (who, character), PUBLIC,
                     (loss_line, who, character, seat, m.phase_id))
    if not left:
        player["is_alive"] = False
        m.state["treasury"] += player["coins"]  # pay(m, seat, coins), inline: the exiled's coins go back
        player["coins"] = 0
        m.state["eliminated"].append(seat + 1)
        m.announce_later(out_text, (who,), PUBLIC, (out_line, who))
    if not m.headless:
        show_hands(m)
        show_board(m)


@game.tool
def set_action_outcome_challenged_and_lost(m: Match) -> None:
    seat = m.state["current_turn"]["player_id"] - 1  # actor(m), inline
    m.players[seat]["last_action_outcome"] = "challenged_and_lost"
    refund = m.state["paid"]
    if refund and m.players[seat]["is_alive"]:  # a failed claim's cost is returned
        gain(m, seat, refund)
        tell(m, "{player} gets back the {coins} coins paid.", player=m.names[seat], coins=refund)
    m.state["paid"] = 0


@game.route(8)
def after_challenger_loses(m: Match) -> int:
    return after_claim_stands(m)


# -- phases 10-12: block windows ------------------------------------------------------------------------
#: Per fifth character and action: who blocks it, the window's options, and those that close it.
_BLOCKS: dict[tuple[Any, str], tuple[tuple[str, ...], tuple[str, ...], frozenset[str]]] = {}


def _blocks(fifth: Any, verb: str) -> tuple[tuple[str, ...], tuple[str, ...], frozenset[str]]:
    found = _BLOCKS.get((fifth, verb))
    if found is None:
        characters = variants.blockers({"characters": fifth})[verb]
        blocks = tuple(f"Block {c}" for c in characters)
        found = _BLOCKS[(fifth, verb)] = (characters, (*blocks, "Pass"), frozenset(blocks))
    return found


def offer_blocks(m: Match, waiting: str, **args: Any) -> None:
    """Only the players the DSL's condition selects may block: the target, or anyone for Foreign
    Aid (with the Reformation, anyone of the other side, unless all living players are one side)."""
    turn = m.state["current_turn"]
    verb = turn["action"]  # action(m), inline
    characters, options, blocks = _blocks(m.options["characters"], verb)
    # who may block (coup.yaml): anyone else for Foreign Aid, the target for the others
    seats = others(m, turn["player_id"]) if verb == "Foreign Aid" else asked(m, turn["target_player_id"])
    # Only the Reformation spares a side's Foreign Aid from its own blocks (may_block_foreign_aid is
    # always true without it): the condition is read once, not for every seat.
    sides = verb == "Foreign Aid" and m.options["reformation"]
    if sides:  # may_block_foreign_aid(m, seat, taker) for each seat, with reunified(m) read once
        everyone = reunified(m)
        allegiances = m.state["allegiance"]
        side = allegiances[turn["player_id"] - 1]
        for seat in seats:
            if everyone or allegiances[seat] != side:
                m.offer(seat, options, closing=blocks)
    else:  # every seat the condition selects: one window to all of them at once
        m.offer_all(seats, options, closing=blocks)
    if m.headless:
        return
    ask = msg("Block {player}'s {action} ({first} or {second})?", player=name(m, actor(m)), action=action(m),
              first=characters[0], second=characters[1]) if len(characters) == 2 else \
        msg("Block {player}'s {action} ({character})?", player=name(m, actor(m)), action=action(m),
            character=characters[0])
    prompt(m, ask, msg(waiting, **args),
           about={**{f"Block {c}": {"label": "Block", "claim": c} for c in characters}, "Pass": {"label": "Pass"}})


@game.tool
def collect_block_responses_foreign_aid(m: Match) -> None:
    offer_blocks(m, "Waiting for the others to block (Duke) or pass…")


@game.tool
def prompt_target_block_assassination(m: Match) -> None:
    if m.headless:  # the waiting line is UI only
        offer_blocks(m, "")
        return
    offer_blocks(m, "Waiting for {player} to block (Contessa) or pass…", player=name(m, target(m)))


@game.tool
def prompt_target_block_steal(m: Match) -> None:
    if m.headless:  # the waiting line is UI only
        offer_blocks(m, "")
        return
    first, second = variants.blockers(m.options)["Steal"]
    offer_blocks(m, "Waiting for {player} to block ({first} or {second}) or pass…", player=name(m, target(m)),
                 first=first, second=second)


def blocked(m: Match) -> bool:
    for answer in m.last_decision.answers.values():
        if answer.startswith("Block "):
            return True
    return False


@game.route(10)
def after_foreign_aid_block_window(m: Match) -> int:
    return 13 if blocked(m) else 20


@game.route(11)
def after_assassination_block_window(m: Match) -> int:
    return 13 if blocked(m) else 21


@game.route(12)
def after_steal_block_window(m: Match) -> int:
    return 13 if blocked(m) else 20


# -- phase 13: the block's challenge window ----------------------------------------------------------------
@game.tool
def display_block_announcement(m: Match) -> None:
    answers = m.last_decision.answers
    for seat in answers:  # the one who blocked
        option = answers[seat]
        if option.startswith("Block "):
            break
    else:
        raise StopIteration  # as the search for the block did before: nobody blocked
    character = option[6:]  # option.removeprefix("Block ")
    state = m.state
    block = state["block"]  # stores, not update(**keywords): no dict of keywords to make
    block["blocker_id"], block["character"], block["failed"] = seat + 1, character, False
    m.players[seat]["claimed_character"] = character
    turn, names = state["current_turn"], m.names  # name(m, actor(m)) and action(m), inline
    args = {"player": names[seat], "character": character, "actor": names[turn["player_id"] - 1],
            "action": turn["action"]}
    template = "{player} claims {character} to block {actor}'s {action}."
    m.announce_later(english, (template, args), PUBLIC, (block_line, template, args, seat, character))
    if not m.headless:  # a text component: nobody sees it headless
        show_text(m, "block", template, **args)


@game.tool
def collect_block_challenge_responses(m: Match) -> None:
    block = m.state["block"]
    m.offer_all(others(m, block["blocker_id"]), CHALLENGE_OR_PASS, closing=CHALLENGE)
    if m.headless:
        return
    prompt(m, msg("Challenge {player}'s {character} (block)?", player=name(m, seat_of_id(block["blocker_id"])),
                  character=block["character"]),
           msg("Waiting for the others to challenge the block or pass…"),
           about={"Challenge": {"label": "Challenge", "note": "doubt the block"}, "Pass": {"label": "Pass"}})


@game.route(13)
def after_block_challenge_window(m: Match) -> int:
    return 14 if "Challenge" in m.last_decision.answers.values() else 19


@game.tool
def evaluate_block_claim_truth(m: Match) -> None:
    answers = m.last_decision.answers  # who_chose("Challenge")[0], without the list (nor an items view)
    for challenger in answers:
        if answers[challenger] == "Challenge":
            break
    blocker = seat_of_id(m.state["block"]["blocker_id"])
    character = m.state["block"]["character"]
    for slot in m.players[blocker]["influences"].values():  # character in hand(m, blocker), without the list
        if slot["character"] == character and not slot["revealed"]:
            truth = True
            break
    else:
        truth = False
    block_challenge = m.state["block_challenge"]
    block_challenge["challenger_id"], block_challenge["claim_true"] = challenger + 1, truth
    names = m.names
    who, claimant_name = names[challenger], names[blocker]
    template = "{player} challenges {claimant}'s {character}."
    if not m.headless:  # a text component: nobody sees it headless
        show_text(m, "challenge", template, player=who, claimant=claimant_name, character=character)
    m.announce_later(challenge_text, (template, who, claimant_name, character), PUBLIC,
                     (challenge_line, template, who, claimant_name, character, challenger, blocker))


@game.route(14)
def after_evaluate_block_challenge(m: Match) -> int:
    return 15 if m.state["block_challenge"]["claim_true"] else 18


@game.tool
def mark_block_failed(m: Match) -> None:
    m.state["block"]["failed"] = True
    template, args = "The block fails: {player}'s {action} goes ahead.", {"player": name(m, actor(m)),
                                                                          "action": action(m)}
    m.announce_later(english, (template, args), PUBLIC, {"key": template, "args": args})  # say(m, template, args)


@game.route(18)
def after_blocker_loses(m: Match) -> int:
    return UNBLOCKED_NEXT[action(m)]


#: Where an action goes once its block has failed.
UNBLOCKED_NEXT = {"Foreign Aid": 20, "Assassinate": 21, "Steal": 20}


@game.tool
def set_action_outcome_blocked(m: Match) -> None:
    seat = actor(m)
    m.players[seat]["last_action_outcome"] = "blocked"
    template, args = "{player}'s {action} is blocked.", {"player": m.names[seat], "action": action(m)}
    if not m.headless:  # a text component: nobody sees it headless
        show_text(m, "outcome", template, **args)
    m.announce_later(english, (template, args), PUBLIC, (banner_line, template, args, "info", "Blocked"))


# -- phase 20: effects ---------------------------------------------------------------------------------------
#: What Income, Foreign Aid and Tax take from the treasury.
INCOME = {"Income": 1, "Foreign Aid": 2, "Tax": 3}


def taken_text(template: str, who: str, coins: int) -> str:
    return template.format(player=who, coins=coins)


def taken_line(template: str, who: str, coins: int) -> dict[str, Any]:
    return {"key": template, "args": {"player": who, "coins": coins}}


@game.tool
def apply_action_effects(m: Match) -> None:
    turn = m.state["current_turn"]  # actor(m), action(m) and target(m), inline
    seat, verb = turn["player_id"] - 1, turn["action"]
    if verb in INCOME:
        coins = INCOME[verb]
        m.players[seat]["coins"] += coins  # gain(m, seat, coins), inline
        m.state["treasury"] -= coins
        template = "{player} takes {coins} coins." if coins > 1 else "{player} takes {coins} coin."
        who = m.names[seat]
        if m.headless:  # say(m, template, args), its values made when read: an income most turns
            m.announce_later(taken_text, (template, who, coins), PUBLIC, (taken_line, template, who, coins))
            return
        args: dict[str, Any] = {"player": who, "coins": coins}
    elif verb == "Steal" and turn["target_player_id"]:
        victim = turn["target_player_id"] - 1
        if m.players[victim]["is_alive"]:
            taken = min(2, m.players[victim]["coins"])
            m.players[victim]["coins"] -= taken
            m.players[seat]["coins"] += taken
            template = "{player} steals {coins} coin from {target}." if taken == 1 else \
                "{player} steals {coins} coins from {target}."
            args = {"player": m.names[seat], "coins": taken, "target": m.names[victim]}
        else:  # the target died in this turn's challenge and its coins went back: the line says so
            template, args = "{player} steals nothing: {target} is out.", {"player": m.names[seat],
                                                                           "target": m.names[victim]}
    elif verb in ("Convert", "Embezzle"):
        victim_id = turn["target_player_id"]  # (a Convert of oneself names nobody)
        template, args = convert(m, seat, victim_id - 1 if victim_id else None) if verb == "Convert" else \
            embezzle(m, seat)
        show_text(m, "outcome", template, **args)
        show_board(m)
        return
    else:
        return
    m.announce_later(english, (template, args), PUBLIC, {"key": template, "args": args})  # say(m, template, args)
    if not m.headless:  # a text component and the board: nobody sees them headless
        show_text(m, "outcome", template, **args)
        show_board(m)


@game.tool
def set_action_outcome_success(m: Match) -> None:
    """The action went through. A claim proven against a challenge stays on record as such."""
    state = m.state
    m.players[state["current_turn"]["player_id"] - 1]["last_action_outcome"] = \
        "challenged_and_won" if state["challenge"]["claim_true"] else "success"


# -- phase 22: Exchange -------------------------------------------------------------------------------------------
@game.tool
def deal_exchange_cards_to_player(m: Match) -> None:
    """Draw two from the court (the Inquisitor: one), seen by the exchanging player only.

    If the challenger of the Ambassador claim lost its last influence, the game is
    already won: nothing is drawn and the player keeps the hand (see the prompt).
    """
    if decided(m):
        return
    seat = actor(m)
    count = exchange_draw(m)
    drawn = [draw(m) for _ in range(count)]
    m.state["exchange"]["drawn"] = drawn
    if count == 1:
        tell(m, "{player} draws 1 card from the court.", player=m.names[seat])
        tell(m, "You drew {first}.", Audience.of(seat), first=drawn[0])
    else:
        tell(m, "{player} draws 2 cards from the court.", player=m.names[seat])
        tell(m, "You drew {first} and {second}.", Audience.of(seat), first=drawn[0], second=drawn[1])
    if not m.headless:  # the cards to choose from: nobody sees them headless
        m.canvas.show("hand", Audience.of(seat), key="exchange", player=m.names[seat],
                      cards=hand(m, seat) + drawn, title="Choose the cards to keep")


def exchange_draw(m: Match) -> int:
    """The Ambassador draws 2; the Inquisitor draws 1 (and returns 1)."""
    return 1 if variants.fifth(m.options) == "Inquisitor" else 2


def keep_options(cards: list[str], keep: int) -> tuple[str, ...]:
    """One option per distinct multiset of ``keep`` cards, names in alphabetical order (the same
    cards in any order give the same options: made once, shared read-only; ``offer`` copies them)."""
    key = (tuple(sorted(cards)), keep)
    found = _KEEP.get(key)
    if found is None:
        kept = sorted({tuple(sorted(combo)) for combo in combinations(cards, keep)})
        found = tuple("Keep " + ", ".join(combo) for combo in kept)
        if len(_KEEP) < 10_000:
            _KEEP[key] = found
    return found


#: ``keep_options`` by the sorted cards and how many are kept.
_KEEP: dict[tuple[tuple[str, ...], int], tuple[str, ...]] = {}


@game.tool
def prompt_exchange_selection(m: Match) -> None:
    for seat in asked(m, m.state["current_turn"]["player_id"]):
        cards = hand(m, seat)
        held = len(cards)
        pool = cards + m.state["exchange"]["drawn"]
        options = keep_options(pool, held)
        m.offer(seat, options)
        if m.headless:
            continue
        ask = msg("Keep {count} of these cards", count=held) if held > 1 else msg("Keep 1 of these cards")
        prompt(m, ask, msg("Waiting for {player} to exchange with the court…", player=m.names[seat]),
               choose={"count": held, "from": pool},
               about={option: {"label": "Keep", "cards": option.removeprefix("Keep ").split(", ")}
                      for option in options})


@game.tool
def finalize_exchange_and_shuffle(m: Match) -> None:
    """Kept cards already in hand stay in their slots; kept drawn cards fill the freed
    slots; the rest go back under the court (hand first, then in draw order), shuffled."""
    seat = actor(m)
    answer = m.last_decision.answer_of(seat)
    drawn = m.state["exchange"]["drawn"]
    if answer is None or not drawn:
        return
    kept = answer.removeprefix("Keep ").split(", ")
    returned = hand(m, seat) + drawn
    for card in kept:
        returned.remove(card)
    incoming = Counter(kept)
    freed = []
    for slot in m.players[seat]["influences"].values():
        if slot["revealed"]:
            continue
        if incoming[slot["character"]]:
            incoming[slot["character"]] -= 1
        else:
            freed.append(slot)
    arriving = []
    for card in drawn:
        if incoming[card]:
            incoming[card] -= 1
            arriving.append(card)
    for slot, card in zip(freed, arriving):
        slot["character"] = card
    m.state["exchange"]["drawn"] = []
    return_to_court(m, returned)
    if not m.headless:
        m.canvas.delete("exchange")
        show_hands(m)
    if len(returned) == 1:
        tell(m, "{player} returns 1 card to the court.", player=m.names[seat])
    else:
        tell(m, "{player} returns 2 cards to the court.", player=m.names[seat])


@game.tool
def clear_claimed_character(m: Match) -> None:
    m.players[actor(m)]["claimed_character"] = ""


# -- phase 23: eliminations and the win ------------------------------------------------------------------------------
@game.tool(display=True)  # (does nothing: marked so a headless match's plan drops the step, not call it every turn)
def update_alive_statuses(m: Match) -> None:
    """A player is alive while an influence is face down. Nothing is left to update here: the
    flags are exact already, set when the match starts (``set_initial_turn_order``, for a
    scenario's players out from the start) and when a card is lost (``lose_influence``, the
    only way an influence is revealed for good), so this step of every turn reads no hand."""


@game.tool
def announce_eliminations(m: Match) -> None:
    """The log said who went out when it happened; the board now shows them out."""
    if not m.headless:
        show_board(m)
    state = m.state
    if state["eliminated"]:  # (most turns nobody went out: the empty list stays)
        state["eliminated"] = []


@game.tool
def check_and_set_win_state(m: Match) -> None:
    alive = False  # decided(m), written out: checked every turn
    for player in m.players:
        if player["is_alive"]:
            if alive:
                return
            alive = True
    if alive:
        m.finish(living(m))


@game.route(23)
def after_check_eliminations(m: Match) -> int:
    """Game over once ``check_and_set_win_state`` has named the winner (only it ends a match)."""
    return 99 if m.winners else 24


# -- phase 24: next turn ----------------------------------------------------------------------------------------------------
@game.tool
def advance_to_next_player(m: Match) -> None:
    players = m.players
    count = len(players)
    turn = m.state["current_turn"]
    seat = turn["player_id"] - 1  # actor(m), inline
    player = players[seat]  # the turn's claim ends with it (reset_turn_fields clears the rest)
    player["claimed_action"], player["claimed_character"], player["target_player_id"] = "", "", 0
    for candidate in _AFTER[count][seat]:  # the seats after this one, round the table
        if players[candidate]["is_alive"]:
            turn["player_id"] = candidate + 1
            return


#: By the number of players and a seat: the seats after it in turn order, itself last.
_AFTER = {count: tuple(tuple((seat + step) % count for step in range(1, count + 1)) for seat in range(count))
          for count in range(1, 11)}


@game.tool
def reset_turn_fields(m: Match) -> None:
    """Only the turn's actor (``set_claimed_action_and_character``) and its blocker
    (``display_block_announcement``) ever have turn fields set: those two are cleared, not every
    player. ``advance_to_next_player`` cleared the actor's as the turn passed on (it holds the seat);
    the blocker is the block's record, cleared at the next declaration."""
    players = m.players
    blocker_id = m.state["block"]["blocker_id"]
    if blocker_id:
        players[blocker_id - 1]["claimed_character"] = ""
    turn = m.state["current_turn"]
    turn["target_player_id"], turn["action"], turn["character"] = 0, "", ""
    if not m.headless:
        m.canvas.delete("declared")
        m.canvas.delete("block")


@game.tool(display=True)
def display_turn_order(m: Match) -> None:
    order = [m.names[s] for s in living(m)]
    show_text(m, "order", "Turn order: {players}", tone="muted", players=order)


# -- phase 99: game over ----------------------------------------------------------------------------------------------------
@game.tool(display=True)
def display_winner(m: Match) -> None:
    winner = m.winners[0] if m.winners else None
    title, data = msg("{player} wins!", player=name(m, winner))
    m.canvas.show("result", key="result", title=title, text="The last player with influence.",
                  winners=[name(m, winner)], msg={"title": data, "text": {"key": "The last player with influence.",
                                                                           "args": {}}})
    tell(m, "{player} wins the game.", player=name(m, winner))


@game.tool(display=True)
def reveal_final_states(m: Match) -> None:
    show_board(m, everything=True)


# -- what each seat may see --------------------------------------------------------------------------------------------------
@game.observer
def observe(m: Match, seat: int | None) -> dict[str, Any]:
    """Read at every step of a served match for every seat, and by a search's playout bots at every
    move: the option and the names are looked up once, each row is built in one expression."""
    everything = m.over
    names = m.names
    state = m.state
    reform = bool(m.options.get("reformation"))  # variants.reformation, inline
    players = []
    add = players.append
    for owner, p in enumerate(m.players):
        shown = owner == seat or everything
        cards = []
        for card in p["influences"].values():
            revealed = card["revealed"]
            cards.append({"character": card["character"] if (revealed or shown) else None, "revealed": revealed})
        row = {"name": names[owner], "coins": p["coins"], "alive": p["is_alive"], "influences": cards,
               "claimed_action": p["claimed_action"], "claimed_character": p["claimed_character"],
               "last_action_outcome": p["last_action_outcome"]}
        if reform:
            row["allegiance"] = state["allegiance"][owner] or None
        add(row)
    turn = state["current_turn"]
    block = state["block"]
    player_id, target_id, blocker_id = turn["player_id"], turn["target_player_id"], block["blocker_id"]
    view: dict[str, Any] = {
        "players": players,
        "active": names[player_id - 1] if player_id else None,
        "action": turn["action"] or None,
        "claim": turn["character"] or None,
        "target": names[target_id - 1] if target_id else None,
        "blocker": names[blocker_id - 1] if blocker_id else None,  # seat_of_id, inline
        "block_claim": block["character"] or None,
        "court_size": len(state["court_deck"]),
        "treasury": state["treasury"],
    }
    drawn = state["exchange"]["drawn"]
    if drawn and seat is not None and seat == player_id - 1:  # the actor, mid-Exchange
        view["exchange_drawn"] = list(drawn)
    options = m.options
    view["variant"] = {"characters": options["characters"], "reformation": reform,
                       "two_player_setup": options["two_player_setup"]}
    if reform:
        view["reserve"] = state["reserve"]
        view["reunified"] = reunified(m)
    if state["examine"]["target_id"]:
        view.update(examined_view(m, seat, everything))
    if state["sets"] or state["set_aside"]:
        view.update(set_aside_view(m, seat, everything))
    return view


@game.seats_observer
def observe_seats(m: Match, seats: list[int | None]) -> list[dict[str, Any]]:
    """``[observe(m, seat) for seat in seats]``, for a served match telling every seat at every change:
    each player's row as the others see it is built once (and shared), a seat's own row only where its
    hidden cards make it differ; the table's facts once."""
    everything = m.over
    names = m.names
    state = m.state
    reform = bool(m.options.get("reformation"))
    public: list[dict[str, Any]] = []  # each row as the others see it
    own: list[dict[str, Any]] = []  # each row as its owner sees it (the same object when nothing is hidden)
    for owner, p in enumerate(m.players):
        cards, mine, hidden = [], [], False
        for card in p["influences"].values():
            revealed = card["revealed"]
            if revealed or everything:
                face = {"character": card["character"], "revealed": revealed}
                cards.append(face)
                mine.append(face)
            else:
                hidden = True
                cards.append({"character": None, "revealed": revealed})
                mine.append({"character": card["character"], "revealed": revealed})
        row = {"name": names[owner], "coins": p["coins"], "alive": p["is_alive"], "influences": cards,
               "claimed_action": p["claimed_action"], "claimed_character": p["claimed_character"],
               "last_action_outcome": p["last_action_outcome"]}
        if reform:
            row["allegiance"] = state["allegiance"][owner] or None
        public.append(row)
        own.append({**row, "influences": mine} if hidden else row)
    turn = state["current_turn"]
    block = state["block"]
    player_id, target_id, blocker_id = turn["player_id"], turn["target_player_id"], block["blocker_id"]
    active = names[player_id - 1] if player_id else None
    acted = turn["action"] or None
    claim = turn["character"] or None
    aimed = names[target_id - 1] if target_id else None
    blocker = names[blocker_id - 1] if blocker_id else None
    block_claim = block["character"] or None
    court_size = len(state["court_deck"])
    treasury = state["treasury"]
    drawn = state["exchange"]["drawn"]
    options = m.options
    variant = {"characters": options["characters"], "reformation": reform,
               "two_player_setup": options["two_player_setup"]}
    together = reunified(m) if reform else False
    examined = bool(state["examine"]["target_id"])
    sets = bool(state["sets"] or state["set_aside"])
    views = []
    for seat in seats:
        players = public
        if seat is not None and own[seat] is not public[seat]:
            players = list(public)
            players[seat] = own[seat]
        view: dict[str, Any] = {"players": players, "active": active, "action": acted, "claim": claim,
                                "target": aimed, "blocker": blocker, "block_claim": block_claim,
                                "court_size": court_size, "treasury": treasury}
        if drawn and seat is not None and seat == player_id - 1:
            view["exchange_drawn"] = list(drawn)
        view["variant"] = variant
        if reform:
            view["reserve"] = state["reserve"]
            view["reunified"] = together
        if examined:
            view.update(examined_view(m, seat, everything))
        if sets:
            view.update(set_aside_view(m, seat, everything))
        views.append(view)
    return views


@game.turn
def active_seat(m: Match) -> int | None:
    return actor(m) if m.state["current_turn"]["player_id"] else None


# -- timeouts (docs/games/coup.md) --------------------------------------------------------------------------------------------
@game.on_timeout
def timeout_choice(m: Match, seat: int, options: list[str]) -> str:
    """Pass in windows; Income (or a random Coup when forced); a random loss; keep the hand.
    The variants: show a random card when examined; the examiner returns it; a random card
    is kept from an official two-player set; the start player's allegiance is random."""
    pick = random.Random(f"{m.seed}:{m.version}:{seat}")  # never the match's own RNG
    if "Pass" in options:
        return "Pass"
    if "Return" in options:
        return "Return"
    if options[0].startswith("Show ") or options[0] in variants.ALLEGIANCES:
        return pick.choice(options)
    if m.state["sets"]:
        return pick.choice(options)
    if "Income" in options:
        return "Income"
    if options[0].startswith("Coup "):
        return pick.choice(options)
    if options[0].startswith("Lose "):
        return pick.choice(options)
    if options[0].startswith("Keep "):
        current = "Keep " + ", ".join(sorted(hand(m, seat)))
        return current if current in options else options[0]
    return options[0]


# -- scenarios ---------------------------------------------------------------------------------------------------------------
SETUP_KEYS = ("hands", "deck", "coins", "shuffle", "first", "allegiance", "reserve", "revealed")


@game.check_setup
def check_setup(setup: dict[str, Any], players: int) -> list[str]:
    """What can be checked without the options; the deal checks the court against them
    (the Ambassador or the Inquisitor)."""
    problems = []
    unknown = sorted(set(setup) - set(SETUP_KEYS))
    if unknown:
        problems.append(f"unknown setup key(s) for coup: {', '.join(map(str, unknown))} "
                        f"(known: {', '.join(SETUP_KEYS)})")
    hands = setup.get("hands") or {}
    lost = setup.get("revealed") or {}
    named = [card for cards in hands.values() for card in cards or []]
    named += [card for cards in lost.values() for card in cards or []] + list(setup.get("deck", []))
    for card in named:
        if card not in ALL_CHARACTERS:
            problems.append(f"unknown character {card!r} (known: {', '.join(ALL_CHARACTERS)})")
    for who, cards in lost.items():
        if not isinstance(cards, list) or len(cards) > 2:
            problems.append(f"setup.revealed.{who} must list at most 2 cards")
    if hands:
        out = {who for who, cards in lost.items() if isinstance(cards, list) and len(cards) == 2}
        if len(set(hands) | out) != players:
            problems.append(f"setup.hands must deal every player ({players}), not {len(hands)}")
        for who, cards in hands.items():
            total = len(cards or []) + len(lost.get(who) or [])
            if total != 2:
                problems.append(f"{who} must be dealt 2 cards, not {total}"
                                + (" (hands and revealed together)" if lost.get(who) else ""))
    one_set = players == 2 and not hands and len(set(setup.get("deck", []))) == len(setup.get("deck", [])) == 5
    if (hands or "deck" in setup) and not problems and not one_set:  # one set: the official 2-player court
        if all(Counter(named) != Counter(variants.court(players, {"characters": c}))
               for c in variants.CHOICES["characters"]):
            if hands:
                problems.append(f"hands and deck must hold exactly the court of {court_size(players)} cards "
                                f"(3, 4 or 5 of each character); got {dict(Counter(named))}")
            else:
                problems.append(f"without hands, setup.deck is the whole court of {court_size(players)} cards "
                                f"before the deal (dealt 2 each from the top, in seat order)")
    for who, side in (setup.get("allegiance") or {}).items():
        if side not in variants.ALLEGIANCES:
            problems.append(f"setup.allegiance.{who}: {side!r} is not Loyalist or Reformist")
    reserve = setup.get("reserve", 0)
    if not _coin_count(reserve):
        problems.append(f"setup.reserve must be a number of coins (0 or more), not {reserve!r}")
    coins = setup.get("coins") or {}
    if not isinstance(coins, dict):
        problems.append(f"setup.coins must map players to coins, not {coins!r}")
    for who, count in (coins.items() if isinstance(coins, dict) else ()):
        if not _coin_count(count):
            problems.append(f"setup.coins.{who} must be a number of coins (0 or more), not {count!r}")
    if lost and not problems:
        out = {who for who, cards in lost.items() if isinstance(cards, list) and len(cards) == 2}
        if players - len(out) <= 1:  # the game ends the moment one player has influence left
            left = ", ".join(sorted(set(hands) - out)) or "nobody"
            problems.append(f"setup.revealed leaves {players - len(out)} player(s) with influence ({left}): "
                            f"the game would be over before it starts")
    return problems


def _coin_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


game.expect("coins")(lambda m, seat: m.players[seat]["coins"])
game.expect("hand")(lambda m, seat: hand(m, seat))
game.expect("revealed")(lambda m, seat: revealed(m, seat))
game.expect("outcome")(lambda m, seat: m.players[seat]["last_action_outcome"])
game.expect("allegiance")(lambda m, seat: allegiance(m, seat) or None)
game.expect("deck", per_player=False, ordered=True)(lambda m: list(m.state["court_deck"]))
game.expect("deck_size", per_player=False)(lambda m: len(m.state["court_deck"]))
game.expect("treasury", per_player=False)(lambda m: m.state["treasury"])
game.expect("reserve", per_player=False)(lambda m: m.state["reserve"])
