"""Coup as a fixed-size vector of numbers, from one seat's point of view (for RL).

Seats are ordered from the observer clockwise (slot 0 is the observer), so a
policy learns "the next player", not "seat 3". Everything encoded is what the
seat may see: its own face-down cards, every face-up card, coins, the turn's
action, claim, target and blocker, and a memory of each player's public claims
(read from the log's ``declare`` and ``block`` events as they arrive, so the
encoder does not re-read the log every step). With the variants: every seat's
allegiance, the Treasury Reserve and whether all living players are on one side
(public), and the card a target showed, for the examiner and the target only.
The layout is in ``fields``.
"""

from __future__ import annotations

from typing import Any

from ...engine import Match
from ...engine.encoding import DECISION_KINDS, encode_turn, layout, phase_index
from .vocabulary import CHARACTERS

ACTIONS = ("Income", "Foreign Aid", "Coup", "Tax", "Assassinate", "Steal", "Exchange", "Examine", "Convert",
           "Embezzle")
#: Per player: alive, coins, face-down count, face-up by character, last claim, active/target/blocker,
#: public claims made so far by character, allegiance (Loyalist, Reformist).
PER_PLAYER = 3 + 6 + 6 + 3 + 6 + 2


_INDEX = {character: i for i, character in enumerate(CHARACTERS)}


class Encoder:
    """``encode(match, seat, out)`` writes ``size`` numbers into ``out`` (zeros on entry)."""

    def __init__(self, game: Any, players: int):
        self.players = players
        self.phases = phase_index(game)
        fields: list[tuple[str, int]] = []
        for k in range(players):
            fields.append((f"player+{k}", PER_PLAYER))
        fields += [("hand", 6), ("drawn", 6), ("action", len(ACTIONS)), ("claim", 6), ("block_claim", 6),
                   ("phase", len(self.phases)), ("deciding", 1), ("decision_kind", len(DECISION_KINDS)),
                   ("court", 1), ("treasury", 1), ("reserve", 1), ("reunified", 1), ("examined", 6)]
        self.fields = fields
        self.offsets, self.size = layout(fields)
        self._hand, self._drawn = self.offsets["hand"], self.offsets["drawn"]
        self._claims: dict[int, tuple[Match | None, int, list[list[int]]]] = {}

    def _claim_counts(self, match: Match, seat: int) -> list[list[int]]:
        """Public claims per player and character, updated from the log's new events only."""
        known, read, counts = self._claims.get(seat, (None, 0, []))
        events = match.events
        if known is not match or read > len(events):
            read, counts = 0, [[0] * 6 for _ in range(self.players)]
        for event in events[read:]:
            data = event.data
            kind = data.get("event")
            if kind == "declare" or kind == "block":
                character = data.get("character")
                if character in CHARACTERS:
                    counts[data["seat"]][CHARACTERS.index(character)] += 1
        self._claims[seat] = (match, len(events), counts)
        return counts

    def encode(self, match: Match, seat: int, out: Any) -> None:
        n = self.players
        state = match.state
        turn = state["current_turn"]
        actor = turn["player_id"] - 1
        target = turn["target_player_id"] - 1
        blocker = state["block"]["blocker_id"] - 1
        counts = self._claim_counts(match, seat)
        index = _INDEX.__getitem__
        hand = self._hand
        for owner in range(n):
            p = match.players[owner]
            base = ((owner - seat) % n) * PER_PLAYER
            out[base] = 1.0 if p["is_alive"] else 0.0
            out[base + 1] = p["coins"] / 12.0
            down = 0
            for slot in p["influences"].values():
                if slot["revealed"]:
                    out[base + 3 + index(slot["character"])] += 1.0
                else:
                    down += 1
                    if owner == seat:
                        out[hand + index(slot["character"])] += 1.0
            out[base + 2] = down / 2.0
            claimed = p.get("claimed_character")
            if claimed in CHARACTERS:
                out[base + 9 + index(claimed)] = 1.0
            out[base + 15] = 1.0 if owner == actor else 0.0
            out[base + 16] = 1.0 if owner == target else 0.0
            out[base + 17] = 1.0 if owner == blocker else 0.0
            for c, count in enumerate(counts[owner]):
                if count:
                    out[base + 18 + c] = min(count, 10) / 5.0
            side = state["allegiance"][owner] if state["allegiance"] else ""
            if side:
                out[base + 24 + (side == "Reformist")] = 1.0
        if seat == actor:
            drawn = self._drawn
            for character in state["exchange"]["drawn"]:
                if character in CHARACTERS:
                    out[drawn + index(character)] += 1.0
        if turn["action"] in ACTIONS:
            out[self.offsets["action"] + ACTIONS.index(turn["action"])] = 1.0
        if turn["character"] in CHARACTERS:
            out[self.offsets["claim"] + index(turn["character"])] = 1.0
        if state["block"]["character"] in CHARACTERS:
            out[self.offsets["block_claim"] + index(state["block"]["character"])] = 1.0
        encode_turn(out, self.offsets, self.phases, match, seat)
        out[self.offsets["court"]] = len(state["court_deck"]) / 25.0
        out[self.offsets["treasury"]] = state["treasury"] / 50.0
        if state["allegiance"]:
            out[self.offsets["reserve"]] = state["reserve"] / 12.0
            living = {side for side, p in zip(state["allegiance"], match.players) if p["is_alive"]}
            out[self.offsets["reunified"]] = 1.0 if len(living) <= 1 else 0.0
        exam = state["examine"]
        if exam["target_id"] and seat in (actor, exam["target_id"] - 1) and exam["character"] in CHARACTERS:
            out[self.offsets["examined"] + index(exam["character"])] = 1.0


def encoder(game: Any, players: int) -> Encoder:
    return Encoder(game, players)
