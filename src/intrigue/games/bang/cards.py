"""The 80 playing cards and 16 characters of the BANG! base game, as data.

Every physical card has a unique id. The id is the card's label, ``Name RankSuit``
(``BANG! 10D``, ``Missed! 2S``, ``Barrel QS``; suits ``S H D C``), except that
the one pair of identical cards gets ``#2`` on the second copy
(``Stagecoach 9S`` and ``Stagecoach 9S#2``). Counts, suits and ranks follow the
rules reference (docs/games/bang.md, section "The 80-card deck").
"""

from __future__ import annotations

from dataclasses import dataclass

SUITS = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

#: name -> (border, effect, cards as "RankSuit")
CARD_TYPES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "BANG!": ("brown", "Shoot a player within reach: he loses 1 life unless he cancels it.", (
        "AS", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD",
        "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "QH", "KH", "AH")),
    "Missed!": ("brown", "Cancel a shot aimed at you.", (
        "10C", "JC", "QC", "KC", "AC", "2S", "3S", "4S", "5S", "6S", "7S", "8S")),
    "Beer": ("brown", "Regain 1 life (no effect with 2 players left).", (
        "6H", "7H", "8H", "9H", "10H", "JH")),
    "Panic!": ("brown", "Take a card from a player at distance 1.", ("JH", "QH", "AH", "8D")),
    "Cat Balou": ("brown", "Make any player discard a card.", ("KH", "9D", "10D", "JD")),
    "Stagecoach": ("brown", "Draw 2 cards.", ("9S", "9S")),
    "Wells Fargo": ("brown", "Draw 3 cards.", ("3H",)),
    "General Store": ("brown", "Reveal a card per living player; each takes one, clockwise.", ("9C", "QS")),
    "Saloon": ("brown", "Every living player regains 1 life.", ("5H",)),
    "Duel": ("brown", "You and a player discard BANG! in turn; the first who does not loses 1 life.",
             ("QD", "JS", "8C")),
    "Indians!": ("brown", "Every other player discards a BANG! or loses 1 life.", ("KD", "AD")),
    "Gatling": ("brown", "A BANG! at every other player.", ("10H",)),
    "Barrel": ("blue", "When shot, draw!: a Heart counts as a Missed!.", ("QS", "KS")),
    "Scope": ("blue", "You see the others at distance -1.", ("AS",)),
    "Mustang": ("blue", "The others see you at distance +1.", ("8H", "9H")),
    "Jail": ("blue", "Put in front of another player (not the Sheriff): he skips his turn unless "
                     "he draws! a Heart.", ("JS", "10S", "4H")),
    "Dynamite": ("blue", "At the start of your turn, draw!: on 2-9 of Spades lose 3 life; else pass it "
                         "to the left.", ("2H",)),
    "Volcanic": ("blue", "Weapon, range 1: any number of BANG! per turn.", ("10S", "10C")),
    "Schofield": ("blue", "Weapon, range 2.", ("JC", "QC", "KS")),
    "Remington": ("blue", "Weapon, range 3.", ("KC",)),
    "Rev. Carabine": ("blue", "Weapon, range 4.", ("AC",)),
    "Winchester": ("blue", "Weapon, range 5.", ("8S",)),
}

WEAPONS = {"Volcanic": 1, "Schofield": 2, "Remington": 3, "Rev. Carabine": 4, "Winchester": 5}


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    rank: str
    suit: str
    border: str
    effect: str

    @property
    def label(self) -> str:
        return f"{self.name} {self.rank}{self.suit}"

    @property
    def value(self) -> int:
        """2 for a two ... 14 for an ace."""
        return RANKS.index(self.rank) + 2

    @property
    def red(self) -> bool:
        return self.suit in "HD"


def _build() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for name, (border, effect, faces) in CARD_TYPES.items():
        for face in faces:
            rank, suit = face[:-1], face[-1]
            label = f"{name} {face}"
            card_id = label if label not in cards else f"{label}#2"
            cards[card_id] = Card(card_id, name, rank, suit, border, effect)
    return cards


#: every physical card, by id, in the canonical deck order
CARDS: dict[str, Card] = _build()
DECK: tuple[str, ...] = tuple(CARDS)


#: each card's label and name by id, read in every menu (a dict lookup, not a split or an attribute)
LABELS: dict[str, str] = {card_id: card_id.split("#")[0] for card_id in CARDS}
NAMES: dict[str, str] = {card_id: card.name for card_id, card in CARDS.items()}


def label(card_id: str) -> str:
    got = LABELS.get(card_id)
    return got if got is not None else card_id.split("#")[0]


def name_of(card_id: str) -> str:
    return CARDS[card_id].name


@dataclass(frozen=True)
class Character:
    name: str
    life: int
    ability: str


CHARACTERS: dict[str, Character] = {c.name: c for c in (
    Character("Bart Cassidy", 4, "Each time he loses a life point, he draws a card from the deck."),
    Character("Black Jack", 4, "Shows the 2nd card he draws; on a Heart or Diamond he draws one more."),
    Character("Calamity Janet", 4, "Uses BANG! cards as Missed! and Missed! cards as BANG!."),
    Character("El Gringo", 3, "Each time a player's card makes him lose a life point, he takes a random "
                              "card from that player's hand."),
    Character("Jesse Jones", 4, "May draw his first card at random from another player's hand."),
    Character("Jourdonnais", 4, "Always has a Barrel in play (a draw!: a Heart cancels a shot)."),
    Character("Kit Carlson", 4, "Looks at the top 3 cards of the deck, keeps 2, puts one back."),
    Character("Lucky Duke", 4, "Each draw! flips 2 cards and he chooses the one that counts."),
    Character("Paul Regret", 3, "The others see him at distance +1."),
    Character("Pedro Ramirez", 4, "May draw his first card from the top of the discard pile."),
    Character("Rose Doolan", 4, "She sees the others at distance -1."),
    Character("Sid Ketchum", 4, "May discard 2 cards to regain 1 life, any number of times."),
    Character("Slab the Killer", 4, "His BANG! cards need 2 Missed! to cancel."),
    Character("Suzy Lafayette", 4, "As soon as her hand is empty, she draws a card."),
    Character("Vulture Sam", 4, "Takes all the cards of each eliminated player into his hand."),
    Character("Willy the Kid", 4, "May play any number of BANG! cards per turn."),
)}

#: the character of a rigged scenario seat not given one: 4 bullets, no ability
NO_CHARACTER = Character("", 4, "No ability.")

ROLES_BY_COUNT: dict[int, tuple[str, ...]] = {
    3: ("Deputy", "Outlaw", "Renegade"),  # the 3-player variant: roles face up, personal targets
    4: ("Sheriff", "Renegade", "Outlaw", "Outlaw"),
    5: ("Sheriff", "Renegade", "Outlaw", "Outlaw", "Deputy"),
    6: ("Sheriff", "Renegade", "Outlaw", "Outlaw", "Deputy", "Outlaw"),
    7: ("Sheriff", "Renegade", "Outlaw", "Outlaw", "Deputy", "Outlaw", "Deputy"),
    8: ("Sheriff", "Renegade", "Outlaw", "Outlaw", "Deputy", "Outlaw", "Deputy", "Renegade"),  # two Renegades
}
#: The 3-player variant: whom each role must eliminate personally.
HUNTS = {"Deputy": "Renegade", "Renegade": "Outlaw", "Outlaw": "Deputy"}


def parse_label(text: str) -> tuple[str, str, str] | None:
    """``'BANG! 10D'`` -> ``('BANG!', '10', 'D')``; None if it is not a card label."""
    name, _, face = text.strip().rpartition(" ")
    if not name or len(face) < 2 or face[-1] not in SUITS or face[:-1] not in RANKS:
        return None
    return name, face[:-1], face[-1]
