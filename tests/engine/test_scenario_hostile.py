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
    # an empty per-player key: "error: TypeError: 'NoneType' object is not iterable"
    C2 + "steps:\n  - expect: {coins: null}\n": ":4: step 1: expect coins needs a mapping {player: …}, not None",
    C2 + "steps:\n  - expect: {alive: }\n": ":4: step 1: expect alive needs a mapping {player: …}, not None",
    B4 + "steps:\n  - expect: {distance: null}\n":
        ":4: step 1: expect distance needs a mapping {player: …}, not None",
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


def _run(path, capsys):
    with pytest.raises(SystemExit) as done:
        main(["scenario", str(path)])
    return done.value.code, capsys.readouterr().out.strip().splitlines()


def test_a_billion_laughs_file_is_refused_at_once(tmp_path, capsys):
    """A few aliases can stand for 10^9 options: the runner compared them one by one (it hung)."""
    lines = ["game: coup", "players: [Aria, Blake]", "x0: &a0 [" + ", ".join(["Income"] * 10) + "]"]
    lines += [f"x{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    lines += ["steps:", "  - expect: {options: {Aria: *a8}}"]
    path = tmp_path / "laughs.yaml"
    path.write_text("\n".join(lines) + "\n")
    code, out = _run(path, capsys)
    assert code == 1 and out[0].startswith(f"{path}:") and "expand to more than 100,000 values" in out[0]


def test_a_self_referring_alias_is_refused(tmp_path, capsys):
    path = tmp_path / "loop.yaml"
    path.write_text("game: coup\nplayers: [Aria, Blake]\nsteps: &a\n  - *a\n")
    code, out = _run(path, capsys)
    assert (code, out[0]) == (1, f"{path}:3: a YAML alias refers to the value that contains it")


def test_a_file_that_is_not_utf8_fails_with_its_line(tmp_path, capsys):
    """It was a traceback (UnicodeDecodeError) that stopped the whole run."""
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"game: coup\nplayers: [Aria, Blake]\nsteps:\n  - Aria: Caf\xe9\n")
    code, out = _run(path, capsys)
    assert (code, out[0]) == (1, f"{path}:4: not UTF-8 text: byte 0xe9 cannot be read (save the file as UTF-8)")


def test_a_control_character_is_named_with_its_line_and_column(tmp_path, capsys):
    """It said 'in "<unicode string>", position 12' instead of the file's line."""
    path = tmp_path / "nul.yaml"
    path.write_bytes(b"game: coup\npl\x00ayers: [Aria, Blake]\n")
    code, out = _run(path, capsys)
    assert (code, out[0]) == (1, f"{path}:2: not valid YAML, column 3: character '\\x00' is not allowed in a YAML file")


def test_a_folder_without_scenarios_fails(tmp_path, capsys):
    """`intrigue scenario some/empty/folder` said '0 passed, 0 failed' and exited 0: a CI run pointed at
    the wrong folder passed having run nothing."""
    code, out = _run(tmp_path, capsys)
    assert code == 1
    assert out == [f"{tmp_path}: holds no scenario file (*.yaml, *.yml)", "0 passed, 1 failed"]


def test_shuffle_0_keeps_the_pile_in_order(tmp_path, capsys):
    """`shuffle: 0` was passed on as 0, and the engine (which tests `is False`) shuffled anyway."""
    path = tmp_path / "zero.yaml"
    path.write_text("game: coup\nplayers: [Aria, Blake, Casey]\nsetup:\n  deck: [Duke, Duke, Duke, Captain, "
                    "Captain, Captain, Assassin, Assassin, Assassin, Contessa, Contessa, Contessa, Ambassador, "
                    "Ambassador, Ambassador]\n  shuffle: 0\nsteps:\n"
                    "  - expect: {hand: {Aria: [Duke, Duke], Blake: [Duke, Captain]}}\n")
    code, out = _run(path, capsys)
    assert (code, out) == (0, ["1 passed, 0 failed"])
