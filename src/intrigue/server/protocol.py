"""The server's side of the wire: reading frames, cleaning text, encoding.

Everything a client sends passes :func:`parse` before any room sees it, so a room
only ever handles well-formed commands: the frame checks are here, the fields are
checked by the message models of :mod:`intrigue.protocol` (defined once, shared
with the client library and published as JSON Schema). Every refusal is a
:class:`Refusal` with a stable ``code`` (listed in docs/protocol.md) and a message
saying what was wrong.
"""

from __future__ import annotations

import json
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from ..protocol import COMMANDS, ProtocolError, command

#: Largest client message (bytes of UTF-8); larger ones are refused unread.
MAX_MESSAGE = 64 * 1024
#: Deepest nesting of objects/arrays accepted in a message (a command is one flat object).
MAX_DEPTH = 2
MAX_NAME = 24
MAX_CHAT = 300

__all__ = ["COMMANDS", "MAX_CHAT", "MAX_DEPTH", "MAX_MESSAGE", "MAX_NAME", "Bucket", "Refusal", "clean_chat",
           "clean_line", "clean_name", "encode", "parse"]


class Refusal(Exception):
    """A refused command or request. Nothing changed."""

    def __init__(self, code: str, message: str, status: int = 400):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def message_json(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message}


def parse(raw: str | bytes | None) -> dict[str, Any]:
    """Turn one WebSocket frame into a checked command, or raise :class:`Refusal`."""
    if raw is None or isinstance(raw, (bytes, bytearray)):
        raise Refusal("binary", "binary frames are not accepted: send JSON text")
    if len(raw) > MAX_MESSAGE or len(raw.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise Refusal("too_large", f"message is larger than {MAX_MESSAGE // 1024} KiB")
    try:
        message = json.loads(raw)
    except RecursionError:
        raise Refusal("bad_json", "message is nested too deeply") from None
    except ValueError as exc:
        raise Refusal("bad_json", f"message is not valid JSON ({exc.msg} at position {exc.pos})") from None
    if not isinstance(message, dict):
        raise Refusal("bad_message", "a message must be a JSON object with a 'type'")
    if _depth(message) > MAX_DEPTH:
        raise Refusal("bad_message", "message is nested too deeply: a command is one flat object")
    try:
        return command(message).model_dump()
    except ProtocolError as refused:
        raise Refusal(refused.code, refused.message, 403 if refused.code == "bad_token" else 400) from None


def _depth(value: Any, level: int = 1) -> int:
    if isinstance(value, dict):
        return max([level] + [_depth(v, level + 1) for v in value.values()])
    if isinstance(value, list):
        return max([level] + [_depth(v, level + 1) for v in value])
    return level - 1


def clean_line(text: str, limit: int) -> str:
    """One line of display text: control and format characters removed, spaces collapsed, cut to
    ``limit``, no space at either end (not even one left by the cut: names end up in option strings)."""
    kept = "".join(" " if ch in "\t\r\n" else ch for ch in text
                   if ch in "\t\r\n" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    return " ".join(kept.split())[:limit].rstrip()


def clean_name(name: str) -> str:
    cleaned = clean_line(name, MAX_NAME)
    if not cleaned:
        raise Refusal("bad_message", "a name needs at least one visible character")
    return cleaned


def clean_chat(text: str) -> str:
    if len(text) > MAX_CHAT:
        raise Refusal("bad_message", f"chat messages are at most {MAX_CHAT} characters (got {len(text)})")
    cleaned = clean_line(text, MAX_CHAT)
    if not cleaned:
        raise Refusal("bad_message", "an empty chat message")
    return cleaned


def encode(message: dict[str, Any]) -> str:
    """The exact text sent on the wire (one place, so tests can check what is sent).

    ASCII-escaped, so even a lone surrogate a client smuggled into an option
    string is sent back as valid JSON and valid UTF-8.
    """
    return json.dumps(message, ensure_ascii=True, separators=(",", ":"))


@dataclass
class Bucket:
    """A token bucket: ``rate`` per second, up to ``burst`` at once."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = 0.0

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.tokens < 0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
