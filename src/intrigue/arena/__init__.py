"""The rated arena: agents of any kind over seeded deals with seats rotated (``intrigue arena``).

See :mod:`.run` for the schedule and the ratings, :mod:`.behaviour` for what is
measured against the hidden truth, :mod:`.host` for matches with remote agents.
"""

from .run import run

__all__ = ["run"]
