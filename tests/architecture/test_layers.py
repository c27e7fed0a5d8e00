"""Imports flow one way, without circles: dsl → engine → games → bots, store → server → tools.

Read from the source (every ``import``, at the top of a module or inside a
function; only ``if TYPE_CHECKING:`` blocks are left out, as they never run), so
an upward import fails here before anyone has to untangle it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import intrigue

SRC = Path(intrigue.__file__).parent

#: Each package's layer: a module may import its own layer and those below it.
LAYERS = {
    "protocol": 0,  # the WebSocket messages: shared by the server, the client and agents
    "dsl": 0,
    "engine": 1,
    "games": 2,
    "store": 2,
    "bots": 3,
    "env": 4,
    "cluster": 4,  # leases, the bus, the shared directory, local services: the server's node mode uses them
    "client": 4,  # the protocol's client and the agent that seats a bot through it
    "server": 5,
    "web": 5,
    "graph": 4,  # draws any game's phase graph (the server serves it)
    # tools over everything
    "scenario": 6, "simulate": 6, "arena": 6, "play": 6, "bench": 7, "cli": 8, "__init__": 8,
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(path: Path) -> set[str]:
    """The intrigue modules ``path`` imports (resolved, absolute)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                found.update(a.name for a in child.names if a.name.startswith("intrigue"))
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[:len(base) - child.level + 1]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                if target.startswith("intrigue"):
                    for alias in child.names:  # `from . import games` names a module
                        candidate = f"{target}.{alias.name}"
                        found.add(candidate if _exists(candidate) else target)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    found.discard(name)
    return {m for m in found if _exists(m)}


def _exists(module: str) -> bool:
    path = SRC.parent.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def graph() -> dict[str, set[str]]:
    return {module_name(p): imports_of(p) for p in SRC.rglob("*.py")}


def layer(module: str) -> int:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else "__init__"
    assert top in LAYERS, f"{module}: add its package to LAYERS in this test"
    return LAYERS[top]


def test_no_module_imports_from_a_layer_above_it():
    upward = sorted(f"{m} → {t}" for m, targets in graph().items() for t in targets
                    if layer(t) > layer(m))
    assert not upward, "upward imports:\n" + "\n".join(upward)


def test_the_checker_sees_relative_and_lazy_imports():
    engine_match = SRC / "engine" / "match.py"
    assert "intrigue.engine.declarative" in imports_of(engine_match)  # imported inside a function
    assert "intrigue.dsl.expressions" in imports_of(SRC / "engine" / "declarative.py")


def _is_package(module: str) -> bool:
    return (SRC.parent.joinpath(*module.split(".")) / "__init__.py").is_file()


def test_no_import_circle():
    edges = graph()
    # A package's __init__ that re-exports its own modules is not a circle with them.
    edges = {m: {t for t in ts if not (m.startswith(t + ".") and _is_package(t))} for m, ts in edges.items()}
    circles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(module: str) -> None:
        state[module] = 1
        stack.append(module)
        for target in sorted(edges.get(module, ())):
            if state.get(target) == 1:
                circles.append(stack[stack.index(target):] + [target])
            elif target not in state:
                walk(target)
        stack.pop()
        state[module] = 2

    for module in sorted(edges):
        if module not in state:
            walk(module)
    assert not circles, "import circles:\n" + "\n".join(" → ".join(c) for c in circles)


