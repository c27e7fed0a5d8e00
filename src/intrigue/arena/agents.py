"""The arena's agents: built-in bots (any ``intrigue.bots.make`` spec, ``llm`` too) and remote ones.

``remote:SPEC`` is an agent in another process that plays over the WebSocket
protocol: with a bot spec (``remote:heuristic``) the arena starts ``intrigue
agent - --bot SPEC``; anything else is a command line (``remote:python
my_agent.py``) for a program of your own. Either way the program is started
once and reads the seats it is to play from standard input, one JSON object a
line, ``{"url": "http://127.0.0.1:PORT/room/CODE", "token": "…", "room":
"CODE", "seat": 2}``, and plays each match to its end before reading the next
(docs/agents.md).
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from .. import bots


@dataclass(frozen=True)
class AgentSpec:
    """One entry of ``--agents``: its label, and either a bot spec (local) or a remote command."""

    label: str
    bot: str | None = None
    command: tuple[str, ...] | None = None

    @property
    def remote(self) -> bool:
        return self.command is not None


def parse(spec: str, game_id: str, seed: int = 0, game_file: str | None = None) -> AgentSpec:
    """Read one agent spec; a bot spec that does not exist or is not made for the game is refused.
    ``game_file``: the game is not installed but read from this file, which a remote bot loads too."""
    spec = spec.strip()
    if not spec:
        raise ValueError("an empty agent spec")
    if spec.startswith("remote:"):
        rest = spec.removeprefix("remote:").strip()
        if not rest:
            raise ValueError("remote: needs a bot spec or a command (remote:heuristic, remote:python agent.py)")
        if _is_bot(rest):
            bots.check(rest, game_id)
            command = (sys.executable, "-m", "intrigue.cli", "agent", "-", "--bot", rest, "--seed", str(seed))
            if game_file is not None:
                command += ("--game-dir", game_file)
            return AgentSpec(spec, command=command)
        return AgentSpec(spec, command=tuple(shlex.split(rest)))
    bots.check(spec, game_id)
    return AgentSpec(spec, bot=spec)


def _is_bot(spec: str) -> bool:
    return " " not in spec and spec.partition(":")[0] in bots.REGISTRY




class AgentGone(RuntimeError):
    """A remote agent's program exited while the arena still had seats for it."""


class RemoteProcess:
    """A remote agent's program: started once, handed one seat a line on its standard input."""

    def __init__(self, spec: AgentSpec, log: Path):
        assert spec.command is not None
        self.spec = spec
        self.log_path = log
        self._log: IO[bytes] = open(log, "ab")  # noqa: SIM115 - closed in stop()
        try:
            self.process = subprocess.Popen(list(spec.command), stdin=subprocess.PIPE, stdout=self._log,
                                            stderr=subprocess.STDOUT)
        except OSError as exc:
            self._log.close()
            raise ValueError(f"{spec.label}: cannot start {spec.command[0]!r}: {exc}") from None

    def seat(self, url: str, token: str, room: str, seat: int) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            line = json.dumps({"url": url, "token": token, "room": room, "seat": seat}) + "\n"
            try:
                self.process.stdin.write(line.encode())
                self.process.stdin.flush()
                return
            except OSError:  # it exited between the look and the write
                self.process.wait(5)
        raise AgentGone(f"{self.spec.label} has exited (code {self.process.returncode}) before it was given "
                        f"seat {seat} of room {room}; the end of its output:\n{self.tail()}")

    def tail(self, lines: int = 20) -> str:
        """The end of the program's output (the log is in a scratch directory the arena removes)."""
        self._log.flush()
        try:
            text = self.log_path.read_bytes()[-8192:].decode("utf-8", "replace")
        except OSError:
            return "(no output)"
        return "\n".join(text.splitlines()[-lines:]) or "(no output)"

    def stop(self) -> None:
        if self.process.stdin:
            try:
                self.process.stdin.close()
            except OSError:
                pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.terminate()
            self.process.wait(10)
        self._log.close()
