"""No secret leaves the server: 200+ random Coup games through the server's own sending path.

Every command goes through ``protocol.parse`` and the WebSocket handler (``app.handle``);
every message a connection would get is taken from the room as the encoded text
``Connection.send`` would put on the wire, and checked against the true match
at the moment it is sent.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from intrigue.games.coup.board import CHARACTERS, actor
from intrigue.server.app import handle
from intrigue.server.protocol import Refusal, encode, parse
from intrigue.server.lobby import Lobby
from intrigue.server.settings import Settings
from intrigue.store import open_store

GAMES = 200


class Leak(AssertionError):
    pass


class Recorder:
    """A connection as the room sees it; checks each message as it is sent."""

    def __init__(self, name: str, tokens: set[str]):
        self.name = name
        self.seat: int | None = None
        self.room: Any = None
        self.tokens = tokens
        self.sent = 0
        self.kinds: set[str] = set()

    def send(self, message: dict[str, Any]) -> None:
        wire = encode(message)  # exactly what Connection.send queues for the socket
        received = json.loads(wire)
        self.sent += 1
        self.kinds.add(received["type"])
        for token in self.tokens:
            if token in wire:
                raise Leak(f"{self.name} was sent a seat token")
        if "token_hash" in wire:
            raise Leak(f"{self.name} was sent a token hash")
        if received["type"] == "view" and self.room is not None:
            check_view(received["view"], self.room.match, self.seat, self.name, wire)


def slots(match, seat):
    return list(match.players[seat]["influences"].values())


def hand(match, seat):
    return sorted(s["character"] for s in slots(match, seat) if not s["revealed"])


def check_view(view: dict[str, Any], match, seat: int | None, who: str, wire: str | None = None) -> None:
    over = match.over
    if view["seat"] != seat:
        raise Leak(f"{who} got the view of seat {view['seat']}")
    if view["version"] != match.version:
        raise Leak(f"{who} got a view of version {view['version']} at version {match.version}")
    wire = wire if wire is not None else encode(view)
    for key in ("court_deck", "deck", "drawn"):
        if f'"{key}":' in wire:
            raise Leak(f"{who}: the view has a {key!r} field (a hidden pile)")
    court = list(match.state["court_deck"])
    # No list a seat may see holds more than 4 cards (2 in hand + 2 drawn) but its own set of the
    # official two-player set-up (5, in the court's order of characters), so a longer court found in
    # order is a leak, unless the shuffle put it in the order of that set (1 deal in 120); a shorter
    # one can match a hand by chance.
    own_set = (match.state.get("sets") or {}).get(str(seat)) if seat is not None else None
    if len(court) > 4 and court != own_set and encode(court)[1:-1] in wire:
        raise Leak(f"{who}: the view holds the court deck in order")
    # the game's own state: every other seat's unrevealed influence is hidden
    for owner, shown in enumerate(view["state"]["players"]):
        for index, (card, truth) in enumerate(zip(shown["influences"], slots(match, owner))):
            if card["revealed"] != truth["revealed"]:
                raise Leak(f"{who}: wrong revealed flag for {match.names[owner]}")
            if owner == seat or truth["revealed"] or over:
                if card["character"] != truth["character"]:
                    raise Leak(f"{who}: {match.names[owner]}'s influence {index} is wrong")
            elif card["character"] is not None:
                raise Leak(f"{who} sees {match.names[owner]}'s hidden {card['character']}")
    drawn = match.state["exchange"]["drawn"]
    if "exchange_drawn" in view["state"]:
        if seat is None or seat != actor(match) or sorted(view["state"]["exchange_drawn"]) != sorted(drawn):
            raise Leak(f"{who} sees another seat's Exchange draw")
    # UI components: hands are the viewer's own; face-up cards are revealed ones
    for component in view["components"]:
        if component["kind"] == "hand" and not over:
            if seat is None or component["player"] != match.names[seat]:
                raise Leak(f"{who} sees the hand of {component['player']}")
            mine = hand(match, seat)
            exchanging = sorted(mine + list(drawn)) if drawn and seat == actor(match) else None
            if sorted(component["cards"]) not in (mine, exchanging):
                raise Leak(f"{who}: the hand component {component['cards']} is not their own hand {mine}")
        if component["kind"] == "board":
            for board in component["players"]:
                owner = match.names.index(board["name"])
                for card, truth in zip(board["cards"], slots(match, owner)):
                    if card["label"] is not None and not (truth["revealed"] or over):
                        raise Leak(f"{who} sees {board['name']}'s face-down {card['label']} on the board")
    # options only for the pending viewer; Exchange picks only for the one exchanging
    decision = view["decision"]
    if decision and decision["options"]:
        if seat is None or seat not in match.pending or decision["options"] != match.legal(seat):
            raise Leak(f"{who} sees options that are not theirs")
    # log lines: only events whose audience includes this viewer
    allowed = {(e.version, e.text) for e in match.events if e.audience.includes(match, seat)}
    for line in view["log"]:
        if (line["version"], line["text"]) not in allowed:
            raise Leak(f"{who} got the log line {line['text']!r} meant for someone else")
    if seat is None and not over:
        for line in view["log"]:
            if line["text"].startswith("Your "):
                raise Leak(f"a spectator got a private line {line['text']!r}")


async def play(lobby: Lobby, rng: random.Random, number: int) -> dict[str, int]:
    players = rng.randint(2, 6)
    bots = [{"kind": "random"}] if players > 2 and rng.random() < 0.3 else []
    tokens: set[str] = set()
    room, host = lobby.create("leak", "coup", "P0", players, bots, {"turn_timer": None, "window_timer": None},
                              True, clock=lambda: 0.0)
    seat_tokens = [host]
    for index in range(1, players - len(bots)):
        seat, token = room.add_player(f"P{index}")
        seat_tokens.append(token)
    tokens.update(seat_tokens)
    recorders = [Recorder(f"game {number} seat {i}", tokens) for i in range(len(seat_tokens))]
    watcher = Recorder(f"game {number} spectator", tokens)
    for recorder, token in zip(recorders, seat_tokens):
        handle(lobby, recorder, parse(encode({"type": "hello", "room": room.code, "token": token})))
    handle(lobby, watcher, parse(encode({"type": "hello", "room": room.code})))
    handle(lobby, recorders[0], parse(encode({"type": "start", "token": host})))
    refusals = ghosts = 0
    for _ in range(5000):
        await asyncio.sleep(0)  # let bots act
        match = room.match
        if match.over:
            break
        humans = [s for s in match.pending if s < len(seat_tokens)]
        if not humans:
            continue
        seat = rng.choice(humans)
        command = {"type": "choose", "token": seat_tokens[seat], "version": match.version,
                   "option": rng.choice(match.legal(seat))}
        if rng.random() < 0.1:  # a cheat: another seat's option, or another version
            cheat = rng.randrange(len(seat_tokens))
            command = {"type": "choose", "token": seat_tokens[cheat], "version": match.version - rng.randint(0, 1),
                       "option": rng.choice(match.legal(seat) + list(CHARACTERS))}
        dead = [s for s in range(len(seat_tokens)) if not match.alive(s)]
        if dead and rng.random() < 0.2:  # an eliminated player tries to act
            ghost = rng.choice(dead)
            try:
                handle(lobby, recorders[ghost], parse(encode({"type": "choose", "token": seat_tokens[ghost],
                                                              "version": match.version,
                                                              "option": rng.choice(match.legal(seat))})))
            except Refusal as refusal:
                assert refusal.code == "not_pending"
                ghosts += 1
                recorders[ghost].send(refusal.message_json())
            else:
                raise AssertionError(f"game {number}: eliminated seat {ghost} acted")
        if rng.random() < 0.02:
            talker = rng.randrange(len(seat_tokens))
            try:
                handle(lobby, recorders[talker], parse(encode({"type": "chat", "token": seat_tokens[talker],
                                                               "text": f"I have the {rng.choice(CHARACTERS)}"})))
            except Refusal as refusal:  # chatting too fast
                recorders[talker].send(refusal.message_json())
        before = match.version
        sender = recorders[seat_tokens.index(command["token"])]
        try:
            handle(lobby, sender, parse(encode(command)))
        except Refusal as refusal:  # what serve_socket sends back
            refusals += 1
            assert room.match.version == before
            sender.send(refusal.message_json())
    assert room.match.over, f"game {number} did not finish"
    for recorder in recorders + [watcher]:
        room.detach(recorder)
    kinds = set(watcher.kinds).union(*(r.kinds for r in recorders))
    return {"messages": sum(r.sent for r in recorders) + watcher.sent, "refusals": refusals,
            "moves": room.match.version, "kinds": kinds, "ghosts": ghosts}


def test_no_message_carries_another_seats_secret():
    async def main() -> dict[str, int]:
        lobby = Lobby(open_store(":memory:"), Settings(bot_delay=0, room_quota=10**6))
        rng = random.Random(20261122)
        totals = {"messages": 0, "refusals": 0, "moves": 0, "ghosts": 0, "kinds": set()}
        for number in range(GAMES):
            for key, value in (await play(lobby, rng, number)).items():
                totals[key] = totals[key] | value if key == "kinds" else totals[key] + value
        return totals

    totals = asyncio.run(main())
    # every kind of message a room sends went through the checks (pong is constant)
    assert totals["kinds"] == {"welcome", "room", "view", "error", "chat"}
    assert totals["moves"] > GAMES * 10
    assert totals["messages"] > totals["moves"] * 2
    assert totals["refusals"] > 0
    assert totals["ghosts"] > 0, "eliminated players tried to act and were refused"


def test_the_checker_catches_a_leak(coup):
    """The check above is not vacuous: a view with another seat's card is caught."""
    from intrigue.engine import Match

    match = Match(coup, ["A", "B"], 3)
    view = match.observe(0)
    view["state"]["players"][1]["influences"][0]["character"] = slots(match, 1)[0]["character"]
    try:
        check_view(view, match, 0, "seat 0")
    except Leak as leak:
        assert "hidden" in str(leak)
    else:
        raise AssertionError("the leak was not caught")
    spectator = match.observe(1)  # seat 1's view sent to a spectator
    spectator["seat"] = None
    try:
        check_view(spectator, match, None, "spectator")
    except Leak:
        pass
    else:
        raise AssertionError("a seat's view sent to a spectator was not caught")


def test_the_checker_knows_a_seat_sees_its_own_set_of_five(coup):
    """In the official two-player set-up a seat sees its set of five, in the order of the characters;
    one shuffle in 120 puts the court in that order, and the check called that a leak (it failed the
    audit by chance)."""
    from intrigue.engine import Match

    options = {"two_player_setup": "official"}
    match = next(m for m in (Match(coup, ["A", "B"], seed, options=options) for seed in range(2000))
                 if m.state["court_deck"] == m.state["sets"]["0"])
    view = match.observe(0)
    check_view(view, match, 0, "seat 0")  # its own set, no leak
