"""BANG! as a fixed-size vector of numbers, from one seat's point of view (for RL).

Seats are ordered from the observer clockwise (slot 0 is the observer). Only
what the seat may see is encoded (``view.py``): life, hand sizes, the cards in
front of everyone, characters, the roles that are face up (the Sheriff's, the
dead's, your own), distances and reach, your own hand by card kind, the turn's
stage and the prompt being answered, the piles, the General Store, Lucky Duke's
"draw!" cards, and Kit Carlson's three cards when they are yours.
"""

from __future__ import annotations

from typing import Any

from ...engine import Match
from ...engine.encoding import DECISION_KINDS, encode_turn, layout, phase_index
from .cards import CARDS, CHARACTERS
from .rules import distance, reach
from .view import role_visible
from .vocabulary import IN_PLAY, KINDS

ROLES = ("Sheriff", "Deputy", "Outlaw", "Renegade")
CHARACTER_NAMES = tuple(sorted(CHARACTERS))
STAGES = ("setup", "predraw", "draw", "play", "discard", "end")
PROMPTS = ("shot", "gatling", "duel", "indians", "save", "pick", "store", "draw", "character", "order")
#: Per player: alive, life, max life, hand size, role (4) + hidden, character (16) + none,
#: cards in play by kind, active, distance, reach, prompt source.
PER_PLAYER = 4 + 5 + len(CHARACTER_NAMES) + 1 + len(IN_PLAY) + 4
_KIND = {kind: i for i, kind in enumerate(KINDS)}
_IN_PLAY = {kind: i for i, kind in enumerate(IN_PLAY)}


class Encoder:
    """``encode(match, seat, out)`` writes ``size`` numbers into ``out`` (zeros on entry)."""

    def __init__(self, game: Any, players: int):
        self.players = players
        self.phases = phase_index(game)
        fields: list[tuple[str, int]] = [(f"player+{k}", PER_PLAYER) for k in range(players)]
        fields += [("hand", len(KINDS)), ("stage", len(STAGES)), ("prompt", len(PROMPTS)),
                   ("piles", 2), ("discard_top", len(KINDS)), ("store", len(KINDS)), ("flipped", len(KINDS)),
                   ("kit", len(KINDS)), ("phase", len(self.phases)), ("deciding", 1),
                   ("decision_kind", len(DECISION_KINDS))]
        self.fields = fields
        self.offsets, self.size = layout(fields)

    def _kinds(self, out: Any, field: str, cards: list[str], scale: float = 1.0) -> None:
        base = self.offsets[field]
        for card in cards:
            out[base + _KIND[CARDS[card].name]] += scale

    def encode(self, match: Match, seat: int, out: Any) -> None:
        n = self.players
        state = match.state
        turn = state["turn"]
        prompt = state["reaction"]["prompt"]
        me_alive = match.players[seat]["is_alive"]
        started = turn["stage"] != "setup"
        source = prompt.get("source") if prompt else None
        for owner in range(n):
            p = match.players[owner]
            base = ((owner - seat) % n) * PER_PLAYER
            out[base] = 1.0 if p["is_alive"] else 0.0
            out[base + 1] = max(0, p["health"]) / 5.0
            out[base + 2] = p["max_health"] / 5.0
            out[base + 3] = len(p["hand"]) / 10.0
            if role_visible(match, owner, seat) and p["role"] in ROLES:
                out[base + 4 + ROLES.index(p["role"])] = 1.0
            else:
                out[base + 8] = 1.0
            at = base + 9
            if p["character"] in CHARACTERS:
                out[at + CHARACTER_NAMES.index(p["character"])] = 1.0
            else:
                out[at + len(CHARACTER_NAMES)] = 1.0
            at += len(CHARACTER_NAMES) + 1
            for card in p["table"]:
                out[at + _IN_PLAY[CARDS[card].name]] += 1.0
            at += len(IN_PLAY)
            out[at] = 1.0 if started and owner == turn["seat"] else 0.0
            if started and owner != seat and p["is_alive"] and me_alive:
                out[at + 1] = max(1, distance(match, seat, owner)) / 7.0
            if started:
                out[at + 2] = reach(match, owner) / 5.0
            out[at + 3] = 1.0 if source == owner else 0.0
        self._kinds(out, "hand", match.players[seat]["hand"], 1.0 / 3.0)
        if turn["stage"] in STAGES:
            out[self.offsets["stage"] + STAGES.index(turn["stage"])] = 1.0
        if prompt and prompt.get("kind") in PROMPTS:
            out[self.offsets["prompt"] + PROMPTS.index(prompt["kind"])] = 1.0
        out[self.offsets["piles"]] = len(state["deck"]) / 80.0
        out[self.offsets["piles"] + 1] = len(state["discard"]) / 80.0
        if state["discard"]:
            self._kinds(out, "discard_top", state["discard"][-1:])
        self._kinds(out, "store", state["store"])
        self._kinds(out, "flipped", state["flipped"])
        if state["kit"] and match.players[seat]["character"] == "Kit Carlson":
            self._kinds(out, "kit", state["kit"])
        encode_turn(out, self.offsets, self.phases, match, seat)


def encoder(game: Any, players: int) -> Encoder:
    return Encoder(game, players)
