"""What each seat must never learn, per installed game, and a checker for anything sent to it.

The secrets are stated here from each game's rulebook (docs/games/*.md and the
rules module's docstring), not derived from its observer, so a mistake in an
observer shows up as a difference:

* Coup: another seat's face-down influence, the court deck, another seat's Exchange draw;
  with the variants, the card a target shows an examiner (only those two see it), another
  seat's official two-player set and its cards set aside. Allegiances are public.
* BANG!: another seat's hand, another seat's role (until it is revealed: the
  Sheriff's at once, the others' on elimination; with 3 players every role is face
  up), Kit Carlson's three cards,
  another seat's character candidates, the deck's order.
* DSFGS: another seat's role and team until revealed or shown to this seat, and
  its ``secret_info_access`` flag.
* Heist: another seat's role until they are jailed.
* Werewolf: another seat's role and side until they die, except that each
  werewolf knows the other werewolves and the seer learns the side of the
  players they inspected; the doctor's memory of whom they protected; the night's
  targets (victim, protection, inspection) and who acts at night: every living
  player appears to act until dawn, and only the werewolves see each other's
  choices.
* Avalon: another seat's character (the Assassin's is shown once they step
  forward) and side, except that the minions but Oberon know each other's side,
  Merlin the side of every evil player but Mordred, Percival that Merlin and
  Morgana look alike; who plays Fail on a quest (the whole team appears to play
  until every card is in).

For every game: the match seed (it fixes every shuffle, so it is the whole
secret), seat tokens and their hashes never leave the server; a view is the
viewer's own; options are shown only to a pending seat; a log line reaches only
its audience; once the match is over everything may be shown.

``Checker(match, viewer).problems(message)`` returns what is wrong with one
message (empty when it is clean). Checks that need history (BANG!'s log content)
keep it in a :class:`Watch` per match.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from intrigue.engine import Match
from intrigue.server.protocol import encode

from ..server.test_leak import Leak, check_view as coup_check_view

# ---------------------------------------------------------------------------- generic checks


def known_version(match: Match, viewer: int | None) -> int:
    """The version a seat may be shown: the match's, but while a secret decision is open each answer
    is a version, so only the opening one plus the answers the seat knows of (its own; its partners'
    in a joint choice): more would tell it how many have answered."""
    decision = match.decision
    if decision is None or not decision.secret or decision.complete or match.over:
        return match.version
    known = {viewer, *decision.partners} if viewer in decision.partners else {viewer}
    return decision.opened_at + len([seat for seat in decision.answers if seat in known])


def generic_view_problems(view: dict[str, Any], match: Match, viewer: int | None) -> list[str]:
    problems = []
    if view.get("seat") != viewer:
        problems.append(f"a view of seat {view.get('seat')} sent to seat {viewer}")
    if view.get("version") != known_version(match, viewer):
        problems.append(f"a view of version {view.get('version')} at version {match.version} "
                        f"(known to seat {viewer}: {known_version(match, viewer)})")
    decision = view.get("decision")
    if decision and decision.get("options"):
        if viewer is None or viewer not in match.pending or decision["options"] != match.legal(viewer):
            problems.append(f"options {decision['options']} shown to seat {viewer}, who may not choose them")
    allowed = {(e.version, e.text) for e in match.events if e.audience.includes(match, viewer)}
    for line in view.get("log", []):
        if (line.get("version"), line.get("text")) not in allowed:
            problems.append(f"the log line {line.get('text')!r} is not meant for seat {viewer}")
    return problems


# ---------------------------------------------------------------------------- per game
def coup_problems(view: dict[str, Any], match: Match, viewer: int | None, watch: "Watch | None" = None) -> list[str]:
    try:
        coup_check_view(view, match, viewer, f"seat {viewer}")
    except Leak as leak:
        return [str(leak)]
    return coup_variant_problems(view, match, viewer)


def coup_variant_problems(view: dict[str, Any], match: Match, viewer: int | None) -> list[str]:
    """The variants' secrets: an examined card is seen by the examiner (and its owner) only; an
    official two-player set and the cards set aside are their owner's. Allegiances are public:
    every view shows every seat's true allegiance."""
    if match.over:
        return []
    problems = []
    state, truth = view["state"], match.state
    if match.options.get("reformation"):
        shown = [row.get("allegiance") for row in state["players"]]
        if shown != list(truth["allegiance"]) and all(truth["allegiance"]):
            problems.append(f"seat {viewer} is shown allegiances {shown}, not {truth['allegiance']}")
        if state.get("reserve") != truth["reserve"]:
            problems.append(f"seat {viewer} is shown a reserve of {state.get('reserve')}, not {truth['reserve']}")
    exam = truth["examine"]
    if exam["target_id"]:
        examiner = truth["current_turn"]["player_id"] - 1
        target = exam["target_id"] - 1
        sees = viewer in (examiner, target)
        if not sees:
            if "character" in (state.get("examined") or {}):
                problems.append(f"seat {viewer} sees the card {match.names[target]} showed to the examiner")
            if any(c.get("key") == "examined" for c in view["components"]):
                problems.append(f"seat {viewer} gets the examined card's component")
    shows = {e.version: (e.data["examiner"], e.data["seat"]) for e in match.events
             if e.data.get("event") == "examine_show"}
    for line in view["log"]:  # a private examine line reaches only that examination's two players
        text = line["text"]
        if "shows you" in text or text.startswith("You show"):
            examiner, target = shows.get(line["version"], (None, None))
            if viewer != (examiner if "shows you" in text else target):
                problems.append(f"seat {viewer} reads the private examine line {text!r}")
    sets = truth["sets"]
    if "set" in state and (viewer is None or str(viewer) not in sets or state["set"] != sets[str(viewer)]):
        problems.append(f"seat {viewer} sees an official set that is not its own")
    for owner in (state.get("set_aside") or {}):
        if viewer is None or owner != match.names[viewer]:
            problems.append(f"seat {viewer} sees {owner}'s cards set aside")
    return problems


def _bang_hidden_labels(match: Match, viewer: int | None) -> set[str]:
    """Card labels the viewer cannot know now: in another seat's hand or Kit's draw, and in no
    place the viewer sees (a label can name two copies).

    The deck is left out here: which cards it holds is public after a reshuffle of the
    (public) discard pile, only its order is secret, and that is checked on the log
    (:func:`new_event_problems`), where drawn cards are named.
    """
    return _bang_hidden_all(match, [viewer], deck=False)[viewer]


def _bang_hidden_all(match: Match, viewers: list[int | None], deck: bool = True) -> dict[int | None, set[str]]:
    from intrigue.games.bang.cards import label

    state = match.state
    public: set[str] = set()
    for p in match.players:
        public.update(label(c) for c in p["table"])
    for pile in ("discard", "store", "flipped"):
        public.update(label(c) for c in state[pile])
    hands = [{label(c) for c in p["hand"]} for p in match.players]
    kit = {label(c) for c in state["kit"]}
    unseen = ({label(c) for c in state["deck"]} if deck else set()) | kit
    everyone = set().union(unseen, *hands)
    answer = {}
    for viewer in viewers:
        if viewer is None:
            answer[viewer] = everyone - public
            continue
        own = hands[viewer] | (kit if match.players[viewer]["character"] == "Kit Carlson" else set())
        others = set(unseen).union(*(h for o, h in enumerate(hands) if o != viewer))
        answer[viewer] = others - public - own
    return answer


def _bang_role_visible(match: Match, owner: int, viewer: int | None) -> bool:
    """The Sheriff's role, the dead's, your own; with 3 players (the Dodge City variant) every role."""
    p = match.players[owner]
    return owner == viewer or p["role"] == "Sheriff" or not p["is_alive"] or match.over or len(match.players) == 3


def bang_problems(view: dict[str, Any], match: Match, viewer: int | None, watch: "Watch | None" = None) -> list[str]:
    problems = []
    if match.over:
        return problems
    state = view["state"]
    for owner, (row, p) in enumerate(zip(state["players"], match.players)):
        if owner == viewer:
            if sorted(row.get("hand") or []) != sorted(_labels(p["hand"])):
                problems.append(f"seat {viewer} is not shown its own hand")
            continue
        if "hand" in row:
            problems.append(f"seat {viewer} sees {match.names[owner]}'s hand")
        if row.get("role") is not None and not _bang_role_visible(match, owner, viewer):
            problems.append(f"seat {viewer} sees {match.names[owner]}'s hidden role {row['role']}")
    if "kit" in state and (viewer is None or match.players[viewer]["character"] != "Kit Carlson"):
        problems.append(f"seat {viewer} sees Kit Carlson's draw")
    if "candidates" in state and (viewer is None or str(viewer) not in match.state["candidates"]):
        problems.append(f"seat {viewer} sees another seat's character candidates")
    if "deck" in state:
        problems.append("the deck is in the view")
    hidden_roles = {match.names[o]: p["role"] for o, p in enumerate(match.players)
                    if not _bang_role_visible(match, o, viewer)}
    for component in view["components"]:
        if component["kind"] == "hand" and component.get("key") not in ("store",):
            owner = component.get("player")
            if viewer is None or owner != match.names[viewer]:
                problems.append(f"seat {viewer} gets the hand component of {owner}")
        if component["kind"] == "board":
            for row in component["players"]:
                if row["name"] in hidden_roles and hidden_roles[row["name"]] in row.get("tags", []):
                    problems.append(f"seat {viewer}'s board shows {row['name']}'s hidden role")
                if any(card.get("label") is not None for card in row.get("cards", [])) and \
                        (viewer is None or row["name"] != match.names[viewer]):
                    problems.append(f"seat {viewer}'s board shows {row['name']}'s cards face up")
    # Anything but the log: no label of a card the viewer cannot know.
    named = _named_cards(encode({k: v for k, v in view.items() if k != "log"}))
    once_public = remember_public(match, watch) if watch is not None else _bang_public(match)
    for hidden in sorted(named & _bang_hidden_labels(match, viewer) - once_public):
        problems.append(f"seat {viewer}'s view names the hidden card {hidden}")
    return problems


def _labels(cards: list[str]) -> list[str]:
    from intrigue.games.bang.cards import label

    return [label(c) for c in cards]


_CARD_PATTERN: re.Pattern[str] | None = None


def _named_cards(text: str) -> set[str]:
    """Every BANG! card label written in ``text`` (one regex over all labels, longest first)."""
    global _CARD_PATTERN  # noqa: PLW0603
    if _CARD_PATTERN is None:
        from intrigue.games.bang.cards import DECK, label

        names = sorted({label(c) for c in DECK}, key=len, reverse=True)
        _CARD_PATTERN = re.compile("(" + "|".join(re.escape(n) for n in names) + ")(?![0-9])")
    return set(_CARD_PATTERN.findall(text))


def declarative_problems(fields: dict[str, Any]):  # noqa: ANN201
    """For a DSL-only game: ``{field: rule(match, owner) -> public?}`` of its secret player fields."""

    def problems(view: dict[str, Any], match: Match, viewer: int | None, watch: "Watch | None" = None) -> list[str]:
        found = []
        if match.over:
            return found
        seen = match.state.get("_seen", [])
        for owner, row in enumerate(view["state"]["players"]):
            if owner == viewer:
                continue
            for name, public in fields.items():
                # a show keeps the value of its moment ([viewer, owner, field, value]): no more is seen
                shown = [entry[3] for entry in seen if entry[1] == owner and entry[2] == name
                         and (entry[0] == -1 or viewer is not None and entry[0] == viewer)]
                if row.get(name) is not None and not public(match, owner) and row[name] not in shown:
                    found.append(f"seat {viewer} sees {match.names[owner]}'s hidden {name} ({row[name]!r})")
        return found

    return problems


def _living(match: Match) -> list[int]:
    return [s for s, p in enumerate(match.players) if p.get("is_alive", True) is not False]


def _hidden_actors_problems(view: dict[str, Any], match: Match, viewer: int | None, cover: list[int]) -> list[str]:
    """In a decision whose actors are secret, everyone in ``cover`` appears to act until it closes
    (a seat that answered may drop out of its own list only)."""
    names = match.names
    expected = [names[s] for s in cover if s != viewer or s in match.pending]
    problems = []
    if view["waiting"] != expected:
        problems.append(f"seat {viewer} sees {view['waiting']} waiting, not everyone who may act {expected}")
    decision = view.get("decision") or {}
    if decision and decision.get("waiting") != expected:
        problems.append(f"seat {viewer}'s decision names {decision.get('waiting')} as waiting")
    return problems


#: Werewolf's night: where a view may tell who acts and whom they chose.
WEREWOLF_NIGHT = "Night"


def werewolf_problems(view: dict[str, Any], match: Match, viewer: int | None, watch: "Watch | None" = None) -> list[str]:
    problems: list[str] = []
    truth = match.players
    if watch is not None:
        last = match.last_decision
        if last is not None and match.game.phases[last.phase_id].name == WEREWOLF_NIGHT:
            for seat, answer in last.answers.items():
                if truth[seat]["role"] == "Seer":
                    watch.inspected.add((seat, answer))
    if match.over:
        return problems
    extra = set(view["state"]) - {"players", "day", "discussion"}
    if extra:
        problems.append(f"seat {viewer} sees the game's private names {sorted(extra)}")
    wolf = viewer is not None and truth[viewer]["role"] == "Werewolf"
    for owner, row in enumerate(view["state"]["players"]):
        if owner == viewer:
            continue
        dead = truth[owner]["is_alive"] is False
        fellow = wolf and truth[owner]["role"] == "Werewolf"
        inspected = watch is None or (viewer, match.names[owner]) in watch.inspected
        if row.get("role") is not None and not dead and not fellow:
            problems.append(f"seat {viewer} sees {match.names[owner]}'s role {row['role']}")
        if row.get("side") is not None and not dead and not fellow and not inspected:
            problems.append(f"seat {viewer} sees {match.names[owner]}'s side {row['side']}")
        if row.get("protected_last") is not None:
            problems.append(f"seat {viewer} sees whom the doctor {match.names[owner]} protected")
    if match.decision is not None and match.phase.name == WEREWOLF_NIGHT and match.pending:
        problems += _hidden_actors_problems(view, match, viewer, _living(match))
        answers = (view.get("decision") or {}).get("answers")
        if answers is not None and (not wolf or any(truth[match.names.index(n)]["role"] != "Werewolf" for n in answers)):
            problems.append(f"seat {viewer} sees night choices {answers}")
    return problems


def avalon_problems(view: dict[str, Any], match: Match, viewer: int | None, watch: "Watch | None" = None) -> list[str]:
    problems: list[str] = []
    if match.over:
        return problems
    roles = [p["role"] for p in match.players]
    evil = [p["side"] == "evil" for p in match.players]
    assassin_out = match.state["successes"] >= 3  # the Assassin steps forward to name Merlin
    mine = roles[viewer] if viewer is not None else None
    for owner, row in enumerate(view["state"]["players"]):
        if owner == viewer:
            continue
        if row.get("role") is not None and not (assassin_out and roles[owner] == "Assassin"):
            problems.append(f"seat {viewer} sees {match.names[owner]}'s character {row['role']}")
        knows = evil[owner] and ((mine == "Merlin" and roles[owner] != "Mordred") or (
            viewer is not None and evil[viewer] and mine != "Oberon" and roles[owner] != "Oberon"))
        if row.get("side") is not None and not knows:
            problems.append(f"seat {viewer} sees {match.names[owner]}'s side {row['side']}")
        if row.get("looks_like") is not None and not (mine == "Percival" and roles[owner] in ("Merlin", "Morgana")):
            problems.append(f"seat {viewer} sees what Percival sees of {match.names[owner]}")
    if match.decision is not None and match.phase.name == "Quest" and match.pending:
        team = [s for s, p in enumerate(match.players) if p["on_team"]]
        problems += _hidden_actors_problems(view, match, viewer, team)
        if "answers" in (view.get("decision") or {}):
            problems.append(f"seat {viewer} sees quest cards")
    return problems


GAME_PROBLEMS = {
    "coup": coup_problems,
    "bang": bang_problems,
    "dsfgs": declarative_problems({
        "role": lambda m, o: m.players[o]["role_revealed"] is True,
        "team": lambda m, o: m.players[o]["role_revealed"] is True,
        "secret_info_access": lambda m, o: False,
    }),
    "heist": declarative_problems({"role": lambda m, o: m.players[o]["is_alive"] is False}),
    "werewolf": werewolf_problems,
    "avalon": avalon_problems,
}


# ---------------------------------------------------------------------------- history (BANG! log content)
@dataclass
class Watch:
    """Per-match memory: which events were already checked, and the hidden cards before the last move."""

    checked: int = 0
    hidden_before: dict[int | None, set[str]] = field(default_factory=dict)
    seen_public: set[str] = field(default_factory=set)
    remembered: int = 0
    inspected: set[tuple[int, str]] = field(default_factory=set)  # Werewolf: (seer, player inspected)


def _bang_public(match: Match) -> set[str]:
    from intrigue.games.bang.cards import label

    public = {label(c) for p in match.players for c in p["table"]}
    for pile in ("discard", "store", "flipped"):
        public.update(label(c) for c in match.state[pile])
    return public


def remember_public(match: Match, watch: Watch) -> set[str]:
    """BANG!: every card label that has lain face up in this match. Such a card is no secret in a view
    (a table display may still show the discard pile of a moment ago); the log check still watches
    what is drawn from the deck."""
    if match.game.id == "bang":
        watch.seen_public |= _bang_public(match)
        # a card a public log line names is public knowledge (new_event_problems checks those lines)
        for event in match.events[watch.remembered:]:
            if event.audience.public:
                watch.seen_public |= _named_cards(event.text)
        watch.remembered = len(match.events)
    return watch.seen_public


def new_event_problems(match: Match, watch: Watch) -> list[str]:
    """BANG!: a log line that names a card hidden from one of its readers before and after it was written.

    Black Jack's second card is shown to everyone by the rules, so his "shows" line is not a leak.
    """
    problems = []
    if match.game.id != "bang":
        watch.checked = len(match.events)
        return problems
    viewers = [None, *range(len(match.names))]
    after = _bang_hidden_all(match, viewers)
    if match.over:
        after = {v: set() for v in viewers}
    fresh = match.events[watch.checked:]
    compare = after
    reshuffles = [i for i, event in enumerate(fresh) if "shuffled into a new deck" in event.text]
    if reshuffles:
        # the discard pile, public a moment ago, became the deck during this move: what was played or
        # discarded before that (in this move) was public and may be anywhere now
        from intrigue.games.bang.cards import label

        deck = {label(c) for c in match.state["deck"]}
        compare = {v: hidden - deck for v, hidden in after.items()}
        fresh = fresh[reshuffles[-1]:]
    for event in fresh:
        named = _named_cards(event.text)
        if "shows his second card" in event.text or not named:
            continue
        for viewer in viewers:
            if not event.audience.includes(match, viewer):
                continue
            before = watch.hidden_before.get(viewer, after[viewer])
            for hidden in sorted(named & before & compare[viewer]):
                problems.append(f"the log line {event.text!r} tells seat {viewer} the hidden card {hidden}")
    watch.checked = len(match.events)
    watch.hidden_before = after
    return problems


# ---------------------------------------------------------------------------- one message
def wire_problems(wire: str, match: Match | None, secrets: set[str]) -> list[str]:
    """Checks on the exact text: no token, no token hash, no seed."""
    problems = []
    for secret in secrets:
        if secret and secret in wire:
            problems.append("a seat token or token hash is on the wire")
    if '"token_hash"' in wire:
        problems.append("a token_hash field is on the wire")
    if match is not None and not match.over and re.search(rf"(?<![0-9]){match.seed}(?![0-9])", wire):
        problems.append("the match seed is on the wire")
    return problems


def view_problems(view: dict[str, Any], match: Match, viewer: int | None, watch: Watch | None = None) -> list[str]:
    return generic_view_problems(view, match, viewer) + GAME_PROBLEMS[match.game.id](view, match, viewer, watch)


def non_view_problems(wire: str, match: Match | None, viewer: int | None) -> list[str]:
    """A message that is not a view must name no card the viewer cannot know (BANG!'s labels are unique)."""
    if match is None or match.over or match.game.id != "bang":
        return []
    return [f"a message names the hidden card {h}" for h in sorted(_named_cards(wire) & _bang_hidden_labels(match, viewer))]


def loads(wire: str) -> dict[str, Any]:
    return json.loads(wire)
