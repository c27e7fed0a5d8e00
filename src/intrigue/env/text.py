"""A seat's observation as plain text: what a person (or a language model) at that seat knows.

Built from ``observe(match, seat)`` only, so it can never show more than the
browser shows that seat.
"""

from __future__ import annotations

import json
from typing import Any

#: How many recent log lines the text keeps.
LOG_LINES = 12


def render(view: dict[str, Any], actions: dict[int, str] | None = None) -> str:
    """The view as text; ``actions`` (``{id: option}``) numbers the options by action id."""
    you = view.get("you")
    lines = [f"{view['title']} — " + (f"you are {you}" if you else "spectator")
             + f". Players: {', '.join(view['players'])}."]
    lines.append(f"Phase: {view['phase']['name']}.")
    if view.get("over"):
        winners = ", ".join(view.get("winners") or []) or "nobody"
        lines.append(f"The game is over. Winners: {winners}.")
    state = view.get("state") or {}
    if state:
        lines.append("State:")
        for key, value in state.items():
            if key == "players" and isinstance(value, list):
                for row in value:
                    lines.append("  " + _compact(row))
            else:
                lines.append(f"  {key}: {_compact(value)}")
    log = view.get("log") or []
    if log:
        lines.append("Recent log:")
        lines += [f"  {entry['text']}" for entry in log[-LOG_LINES:]]
    decision = view.get("decision")
    if decision and decision.get("options"):
        lines.append("Your options:")
        numbered = actions if actions is not None else dict(enumerate(decision["options"], 1))
        lines += [f"  {number}: {option}" for number, option in numbered.items()]
    elif view.get("waiting"):
        lines.append(f"Waiting for: {', '.join(view['waiting'])}.")
    return "\n".join(lines)


def _compact(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{key}: {_compact(item)}" for key, item in value.items()
                         if item is not None and item != [] and item != "")
    if isinstance(value, list):
        return "[" + ", ".join(_compact(item) for item in value) + "]"
    if isinstance(value, str):
        return value
    return json.dumps(value)
