"""`make soak` works: a few seconds of it, with at least one kill, pass every check (the real run is ten minutes)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_make_soak_runs_briefly_and_every_check_passes():
    make = shutil.which("make")
    assert make, "make is needed to run the project's commands (make run, make test, make soak)"
    venv = Path(sys.prefix)
    # this interpreter's environment is the one to use: `-o` keeps make from rebuilding it
    run = subprocess.run([make, "-s", "-o", str(venv / "bin" / "intrigue"), "soak", f"VENV={venv}",
                          "SOAK_SECONDS=4", "SOAK_ROOMS=4"], cwd=ROOT, capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHON": sys.executable})
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    figures = json.loads(run.stdout[run.stdout.index("{"):])
    assert figures["kills"] >= 1 and figures["problems"] == []
    assert figures["acknowledged_moves_verified"] > 0
    assert "soak PASS" in run.stderr
