"""Expressions as Python source: one straight-line function per expression instead of a tree of closures.

A parsed, checked expression (:class:`~.expressions.Node`) is written out as one
Python expression and compiled with :func:`compile`. Nothing the author wrote is
ever evaluated as code: the source is built only from the tree's node kinds, with
every literal and every name path emitted through :func:`repr`, and operators
taken from a fixed table. A node this module does not write out (``count``,
``sum``, arithmetic and the other functions) is called as the closure
:mod:`.expressions` compiled for it, so each kind has one meaning, defined there.

The generated code keeps the closures' evaluation order and short-circuits, and
returns the same values (``and``/``or`` give booleans; ordered comparisons with
``null`` or of different types are false). ``intrigue compile GAME`` prints it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, Mapping

if TYPE_CHECKING:  # pragma: no cover
    from .expressions import Node

Closure = Callable[["Node"], Callable[[Any], Any]]

#: Comparisons written as Python operators (``==`` and ``!=`` never raise).
_EQUALITY = {"==": "==", "!=": "!="}
#: Node kinds whose evaluation cannot raise (so an ordered comparison of them needs no thunks).
_PURE = {"const", "field", "name"}


#: Ordered comparisons as ``expressions.py`` defines them: false with a null.
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "<": lambda a, b: a is not None and b is not None and a < b,
    "<=": lambda a, b: a is not None and b is not None and a <= b,
    ">": lambda a, b: a is not None and b is not None and a > b,
    ">=": lambda a, b: a is not None and b is not None and a >= b,
}


def _ordered(operator: str) -> Callable[[Any, Any], bool]:
    compare = _COMPARE[operator]

    def ordered(a: Any, b: Any) -> bool:
        try:
            return compare(a, b)
        except TypeError:
            return False

    return ordered


def _contains(container: Any, item: Any) -> bool:
    try:
        return item in container if container is not None else False
    except TypeError:
        return False


def _walk(value: Any, keys: tuple[str, ...]) -> Any:
    for key in keys:
        value = value.get(key) if value.__class__ is dict or isinstance(value, Mapping) else None
    return value


def _mine(scope: Any, name: str, path: tuple[str, ...]) -> Any:
    me = getattr(scope, "me", None)
    return me.get(name) if me is not None else scope.lookup(path)


def each_player(scope: Any, inner: Callable[[Any], Any], counting: bool) -> Any:
    """``count(c)`` / ``sum(e)``: ``inner(player)`` for each player in turn, ``scope.player`` set to
    them (for the expressions inside), restored afterwards; the generated code calls it too."""
    saved = scope.player
    total = 0
    try:
        for player in scope.players:
            scope.player = player
            value = inner(player)
            if counting:
                total += 1 if value else 0
            elif value is not None:
                total += value
    finally:
        scope.player = saved
    return total


#: What generated code may call besides the fallbacks: fixed helpers, never user text.
HELPERS: dict[str, Any] = {
    "_walk": _walk, "_mine": _mine, "_contains": _contains, "_over_players": each_player,
    "_lt": _ordered("<"), "_le": _ordered("<="), "_gt": _ordered(">"), "_ge": _ordered(">="),
}
_ORDERED = {"<": "_lt", "<=": "_le", ">": "_gt", ">=": "_ge"}


class Writer:
    """Writes expression trees as Python source over the local names ``scope`` and ``player``.

    ``name`` may write a game-level name differently (the engine hoists plain game-level
    reads out of its loops over players); by default a name is ``scope.lookup(path)``.
    Closures for the nodes not written out (``closure``: the closure compiler of ``expressions.py``)
    are collected in ``namespace`` as ``_f<N>``.
    """

    def __init__(self, closure: Closure, name: Callable[[tuple[str, ...]], str] | None = None,
                 subscript: bool = False):
        self.closure = closure
        #: Read a player's own field as ``player[key]`` (raising ``KeyError`` when it is missing: the
        #: caller then runs the ``.get`` form) instead of ``player.get(key)``.
        self.subscript = subscript
        self.namespace: dict[str, Any] = dict(HELPERS)
        self.name = name
        self._fallbacks = 0
        #: Whether the source reads ``scope`` (a closure, a built-in name): then ``scope.player``
        #: must be the player the source reads as ``player``.
        self.uses_scope = False

    def fallback(self, node: "Node") -> str:
        self.uses_scope = True
        key = f"_f{self._fallbacks}"
        self._fallbacks += 1
        self.namespace[key] = self.closure(node)
        return f"{key}(scope)"

    def test(self, node: "Node") -> str:
        """The node where only its truth counts (``if ...:``): ``and``, ``or`` and ``not`` need no
        ``bool(...)`` around their parts there, the truth of each part being the same."""
        kind = node.kind
        if kind in ("and", "or"):
            return "(" + f" {kind} ".join(self.test(item) for item in node.items) + ")"
        if kind == "not":
            return f"(not {self.test(node.items[0])})"
        return self.write(node)

    def write(self, node: "Node") -> str:  # noqa: PLR0911 - one case per node kind
        kind = node.kind
        if kind == "const":
            value = node.value
            if value is None or isinstance(value, (bool, int, str)) or (isinstance(value, float)
                                                                         and math.isfinite(value)):
                return repr(value)
            return self.fallback(node)
        if kind == "field":
            head, rest = node.path[0], node.path[1:]
            read = f"player[{head!r}]" if self.subscript else f"player.get({head!r})"
            return f"_walk({read}, {rest!r})" if rest else read
        if kind == "name":
            path = tuple(node.path)
            if path[0] == "me" and len(path) == 2:
                self.uses_scope = True
                return f"_mine(scope, {path[1]!r}, {path!r})"
            if self.name is not None:
                return self.name(path)
            self.uses_scope = True
            return f"scope.lookup({path!r})"
        if kind == "list":
            return "[" + ", ".join(self.write(item) for item in node.items) + "]"
        if kind == "not":
            return f"(not {self.write(node.items[0])})"
        if kind in ("and", "or"):
            joined = f" {kind} ".join(f"bool({self.write(item)})" for item in node.items)
            return f"({joined})"
        if kind == "if":
            test, yes, no = (self.write(item) for item in node.items)
            return f"({yes} if {test} else {no})"
        if kind == "compare":
            left, right = node.items
            if node.op in _EQUALITY:
                return f"({self.write(left)} {_EQUALITY[node.op]} {self.write(right)})"
            if left.kind in _PURE and right.kind in _PURE:
                if node.op in _ORDERED:
                    return f"{_ORDERED[node.op]}({self.write(left)}, {self.write(right)})"
                test = f"_contains({self.write(right)}, {self.write(left)})"
                return f"(not {test})" if node.op == "not in" else test
        if kind == "call" and node.op in ("count", "sum") and len(node.items) == 1:
            self.uses_scope = True
            counting = node.op == "count"
            inner = self.test(node.items[0]) if counting else self.write(node.items[0])  # count: its truth
            return f"_over_players(scope, lambda player: {inner}, {counting!r})"
        return self.fallback(node)


def function_source(name: str, tree: "Node", text: str, writer: Writer) -> str:
    """``def name(scope)`` returning the expression's value (``text`` is quoted in a comment)."""
    body = writer.write(tree)
    return (f"def {name}(scope):\n"
            f"    # {_comment(text)}\n"
            f"    player = scope.player\n"
            f"    return {body}\n")


def _comment(text: str) -> str:
    """The expression's text for a comment line: one line, through repr (no newline can end it)."""
    return repr(str(text))


def build(source: str, namespace: dict[str, Any], name: str) -> Callable[..., Any]:
    """Compile generated source (built only by this module's writers) and return ``name`` from it."""
    code = compile(source, f"<intrigue generated {name}>", "exec")
    exec(code, namespace)  # noqa: S102 - source written from a checked tree, literals via repr
    return namespace[name]  # type: ignore[no-any-return]


def compile_tree(tree: "Node", text: str, closure: Closure) -> tuple[Callable[[Any], Any], str]:
    """The expression as one generated function of a scope, and its source."""
    writer = Writer(closure)
    source = function_source("evaluate", tree, text, writer)
    return build(source, writer.namespace, "evaluate"), source
