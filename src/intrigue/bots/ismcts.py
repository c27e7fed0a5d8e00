"""A generic search bot: information-set Monte Carlo tree search (ISMCTS).

Each iteration samples one *determinisation*: a complete headless match that
agrees with everything this seat observes, its hidden information drawn at
random. The game supplies that sampler as ``binding.determinize(game,
observation, seat, rng)`` (Coup's is ``games/coup/determinize.py``); nothing
else about the game is known here (but an optional reader of the opponents). On the sample the bot walks one shared tree
(single-observer ISMCTS: nodes are sequences of (seat, option); a child's
statistics only count the iterations in which it was legal), expands one move,
plays the match out and credits each seat that won.

Playouts are random legal moves, or, when the registry has a bot made for this
game (Coup's heuristic), that bot at every seat, each from its own view; the
root is then searched by PUCT with that bot's choices as priors, and the
opponents in the tree are modelled as that bot (the default; ``search``: chosen
by UCB instead), moving at random as often as the game's reader
(``binding.reads``) judges them erratic.

Games without a determinizer (or whose sampler returns ``None``) get a random
legal option: the bot degrades to the baseline rather than searching a match it
may not see. The budget is a number of iterations (reproducible from the seed)
or milliseconds (bounded time, machine-dependent). See ``docs/bots.md``.
"""

from __future__ import annotations

import math
import re
import time
from typing import Any

from ..engine.errors import EngineError
from .base import Bot, SeatView, seat_view

#: The default budget: milliseconds per decision, everything included.
DEFAULT_MILLISECONDS = 200.0
#: How many moves a random playout may take before it is scored as a draw.
PLAYOUT_LIMIT = 1_000
#: UCB exploration constant (rewards are 0/1 wins).
EXPLORATION = 0.7
#: With a playout bot, the root is searched by PUCT with the bot's choices as
#: priors: how many times the bot is asked, the share of the prior it decides
#: (the rest is uniform), and the weight of the prior against measured values.
GUIDE_VOTES = 8
GUIDE_WEIGHT = 0.7
PUCT = 1.0
#: Modelled opponents make a random legal move this often: the model must not
#: assume that every opponent plays like the playout bot. A game with a reader
#: (``binding.reads``: how likely each seat plays at random, from the log) sets
#: it per seat: ``STEADY + (1 - STEADY) × p``.
UNPREDICTABLE = 0.25
STEADY = 0.05


class _Node:
    __slots__ = ("seat", "visits", "wins", "avail", "children")

    def __init__(self, seat: int | None = None):
        self.seat = seat
        self.visits = 0
        self.wins = 0.0
        self.avail = 0
        self.children: dict[tuple[int, str], _Node] = {}


class ISMCTS(Bot):
    kind = "ismcts"
    BUDGETS = {"fast": 40, "strong": 600}
    #: What the lobby lists; ``accepts`` also takes ``<N>``, ``<N>ms`` and ``model-``/``pure-`` + budget.
    PERSONALITIES = ("fast", "strong", "search", "pure")

    def __init__(self, seed: int | str = 0, personality: str | None = None,
                 iterations: int | None = None, milliseconds: float | None = None,
                 playouts: str | None = "auto", opponents: str = "auto"):
        super().__init__(seed, personality)
        if personality and personality.startswith("pure"):
            playouts = "random"
            personality = personality.removeprefix("pure").lstrip("-") or None
        elif personality and personality.startswith(("model", "search")):
            opponents = "model" if personality.startswith("model") else "search"
            personality = personality.removeprefix(opponents).lstrip("-") or None
        if iterations is None and milliseconds is None:
            iterations, milliseconds = self.parse_budget(personality)
        if iterations is not None and iterations < 1:
            raise ValueError("an ISMCTS budget needs at least 1 iteration")
        if milliseconds is not None and milliseconds <= 0:
            raise ValueError("an ISMCTS time budget must be positive")
        self.iterations = iterations
        self.milliseconds = milliseconds
        #: Who plays the playouts: "auto" (the game's own bot if it has one, else random
        #: moves), "random", or a bot spec.
        self.playouts = playouts
        if opponents not in ("auto", "model", "search"):
            raise ValueError(f"opponents is 'model' or 'search', not {opponents!r}")
        #: How the others move inside the tree: "model" (as the playout bot would,
        #: from their own views, at random as often as the game's reader judges
        #: them erratic; needs a playout bot) or "search" (UCB for each seat, on the
        #: sample). "auto": model where the game has a playout bot, else search.
        self.opponents = opponents
        self._mode = "search"
        self._playout_spec: dict[str, str | None] = {}
        self._players: list[Bot] = []
        self._prior: dict[str, float] = {}
        self._erratic: dict[int, float] = {}
        #: Decisions taken at random because no determinisation was possible.
        self.fallbacks = 0
        #: Iterations run by the last decision, and its own options' (visits, win
        #: rate) at the root (for tests and reports).
        self.last_iterations = 0
        self.last_stats: dict[str, tuple[int, float]] = {}

    # -- budgets ------------------------------------------------------------------
    @classmethod
    def accepts(cls, personality: str) -> bool:
        return bool(re.fullmatch(r"((pure|model|search)-?)?([1-9]\d*(ms)?|fast|strong)?", personality))

    @classmethod
    def parse_budget(cls, personality: str | None) -> tuple[int | None, float | None]:
        if not personality:
            return None, DEFAULT_MILLISECONDS
        if personality in cls.BUDGETS:
            return cls.BUDGETS[personality], None
        if personality.endswith("ms") and cls.accepts(personality):
            return None, float(personality[:-2])
        if cls.accepts(personality):
            return int(personality), None
        raise ValueError(f"not an ISMCTS budget: {personality!r} (fast, strong, <N> or <N>ms)")

    # -- deciding -------------------------------------------------------------------
    def choose(self, view: SeatView) -> str:
        started = time.perf_counter()
        self.last_iterations = 0
        if len(view.options) == 1:
            return view.options[0]
        sampler = getattr(view.game.binding, "determinize", None)
        if sampler is None:
            self.fallbacks += 1
            return self.rng.choice(view.options)
        root = _Node()
        offered = set(view.options)
        reader = getattr(view.game.binding, "reads", None)
        reads = reader(view.observation) if reader else {}
        seats = range(len(view.observation.get("players", ())))
        self._erratic = {seat: STEADY + (1 - STEADY) * reads[seat] if seat in reads else UNPREDICTABLE
                         for seat in seats if seat != view.seat}
        beliefs = {"reads": reads} if reads else {}
        spec = self.playout_spec(view.game.id)
        self._mode = "model" if spec and self.opponents in ("auto", "model") else "search"
        if spec is not None:
            from . import make  # noqa: PLC0415 - the registry imports this module

            self._players = [make(spec, seed=self.rng.getrandbits(32))
                             for _ in view.observation.get("players", ())]
            self._prior = self._guide(view, spec)
        else:
            self._prior = {}
        deadline = started + self.milliseconds / 1000 if self.milliseconds else None
        done = failures = 0
        searching = time.perf_counter()
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done:
                now = time.perf_counter()
                if now + (now - searching) / done >= deadline:  # the next iteration would overrun
                    break
            match = sampler(view.game, view.observation, view.seat, self.rng, **beliefs)
            if match is None or set(match.legal(view.seat)) != offered:
                failures += 1
                if failures >= 3 and failures > done:  # the sampler cannot rebuild this observation
                    break
                continue
            try:
                self._iterate(root, match, view.seat)
            except EngineError:  # a sample the rules cannot play on (a private fact it could not guess)
                failures += 1
                if failures >= 3 and failures > done:
                    break
                continue
            done += 1
        self.last_iterations = done
        self.last_stats = {option: (node.visits, round(node.wins / max(node.visits, 1), 2))
                      for (seat, option), node in root.children.items() if seat == view.seat}
        mine = [(node.visits, node.wins, option) for (seat, option), node in root.children.items()
                if seat == view.seat and option in offered]
        if not mine:
            self.fallbacks += 1
            return self.rng.choice(view.options)
        best = max(mine)
        if best[1] == 0 and not self._prior:
            # no playout won (Hanabi's random playouts never finish a show): the search has no
            # preference among the options it visited most, so take one at random, not the last by name
            tied = sorted(option for visits, wins, option in mine if visits == best[0])
            return tied[self.rng.randrange(len(tied))]
        return best[2]

    def _puct(self, root: _Node, keys: list[tuple[int, str]]) -> tuple[int, str]:
        """PUCT at the root: value plus a bonus for what the guide would play."""
        total = sum(child.visits for child in root.children.values())
        mean = (sum(child.wins for child in root.children.values()) / total) if total else 0.5
        bonus = PUCT * math.sqrt(total + 1)
        best, best_score = keys[0], -1.0
        for key in keys:
            child = root.children.get(key)
            visits = child.visits if child else 0
            value = child.wins / visits if visits else mean
            score = value + bonus * self._prior.get(key[1], 0.0) / (1 + visits)
            if score > best_score:
                best, best_score = key, score
        return best

    def _guide(self, view: SeatView, spec: str) -> dict[str, float]:
        """Root priors from the playout bot: what it would play here, mixed with uniform."""
        from . import make  # noqa: PLC0415

        votes: dict[str, int] = {}
        for _ in range(GUIDE_VOTES):
            option = make(spec, seed=self.rng.getrandbits(32)).choose(view)
            votes[option] = votes.get(option, 0) + 1
        uniform = (1 - GUIDE_WEIGHT) / len(view.options)
        return {option: uniform + GUIDE_WEIGHT * votes.get(option, 0) / GUIDE_VOTES for option in view.options}

    def playout_spec(self, game_id: str) -> str | None:
        """The bot that plays this game's playouts (``None``: random moves)."""
        if game_id not in self._playout_spec:
            from . import REGISTRY  # noqa: PLC0415

            spec = None
            if self.playouts == "auto":
                spec = next((kind for kind, (_, _, games) in REGISTRY.items()
                             if games and game_id in games and kind != self.kind), None)
            elif self.playouts not in (None, "random"):
                spec = self.playouts
            self._playout_spec[game_id] = spec
        return self._playout_spec[game_id]

    def _iterate(self, root: _Node, match: Any, me: int) -> None:
        """One iteration; if the rules refuse the sample on the way, the nodes it added are taken back."""
        grown: list[tuple[_Node, tuple[int, str]]] = []
        try:
            self._descend(root, match, me, grown)
        except EngineError:
            for parent, key in grown:
                parent.children.pop(key, None)
            raise

    def _descend(self, root: _Node, match: Any, me: int, grown: list) -> None:
        rng = self.rng
        players = self._players if self._playout_spec.get(match.game.id) else None
        modelled = players is not None and self._mode == "model"
        node = root
        path = [root]
        # Selection and expansion. The root decision is ours. Below it, in "search"
        # mode every seat's move is a tree node chosen by UCB for that seat (the
        # first pending seat moves: simultaneous windows are answered in seat
        # order); in "model" mode the others play as the playout bot would, from
        # their own views, and only our moves branch the tree.
        while not match.over:
            pending = match.pending
            seat = me if node is root else pending[0]
            if modelled and seat != me:
                if me in pending:
                    seat = me
                else:
                    seat = pending[0] if len(pending) == 1 else pending[rng.randrange(len(pending))]
                    options = match.decision.offers[seat]
                    if len(options) == 1:
                        option = options[0]
                    elif rng.random() < self._erratic.get(seat, UNPREDICTABLE):
                        option = options[rng.randrange(len(options))]
                    else:
                        player = players[seat]
                        option = player.choose(seat_view(match.game, seat, match.observe(
                            seat, log=player.reads_log, brief=player.brief), tuple(options)))
                    match.choose(seat, option)
                    continue
            keys = [(seat, option) for option in match.legal(seat)]
            children = node.children
            if node is root and self._prior:
                key = self._puct(root, keys)
                child = children.get(key)
                if child is None:
                    child = children[key] = _Node(seat)
                    grown.append((node, key))
                    match.choose(seat, key[1])
                    path.append(child)
                    break
                node = child
                match.choose(seat, key[1])
                path.append(node)
                continue
            untried = []
            for key in keys:
                child = children.get(key)
                if child is None:
                    untried.append(key)
                else:
                    child.avail += 1
            if untried:
                key = untried[rng.randrange(len(untried))]
                child = children[key] = _Node(seat)
                grown.append((node, key))
                child.avail = 1
                match.choose(seat, key[1])
                path.append(child)
                break
            best, best_score = None, -1.0
            for key in keys:
                child = children[key]
                score = child.wins / child.visits + EXPLORATION * math.sqrt(math.log(child.avail) / child.visits)
                if score > best_score:
                    best, best_score = key, score
            assert best is not None
            node = children[best]
            match.choose(seat, best[1])
            path.append(node)
        winners = set(playout(match, rng, players, me=me, erratic=self._erratic))
        for visited in path:
            visited.visits += 1
            if visited.seat is not None and visited.seat in winners:
                visited.wins += 1.0


def playout(match: Any, rng: Any, players: list[Bot] | None = None, limit: int = PLAYOUT_LIMIT,
            me: int | None = None, erratic: dict[int, float] | None = None) -> list[int]:
    """Play to the end, by random legal moves or by ``players`` (one bot per seat,
    each given only its seat's view; seats other than ``me`` move at random with
    the probability ``erratic`` gives them); the winners (none if the limit is hit)."""
    erratic = erratic or {}
    made = 0
    draw, pick = rng.random, rng.randrange
    while not match.over:
        decision = match.decision
        pending = decision.pending
        seat = pending[0] if len(pending) == 1 else pending[pick(len(pending))]
        options = decision.offers[seat]
        if players is None or len(options) == 1 or (seat != me and draw() < erratic.get(seat, UNPREDICTABLE)):
            option = options[pick(len(options))]
        else:
            player = players[seat]
            option = player.choose(seat_view(match.game, seat, match.observe(
                seat, log=player.reads_log, brief=player.brief), tuple(options)))
        match.choose(seat, option)
        made += 1
        if made >= limit:
            return []
    return list(match.winners)
