"""Log deltas (``hello``'s ``log_deltas``): a client that merges them as docs/protocol.md says reads
exactly the log a client without them reads, through a whole match, a reconnect and a rematch."""

from __future__ import annotations

import random
import time

from .support import Client, create_room, join

NO_TIMERS = {"turn_timer": None, "window_timer": None}


def views(client: Client, since: int) -> list[dict]:
    return [m for m in client.messages[since:] if m["type"] == "view"]


class Pair:
    """Two connections of one seat (or two spectators): ``full`` as today's clients, ``delta`` asking for deltas.
    After every view the delta connection merged, its view (log included) equals the full one's of that version."""

    def __init__(self, url: str, room: str, token: str | None):
        self.url, self.room, self.token = url, room, token
        self.full = Client(url, room, token)
        self.delta = Client(url, room, token, log_deltas=True)
        self.compared = self._read = self._earlier = 0

    @property
    def deltas(self) -> int:
        """Views that came as deltas, on every delta connection so far."""
        return self._earlier + sum(1 for m in views(self.delta, 0) if m["log_after"] is not None)

    def check(self) -> None:
        """Compare every view the delta connection merged since the last check with the full one's."""
        self.full.drain(0.03)
        self.delta.drain(0.03)
        full = {(match, view["version"]): view for match, view in self.full.views}
        for match, view in self.delta.views[self._read:]:
            assert view == full[(match, view["version"])], f"view {match}/{view['version']} differs"
            self.compared += 1
        self._read = len(self.delta.views)
        assert self.delta.view == self.full.view

    def reconnect(self) -> None:
        """The delta connection closes and a new one opens: its first view is full."""
        self.check()
        self.delta.close()
        self._earlier = self.deltas
        self.delta = Client(self.url, self.room, self.token, log_deltas=True)
        self._read = 0
        first = self.delta.until(lambda m: m["type"] == "view")
        assert first["log_after"] is None
        self.check()

    def hello_again(self) -> None:
        """A second hello on the same connection: a full view again."""
        self.check()
        before = len(self.delta.messages)
        self.delta.hello(self.room, self.token)
        self.delta.until(lambda m: m["type"] == "view")
        assert views(self.delta, before)[0]["log_after"] is None
        self.check()


def play(players: list[Client], pairs: list[Pair], rng: random.Random, moves: int, timeout: float = 60) -> int:
    """Random legal moves (from the seats' plain connections, or their delta ones) until the match ends
    or ``moves`` were made; every pair is checked after each."""
    deadline = time.monotonic() + timeout
    made = 0
    while made < moves and not players[0].view["over"]:
        assert time.monotonic() < deadline, "the match did not end"
        for player in players:
            player.drain(0.01)
        mover = next((p for p in players if p.options and not p.view["over"]), None)
        if mover is None:
            continue
        version = mover.view["version"]
        mover.choose(rng.choice(mover.options))
        for player in players:
            player.settle(lambda v: v["version"] > version)
        for pair in pairs:
            pair.check()
        made += 1
    return made


def test_a_merged_delta_log_equals_the_full_log_through_matches_reconnects_and_a_rematch(server, http):
    created = create_room(http, seats=3, private=True, options=NO_TIMERS)
    room = created["room"]
    tokens = [created["token"], join(http, room, "Blake")["token"], join(http, room, "Casey")["token"]]
    aria = Client(server.ws_url, room, tokens[0])
    blake = Pair(server.ws_url, room, tokens[1])
    watchers = Pair(server.ws_url, room, None)
    casey = Client(server.ws_url, room, tokens[2], log_deltas=True)
    aria.send({"type": "start", "token": tokens[0]})
    for client in (aria, blake.full, blake.delta, watchers.full, watchers.delta, casey):
        client.settle(lambda v: v is not None)
    first = aria.match
    blake.check()
    opening = blake.delta.view["log"]
    private = [line for line in opening if line.get("to") == "Blake"]
    assert private and private[0]["text"].startswith("Your influence"), opening  # Blake's own lines are merged too
    assert not any(line.get("to") == "Blake" for line in watchers.delta.view["log"])

    rng = random.Random(17)
    # Blake's delta connection plays Blake's moves: the seat acts from either connection.
    players = [aria, blake.delta, casey]
    play(players, [blake, watchers], rng, 8)
    blake.reconnect()
    watchers.reconnect()
    players[1] = blake.delta
    play(players, [blake, watchers], rng, 6)
    blake.hello_again()
    play(players, [blake, watchers], rng, 10_000)
    for client in players:
        client.settle(lambda v: v["over"])
    blake.check()
    watchers.check()
    assert blake.deltas > 10 and blake.compared > blake.deltas
    assert watchers.deltas > 10

    before = len(blake.delta.messages)
    for token, client in zip(tokens, (aria, blake.full, casey)):
        client.send({"type": "rematch", "token": token})
    for client in (aria, blake.full, blake.delta, watchers.full, watchers.delta, casey):
        client.until(lambda m: m["type"] == "view" and m["match"] != first)
    rematch = [m for m in views(blake.delta, before) if m["match"] != first]
    assert rematch[0]["log_after"] is None and rematch[0]["view"]["version"] == 0
    blake.check()
    watchers.check()
    play(players, [blake, watchers], rng, 6)
    assert blake.delta.view["log"] == blake.full.view["log"] and blake.delta.view["log"]


def test_a_delta_log_is_short_and_a_plain_connection_never_sees_the_field(server, http):
    created = create_room(http, seats=2, private=True, options=NO_TIMERS)
    room = created["room"]
    blake_token = join(http, room, "Blake")["token"]
    aria = Client(server.ws_url, room, created["token"], log_deltas=True)
    blake = Client(server.ws_url, room, blake_token)
    aria.send({"type": "start", "token": created["token"]})
    for client in (aria, blake):
        client.settle(lambda v: v is not None)
    rng = random.Random(3)
    play([aria, blake], [], rng, 12)
    aria.drain(0.05)
    blake.drain(0.05)
    sent = views(aria, 0)
    assert sent[0]["log_after"] is None
    deltas = [m for m in sent[1:] if m["log_after"] is not None]
    assert len(deltas) == len(sent) - 1
    # Each delta carries only the lines its move added: together with the first view they are the whole log,
    # once each (a move may add several lines: a challenge, a reveal, a lost influence, the game's end).
    whole = aria.view["log"]
    assert 12 < len(whole) < 80
    assert sent[0]["view"]["log"] + [line for m in deltas for line in m["view"]["log"]] == whole
    assert max(len(m["view"]["log"]) for m in deltas) < len(whole) // 2
    assert all("log_after" not in m for m in views(blake, 0))


def test_a_log_deltas_that_is_not_true_or_false_is_refused(server, http):
    created = create_room(http, seats=2, private=True, options=NO_TIMERS)
    client = Client(server.ws_url)
    client.send({"type": "hello", "room": created["room"], "token": created["token"], "log_deltas": "yes"})
    refused = client.error()
    assert refused["code"] == "bad_message" and "log_deltas" in refused["message"]
    client.close()
