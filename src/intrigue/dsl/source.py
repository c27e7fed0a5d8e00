"""Read a DSL file as plain data while remembering the line of every key.

Validation errors must say ``file:line: key.path: message``; PyYAML's node tree
knows the lines, the constructed data does not. We compose the node tree once,
construct the data from it, and keep a map from key path to line.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

Path_ = tuple[Any, ...]


@dataclass
class Problem:
    """One thing wrong (or suspicious) in a DSL file."""

    file: str
    line: int
    path: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        prefix = "warning: " if self.severity == "warning" else ""
        where = f"{self.path}: " if self.path else ""
        return f"{self.file}:{self.line}: {prefix}{where}{self.message}"


@dataclass
class Source:
    """A parsed DSL file: its data and where each key sits."""

    file: str
    data: Any
    lines: dict[Path_, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    #: Plain (unquoted) scalars as written, by path: to explain what YAML made of them.
    plain: dict[Path_, str] = field(default_factory=dict)
    #: Keys without a value inside ``{...}``: usually text cut by a comma.
    bare_keys: set[Path_] = field(default_factory=set)

    def line_of(self, path: Path_) -> int:
        """The line of the deepest known key on ``path`` (1 if none)."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), 1)

    def problem(self, path: Path_, message: str, severity: str = "error") -> Problem:
        found = Problem(self.file, self.line_of(path), dotted(path), message, severity)
        self.problems.append(found)
        return found


def dotted(path: Path_) -> str:
    return ".".join(str(part) for part in path)


class _Loader(yaml.SafeLoader):
    pass


def parse(text: str, file: str = "<string>") -> Source:
    """Parse YAML text into a :class:`Source`; syntax errors become problems."""
    source = Source(file=file, data=None)
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            source.problem((), "the file is empty")
            return source
        source.data = loader.construct_document(node)
        _index(loader, node, (), source)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        message = f"YAML syntax error: {exc.problem}"
        if (exc.context and "flow mapping" in exc.context) or "expected ',' or '}'" in str(exc.problem):
            message += (" (inside {...} the characters , [ ] { } belong to YAML: quote an expression "
                        "that holds them, or write the mapping on several lines)")
            if "got '?'" in str(exc.problem):  # a question as a phase's name: {id: 4, name: Who is it?}
                message += "; so does a ? before } or , there: quote the text, name: 'Who is it?'"
        elif "another document" in str(exc.problem):
            message += (" (a game is one YAML document; several separated by --- make a scenario file: "
                        "run it with `intrigue scenario FILE`)")
        elif "mapping values are not allowed" in str(exc.problem):
            message += (" (': ' inside text that is not quoted starts a mapping: quote the text, "
                        "description: 'Cards: yours')")
        source.problems.append(Problem(file, line, _path_at(text, line), message))
    except yaml.YAMLError as exc:  # pragma: no cover - other PyYAML failures
        source.problems.append(Problem(file, 1, "", f"YAML error: {exc}"))
    finally:
        loader.dispose()
    return source


_KEY = re.compile(r"""^([A-Za-z0-9_][^:#{}\[\]]*?|'[^']*'|"[^"]*"):(?:\s|$)""")
_DASH = re.compile(r"-(?:\s+|$)")


def _path_at(text: str, line: int) -> str:
    """The key path of ``line`` (from 1) read from the indentation of the lines above it: a file that
    does not parse has no key index, but its problem should still say where it is."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    parts: list[str] = []
    limit: int | None = None  # an ancestor starts left of this column
    item = False  # the last part was a list item: its list's key may stand in the same column
    for index in range(line - 1, -1, -1):
        raw = lines[index]
        stripped = raw.lstrip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(raw) - len(stripped)
        dash = _DASH.match(stripped)
        key_indent = indent + (dash.end() if dash else 0)
        if limit is not None and (indent > limit or indent == limit and (dash or not item)):
            continue
        key = _KEY.match(stripped[dash.end():] if dash else stripped)
        if key and (limit is None or key_indent < limit or item and key_indent == limit):
            name = key.group(1)
            parts.append(name[1:-1] if name[:1] in "'\"" else name)
            limit, item = key_indent, False
        if dash:
            siblings = 0
            for before in lines[index - 1::-1] if index else []:
                other = before.lstrip()
                if not other or other.startswith("#"):
                    continue
                column = len(before) - len(other)
                if column < indent or column == indent and not _DASH.match(other):
                    break  # the list's own key, or what holds it
                siblings += column == indent
            parts.append(str(siblings))
            limit, item = indent, True
    return ".".join(reversed(parts))


def load(path: str | Path) -> Source:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        source = Source(file=str(path), data=None)
        source.problems.append(Problem(str(path), 1, "", f"cannot read file: {exc}"))
        return source
    return parse(text, str(path))


def _index(loader: yaml.SafeLoader, node: yaml.Node, path: Path_, source: Source) -> None:
    source.lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.ScalarNode) and node.style is None:
        source.plain[path] = node.value
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            if key in seen:
                source.problems.append(
                    Problem(source.file, line, dotted(path + (key,)),
                            f"duplicate key (first defined on line {seen[key]})")
                )
            seen[key] = line
            source.lines[path + (key,)] = line
            if node.flow_style and isinstance(value_node, yaml.ScalarNode) and value_node.value == "" \
                    and value_node.tag == "tag:yaml.org,2002:null":
                source.bare_keys.add(path + (key,))
            _index(loader, value_node, path + (key,), source)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            source.lines[path + (index,)] = item.start_mark.line + 1
            _index(loader, item, path + (index,), source)
