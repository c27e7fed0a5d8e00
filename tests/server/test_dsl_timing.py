"""DSL timer phases and secret decisions over real WebSockets: the clock waits, survives a restart,
and a secret decision tells nobody who answered, nor when."""

from __future__ import annotations

import time

import httpx
import pytest

from intrigue import games

from .support import Client, ServerProcess, ServerThread, create_room, join

#: A tiny game: a discussion with a timer (ready early), then a secret choice only the spy makes.
CLOCKWORK = """
declaration:
  title: Clockwork
  min_players: 3
  max_players: 3
  player_states:
    name: {{type: string}}
    role: {{type: string, visibility: owner}}
    is_alive: {{type: boolean}}
  player_states_template:
    player_states:
      1: {{name: '', role: '', is_alive: true}}
  game_state: {{round: 1, plan: null}}
  public_state: [round]
  role_deal:
    roles:
      Spy: {{counts: {{3: 1}}}}
      Guest: {{rest: true}}
phases:
  0:
    name: Arrive
    completion_criteria: {{type: UI_displayed}}
    effects:
    - deal: roles
    next_phase: {{id: 1, name: Talk}}
  1:
    name: Talk
    completion_criteria:
      type: timer
      seconds: {talk}
      target_players: {{condition: player.is_alive == true}}
      options: [Ready]
    next_phase: {{id: 2, name: Plot}}
  2:
    name: Plot
    completion_criteria:
      type: player_action
      wait_for: single_player_choice
      secret: true
      target_players: {{condition: "player.role == 'Spy'"}}
      options: [Steal, Wait]
    effects:
    - most: answer
      where: player.role == 'Spy'
      into: game.plan
    next_phase: {{id: 3, name: Pause}}
  3:
    name: Pause
    completion_criteria: {{type: timer, seconds: {pause}}}
    next_phase: {{id: 4, name: End}}
  4:
    name: End
    completion_criteria: {{type: UI_displayed}}
    effects:
    - win: player.role == 'Spy'
    next_phase: null
"""


@pytest.fixture
def clockwork(tmp_path, monkeypatch):
    """Serve a game from a folder, as ``serve --games`` does; forgotten after the test."""
    monkeypatch.setattr(games, "_EXTRA", {})
    folder = tmp_path / "designs"
    folder.mkdir()
    (folder / "clockwork.yaml").write_text(CLOCKWORK.format(talk=30, pause=1))
    added, problems = games.add_folder(folder)
    assert added == ["clockwork"] and not problems
    with ServerThread(tmp_path / "clock.db") as server:
        yield server


def three(server, http, game: str = "clockwork"):
    """Aria, Blake and Cass seated at a private table of ``game``, started, and all at its Talk phase."""
    created = create_room(http, game=game, seats=3, private=True,
                          options={"turn_timer": None, "window_timer": None})
    tokens = [created["token"], join(http, created["room"], "Blake")["token"], join(http, created["room"], "Cass")["token"]]
    clients = [Client(server.ws_url, created["room"], token) for token in tokens]
    for client in clients:
        client.until(lambda m: m["type"] == "welcome")
    clients[0].send({"type": "start", "token": tokens[0]})
    for client in clients:
        client.settle(lambda v: v["phase"]["name"] == "Talk")
    return created["room"], clients


def test_a_timer_phase_waits_shows_its_clock_and_ends_early_when_all_are_ready(clockwork):
    with clockwork.http() as http:
        assert "clockwork" in [g["id"] for g in http.get("/api/games").json()]
        code, clients = three(clockwork, http)
        for client in clients:
            assert client.timer["kind"] == "phase" and client.timer["seconds"] == 30
            assert client.options == ["Ready"]
        time.sleep(0.5)
        clients[0].drain()
        assert clients[0].view["phase"]["name"] == "Talk"  # it waits: nothing happened by itself
        started = time.monotonic()
        for client in clients:
            client.choose("Ready")
        for client in clients:
            client.settle(lambda v: v["phase"]["name"] == "Plot")
        assert time.monotonic() - started < 5  # ended early, long before its 30 seconds


def test_a_secret_decision_tells_nobody_who_answered_and_a_short_timer_fires(clockwork):
    with clockwork.http() as http:
        code, clients = three(clockwork, http)
        for client in clients:
            client.choose("Ready")
        for client in clients:
            client.settle(lambda v: v["phase"]["name"] == "Plot")
        room = clockwork.app.state.lobby.rooms[code]
        spy = next(s for s, p in enumerate(room.match.players) if p["role"] == "Spy")
        watcher = Client(clockwork.ws_url, code)
        watcher.settle(lambda v: v["phase"]["name"] == "Plot")
        names = ["Aria", "Blake", "Cass"]
        for client in clients + [watcher]:
            assert client.view["waiting"] == names and client.view["decision"]["waiting"] == names
        assert clients[spy].options == ["Steal", "Wait"]
        guests = [c for s, c in enumerate(clients) if s != spy]
        assert all(c.options == ["Continue"] for c in guests)
        # the spy answers: nobody else receives anything
        for client in clients + [watcher]:
            client.drain()
        clients[spy].choose("Steal")
        clients[spy].settle(lambda v: v["waiting"] == [n for s, n in enumerate(names) if s != spy])
        for client in guests + [watcher]:
            before = len(client.messages)
            client.drain(0.3)
            assert len(client.messages) == before, client.messages[before:]
        for client in guests:
            client.choose("Continue")
        started = time.monotonic()
        for client in clients + [watcher]:
            client.settle(lambda v: v["phase"]["name"] == "Pause")
        assert watcher.timer["kind"] == "phase" and watcher.timer["seconds"] == 1
        watcher.settle(lambda v: v["over"], timeout=5)
        assert time.monotonic() - started > 0.7  # the one-second pause ran on the server's clock
        assert watcher.view["winners"] == [names[spy]]
        stored = clockwork.store.choices(room.match_id)
        assert stored[-1].seat == -1 and stored[-1].source == "timer"  # the clock's move is in the log


def test_a_timer_phase_survives_a_restart_from_the_time_it_opened(tmp_path, monkeypatch):
    monkeypatch.setattr(games, "_EXTRA", {})
    folder = tmp_path / "designs"
    folder.mkdir()
    (folder / "clockwork.yaml").write_text(CLOCKWORK.format(talk=60, pause=1))
    server = ServerProcess(tmp_path / "restart.db", games=folder).start()
    try:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            code, clients = three(server, http)
            tokens = [c.token for c in clients]
        waited = 3.0
        time.sleep(waited)
        server.kill()
        server = ServerProcess(tmp_path / "restart.db", server.port, games=folder).start()
        again = Client(server.ws_url, code, tokens[1])
        again.settle(lambda v: v["phase"]["name"] == "Talk")
        timer = again.timer
        assert timer["kind"] == "phase" and timer["seconds"] == 60
        assert timer["seconds_left"] <= 60 - waited and timer["seconds_left"] > 30
    finally:
        server.stop()


#: A discussion whose clock (``clock: round``) a vote stops: back from the vote, it runs on.
STOPWATCH = """
declaration:
  title: Stopwatch
  min_players: 3
  max_players: 3
  player_states:
    name: {{type: string}}
    is_alive: {{type: boolean}}
  player_states_template:
    player_states:
      1: {{name: '', is_alive: true}}
  game_state: {{round: 1}}
  public_state: [round]
phases:
  0:
    name: Arrive
    completion_criteria: {{type: UI_displayed}}
    next_phase: {{id: 1, name: Talk}}
  1:
    name: Talk
    completion_criteria:
      type: timer
      seconds: {talk}
      clock: round
      target_players: {{condition: player.is_alive == true}}
      options: [Stop the clock]
      ends_early: any
    next_phase:
      A vote: {{id: 2, name: Vote, when: choice != null}}
      Time is up: {{id: 3, name: End}}
  2:
    name: Vote
    completion_criteria:
      type: player_action
      wait_for: all_players_action
      target_players: {{condition: player.is_alive == true}}
      options: [Agree, Disagree]
    next_phase: {{id: 1, name: Talk}}
  3:
    name: End
    completion_criteria: {{type: UI_displayed}}
    effects:
    - win: player.id == 1
    next_phase: null
"""


def stopwatch_room(server, http):
    return three(server, http, game="stopwatch")


def stop_and_resume(clients, voting: float) -> None:
    clients[1].choose("Stop the clock")
    for client in clients:
        client.settle(lambda v: v["phase"]["name"] == "Vote")
    time.sleep(voting)
    for client in clients:
        client.choose("Disagree")
    for client in clients:
        client.settle(lambda v: v["phase"]["name"] == "Talk")


def test_a_shared_clock_stops_for_a_vote_and_runs_on_with_the_time_it_had_left(tmp_path, monkeypatch):
    monkeypatch.setattr(games, "_EXTRA", {})
    folder = tmp_path / "designs"
    folder.mkdir()
    (folder / "stopwatch.yaml").write_text(STOPWATCH.format(talk=6))
    assert games.add_folder(folder) == (["stopwatch"], [])
    with ServerThread(tmp_path / "watch.db") as server, server.http() as http:
        code, clients = stopwatch_room(server, http)
        talked = time.monotonic()
        time.sleep(2.0)
        stop_and_resume(clients, voting=1.5)  # the 1.5 s of the vote do not count
        timer = clients[0].timer
        assert timer["kind"] == "phase" and timer["seconds"] == 6
        assert 6 - 2.0 - 1.0 < timer["seconds_left"] <= 6 - 2.0, timer
        clients[0].settle(lambda v: v["over"], timeout=8)
        ran = time.monotonic() - talked
        assert 6 + 1.5 - 0.5 < ran < 6 + 1.5 + 2.0, ran  # the clock's six seconds, plus the vote
        stored = server.store.choices(server.app.state.lobby.rooms[code].match_id)
        assert stored[-1].seat == -1 and stored[-1].source == "timer"  # time up is a move in the log


def test_a_shared_clock_survives_a_restart_with_the_time_spent_before_a_vote(tmp_path, monkeypatch):
    monkeypatch.setattr(games, "_EXTRA", {})
    folder = tmp_path / "designs"
    folder.mkdir()
    (folder / "stopwatch.yaml").write_text(STOPWATCH.format(talk=60))
    server = ServerProcess(tmp_path / "restart.db", games=folder).start()
    try:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            code, clients = stopwatch_room(server, http)
            tokens = [c.token for c in clients]
            time.sleep(3.0)
            stop_and_resume(clients, voting=3.0)
        time.sleep(1.0)
        server.kill()
        server = ServerProcess(tmp_path / "restart.db", server.port, games=folder).start()
        again = Client(server.ws_url, code, tokens[1])
        again.settle(lambda v: v["phase"]["name"] == "Talk")
        timer = again.timer
        assert timer["kind"] == "phase" and timer["seconds"] == 60
        assert 60 - 3.0 - 1.0 - 15 < timer["seconds_left"] <= 60 - 3.0 - 1.0, timer  # not the vote's 3 s
    finally:
        server.stop()


def test_a_timer_phase_promises_no_default_its_clock_does_not_play(tmp_path, monkeypatch):
    """docs/protocol.md: a view's `timer.default` "is what the timer will choose for this seat" (the browser
    says "If time runs out: Ready"). A timer phase's clock chooses nothing for a seat: when it runs out the
    clock's own move is played. Before, each seat that could end the phase early was promised its first
    option (Spyfall's Questions: "If time runs out: Ada", an accusation the clock never makes)."""
    monkeypatch.setattr(games, "_EXTRA", {})
    folder = tmp_path / "designs"
    folder.mkdir()
    (folder / "hourglass.yaml").write_text(CLOCKWORK.format(talk=1, pause=1))  # (a game id of its own: a
    # game's rules are cached by id, and the other tests serve a clockwork of 30 seconds)
    assert games.add_folder(folder)[0] == ["hourglass"]
    with ServerThread(tmp_path / "clock.db") as server, server.http() as http:
        code, clients = three(server, http, "hourglass")
        for client in clients:
            assert client.timer["kind"] == "phase" and client.timer["seconds"] == 1 and client.options == ["Ready"]
            assert "default" not in client.timer, client.timer
        for client in clients:
            client.settle(lambda v: v["phase"]["name"] == "Plot", timeout=10)
        room = server.app.state.lobby.rooms[code]
        stored = server.store.choices(room.match_id)
        assert [(c.seat, c.source) for c in stored] == [(-1, "timer")]  # nobody was made Ready
