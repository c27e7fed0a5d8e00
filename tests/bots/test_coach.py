"""The coach's sentences: right for the position, made only of what the seat can see, and
translated; the guided first game's script does what its steps say."""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from intrigue import bots, games
from intrigue.bots import SeatView, coach
from intrigue.engine import Match
from intrigue.games import tables, tutorials
from intrigue.games.coup import coach as coup_coach
from intrigue.games.coup.rules import court
from tests.games.table_strings import placeholders

COUP = games.get("coup")
NAMES = ["Zoe", "Ada", "Basil"]
STATIC = Path(__file__).resolve().parents[2] / "src" / "intrigue" / "web" / "static"


def deal(zoe: list[str], ada: list[str], basil: list[str]) -> Match:
    """A Coup match with these hands (the rest of the court in a fixed order), Zoe first."""
    rest = Counter(court(3)) - Counter(zoe + ada + basil)
    setup = {"hands": {"Zoe": zoe, "Ada": ada, "Basil": basil}, "deck": sorted(rest.elements()),
             "shuffle": False, "first": "Zoe"}
    return Match(COUP, NAMES, 0, setup=setup)


def play(match: Match, *moves: tuple[str, str]) -> Match:
    for name, option in moves:
        match.choose(NAMES.index(name), option)
    return match


def reason(match: Match, option: str, seat: int = 0) -> str:
    """The coach's sentence for ``option`` (chosen by hand, not searched) at ``seat``."""
    view = SeatView.of(match, seat)
    assert option in view.options, (option, view.options)
    return coach.explain(view, option, {}).text


#: Basil bluffs a Captain, is challenged and gives up his Duke: a Duke is face up.
BASIL_LOSES_HIS_DUKE = (("Zoe", "Income"), ("Ada", "Income"), ("Basil", "Steal Zoe"), ("Zoe", "Challenge"),
                        ("Basil", "Lose Duke"), ("Zoe", "Income"), ("Ada", "Tax"))


def test_every_duke_accounted_for_means_challenge():
    match = play(deal(["Duke", "Duke"], ["Captain", "Contessa"], ["Duke", "Assassin"]), *BASIL_LOSES_HIS_DUKE)
    assert reason(match, "Challenge") == \
        "All 3 Duke cards are in your hand or face up: Ada cannot have one, so challenge."


def test_two_of_three_accounted_for_makes_a_claim_unlikely():
    match = play(deal(["Duke", "Duke"], ["Captain", "Contessa"], ["Duke", "Assassin"]),
                 ("Zoe", "Income"), ("Ada", "Tax"))
    assert reason(match, "Challenge") == \
        "2 of the 3 Duke cards are in your hand or face up: Ada is unlikely to hold one."
    # With one Duke in view the coach has no fact for challenging: the search's figures speak.
    other = play(deal(["Duke", "Captain"], ["Captain", "Contessa"], ["Duke", "Assassin"]),
                 ("Zoe", "Income"), ("Ada", "Tax"))
    view = SeatView.of(other, 0)
    assert coup_coach.explain(view.observation, 0, "Challenge", {}) is None
    assert coach.explain(view, "Challenge", {"Challenge": (40, 0.55), "Pass": (20, 0.4)}).text == \
        "In 40 simulated games it won 55%, 15 points more than Pass."


def test_blocks_coins_and_claims():
    match = play(deal(["Duke", "Contessa"], ["Captain", "Assassin"], ["Captain", "Ambassador"]),
                 ("Zoe", "Income"), ("Ada", "Tax"), ("Zoe", "Pass"), ("Basil", "Pass"), ("Basil", "Foreign Aid"))
    assert reason(match, "Block Duke") == "You hold a Duke, so your block stands even if someone challenges it."
    play(match, ("Zoe", "Pass"), ("Ada", "Pass"))
    # Ada claimed a Duke (Tax) in the log: Foreign Aid could be blocked, Income cannot.
    assert reason(match, "Income") == \
        "Ada has claimed a Duke and could block Foreign Aid: Income's 1 coin is safe."
    assert reason(match, "Tax") == "You hold a Duke: Tax gives you 3 coins and a challenge would fail."
    fresh = deal(["Assassin", "Captain"], ["Ambassador", "Contessa"], ["Duke", "Duke"])
    assert reason(fresh, "Foreign Aid") == "Nobody has claimed a Duke yet: Foreign Aid's 2 coins are likely to go through."
    assert reason(fresh, "Steal Ada") == "You hold a Captain: stealing 2 coins from Ada survives a challenge."
    assert reason(fresh, "Tax") == \
        "Tax gives 3 coins, and 3 of the 3 Duke cards are out of sight, so your claim is believable."


def test_assassination_coup_and_losing_a_card():
    match = play(deal(["Assassin", "Captain"], ["Duke", "Ambassador"], ["Contessa", "Contessa"]),
                 ("Zoe", "Income"), ("Ada", "Income"), ("Basil", "Income"))
    assert reason(match, "Assassinate Ada") == \
        "You hold an Assassin and nobody has claimed a Contessa yet: assassinating Ada is likely to work."
    # A constructed observation: Zoe with 7 coins, and Ada down to her last card.
    view = SeatView.of(match, 0)
    rich = copy.deepcopy(view.observation)
    rich["state"]["players"][0]["coins"] = 7
    rich["state"]["players"][1]["influences"][0] = {"character": "Captain", "revealed": True}
    assert coup_coach.explain(rich, 0, "Coup Ada", {})[0] == coup_coach.COUP_OUT
    assert coup_coach.explain(rich, 0, "Coup Basil", {}) == (coup_coach.COUP, {"coins": 7, "player": "Basil"})
    rich["state"]["players"][0]["coins"] = 10
    assert coup_coach.explain(rich, 0, "Coup Basil", {}) == (coup_coach.COUP_FORCED, {})
    # Zoe bluffs a Duke, Ada challenges: which card to keep, and why.
    play(match, ("Zoe", "Tax"), ("Ada", "Challenge"))
    assert reason(match, "Lose Captain") == "Keep your Assassin: for 3 coins it takes away another player's card."
    assert reason(match, "Lose Assassin") == "Keep your Captain: it steals 2 coins and blocks stealing."


def test_the_search_figures_when_no_fact_helps():
    assert coach.from_figures("Tax", {"Tax": (120, 0.62), "Income": (30, 0.47), "Exchange": (5, 0.8)}).text == \
        "In 120 simulated games it won 62%, 15 points more than Income."
    close = coach.from_figures("Tax", {"Tax": (120, 0.51), "Income": (60, 0.5)})
    assert close.key == "coach.close" and close.args == {"games": 120, "win": 51, "other": "Income", "other_win": 50}
    favoured = coach.from_figures("Tax", {"Tax": (150, 0.5), "Income": (50, 0.6)})
    assert favoured.text == "The search tried it most (75% of 200 simulated games) and it won 50% of them."
    assert coach.from_figures("Tax", {}).key == "coach.guess"
    # A rival tried only a few times is not compared with: its rate means little.
    few = coach.from_figures("Pass", {"Pass": (118, 0.56), "Challenge": (3, 0.0)})
    assert few.text == "The search tried it most (98% of 121 simulated games) and it won 56% of them."
    caught = play(deal(["Duke", "Duke"], ["Captain", "Contessa"], ["Duke", "Assassin"]),
                  ("Zoe", "Income"), ("Ada", "Tax"), ("Zoe", "Challenge"))
    ada = SeatView.of(caught, 1)  # Ada had no Duke: which card does she lose?
    assert sorted(ada.options) == ["Lose Captain", "Lose Contessa"]
    single = coach.hint(SeatView(COUP, 1, ada.observation, ada.options[:1]))
    assert single.option == ada.options[0] and single.reason.text == "It is your only option."


def hidden_variants(observation: dict, seat: int) -> list[dict]:
    """The observation with every other player's face-down cards forged in several ways."""
    variants = []
    for fill in ("Duke", "Contessa", "Assassin", "Captain", "Ambassador"):
        forged = copy.deepcopy(observation)
        for owner, player in enumerate(forged["state"]["players"]):
            for slot in player["influences"]:
                if owner != seat and not slot["revealed"]:
                    slot["character"] = fill
        variants.append(forged)
    return variants


def test_the_reasons_never_read_a_face_down_card_of_another_player():
    """Forged observations that show the others' face-down cards get the same sentence for every option."""
    positions = [play(deal(["Duke", "Duke"], ["Captain", "Contessa"], ["Duke", "Assassin"]), *BASIL_LOSES_HIS_DUKE),
                 play(deal(["Assassin", "Captain"], ["Duke", "Ambassador"], ["Contessa", "Contessa"]),
                      ("Zoe", "Income"), ("Ada", "Income"), ("Basil", "Income")),
                 play(deal(["Duke", "Contessa"], ["Captain", "Assassin"], ["Captain", "Ambassador"]),
                      ("Zoe", "Income"), ("Ada", "Tax"), ("Zoe", "Pass"), ("Basil", "Pass"), ("Basil", "Foreign Aid"))]
    checked = 0
    for match in positions:
        view = SeatView.of(match, 0)
        stats = {option: (10, 0.5) for option in view.options}
        for option in view.options:
            honest = coup_coach.explain(view.observation, 0, option, stats)
            for forged in hidden_variants(view.observation, 0):
                assert coup_coach.explain(forged, 0, option, stats) == honest, option
                checked += 1
    assert checked >= 5 * 12


def test_a_hint_is_the_same_whatever_the_others_hold():
    """Two deals that differ only in Ada's face-down cards: same observation for Zoe, same hint."""
    first = play(deal(["Duke", "Duke"], ["Captain", "Contessa"], ["Duke", "Assassin"]), *BASIL_LOSES_HIS_DUKE)
    second = play(deal(["Duke", "Duke"], ["Ambassador", "Assassin"], ["Duke", "Assassin"]), *BASIL_LOSES_HIS_DUKE)
    assert first.players[1]["influences"] != second.players[1]["influences"]
    assert first.observe(0) == second.observe(0)
    hints = [coach.hint(SeatView.of(match, 0), iterations=60, seed=7) for match in (first, second)]
    assert hints[0].option == hints[1].option
    assert hints[0].reason == hints[1].reason
    assert hints[0].option in first.legal(0)
    # Every Duke is accounted for: the search challenges, and the coach says why.
    assert hints[0].option == "Challenge"
    assert hints[0].reason.text.startswith("All 3 Duke cards")


def test_hints_in_every_game_are_legal_options_with_a_sentence():
    for game_id in games.installed():
        game = games.get(game_id)
        match = Match(game, [f"P{i}" for i in range(max(3, game.min_players))], 3)
        seat = match.pending[0]
        found = coach.hint(SeatView.of(match, seat), iterations=20, seed=1)
        assert found.option in match.legal(seat), game_id
        assert found.reason.text and "{" not in found.reason.text, (game_id, found.reason)


# -- translations ---------------------------------------------------------------------------------------------
def test_every_coup_reason_and_tutorial_step_is_in_every_language():
    folder = tables.folder(COUP)
    wanted = list(coup_coach.TEMPLATES) + tutorials.texts(COUP)
    for lang in tables.LANGUAGES:
        catalog = json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))
        missing = [t for t in wanted if t not in catalog]
        assert not missing, f"{lang}.json lacks {missing}"
        for template in wanted:
            assert placeholders(catalog[template]) == placeholders(template), (lang, template)
            if lang != "en":
                assert catalog[template] != template, f"{lang}.json does not translate {template!r}"


def test_the_generic_reasons_are_in_the_clients_catalogs():
    english = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    for key, template in coach.GENERIC.items():
        assert english[key] == template
    for lang in ("de", "fr", "es", "zh"):
        catalog = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        for key, template in coach.GENERIC.items():
            assert placeholders(catalog[key]) == placeholders(template), (lang, key)
            assert catalog[key] != template


# -- the guided first game ------------------------------------------------------------------------------------
def tutorial_match(human: list[str], first_to_answer: str) -> tuple[Match, list[dict]]:
    """The tutorial's match with its scripted bots; Zoe plays ``human`` in order (answering windows
    before or after the bots, as ``first_to_answer`` says). Returns the match and every view Zoe had."""
    script = tutorials.tutorial(COUP)
    match = Match(COUP, NAMES, script.seed)
    players = {seat: bots.make("tutorial", seed=f"{script.seed}:{seat}") for seat in (1, 2)}
    human = list(human)
    views = [match.observe(0)]
    while not match.over and human and match.version < 40:
        pending = match.pending
        if 0 in pending and (first_to_answer == "Zoe" or pending == [0]):
            assert human[0] in match.legal(0), (human[0], match.legal(0), match.version)
            match.choose(0, human.pop(0))
        else:
            seat = next(s for s in pending if s != 0)
            match.choose(seat, players[seat].choose(SeatView.of(match, seat)))
        views.append(match.observe(0))
    return match, views


def resolve(path: str, view: dict):
    value = view
    for part in path.split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def offered(pattern: str, view: dict) -> bool:
    options = (view.get("decision") or {}).get("options") or []
    return any(re.search(pattern, o) for o in options) if pattern.startswith("^") else pattern in options


def walk_steps(views: list[dict]) -> list[tuple[str, int]]:
    """The browser's step machine (docs/web-client.md) over Zoe's views, pressing Next at once:
    each step and the version it was shown at; a step whose `by` passes first fails the test."""
    script = tutorials.tutorial(COUP)
    shown: list[tuple[str, int]] = []
    index, since, seen_option = 0, 0, False
    for view in views:
        while index < len(script.steps):
            step = script.steps[index]
            args = {name: resolve(path, view) for name, path in step.args.items()}
            choose = step.choose.format(**args) if step.choose else None
            if not shown or shown[-1][0] != step.id:
                when = step.when
                ready = True
                if when is not None:
                    ready = (when.phase is None or view["phase"]["name"] == when.phase) and \
                        (when.offers is None or offered(when.offers, view)) and \
                        (when.log is None or any(all(line.get(k) == v for k, v in when.log.items())
                                                 for line in view["log"] if line["version"] > since))
                elif choose:
                    ready = offered(choose, view)
                if not ready:  # a step waits only while the bots play
                    assert not offered("^", view), f"step {step.id} went astray (a decision it does not expect)"
                    assert step.by is None or view["version"] <= step.by, f"step {step.id} went astray"
                    break
                shown.append((step.id, view["version"]))
                seen_option = False
            if step.next:
                index, since = index + 1, view["version"]
                continue
            if offered(choose, view):
                seen_option = True
                break
            if seen_option:  # chosen (the option is no longer offered): the next step
                index, since = index + 1, view["version"]
                continue
            break
    return shown


@pytest.mark.parametrize("first_to_answer", ["Zoe", "bots"])
def test_the_tutorial_does_what_its_steps_say(first_to_answer):
    script = tutorials.tutorial(COUP)
    match = Match(COUP, NAMES, script.seed)

    def tells_the_story(m: Match) -> bool:
        hands = [sorted(s["character"] for s in p["influences"].values()) for p in m.players]
        return m.pending == [0] and hands[0] == ["Contessa", "Duke"] and "Duke" not in hands[1]

    if not tells_the_story(match):
        good = next(seed for seed in range(10_000) if tells_the_story(Match(COUP, NAMES, seed)))
        pytest.fail(f"the tutorial's seed no longer deals its story (the deal changed): seed {good} does")
    match, views = tutorial_match(["Income", "Challenge", "Block Duke", "Steal Ada", "Lose Contessa"],
                                  first_to_answer)
    events = [(line.get("event"), line.get("seat"), line["text"]) for line in views[-1]["log"]]
    texts = [text for _, _, text in events]
    assert "Ada declares Tax, claiming Duke." in texts
    assert "Zoe challenges Ada's Duke." in texts
    assert any(e == "lose" and s == 1 for e, s, _ in events)           # caught: Ada loses a card
    assert "Basil declares Foreign Aid." in texts
    assert "Zoe claims Duke to block Basil's Foreign Aid." in texts
    assert "Basil's Foreign Aid is blocked." in texts                  # nobody challenged the block
    assert "Ada challenges Zoe's Captain." in texts                    # the bluff is called
    assert "Zoe loses an influence: Contessa." in texts
    assert match.version <= script.script.until
    # The browser's steps follow the game, each in time, to the last one.
    assert [step for step, _ in walk_steps(views)] == [step.id for step in script.steps]


def test_a_player_who_leaves_the_script_is_told_the_game_went_its_own_way():
    """Zoe lets Ada's Tax pass instead of challenging: nobody is caught, so the guide stops."""
    match, views = tutorial_match(["Income", "Pass", "Block Duke", "Income"], "Zoe")
    with pytest.raises(AssertionError, match="step caught went astray"):
        walk_steps(views)


def test_tutorial_bots_play_their_fallback_outside_the_tutorial_match():
    script = tutorials.tutorial(COUP)
    match = Match(COUP, NAMES, 99)
    scripted = bots.make("tutorial", seed="99:1")
    plain = bots.make(script.bots, seed="99:1")
    for _ in range(30):
        if match.over:
            break
        seat = match.pending[0]
        view = SeatView.of(match, seat)
        if seat == 1:
            assert scripted.choose(view) == plain.choose(view)
        match.choose(seat, view.options[0])
    assert "tutorial" not in {entry["kind"] for entry in bots.kinds()}  # not offered in the lobby


def test_the_variants_get_sentences_or_the_search_figures():
    """With the Inquisitor or the Reformation in play, every option gets a sentence (a fact or the figures)."""
    for options in ({"characters": "inquisitor"}, {"reformation": True}):
        match = Match(COUP, NAMES, 11, options)
        for _ in range(12):
            if match.over:
                break
            seat = match.pending[0]
            view = SeatView.of(match, seat)
            for option in view.options:
                assert coach.explain(view, option, {option: (20, 0.5)}).text
            match.choose(seat, view.options[-1])
