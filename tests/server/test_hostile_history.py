"""The history routes seen by an outsider who has read docs/protocol.md: "A private room is not listed in
`GET /api/rooms`", and `GET /api/matches` lists every match with its room. A private room's code must not
come out of the history list either, or anyone can watch the tables the lobby does not show."""

from __future__ import annotations

from .support import Client, create_room


def test_the_history_list_does_not_hand_out_a_private_rooms_code(server, http):
    private = create_room(http, name="Prisca", seats=2, bots=[{"kind": "random"}], private=True)
    public = create_room(http, name="Blake", seats=2, bots=[{"kind": "random"}])
    for room in (private, public):
        assert http.post(f"/api/rooms/{room['room']}/start", json={"token": room["token"]}).status_code == 200
    tutorial = http.post("/api/games/coup/tutorial", json={"name": "Zoe"}).json()

    playing = http.get("/api/matches", params={"status": "playing", "limit": 500})
    assert playing.status_code == 200
    rooms = {m["players"][0]: m["room"] for m in playing.json()}
    # Before the fix: the private room's and the tutorial's codes, for anyone to say hello to and watch.
    assert rooms["Prisca"] is None and rooms["Zoe"] is None and rooms["Blake"] == public["room"]
    for code in (private["room"], tutorial["room"]):
        assert code not in playing.text
    assert private["room"] not in http.get("/api/rooms").text

    # Played to its end (the seat left: the server plays its defaults), the match is still listed without it.
    watcher = Client(server.ws_url, private["room"])
    watcher.until(lambda m: m["type"] == "view")
    assert http.post(f"/api/rooms/{private['room']}/leave", json={"token": private["token"]}).status_code == 200
    watcher.settle(lambda v: v["over"], timeout=30)
    watcher.close()
    finished = http.get("/api/matches", params={"status": "finished", "limit": 500}).json()
    assert [m["room"] for m in finished if m["players"][0] == "Prisca"] == [None]
