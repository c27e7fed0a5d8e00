"""`intrigue bench server` runs past the per-address quotas a load test from one address would hit."""

from __future__ import annotations

import json
import subprocess
import sys

from intrigue.server.settings import Settings


def test_bench_server_plays_more_matches_than_one_address_may_hold_by_default():
    matches = 30
    quotas = Settings()
    # every table is created, joined and connected from one address (127.0.0.1)
    assert matches > quotas.room_quota  # 30 rooms created, over 20 an hour
    assert matches * 3 > quotas.seats_per_address  # 90 joined seats, over 30
    assert matches * 4 > quotas.sockets_per_address  # 120 WebSockets, over 100
    run = subprocess.run([sys.executable, "-m", "intrigue.cli", "bench", "server", "--matches", str(matches),
                          "--seconds", "3", "--synchronous", "normal", "--client-processes", "2", "--json"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(run.stdout)
    assert figures["matches"] == matches and figures["clients"] == matches * 4
    assert figures["client_processes"] == 2 and figures["clients_cpu_percent"] > 0
    assert 0 <= figures["clients_lag_ms"]["p99"] <= figures["clients_lag_ms"]["max"]  # the load generator's own lateness
    assert figures["moves"] > 0, figures
    assert "quota" not in figures["errors"], figures["errors"]
    # only answers that lost a race: to a window another seat closed, or to a match another seat's move ended
    assert set(figures["errors"]) <= {"stale_version", "not_pending", "over"}, figures["errors"]
