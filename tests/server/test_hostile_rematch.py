"""Version and seat confusion across matches, written from docs/protocol.md: after a rematch the
versions start again at 0, so a command kept from the last match can fit the new one. A command may
name its match (`match`, as the views do); then only that match takes it."""

from __future__ import annotations

from ..security.table import hang_up
from .support import Client, create_room, join


def play_out(aria: Client) -> None:
    while not aria.view["over"]:
        if aria.options:
            aria.choose(aria.options[0])
        aria.settle(lambda v, n=aria.view["version"]: v["version"] > n or v["over"], timeout=10)


def test_a_command_naming_another_match_is_stale_and_changes_nothing(server, http):
    created = create_room(http, name="Aria", seats=2, bots=[{"kind": "random"}], private=True,
                          options={"turn_timer": None, "window_timer": None})
    aria = Client(server.ws_url, created["room"], created["token"])
    aria.until(lambda m: m["type"] == "welcome")
    aria.send({"type": "start", "token": created["token"]})
    aria.settle(lambda v: bool(v["decision"] and v["decision"]["options"]), timeout=10)
    first = aria.match
    held = dict(aria.view)
    aria.send({"type": "choose", "token": created["token"], "version": held["version"], "option": aria.options[0],
               "match": first + 1})
    refusal = aria.error()
    assert refusal["code"] == "stale_version" and f"plays match {first} now" in refusal["message"]
    aria.send({"type": "ping"})
    aria.until(lambda m: m["type"] == "pong")
    assert aria.view == held  # nothing moved
    play_out(aria)
    # A vote for the rematch of another match is not counted.
    aria.send({"type": "rematch", "token": created["token"], "match": first + 1})
    assert aria.error()["code"] == "stale_version"
    assert http.get(f"/api/rooms/{created['room']}").json()["rematch"]["votes"] == []
    aria.send({"type": "rematch", "token": created["token"], "match": first})
    aria.until(lambda m: m["type"] == "view" and m["match"] != first)
    second = aria.match
    aria.settle(lambda v: bool(v["decision"] and v["decision"]["options"]), timeout=10)
    version, option = aria.view["version"], aria.options[0]
    # The command as the last match's view would have made it: before the fix it was played in this one.
    aria.send({"type": "choose", "token": created["token"], "version": version, "option": option, "match": first})
    assert aria.error()["code"] == "stale_version"
    aria.send({"type": "ping"})
    aria.until(lambda m: m["type"] == "pong")
    assert aria.view["version"] == version and aria.match == second
    aria.send({"type": "choose", "token": created["token"], "version": version, "option": option, "match": second})
    aria.settle(lambda v: v["version"] > version or v["over"])
    hang_up(aria)


def test_a_vote_repeated_is_shown_to_the_voter_only_not_to_every_connection(server, http):
    """One seat holding many connections and repeating its rematch vote made the server send the room to
    every connection of the room each time (a hundred sockets from one address, ten votes a second each)."""
    created = create_room(http, game="dsfgs", name="Aria", seats=3, bots=[{"kind": "random"}], private=True,
                          options={"turn_timer": None, "window_timer": None})
    blake = join(http, created["room"], "Blake")
    aria, other = (Client(server.ws_url, created["room"], t) for t in (created["token"], blake["token"]))
    watchers = [Client(server.ws_url, created["room"]) for _ in range(3)]
    for client in (aria, other, *watchers):
        client.until(lambda m: m["type"] == "room")
    aria.send({"type": "start", "token": created["token"]})
    while not aria.view or not aria.view["over"]:
        for player in (aria, other):
            player.drain(0.02)
            if player.view and player.options:
                player.choose(player.options[0])
    first = aria.match
    aria.send({"type": "rematch", "token": created["token"]})
    for client in (aria, other, *watchers):
        client.until(lambda m: m["type"] == "room" and m["rematch"]["votes"] == [0])
    seen = [len(client.messages) for client in (other, *watchers)]
    for _ in range(20):
        aria.send({"type": "rematch", "token": created["token"]})
    aria.send({"type": "ping"})
    aria.until(lambda m: m["type"] == "pong")
    repeats = [m for m in aria.messages[-21:] if m["type"] == "room"]
    assert len(repeats) == 20 and all(m["rematch"]["votes"] == [0] for m in repeats)  # the voter is answered
    for client in (other, *watchers):
        client.drain(0.1)
    assert [len(client.messages) for client in (other, *watchers)] == seen  # nobody else is sent anything
    other.send({"type": "rematch", "token": blake["token"], "match": first})
    for client in (aria, other, *watchers):
        client.until(lambda m: m["type"] == "view" and m["match"] != first)
    for client in (aria, other, *watchers):
        hang_up(client)
