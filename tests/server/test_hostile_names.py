"""Names and chat lines that draw nothing, written from docs/protocol.md: "A name with no visible character
is refused", a name already taken gets a suffix, and control and format characters (bidi overrides,
zero-width characters) are removed. Unicode has other characters that draw nothing: the combining grapheme
joiner, variation selectors, Hangul fillers, the blank braille pattern."""

from __future__ import annotations

import pytest

from ..security.table import hang_up
from .support import Client, create_room, join

#: Each draws nothing (Unicode's default-ignorable code points that are not format characters; the blank
#: braille pattern draws a blank).
INVISIBLE = ["\u034f", "\ufe0f", "\ufe00", "\u180b", "\u17b4", "\U000e0100", "\u3164", "\u115f", "\u1160", "\uffa0"]


@pytest.mark.parametrize("mark", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_an_invisible_character_does_not_make_a_second_aria(server, http, mark):
    created = create_room(http, name="Aria", seats=3, private=True)
    joined = join(http, created["room"], f"Ar{mark}ia{mark}")
    # Before the fix: a second seat named "Aria" as far as anyone could see ("Steal Aria" twice over).
    seats = http.get(f"/api/rooms/{created['room']}").json()["seats"]
    assert [s["name"] for s in seats] == ["Aria", "Aria 2", None] and joined["seat"] == 1


@pytest.mark.parametrize("name", ["\u3164", "\u115f\u1160", "\uffa0", "\u2800", "\u2800\u034f\u3164", "\ufe0f"],
                         ids=["hangul-filler", "jamo-fillers", "halfwidth-filler", "braille-blank", "mixed",
                              "variation-selector"])
def test_a_name_that_draws_nothing_is_refused(server, http, name):
    created = create_room(http, name="Aria", seats=3, private=True)
    for answer in (http.post(f"/api/rooms/{created['room']}/join", json={"name": name}),
                   http.post("/api/rooms", json={"game": "coup", "name": name, "seats": 2})):
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_message", answer.text
        assert "visible character" in answer.json()["error"]["message"]
    assert [s["name"] for s in http.get(f"/api/rooms/{created['room']}").json()["seats"]] == ["Aria", None, None]


def test_chat_loses_the_characters_that_draw_nothing(server, http):
    created = create_room(http, name="Aria", seats=2, private=True)
    aria = Client(server.ws_url, created["room"], created["token"])
    aria.until(lambda m: m["type"] == "room")
    aria.send({"type": "chat", "token": created["token"], "text": "I\u3164 am\u2800Aria\u034f\ufe0f, trust me"})
    assert aria.until(lambda m: m["type"] in ("chat", "error"))["text"] == "I am Aria, trust me"
    aria.send({"type": "chat", "token": created["token"], "text": "\u3164\u2800\u034f"})
    refusal = aria.until(lambda m: m["type"] in ("chat", "error"))
    assert (refusal["type"], refusal["code"]) == ("error", "bad_message")
    hang_up(aria)


@pytest.mark.parametrize("first,second", [("Jos\u00e9", "Jose\u0301"), ("Zo\u00eb", "Zoe\u0308"),
                                          ("\u00c5sa", "A\u030asa"), ("\u1ec6n", "E\u0323\u0302n")],
                         ids=["e-acute", "e-diaeresis", "a-ring", "two-marks"])
def test_a_name_typed_with_combining_accents_is_not_a_second_jose(server, http, first, second):
    """Unicode's two spellings of one letter (composed, or a letter and its combining accent) draw the same:
    they are one name, so the second gets a suffix as any name taken does."""
    created = create_room(http, name=first, seats=3, private=True)
    join(http, created["room"], second)
    # Before the fix: two seats both reading "José" ("Steal José" offered twice, one for each).
    names = [s["name"] for s in http.get(f"/api/rooms/{created['room']}").json()["seats"]]
    assert names == [first, f"{first} 2", None]


def test_chat_is_sent_in_the_composed_form(server, http):
    created = create_room(http, name="Aria", seats=2, private=True)
    aria = Client(server.ws_url, created["room"], created["token"])
    aria.until(lambda m: m["type"] == "room")
    aria.send({"type": "chat", "token": created["token"], "text": "Jose\u0301 has the Duke"})
    assert aria.until(lambda m: m["type"] in ("chat", "error"))["text"] == "Jos\u00e9 has the Duke"
    hang_up(aria)


@pytest.mark.parametrize("look_alike", ["\u0410ria", "\uff21ria", "\u0391ria", "\u0410r\u0456\u0430", "ARIA",
                                        "\uff21\uff32\uff29\uff21"],
                         ids=["cyrillic-A", "full-width-A", "greek-alpha", "cyrillic-A-i-a", "capitals",
                              "full-width-capitals"])
def test_a_name_that_draws_like_aria_is_not_a_second_aria(server, http, look_alike):
    """Two names that draw alike (a Cyrillic or Greek letter for its Latin twin, full-width letters, other
    capitals) are one name at the table: the second gets a suffix as any name taken does, and keeps the
    letters it was typed with."""
    created = create_room(http, name="Aria", seats=3, private=True)
    joined = join(http, created["room"], look_alike)
    watcher = Client(server.ws_url, created["room"])
    room = watcher.until(lambda m: m["type"] == "room")
    # Before the fix: two seats both reading "Aria" ("Steal Aria" offered twice, one for each).
    assert [s["name"] for s in room["seats"]] == ["Aria", f"{look_alike} 2", None] and joined["seat"] == 1
    hang_up(watcher)


def test_a_bot_is_not_named_like_its_host(server, http):
    created = create_room(http, name="\u0410d\u0430", seats=2, bots=[{"kind": "random"}], private=True)
    watcher = Client(server.ws_url, created["room"])
    room = watcher.until(lambda m: m["type"] == "room")
    # Before the fix: the host "Аdа" (Cyrillic) sat with a bot named "Ada".
    assert [s["name"] for s in room["seats"]] == ["\u0410d\u0430", "Basil"]
    hang_up(watcher)


@pytest.mark.parametrize("first, look_alike", [("Alice", "AIice"), ("Bill", "BiI1"), ("Kim", "Kirn"),
                                               ("Owen", "0wen"), ("Wes", "VVes")],
                         ids=["capital-I", "I-and-1", "rn", "zero", "vv"])
def test_a_name_that_draws_like_another_within_latin_is_suffixed(server, http, first, look_alike):
    """Within Latin too, as UTS #39's skeletons read it: a capital I or a 1 draws like a small l, rn like m,
    0 like O, vv like w. The second gets a suffix and keeps its letters."""
    created = create_room(http, name=first, seats=3, private=True)
    join(http, created["room"], look_alike)
    join(http, created["room"], "Iris")  # a capital I of its own draws like no one here: no suffix
    watcher = Client(server.ws_url, created["room"])
    room = watcher.until(lambda m: m["type"] == "room")
    assert [s["name"] for s in room["seats"]] == [first, f"{look_alike} 2", "Iris"]
    hang_up(watcher)


@pytest.mark.parametrize("name", ["\u0301", "\u0301\u0300\u0302", "\u20dd", "\u0cbc", "\U0001d159", " \u0301 \u0301"],
                         ids=["acute", "three-accents", "enclosing-circle", "kannada-nukta", "null-notehead",
                              "spaced-accents"])
def test_a_name_of_marks_with_no_letter_is_refused(server, http, name):
    """A combining mark alone draws no character of its own: it sits on whatever comes before it, in an
    option string the space of "Steal \u0301". Each of these was a seat whose name showed as nothing (or a
    floating accent), as the Hangul filler's had been; the musical null notehead is a blank glyph."""
    before = len(http.get("/api/rooms").json())
    answer = http.post("/api/rooms", json={"game": "coup", "name": name, "seats": 2})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_message", answer.text
    assert "visible character" in answer.json()["error"]["message"]
    assert len(http.get("/api/rooms").json()) == before


@pytest.mark.parametrize(("typed", "name"), [("\u0301\u0308Aria", "Aria"), ("\u0301 Zo\u0308e", "Z\u00f6e")])
def test_marks_before_the_first_letter_are_dropped(server, http, typed, name):
    """The accents before "Aria" would sit on the space of "Steal Aria"; a mark after a letter is that
    letter's (composed: "Zöe")."""
    created = create_room(http, name=typed, seats=2, private=True)
    assert http.get(f"/api/rooms/{created['room']}").json()["seats"][0]["name"] == name
