"""A view's wire text, built once per change with its log lines encoded once per match, is exactly
``encode`` of the message: the same bytes for every seat, in every installed game."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from intrigue import games
from intrigue.engine import Match
from intrigue.server.protocol import LOG_TAIL, Deltas, Fragments, LogLines, Prepared, continuation, encode


@pytest.mark.parametrize("game_id", games.installed())
def test_every_seats_view_is_sent_as_exactly_the_text_encode_gives(game_id):
    game = games.get(game_id)
    players = max(game.min_players, min(4, game.max_players))
    match = Match(game, [f"Player {n}" for n in range(players)], 7, {})
    rng, lines, checked = random.Random(7), LogLines(), 0
    for _ in range(60):
        for seat in [*range(players), None]:
            message = {"type": "view", "match": 3, "view": match.observe(seat),
                       "timer": {"seconds_left": 0.5, "seconds": 30, "kind": "turn"}, "timeouts": []}
            assert Prepared(message, lines).wire() == encode(message) == json.dumps(
                message, ensure_ascii=True, separators=(",", ":"))
            checked += 1
        if match.over or not match.pending:
            break
        seat = rng.choice(match.pending)
        match.choose(seat, rng.choice(match.legal(seat)), match.version)
    assert checked > players


@pytest.mark.parametrize("game_id", games.installed())
def test_views_observed_together_are_sent_as_the_text_of_each_seats_own_view(game_id):
    """A change's views share their components' text (``Fragments``, kept from change to change while a
    component is shown): each is still exactly ``encode`` of the message built from that seat's own
    ``observe``, in its whole form and in every delta form."""
    game = games.get(game_id)
    players = max(game.min_players, min(5, game.max_players))
    match = Match(game, [f"Player {n}" for n in range(players)], 11, {})
    rng, lines, checked = random.Random(11), LogLines(), 0
    seats = [*range(players), None]
    held: dict = {seat: Deltas() for seat in seats}
    fragments = None
    for _ in range(60):
        fragments = Fragments(fragments)  # each change's from the one before (as Room.view_messages)
        for seat, view in zip(seats, match.observe_seats(seats)):
            message = {"type": "view", "match": 3, "view": view, "timer": None, "timeouts": []}
            alone = {**message, "view": match.observe(seat)}
            prepared = Prepared(message, lines, fragments)
            assert prepared.wire() == encode(alone) == json.dumps(alone, ensure_ascii=True, separators=(",", ":"))
            form = held[seat].form(prepared, replacing=False)
            assert form.wire() == encode({**form.message(), "view": {**alone["view"], "log": form.log}})
            checked += 1
        if match.over or not match.pending:
            break
        seat = rng.choice(match.pending)
        match.choose(seat, rng.choice(match.legal(seat)), match.version)
    assert checked > players


def test_a_component_holding_the_markers_is_still_sent_exactly():
    from intrigue.server.protocol import _LOG_MARK, _PARTS_MARK

    shared = {"key": "x", "kind": "text", "text": _PARTS_MARK + _LOG_MARK}
    view = {"components": [shared, {"key": "y", "kind": "text", "text": "caf\u00e9 1e-7"}], "log": [],
            "state": {"s": _PARTS_MARK}}
    fragments = Fragments()
    for _ in range(2):
        message = {"type": "view", "view": view}
        assert Prepared(message, LogLines(), fragments).wire() == encode(message)
    message = {"type": "view", "view": {**view, "state": {}, "components": [shared]}}
    assert Prepared(message, LogLines(), fragments).wire() == encode(message)


def test_odd_values_are_sent_as_encode_sends_them():
    entry = {"version": 1, "text": "caf\u00e9 \ud800 \x7f", "tiny": 1e-7, "n": 10**30}
    view = {"log": [entry, entry], "state": {1: "int key", "x": (1, 2)}, "you": "\u2028"}
    message = {"type": "view", "view": view, "timer": None}
    lines = LogLines()
    assert Prepared(message, lines).wire() == encode(message)
    assert Prepared({"type": "view", "view": {2: "x"}}, lines).wire() == encode({"type": "view", "view": {2: "x"}})


def test_a_view_holding_the_log_marker_itself_is_still_sent_exactly():
    from intrigue.server.protocol import _LOG_MARK

    entry = {"version": 0, "text": _LOG_MARK}
    message = {"type": "view", "view": {"state": {"x": _LOG_MARK}, "log": [entry]}}
    assert Prepared(message, LogLines()).wire() == encode(message)


def test_a_continuation_is_the_added_lines_only_when_appending_them_gives_the_log():
    lines = [{"version": n, "text": str(n)} for n in range(120)]
    assert continuation([], lines[:5]) == lines[:5]
    assert continuation(lines[:5], lines[:8]) == lines[5:8]
    assert continuation(lines[:5], lines[:5]) == []
    assert continuation(lines[20:100], lines[30:110]) == lines[100:110]  # the oldest fall off: the last 80 kept
    assert continuation(lines[:10], lines[200:]) is None  # nothing held is left: a full log
    assert continuation(lines[:10], lines[:4] + lines[5:12]) is None  # a line vanished in the middle
    assert continuation(lines[:10], lines[:4] + [{"version": 3}] + lines[4:12]) is None  # or appeared
    assert continuation(lines[:10], lines[:12][-LOG_TAIL:]) == lines[10:12]


def test_each_form_of_a_view_for_delta_connections_is_encoded_once_and_exactly():
    lines = [{"version": n, "text": f"line {n}"} for n in range(10)]
    store = LogLines()

    def view(version: int, log: list) -> Prepared:
        return Prepared({"type": "view", "match": 2, "view": {"version": version, "log": log, "x": "\u00e9"},
                         "timer": None, "timeouts": []}, store)

    first, second, other_match = Deltas(), Deltas(), Deltas()
    message = view(3, lines[:6])
    full = first.form(message, replacing=False)
    assert full.message() == {**message, "log_after": None} and full.wire() == encode(full.message())
    assert not full.delta
    assert second.form(message, replacing=False) is full  # two connections at the same point: one form
    newer = view(4, lines[:8])
    delta = first.form(newer, replacing=False)
    assert delta.delta and delta.message()["log_after"] == 3 and delta.message()["view"]["log"] == lines[6:8]
    assert delta.wire() == encode(delta.message()) and newer.wire() == encode(newer)
    assert second.form(newer, replacing=False) is delta
    other_match.held = (1, lines[:6], 3)
    assert other_match.form(newer, replacing=False).after is None  # a view of another match: full
    assert first.held == (2, lines[:8], 4) and first.before == (2, lines[:6], 3)
    # The view at version 4 still waits in the outbox: the one at version 5 replaces it, and so
    # continues the view at version 3, which the client holds.
    latest = first.form(view(5, lines[:9]), replacing=True)
    assert latest.after == 3 and latest.log == lines[6:9]
    assert first.held == (2, lines[:9], 5) and first.before == (2, lines[:6], 3)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2 ** 70), max_value=2 ** 70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_encode_writes_exactly_what_the_standard_library_writes(value):
    """Fast or not, the wire text is json.dumps(..., ensure_ascii=True, separators=(",", ":")): escapes,
    characters past ASCII, DEL, lone surrogates, tiny and huge floats, ints past 64 bits."""
    assert encode(value) == json.dumps(value, ensure_ascii=True, separators=(",", ":"))


def test_nan_and_infinities_which_json_cannot_carry_are_sent_as_null():
    assert encode({"a": float("nan"), "b": [float("inf"), -float("inf")]}) == '{"a":null,"b":[null,null]}'


def test_the_protocols_log_length_is_the_engines():
    from intrigue import protocol
    from intrigue.engine.observe import LOG_TAIL as ENGINE

    assert protocol.LOG_TAIL == ENGINE == LOG_TAIL


def test_a_view_and_its_delta_forms_are_freed_once_sent_without_the_garbage_collector():
    """A form refers to its view; the view keeps its forms weakly. A cycle between them left every view of
    every change (a hundred objects a move) to the collector, which then ran ten times as often."""
    import gc
    import weakref

    match = Match(games.get("coup"), ["A", "B", "C", "D"], 5)
    lines, deltas = LogLines(), Deltas()
    gc.disable()
    try:
        prepared = Prepared({"type": "view", "match": 1, "view": match.observe(0), "timer": None, "timeouts": []},
                            lines, Fragments())
        text = deltas.form(prepared, replacing=False).wire()
        again = deltas.form(prepared, replacing=True).wire()
        gone = weakref.ref(prepared)
        del prepared
        assert gone() is None and text and again
    finally:
        gc.enable()
