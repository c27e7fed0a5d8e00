"""`intrigue bench server` runs past the per-address quotas a load test from one address would hit."""

from __future__ import annotations

import json
import subprocess
import sys

from intrigue.server.settings import Settings


def test_bench_server_plays_more_matches_than_one_address_may_join_by_default():
    matches = 12
    # 12 four-seat tables joined from one address: 36 joined seats, over the default quota of 30
    assert matches * 3 > Settings().seats_per_address
    run = subprocess.run([sys.executable, "-m", "intrigue.cli", "bench", "server", "--matches", str(matches),
                          "--seconds", "3", "--synchronous", "normal", "--json"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(run.stdout)
    assert figures["matches"] == matches and figures["clients"] == matches * 4
    assert figures["moves"] > 0, figures
    assert "quota" not in figures["errors"], figures["errors"]
    assert set(figures["errors"]) <= {"stale_version"}, figures["errors"]  # a Pass landing after a window closed
