"""``intrigue bench cluster`` with small numbers: it measures, and it checks every acknowledged move."""

from __future__ import annotations

import json
import subprocess
import sys


def test_bench_cluster_measures_throughput_and_a_failover(services_installed):
    done = subprocess.run([sys.executable, "-m", "intrigue.cli", "bench", "cluster", "--nodes", "1", "--matches", "2",
                           "--seconds", "1", "--failover", "4", "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout)
    (row,) = figures["throughput"]
    assert row["nodes"] == 1 and row["clients"] == 8 and row["moves_per_second"] > 0
    failover = figures["failover"]
    assert failover["recovered"] == 4 and failover["seconds_to_all"] is not None
    assert failover["acknowledged_moves"] >= 8
    assert failover["missing_in_log"] == failover["different_in_log"] == 0
    assert set(failover["holders_after"]) <= {"b", "c"}
