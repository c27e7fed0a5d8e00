"""Chat lines and the seats they name, written from docs/protocol.md: a `chat` carries the speaker's `seat`
(the room page colours a line by it), and "empty seats are removed from the table and the seats renumbered"
when the match starts. The recent chat a `hello` brings must name the seats as they are then."""

from __future__ import annotations

from ..security.table import hang_up
from .support import Client, create_room, join


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
