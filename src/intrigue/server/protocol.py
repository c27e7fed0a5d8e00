"""The server's side of the wire: reading frames, cleaning text, encoding.

Everything a client sends passes :func:`parse` before any room sees it, so a room
only ever handles well-formed commands: the frame checks are here, the fields are
checked by the message models of :mod:`intrigue.protocol` (defined once, shared
with the client library and published as JSON Schema). Every refusal is a
:class:`Refusal` with a stable ``code`` (listed in docs/protocol.md) and a message
saying what was wrong.
"""

from __future__ import annotations

import codecs
import functools
import json
import math
import re
import secrets
import time
import unicodedata
import weakref
from dataclasses import dataclass
from json.encoder import encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any

from ..engine.observe import LOG_TAIL
from ..protocol import COMMANDS, ProtocolError, command

try:
    import orjson
except ImportError:  # pragma: no cover - a dependency; the standard library writes the same text
    orjson = None  # type: ignore[assignment]

#: Largest client message (bytes of UTF-8); larger ones are refused unread.
MAX_MESSAGE = 64 * 1024
#: Deepest nesting of objects/arrays accepted in a message (a command is one flat object).
MAX_DEPTH = 2
MAX_NAME = 24
MAX_CHAT = 300

__all__ = ["COMMANDS", "MAX_CHAT", "MAX_DEPTH", "MAX_MESSAGE", "MAX_NAME", "Bucket", "Deltas", "Fragments", "LOG_TAIL",
           "LogLines", "Prepared", "Refusal", "clean_chat", "clean_line", "clean_name", "continuation", "encode",
           "merge_views", "parse"]


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
        message = json.loads(raw, parse_constant=_not_a_number, parse_float=_finite)
    except RecursionError:
        raise Refusal("bad_json", "message is nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise Refusal("bad_json", f"message is not valid JSON ({exc.msg} at position {exc.pos})") from None
    except ValueError as exc:  # a number of more than 4,300 digits, NaN, Infinity, 1e999
        raise Refusal("bad_json", f"message is not valid JSON ({str(exc)[:100]})") from None
    if not isinstance(message, dict):
        raise Refusal("bad_message", "a message must be a JSON object with a 'type'")
    if not all(type(v) in _FLAT for v in message.values()) and _too_deep(message):
        raise Refusal("bad_message", "message is nested too deeply: a command is one flat object")
    try:
        return command(message).model_dump()
    except ProtocolError as refused:
        raise Refusal(refused.code, refused.message, 403 if refused.code == "bad_token" else 400) from None


def _not_a_number(constant: str) -> float:
    """``NaN``, ``Infinity`` and ``-Infinity``, which Python's parser reads but JSON (RFC 8259) has not:
    refused, so that no command carries a number no other JSON reader would take."""
    raise ValueError(f"{constant} is not a JSON number")


def _finite(text: str) -> float:
    """A JSON number with a fraction or exponent; one beyond a double's range (``1e999``) would be read
    as infinity, a value JSON cannot write back: refused like ``Infinity``."""
    number = float(text)
    if number in (math.inf, -math.inf):
        raise ValueError(f"{text[:40]} is beyond the range of a JSON number")
    return number


#: Values that nest nothing: an object of only these is one level deep (every command is).
_FLAT = frozenset({str, int, float, bool, type(None)})


def _too_deep(value: Any, level: int = 1) -> bool:
    """Whether ``value`` nests objects or arrays more than ``MAX_DEPTH`` levels (it stops looking there:
    a frame nested a few hundred levels, which the JSON parser still reads, must not exhaust the stack)."""
    if isinstance(value, dict):
        items: Any = value.values()
    elif isinstance(value, list):
        items = value
    else:
        return False
    return level > MAX_DEPTH or any(_too_deep(item, level + 1) for item in items)


#: Characters that draw nothing but are not format characters (Unicode's other default-ignorable code
#: points: the combining grapheme joiner, Hangul fillers, variation selectors, Khmer inherent vowels; the
#: musical null notehead, a blank glyph) and the blank braille pattern. Kept, ``Aria`` + U+034F was a second "Aria" at the table, and U+3164 a name of
#: nothing. The blank braille pattern reads as a space.
_INVISIBLE = re.compile("[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0"
                        "\U0001d159\U000e0100-\U000e01ef]")


def clean_line(text: str, limit: int) -> str:
    """One line of display text: control, format and invisible characters removed, spaces collapsed, in
    Unicode's composed form (NFC), cut to ``limit``, no space at either end (not even one left by the cut:
    names end up in option strings). Composed, ``José`` typed as ``e`` and a combining accent is the same
    name as ``José`` with ``é``: the two drew the same, and were two seats named "José"."""
    text = _INVISIBLE.sub("", text).replace("\u2800", " ")
    kept = "".join(" " if ch in "\t\r\n" else ch for ch in text
                   if ch in "\t\r\n" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    return unicodedata.normalize("NFC", " ".join(kept.split()))[:limit].rstrip()


def clean_name(name: str) -> str:
    """A display name: one line (see :func:`clean_line`) without commas, since a choice of several
    players is offered as their names joined by ", " (``Ann`` with ``Bob, Cy`` would read as ``Ann, Bob``
    with ``Cy``, and one of the two teams would not be offered at all)."""
    cleaned = clean_line(name.replace(",", " "), MAX_NAME)
    # Combining marks before the first letter sit on whatever comes before the name ("Steal \u0301" puts an
    # accent over the space); alone they draw no character: a name of "\u0301" was a player drawn as nothing.
    at = 0
    while at < len(cleaned) and (cleaned[at] == " " or unicodedata.category(cleaned[at]).startswith("M")):
        at += 1
    cleaned = cleaned[at:]
    if not cleaned:
        raise Refusal("bad_message", "a name needs at least one visible character")
    return cleaned


#: Cyrillic and Greek letters that draw like a Latin letter, as the Latin letter (each case on its own:
#: Cyrillic ``н`` draws unlike ``h`` though ``Н`` draws like ``H``). A hand-kept part of the idea of
#: Unicode's confusable skeletons (UTS #39): the common look-alikes of Latin letters in these two
#: scripts, not every confusable of Unicode (no small well-kept library on PyPI gives the skeletons:
#: confusable-homoglyphs keeps no prototypes, PyICU is a C++ build against the system's ICU).
LOOK_ALIKES = str.maketrans(
    # Cyrillic capitals, then small letters
    "АВЕЅІЈКМНОРСТХУҮѴӀԚԜ" "аеорсухѕіјһԁԛԝѵӏүѡ"
    # Greek capitals, then small letters
    "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧϹϺ" "αοιρνγϲϳ",
    "ABESIJKMHOPCTXYYVIQW" "aeopcyxsijhdqwvlyw"
    "ABEZHIKMNOPTYXCM" "aoipvycj")


def name_key(name: str) -> str:
    """What two names that draw alike have in common (a confusable skeleton in the spirit of UTS #39):
    compatibility-normalised (NFKC: full-width ``Ａria`` is ``Aria``), the Cyrillic and Greek look-alikes
    of Latin letters made Latin (:data:`LOOK_ALIKES`), case-folded. Two seats whose names have one key are
    one name at the table (``Аria`` with a Cyrillic ``А`` read "Aria": "Steal Aria" was offered twice)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).translate(LOOK_ALIKES).casefold())


#: Within Latin, what draws like another in the usual sans-serif faces, as UTS #39's skeletons read it:
#: capital ``I``, the digit ``1`` and ``|`` like small ``l``; the digit ``0`` like capital ``O``. Case
#: matters here (small ``i`` has its dot), so this is a second key beside :func:`name_key`'s.
_LATIN_LOOK_ALIKES = str.maketrans({"I": "l", "1": "l", "|": "l", "0": "O"})


def name_keys(name: str) -> frozenset[str]:
    """The keys two names that draw alike share one of: :func:`name_key` (case-folded), and the Latin
    skeleton with case kept (``AIice`` with a capital ``I`` is ``Alice``; ``rn`` draws like ``m``,
    ``vv`` like ``w``, ``VV`` like ``W``)."""
    latin = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).translate(LOOK_ALIKES))
    skeleton = latin.translate(_LATIN_LOOK_ALIKES).replace("rn", "m").replace("vv", "w").replace("VV", "W")
    return frozenset({"fold:" + name_key(name), "latin:" + skeleton})


def clean_chat(text: str) -> str:
    if len(text) > MAX_CHAT:
        raise Refusal("bad_message", f"chat messages are at most {MAX_CHAT} characters (got {len(text)})")
    cleaned = clean_line(text, MAX_CHAT)
    if not cleaned:
        raise Refusal("bad_message", "an empty chat message")
    return cleaned


#: ``json.dumps(..., ensure_ascii=True, separators=(",", ":"))`` builds this encoder on every call; one is enough.
_ENCODER = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"))
#: orjson hands the types the standard library refuses back to us (and so to it): the same error as before.
_ORJSON = (orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS
           if orjson is not None else 0)
#: Single-digit negative exponents: orjson writes 1e-7 where the standard library writes 1e-07.
_SHORT_EXPONENT = re.compile(rb"e-[1-9](?![0-9])")


def _e_minus(data: bytes) -> bool:
    """``b"e-" in data``, faster: a view has few hyphens, and a one-byte search is a ``memchr``
    (searching for the two bytes took longer than orjson's whole encoding of a view)."""
    at, looked = data.find(b"-"), 0
    while at != -1:
        if at and data[at - 1] == 0x65:  # "e"
            return True
        looked += 1
        if looked == 8:
            return b"e-" in data
        at = data.find(b"-", at + 1)
    return False


def encode(message: Any) -> str:
    """The exact text sent on the wire (one place, so tests can check what is sent).

    ASCII-escaped, so even a lone surrogate a client smuggled into an option
    string is sent back as valid JSON and valid UTF-8: the text of
    ``json.dumps(message, ensure_ascii=True, separators=(",", ":"))``.

    orjson writes it about ten times faster: its UTF-8 is escaped to ASCII as the
    standard library escapes it (DEL and every character past ASCII as ``\\uXXXX``,
    lowercase, astral ones as surrogate pairs). Where the two could differ, a float
    below 1e-4, and for anything orjson refuses (a lone surrogate, an int past 64
    bits, a key that is not a string), the standard library writes it. One
    difference is left, for values JSON has no words for: NaN and infinities are
    sent as ``null`` (the standard library writes ``NaN``, which no JSON parser reads).
    """
    if orjson is not None:
        try:
            data = orjson.dumps(message, option=_ORJSON)
        except TypeError:  # orjson.JSONEncodeError is one
            pass
        else:
            if b".0000" not in data and (not _e_minus(data) or not _SHORT_EXPONENT.search(data)):
                if not data.isascii():  # orjson writes UTF-8: escape what ensure_ascii escapes
                    data = _to_ascii(data)
                text = data.decode("ascii")
                return text.replace("\x7f", "\\u007f") if "\x7f" in text else text
    return _ENCODER.encode(message)


#: Every ASCII byte: deleting them from a text leaves its other characters.
_ASCII = bytes(range(128))
#: At most this many distinct characters past ASCII are replaced one by one (more: the codec's handler).
_FEW = 8


def _to_ascii(data: bytes) -> bytes:
    """orjson's UTF-8 with each character past ASCII written as ``json.dumps`` writes it. A view holds
    a few distinct ones (a dash, a middle dot), each replaced throughout in one pass (UTF-8 never
    matches inside another character): a third of the time of the codec's handler on a Coup view."""
    chars = set(data.translate(None, _ASCII).decode("utf-8"))
    if len(chars) > _FEW:
        return data.decode("utf-8").encode("ascii", "intrigue-json")
    for char in chars:
        data = data.replace(char.encode("utf-8"), _escaped(char))
    return data


@functools.lru_cache(maxsize=4096)
def _escaped(char: str) -> bytes:
    """How ``json.dumps(..., ensure_ascii=True)`` writes ``char`` inside a string (its own C escaper)."""
    return encode_basestring_ascii(char)[1:-1].encode("ascii")


def _escape(error: UnicodeError) -> tuple[str, int]:
    """The ``intrigue-json`` codec error handler: characters past ASCII as ``json.dumps`` writes them."""
    assert isinstance(error, UnicodeEncodeError)
    escaped = []
    for char in error.object[error.start:error.end]:
        code = ord(char)
        if code < 0x10000:
            escaped.append(f"\\u{code:04x}")
        else:
            code -= 0x10000
            escaped.append(f"\\u{0xd800 | (code >> 10):04x}\\u{0xdc00 | (code & 0x3ff):04x}")
    return "".join(escaped), error.end


codecs.register_error("intrigue-json", _escape)


class LogLines:
    """The wire text of a match's log lines, each encoded once.

    An observation carries the log's lines as the engine's own ``Event.entry`` dicts:
    built once, shared by every observation and never changed. Most of a view's
    bytes are those lines, the same for every seat that may read them, so each is
    encoded once for the whole match instead of once per seat per change, and the
    text of a whole log (the lines joined) is kept for the seats and spectators that
    read the same lines. Only the encoding is shared: which lines a seat gets is
    still its own observation's.
    """

    #: Joined logs kept (a change's views ask for a few; older ones are not asked for again).
    JOINED = 32

    def __init__(self) -> None:
        #: ``id(entry)`` → its text. The entries are held in ``_held`` until :meth:`clear`, so no id is reused.
        self._texts: dict[int, str] = {}
        self._held: list[dict[str, Any]] = []
        self._joined: dict[tuple[int, ...], str] = {}

    def text(self, entry: dict[str, Any]) -> str:
        text = self._texts.get(id(entry))
        if text is None:
            text = encode(entry)
            self._held.append(entry)  # holding the entry keeps its id from being reused
            self._texts[id(entry)] = text
        return text

    def joined(self, entries: list[dict[str, Any]]) -> str:
        """``encode(entries)``, from the lines' texts."""
        key = tuple(map(id, entries))
        text = self._joined.get(key)
        if text is None:
            texts = self._texts
            parts = [texts.get(i) for i in key]
            if None in parts:
                parts = [part if part is not None else self.text(entry) for part, entry in zip(parts, entries)]
            text = "[" + ",".join(parts) + "]"  # type: ignore[arg-type]
            if len(self._joined) >= self.JOINED:
                self._joined.clear()
            self._joined[key] = text
        return text

    def clear(self) -> None:
        self._texts.clear()
        self._held.clear()
        self._joined.clear()


class Fragments:
    """The wire text of the components a change's views show, each encoded once, and again only once
    it changes.

    ``Match.observe_seats`` hands every view of a component the same dict (``Component.shared_json``),
    the same from change to change while the component stays on the canvas (a component is never
    changed once shown: a change shows a new one). The views of one change (``Room.view_messages``)
    share one of these, made from the previous change's (``previous``): a component encoded for that
    one is not encoded again, and a list of them is joined once per change. It holds the components
    whose text it keeps (their ids are its keys); what the previous change did not show is let go.
    """

    __slots__ = ("_before", "_texts", "_joined")

    def __init__(self, previous: "Fragments | None" = None) -> None:
        self._before: dict[int, tuple[Any, str]] = previous._texts if previous is not None else {}
        self._texts: dict[int, tuple[Any, str]] = {}
        self._joined: dict[tuple[int, ...], str] = {}

    def joined(self, items: list[Any]) -> str:
        """``encode(items)``, from the items' texts."""
        key = tuple(map(id, items))
        text = self._joined.get(key)
        if text is None:
            texts, before = self._texts, self._before
            parts = []
            for item in items:
                known = texts.get(id(item))
                if known is None:
                    known = before.get(id(item))
                    if known is None or known[0] is not item:
                        known = (item, encode(item))
                    texts[id(item)] = known
                parts.append(known[1])
            text = self._joined[key] = "[" + ",".join(parts) + "]"
        return text


class Prepared(dict):  # type: ignore[type-arg]
    """A ``view`` message that builds its wire text once, however many connections it goes to (read-only).

    ``wire()`` is exactly ``encode(self)``: the message is encoded with a marker in place
    of the view's log, and the text is kept as the parts before and after it, between which
    go the log's lines from :class:`LogLines` (compact JSON writes a list as its items' texts
    joined by commas, nothing else).
    The same encoding (the template) serves the message's forms for connections that
    asked for log deltas (:meth:`for_deltas`): only their log and ``log_after`` differ.
    """

    def __init__(self, message: dict[str, Any], lines: LogLines, fragments: Fragments | None = None):
        super().__init__(message)
        self._lines = lines
        self._fragments = fragments
        self._wire: str | None = None
        self._template: tuple[str, str] | None = None
        #: The forms sent to delta connections, by what they continue: (held log, its version) → form. Held
        #: weakly: a form refers to its view, and a cycle would leave every view of every change (a hundred
        #: objects a move) to the garbage collector instead of freeing it once its text is queued.
        self._forms: dict[tuple[int, int | None], tuple[list[Any] | None, weakref.ref[_Form]]] = {}

    #: Its log is whole (a form for a delta connection, ``_Form``, says whether its own is a delta).
    delta = False

    def wire(self) -> str:
        if self._wire is None:
            self._wire = self._build()
        return self._wire

    def _build(self) -> str:
        template = self.template()
        if template:
            return "".join((template[0], self._lines.joined(self["view"]["log"]), template[1]))
        return encode(self)

    def template(self) -> tuple[str, str] | None:
        """The wire text before and after the view's log (None: it cannot be had), from one encoding
        with a marker in the log's place (and the components' texts put in for theirs)."""
        if self._template is None:
            self._template = ()  # type: ignore[assignment]  # tried: not again
            view = self.get("view")
            if type(view) is dict and type(view.get("log")) is list:
                fragments, components = self._fragments, view.get("components")
                if fragments is not None and type(components) is list:
                    text = encode({**self, "view": {**view, "components": _PARTS_MARK, "log": _LOG_MARK}})
                    at = _once(text, _PARTS_MARK_TEXT)
                    if at < 0:
                        return None
                    text = "".join((text[:at], fragments.joined(components), text[at + len(_PARTS_MARK_TEXT):]))
                else:
                    text = encode({**self, "view": {**view, "log": _LOG_MARK}})
                at = _once(text, _LOG_MARK_TEXT)
                if at >= 0 and text.endswith("}"):
                    self._template = (text[:at], text[at + len(_LOG_MARK_TEXT):])
        return self._template or None

    def for_deltas(self, held: "Held | None") -> "_Form":
        """This view as sent to a connection that asked for log deltas and holds ``held`` (the match, log
        and version of a view it was sent): its log only the lines added since (``log_after``: that
        view's version), or all of it (``log_after: null``) when it continues nothing the connection
        holds. Connections of one seat at the same point get the same form (encoded once)."""
        log = self["view"]["log"]
        added: list[Any] | None = None
        base: list[Any] | None = None  # the log the form continues (None: a whole log)
        after: int | None = None
        if held is not None and held[0] == self["match"]:
            added = continuation(held[1], log)
            if added is not None:
                base, after = held[1], held[2]
        key = (id(base), after) if base is not None else (0, None)
        known = self._forms.get(key)
        if known is not None and known[0] is base:
            form = known[1]()
            if form is not None:
                return form
        form = _Form(self, log if added is None else added, after)
        self._forms[key] = (base, weakref.ref(form))
        return form


class _Form:
    """One form of a :class:`Prepared` view for delta connections: its text from the view's template.
    Not a copy of the message (a connection only asks for its text): :meth:`message` builds that."""

    __slots__ = ("_of", "log", "after", "holds", "_wire", "__weakref__")

    def __init__(self, view: Prepared, log: list[Any], after: int | None):
        self._of, self.log, self.after = view, log, after
        #: What a connection holds once it has this view: the match, the whole log and the version.
        self.holds: Held = (view["match"], view["view"]["log"], view["view"]["version"])
        self._wire: str | None = None

    @property
    def delta(self) -> bool:
        return self.after is not None

    def message(self) -> dict[str, Any]:
        """The message this form is the text of."""
        view = self._of
        return {**view, "view": {**view["view"], "log": self.log}, "log_after": self.after}

    def wire(self) -> str:
        """Exactly ``encode(self.message())``."""
        if self._wire is None:
            view = self._of
            template = view.template()
            if template:
                self._wire = "".join((template[0], view._lines.joined(self.log), template[1][:-1], ',"log_after":',
                                      "null" if self.after is None else str(self.after), "}"))
            else:
                self._wire = encode(self.message())
        return self._wire


#: What a connection holds after a view: its match, its whole log (the engine's list) and its version.
Held = tuple[int, list[Any], int]


class Deltas:
    """A connection that asked for log deltas (``hello``'s ``log_deltas``): what it holds once the views
    queued to it are read (``held``), and before the view still waiting in its outbox (``before``).
    A new one (every ``hello`` makes one) holds nothing: its first view is full.

    A view replaces one still waiting in a connection's outbox (app.Outbox), so the form sent then
    continues what the connection held before the waiting one: no line is lost, and nothing is decoded."""

    __slots__ = ("held", "before")

    def __init__(self) -> None:
        self.held: Held | None = None
        self.before: Held | None = None

    def form(self, view: Prepared, replacing: bool) -> "_Form":
        """The form of ``view`` to queue; ``replacing``: it replaces a view still waiting."""
        form = view.for_deltas(self.before if replacing else self.held)
        if not replacing:
            self.before = self.held
        self.held = form.holds
        return form


def continuation(held: list[Any], log: list[Any]) -> list[Any] | None:
    """The lines of ``log`` after the last line of ``held``, if a client holding ``held`` that appends
    them and keeps the last ``LOG_TAIL`` has exactly ``log``; else None (a full log must go).

    The log a seat reads only grows at its end, except when a line's audience changes who may read it
    (a DSL group: a line can appear or vanish in the middle): then nothing continues and None is returned.
    """
    if not held:
        return log
    last = held[-1]
    at = len(log) - 1
    while at >= 0 and log[at] is not last:
        at -= 1
    if at < 0:
        return None
    added = log[at + 1:]
    return added if (held + added)[-LOG_TAIL:] == log else None


def merge_views(waiting: str, newer: str) -> str:
    """The text of one view that says what ``waiting`` and then the delta view ``newer`` say (a connection's
    outbox keeps only its newest view: a delta that replaces one still waiting carries its lines too).
    For a cluster gateway's connections, whose views come encoded from the room's node (a local connection
    asks for the form that continues what it held before the waiting view instead: :class:`Deltas`)."""
    load = orjson.loads if orjson is not None else json.loads
    old, new = load(waiting), load(newer)
    new["view"]["log"] = (old["view"]["log"] + new["view"]["log"])[-LOG_TAIL:]
    new["log_after"] = old.get("log_after")
    return encode(new)


def _once(text: str, mark: str) -> int:
    """Where ``mark`` is in ``text`` if it is there exactly once, else -1 (one pass: from each end to it)."""
    at = text.find(mark)
    return at if at >= 0 and text.rfind(mark) == at else -1


#: Stands for a view's log while the rest is encoded: a string no game or player can write
#: (a control character no name or chat keeps, and a secret), and its text is checked to occur once.
_LOG_MARK = "\x00log:" + secrets.token_hex(16)
_LOG_MARK_TEXT = encode(_LOG_MARK)
#: Stands for a view's components the same way (their text comes from :class:`Fragments`).
_PARTS_MARK = "\x00parts:" + secrets.token_hex(16)
_PARTS_MARK_TEXT = encode(_PARTS_MARK)


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
