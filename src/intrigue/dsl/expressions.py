"""A small, safe expression language for ``condition`` and ``selection_criteria``.

The DSL writes conditions such as ``player.id == current_turn.player_id and
player.is_alive == true``. They are parsed once and compiled into Python closures;
nothing is ever passed to ``eval``. The grammar is deliberately tiny::

    expr    := or
    or      := and ("or" and)*
    and     := not ("and" not)*
    not     := "not" not | compare
    compare := value (("==" | "!=" | "<" | "<=" | ">" | ">=") value
                      | "in" value | "not" "in" value)?
    value   := NUMBER | STRING | true | false | null | name | list | "(" expr ")"
    name    := IDENT ("." IDENT)*           # player.<field> or a declared game name
    list    := "[" (expr ("," expr)*)? "]"

Anything else (calls, subscripts, arithmetic, names starting with ``_``, names not
declared) is an :class:`ExpressionError` carrying the column where it went wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

Scope = Any  # an object with .player (Mapping) and .lookup(path: tuple) -> Any


class ExpressionError(ValueError):
    def __init__(self, message: str, column: int = 0):
        super().__init__(message)
        self.message = message
        self.column = column


_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<number>-?\d+(?:\.\d+)?)
  | (?P<string>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
  | (?P<op>==|!=|<=|>=|<|>)
  | (?P<punct>[\[\](),.])
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
    """,
    re.VERBOSE,
)

_KEYWORDS = {"and", "or", "not", "in", "true", "false", "null", "True", "False", "None"}
_LITERALS = {"true": True, "false": False, "null": None, "True": True, "False": False, "None": None}

_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a is not None and b is not None and a < b,
    "<=": lambda a, b: a is not None and b is not None and a <= b,
    ">": lambda a, b: a is not None and b is not None and a > b,
    ">=": lambda a, b: a is not None and b is not None and a >= b,
}


@dataclass
class _Token:
    kind: str
    text: str
    column: int


def _tokens(text: str) -> list[_Token]:
    found: list[_Token] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match:
            raise ExpressionError(f"unexpected character {text[position]!r}", position + 1)
        kind = match.lastgroup or ""
        if kind != "space":
            found.append(_Token(kind, match.group(), position + 1))
        position = match.end()
    found.append(_Token("end", "", len(text) + 1))
    return found


@dataclass
class Expression:
    """A compiled expression: call ``evaluate(scope)``."""

    text: str
    evaluate: Callable[[Scope], Any]
    player_fields: set[str] = field(default_factory=set)
    names: set[tuple[str, ...]] = field(default_factory=set)

    def __call__(self, scope: Scope) -> Any:
        return self.evaluate(scope)


class _Parser:
    def __init__(self, text: str, player_fields: set[str] | None, names: Iterable[str] | None):
        self.text = text
        self.tokens = _tokens(text)
        self.index = 0
        self.allowed_fields = player_fields
        self.allowed_names = None if names is None else {tuple(n.split(".")) for n in names}
        self.used_fields: set[str] = set()
        self.used_names: set[tuple[str, ...]] = set()

    # token helpers -------------------------------------------------------
    @property
    def token(self) -> _Token:
        return self.tokens[self.index]

    def take(self) -> _Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def at(self, kind: str, text: str | None = None) -> bool:
        token = self.token
        return token.kind == kind and (text is None or token.text == text)

    def expect(self, kind: str, text: str) -> _Token:
        if not self.at(kind, text):
            raise ExpressionError(f"expected {text!r} but found {self.token.text or 'the end'!r}",
                                  self.token.column)
        return self.take()

    def is_word(self, word: str) -> bool:
        return self.at("ident", word)

    # grammar -------------------------------------------------------------
    def parse(self) -> Callable[[Scope], Any]:
        if self.at("end"):
            raise ExpressionError("the expression is empty", 1)
        node = self.parse_or()
        if not self.at("end"):
            raise ExpressionError(f"unexpected {self.token.text!r}", self.token.column)
        return node

    def parse_or(self) -> Callable[[Scope], Any]:
        parts = [self.parse_and()]
        while self.is_word("or"):
            self.take()
            parts.append(self.parse_and())
        if len(parts) == 1:
            return parts[0]
        return lambda scope: any(part(scope) for part in parts)

    def parse_and(self) -> Callable[[Scope], Any]:
        parts = [self.parse_not()]
        while self.is_word("and"):
            self.take()
            parts.append(self.parse_not())
        if len(parts) == 1:
            return parts[0]
        if len(parts) == 2:
            first, second = parts
            return lambda scope: bool(first(scope)) and bool(second(scope))
        return lambda scope: all(part(scope) for part in parts)

    def parse_not(self) -> Callable[[Scope], Any]:
        if self.is_word("not"):
            self.take()
            inner = self.parse_not()
            return lambda scope: not inner(scope)
        return self.parse_compare()

    def parse_compare(self) -> Callable[[Scope], Any]:
        left = self.parse_value()
        if self.at("op"):
            operator = self.take().text
            right = self.parse_value()
            if operator in ("==", "!=") and hasattr(left, "field") and hasattr(right, "constant"):
                # player.<field> == literal: the commonest condition, read in one step
                name, constant = left.field, right.constant
                if operator == "==":
                    return lambda scope: scope.player.get(name) == constant
                return lambda scope: scope.player.get(name) != constant
            if operator == "==":
                return lambda scope: left(scope) == right(scope)
            if operator == "!=":
                return lambda scope: left(scope) != right(scope)
            compare = _COMPARE[operator]
            return lambda scope: compare(left(scope), right(scope))
        negate = False
        if self.is_word("not") and self.tokens[self.index + 1].text == "in":
            self.take()
            negate = True
        if self.is_word("in"):
            self.take()
            right = self.parse_value()

            def contains(scope: Scope) -> bool:
                container = right(scope)
                try:
                    return left(scope) in container if container is not None else False
                except TypeError:
                    return False

            if negate:
                return lambda scope: not contains(scope)
            return contains
        if negate:
            raise ExpressionError("expected 'in' after 'not'", self.token.column)
        return left

    def parse_value(self) -> Callable[[Scope], Any]:
        token = self.token
        if token.kind == "number":
            self.take()
            return _constant(float(token.text) if "." in token.text else int(token.text))
        if token.kind == "string":
            self.take()
            return _constant(_unquote(token.text))
        if token.kind == "punct" and token.text == "(":
            self.take()
            inner = self.parse_or()
            self.expect("punct", ")")
            return inner
        if token.kind == "punct" and token.text == "[":
            return self.parse_list()
        if token.kind == "ident":
            if token.text in _LITERALS:
                self.take()
                return _constant(_LITERALS[token.text])
            if token.text in _KEYWORDS:
                raise ExpressionError(f"unexpected keyword {token.text!r}", token.column)
            return self.parse_name()
        if token.kind == "end":
            raise ExpressionError("the expression ends too early", token.column)
        raise ExpressionError(f"unexpected {token.text!r}", token.column)

    def parse_list(self) -> Callable[[Scope], Any]:
        self.expect("punct", "[")
        items: list[Callable[[Scope], Any]] = []
        if not self.at("punct", "]"):
            items.append(self.parse_or())
            while self.at("punct", ","):
                self.take()
                items.append(self.parse_or())
        self.expect("punct", "]")
        return lambda scope: [item(scope) for item in items]

    def parse_name(self) -> Callable[[Scope], Any]:
        start = self.token
        parts = [self.take().text]
        while self.at("punct", "."):
            self.take()
            if not self.at("ident"):
                raise ExpressionError("expected a name after '.'", self.token.column)
            parts.append(self.take().text)
        for part in parts:
            if part.startswith("_"):
                raise ExpressionError(f"names starting with '_' are not allowed: {part!r}",
                                      start.column)
        if self.at("punct", "(") or self.at("punct", "["):
            what = "function calls" if self.token.text == "(" else "subscripts"
            raise ExpressionError(f"{what} are not allowed ({'.'.join(parts)})", self.token.column)
        if parts[0] == "player":
            return self.player_field(parts, start)
        path = tuple(parts)
        if self.allowed_names is not None and not self._name_declared(path):
            raise ExpressionError(f"unknown name {'.'.join(parts)!r}", start.column)
        self.used_names.add(path)
        return lambda scope: scope.lookup(path)

    def _name_declared(self, path: tuple[str, ...]) -> bool:
        assert self.allowed_names is not None
        return any(path == name[: len(path)] for name in self.allowed_names)

    def player_field(self, parts: list[str], start: _Token) -> Callable[[Scope], Any]:
        if len(parts) < 2:
            raise ExpressionError("'player' needs a field, e.g. player.is_alive", start.column)
        name = parts[1]
        if self.allowed_fields is not None and name != "id" and name not in self.allowed_fields:
            raise ExpressionError(f"player field {name!r} is not declared in player_states",
                                  start.column)
        self.used_fields.add(name)
        rest = parts[2:]
        if not rest:
            def read(scope: Scope) -> Any:
                return scope.player.get(name)

            read.field = name  # type: ignore[attr-defined] - lets comparisons read it directly
            return read

        def nested(scope: Scope) -> Any:
            value = scope.player.get(name)
            for key in rest:
                value = value.get(key) if isinstance(value, Mapping) else None
            return value

        return nested


def _constant(value: Any) -> Callable[[Scope], Any]:
    def constant(scope: Scope) -> Any:
        return value

    constant.constant = value  # type: ignore[attr-defined]
    return constant


def _unquote(text: str) -> str:
    body = text[1:-1]
    return re.sub(r"\\(.)", r"\1", body)


def compile_expression(text: Any, *, player_fields: set[str] | None = None,
                       names: Iterable[str] | None = None) -> Expression:
    """Compile ``text``; ``player_fields`` / ``names`` restrict what may be named.

    ``None`` means "not restricted" (for example, game-level names are only known
    once the game's rules module is loaded).
    """
    if isinstance(text, bool) or text is None:
        value = text
        return Expression(str(text), lambda scope: value)
    if not isinstance(text, str):
        raise ExpressionError(f"an expression must be text, not {type(text).__name__}", 1)
    parser = _Parser(text, player_fields, names)
    evaluate = parser.parse()
    return Expression(text, evaluate, parser.used_fields, parser.used_names)


@dataclass
class MappingScope:
    """A scope over plain dicts: handy for tests and for the CLI."""

    player: Mapping[str, Any]
    game: Mapping[str, Any] = field(default_factory=dict)

    def lookup(self, path: tuple[str, ...]) -> Any:
        value: Any = self.game
        for key in path:
            if isinstance(value, Mapping):
                value = value.get(key)
            else:
                value = getattr(value, key, None) if not key.startswith("_") else None
        return value
