"""Hostile scenario files (blind round 4): a malformed file fails with file:line and a clear message,
never a traceback, and a mistyped expectation never passes having checked nothing."""

import pytest

from intrigue.cli import main

C2 = "game: coup\nplayers: [Aria, Blake]\n"
B4 = "game: bang\nplayers: [Aria, Blake, Casey, Dana]\n"

HOSTILE = {  # file text -> the line the runner prints for it (after the file's path)
    # a traceback stopped the whole run (BANG!'s setup check met a list where a mapping belongs)
    B4 + "setup:\n  roles: [Sheriff]\nsteps:\n  - expect: {over: false}\n":
        ":3: setup.roles must be a mapping (player: …), not ['Sheriff']",
    B4 + "setup:\n  characters: {Aria: [Bart Cassidy]}\nsteps:\n  - expect: {over: false}\n":
        ":3: setup refused: setup.characters.Aria must be one name, not ['Bart Cassidy']",
    B4 + "setup:\n  health: [1]\nsteps:\n  - expect: {over: false}\n":
        ":3: setup.health must be a mapping (player: …), not [1]",
    # a bare name read letter by letter ("unknown character 'D'", "setup.dead names 'B'")
    C2 + "setup:\n  hands: {Aria: Duke}\nsteps:\n  - Aria: Income\n":
        ":3: setup refused: setup.hands.Aria must be a list of cards, not 'Duke'",
    C2 + "setup:\n  deck: Duke\nsteps:\n  - Aria: Income\n":
        ":3: setup refused: setup.deck must be a list of cards, top first, not 'Duke'",
    B4 + "setup:\n  dead: Blake\nsteps:\n  - expect: {over: false}\n":
        ":3: setup refused: setup.dead must be a list of players, not 'Blake'",
    # accepted silently: a timer of -1 timed every decision out at once, 'abc' failed at the first wait
    C2 + "options: {turn_timer: -1}\nsteps:\n  - wait: 1\n":
        ":3: option turn_timer must be a number of seconds above 0, or null (off), not -1",
    C2 + "options: {window_timer: abc}\nsteps:\n  - Aria: Income\n":
        ":3: option window_timer must be a number of seconds above 0, or null (off), not 'abc'",
    C2 + "setup:\n  shuffle: nope\nsteps:\n  - Aria: Income\n":
        ":3: setup refused: setup.shuffle must be true or false, not 'nope'",
    C2 + "seed: abc\nsteps:\n  - Aria: Income\n": ":3: 'seed' must be a whole number, not 'abc'",
    # passed having checked nothing: bool('maybe') is true
    C2 + "steps:\n  - expect: {alive: {Aria: maybe}}\n":
        ":4: step 1: expect alive needs true or false for each player, not {'Aria': 'maybe'}",
    C2 + "steps:\n  - expect: {over: maybe}\n": ":4: step 1: expect over needs true or false, not 'maybe'",
    # "error: TypeError: 'int' object is not iterable"
    C2 + "steps:\n  - expect: {state: {Aria: 3}}\n":
        ":4: step 1: expect state.Aria needs a mapping {field: value}, not 3",
    # a null or a list as a player's name became the player "None" / "['a']"
    "game: coup\nplayers: [Aria, null]\nsteps:\n  - Aria: Income\n":
        ":2: player names must be names (text), not ['Aria', None]",
    # an infinite wait or timer ran every timer out (or none); NaN passed as a wait of nothing
    C2 + "steps:\n  - wait: .inf\n": ":4: step 1: 'wait' needs a number of seconds, not inf",
    C2 + "steps:\n  - wait: .nan\n": ":4: step 1: 'wait' needs a number of seconds, not nan",
    C2 + "options: {turn_timer: .inf}\nsteps:\n  - Aria: Income\n":
        ":3: option turn_timer must be a number of seconds above 0, or null (off), not inf",
    # the variants' setup keys: "setup refused: AttributeError …", or a name read letter by letter
    C2 + "options: {reformation: true}\nsetup:\n  allegiance: Loyalist\nsteps:\n  - Aria: Income\n":
        ":4: setup.allegiance must be a mapping (player: …), not 'Loyalist'",
    C2 + "setup:\n  revealed: [Duke]\nsteps:\n  - Aria: Income\n":
        ":3: setup.revealed must be a mapping (player: …), not ['Duke']",
    C2 + "setup:\n  revealed: {Aria: Duke}\nsteps:\n  - Aria: Income\n":
        ":3: setup refused: setup.revealed.Aria must be a list of cards, not 'Duke'",
    # BANG!'s per-player keys naming someone not playing were reported from bang.yaml's phase lines
    B4 + "setup:\n  roles: {Zed: Sheriff}\nsteps:\n  - expect: {over: false}\n":
        ":3: setup.roles names 'Zed', who is not playing",
    B4 + "setup:\n  dead: [Zed]\nsteps:\n  - expect: {over: false}\n":
        ":3: setup.dead names 'Zed', who is not playing",
    # a mapping under `waiting` compared its keys and passed
    C2 + "steps:\n  - expect: {waiting: {Aria: 1}}\n":
        ":4: step 1: expect waiting needs a list of players, not {'Aria': 1}",
}


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_file_fails_with_its_line_and_a_clear_message(text, tmp_path, capsys):
    path = tmp_path / "hostile.yaml"
    path.write_text(text)
    with pytest.raises(SystemExit) as done:
        main(["scenario", str(path)])
    assert done.value.code == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0] == f"{path}{HOSTILE[text]}"
    assert out[-1] == "0 passed, 1 failed"
