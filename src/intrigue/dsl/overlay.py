"""Extension files: phases and branches added to a game's DSL file without editing it.

A game's DSL file is its single flow. A variant of the game (Coup's Inquisitor,
its Reformation expansion) differs from it in a few places: a few new phases and
a few new branches out of existing ones. An extension file says exactly that,
next to the file it extends, which stays untouched::

    extends: coup.yaml               # the DSL file it extends (relative to this one)
    description: What the variants add.
    phases:                          # new phases, written as in any DSL file;
      31:                            # their ids must be new
        name: Examine — Target Shows a Card
        ...
    branches:                        # branches added to phases of either file
      4:
        If no challenge and action is Examine:
          id: 31
          name: Examine — Target Shows a Card

Added branches come before the phase's own (a variant's special case goes first
for ``when``-routed phases). A phase whose ``next_phase`` was a single reference
becomes conditional: its old reference stays as the last branch, ``Otherwise``,
and the game's rules module routes it. The merged game is validated as one file;
every problem names the file and line it comes from. A game binds its extension
files with ``GameBinding(..., extensions=["variants.yaml"])``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from . import source as source_module
from .source import Path_, Problem, Source, dotted
from .validate import Checked, validate_source

#: The keys an extension file may have.
KEYS = ("extends", "description", "phases", "branches")
#: The branch a single ``next_phase`` becomes when branches are added to it.
OTHERWISE = "Otherwise"


@dataclass
class MergedSource(Source):
    """Several files read as one: each key path remembers the file and the key path it was written at."""

    origins: dict[Path_, tuple[str, Path_]] = field(default_factory=dict)

    def origin(self, path: Path_) -> tuple[str, Path_]:
        path = tuple(path)
        probe = path
        while probe:
            if probe in self.origins:
                file, written = self.origins[probe]
                return file, written + path[len(probe):]
            probe = probe[:-1]
        return self.file, path

    def problem(self, path: Path_, message: str, severity: str = "error") -> Problem:
        file, written = self.origin(path)
        found = Problem(file, self.line_of(path), dotted(written), message, severity)
        self.problems.append(found)
        return found


def is_extension(path: str | Path) -> bool:
    """Whether a YAML file is an extension file (it has a top-level ``extends``)."""
    parsed = source_module.load(path)
    return isinstance(parsed.data, dict) and "extends" in parsed.data


def validate_extension_file(path: str | Path, *, names: Iterable[str] | None = None) -> Checked:
    """Validate an extension file merged onto the file it ``extends``."""
    path = Path(path)
    parsed = source_module.load(path)
    base = parsed.data.get("extends") if isinstance(parsed.data, dict) else None
    if not isinstance(base, str):
        parsed.problem(("extends",), "an extension file names the DSL file it extends")
        return Checked(parsed, None, list(parsed.problems))
    return validate_extended(path.parent / base, [path], names=names)


def validate_extended(base: str | Path, extensions: Iterable[str | Path], *,
                      names: Iterable[str] | None = None) -> Checked:
    """Validate ``base`` with every extension file merged onto it, as one game."""
    base = Path(base)
    merged = _adopt(source_module.load(base))
    if merged.data is None or not isinstance(merged.data, dict):
        return validate_source(merged, names=names)
    for path in extensions:
        _merge(merged, source_module.load(path), base)
    return validate_source(merged, names=names)


def _adopt(source: Source) -> MergedSource:
    merged = MergedSource(file=source.file, data=source.data, lines=dict(source.lines),
                          problems=list(source.problems))
    merged.origins = {path: (source.file, path) for path in source.lines}
    return merged


def _merge(merged: MergedSource, extension: Source, base: Path) -> None:
    """Add one extension file's phases and branches to ``merged`` (problems go to the extension's lines)."""
    merged.problems.extend(extension.problems)
    data = extension.data
    if data is None:
        return
    if not isinstance(data, dict):
        merged.problems.append(Problem(extension.file, 1, "", "an extension file is a mapping with "
                                                                "'extends', 'phases' and 'branches'"))
        return

    def problem(path: Path_, message: str) -> None:
        merged.problems.append(Problem(extension.file, extension.line_of(path), dotted(path), message))

    for key in data:
        if key not in KEYS:
            problem((key,), f"unknown key {key!r} (an extension file has {', '.join(KEYS)})")
    named = data.get("extends")
    if not isinstance(named, str):
        problem(("extends",), "an extension file names the DSL file it extends")
    elif (Path(extension.file).parent / named).resolve() != base.resolve():
        problem(("extends",), f"extends {named!r}, but it is merged onto {base.name}")
    phases = merged.data.setdefault("phases", {})
    if not isinstance(phases, dict):
        return
    added = data.get("phases") or {}
    if not isinstance(added, dict):
        problem(("phases",), "phases is a mapping of phase ids to phases")
        added = {}
    for phase_id, phase in added.items():
        if phase_id in phases:
            problem(("phases", phase_id), f"phase {phase_id} already exists in {Path(merged.file).name}; "
                                          "an extension adds phases with new ids")
            continue
        phases[phase_id] = phase
        _copy_lines(merged, extension, ("phases", phase_id), ("phases", phase_id))
    branches = data.get("branches") or {}
    if not isinstance(branches, dict):
        problem(("branches",), "branches is a mapping of phase ids to {condition: {id, name}}")
        return
    for phase_id, new in branches.items():
        where = ("branches", phase_id)
        phase = phases.get(phase_id)
        if not isinstance(phase, dict):
            problem(where, f"phase {phase_id} does not exist")
            continue
        if not isinstance(new, dict) or not new:
            problem(where, "branches of a phase are a mapping of conditions to {id, name}")
            continue
        _add_branches(merged, extension, phase, phase_id, new, problem)


def _add_branches(merged: MergedSource, extension: Source, phase: dict[str, Any], phase_id: Any,
                  new: dict[str, Any], problem: Any) -> None:
    own = phase.get("next_phase")
    at = ("phases", phase_id, "next_phase")
    if own is None or (isinstance(own, dict) and "id" in own and own["id"] is None):
        problem(("branches", phase_id), f"phase {phase_id} ends the game: no branch can leave it")
        return
    if isinstance(own, dict) and "id" not in own:
        existing = dict(own)
    else:  # a single reference becomes the last branch
        existing = {OTHERWISE: own}
        _move_lines(merged, at, at + (OTHERWISE,))
    for condition in new:
        if condition in existing:
            problem(("branches", phase_id, condition), f"phase {phase_id} already has the branch {condition!r}")
    fresh = {condition: ref for condition, ref in new.items() if condition not in existing}
    phase["next_phase"] = {**fresh, **existing}
    for condition in fresh:
        _copy_lines(merged, extension, ("branches", phase_id, condition), at + (condition,))


def _copy_lines(merged: MergedSource, extension: Source, written: Path_, path: Path_) -> None:
    for key, line in extension.lines.items():
        if key[:len(written)] == written:
            merged.lines[path + key[len(written):]] = line
            merged.origins[path + key[len(written):]] = (extension.file, key)


def _move_lines(merged: MergedSource, old: Path_, new: Path_) -> None:
    for key in [k for k in merged.lines if k[:len(old)] == old and k != old]:
        moved = new + key[len(old):]
        merged.lines[moved] = merged.lines.pop(key)
        merged.origins[moved] = merged.origins.pop(key)
    merged.lines[new] = merged.lines[old]
    merged.origins[new] = merged.origins[old]
