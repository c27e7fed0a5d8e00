"""The browser client: static files (no build step) that the server serves.

``STATIC`` is mounted at ``/static``; ``index.html`` (lobby) answers ``/``,
``room.html`` answers ``/room/{code}``, ``history.html`` ``/history`` and
``replay.html`` ``/replay/{match}``. The client renders the UI-kit components of
an observation generically, so a new game needs no client code.
"""

from pathlib import Path

STATIC = Path(__file__).parent / "static"

PAGES = {
    "lobby": STATIC / "index.html",
    "room": STATIC / "room.html",
    "history": STATIC / "history.html",
    "replay": STATIC / "replay.html",
}
