"""Every `intrigue …` line in a shell block of README.md or docs/ is a command the CLI accepts.

The commands themselves run in the tests of their area (tests/test_readme.py, the docs tests of
tests/dsl, tests/agents, tests/env, tests/games/doc_commands.py, tests/cluster, ...); this one
catches the drift those would miss: a flag renamed, an argument dropped, a value of the wrong
type, in any page. Each line is parsed by the real command-line parser, as the shell would hand
it over, without running it.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import typer.main

from intrigue.cli import _register_commands, app

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
COMMAND = re.compile(r"^(?:\$ )?(?:\S+=\S+ )*(?:nice (?:-n \d+ )?)?(?:\.venv/bin/)?intrigue (.*)$")


SHELL = {"", "sh", "bash", "shell", "console"}


def shell_blocks(text: str) -> list[str]:
    """The page's fenced blocks in a shell language (or none), read fence by fence: a regex from one ``` to the
    next fell out of step after a ```python or ```json block and read the prose between blocks instead."""
    blocks, language, lines = [], None, []
    for line in text.splitlines():
        fence = re.match(r"^\s*```(\w*)", line)
        if fence and language is None:
            language, lines = fence.group(1), []
        elif fence:
            if language in SHELL:
                blocks.append("\n".join(lines))
            language = None
        elif language is not None:
            lines.append(line)
    return blocks


def documented() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for block in shell_blocks(page.read_text(encoding="utf-8")):
            for line in re.sub(r"\\\n\s*", " ", block).splitlines():  # a line continued with \ is one line
                match = COMMAND.match(line.strip())
                if match:
                    found.append((str(page.relative_to(ROOT)), match.group(1)))
    return found


COMMANDS = documented()


def words_of(rest: str) -> list[str]:
    """The intrigue command's own words: a comment, a redirection and what follows `&&` or `|` cut off."""
    words = shlex.split(re.sub(r"\$\([^)]*\)", "X", rest), comments=True)
    for stop in (">", "&&", "|", "2>"):
        if stop in words:
            words = words[:words.index(stop)]
    return words


def test_the_pages_document_commands():
    pages = {page for page, _ in COMMANDS}
    assert {"README.md", "docs/performance.md", "docs/writing-a-game.md", "docs/scaling.md", "docs/agents.md",
            "docs/bots.md"} <= pages, pages
    agents = [rest for page, rest in COMMANDS if page == "docs/agents.md"]
    assert "play heist --players 5 --bots ismcts:fast --seat 3 --seed 7" in agents  # after its ```python blocks
    assert len(COMMANDS) > 40


@pytest.fixture(scope="module")
def cli():
    _register_commands()  # as `intrigue` does before it parses anything
    return typer.main.get_command(app)


@pytest.mark.parametrize(("page", "rest"), COMMANDS, ids=[f"{p}: {r[:60]}" for p, r in COMMANDS])
def test_the_command_line_parses(cli, page, rest):
    command, args, path = cli, words_of(rest), ["intrigue"]
    while hasattr(command, "commands"):  # a group: walk down to the subcommand, as the CLI does
        assert args, f"{page}: `intrigue {rest}` names no command"
        sub = command.commands.get(args[0])
        assert sub is not None, f"{page}: `intrigue {rest}`: no command {args[0]!r} under {' '.join(path)}"
        path.append(args.pop(0))
        command = sub
    if "[--" in rest:  # a synopsis (`arena GAME --agents A,B,… [--deals N]`): every option it names exists
        known = {name for param in command.params for name in getattr(param, "opts", [])}
        named = set(re.findall(r"(?<![\w-])--[\w-]+", rest))
        assert named <= known, f"{page}: `intrigue {rest}`: no option {sorted(named - known)}"
        return
    try:
        command.make_context(" ".join(path), list(args))
    except Exception as error:  # noqa: BLE001 - the parser's own (vendored) exception classes
        if type(error).__name__ != "Exit":  # --help
            message = error.format_message() if hasattr(error, "format_message") else repr(error)
            pytest.fail(f"{page}: `intrigue {rest}`: {message}")
