"""Chat lines and the seats they name, written from docs/protocol.md: a `chat` carries the speaker's `seat`
(the room page colours a line by it), and "empty seats are removed from the table and the seats renumbered"
when the match starts. The recent chat a `hello` brings must name the seats as they are then."""

from __future__ import annotations

from dataclasses import replace

from intrigue.store import CHAT_KEPT

from ..security.table import hang_up
from .support import FAST, Client, ServerThread, create_room, join


def test_the_recent_chat_names_each_speaker_by_their_seat_after_the_start(server, http):
    created = create_room(http, seats=4, bots=[{"kind": "random"}], private=True)
    code = created["room"]
    blake = join(http, code, "Blake")
    cass = join(http, code, "Cass")
    for joined, text in ((blake, "Blake was here"), (cass, "Cass before the start")):
        client = Client(server.ws_url, code, joined["token"])
        client.until(lambda m: m["type"] == "room")
        client.send({"type": "chat", "token": joined["token"], "text": text})
        client.until(lambda m: m["type"] == "chat" and m["text"] == text)
        hang_up(client)
    assert http.post(f"/api/rooms/{code}/leave", json={"token": blake["token"]}).status_code == 200
    assert http.post(f"/api/rooms/{code}/start", json={"token": created["token"]}).status_code == 200
    watcher = Client(server.ws_url, code)
    view = watcher.until(lambda m: m["type"] == "view")["view"]
    assert view["players"] == ["Aria", "Cass", "Ada"]  # Blake's empty seat 1 is gone: Cass is seat 1, Ada 2
    lines = {m["text"]: m["seat"] for m in watcher.messages if m["type"] == "chat"}
    # Before the fix: Cass's line said seat 2 (Ada's now: the page coloured it as the bot's) and Blake's
    # seat 1 (Cass's now).
    assert lines == {"Cass before the start": 1, "Blake was here": None}
    hang_up(watcher)


def test_every_welcome_is_followed_by_the_recent_chat_also_at_the_start_renumbering(server, http):
    """A client starts its chat afresh on a `welcome` (the room page empties its list: the recent chat
    follows). The new `welcome` of a connection whose seat the start renumbered came alone: Cass's chat
    emptied when the match started."""
    created = create_room(http, seats=4, bots=[{"kind": "random"}], private=True)
    code = created["room"]
    blake = join(http, code, "Blake")
    cass = join(http, code, "Cass")
    client = Client(server.ws_url, code, cass["token"])
    client.until(lambda m: m["type"] == "room")
    client.send({"type": "chat", "token": cass["token"], "text": "ready when you are"})
    client.until(lambda m: m["type"] == "chat")
    assert http.post(f"/api/rooms/{code}/leave", json={"token": blake["token"]}).status_code == 200
    seen = len(client.messages)
    assert http.post(f"/api/rooms/{code}/start", json={"token": created["token"]}).status_code == 200
    client.until(lambda m: m["type"] == "view")
    after = client.messages[seen:]
    after = after[[m["type"] for m in after].index("welcome"):]  # (after the room message of Blake's leaving)
    assert [m["type"] for m in after][:3] == ["welcome", "chat", "room"]
    assert after[0]["seat"] == 1 and after[1] == {**after[1], "text": "ready when you are", "seat": 1}
    hang_up(client)


def test_a_seat_that_leaves_is_told_its_connections_watch_now(server, http):
    """"The connections of that seat become spectators": they are told so by a `welcome` (as a connection
    whose seat the start renumbered is), with what follows every welcome, and during a match the
    spectator's view. Before, they were told nothing: a second tab went on believing it held the seat
    (before the start, the seat Dana took next)."""
    created = create_room(http, seats=3, bots=[{"kind": "random"}], private=True,
                          options={"turn_timer": None, "window_timer": None})
    code = created["room"]
    blake = join(http, code, "Blake")
    tab = Client(server.ws_url, code, blake["token"])
    tab.until(lambda m: m["type"] == "room")
    assert http.post(f"/api/rooms/{code}/leave", json={"token": blake["token"]}).status_code == 200
    welcome = tab.until(lambda m: m["type"] == "welcome")
    assert welcome == {"type": "welcome", "room": code, "seat": None, "name": None, "spectator": True}
    assert tab.until(lambda m: m["type"] == "room")["seats"][1]["name"] is None
    # During a match: the seat stays at the table (left), its tab watches from the next message on.
    blake = join(http, code, "Blake")
    tab = Client(server.ws_url, code, blake["token"], log_deltas=True)
    tab.until(lambda m: m["type"] == "room")
    assert http.post(f"/api/rooms/{code}/start", json={"token": created["token"]}).status_code == 200
    assert tab.until(lambda m: m["type"] == "view")["view"]["seat"] == 1
    seen = len(tab.messages)
    assert http.post(f"/api/rooms/{code}/leave", json={"token": blake["token"]}).status_code == 200
    assert tab.until(lambda m: m["type"] == "welcome")["spectator"] is True
    told = len(tab.messages)
    message = tab.until(lambda m: m["type"] == "view")
    view = message["view"]
    assert view["seat"] is None and view["you"] is None
    assert message["log_after"] is None  # the first view after a welcome has the whole log, as after a hello
    tab.drain(0.2)
    assert all(m["view"]["seat"] is None for m in tab.messages[told:] if m["type"] == "view")
    assert sum(m["type"] == "welcome" for m in tab.messages[seen:]) == 1
    hang_up(tab)


def test_a_newcomer_is_not_handed_the_chat_of_one_who_left_under_the_same_name(server, http):
    """docs/protocol.md: "a line whose speaker left the table before the start is `"seat": null`". The
    recent chat names each line's seat by its writer's name: when Blake left and someone else joined as
    "Blake" (into the very seat Blake had freed), Blake's words were shown as said by the newcomer's seat."""
    created = create_room(http, seats=4, private=True)
    code = created["room"]
    blake = join(http, code, "Blake")
    client = Client(server.ws_url, code, blake["token"])
    client.until(lambda m: m["type"] == "room")
    client.send({"type": "chat", "token": blake["token"], "text": "I am Blake: trust me, I hold the Duke"})
    said = client.until(lambda m: m["type"] == "chat")
    assert said["seat"] == 1
    hang_up(client)
    assert http.post(f"/api/rooms/{code}/leave", json={"token": blake["token"]}).status_code == 200
    newcomer = join(http, code, "Blake")
    assert newcomer["seat"] == 1  # the seat Blake freed
    seats = http.get(f"/api/rooms/{code}").json()["seats"]
    assert seats[1]["name"] != "Blake" and seats[1]["name"].startswith("Blake")  # "Blake 2"
    watcher = Client(server.ws_url, code)
    watcher.until(lambda m: m["type"] == "room")
    lines = [m for m in watcher.messages if m["type"] == "chat"]
    assert [(m["from"], m["seat"]) for m in lines] == [("Blake", None)]  # before the fix: ("Blake", 1)
    # A look-alike of the name that left is no way around it.
    lookalike = join(http, code, "BIake")
    assert http.get(f"/api/rooms/{code}").json()["seats"][lookalike["seat"]]["name"] == "BIake 3"  # ("Blake 2" sits)
    hang_up(watcher)


def test_a_room_keeps_a_bounded_chat_however_long_a_seat_talks(tmp_path):
    """docs/security.md: chat was stored without a bound (every line of every room kept for good: a seat
    writing a line every 2 s grew the store by about 15 MB a day). Now a room keeps its newest
    ``CHAT_KEPT`` lines; another room's are untouched, and a hello still replays the newest 50."""
    settings = replace(FAST, chat_rate=1000, chat_burst=1000, message_rate=1000, message_burst=1000)
    with ServerThread(tmp_path / "chat.db", settings) as server, server.http() as http:
        rooms = []
        for lines in (CHAT_KEPT + 60, 3):
            created = create_room(http, seats=2, private=True)
            talker = Client(server.ws_url, created["room"], created["token"])
            talker.until(lambda m: m["type"] == "room")
            for n in range(lines):
                talker.send({"type": "chat", "token": created["token"], "text": f"line {n}"})
            talker.until(lambda m, last=f"line {lines - 1}": m["type"] == "chat" and m["text"] == last)
            hang_up(talker)
            rooms.append((created["room"], lines))
        (long, said), (short, _) = rooms
        kept = [line.text for line in server.store.recent_chat(long, 10**9)]
        assert kept == [f"line {n}" for n in range(said - CHAT_KEPT, said)]
        assert [line.text for line in server.store.recent_chat(short, 10**9)] == ["line 0", "line 1", "line 2"]
        watcher = Client(server.ws_url, long)
        watcher.until(lambda m: m["type"] == "room")
        replayed = [m["text"] for m in watcher.messages if m["type"] == "chat"]
        assert replayed == [f"line {n}" for n in range(said - 50, said)]
        hang_up(watcher)
