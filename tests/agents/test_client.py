"""intrigue.client against a real server: join by invite link, views, choices, chat, reconnection; intrigue agent."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys

import pytest

from intrigue.bots import make
from intrigue.client import Client, ClientError, create, join, parse_invite, play_seat

from tests.server.support import Client as SyncClient
from tests.server.support import create_room

from ..conftest import ROOT


def test_invite_links_are_read_and_bad_ones_refused():
    invite = parse_invite("http://127.0.0.1:8000/room/k7qx")
    assert (invite.base, invite.room, invite.ws) == ("http://127.0.0.1:8000", "K7QX", "ws://127.0.0.1:8000/ws")
    assert parse_invite("https://example.org/room/K7QX/").ws == "wss://example.org/ws"
    for bad in ("K7QX", "http://host/rooms/K7QX", "ftp://host/room/K7QX", "http:///room/K7QX"):
        with pytest.raises(ValueError, match="invite link"):
            parse_invite(bad)


def test_join_play_chat_and_reconnect_with_the_token(server):
    async def scenario():
        host = await create(server.url, "coup", "Aria", 2)
        guest = await join(host.invite.link, "Blake")
        assert guest.seat == 1
        aria, blake = Client(host.invite, host.token), Client(guest.invite, guest.token)
        await aria.connect()
        welcome = await blake.connect()
        assert welcome["seat"] == 1 and welcome["name"] == "Blake" and not welcome["spectator"]
        await aria.start()
        await aria.until(lambda m: m["type"] == "view")
        await blake.until(lambda m: m["type"] == "view")
        actor = aria if aria.options else blake
        assert "Income" in actor.options
        await actor.choose("Income")
        await actor.until(lambda m: m["type"] == "view" and m["view"]["version"] == 1)
        await blake.say("I have the Duke, honestly.")
        heard = await aria.until(lambda m: m["type"] == "chat")
        assert heard["from"] == "Blake" and heard["text"] == "I have the Duke, honestly."
        # the connection drops: the client reconnects with its token, same seat, full view
        blake.socket.transport.abort()  # the network drops the connection
        # reading notices the drop and reconnects (connect() reads the new welcome); the full view follows
        await blake.until(lambda m: blake.reconnects == 1 and m["type"] == "view")
        assert blake.reconnects == 1 and blake.seat == 1
        assert blake.view["version"] == 1 and blake.view["you"] == "Blake"
        refused = None
        await blake.choose("Tax", version=0)
        refused = await blake.until(lambda m: m["type"] == "error")
        assert refused["code"] in ("stale_version", "not_pending")
        for client in (aria, blake):
            await client.close()

    asyncio.run(scenario())


def test_the_client_asks_for_log_deltas_and_merges_them_into_the_whole_log(server):
    async def scenario():
        host = await create(server.url, "coup", "Aria", 2)
        guest = await join(host.invite.link, "Blake")
        aria, blake = Client(host.invite, host.token), Client(guest.invite, guest.token)
        plain = Client(guest.invite, guest.token, log_deltas=False)  # Blake's seat, every log whole
        for client in (aria, blake, plain):
            await client.connect()
        await aria.start()
        deltas = 0

        def counted(message):
            nonlocal deltas
            deltas += message.get("log_after") is not None
            return message["type"] == "view"

        for client in (aria, blake, plain):
            await client.until(counted)
        for _ in range(12):
            if aria.view["over"]:
                break
            actor = aria if aria.options else blake
            version = actor.view["version"]
            await actor.choose("Income" if "Income" in actor.options else actor.options[0])
            for client in (aria, blake, plain):
                await client.until(lambda m, v=version: counted(m) and m["view"]["version"] > v)
            assert blake.view == plain.view and blake.view["log"][-1]["version"] == version + 1
        assert deltas >= 20 and any(line.get("to") == "Blake" for line in blake.view["log"])
        for client in (aria, blake, plain):
            await client.close()

    asyncio.run(scenario())


def test_a_wrong_token_or_room_is_an_error_not_a_hang(server):
    async def scenario():
        host = await create(server.url, "coup", "Aria", 2)
        with pytest.raises(ClientError) as wrong:
            await Client(host.invite, "not-a-token", reconnect=False).connect()
        assert wrong.value.code == "bad_token"
        with pytest.raises(ClientError) as full:
            await join(host.invite.link, "Blake")
            await join(host.invite.link, "Casey")
        assert full.value.code == "room_full"
        spectator = Client(host.invite)
        await spectator.connect()
        with pytest.raises(ClientError, match="spectator"):
            await spectator.say("hello")
        await spectator.close()

    asyncio.run(scenario())


def test_your_own_bot_with_choose_alone_plays_a_seat(server):
    """docs/bots.md: a bot is an object with choose(view) -> option. play_seat called its talk() after every
    choice (and hear() on chat), so such a bot failed with an AttributeError at its first decision."""
    class Incomer:
        def choose(self, view):
            return "Income" if "Income" in view.options else view.options[-1]

    async def scenario():
        host = await create(server.url, "coup", "Aria", 2)
        guest = await join(host.invite.link, "Blake")
        aria, blake = Client(host.invite, host.token), Client(guest.invite, guest.token)
        await aria.connect()
        await blake.connect()
        await aria.start()
        await blake.say("I hold the Duke.")
        played = await asyncio.wait_for(asyncio.gather(play_seat(aria, Incomer()),
                                                       play_seat(blake, make("random", seed=2))), 120)
        await aria.close()
        await blake.close()
        return played

    (mine,), (theirs,) = asyncio.run(scenario())
    assert mine.choices > 0 and mine.winners == theirs.winners and mine.won != theirs.won


def test_bots_play_whole_matches_and_rematches_over_the_protocol(server):
    async def scenario():
        host = await create(server.url, "coup", "Aria", 3)
        tickets = [host, await join(host.invite.link, "Blake"), await join(host.invite.link, "Casey")]
        clients = [Client(t.invite, t.token) for t in tickets]
        for client in clients:
            await client.connect()
        await clients[0].start()
        players = [make("heuristic", seed=1), make("random", seed=2), make("ismcts:10", seed=3)]
        return await asyncio.wait_for(asyncio.gather(*(play_seat(c, p, games=2)
                                                       for c, p in zip(clients, players))), 120)

    outcomes = asyncio.run(scenario())
    for seat, played in enumerate(outcomes):
        assert [o.seat for o in played] == [seat, seat]
        assert len({o.match for o in played}) == 2  # the second match is the rematch
    for game in range(2):
        winners = {tuple(played[game].winners) for played in outcomes}
        assert len(winners) == 1 and len(next(iter(winners))) == 1  # everyone saw the same single winner
        assert sum(played[game].won for played in outcomes) == 1


@pytest.mark.parametrize("held", [False, True], ids=["joins", "token"])
def test_intrigue_agent_seats_a_bot_in_a_room_on_a_server(server, http, held):
    room = create_room(http, seats=2)
    invite = f"{server.url}/room/{room['room']}"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    how = ["--name", "Hal"]
    if held:  # a seat already held (docs/agents.md: --token)
        how = ["--token", http.post(f"/api/rooms/{room['room']}/join", json={"name": "Hal"}).json()["token"]]
    agent = subprocess.Popen([sys.executable, "-m", "intrigue.cli", "agent", invite, "--bot", "heuristic", *how],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        aria = SyncClient(server.ws_url, room["room"], room["token"])
        aria.until(lambda m: m["type"] == "room" and m["seats"][1]["name"] == "Hal" and m["seats"][1]["connected"],
                   timeout=20)
        aria.send({"type": "start", "token": room["token"]})
        aria.settle(lambda v: True)
        while not aria.view["over"]:
            if aria.options:
                aria.choose("Income" if "Income" in aria.options else
                            "Pass" if "Pass" in aria.options else aria.options[0])
            aria.recv(20)
        out, err = agent.communicate(timeout=30)
    finally:
        if agent.poll() is None:
            agent.kill()
    assert agent.returncode == 0, err
    won = aria.view["winners"] == ["Hal"]
    assert f"match {aria.match}: {'won' if won else 'lost'}" in out
    assert (f"joined room {room['room']} at seat 1 as 'Hal'" in err) != held


def test_intrigue_agent_explains_a_bad_link_or_bot():
    bad = subprocess.run([sys.executable, "-m", "intrigue.cli", "agent", "http://127.0.0.1:1/rooms/X", "--bot",
                          "random"], capture_output=True, text=True)
    assert bad.returncode == 2 and "not an invite link" in bad.stderr
    unknown = subprocess.run([sys.executable, "-m", "intrigue.cli", "agent", "http://127.0.0.1:1/room/ABCD",
                              "--bot", "wizard"], capture_output=True, text=True)
    assert unknown.returncode == 2 and "unknown bot 'wizard'" in unknown.stderr
    unreachable = subprocess.run([sys.executable, "-m", "intrigue.cli", "agent", "http://127.0.0.1:1/room/ABCD"],
                                 capture_output=True, text=True)
    assert unreachable.returncode == 1 and "unreachable" in unreachable.stderr


def test_intrigue_agent_plays_a_game_served_from_a_folder_given_the_folder(server, http, monkeypatch):
    """A designer's game (serve --games DIR): the agent needs --game-dir DIR, and says so without it."""
    from intrigue import games

    folder = ROOT / "docs" / "examples" / "games"
    monkeypatch.setitem(games._EXTRA, "skull", folder / "skull.yaml")  # what serve --games does on the server
    for given in ([], ["--game-dir", str(folder)]):
        room = create_room(http, game="skull", seats=3, bots=[{"kind": "random"}, {"kind": "random"}],
                           options={"turn_timer": None, "window_timer": None}, private=True)
        assert http.post(f"/api/rooms/{room['room']}/start", json={"token": room["token"]}).status_code == 200
        agent = subprocess.run([sys.executable, "-m", "intrigue.cli", "agent", f"{server.url}/room/{room['room']}",
                                "--token", room["token"], *given], capture_output=True, text=True, timeout=120)
        if not given:
            assert agent.returncode == 2
            assert "the room plays 'skull', which is not installed here" in agent.stderr
            assert "--game-dir DIR" in agent.stderr
        else:
            assert agent.returncode == 0, agent.stderr
            assert re.search(r"match \d+: (won|lost)", agent.stdout)


def test_intrigue_agent_takes_no_seat_in_a_waiting_room_whose_game_it_cannot_play(server, http, monkeypatch):
    """Without --game-dir the agent refuses a designer's game before joining: it used to take the seat, wait for
    the start, and only then stop, leaving its seat to the timers for the whole match."""
    from intrigue import games

    monkeypatch.setitem(games._EXTRA, "skull", ROOT / "docs" / "examples" / "games" / "skull.yaml")
    room = create_room(http, game="skull", seats=3)
    agent = subprocess.run([sys.executable, "-m", "intrigue.cli", "agent", f"{server.url}/room/{room['room']}"],
                           capture_output=True, text=True, timeout=30)
    assert agent.returncode == 2
    assert "the room plays 'skull', which is not installed here" in agent.stderr
    seats = http.get(f"/api/rooms/{room['room']}").json()["seats"]
    assert [seat["name"] for seat in seats][1:] == [None, None]
