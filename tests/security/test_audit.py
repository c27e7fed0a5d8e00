"""The outbound audit: every message type the server can send, checked against every seat's secrets.

1. The message types are read from the server's source (every ``{"type": "..."}``
   it builds), so a new type fails :func:`test_every_message_type_is_classified`
   until a check is written for it in ``CHECKS``.
2. A real server is played through real WebSocket clients for every installed
   game (humans, bots, a spectator, chat, cheats, a reconnection, HTTP lookups).
   Every message is checked at the moment the server queues it
   (``Connection.send``), against the true match at that moment; every bot input
   (``SeatView``) likewise; every HTTP answer about a live room or match too.
"""

from __future__ import annotations

import ast
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pytest

import intrigue.bots as bot_registry
from intrigue import games
from intrigue.server import app as server_app
from intrigue.server.protocol import clean_chat, encode

from ..server.support import Client, ServerThread
from . import hidden
from .table import Table, hang_up

SERVER_SOURCE = Path(server_app.__file__).resolve().parent

ROOM_KEYS = {"type", "room", "game", "title", "status", "host", "match", "private", "seats", "min_players",
             "max_players", "rematch", "options", "created"}
SEAT_KEYS = {"seat", "name", "bot", "connected", "left"}
VIEW_KEYS = {"type", "match", "view", "timer", "timeouts"}
OBSERVATION_KEYS = {"game", "title", "version", "seat", "you", "players", "phase", "waiting", "decision", "state",
                    "components", "log", "over", "winners"}


class Audit:
    """What the server sent, and what was wrong with it."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.kinds: dict[str, int] = {}
        self.secrets: set[str] = set()     # seat tokens handed out
        self.said: set[str] = set()        # chat lines players sent (cleaned)
        self.watches: dict[int, hidden.Watch] = {}
        self.bot_views = 0

    def flag(self, where: str, problems: list[str]) -> None:
        self.problems.extend(f"{where}: {p}" for p in problems[:3])


def check_welcome(message: dict[str, Any], conn: Any, match: Any) -> list[str]:
    problems = []
    if set(message) != {"type", "room", "seat", "name", "spectator"}:
        problems.append(f"welcome has fields {sorted(message)}")
    if message["seat"] != conn.seat or message["spectator"] != (conn.seat is None):
        problems.append(f"welcome names seat {message['seat']} to a connection of seat {conn.seat}")
    return problems


def check_room(message: dict[str, Any], conn: Any, match: Any) -> list[str]:
    problems = []
    if set(message) != ROOM_KEYS:
        problems.append(f"room has fields {sorted(set(message) ^ ROOM_KEYS)} beyond the classified ones")
    for seat in message["seats"]:
        if set(seat) != SEAT_KEYS:
            problems.append(f"a room seat has fields {sorted(seat)}")
    return problems


def check_view(message: dict[str, Any], conn: Any, match: Any, watch: hidden.Watch | None = None) -> list[str]:
    if set(message) != VIEW_KEYS or set(message["view"]) != OBSERVATION_KEYS:
        return [f"view has fields {sorted(message)} / {sorted(message['view'])}"]
    if match is None:
        return ["a view was sent for no match"]
    timer = message["timer"]
    if timer is not None and set(timer) - {"default"} != {"seconds_left", "seconds", "kind"}:
        return [f"timer has fields {sorted(timer)}"]
    if timer is not None and "default" in timer:
        # What the timer will choose is told only to the seat it chooses for, and is one of its options.
        if conn.seat is None or timer["default"] not in match.legal(conn.seat):
            return [f"timer default {timer['default']!r} sent to seat {conn.seat}"]
    for entry in message["timeouts"]:
        if set(entry) != {"version", "player"} or entry["player"] not in match.names:
            return [f"a timeout entry {entry}"]
    return hidden.view_problems(message["view"], match, conn.seat, watch)


def check_error(message: dict[str, Any], conn: Any, match: Any) -> list[str]:
    if set(message) - {"about"} != {"type", "code", "message"} or not message["message"] or \
            message.get("about", "hint") != "hint":
        return [f"error has fields {sorted(message)}"]
    return []


def check_hint(message: dict[str, Any], conn: Any, match: Any) -> list[str]:
    """A hint goes only to a seat playing alone against bots, is one of its options now, and its
    reason is plain data (the wire check of every non-view message looks for secrets in it)."""
    if set(message) != {"type", "version", "option", "reason"} or set(message["reason"]) != {"key", "args", "text"}:
        return [f"hint has fields {sorted(message)}"]
    if conn.seat is None or match is None or message["option"] not in match.legal(conn.seat):
        return [f"a hint {message['option']!r} sent to seat {conn.seat}, which may not choose it now"]
    others = [s for s in conn.room.seats if s.seat != conn.seat]
    if not all(s.bot for s in others):
        return ["a hint at a table with another person"]
    if not all(isinstance(v, (str, int, float)) for v in message["reason"]["args"].values()):
        return [f"hint reason args {message['reason']['args']}"]
    return []


def check_chat(message: dict[str, Any], conn: Any, match: Any, audit: Audit | None = None) -> list[str]:
    if set(message) != {"type", "from", "seat", "text", "at"}:
        return [f"chat has fields {sorted(message)}"]
    if audit is not None and message["text"] not in audit.said:
        return [f"a chat line nobody typed: {message['text']!r} (system text must not go through chat)"]
    return []


def check_pong(message: dict[str, Any], conn: Any, match: Any) -> list[str]:
    return [] if message == {"type": "pong"} else [f"pong carries {message}"]


#: Every message type the server sends, and its check. A new type needs an entry here.
CHECKS: dict[str, Callable[..., list[str]]] = {
    "welcome": check_welcome, "room": check_room, "view": check_view, "error": check_error,
    "chat": check_chat, "pong": check_pong, "hint": check_hint,
}


#: ``type`` literals in the server that are not protocol messages, and why they cannot carry a secret.
NOT_SENT_TO_PLAYERS = {
    "http.response.start": "ASGI transport of BodyLimit's 413 answer (status and fixed headers)",
    "http.response.body": "ASGI transport of BodyLimit's 413 answer (a fixed text naming the limit)",
}


def server_message_types() -> dict[str, list[str]]:
    """Every ``"type": "<literal>"`` in a dict the server code builds, with where it is built."""
    found: dict[str, list[str]] = {}
    for path in sorted(SERVER_SOURCE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if isinstance(key, ast.Constant) and key.value == "type" and isinstance(value, ast.Constant) \
                            and isinstance(value.value, str):
                        found.setdefault(value.value, []).append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "dict":
                for keyword in node.keywords:
                    if keyword.arg == "type":
                        found.setdefault("<dict(type=...)>", []).append(f"{path.name}:{node.lineno}")
    return found


def test_every_message_type_is_classified():
    sent = server_message_types()
    # commands the server parses are dicts with a "type" too; they are not sent
    from intrigue.server.protocol import COMMANDS

    outbound = {kind: where for kind, where in sent.items()
                if (kind not in COMMANDS or kind in CHECKS) and kind not in NOT_SENT_TO_PLAYERS}
    unclassified = {kind: where for kind, where in outbound.items() if kind not in CHECKS}
    assert not unclassified, f"message types with no audit check (add one to CHECKS): {unclassified}"
    assert set(CHECKS) <= set(sent), f"classified types the server no longer sends: {set(CHECKS) - set(sent)}"


# -------------------------------------------------------------------------------------------- the live audit
@pytest.fixture
def audited(tmp_path, monkeypatch):
    """A real server whose every outgoing message and bot input is checked as it is produced."""
    audit = Audit()
    original_send = server_app.Connection.send
    server_holder: dict[str, ServerThread] = {}

    def checked_send(conn, message):  # noqa: ANN001
        wire = encode(message)
        kind = message.get("type")
        audit.kinds[kind] = audit.kinds.get(kind, 0) + 1
        room = conn.room
        if room is None:  # during 'hello' the room sends before the connection records it
            lobby = server_holder["server"].app.state.lobby
            room = next((r for r in lobby.rooms.values() if conn in r._all_sinks()), None)
        match = room.match if room is not None else None
        where = f"{kind} to seat {conn.seat} of room {room.code if room else '-'}"
        check = CHECKS.get(kind)
        if check is None:
            audit.flag(where, [f"unclassified message type {kind!r}"])
        else:
            if kind == "chat":
                found = check_chat(message, conn, match, audit)
            elif kind == "view" and match is not None:
                found = check(message, conn, match, audit.watches.setdefault(id(match), hidden.Watch()))
            else:
                found = check(message, conn, match)
            audit.flag(where, found)
        audit.flag(where, hidden.wire_problems(wire, match, audit.secrets | hashes(audit.secrets)))
        if kind not in ("view", "chat"):
            audit.flag(where, hidden.non_view_problems(wire, match, conn.seat))
        if match is not None and kind == "view":
            watch = audit.watches.setdefault(id(match), hidden.Watch())
            audit.flag(f"log of room {room.code}", hidden.new_event_problems(match, watch))
        original_send(conn, message)

    original_view = bot_registry.SeatView

    def checked_seat_view(game, seat, observation, options):  # noqa: ANN001, ANN202
        autoplay = sys._getframe(1).f_locals.get("self")  # the room's Autoplay asking its bot
        caller = getattr(autoplay, "room", None)
        lobby = server_holder["server"].app.state.lobby
        if getattr(caller, "lobby", None) is not lobby:  # another test's server still finishing a game
            return original_view(game, seat, observation, options)
        audit.bot_views += 1
        match = caller.match
        where = f"bot input for seat {seat} of room {caller.code}"
        if observation != match.observe(seat) or observation["seat"] != seat:
            audit.flag(where, ["an observation that is not the seat's own view"])
        else:
            watch = audit.watches.setdefault(id(match), hidden.Watch())
            audit.flag(where, hidden.view_problems(observation, match, seat, watch))
        if tuple(options) != tuple(match.legal(seat)):
            audit.flag(where, ["options that are not the seat's own"])
        return original_view(game, seat, observation, options)

    monkeypatch.setattr(server_app.Connection, "send", checked_send)
    monkeypatch.setattr(bot_registry, "SeatView", checked_seat_view)
    with ServerThread(tmp_path / "audit.db") as server:
        server_holder["server"] = server
        yield server, audit


def hashes(tokens: set[str]) -> set[str]:
    from intrigue.server.seats import token_hash

    return {token_hash(t) for t in tokens}


CHAT = ["<script>alert('x')</script>", "<img src=x onerror=alert(1)>", "I have the \u202eDuke\u0007", "trust me"]


def play(server: ServerThread, audit: Audit, game: str, rng: random.Random, humans: int, bots: int,
         options: dict[str, Any] | None = None) -> int:
    with server.http() as http:
        timers = {"turn_timer": None, "window_timer": None, **(options or {})}
        table = Table(server, http, game, humans=humans, bots=bots, timers=timers)
        audit.secrets.update(table.tokens)
        watcher = Client(server.ws_url, table.code)
        watcher.until(lambda m: m["type"] == "welcome")
        match_id = table.room.match_id
        practice = humans == 1  # a practice room: the coach answers hints
        hints = 0
        moves = 0
        deadline = time.monotonic() + 60
        while not table.match.over:
            assert time.monotonic() < deadline, f"{game} did not finish"
            table.settle()
            mover = table.pending()
            if mover is None:
                continue
            roll = rng.random()
            if practice and (hints == 0 or roll < 0.03):  # the coach: a hint is a message like any other
                hints += 1
                mover.send({"type": "hint", "token": mover.token, "version": mover.view["version"]})
                mover.until(lambda m: m["type"] == "hint" or m.get("about") == "hint", timeout=10)
            elif roll < 0.05:
                text = rng.choice(CHAT)
                audit.said.add(clean_chat(text))
                mover.send({"type": "chat", "token": mover.token, "text": text})
            elif roll < 0.10:  # cheats: someone else's turn, a stale version, an option never offered
                other = rng.choice(table.clients)
                other.send({"type": "choose", "token": other.token, "version": rng.choice([-1, 10**6]),
                            "option": rng.choice(["Assassinate", "Pass", "x" * 30, mover.options[0]])})
                other.until(lambda m: m["type"] == "error" and m["code"] in ("stale_version", "over"))
            elif roll < 0.12:  # a forged token and a token of another room
                mover.send({"type": "choose", "token": "forged" + "x" * 40, "version": mover.view["version"],
                            "option": mover.options[0]})
                mover.until(lambda m: m["type"] == "error" and m["code"] == "bad_token")
            elif roll < 0.14:
                mover.send({"type": "ping"})
                mover.until(lambda m: m["type"] == "pong")
            elif roll < 0.16:  # a reload: same seat, full view
                index = table.clients.index(mover)
                hang_up(mover)
                table.clients[index] = Client(server.ws_url, table.code, table.tokens[index])
                table.clients[index].settle(lambda v: v is not None)
            elif roll < 0.18:  # the HTTP side of a live match
                replay = http.get(f"/api/matches/{match_id}/replay", params={"seat": "all"})
                assert replay.status_code == 409 and replay.json()["error"]["code"] == "in_progress"
                for path in (f"/api/rooms/{table.code}", "/api/matches?status=playing", "/api/rooms"):
                    wire = http.get(path).text
                    audit.flag(f"GET {path}", hidden.wire_problems(wire, table.match, audit.secrets | hashes(audit.secrets)))
                    audit.flag(f"GET {path}", hidden.non_view_problems(wire, table.match, None))
            else:  # a move, at the server's current version (a bot may have moved since the last view)
                match, seat = table.match, mover.view["seat"]
                if seat not in match.pending:
                    continue
                version = hidden.known_version(match, seat)  # the match's, or less in a secret decision
                mover.choose(rng.choice(match.legal(seat)), version=version)
                mover.settle(lambda v, n=version: v["version"] > n or v["over"])
                moves += 1
        table.settle()
        after = http.get(f"/api/matches/{match_id}/replay", params={"seat": "all"})
        assert after.status_code == 200, "a finished match can be replayed"
        hang_up(watcher)
        table.close()
        return moves


#: (humans, bots) per game: small tables keep the suite fast; bots exercise SeatView
TABLES = {"coup": [(2, 1), (3, 0), (2, 3), (1, 2)], "bang": [(2, 2), (3, 2)], "dsfgs": [(2, 1), (3, 1), (4, 2)],
          "heist": [(2, 1), (3, 0), (3, 2)], "werewolf": [(3, 3), (2, 5)], "avalon": [(3, 2), (2, 5)]}


def test_no_channel_tells_a_seat_what_it_may_not_know(audited):
    server, audit = audited
    rng = random.Random(606)
    played = {}
    for game in games.installed():
        for humans, bots in TABLES.get(game, [(games.get(game).min_players, 0)]):
            played[game] = played.get(game, 0) + play(server, audit, game, rng, humans, bots)
    # the flood and frame errors of serve_socket go through the same send
    client = Client(server.ws_url)
    client.send("{nope")
    client.error()
    client.close()
    assert not audit.problems, "\n".join(audit.problems[:30])
    assert set(played) == set(games.installed()) and all(played.values()), played
    assert set(audit.kinds) == set(CHECKS), f"message types never exercised: {set(CHECKS) - set(audit.kinds)}"
    assert audit.bot_views > 10
    assert audit.kinds["view"] > 200


#: Coup's variants in the audit: the Inquisitor's Examine, the Reformation, the official 2-player set-up.
VARIANT_TABLES = [(3, 1, {"characters": "inquisitor", "reformation": True}),
                  (2, 0, {"characters": "inquisitor", "two_player_setup": "official", "reformation": True,
                          "choose_allegiance": True}),
                  (2, 2, {"characters": "inquisitor"})]


def test_no_channel_leaks_in_coup_variants(audited):
    """Examined cards reach only the examiner and the target; sets and set-aside cards only their
    owner; allegiances and the reserve reach everyone."""
    server, audit = audited
    rng = random.Random(1919)
    moves = 0
    examined_seen = 0
    for humans, bots, options in VARIANT_TABLES:
        for _ in range(4):
            moves += play(server, audit, "coup", rng, humans, bots, options)
    examined_seen = sum(1 for room in server.app.state.lobby.rooms.values()
                        for e in room.match.events if e.data.get("event") == "examine_show")
    assert not audit.problems, "\n".join(audit.problems[:30])
    assert moves > 100 and examined_seen > 0
    assert audit.kinds["view"] > 200


def test_no_channel_leaks_in_bang_variants(audited):
    """BANG! at 3 players (roles face up) and 8 (two Renegades): the same audit."""
    server, audit = audited
    rng = random.Random(88)
    moves = sum(play(server, audit, "bang", rng, humans, bots) for humans, bots in ((2, 1), (1, 2), (2, 6)))
    assert not audit.problems, "\n".join(audit.problems[:30])
    assert moves > 30


def test_the_audit_catches_an_examined_card_shown_to_everyone(audited, monkeypatch):
    """Remove the protection (the shown card in every seat's observation) and the audit sees it."""
    from intrigue.games.coup import inquisitor, rules

    server, audit = audited
    original = inquisitor.examined_view
    monkeypatch.setattr(rules, "examined_view", lambda m, seat, everything: original(m, seat, True))
    rng = random.Random(5)
    for _ in range(40):  # until a third seat is sent a view while a card is shown (a few games at most)
        play(server, audit, "coup", rng, 3, 0, {"characters": "inquisitor"})
        if audit.problems:
            break
    assert any("showed to the examiner" in p for p in audit.problems), audit.problems[:5]


def test_the_audit_catches_a_leaking_observer(audited, monkeypatch):
    """Remove the protection (an observer that shows everything) and the audit sees it."""
    server, audit = audited
    coup = games.get("coup")
    original, together = coup.binding.observe, coup.binding.observe_seats
    monkeypatch.setattr(coup.binding, "observe", lambda match, seat: _everything(original, match, seat))
    # the server builds a change's views for every seat together: that observer leaks the same way
    monkeypatch.setattr(coup.binding, "observe_seats", lambda match, seats: _everything(together, match, seats))
    play(server, audit, "coup", random.Random(1), 2, 0)
    assert any("hidden" in p for p in audit.problems), audit.problems[:5]


def _everything(observer, match, seat):  # noqa: ANN001, ANN202
    """Coup's observer (of one seat or of several) as if the match were over: every influence face up."""
    over = match.over
    match.over = True
    try:
        return observer(match, seat)
    finally:
        match.over = over


def test_replay_of_a_live_match_is_refused_for_every_seat_and_step(server, http):
    table = Table(server, http, "coup")
    match_id = table.room.match_id
    for seat in ("all", "0", "1"):
        for step in (0, 1):
            answer = http.get(f"/api/matches/{match_id}/replay", params={"seat": seat, "step": step})
            assert answer.status_code == 409 and answer.json()["error"]["code"] == "in_progress", answer.text
    table.close()


def test_views_name_no_seed_even_in_json_numbers(server, http):
    """The seed fixes every shuffle: it must not appear in any view or room message."""
    table = Table(server, http, "bang", humans=2, bots=2)
    seed = table.match.seed
    for client in table.clients:
        client.drain()
        assert all(str(seed) not in json.dumps(m) for m in client.messages)
    table.close()


def test_renumbered_seats_and_a_rematch_still_get_only_their_own_views(audited):
    """Start drops empty seats and renumbers the rest; a rematch starts a new match. Each connection
    must keep receiving its own seat's view (a wrong mapping would hand a player someone else's hand)."""
    from ..server.support import create_room, join

    server, audit = audited
    with server.http() as http:
        created = create_room(http, game="coup", name="Aria", seats=5, private=True,
                              options={"turn_timer": None, "window_timer": None})
        code = created["room"]
        tokens = {"Aria": created["token"]}
        for name in ("Blake", "Casey", "Drew"):
            tokens[name] = join(http, code, name)["token"]
        audit.secrets.update(tokens.values())
        assert http.post(f"/api/rooms/{code}/leave", json={"token": tokens.pop("Blake")}).status_code == 200
        clients = {name: Client(server.ws_url, code, token) for name, token in tokens.items()}
        for client in clients.values():
            client.until(lambda m: m["type"] == "welcome")
        clients["Aria"].send({"type": "start", "token": tokens["Aria"]})
        rng = random.Random(9)
        for round_ in range(2):
            for name, client in clients.items():
                client.settle(lambda v: v is not None and v["version"] == 0)
                assert client.view["you"] == name and client.view["players"] == ["Aria", "Casey", "Drew"]
            first = clients["Aria"].match
            deadline = time.monotonic() + 30
            room = server.app.state.lobby.rooms[code]
            while not room.match.over:
                assert time.monotonic() < deadline
                for client in clients.values():
                    client.drain(0.005)
                for name, client in clients.items():
                    if client.options and client.view["version"] == room.match.version:
                        client.choose(rng.choice(client.options))
                        client.settle(lambda v, n=client.view["version"]: v["version"] > n)
                        break
            for name, client in clients.items():
                client.settle(lambda v: v["over"])
                assert client.view["you"] == name
            if round_ == 0:
                for name, client in clients.items():
                    client.send({"type": "rematch", "token": tokens[name]})
                for client in clients.values():
                    client.until(lambda m, f=first: m["type"] == "view" and m["match"] != f)
        for client in clients.values():
            hang_up(client)
    assert not audit.problems, "\n".join(audit.problems[:20])


def test_the_werewolf_and_avalon_checks_catch_who_acts_in_secret():
    """Hand the checks a view that names exactly the actors of a secret decision: they see it."""
    from intrigue.engine import Match

    werewolf = games.get("werewolf")
    roles = {"A": "Werewolf", "B": "Werewolf", "C": "Seer", "D": "Doctor", "E": "Villager", "F": "Villager"}
    match = Match(werewolf, list(roles), 1, setup={"roles": roles})
    match.choose(0, "E")
    match.choose(4, "Sleep")
    honest = match.observe(5)
    assert hidden.view_problems(honest, match, 5, hidden.Watch()) == []
    leaky = {**honest, "waiting": [match.names[s] for s in match.pending]}
    assert any("waiting" in p for p in hidden.view_problems(leaky, match, 5, hidden.Watch()))
    counting = {**honest, "version": match.version}  # two answers given: F may not know
    assert honest["version"] == 0 and any("version" in p for p in hidden.view_problems(counting, match, 5))
    peeking = json.loads(json.dumps(honest))
    peeking["state"]["players"][0]["role"] = "Werewolf"
    assert any("role" in p for p in hidden.view_problems(peeking, match, 5, hidden.Watch()))

    avalon = games.get("avalon")
    cast = {"A": "Merlin", "B": "Assassin", "C": "Percival", "D": "Morgana", "E": "Loyal Servant of Arthur"}
    quest = Match(avalon, list(cast), 1, setup={"roles": cast, "first": "A"})
    quest.choose(0, "A, B")
    for seat in range(5):
        quest.choose(seat, "Approve")
    quest.choose(0, "Success")
    view = quest.observe(None)
    assert hidden.view_problems(view, quest, None) == []
    assert hidden.view_problems({**view, "waiting": ["B"]}, quest, None)
    told = json.loads(json.dumps(quest.observe(2)))
    told["state"]["players"][1]["side"] = "evil"  # Percival does not know the Assassin
    assert any("side" in p for p in hidden.view_problems(told, quest, 2))
