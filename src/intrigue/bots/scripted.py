"""The ``tutorial`` bot: plays a game's guided first game as written, then as a normal bot.

A tutorial room (``POST /api/games/{game}/tutorial``) seats these bots and deals
its first match from the tutorial's seed (``games/tutorials.py``). The server
seeds each seat's bot with ``"<match seed>:<seat>"``, so a bot knows whether it
sits in the tutorial's match: only there does it follow the script; in a rematch
(a new seed), in any other room or in a game without a tutorial it is simply the
tutorial's ``bots`` spec (``random`` without one).

While the script lasts (the match's version is at most ``until``) a seat plays
its next move when that move's phase is the one it is asked in and the move is
offered, drops moves whose ``by`` version has passed, and otherwise plays
``otherwise`` (e.g. ``Pass``) when it is offered, else decides as the fallback bot
(a card to lose, say). A move's ``{0}``, ``{1}``… are the names of the players in
those seats (``"Duel JS at {0}"``), so the script holds whatever name the person
took. A bot made
afresh mid-match (a server restart) drops the moves whose time has passed and
goes on from there.
"""

from __future__ import annotations

import re

from .base import Bot, SeatView


def named(play: str, players: list[str]) -> str:
    """``play`` with each ``{n}`` replaced by the name of the player in seat n."""
    return re.sub(r"\{(\d+)\}", lambda m: players[int(m.group(1))] if int(m.group(1)) < len(players) else m.group(0),
                  play)


class TutorialBot(Bot):
    kind = "tutorial"

    def __init__(self, seed: int | str = 0, personality: str | None = None):
        super().__init__(seed, personality)
        self.seed = str(seed)
        self.done: dict[int, int] = {}      # seat -> moves of its script played or dropped
        self._fallback: Bot | None = None

    @classmethod
    def available(cls) -> bool:
        """Not offered in the lobby: tutorial rooms seat it (``GET /api/bots`` leaves it out)."""
        return False

    def choose(self, view: SeatView) -> str | None:
        from ..games import tutorials  # noqa: PLC0415

        script = tutorials.tutorial(view.game)
        if script is not None and self.seed.rpartition(":")[0] == str(script.seed) and \
                view.observation.get("version", 0) <= script.script.until:
            moves = script.script.moves.get(view.seat, [])
            version = view.observation.get("version", 0)
            done = self.done.get(view.seat, 0)
            while done < len(moves) and moves[done].by is not None and moves[done].by < version:
                done += 1
            self.done[view.seat] = done
            play = named(moves[done].play, view.observation.get("players", [])) if done < len(moves) else None
            if play is not None and moves[done].phase == view.observation["phase"]["name"] and play in view.options:
                self.done[view.seat] = done + 1
                return play
            if script.script.otherwise in view.options:
                return script.script.otherwise
        return self.fallback(view, script.bots if script is not None else "random")

    def fallback(self, view: SeatView, spec: str) -> str | None:
        if self._fallback is None:
            from . import make  # noqa: PLC0415 - the registry imports this module

            self._fallback = make(spec, seed=self.seed)
        return self._fallback.choose(view)
