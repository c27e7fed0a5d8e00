"""Backups: `intrigue backup` copies a database a live server is writing; `serve --restore` brings it back."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import threading
import time

import httpx

from intrigue.server.matches import rebuild
from intrigue.store import open_store

from .support import Client, ServerProcess, create_room


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "intrigue.cli", *args], capture_output=True, text=True, timeout=120)


def check_consistent(path) -> dict[str, int]:
    """What a backup must be: every room points at a stored match, no match is without its room,
    and every match replays from its log (a finished one to its stored result)."""
    store = open_store(str(path))
    try:
        rooms = {code: store.load_room(code) for code in store.room_codes()}
        matches = store.list_matches(limit=10_000)
        pointed = {room.match for room in rooms.values() if room.match is not None}
        assert pointed <= {m.id for m in matches}, "a room points at a match the backup does not hold"
        for record in matches:
            assert record.status in ("playing", "finished"), record
            if record.status == "playing":
                assert record.id in pointed, f"match {record.id} is playing but no room plays it"
            replayed = rebuild(record, store.choices(record.id))
            if record.status == "finished":
                assert replayed.over and replayed.winners == record.winners
        return {"rooms": len(rooms), "matches": len(matches),
                "finished": {m.id for m in matches if m.status == "finished"}}
    finally:
        store.close()


def test_a_backup_taken_while_a_server_plays_restores_and_every_match_replays(tmp_path):
    db, backup = tmp_path / "live.db", tmp_path / "copy.db"
    server = ServerProcess(db).start()
    stop = threading.Event()
    try:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            # bot tables the server plays by itself, over and over (each human leaves: their seat is played for them)
            for n in range(3):
                made = create_room(http, game="bang" if n == 0 else "coup", name=f"Gone{n}", seats=4,
                                   bots=[{"kind": "random"}] * 3, private=True)
                assert http.post(f"/api/rooms/{made['room']}/start", json={"token": made["token"]}).status_code == 200
                assert http.post(f"/api/rooms/{made['room']}/leave", json={"token": made["token"]}).status_code == 200
            # and a human table that keeps playing and rematching while the backup is taken
            table = create_room(http, name="Aria", seats=2, bots=[{"kind": "random"}], private=True,
                                options={"turn_timer": None, "window_timer": None})
            player = Client(server.ws_url, table["room"], table["token"])
            player.send({"type": "start", "token": table["token"]})

        def play() -> None:
            rng = random.Random(4)
            answered = None  # a player answers each view once (asking again would be flooding)
            while not stop.is_set():
                try:
                    player.recv(0.2)
                except TimeoutError:
                    pass
                except Exception:  # noqa: BLE001 - the server went away at the end of the test
                    return
                view = player.view
                if view is None or view is answered:
                    continue
                answered = view
                if view["over"]:
                    player.send({"type": "rematch", "token": table["token"]})
                elif player.options:
                    player.choose(rng.choice(player.options))

        worker = threading.Thread(target=play, daemon=True)
        worker.start()
        time.sleep(1.0)
        for _ in range(2):  # copies taken at different moments of play are all consistent
            made = cli("backup", str(db), str(backup))
            assert made.returncode == 0, made.stderr
            assert f"backed up {db} to {backup}" in made.stderr
            held = check_consistent(backup)
            time.sleep(0.3)
        assert held["finished"] and held["rooms"] == 4, held
        stop.set()
        worker.join(5)
        player.close()
        server.kill()
        later = check_consistent(db)
        assert later["matches"] >= held["matches"]

        # restore: the live file is renamed aside, the server comes back from the backup
        server = ServerProcess(db, server.port, args=["--restore", str(backup)]).start()
        output = db.with_suffix(".log").read_text()
        assert f"restored {db} from {backup}" in output and "kept the previous" in output
        aside = sorted(tmp_path.glob("live.db.before-restore-*"))
        assert aside and check_consistent(aside[0])["matches"] == later["matches"], "the replaced file was lost"
        with httpx.Client(base_url=server.url, trust_env=False, timeout=10) as http:
            finished = http.get("/api/matches", params={"status": "finished", "limit": 500}).json()
            assert {m["match"] for m in finished} >= held["finished"]
            for entry in finished:  # every finished match replays to its last step and exports
                answer = http.get(f"/api/matches/{entry['match']}/replay", params={"step": entry["moves"]})
                assert answer.status_code == 200 and answer.json()["view"]["over"], answer.text
        server.stop()
        for entry in finished[:3]:
            exported = cli("export", str(entry["match"]), "--db", str(db))
            assert exported.returncode == 0 and '"fingerprint"' in exported.stdout, exported.stderr
        assert check_consistent(db)["rooms"] == held["rooms"]
    finally:
        stop.set()
        server.stop()


def test_backup_and_restore_refuse_what_they_cannot_use_and_change_nothing(tmp_path):
    missing = cli("backup", str(tmp_path / "nope.db"), str(tmp_path / "copy.db"))
    assert missing.returncode == 2 and "nope.db does not exist" in missing.stderr
    assert not (tmp_path / "copy.db").exists()
    other = tmp_path / "other.db"
    connection = sqlite3.connect(other)
    connection.execute("CREATE TABLE invoices (id INTEGER)")
    connection.commit()
    connection.close()
    foreign = cli("backup", str(other), str(tmp_path / "copy.db"))
    assert foreign.returncode == 2 and "not an Intrigue database" in foreign.stderr
    store = open_store(str(tmp_path / "real.db"))
    store.close()
    itself = cli("backup", str(tmp_path / "real.db"), str(tmp_path / "real.db"))
    assert itself.returncode == 2 and "is the database itself" in itself.stderr
    garbage = tmp_path / "garbage.bak"
    garbage.write_bytes(b"not a database at all" * 100)
    before = (tmp_path / "real.db").read_bytes()
    restored = cli("serve", "--db", str(tmp_path / "real.db"), "--restore", str(garbage), "--port", "1")
    assert restored.returncode == 2 and "cannot restore" in restored.stderr
    assert (tmp_path / "real.db").read_bytes() == before, "a failed restore touched the database"
    assert not list(tmp_path.glob("real.db.before-restore-*"))
