"""The time the server records with every move and message."""

from __future__ import annotations

import re
import time
from datetime import datetime, timezone

from intrigue.server.settings import now_iso


def test_the_recorded_time_is_utc_to_the_microsecond_as_datetime_writes_it():
    """now_iso formats the date and time of day once a second: its text is still datetime's."""
    for _ in range(3):
        before = datetime.now(timezone.utc)
        stamp = now_iso()
        after = datetime.now(timezone.utc)
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", stamp), stamp
        read = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
        assert before.replace(microsecond=0) <= read <= after
        assert abs((read - before).total_seconds()) < 0.01
        time.sleep(0.4)
