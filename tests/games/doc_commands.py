"""Run the commands a game's page in docs/games/ lists (with small numbers)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from intrigue.cli import main

ROOT = Path(__file__).resolve().parents[2]


def commands(game_id: str) -> list[str]:
    page = (ROOT / "docs" / "games" / f"{game_id}.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", page, re.S).group(1)
    return [line.split("#")[0].strip() for line in block.splitlines() if line.startswith("intrigue ")]


def run(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    words = shlex.split(command)[1:]
    words = ["20" if word == "1000" else str(tmp_path / word) if word.endswith(".svg") else word for word in words]
    if words[0] == "scenario":
        words[1] = str(ROOT / words[1])
    with pytest.raises(SystemExit) as done:
        main(words)
    captured = capsys.readouterr()
    assert done.value.code in (0, None), captured.err
    return captured.out
