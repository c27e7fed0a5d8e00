"""intrigue play: a person against bots in a terminal, driven through a pseudo-terminal to a finished game."""

from __future__ import annotations

import re
import sys

import pexpect

from intrigue import games as registry
from intrigue.engine import Match
from intrigue.play import NAMES


def test_a_person_plays_a_whole_game_in_a_terminal():
    child = pexpect.spawn(sys.executable, ["-m", "intrigue.cli", "play", "coup", "--players", "3", "--bots",
                                           "heuristic", "--seed", "11"], encoding="utf-8", timeout=30,
                          dimensions=(50, 120), env={"COLUMNS": "120", "TERM": "dumb", "PYTHONUNBUFFERED": "1"})
    # the deal the person was given (what their browser seat would show them)
    mine = Match(registry.get("coup"), NAMES[:3], 11).observe(0)
    hand = [c["character"] for c in mine["state"]["players"][0]["influences"]]
    child.expect("you are Robin")
    child.expect(r"Your choice \(1-(\d+)\): ")
    screen = child.before
    assert all(card in screen for card in hand)  # the person sees their own cards
    child.sendline("/say I have the Duke")
    child.expect("Robin says: I have the Duke")
    child.sendline("0")  # not an option: asked again
    child.expect("Type a number from 1 to")
    choices = 0
    while True:
        found = child.expect([r"Your choice \(1-(\d+)\): ", r"Winner: ([^\r\n]+)"])
        if found == 1:
            break
        child.sendline("1")
        choices += 1
    winner = child.match.group(1)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert choices >= 1 and re.search(r"(Robin|Aria|Blake)", winner)


def test_bad_arguments_are_explained():
    out = pexpect.run(f"{sys.executable} -m intrigue.cli play coup --players 1", encoding="utf-8",
                      withexitstatus=True, env={"TERM": "dumb", "NO_COLOR": "1"})
    assert out[1] == 2 and "takes 2 to" in out[0]


def test_a_card_shown_to_the_person_names_whose_it_is():
    """Secret Chancellor (docs/examples/games): the Tyrant sees their own card and their teammate's."""
    from ..conftest import ROOT

    game = ROOT / "docs" / "examples" / "games" / "secret_chancellor.yaml"
    seed = next(s for s in range(100) if Match(registry.load_path(game), NAMES[:5], s).players[0]["role"] == "Tyrant")
    child = pexpect.spawn(sys.executable, ["-m", "intrigue.cli", "play", str(game), "--players", "5", "--seed",
                                           str(seed)], encoding="utf-8", timeout=30, dimensions=(50, 120),
                          env={"COLUMNS": "120", "TERM": "dumb", "PYTHONUNBUFFERED": "1"})
    child.expect(r"Your choice \(1-(\d+)\): ")
    match = Match(registry.load_path(game), NAMES[:5], seed)
    fascist = next(name for name, p in zip(NAMES, match.players) if p["role"] == "Fascist")
    assert "Robin · Tyrant · Fascist: role: Tyrant, party: Fascist" in child.before
    assert f"{fascist} · Fascist · Fascist: role: Fascist, party: Fascist" in child.before
    child.sendline("/quit")
    child.expect(pexpect.EOF)


def test_a_timer_phase_nobody_can_end_runs_out_and_the_game_goes_on(tmp_path):
    """A DSL `timer` without options waits for its clock alone; the terminal has none, so it runs out at once."""
    import io

    from rich.console import Console

    from intrigue.play import play

    from ..server.test_dsl_timing import CLOCKWORK

    path = tmp_path / "clockwork.yaml"
    path.write_text(CLOCKWORK.format(talk=60, pause=30))
    out = io.StringIO()
    match = play(registry.load_path(path), 3, "random", 1, Console(file=out, width=120), lambda prompt: "1")
    assert match.over and match.winners  # the spy wins: the Pause phase passed, the game reached its end
    assert "Pause: the time runs out." in out.getvalue()


def test_an_option_is_typed_as_a_person_types_it():
    """docs/agents.md: a number, or the option itself; `pass` for Pass was refused ("Type a number")."""
    from rich.console import Console

    from intrigue.play import _read_choice

    typed = iter(["steal aria", "STEAL BLAKE", "Pass"])
    console = Console(record=True, width=120)
    options = ["Income", "Steal Aria", "Steal Blake", "Pass"]
    assert [_read_choice(console, lambda _: next(typed), options, {}, "Robin") for _ in range(3)] == \
        ["Steal Aria", "Steal Blake", "Pass"]
    typed = iter(["steal", "/quit"])
    assert _read_choice(console, lambda _: next(typed), options, {}, "Robin") is None
    assert "Type a number from 1 to 4, or an option as listed." in console.export_text()
