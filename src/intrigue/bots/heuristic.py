"""A Coup bot that plays like a sensible human.

It counts cards from what its seat sees (every face-up influence, its own hand,
the cards it drew mid-Exchange) and never claims a character whose copies are
all visible to it. It claims what it holds, bluffs now and then, challenges
claims it can prove impossible and, rarely, claims that are merely unlikely,
blocks when it holds the blocker or when losing would cost its last influence,
and aims Coups, Assassinations and Steals at the leader. A personality sets how
often it bluffs and challenges; ``docs/bots.md`` gives the measured rates.

It knows the variants (``games/coup/variants.py``). With the Inquisitor it
Examines the leader when it holds the Inquisitor and forces away a strong card;
as the target it shows its least valuable card (the engine asks even when both
cards are the same, so its answer tells the table nothing). With the Reformation
it attacks only where the allegiance restriction allows, Embezzles a rich reserve
when it holds no Duke, challenges an Embezzle by a likely Duke holder, and
Converts when an opponent near a Coup can reach it and a flip of its own side
(or someone else's, for 2 coins) spreads the table's fire: most often by putting
every living player on one side, so that the restriction no longer applies.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from math import comb
from typing import Any

from ..games.coup import variants
from ..games.coup.board import court
from ..games.coup.variants import NO_DUKE
from .base import Bot, SeatView

#: What a card in hand is worth: the income it earns, the attacks it allows, the defence it gives.
VALUE = {"Duke": 5.0, "Captain": 4.0, "Assassin": 4.0, "Contessa": 3.5, "Ambassador": 2.5, "Inquisitor": 3.0}
#: A conversion is worth its coins when it cuts the fire drawn by at least this share,
#: and only while an opponent that may target it has ``THREAT`` coins (a Coup is near).
CONVERT_GAIN = 0.4
THREAT = 6
#: A second copy of a character is worth this share of the first.
DUPLICATE = 0.4
#: How often a player without the character is assumed to claim it anyway.
BLUFF_PRIOR = 0.15
#: Phases in which the turn's claim stands unchallenged (so it is news about the claimant).
CLAIM_PHASES = {4, 10, 11, 12, 13}
#: A challenge window's options.
_CHALLENGE_OR_PASS = {"Challenge", "Pass"}
#: The characters that block a Steal (in any variant).
_STEAL_BLOCKERS = frozenset({"Captain", "Ambassador", "Inquisitor"})
#: What a player nobody has heard claim anything has claimed.
_NOTHING: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Style:
    """How a personality plays; probabilities apply where the move would be a bluff or a doubt."""

    bluff: float          # a bluffed action on a turn where no honest claim suits
    block_bluff: float    # a bluffed block when the block would save coins or an influence
    doubt: float          # scales the chance of challenging a possible (not impossible) claim
    sure: float           # challenge outright when the odds of a bluff (times the stakes) reach this
    last_stand: bool      # bluff a Contessa rather than lose the last influence


STYLES = {
    None: Style(bluff=0.12, block_bluff=0.15, doubt=0.45, sure=0.6, last_stand=True),
    "cautious": Style(bluff=0.06, block_bluff=0.08, doubt=0.2, sure=0.75, last_stand=True),
    "bold": Style(bluff=0.25, block_bluff=0.30, doubt=0.8, sure=0.5, last_stand=True),
    "honest": Style(bluff=0.0, block_bluff=0.0, doubt=0.2, sure=0.6, last_stand=False),
}


class CoupHeuristic(Bot):
    kind = "heuristic"
    reads_log = False  # the table and its own memory of claims only
    brief = True  # its Table reads the version, the players, the phase and the state
    PERSONALITIES = ("cautious", "bold", "honest")

    def __init__(self, seed: int | str = 0, personality: str | None = None):
        super().__init__(seed, personality)
        if personality not in STYLES:
            raise ValueError(f"no heuristic personality {personality!r} (known: {', '.join(self.PERSONALITIES)})")
        self.style = STYLES[personality]
        self._claims: dict[str, set[str]] = {}
        self._denied: dict[str, set[str]] = {}
        self._version = -1
        self._table: tuple[str, ...] = ()
        self._seen: dict[str, str] = {}  # a card a target showed this bot (Examine), until it is shuffled away

    # -- what this seat knows -------------------------------------------------------
    def choose(self, view: SeatView) -> str:
        if len(view.options) == 1:
            return view.options[0]
        if view.game.id != "coup":  # made for Coup; elsewhere it is the baseline
            return self.rng.choice(view.options)
        table = Table(view)
        self._remember(table)
        options = view.options
        first = options[0]
        if "Income" in options or first.startswith("Coup "):
            choice = self._act(table)
        elif ("Challenge" in options and "Pass" in options) if len(options) == 2 \
                else set(options) == _CHALLENGE_OR_PASS:  # set(options) == {"Challenge", "Pass"}
            choice = self._challenge(table)
        elif any(option.startswith("Block ") for option in options):
            choice = self._block(table)
        elif first.startswith("Lose "):
            choice = "Lose " + min((o.removeprefix("Lose ") for o in options), key=lambda c: VALUE[c])
        elif first.startswith("Keep "):
            choice = max(options, key=lambda o: hand_value(o.removeprefix("Keep ").split(", ")))
        elif first.startswith("Show "):  # examined: the card it minds least being forced away
            choice = min(options, key=lambda o: VALUE[o.removeprefix("Show ")])
        elif "Force Exchange" in options:
            choice = self._examined(table)
        elif first in variants.ALLEGIANCES:
            choice = self.rng.choice(options)
        else:
            choice = first
        return choice if choice in options else self.rng.choice(options)

    def _remember(self, table: "Table") -> None:
        if table.version < self._version or table.names != self._table:  # a new match
            self._claims = {}
            self._denied = {}
            self._seen = {}
        self._version, self._table = table.version, table.names
        if table.phase in CLAIM_PHASES and table.claim and table.actor is not None:
            who = table.names[table.actor]
            if table.action in ("Exchange", "Embezzle"):  # an Exchange (or a proof) reshuffles what they hold
                self._claims[who] = set()
                self._denied[who] = set()
                self._seen.pop(who, None)
            known = self._denied if table.claim == NO_DUKE else self._claims
            cards = known.get(who)
            if cards is None:
                cards = known[who] = set()
            cards.add("Duke" if table.claim == NO_DUKE else table.claim)
        if table.examined and table.examined.get("character") and table.actor == table.seat:
            self._seen[table.examined["player"]] = table.examined["character"]
        if self._seen:
            for who in list(self._seen):  # a card lost or proven is no longer known to be there
                seat = table.names.index(who)
                if self._seen[who] not in table.hidden_possible(seat):
                    self._seen.pop(who)
        if table.phase == 10 and table.actor is not None:  # Foreign Aid: why not Tax, if you had the Duke?
            self._denied.setdefault(table.names[table.actor], set()).add("Duke")
        if table.phase == 13 and table.block_claim and table.blocker is not None:
            self._claims.setdefault(table.names[table.blocker], set()).add(table.block_claim)

    def claimed(self, table: "Table", seat: int) -> set[str] | frozenset[str]:
        """What ``seat`` has claimed (read only)."""
        return self._claims.get(table.names[seat], _NOTHING)

    # -- my turn ------------------------------------------------------------------------
    def _act(self, table: "Table") -> str:
        options = set(table.options)
        coins, mine = table.coins(table.seat), set(table.hand)
        opponents = table.aims  # those the allegiance restriction lets it attack
        leader = self._leader(table, opponents)
        if f"Coup {table.names[leader]}" in options and (coins >= 7 or "Income" not in options):
            return f"Coup {table.names[leader]}"
        conversion = self._conversion(table)
        if conversion is not None:
            return conversion
        victim = self._assassination_target(table, opponents)
        if "Assassin" in mine and coins >= 3:
            return f"Assassinate {table.names[victim]}"
        if "Embezzle" in options and table.reserve >= 4 and "Duke" not in mine:
            return "Embezzle"
        if "Duke" in mine:
            return "Tax"
        if "Embezzle" in options and table.reserve >= 2 and "Duke" not in mine:
            return "Embezzle"
        richest = self._steal_target(table, opponents)
        if "Captain" in mine and richest is not None:
            return f"Steal {table.names[richest]}"
        examine = f"Examine {table.names[leader]}"
        if "Inquisitor" in mine and examine in options and table.names[leader] not in self._seen:
            return examine
        if table.fifth in mine and not mine & {"Duke", "Assassin", "Captain"}:
            return "Exchange"
        if self.rng.random() < self.style.bluff:
            bluffs = [("Tax", 3.0)]
            if richest is not None:
                bluffs.append((f"Steal {table.names[richest]}", 2.0))
            if coins >= 3:
                bluffs.append((f"Assassinate {table.names[victim]}", 1.0 if self.personality == "bold" else 0.5))
            bluffs.append(("Exchange", 0.5))
            bluffs = [(o, w) for o, w in bluffs if o in options and table.may_claim(table.claims[o.split(" ")[0]])]
            if bluffs:
                return self.rng.choices([o for o, _ in bluffs], weights=[w for _, w in bluffs])[0]
        if any("Duke" in self.claimed(table, o) for o in table.opponents if table.may_block_aid(o)):
            return "Income"
        return "Foreign Aid"

    def _conversion(self, table: "Table") -> str | None:
        """A Convert when this seat draws the fire of the table and a flip spreads it."""
        if not table.reformation or table.coins(table.seat) >= 7:
            return None
        if not any(table.coins(o) >= THREAT for o in table.opponents if table.may_target(o, table.seat)):
            return None  # nobody close to a Coup can reach it: a turn is worth more than a flip
        now = table.fire(table.sides)
        if now <= 0:
            return None
        best, gain = None, 0.0
        for option in table.options:
            if not option.startswith("Convert"):
                continue
            who = table.names.index(option.removeprefix("Convert ")) if option != "Convert" else table.seat
            if option != "Convert" and table.coins(table.seat) < 4:
                continue  # 2 coins are a lot to spend on another's side
            sides = list(table.sides)
            sides[who] = variants.opposite(sides[who])
            cut = (now - table.fire(sides)) / now
            if cut > gain:
                best, gain = option, cut
        return best if gain >= CONVERT_GAIN else None

    def _leader(self, table: "Table", seats: list[int]) -> int:
        """The most dangerous opponent: most influence, then most coins (ties at random).

        ``max`` by (influence, coins + 3 if a Coup is affordable, a random draw), written out:
        asked several times per turn in a search's playouts."""
        if not seats:
            raise ValueError("no seat to choose a leader from")
        draw = self.rng.random
        players, influences = table.players, table.influences
        best, best_key = seats[0], None
        for seat in seats:
            coins = players[seat]["coins"]
            key = (influences[seat], coins + 3 * (coins >= 7), draw())
            if best_key is None or key > best_key:
                best, best_key = seat, key
        return best

    def _assassination_target(self, table: "Table", seats: list[int]) -> int:
        claims = self._claims
        if claims:
            names = table.names
            unblocked = [s for s in seats if "Contessa" not in claims.get(names[s], _NOTHING)] or seats
        else:
            unblocked = seats
        return self._leader(table, unblocked)

    def _steal_target(self, table: "Table", seats: list[int]) -> int | None:
        """The richest opponent (2 coins or more) not known to block a Steal (ties: influence, then
        at random)."""
        claims, names, players = self._claims, table.names, table.players
        rich = [s for s in seats if players[s]["coins"] >= 2
                and (not claims or claims.get(names[s], _NOTHING).isdisjoint(_STEAL_BLOCKERS))]
        if not rich:
            return None
        draw, influences = self.rng.random, table.influences
        best, best_key = rich[0], None
        for seat in rich:
            key = (players[seat]["coins"], influences[seat], draw())
            if best_key is None or key > best_key:
                best, best_key = seat, key
        return best

    # -- doubting a claim -------------------------------------------------------------------
    def _challenge(self, table: "Table") -> str:
        blocking = table.phase == 13 and table.blocker is not None
        claimant = table.blocker if blocking else table.actor
        character = table.block_claim if blocking else table.claim
        if claimant is None or not character:
            return "Pass"
        if character == NO_DUKE:
            return self._doubt_embezzle(table, claimant)
        known = self._seen.get(table.names[claimant])
        if known == character:
            return "Pass"  # it showed me that very card
        if not table.possible(character):
            return "Challenge"  # every copy is in sight: the claim is a lie
        me = table.seat
        mine = set(table.hand)
        stakes = 0.3
        if blocking:
            if table.actor == me:  # my own action is being blocked
                stakes = 1.0 if table.action == "Assassinate" else 0.6
        else:
            if table.target == me and table.action == "Assassinate":
                if "Contessa" in mine or (self.style.last_stand and table.may_claim("Contessa")):
                    return "Pass"  # blocking is the better answer
                stakes = 3.0 if table.influence(me) == 1 else 1.2
            elif table.target == me and table.action == "Steal":
                if mine & {"Captain", "Ambassador"}:
                    return "Pass"
                stakes = 0.8 if table.coins(me) >= 2 else 0.2
            elif table.action == "Tax":
                stakes = 0.9 if table.coins(claimant) >= 4 else 0.5
        if table.influence(me) == 1 and stakes < 3.0:
            stakes *= 0.4  # a wrong challenge would end my game
        doubt = table.bluff_odds(claimant, character)
        if len(self.claimed(table, claimant) - {character}) >= 2:
            doubt = min(1.0, doubt + 0.3)  # three different characters from two cards
        if character in self._denied.get(table.names[claimant], ()):
            doubt = max(doubt, 0.7)  # they acted as if they had none
        if doubt * min(stakes, 1.5) >= self.style.sure:
            return "Challenge"
        chance = self.style.doubt * stakes * doubt ** 2
        return "Challenge" if self.rng.random() < chance else "Pass"

    def _doubt_embezzle(self, table: "Table", claimant: int) -> str:
        """Embezzle claims no Duke: challenge a likely Duke holder when the reserve is worth it."""
        if self._seen.get(table.names[claimant]) == "Duke":
            return "Challenge"
        if not table.possible("Duke"):
            return "Pass"
        holds = table.chance_holds(claimant, "Duke")
        if "Duke" in self.claimed(table, claimant):
            holds = max(holds, 0.75)
        stakes = min(1.5, table.reserve / 3)
        if table.influence(table.seat) == 1:
            stakes *= 0.4
        if holds * stakes >= self.style.sure:
            return "Challenge"
        return "Challenge" if self.rng.random() < self.style.doubt * stakes * holds ** 2 else "Pass"

    # -- examining -------------------------------------------------------------------------------
    def _examined(self, table: "Table") -> str:
        """Force away a card that serves its holder well; let a weak one stay (and remember it)."""
        shown = (table.examined or {}).get("character")
        if shown is None:
            return "Return"
        if VALUE[shown] >= 4.0 or (shown == "Contessa" and "Assassin" in table.hand):
            self._seen.pop((table.examined or {}).get("player", ""), None)
            return "Force Exchange"
        return "Return"

    # -- blocking ------------------------------------------------------------------------------
    def _block(self, table: "Table") -> str:
        options = table.options
        mine = set(table.hand)
        for option in options:
            if option.startswith("Block ") and option.removeprefix("Block ") in mine:
                return option
        blocks = [o for o in options if o.startswith("Block ") and table.may_claim(o.removeprefix("Block "))]
        if not blocks:
            return "Pass"
        me = table.seat
        if table.action == "Assassinate":
            if table.influence(me) == 1:
                return blocks[0] if self.style.last_stand else "Pass"
            return blocks[0] if self.rng.random() < self.style.block_bluff * 0.4 else "Pass"
        if table.action == "Steal":
            if table.coins(me) == 0:
                return "Pass"
            return self.rng.choice(blocks) if self.rng.random() < self.style.block_bluff else "Pass"
        # Foreign Aid: worth a bluffed Duke only against someone close to a Coup.
        near = table.actor is not None and table.coins(table.actor) >= 5
        return blocks[0] if near and self.rng.random() < self.style.block_bluff * 0.5 else "Pass"


#: (fifth character option, Reformation, players, official two-player set-up) -> (fifth character,
#: Reformation, what each action claims, the copies of each character in play, their sum).
_KINDS: dict[tuple[Any, bool, int, bool], tuple[str, bool, dict[str, str], Counter, int]] = {}
_NO_VARIANT: dict[str, Any] = {}


def _kind(variant: dict[str, Any], players: int, official: bool) -> tuple[str, bool, dict[str, str], Counter, int]:
    """What a table of this variant and size always is (the official two-player set-up plays 3 sets,
    not the full court)."""
    copies = Counter({c: 3 for c in variants.characters(variant)}) if official else Counter(court(players, variant))
    return (variants.fifth(variant), bool(variant.get("reformation")), variants.claims(variant), copies,
            sum(copies.values()))


class Table:
    """The public table and this seat's hand, read from its observation."""

    def __init__(self, view: SeatView):
        """Read once per decision (a search's playouts ask for thousands a second): one pass over
        the players for the cards in sight and each seat's influence, no per-seat lookups later."""
        obs = view.observation
        state = obs["state"]
        self.seat = seat = view.seat
        self.options = view.options
        self.names = names = tuple(obs["players"])
        self.version = obs["version"]
        self.phase = obs["phase"]["id"]
        self.players = players = state["players"]
        active, target, blocker = state.get("active"), state.get("target"), state.get("blocker")
        self.actor = names.index(active) if active else None
        self.target = names.index(target) if target else None
        self.blocker = names.index(blocker) if blocker else None
        self.action = state.get("action")
        self.claim = state.get("claim")
        self.block_claim = state.get("block_claim")
        variant = state.get("variant") or _NO_VARIANT
        official = bool(state.get("set_aside_size"))
        key = (variant.get("characters"), bool(variant.get("reformation")), len(names), official)
        kind = _KINDS.get(key)
        if kind is None:
            kind = _KINDS[key] = _kind(variant, len(names), official)
        #: ``claims``: what each action claims; ``copies``: the copies of each character in play.
        #: Both shared by every table of the same kind, read only.
        self.fifth, self.reformation, self.claims, self.copies, total = kind
        self.sides = [p.get("allegiance") or "" for p in players] if key[1] else [""] * len(players)
        self.reserve = state.get("reserve") or 0
        self.examined = state.get("examined")
        #: How many copies of each character this seat sees (face up, its own hand, drawn, set aside).
        visible: dict[str, int] = {}
        self.visible = visible
        #: How many face-down cards each seat holds.
        self.influences = influences = []
        seen = 0
        for p in players:
            hidden = 0
            for card in p["influences"]:
                character = card["character"]
                if character:
                    visible[character] = visible.get(character, 0) + 1
                    seen += 1
                if not card["revealed"]:
                    hidden += 1
            influences.append(hidden)
        self.hand = [s["character"] for s in players[seat]["influences"] if not s["revealed"]]
        drawn, aside = state.get("exchange_drawn"), state.get("set_aside")
        if drawn or aside:
            for cards in (drawn or (), *(aside or {}).values()):
                for character in cards:  # drawn mid-Exchange; my own set-aside cards, out of play
                    visible[character] = visible.get(character, 0) + 1
                    seen += 1
        self.unseen = total - seen
        self._opponents: list[int] | None = None

    @property
    def opponents(self) -> list[int]:
        """The living seats but this one (made once per table; read only)."""
        found = self._opponents
        if found is None:
            seat = self.seat
            found = self._opponents = [s for s, p in enumerate(self.players) if p["alive"] and s != seat]
        return found

    def may_target(self, seat: int, victim: int, sides: list[str] | None = None) -> bool:
        """The Reformation's restriction (and its exception) as this seat sees the table."""
        sides = self.sides if sides is None else sides
        if not self.reformation:
            return True
        living = {sides[s] for s, p in enumerate(self.players) if p["alive"]}
        return len(living) <= 1 or sides[seat] != sides[victim]

    @property
    def aims(self) -> list[int]:
        """The opponents it may Coup, Assassinate, Steal from or Examine (never empty; read only)."""
        if not self.reformation:
            return self.opponents
        return [s for s in self.opponents if self.may_target(self.seat, s)] or self.opponents

    def may_block_aid(self, seat: int) -> bool:
        return self.may_target(seat, self.seat)

    def fire(self, sides: list[str]) -> float:
        """How much of the table's threat would fall on this seat with these sides: each
        opponent that may target it, weighted by its coins, shared among its possible targets."""
        total = 0.0
        for o in self.opponents:
            if not self.may_target(o, self.seat, sides):
                continue
            targets = sum(1 for t, p in enumerate(self.players) if p["alive"] and t != o
                          and self.may_target(o, t, sides))
            threat = 1.0 + self.coins(o) / 3 + (3.0 if self.coins(o) >= 7 else 0.0)
            total += threat / max(1, targets)
        return total

    def hidden_possible(self, seat: int) -> set[str]:
        """Characters that may still be among ``seat``'s face-down cards (any, if it has one)."""
        return set(self.copies) if self.influence(seat) else set()

    def coins(self, seat: int) -> int:
        return self.players[seat]["coins"]

    def influence(self, seat: int) -> int:
        return self.influences[seat]

    def possible(self, character: str) -> bool:
        """Whether someone else could hold ``character``: not every copy is in sight."""
        return self.visible.get(character, 0) < self.copies[character]

    def may_claim(self, character: str) -> bool:
        """A bluff on ``character`` is believable only if some copy is out of my sight."""
        return character in self.copies and self.possible(character)

    def chance_holds(self, seat: int, character: str) -> float:
        """P(``seat`` holds ``character``) if the unseen cards were dealt at random."""
        hidden = self.influence(seat)
        left = self.copies[character] - self.visible.get(character, 0)
        if left <= 0 or hidden == 0:
            return 0.0
        if self.unseen < hidden:
            return 1.0
        return 1.0 - comb(self.unseen - left, hidden) / comb(self.unseen, hidden)

    def bluff_odds(self, seat: int, character: str, propensity: float = BLUFF_PRIOR) -> float:
        """P(a claim of ``character`` by ``seat`` is a bluff), by Bayes.

        A player who holds the character claims it; one who does not bluffs it
        with probability ``propensity``. Few unseen copies make a bluff likely.
        """
        holds = self.chance_holds(seat, character)
        bluffing = (1.0 - holds) * propensity
        return bluffing / (bluffing + holds) if bluffing + holds else 1.0


def hand_value(cards: list[str]) -> float:
    seen: Counter = Counter()
    total = 0.0
    for card in sorted(cards, key=lambda c: -VALUE[c]):
        total += VALUE[card] * (DUPLICATE if seen[card] else 1.0)
        seen[card] += 1
    return total


__all__ = ["CoupHeuristic", "STYLES", "Style", "Table", "hand_value"]
