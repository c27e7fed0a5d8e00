"""The coach over real WebSockets: hints in practice rooms only, for the seat that decides,
rate-limited, one of its options; and the guided first game's room (docs/protocol.md)."""

from __future__ import annotations

import dataclasses

import pytest

from intrigue.protocol import message as read_message

from .support import FAST, Client, ServerThread, create_room, join

#: Bots wait a second before they move, so a test can ask while a bot is deciding;
#: a hint thinks for 250 ms; a seat may ask twice at once, then once a minute.
SETTINGS = dataclasses.replace(FAST, bot_delay=1.0, hint_milliseconds=250, hint_rate=1 / 60, hint_burst=2)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with ServerThread(tmp_path_factory.mktemp("hint") / "intrigue.db", SETTINGS) as running:
        yield running


@pytest.fixture
def http(server):
    with server.http() as client:
        yield client


def tutorial(server, http, name: str = "Zoe") -> Client:
    answer = http.post("/api/games/coup/tutorial", json={"name": name})
    assert answer.status_code == 201, answer.text
    joined = answer.json()
    client = Client(server.ws_url, joined["room"], joined["token"])
    client.settle(lambda v: bool(v["decision"] and v["decision"]["options"]))
    return client


def hint_answer(client: Client, timeout: float = 10) -> dict:
    """The next answer to a hint: a `hint`, or an `error` about one."""
    return client.until(lambda m: m["type"] == "hint" or (m["type"] == "error" and m.get("about") == "hint"), timeout)


def test_the_tutorial_room_is_a_started_private_practice_room_with_its_fixed_deal(server, http):
    zoe = tutorial(server, http)
    room = http.get(f"/api/rooms/{zoe.room}").json()
    assert room["private"] and room["status"] == "playing"
    assert [s["bot"] for s in room["seats"]] == [None, "tutorial", "tutorial"]
    assert room["options"]["turn_timer"] is None and room["options"]["window_timer"] is None
    # The tutorial's deal: Zoe moves first and holds a Duke and a Contessa.
    me = zoe.view["state"]["players"][0]
    assert sorted(slot["character"] for slot in me["influences"]) == ["Contessa", "Duke"]
    assert "Income" in zoe.options
    steps = http.get("/api/games/coup/tutorial").json()
    assert steps["game"] == "coup" and steps["steps"][0]["id"] == "welcome" and "seed" not in steps
    assert next(g for g in http.get("/api/games").json() if g["id"] == "coup")["tutorial"] is True
    zoe.close()


def test_a_hint_is_one_of_the_seats_options_with_a_reason(server, http):
    zoe = tutorial(server, http)
    zoe.send({"type": "hint", "token": zoe.token, "version": zoe.view["version"]})
    answer = hint_answer(zoe)
    assert answer["type"] == "hint", answer
    read_message(answer)  # it fits the published protocol
    assert answer["option"] in zoe.options
    assert answer["version"] == zoe.view["version"]
    reason = answer["reason"]
    assert reason["text"] and reason["key"] and isinstance(reason["args"], dict)
    # The option it names is one the player can click: choosing it is accepted.
    zoe.choose(answer["option"])
    zoe.settle(lambda v: v["version"] > answer["version"])
    zoe.close()


def test_no_hint_when_it_is_not_your_decision_nor_for_an_old_version(server, http):
    zoe = tutorial(server, http)
    start = zoe.view["version"]
    zoe.send({"type": "hint", "token": zoe.token, "version": start + 5})
    assert hint_answer(zoe)["code"] == "stale_version"
    zoe.choose("Income")
    zoe.settle(lambda v: v["version"] > start and zoe.options == [])  # Ada (a bot) thinks for a second
    zoe.send({"type": "hint", "token": zoe.token, "version": zoe.view["version"]})
    refused = hint_answer(zoe)
    assert refused["type"] == "error" and refused["code"] == "not_pending", refused
    assert "no choice to make" in refused["message"]
    zoe.close()


def test_a_hint_for_a_decision_that_closed_meanwhile_is_not_given(server, http):
    zoe = tutorial(server, http)
    zoe.send({"type": "hint", "token": zoe.token, "version": zoe.view["version"]})
    zoe.choose("Income")  # answered while the coach still thinks (250 ms)
    late = hint_answer(zoe)
    assert late["type"] == "error" and late["code"] == "stale_version", late
    assert "closed while the coach was thinking" in late["message"]
    zoe.close()


def test_hints_are_rate_limited_per_seat(server, http):
    zoe = tutorial(server, http)
    version = zoe.view["version"]
    zoe.send({"type": "hint", "token": zoe.token, "version": version})
    zoe.send({"type": "hint", "token": zoe.token, "version": version})  # while the first is being computed
    busy = hint_answer(zoe)
    assert busy["type"] == "error" and busy["code"] == "rate_limited" and "still thinking" in busy["message"]
    assert hint_answer(zoe)["type"] == "hint"
    zoe.send({"type": "hint", "token": zoe.token, "version": version})
    assert hint_answer(zoe)["type"] == "hint"  # the burst is two
    zoe.send({"type": "hint", "token": zoe.token, "version": version})
    limited = hint_answer(zoe)
    assert limited["type"] == "error" and limited["code"] == "rate_limited" and "too many hints" in limited["message"]
    # Choosing is not limited by it.
    zoe.choose("Income")
    zoe.settle(lambda v: v["version"] > version)
    zoe.close()


def test_no_hint_with_another_person_at_the_table(server, http):
    room = create_room(http, seats=3, bots=[{"kind": "heuristic"}], name="Aria")
    blake = join(http, room["room"], "Blake")
    assert http.post(f"/api/rooms/{room['room']}/start", json={"token": room["token"]}).status_code == 200
    aria = Client(server.ws_url, room["room"], room["token"])
    other = Client(server.ws_url, room["room"], blake["token"])
    aria.settle(lambda v: v["version"] == 0)
    other.settle(lambda v: v["version"] == 0)
    for person in (aria, other):
        person.send({"type": "hint", "token": person.token, "version": person.view["version"]})
        refused = hint_answer(person)
        assert refused["type"] == "error" and refused["code"] == "not_practice", refused
        assert refused["about"] == "hint"
    # Whoever is deciding can still choose: the refusal changed nothing.
    deciding = aria if aria.options else other if other.options else None
    if deciding is not None:
        deciding.choose(deciding.options[0])
        deciding.settle(lambda v: v["version"] >= 1)
    aria.close()
    other.close()


def test_spectators_and_malformed_hints_are_refused(server, http):
    zoe = tutorial(server, http)
    watcher = Client(server.ws_url, zoe.room)
    watcher.until(lambda m: m["type"] == "view")
    watcher.send({"type": "hint", "version": 0})
    assert watcher.error()["code"] == "bad_token"
    zoe.send({"type": "hint", "token": zoe.token, "version": "0"})
    assert zoe.error()["code"] == "bad_message"
    zoe.send({"type": "hint", "token": "not-a-seat", "version": 0})
    assert hint_answer(zoe)["code"] == "bad_token"
    zoe.close()
    watcher.close()


def test_a_practice_room_of_any_game_gets_hints_from_the_search_figures(tmp_path):
    roomy = dataclasses.replace(SETTINGS, hint_burst=5)
    with ServerThread(tmp_path / "any.db", roomy) as server, server.http() as http:
        _hints_in_dsfgs(server, http)


def _hints_in_dsfgs(server, http):
    room = create_room(http, game="dsfgs", seats=4, bots=[{"kind": "random"}] * 3, name="Ines")
    assert http.post(f"/api/rooms/{room['room']}/start", json={"token": room["token"]}).status_code == 200
    ines = Client(server.ws_url, room["room"], room["token"])
    answers, games = [], 1
    while len(answers) < 8:  # a decision that a bot closes while the coach thinks gets `stale_version`: ask at the next
        ines.settle(lambda v: bool(v["decision"] and v["decision"]["options"]) or v["over"], timeout=30)
        if ines.view["over"]:  # random bots can end a deal before Ines ever decides: she asks for a rematch
            assert games < 5, f"five deals ended before Ines got a hint: {answers}"
            ines.send({"type": "rematch", "token": ines.token})
            ines.settle(lambda v: not v["over"], timeout=30)
            games += 1
            continue
        offered = ines.options
        ines.send({"type": "hint", "token": ines.token, "version": ines.view["version"]})
        answers.append(hint_answer(ines))
        if answers[-1]["type"] == "hint":
            break
        assert answers[-1]["code"] == "stale_version", answers
        ines.settle(lambda v, n=ines.view["version"]: v["version"] > n or v["over"], timeout=30)
    answer = answers[-1]
    assert answer["type"] == "hint", answers
    assert answer["option"] in offered
    assert answer["reason"]["key"].startswith("coach.")  # DSFGS has no catalogue of its own
    ines.close()


def test_tutorial_route_refusals(http, monkeypatch):
    assert http.post("/api/games/nosuch/tutorial", json={"name": "Zoe"}).json()["error"]["code"] == "no_game"
    # Every installed game has a tutorial.json: Heist plays one that has none (a game just installed).
    from intrigue.games import tutorials

    real = tutorials.path
    monkeypatch.setattr(tutorials, "path", lambda game: None if game.id == "heist" else real(game))
    refused = http.post("/api/games/heist/tutorial", json={"name": "Zoe"})
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "no_tutorial"
    assert http.get("/api/games/heist/tutorial").json()["error"]["code"] == "no_tutorial"
    assert http.post("/api/games/coup/tutorial", json={"name": ""}).status_code == 422


def test_the_hint_latency_benchmark_runs():
    """`intrigue bench coach` (docs/performance.md), with small numbers."""
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "intrigue.cli", "bench", "coach", "--hints", "2", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout)
    assert figures["hints"] == 2 and figures["latency_ms"]["p50"] > 0
    assert not any(key.startswith("error:") for key in figures["reasons"]), figures["reasons"]
