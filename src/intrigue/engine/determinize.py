"""A determinizer for games written in their DSL file alone (the declarative extension).

Search bots (``intrigue.bots.ismcts``) plan on complete matches consistent with
what one seat observes. In a declarative game a seat observes every player's
declared fields except those their ``visibility`` hides from it (and not shown
to it by a ``show`` statement); what hides them is the ``role_deal``. So a
sample keeps every visible field, deals the roles not accounted for at random
among the players whose role the seat cannot see (each consistent with the
role fields it can see: a visible ``team`` rules out a role of another team)
and gives each hidden role field the value its role sets.

The default observation shows player fields and the ``public_state`` names:
game-level names a sample cannot know start at their declared values, and turn
flags count their rounds from the player holding them now. A hidden player
field the role deal does not set (a secret answer kept with ``record``, a
player's private memory) starts at its starting value: the search does not
guess it, except dice: a hidden field a ``roll`` statement writes is rolled anew,
as that statement rolls it (Liar's Dice: the others' dice, as many as they hold). A field that is always public shows its value, null included. When
the seat's own options cannot be rebuilt the determinizer returns ``None`` (the
bot plays a random option).

A seat's own ``others`` fields (a hand held facing the table, Hanabi) are dealt
like cards (:class:`_Cards`): the cards it cannot see (a declared list of every
card, less every card it sees anywhere) are shuffled into its hand, as many as
the public count of it says, and the rest into the hidden pile the rules fill
from that list (the deck); a field kept beside the hand through a declared map
(each card's colour) follows the cards. What the seat sees never changes.

Otherwise the others' hidden lists (hands, bags, stacks) and the hidden game
lists (the deck, a card set aside) are dealt the same way (:class:`_Lists`),
each as many cards as its public count says: a sample whose opponents hold
nothing plays a different game. Hidden game names a ``roll`` draws with the
deal, and what the deal's phase derives from them or from the dealt role once
(the Chameleon's secret word and who the Chameleon is), are drawn again
(:class:`_Drawn`), agreeing with what the seat sees.

In a secret decision a seat does not know who has answered (``waiting`` lists
the whole cover): the sample has every other seat still to answer. In a joint
choice the partners' answers are in the observation and are kept.

The match is put at the observed decision directly (the phase entered, its
steps already run, its declared options offered again): re-entering the phase
would run its statements twice (an ``advance`` would pass the turn on). Seats
that already answered an open simultaneous decision are given a random option.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import TYPE_CHECKING, Any

from .restart import Plans
from .match import Match, copy_data
from .declarative import (_COMPILERS, OTHERS, SEEN, STARTED, UNSEEN_BY_OWNER, _compiled, player_rolls,
                          statements)
from .scope import Outcome, Scope

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game


def determinize(game: "Game", observation: dict[str, Any], seat: int, rng: random.Random,
                **beliefs: Any) -> Match | None:
    """A headless match at the decision ``seat`` observes, hidden roles dealt with ``rng``
    (``beliefs`` a search may pass, such as its reads of the opponents, are not used)."""
    plan = _plans.get(game, observation, seat)
    return plan.sample(rng) if plan is not None else None


class _Plan:
    """One observation, read once: the match before its decision and who may hold which role."""

    #: (owner, field, roll statement): the hidden dice a sample rolls anew.
    rerolled: list[tuple[int, str, Any]] = []
    #: The seat's own hand held facing the table, and the deck, dealt anew (``None``: not dealt).
    cards: "_Cards | None" = None
    #: The others' hidden lists and the hidden game lists, dealt anew (``None``: not dealt).
    lists: "_Lists | None" = None
    #: Hidden names drawn with the deal, drawn again (``None``: none).
    drawn: "_Drawn | None" = None

    def __init__(self, observation: dict[str, Any], base: Match, seat: int, unknown: list[int],
                 roles: list[str], field: str, role_fields: dict[str, dict[str, Any]],
                 visible: dict[int, dict[str, Any]], answered: list[int], template: dict[str, Any],
                 given: dict[int, str] | None = None):
        self.observation = observation
        self.base = base
        self.seat = seat
        self.unknown = unknown
        self.roles = roles
        self.field = field
        self.role_fields = role_fields
        self.visible = visible
        self.answered = answered
        self.template = template
        self.given = given or {}

    def fits(self, owner: int, role: str) -> bool:
        """Whether ``role`` agrees with the dealt fields the seat sees of ``owner`` (a field the role
        does not set has its starting value)."""
        seen = self.visible[owner]
        fields = self.role_fields[role]
        return all(value is None or fields.get(name, self.template.get(name)) == value
                   for name, value in seen.items())

    def deal(self, rng: random.Random) -> list[str] | None:
        """Roles for the unknown players, each agreeing with what the seat sees of them: the players
        with the fewest fitting roles are served first, each a random fitting role of those left."""
        fitting = {owner: {role for role in set(self.roles) if self.fits(owner, role)} for owner in self.unknown}
        order = sorted(self.unknown, key=lambda owner: len(fitting[owner]))
        for _ in range(64):
            left = list(self.roles)
            rng.shuffle(left)
            dealt: dict[int, str] = {}
            for owner in order:
                pick = next((i for i, role in enumerate(left) if role in fitting[owner]), None)
                if pick is None:
                    break
                dealt[owner] = left.pop(pick)
            else:
                return [dealt[owner] for owner in self.unknown]
        return None

    def sample(self, rng: random.Random) -> Match | None:
        roles = self.deal(rng)
        if roles is None:
            return None
        match = self.base.clone()
        match.rng.seed(rng.getrandbits(32))
        if self.cards is not None:
            self.cards.deal(match, self.seat, rng)
        if self.lists is not None and not self.lists.deal(match, rng):
            return None
        for owner, role in zip(self.unknown, roles):
            player = match.players[owner]
            fields = self.role_fields[role]
            for name in self.visible[owner]:
                if self.visible[owner][name] is None:
                    player[name] = copy_data(fields.get(name, self.template.get(name)))
            player[self.field] = role
        for owner, name, effect in self.rerolled:  # hidden dice: rolled again, as many as the statement rolls
            scope = match.scope(owner)
            sides = _compiled(effect.sides if effect.sides is not None else 6)(scope)
            if effect.dice is None:
                match.players[owner][name] = match.rng.randrange(sides) + 1
            else:
                dice = _compiled(effect.dice)(scope)
                match.players[owner][name] = [match.rng.randrange(sides) + 1 for _ in range(dice)]
        if self.drawn is not None and not self.drawn.draw(match, rng, self.observation):
            return None
        match._settle()  # noqa: SLF001 - opens the decision, as the engine does after the phase's steps
        decision = match.decision
        if decision is None:
            return None
        for other, answer in self.given.items():  # a partner's answer in a joint choice: as seen
            if answer not in decision.offers.get(other, ()) or other in decision.answers:
                return None
            decision.answers[other] = answer
        for other in self.answered:  # answers already given in the window are hidden: any will do
            options = decision.offers.get(other)
            if options is None or other in decision.answers:
                return None
            decision.answers[other] = options[rng.randrange(len(options))]
        if self.answered or self.given:
            match._settle()  # noqa: SLF001
        return match

    @classmethod
    def read(cls, game: "Game", observation: dict[str, Any], seat: int) -> "_Plan | None":
        shown = observation.get("decision")
        if observation.get("over") or not shown or seat is None or not shown.get("options"):
            return None
        declaration = game.definition.declaration
        deal = declaration.role_deal
        names = list(observation["players"])
        rows = observation["state"].get("players")
        phase_id = observation["phase"]["id"]
        plan = game.plans.get(phase_id)
        if plan is None or not plan.deciding or shown.get("phase") != phase_id or len(rows) != len(names):
            return None
        specs = declaration.player_states
        field = deal.field if deal is not None else None
        role_fields = {role: {field: role, **count.fields} for role, count in deal.roles.items()} if deal else {}
        dealt = {name for fields in role_fields.values() for name in fields}

        base = Match(game, names, 0, headless=True)
        template = dict(base.players[0])
        blank = base._new_player(0)  # noqa: SLF001 - the declared starting values (phase 0 may have set player 0's)
        visible: dict[int, dict[str, Any]] = {}
        unknown: list[int] = []
        rolls = {name: statements[0] for name, statements in player_rolls(game).items()}
        rerolled: list[tuple[int, str]] = []
        seen: list[list[Any]] = []
        for owner, row in enumerate(rows):
            player = base.players[owner]
            # a field that is always public shows its value, null included; any other null may be hidden
            hidden = [name for name in specs if name in row and row[name] is None
                      and (owner != seat or specs[name].visibility in UNSEEN_BY_OWNER)
                      and (name in dealt or not _public_always(specs[name].visibility))]
            visible[owner] = {name: row[name] for name in dealt if name in row}
            for name in specs:
                if name in row and name not in hidden:
                    player[name] = copy_data(row[name])
                elif name in hidden and name not in dealt:
                    player[name] = copy_data(blank.get(name))  # a private fact: not guessed
            player["name"], player["id"] = names[owner], row.get("id", owner + 1)
            if field in hidden:
                unknown.append(owner)
            elif any(name in dealt for name in hidden):  # the role is seen: the hidden fields are the ones it sets
                fields = role_fields.get(row.get(field) if owner != seat else player.get(field))
                if fields is None:
                    return None
                for name in hidden:
                    if name in dealt:
                        player[name] = copy_data(fields.get(name, template.get(name)))
            rerolled += [(owner, name) for name in hidden if name in rolls and name not in dealt]
            for name, spec in specs.items():  # what was shown to this seat stays shown (its own face-down card too)
                if owner != seat or spec.visibility in UNSEEN_BY_OWNER:
                    if row.get(name) is not None and not _public(spec.visibility, base, owner):
                        seen.append([seat, owner, name, copy_data(row.get(name))])

        roles: list[str] = []
        if unknown:
            counts = _composition(deal, len(names))
            counts.subtract(visible[owner][field] for owner in range(len(names)) if owner not in unknown)
            if min(counts.values(), default=0) < 0 or sum(counts.values()) != len(unknown):
                return None
            roles = sorted(counts.elements())

        state = copy_data(game.binding.state)
        for name, value in observation["state"].items():
            if name != "players":
                state[name] = copy_data(value)
        state[SEEN] = seen
        starts = {}
        for flag in _turn_flags(game):
            holder = next((s for s, player in enumerate(base.players) if player.get(flag)), None)
            if holder is not None:
                starts[flag] = holder
        if starts:
            state[STARTED] = starts
        base.state = state
        base.over = False
        base.winners = []
        base.decision = None
        base.last_decision = None
        base.version = observation["version"]
        base._enter(phase_id)  # noqa: SLF001 - the phase, its steps taken: only the decision remains
        base._resume = len(plan.steps)  # noqa: SLF001
        waiting = {names.index(name) for name in shown["waiting"]}
        given = {names.index(name): answer for name, answer in (shown.get("answers") or {}).items()
                 if names.index(name) != seat}
        answered = []
        if shown["kind"] == "all_players_action":
            answered = [s for s in base.targets if s not in waiting and s not in given]
        result = cls(observation, base, seat, unknown, roles, field or "", role_fields, visible, answered,
                     template, given)
        result.rerolled = [(owner, name, rolls[name]) for owner, name in rerolled]
        result.cards = _Cards.read(game, observation, seat)
        if result.cards is None:
            result.lists = _Lists.read(game, observation, seat, blank, base)
        result.drawn = _Drawn.read(game, observation, field)
        probe = result.sample(random.Random(0))
        if probe is None or set(probe.legal(seat)) != set(shown["options"]):
            return None
        return result


_plans = Plans(_Plan.read)


class _Cards:
    """The seat's own ``others`` fields dealt from the cards it cannot see.

    The cards are a declared game list some statement copies into a hidden game list (``set:
    game.deck to: cards``): that list is the deck. The unseen cards are that declared list less every
    card the seat sees (in any player's field, any public game list). Its own hand gets as many as
    the public count the rules keep of it (``set: players.hand_size to: size(player.hand)``), the
    deck as many as its public count says (or the rest); a hidden field kept beside the hand through
    a declared map (``colours`` from ``colour_of``) is each card's value in that map."""

    def __init__(self, unseen: list[Any], hands: dict[str, int], kept: dict[str, tuple[str, dict]],
                 deck: str | None, deck_size: int, told: dict[str, list[list[tuple[dict, str]]]] | None = None):
        self.unseen = unseen
        self.hands = hands
        self.kept = kept
        self.deck = deck
        self.deck_size = deck_size
        #: hand -> for each position, what the public notes beside it say of its card (map, value)
        self.told = told or {}

    def deal(self, match: Match, seat: int, rng: random.Random) -> None:
        cards = list(self.unseen)
        rng.shuffle(cards)
        player = match.players[seat]
        for name, size in self.hands.items():
            hand: list[Any] = [None] * size
            told = self.told.get(name, [[] for _ in range(size)])
            for at in sorted(range(size), key=lambda i: -len(told[i])):  # the positions a note narrows first
                pick = next((i for i, card in enumerate(cards)
                             if all(str(mapping[card]) == value for mapping, value in told[at])), 0)
                hand[at] = cards.pop(pick)
            player[name] = hand
        for name, (hand, mapping) in self.kept.items():
            player[name] = [copy_data(mapping[card]) for card in player[hand]]
        if self.deck is not None:
            match.state[self.deck] = cards[:self.deck_size]

    @classmethod
    def read(cls, game: "Game", observation: dict[str, Any], seat: int) -> "_Cards | None":
        specs = game.definition.declaration.player_states
        rows = observation["state"]["players"]
        own = [name for name, spec in specs.items()
               if spec.visibility == OTHERS and name in rows[seat] and rows[seat][name] is None]
        if not own:
            return None
        declared = game.binding.state
        public = set(observation["state"])
        sizes: dict[str, str] = {}  # hidden list -> the public field or name counting it
        decks: dict[str, str] = {}  # hidden game list -> the declared list it is filled from
        for effect in statements(game):
            if not effect.set or not isinstance(effect.to, str):
                continue
            scope, _, target = effect.set.partition(".")
            to = effect.to.strip()
            if scope == "game" and target not in public and isinstance(declared.get(to), list) \
                    and isinstance(declared.get(target), list):
                decks[target] = to
            if to.startswith("size(") and to.endswith(")"):
                counted = to[5:-1].strip().removeprefix("player.")
                if (scope == "players" and counted in own) or (scope == "game" and counted in decks):
                    sizes[counted] = target
        if len(set(decks.values())) != 1:
            return None  # no single list of every card: the hand is not guessed
        deck, every = next(iter(decks.items()))  # several hidden lists filled from it: the first is the deck
        universe = Counter(declared[every])
        others = [row for owner, row in enumerate(rows) if owner != seat]
        hands = {name: rows[seat].get(sizes.get(name, "")) for name in own
                 if any(isinstance(row.get(name), list) and row[name] and set(row[name]) <= set(universe)
                        for row in others)}
        if not hands or not all(isinstance(size, int) for size in hands.values()):
            return None
        kept: dict[str, tuple[str, dict]] = {}
        for name in own:
            if name in hands:
                continue
            for hand in hands:
                mapping = next((m for m in declared.values() if isinstance(m, dict) and _keeps(m, others, hand, name)),
                               None)
                if mapping is not None and all(card in mapping for card in universe):
                    kept[name] = (hand, mapping)
                    break
        told = {hand: _told(declared, rows, seat, hand, size, [m for h, m in kept.values() if h == hand])
                 for hand, size in hands.items()}
        seen: Counter = Counter()
        for value in [v for row in rows for v in row.values()] + [v for k, v in observation["state"].items()
                                                                  if k != "players"]:
            if isinstance(value, list):
                seen.update(card for card in value if _hashable(card) and card in universe)
        if any(seen[card] > universe[card] for card in seen):
            return None  # a card seen twice: the cards are not where this reading thinks
        unseen = sorted((universe - seen).elements(), key=repr)
        wanted = sum(hands.values())
        count = observation["state"].get(sizes.get(deck, ""))
        deck_size = count if isinstance(count, int) and count + wanted <= len(unseen) else len(unseen) - wanted
        if deck_size < 0:
            return None
        return cls(unseen, hands, kept, deck, deck_size, told)


def _told(declared: dict[str, Any], rows: list[dict[str, Any]], seat: int, hand: str, size: int,
          maps: list[dict]) -> list[list[tuple[dict, str]]]:
    """What public lists beside the seat's hand say of each of its cards (Hanabi's clues: a
    ``known_colours`` of ``['?', 'Red']`` says the second card's ``colour_of`` is Red). A list is
    such a note when, in every other player's row, each entry is its card's value through one of the
    hand's maps or a value no card has (``?``); a note that any row contradicts is not read."""
    told: list[list[tuple[dict, str]]] = [[] for _ in range(size)]
    own = rows[seat]
    others = [row for owner, row in enumerate(rows) if owner != seat and isinstance(row.get(hand), list)]
    for name, value in own.items():
        if not isinstance(value, list) or len(value) != size or name == hand:
            continue
        for mapping in maps:
            values = {str(v) for v in mapping.values()}
            rows_ok = all(isinstance(row.get(name), list) and len(row[name]) == len(row[hand])
                          and all(str(note) not in values or str(note) == str(mapping.get(card))
                                  for card, note in zip(row[hand], row[name]) if _hashable(card))
                          for row in others)
            said = [str(note) in values for row in others + [own] for note in (row.get(name) or [])]
            if rows_ok and others and any(said):
                for at, note in enumerate(value):
                    if str(note) in values:
                        told[at].append((mapping, str(note)))
    return told


def _keeps(mapping: dict, rows: list[dict[str, Any]], hand: str, name: str) -> bool:
    """Whether every visible ``name`` list is its ``hand`` list's cards through ``mapping``."""
    pairs = [(card, value) for row in rows if isinstance(row.get(hand), list) and isinstance(row.get(name), list)
             and len(row[hand]) == len(row[name]) for card, value in zip(row[hand], row[name])]
    return bool(pairs) and all(_hashable(card) and card in mapping and mapping[card] == value
                               for card, value in pairs)


def _hashable(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool))


def _composition(deal: Any, count: int) -> Counter:
    roles: Counter = Counter()
    rest = next(name for name, spec in deal.roles.items() if spec.rest)
    for name, spec in deal.roles.items():
        if not spec.rest:
            roles[name] += (spec.counts or {}).get(count, 0)
    roles[rest] += count - sum(roles.values())
    return roles


def _public_always(rule: Any) -> bool:
    return rule is None or rule == "public" or rule is True


def _public(rule: Any, match: Match, owner: int) -> bool:
    if rule is None or rule == "public" or rule is True:
        return True
    if rule in ("owner", "nobody", "others") or rule is False:
        return False
    return bool(_compiled(rule)(match.scope(owner)))


def _turn_flags(game: "Game") -> list[str]:
    """The player flags ``advance`` statements pass around (turn markers)."""
    flags = []
    for phase in game.phases.values():
        effects = list(phase.effects or [])
        for action in phase.actions:
            effects += list(action.effects or [])
        flags += [effect.advance for effect in effects if effect.advance and effect.advance not in flags]
    return flags


def _counted(game: "Game") -> dict[str, str]:
    """Each list the rules keep a count of, and the field or game name counting it: ``set:
    players.hand_size to: size(player.hand)`` counts ``hand``, ``set: game.cards_left to:
    size(deck)`` counts ``deck``."""
    counts: dict[str, str] = {}
    for effect in statements(game):
        if not effect.set or not isinstance(effect.to, str):
            continue
        to = effect.to.strip()
        if to.startswith("size(") and to.endswith(")"):
            inner = to[5:-1].strip()
            for prefix in ("player.", "actor.", "chosen.", "game."):
                inner = inner.removeprefix(prefix)
            if inner.isidentifier():
                counts.setdefault(inner, effect.set.partition(".")[2])
    return counts


class _Lists:
    """Hidden lists of cards dealt anew: the others' hands, bags and stacks and the hidden game lists
    (the deck, a card set aside), each from the cards the seat cannot see.

    A player's hidden lists that start with cards in them (Skull's four discs) hold that player's own
    cards: they are dealt from those, less the ones that player shows (turned face up). Otherwise the
    cards are the declared list the rules fill a hidden game list from (``set: game.deck to: cards``,
    or a hidden list declared full and shuffled, Love Letter's deck), less every card the seat sees in
    a player's list field or a game list the rules change. A list the rules count in a public field or
    name (``hand_size``, ``bag_size``, ``cards_left``) gets that many cards; the rest are shared evenly
    among the hidden lists with no public count (nothing to a player no longer alive); a card seen in
    the log only (a look at a hand told in words) is not read."""

    def __init__(self, deals: list[tuple[list[Any], list[tuple[int | None, str, int | None]]]]):
        #: (the unseen cards, [(owner or None for a game list, name, its count or None)]) per pool
        self.deals = deals

    def deal(self, match: Match, rng: random.Random) -> bool:
        for unseen, places in self.deals:
            cards = list(unseen)
            rng.shuffle(cards)
            counted = sum(size for _, _, size in places if size is not None)
            if counted > len(cards):
                return False
            open_ = [place for place in places if place[2] is None]
            share, extra = divmod(len(cards) - counted, len(open_)) if open_ else (0, 0)
            extras = set(rng.sample(range(len(open_)), extra)) if extra else set()
            at = 0
            for owner, name, size in places:
                if size is None:
                    index = open_.index((owner, name, size))
                    size = share + (index in extras)
                hand, at = cards[at:at + size], at + size
                if owner is None:
                    match.state[name] = hand
                else:
                    match.players[owner][name] = hand
        return True

    @classmethod
    def read(cls, game: "Game", observation: dict[str, Any], seat: int, blank: dict[str, Any],
             base: Match) -> "_Lists | None":
        specs = game.definition.declaration.player_states
        declared = game.binding.state
        shown = observation["state"]
        rows = shown["players"]
        changed: set[str] = set()  # the game names some statement writes
        sources: set[str] = set()  # the declared lists of every card
        for effect in statements(game):
            target = effect.set or effect.shuffle or effect.roll
            if isinstance(target, str) and target.startswith("game."):
                changed.add(target[5:])
        hidden_lists = [name for name in changed if name not in shown and isinstance(declared.get(name), list)]
        filled: dict[str, list[Any]] = {}
        for effect in statements(game):
            if effect.set and effect.set.startswith("game.") and effect.set[5:] in hidden_lists \
                    and isinstance(effect.to, str):
                expression = _compiled(effect.to)
                # filled from the declared cards alone (``cards``, ``creatures + creatures``): every card
                if not any(path[0] in changed for path in expression.names):
                    every = expression.evaluate(Scope(base, None, None, Outcome(base, None)))
                    if isinstance(every, list) and every:
                        sources.add(effect.to.strip())
                        filled[effect.to.strip()] = every
            if effect.shuffle and effect.shuffle[5:] in hidden_lists and declared[effect.shuffle[5:]]:
                sources.add(effect.shuffle[5:])
                filled[effect.shuffle[5:]] = declared[effect.shuffle[5:]]
        counts = _counted(game)
        player_lists = [name for name, spec in specs.items() if not _public_always(spec.visibility)
                        and spec.visibility not in UNSEEN_BY_OWNER and isinstance(blank.get(name), list)]
        # a list built from hidden single values (Precinct's face_down from card1..card3) follows them: not dealt
        secrets = [name for name, spec in specs.items() if not _public_always(spec.visibility)
                   and not isinstance(blank.get(name), list)]
        derived = {effect.set.partition(".")[2] for effect in statements(game)
                   if effect.set and isinstance(effect.to, str)
                   and any(re.search(rf"\.{re.escape(secret)}\b", effect.to) for secret in secrets)}
        player_lists = [name for name in player_lists if name not in derived]

        def count(owner: int | None, name: str) -> int | None:
            counter = counts.get(name)
            value = (shown.get(counter) if owner is None else rows[owner].get(counter)) if counter else None
            return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None

        deals = []
        universe = Counter(filled[next(iter(sources))]) if len(sources) == 1 else None
        common: list[tuple[int | None, str, int | None]] = []
        if universe is not None:
            common = [(None, name, count(None, name)) for name in sorted(hidden_lists)]
        own_cards = Counter(card for name in player_lists for card in blank[name])
        for owner, row in enumerate(rows):
            if owner == seat:
                continue
            places = [(owner, name, count(owner, name)) for name in player_lists if name in row and row[name] is None]
            if not places:
                continue
            if not row.get("is_alive", True):
                places = [place if place[2] is not None else (owner, place[1], 0) for place in places]
            if own_cards:  # the player's own cards, less those it shows
                showing = Counter(card for name, value in row.items() if isinstance(value, list)
                                  for card in value if _hashable(card) and card in own_cards)
                if any(showing[card] > own_cards[card] for card in showing):
                    return None
                deals.append((sorted((own_cards - showing).elements(), key=repr), places))
            elif universe is not None:
                common += places
        if universe is not None and common:
            seen: Counter = Counter()
            values = [v for row in rows for v in row.values()] + [v for k, v in shown.items()
                                                                  if k != "players" and k in changed]
            for value in values:
                if isinstance(value, list):
                    seen.update(card for card in value if _hashable(card) and card in universe)
            if any(seen[card] > universe[card] for card in seen):
                return None
            deals.append((sorted((universe - seen).elements(), key=repr), common))
        # counts the unseen cards cannot fill: these are not the cards those lists hold
        deals = [(cards, places) for cards, places in deals
                 if sum(size for _, _, size in places if size is not None) <= len(cards)]
        return cls(deals) if deals else None


class _Drawn:
    """Hidden names drawn with the deal, drawn again: a die a statement rolls into a hidden game name
    (the Chameleon's topic and secret word) and the hidden names and fields set from it or from the
    dealt role once, where the roll or the deal is (``game.chameleon``, each Player's ``word``).

    A sample tries the faces of each die in a random order and keeps the first that agrees with what
    the seat sees: a public name set from it (the topic) and its own copy of a hidden field (the word
    on its card). Only statements whose name no other statement writes are run again."""

    def __init__(self, segments: list[tuple[Any, str | None, list[Any], list[tuple[str, Any, Any]]]]):
        #: (the roll's sides or None, the rolled name, steps to run, checks) in DSL order
        self.segments = segments

    def draw(self, match: Match, rng: random.Random, observation: dict[str, Any]) -> bool:
        found = Outcome(match, None)
        rows = observation["state"]["players"]
        for sides, name, steps, checks in self.segments:
            faces: list[int | None] = [None]
            if name is not None:
                count = sides.evaluate(Scope(match, None, None, found))
                if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                    return False
                faces = list(range(1, count + 1))
                rng.shuffle(faces)
            for face in faces:
                if name is not None:
                    match.state[name] = face
                for step in steps:
                    step(match, found)
                if all(_agrees(match, kind, key, value, rows, found) for kind, key, value in checks):
                    break
            else:
                return False
        return True

    @classmethod
    def read(cls, game: "Game", observation: dict[str, Any], role_field: str | None) -> "_Drawn | None":
        specs = game.definition.declaration.player_states
        public = set(observation["state"])
        declared = game.binding.state
        writes: Counter = Counter()
        for effect in statements(game):
            target = effect.set or effect.roll or effect.shuffle or effect.into
            if isinstance(target, str):
                writes[target.partition(".")[2] if "." in target else target] += 1
        hidden_field = {name for name, spec in specs.items() if not _public_always(spec.visibility)}
        segments: list[tuple[Any, str | None, list[Any], list[tuple[str, Any, Any]]]] = []
        for phase in game.phases.values():
            effects = list(phase.effects or [])
            drawn: set[str] = set()
            current: tuple[Any, str | None, list[Any], list[tuple[str, Any, Any]]] | None = None
            for index, effect in enumerate(effects):
                if effect.deal and role_field:
                    drawn.add(role_field)
                    continue
                if isinstance(effect.roll, str) and effect.roll.startswith("game.") and effect.dice is None:
                    name = effect.roll[5:]
                    if name not in public and name in declared and writes[name] == 1:
                        current = (_compiled(effect.sides if effect.sides is not None else 6), name, [], [])
                        segments.append(current)
                        drawn.add(name)
                    continue
                if not drawn or not effect.set or not isinstance(effect.to, str) or effect.where is not None:
                    continue
                scope, _, name = effect.set.partition(".")
                if not any(_names(effect.to, other) for other in drawn) or writes[name] != 1:
                    continue
                if current is None:
                    current = (None, None, [], [])
                    segments.append(current)
                if scope == "game" and name in public:
                    current[3].append(("game", name, _compiled(effect.to)))
                elif (scope == "game" and name in declared) or (scope == "players" and name in hidden_field):
                    current[2].append(_COMPILERS["set"](effect, ("drawn", index), None))
                    if scope == "players":
                        current[3].append(("players", name, None))
                    drawn.add(name)
        return cls(segments) if any(name is not None for _, name, _, _ in segments) else None


def _names(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(name)}\b|\.{re.escape(name)}\b", text) is not None


def _agrees(match: Match, kind: str, key: str, value: Any, rows: list[dict[str, Any]], found: Any) -> bool:
    """Whether the sample shows what the seat saw: a public game name, or each player's ``key`` field
    the seat can read."""
    if kind == "game":
        return value.evaluate(Scope(match, None, None, found)) == match.state.get(key)
    return all(row.get(key) is None or row[key] == match.players[owner].get(key) for owner, row in enumerate(rows))
