"""What the second designer trial (Spyfall and Cockroach Poker, docs/examples/games, written from the
docs alone) tripped over: each test states what a designer needs; each failed before its fix."""

from __future__ import annotations

from intrigue import games
from intrigue.dsl import validate_text
from intrigue.engine import Match
from intrigue.scenario import run

from ..conftest import ROOT

EXAMPLES = ROOT / "docs" / "examples" / "games"
SPYFALL = str(EXAMPLES / "spyfall.yaml")

# A talk phase any player may end by accusing someone; the spy alone may also reveal themselves
# (a secret option); each player accuses once.
TALK = """
declaration:
  title: Talk
  description: Talk, then accuse.
  min_players: 3
  max_players: 4
  roles: [{name: Agent, description: Finds the spy.}, {name: Spy, description: Hides.}]
  player_states:
    name: {type: string}
    role: {type: string, visibility: owner}
    accused_once: {type: boolean}
    is_alive: {type: boolean}
    is_active: {type: boolean}
  player_states_template:
    player_states:
      1: {name: '', role: '', accused_once: false, is_alive: true, is_active: false}
  game_state: {accused: 0, deck: [], cards: [a, b, c, d, e, f]}
  public_state: [accused, cards]
  role_deal: {roles: {Spy: {counts: {3: 1, 4: 1}}, Agent: {rest: true}}}
phases:
  0:
    name: Deal
    completion_criteria: {type: UI_displayed}
    effects:
    - deal: roles
    - set: game.deck
      to: cards
    - shuffle: game.deck
    next_phase: {id: 1, name: Talk}
  1:
    name: Talk
    completion_criteria:
      type: timer
      seconds: 60
      target_players: {condition: player.is_alive == true}
      options:
      - {players: player.is_alive == true, except_self: true, if: me.accused_once == false}
      - {option: Reveal, if: "me.role == 'Spy'", secret: true}
      ends_early: EARLY
    next_phase:
      If the spy reveals: {id: 3, name: End, when: "choice == 'Reveal'"}
      If someone accuses: {id: 2, name: Accused, when: choice != null}
      When time runs out: {id: 3, name: End}
  2:
    name: Accused
    completion_criteria: {type: UI_displayed}
    effects:
    - set: game.accused
      to: chosen.id
    - set: actor.accused_once
      to: true
    - say: '{actor.name} accuses {chosen.name}.'
      to: everyone
    next_phase: {id: 1, name: Talk}
  3:
    name: End
    completion_criteria: {type: UI_displayed}
    effects:
    - win: "player.role == 'Spy'"
    next_phase: null
"""


def test_a_timer_phase_the_first_answer_ends_tells_who_answered_and_what():
    """`ends_early: any`: the first answer ends the phase, and the engine gives `choice`, `actor` and
    `chosen` as for one player's choice; the validator said they were null ("several players
    answer"), an error, so Spyfall's "stop the clock to accuse" could not be written."""
    checked = validate_text(TALK.replace("EARLY", "any"), "talk.yaml")
    assert [str(p) for p in checked.problems] == []
    several = validate_text(TALK.replace("EARLY", "majority"), "talk.yaml")
    assert any("'chosen' is null after phase 1" in str(p) for p in several.problems)


def _talk(tmp_path, early="any"):
    path = tmp_path / "talk.yaml"
    path.write_text(TALK.replace("EARLY", early), encoding="utf-8")
    return str(path)


def test_a_secret_option_hides_who_holds_it_from_players_who_have_no_other_option(tmp_path):
    """A secret option entry (the spy's Reveal) must leave every player asked looking alike: the
    cover was only the players offered something, so once the others had used their accusation the
    spy was the only one still waiting, in every seat's view. Now everyone asked appears to act; a
    player with nothing else to do is offered the acknowledgement."""
    steps = [{"Aria": "Blaise"}, {"Cass": "Aria"}, {"Blaise": "Aria"},
             {"expect": {"phase": "Talk", "waiting": ["Aria", "Blaise", "Cass"],
                         "options": {"Aria": ["Continue"], "Blaise": ["Continue"], "Cass": ["Reveal"]}}}]
    outcome = run({"game": _talk(tmp_path), "players": ["Aria", "Blaise", "Cass"],
                   "setup": {"roles": {"Aria": "Agent", "Blaise": "Agent", "Cass": "Spy"}}, "steps": steps})
    assert outcome.passed, [str(f) for f in outcome.failures]
    for seat in range(3):
        assert outcome.match.observe(seat)["waiting"] == ["Aria", "Blaise", "Cass"]


def test_an_acknowledgement_does_not_end_a_timer_phase_early(tmp_path):
    """With `ends_early: any` (or `majority`), a player pressing the acknowledgement of a secret option
    counted as an answer: with `any` an agent's 'Continue' ended the talk for everyone as if time
    had run out. It is no answer: only real ones end the clock early."""
    steps = [{"Aria": "Blaise"}, {"Aria": "Continue"},
             {"expect": {"phase": "Talk", "waiting": ["Blaise", "Cass"]}},
             {"Cass": "Reveal"}, {"expect": {"winner": "Cass"}}]
    outcome = run({"game": _talk(tmp_path), "players": ["Aria", "Blaise", "Cass"],
                   "setup": {"roles": {"Aria": "Agent", "Blaise": "Agent", "Cass": "Spy"}}, "steps": steps})
    assert outcome.passed, [str(f) for f in outcome.failures]
    # majority: of the players who may really answer (Blaise and Cass; Aria has only the acknowledgement)
    text = TALK.replace("EARLY", "majority").replace("if: me.accused_once == false", "if: me.id != 1")
    text = text[:text.index("    next_phase:\n      If the spy")] + "    next_phase: {id: 3, name: End}\n" \
        + text[text.index("  3:\n    name: End"):]
    path = tmp_path / "majority.yaml"
    path.write_text(text, encoding="utf-8")
    match = Match(games.load_path(path), ["Aria", "Blaise", "Cass"], seed=0, setup={"roles": {
        "Aria": "Agent", "Blaise": "Agent", "Cass": "Spy"}})
    assert match.legal(0) == ["Continue"]
    match.choose(0, "Continue")
    match.choose(1, "Cass")
    assert match.phase.name == "Talk" and not match.over
    match.choose(2, "Reveal")
    assert match.over


def test_shuffling_a_copy_leaves_the_list_it_was_copied_from_in_order(tmp_path):
    """`set: game.deck to: cards` then `shuffle: game.deck` shuffled `cards` too (one list under two
    names): Spyfall's public list of locations came out in the shuffled order, its first item the
    secret location, in every seat's view."""
    match = Match(games.load_path(_talk(tmp_path)), ["Aria", "Blaise", "Cass"], seed=2)
    assert match.state["cards"] == ["a", "b", "c", "d", "e", "f"]
    assert sorted(match.state["deck"]) == match.state["cards"] != match.state["deck"]
    spyfall = Match(games.load_path(SPYFALL), ["Aria", "Blaise", "Cass"], seed=1)
    assert spyfall.observe(0)["state"]["locations"] == games.load_path(SPYFALL).binding.state["locations"]


def test_a_bare_true_where_text_is_required_is_named_as_yaml_s_boolean():
    """`options: [True, False]` (Cockroach Poker's call) said only "input should be a valid string or
    input should be a valid dictionary ...", where a bare Yes gets the hint to quote it."""
    text = TALK.replace("- {option: Reveal, if: \"me.role == 'Spy'\", secret: true}", "- True").replace("EARLY", "any")
    problems = [str(p) for p in validate_text(text, "talk.yaml").problems]
    assert any("options.1: YAML reads a bare True as the boolean true: quote it ('True')" in p for p in problems), problems


def test_validate_warns_when_a_shuffled_list_is_offered_or_public():
    """The docs' recipe for a secret word (`shuffle: game.words`, the word `words[1]`, the spy's
    guess `- {items: words}`) offers the spy the words in the shuffled order, the secret one first,
    and nothing warned; nor when the shuffled list is in public_state (every seat sees its order)."""
    text = TALK.replace("EARLY", "any").replace("public_state: [accused, cards]", "public_state: [accused, cards, deck]")
    text = text.replace("- {option: Reveal, if: \"me.role == 'Spy'\", secret: true}",
                        "- {items: deck, if: \"me.role == 'Spy'\", secret: true}")
    problems = [str(p) for p in validate_text(text, "talk.yaml").problems]
    assert any("public_state.2: 'deck' is shuffled, and public" in p for p in problems), problems
    assert any("options.1.items: the items offered come from 'deck', which a shuffle reorders" in p
               for p in problems), problems
    # the list it was copied from is in written order: nothing to say
    quiet = TALK.replace("EARLY", "any").replace("- {option: Reveal, if: \"me.role == 'Spy'\", secret: true}",
                                                 "- {items: cards, if: \"me.role == 'Spy'\", secret: true}")
    assert not [p for p in validate_text(quiet, "talk.yaml").problems if "shuffle" in str(p)]


def test_the_rules_drawer_teaches_a_timer_phase_players_decide_in():
    """The rules drawer (made from the declaration) listed `player_action` phases only: Spyfall's
    heart, the questions where anyone may stop the clock to accuse and the spy may reveal
    themselves, was missing, and so was Werewolf's day (ready to vote)."""
    from intrigue.engine.ui import rules_sheet

    steps = {step["name"]: step for section in rules_sheet(games.load_path(SPYFALL).definition)["sections"]
             for step in section.get("steps", [])}
    questions = steps["Questions"]
    assert questions["text"].startswith("Ask and answer questions. Stop the clock")
    assert questions["options"] == ["Reveal and guess"] and questions["players"] is True
    assert questions["who"] == "Every player" and questions["everyone"] is False
    werewolf = rules_sheet(games.get("werewolf").definition)
    assert any(step["name"] == "Day" and step["options"] == ["Ready to vote"] and step["everyone"]
               for section in werewolf["sections"] for step in section.get("steps", []))


def test_a_whole_player_is_refused_as_a_value_or_in_a_line():
    """`say: '{actor} looks at the card.'` (a slip for `{actor.name}`) validated, and printed the
    actor's whole record, hidden hand and all, to every seat; `set: game.receiver to: chosen` (for
    `chosen.id`) validated too, and the game stopped later, far from the slip."""
    text = TALK.replace("EARLY", "any").replace("'{actor.name} accuses {chosen.name}.'",
                                                "'{actor} accuses {players[accused]}.'")
    text = text.replace("      to: chosen.id", "      to: chosen")
    problems = [str(p) for p in validate_text(text, "talk.yaml").problems]
    assert any("effects.0.to: 'chosen' is a whole player, hidden fields and all: keep one of its fields (chosen.id)"
               in p for p in problems), problems
    assert any("say: {actor} is a whole player, hidden fields and all: name one field ({actor.name})" in p
               for p in problems), problems
    assert any("say: {players[accused]} is a whole player" in p for p in problems), problems


def test_a_timer_phase_and_a_decision_refuse_each_others_keys():
    """`wait_for: single_player_choice` on a timer phase validated, then stopped the game at the table
    ("a single_player_choice but options were offered to 4 players"); `seconds: 30` on a vote
    validated and did nothing (a decision's time is the room's turn or window timer)."""
    text = TALK.replace("EARLY", "any\n      wait_for: single_player_choice")
    problems = [str(p) for p in validate_text(text, "talk.yaml").problems]
    assert any("phases.1.completion_criteria.wait_for: 'wait_for' belongs to a player_action phase" in p
               for p in problems), problems
    vote = TALK.replace("EARLY", "any").replace("    name: Accused\n    completion_criteria: {type: UI_displayed}",
                                                "    name: Accused\n    completion_criteria: {type: UI_displayed, seconds: 30}")
    problems = [str(p) for p in validate_text(vote, "talk.yaml").problems]
    assert any("phases.2.completion_criteria.seconds: 'seconds' belongs to a timer phase" in p and "warning" in p
               for p in problems), problems


def test_the_acknowledgement_of_a_secret_option_is_in_the_game_s_action_vocabulary():
    """A player asked who has no option beside someone's secret one now presses the acknowledgement
    (Spyfall's agent who has used their accusation): the RL environment's vocabulary must hold it,
    as it does for a secret phase; a game where everyone asked always has an option keeps its ids."""
    from intrigue.engine.vocabulary import derive

    assert derive(games.load_path(SPYFALL), 4)[-1] == "Continue"
    assert "Continue" not in derive(games.get("avalon"), 7)
