"""The floor: a minimal hand-written Coup random-play loop with the same rules.

No DSL, no phases, no views: the fastest honest Python for the same game, to
compare the engine against (``make bench``). It offers the same choices as the
engine (one decision per answer in a window, a loss choice only between two
different cards, Exchange keeps as multisets) and counts a decision wherever the
engine would ask a player with two or more options.
"""

from __future__ import annotations

import random
from itertools import combinations

CHARACTERS = ("Duke", "Assassin", "Ambassador", "Captain", "Contessa")
CLAIMS = {"Tax": "Duke", "Assassinate": "Assassin", "Steal": "Captain", "Exchange": "Ambassador"}
BLOCKS = {"Foreign Aid": ("Duke",), "Assassinate": ("Contessa",), "Steal": ("Ambassador", "Captain")}


class Floor:
    def __init__(self, players: int, seed: int):
        self.rng = random.Random(seed)
        copies = 3 if players <= 6 else 4 if players <= 8 else 5
        self.deck = [c for c in CHARACTERS for _ in range(copies)]
        self.rng.shuffle(self.deck)
        self.hands = [[self.deck.pop(), self.deck.pop()] for _ in range(players)]
        self.coins = [2] * players
        self.turn = self.rng.randrange(players)
        if players == 2:
            self.coins[self.turn] = 1
        self.decisions = 0

    def pick(self, options: list) -> object:
        if len(options) > 1:
            self.decisions += 1
        return self.rng.choice(options)

    def alive(self) -> list[int]:
        return [p for p, hand in enumerate(self.hands) if hand]

    def lose(self, player: int) -> None:
        hand = self.hands[player]
        if not hand:
            return
        card = self.pick(sorted(set(hand)))
        hand.remove(card)
        if not hand:
            self.coins[player] = 0

    def window(self, eligible: list[int], options: list[str], closing: set[str]) -> tuple[int, str] | None:
        """Simultaneous window: random pending players answer until one closes it."""
        pending = list(eligible)
        while pending:
            player = self.rng.choice(pending) if len(pending) > 1 else pending[0]
            answer = self.pick(options)
            if answer in closing:
                return player, answer
            pending.remove(player)
        return None

    def challenge(self, claimant: int, character: str, challengers: list[int]) -> bool:
        """True if the claim stands."""
        found = self.window([p for p in challengers if self.hands[p]], ["Challenge", "Pass"], {"Challenge"})
        if found is None:
            return True
        challenger = found[0]
        hand = self.hands[claimant]
        if character in hand:
            hand.remove(character)
            self.deck.append(character)
            self.rng.shuffle(self.deck)
            hand.append(self.deck.pop(0))
            self.lose(challenger)
            return True
        self.lose(claimant)
        return False

    def play_turn(self) -> None:
        me = self.turn
        alive = self.alive()
        opponents = [p for p in alive if p != me]
        coins = self.coins[me]
        actions: list[tuple[str, int | None]] = []
        if coins >= 10:
            actions = [("Coup", o) for o in opponents]
        else:
            actions = [("Income", None), ("Foreign Aid", None), ("Tax", None), ("Exchange", None)]
            actions += [("Steal", o) for o in opponents]
            if coins >= 3:
                actions += [("Assassinate", o) for o in opponents]
            if coins >= 7:
                actions += [("Coup", o) for o in opponents]
        action, target = self.pick(actions)
        if action == "Coup":
            self.coins[me] -= 7
            self.lose(target)
            return
        if action == "Assassinate":
            self.coins[me] -= 3
        if action in CLAIMS and not self.challenge(me, CLAIMS[action], opponents):
            if action == "Assassinate" and self.hands[me]:
                self.coins[me] += 3
            return
        if action in BLOCKS:
            blockers = opponents if action == "Foreign Aid" else [target]
            blockers = [p for p in blockers if self.hands[p]]
            options = [f"Block {c}" for c in BLOCKS[action]] + ["Pass"]
            block = self.window(blockers, options, set(options[:-1]))
            if block is not None:
                blocker, answer = block
                others = [p for p in self.alive() if p != blocker]
                if self.challenge(blocker, answer.removeprefix("Block "), others):
                    return
        if not self.hands[me]:
            return
        if action == "Income":
            self.coins[me] += 1
        elif action == "Foreign Aid":
            self.coins[me] += 2
        elif action == "Tax":
            self.coins[me] += 3
        elif action == "Steal" and self.hands[target]:
            taken = min(2, self.coins[target])
            self.coins[target] -= taken
            self.coins[me] += taken
        elif action == "Assassinate":
            self.lose(target)
        elif action == "Exchange":
            drawn = [self.deck.pop(0), self.deck.pop(0)]
            pool = self.hands[me] + drawn
            keeps = sorted({tuple(sorted(c)) for c in combinations(pool, len(self.hands[me]))})
            kept = list(self.pick(keeps))
            for card in kept:
                pool.remove(card)
            self.hands[me] = kept
            self.deck.extend(pool)
            self.rng.shuffle(self.deck)

    def play(self) -> int:
        players = len(self.hands)
        while len(self.alive()) > 1:
            self.play_turn()
            for step in range(1, players + 1):
                nxt = (self.turn + step) % players
                if self.hands[nxt]:
                    self.turn = nxt
                    break
        return self.decisions


def run(games: int, players: int = 4, seed: int = 0) -> int:
    return sum(Floor(players, seed * 1_000_003 + i).play() for i in range(games))


if __name__ == "__main__":  # pragma: no cover
    import time

    start = time.perf_counter()
    decisions = run(2000)
    elapsed = time.perf_counter() - start
    print(f"floor: {decisions / elapsed:,.0f} decisions/s, {decisions / 2000:.1f} decisions per game")
