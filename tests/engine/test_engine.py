"""The phase machine on the tiny test game: decisions, windows, routing, refusals."""

import copy
import random

import pytest

from intrigue.engine import BindingError, EngineError, GameBinding, Match, Refused, load, replay
from intrigue.simulate import random_play


def new(tiny, players=("Ann", "Bob", "Cid"), seed=1, **options):
    return Match(tiny, list(players), seed, options)


def test_match_starts_at_the_first_decision(tiny):
    m = new(tiny)
    assert m.phase.name == "Claim"
    assert m.pending == [0]
    assert m.legal(0) == ["High", "Low"]
    assert m.legal(1) == []


def test_window_opens_for_every_target_at_once(tiny):
    m = new(tiny)
    m.choose(0, "High")
    assert m.phase.name == "Challenge Window"
    assert sorted(m.pending) == [1, 2]


def test_all_passes_continue_and_empty_target_set_completes(tiny):
    m = new(tiny)
    m.choose(0, "High")
    m.choose(1, "Pass")
    assert m.pending == [2]  # still waiting for the last one
    m.choose(2, "Pass")
    # The bonus vote targets nobody (points >= 100), so it completed as if all passed.
    assert m.phase.name == "Claim"
    assert m.state["bonus_votes"] == 0
    assert m.players[0]["points"] == 1
    assert m.players[1]["is_leader"] is True


def test_first_closing_option_ends_the_window_for_everyone(tiny):
    m = new(tiny)
    m.choose(0, "Low")
    m.choose(2, "Challenge")
    assert m.phase.name == "Claim"  # resolved, scored, next round
    assert m.state["challenger"] == 3
    assert m.pending == [1]  # Bob leads now; Cid's window is closed
    with pytest.raises(Refused) as refused:
        m.choose(2, "Pass")
    assert refused.value.code == "not_pending"


def test_refused_choices_say_why_and_change_nothing(tiny):
    m = new(tiny)
    before = copy.deepcopy((m.players, m.state, m.version, m.phase_id, m.rng.getstate()))
    cases = [
        (1, "High", "not_pending", "Bob has no choice to make now (waiting for Ann)"),
        (0, "Medium", "not_offered", "'Medium' is not an option for Ann now (offered: High, Low)"),
        (7, "High", "unknown_seat", "there is no seat 7"),
    ]
    for seat, option, code, message in cases:
        with pytest.raises(Refused) as refused:
            m.choose(seat, option)
        assert refused.value.code == code
        assert str(refused.value) == message
    with pytest.raises(Refused) as stale:
        m.choose(0, "High", version=5)
    assert stale.value.code == "stale_version"
    assert copy.deepcopy((m.players, m.state, m.version, m.phase_id, m.rng.getstate())) == before


def test_choice_after_the_end_is_refused(tiny):
    m = new(tiny, players=("Ann", "Bob"))
    random_play(m, random.Random(3))
    assert m.over and m.winners
    with pytest.raises(Refused) as refused:
        m.choose(0, "High")
    assert refused.value.code == "over"


def test_single_option_is_taken_automatically(tiny):
    binding = _copy_binding(tiny)

    @binding.tool(name="prompt_claim")
    def only_high(m):
        for seat in m.targets:
            m.offer(seat, ["High"])

    m = Match(load(binding), ["Ann", "Bob"], 1)
    assert m.phase.name == "Challenge Window"  # the claim was made for Ann
    assert m.state["claim"] == "High"
    assert m.log == []  # auto-taken options are not choices


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_offering_a_window_to_everyone_at_once_plays_as_offering_it_seat_by_seat(tiny, seed):
    binding = _copy_binding(tiny)

    @binding.tool(name="offer_challenge")
    def offer_to_all(m):
        m.offer_all(m.targets, ["Challenge", "Pass", "Pass"], closing=("Challenge",))

    together = Match(load(binding), ["Ann", "Bob", "Cid", "Dee"], seed)
    one_by_one = new(tiny, ("Ann", "Bob", "Cid", "Dee"), seed)
    random_play(together, random.Random(seed))
    random_play(one_by_one, random.Random(seed))
    assert [(c.seat, c.option) for c in together.log] == [(c.seat, c.option) for c in one_by_one.log]
    assert [e.text for e in together.events] == [e.text for e in one_by_one.events]
    assert together.state == one_by_one.state and together.winners == one_by_one.winners


def test_router_must_return_a_listed_phase(tiny):
    binding = _copy_binding(tiny)
    binding.route(2)(lambda m: 99)
    m = Match(load(binding), ["Ann", "Bob"], 1)
    m.choose(0, "High")
    with pytest.raises(EngineError, match=r"router of phase 2 \(Challenge Window\) returned 99; the DSL allows \[3, 4\]"):
        m.choose(1, "Pass")


def test_unbound_tools_and_unrouted_phases_are_reported_by_name(tiny):
    binding = _copy_binding(tiny)
    del binding.tools["score_round"]
    del binding.routers[2]
    with pytest.raises(BindingError) as error:
        load(binding)
    assert "tool 'score_round' is not bound" in str(error.value)
    assert "phase 2 (Challenge Window): conditional next_phase has no router" in str(error.value)


def test_audience_groups_are_evaluated_live(tiny):
    m = new(tiny)
    assert tiny.in_group(m, "leader", 0) and not tiny.in_group(m, "leader", 1)
    m.choose(0, "High")
    m.choose(1, "Pass")
    m.choose(2, "Pass")
    assert tiny.in_group(m, "leader", 1) and not tiny.in_group(m, "leader", 0)


def test_observe_hides_other_seats_secrets(tiny):
    m = new(tiny)
    view = m.observe(1)
    assert view["state"]["players"][1]["secret"] == m.players[1]["secret"]
    assert view["state"]["players"][0]["secret"] is None
    assert [line["text"] for line in view["log"] if "die" in line["text"]] == [
        f"Your die shows {m.players[1]['secret']}."]
    assert view["decision"]["options"] == [] and view["decision"]["waiting"] == ["Ann"]
    assert m.observe(0)["decision"]["options"] == ["High", "Low"]
    spectator = m.observe(None)
    assert all(p["secret"] is None for p in spectator["state"]["players"])
    assert not any("die" in line["text"] for line in spectator["log"])


@pytest.mark.parametrize("seed", range(40))
def test_same_seed_and_choices_give_the_same_match(tiny, seed):
    m = new(tiny, seed=seed)
    random_play(m, random.Random(seed))
    again = replay(tiny, ["Ann", "Bob", "Cid"], seed, {}, [(c.seat, c.option) for c in m.log])
    assert again.over and again.winners == m.winners
    assert again.players == m.players and again.state == m.state
    assert again.observe(0) == m.observe(0)


def test_clone_is_independent(tiny):
    m = new(tiny)
    copy_ = m.clone()
    copy_.choose(0, "High")
    assert m.pending == [0] and m.version == 0
    assert copy_.version == 1


def test_a_clone_mid_game_plays_on_as_the_match_would():
    """Every field of a match (slots) reaches its clone: a Coup clone taken after a few choices, played
    on with the same random picks, ends as the match does, and keeps what another layer set on it."""
    from intrigue import games
    for seed in range(6):
        m = Match(games.get("coup"), ["Ann", "Bob", "Cid", "Dee"], seed, headless=True)
        rng = random.Random(seed)
        for _ in range(5):
            seat = rng.choice(m.pending)
            m.choose(seat, rng.choice(m.legal(seat)))
        m.note = "set by another layer"
        copy_ = m.clone()
        assert copy_.note == "set by another layer"
        random_play(m, random.Random(seed + 100))
        random_play(copy_, random.Random(seed + 100))
        assert copy_.over and copy_.winners == m.winners
        assert [(c.seat, c.option, c.version) for c in copy_.log] == [(c.seat, c.option, c.version) for c in m.log]
        assert copy_.players == m.players and copy_.state == m.state
        assert [e.text for e in copy_.events] == [e.text for e in m.events]


def test_the_log_reads_in_the_order_lines_and_choices_were_made(tiny):
    """Lines announced later and accepted choices wait as tuples until the log is read: read at any
    point, and in a clone, the log is what was said and chosen, in order."""
    m = new(tiny)
    m.announce_later(lambda who: f"{who} sits down.", ("Ann",))
    m.announce("The table is set.")
    m.announce_later(lambda who: f"{who} sits down.", ("Bob",))
    copy_ = m.clone()
    m.choose(0, "High")
    lines = [e.text for e in m.events]
    said = lines.index("Ann sits down.")
    assert lines[said:said + 3] == ["Ann sits down.", "The table is set.", "Bob sits down."]
    assert len(lines) > said + 3  # and the choice's own lines after them
    assert [e.text for e in copy_.events] == lines[:len(copy_.events)]
    assert [(c.seat, c.option, c.version) for c in m.log] == [(0, "High", 0)]
    assert copy_.log == [] and copy_.version == 0
    copy_.choose(0, "Low")
    assert [(c.seat, c.option) for c in copy_.log] == [(0, "Low")]
    assert [(c.seat, c.option) for c in m.log] == [(0, "High")]


def test_a_lines_data_given_as_values_is_made_when_the_log_is_read(tiny):
    """``announce_later``'s data as ``(make, *values)``: the line a client reads carries
    ``make(*values)``, and nothing is made while nobody reads the log."""
    made = []

    def seated(who: str, chair: int) -> dict:
        made.append(who)
        return {"key": "{who} sits down.", "args": {"who": who}, "chair": chair}

    m = new(tiny)
    m.announce_later(lambda who: f"{who} sits down.", ("Ann",), data=(seated, "Ann", 2))
    m.announce_later(lambda who: f"{who} sits down.", ("Bob",), data={"chair": 3})
    assert made == []
    lines = [e for e in m.events if e.text.endswith("sits down.")]
    assert made == ["Ann"]
    assert lines[0].data == {"key": "{who} sits down.", "args": {"who": "Ann"}, "chair": 2}
    assert lines[0].entry["chair"] == 2 and lines[1].data == {"chair": 3}


def test_options_are_checked(tiny):
    with pytest.raises(ValueError, match="unknown option"):
        Match(tiny, ["Ann", "Bob"], 1, {"nope": 1})
    with pytest.raises(ValueError, match="takes 2 to 5 players"):
        Match(tiny, ["Ann"], 1)


def _copy_binding(game):
    original = game.binding
    return GameBinding(original.id, original.title, original.dsl_path, state=dict(original.state),
                       options=dict(original.options), module_file=original.module_file,
                       tools=dict(original.tools), routers=dict(original.routers),
                       observe=original.observe)


def test_generic_ui_texts_last_one_phase_so_the_canvas_does_not_grow():
    from intrigue import games

    dsfgs = games.get("dsfgs")
    m = Match(dsfgs, ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"], 4)
    rng = random.Random(4)
    sizes = []
    for _ in range(60):
        if m.over:
            break
        seat = rng.choice(m.pending)
        m.choose(seat, rng.choice(m.legal(seat)))
        sizes.append(len(m.canvas.components))
    assert max(sizes) <= 25, sizes
    assert sizes[-1] <= sizes[len(sizes) // 4] + 8  # no steady growth turn after turn


def test_answers_to_the_same_open_window_are_current_but_old_commands_are_stale(tiny):
    m = new(tiny)
    m.choose(0, "High", version=0)
    opened = m.version  # the window opened here; Bob and Cid both see version 1
    m.choose(1, "Pass", version=opened)
    m.choose(2, "Pass", version=opened)  # Bob's Pass landed first: still the same window
    assert m.phase.name == "Claim" and m.pending == [1]
    with pytest.raises(Refused) as stale:
        m.choose(1, "High", version=opened)  # issued before this decision opened
    assert stale.value.code == "stale_version"
    with pytest.raises(Refused) as future:
        m.choose(1, "High", version=m.version + 1)
    assert future.value.code == "stale_version"
    m.choose(1, "High", version=m.version)
