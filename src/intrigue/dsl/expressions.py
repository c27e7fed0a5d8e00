"""A small, safe, typed expression language for conditions and values.

The DSL writes conditions such as ``player.id == current_turn.player_id and
player.is_alive == true`` and values such as ``team_size[player_count][mission]``.
Each text is parsed once into a tree, its type is inferred (so the validator can
report ``'alive' + 1`` before the game runs), and the tree is compiled into
Python closures; nothing is ever passed to ``eval``. The grammar::

    expr     := "if" expr "then" expr "else" expr | or
    or       := and ("or" and)*
    and      := not ("and" not)*
    not      := "not" not | compare
    compare  := sum (("==" | "!=" | "<" | "<=" | ">" | ">=") sum
                     | "in" sum | "not" "in" sum)?
    sum      := product (("+" | "-") product)*
    product  := unary (("*" | "//" | "%") unary)*
    unary    := "-" unary | postfix
    postfix  := value ("[" expr "]" ("." IDENT)*)*
    value    := NUMBER | STRING | true | false | null | list | "(" expr ")"
              | FUNCTION "(" expr ("," expr)* ")" | name
    name     := IDENT ("." IDENT)*
    list     := "[" (expr ("," expr)*)? "]"

Functions: ``count(c)`` (players for whom ``c`` holds), ``count(list, x)`` (how
many of the list's items equal ``x``), ``sum(e)`` (of ``e`` over
the players), ``min(a, b, ...)``, ``max(a, b, ...)``, ``size(x)`` (items of a list
or table), ``take(list, n)`` (its first n items), ``drop(list, n)`` (all but the
first n), ``without(list, x)`` (the list less one ``x``), ``positions(list, x)`` (where ``x``
stands in the list, counted from 1), ``each(e)`` (``e`` of every player, in seat
order: ``count(each(player.vote), player.name)`` counts a player's votes). Inside ``count``,
``sum``, ``each`` and one-argument ``min``/``max``, ``player`` is each player in turn. Arithmetic is on integers: ``//``
divides and rounds down, ``%`` is the remainder; ``+`` also joins two lists.
``x[i]`` reads a table: a mapping by key, a list by position counted from 1;
``players[i]`` is the player whose ``id`` is i, so ``players[chosen.id].role``.

Anything else (calls of other names, ``_``-names, undeclared names) is an
:class:`ExpressionError` carrying the column where it went wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from .codegen import compile_tree, each_player

Scope = Any  # .player (Mapping), .lookup(path: tuple) -> Any, .players (list of Mappings)


class ExpressionError(ValueError):
    def __init__(self, message: str, column: int = 0):
        super().__init__(message)
        self.message = message
        self.column = column


class EvaluationError(ValueError):
    """An expression could not be evaluated (a division by zero, a missing table entry)."""


# -- types ------------------------------------------------------------------------------
#: The static types: ``num``, ``text``, ``bool``, ``null``, ``list``, ``table`` and
#: ``any`` (unknown: nothing is checked). A table or list type may know the type of
#: its items: ``("table", item)`` / ``("list", item)``.
ANY = "any"
NUM, TEXT, BOOL, NULL, LIST, TABLE = "num", "text", "bool", "null", "list", "table"
#: Every player, as a list counted from 1 (a player's ``id`` is their position).
BUILTIN_LISTS = {"players"}

#: Declared field types (``player_states.<f>.type``) and what they mean here.
FIELD_TYPES = {"num": NUM, "number": NUM, "int": NUM, "integer": NUM, "string": TEXT, "str": TEXT,
               "text": TEXT, "boolean": BOOL, "bool": BOOL, "array": LIST, "list": LIST, "dict": TABLE,
               "object": TABLE, "map": TABLE}

TYPE_WORDS = {NUM: "a number", TEXT: "text", BOOL: "true/false", NULL: "null", LIST: "a list", TABLE: "a table",
              "player": "a player"}


def base(kind: Any) -> str:
    return kind[0] if isinstance(kind, tuple) else kind


def item_type(kind: Any) -> Any:
    return kind[1] if isinstance(kind, tuple) else ANY


def type_of_value(value: Any) -> Any:
    """The static type of a constant (a ``game_state`` value)."""
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, (int, float)):
        return NUM
    if isinstance(value, str):
        return TEXT
    if value is None:
        return ANY  # a name that starts empty may hold anything later
    if isinstance(value, list):
        return (LIST, _common(type_of_value(v) for v in value))
    if isinstance(value, dict):
        return (TABLE, _common(type_of_value(v) for v in value.values()))
    return ANY


def _common(kinds: Iterable[Any]) -> Any:
    found = list(kinds)
    if not found:
        return ANY
    first = found[0]
    return first if all(k == first for k in found) else ANY


_PLURAL = {NUM: "numbers", TEXT: "texts", BOOL: "true/false values", LIST: "lists", TABLE: "tables"}


def describe(kind: Any) -> str:
    return TYPE_WORDS.get(base(kind), "a value")


# -- tokens -------------------------------------------------------------------------------
_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<number>\d+(?:\.\d+)?)
  | (?P<string>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
  | (?P<op>==|!=|<=|>=|//|<|>|\+|-|\*|%)
  | (?P<punct>[\[\](),.])
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
    """,
    re.VERBOSE,
)

_KEYWORDS = {"and", "or", "not", "in", "if", "then", "else", "true", "false", "null", "True", "False", "None"}
_LITERALS = {"true": True, "false": False, "null": None, "True": True, "False": False, "None": None}
FUNCTIONS = ("count", "sum", "min", "max", "size", "take", "drop", "without", "positions", "each")
#: The static type of a player record (``players[i]``): a field of it has the field's type.
PLAYER = "player"
#: Names that are always there: how many players sit at the table.
BUILTIN_NAMES = {"player_count": NUM}

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
            character = text[position]
            hint = " (use // to divide: arithmetic is on whole numbers)" if character == "/" else ""
            hint = " (write == to compare)" if character == "=" and not hint else hint
            raise ExpressionError(f"unexpected character {character!r}{hint}", position + 1)
        kind = match.lastgroup or ""
        if kind != "space":
            found.append(_Token(kind, match.group(), position + 1))
        position = match.end()
    found.append(_Token("end", "", len(text) + 1))
    return found


# -- the tree -------------------------------------------------------------------------------
@dataclass
class Node:
    """One node of a parsed expression. ``kind`` is one of: ``const``, ``field`` (a player
    field: ``path`` after ``player``), ``name`` (``path``), ``list``, ``not``, ``and``, ``or``,
    ``compare``/``arith`` (``op``), ``neg``, ``index``, ``call`` (``op``: the function),
    ``if``."""

    kind: str
    column: int
    value: Any = None
    path: tuple[str, ...] = ()
    op: str = ""
    items: list["Node"] = field(default_factory=list)
    type: Any = ANY
    end: int = 0  # the column just after the node's text

    def walk(self) -> Iterable["Node"]:
        yield self
        for item in self.items:
            yield from item.walk()


def _spanned(method: Callable[["_Parser"], Node]) -> Callable[["_Parser"], Node]:
    """Record where the node a parse method returns ends (for messages quoting it)."""

    def parse(self: "_Parser") -> Node:
        node = method(self)
        if not node.end:
            last = self.tokens[self.index - 1]
            node.end = last.column + len(last.text)
        return node

    return parse


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens = _tokens(text)
        self.index = 0

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

    def parse(self) -> Node:
        if self.at("end"):
            raise ExpressionError("the expression is empty", 1)
        node = self.parse_expr()
        if not self.at("end"):
            raise ExpressionError(f"unexpected {self.token.text!r}", self.token.column)
        return node

    @_spanned
    def parse_expr(self) -> Node:
        if self.is_word("if"):
            start = self.take()
            test = self.parse_expr()
            if not self.is_word("then"):
                raise ExpressionError(f"expected 'then' but found {self.token.text or 'the end'!r}",
                                      self.token.column)
            self.take()
            yes = self.parse_expr()
            if not self.is_word("else"):
                raise ExpressionError(f"expected 'else' but found {self.token.text or 'the end'!r} "
                                      "(an 'if' needs both 'then' and 'else')", self.token.column)
            self.take()
            no = self.parse_expr()
            return Node("if", start.column, items=[test, yes, no])
        return self.parse_or()

    @_spanned
    def parse_or(self) -> Node:
        first = self.token.column
        parts = [self.parse_and()]
        while self.is_word("or"):
            self.take()
            parts.append(self.parse_and())
        return parts[0] if len(parts) == 1 else Node("or", first, items=parts)

    @_spanned
    def parse_and(self) -> Node:
        first = self.token.column
        parts = [self.parse_not()]
        while self.is_word("and"):
            self.take()
            parts.append(self.parse_not())
        return parts[0] if len(parts) == 1 else Node("and", first, items=parts)

    @_spanned
    def parse_not(self) -> Node:
        if self.is_word("not"):
            start = self.take()
            return Node("not", start.column, items=[self.parse_not()])
        return self.parse_compare()

    @_spanned
    def parse_compare(self) -> Node:
        first = self.token.column
        left = self.parse_sum()
        if self.at("op") and self.token.text in _COMPARE:
            operator = self.take().text
            right = self.parse_sum()
            return Node("compare", first, op=operator, items=[left, right])
        negate = False
        if self.is_word("not") and self.tokens[self.index + 1].text == "in":
            self.take()
            negate = True
        if self.is_word("in"):
            self.take()
            right = self.parse_sum()
            return Node("compare", first, op="not in" if negate else "in", items=[left, right])
        if negate:
            raise ExpressionError("expected 'in' after 'not'", self.token.column)
        return left

    @_spanned
    def parse_sum(self) -> Node:
        first = self.token.column
        node = self.parse_product()
        while self.at("op") and self.token.text in ("+", "-"):
            operator = self.take().text
            node = Node("arith", first, op=operator, items=[node, self.parse_product()])
        return node

    @_spanned
    def parse_product(self) -> Node:
        first = self.token.column
        node = self.parse_unary()
        while self.at("op") and self.token.text in ("*", "//", "%"):
            operator = self.take().text
            node = Node("arith", first, op=operator, items=[node, self.parse_unary()])
        return node

    @_spanned
    def parse_unary(self) -> Node:
        if self.at("op", "-"):
            start = self.take()
            inner = self.parse_unary()
            if inner.kind == "const" and isinstance(inner.value, (int, float)) and not isinstance(inner.value, bool):
                return Node("const", start.column, value=-inner.value)
            return Node("neg", start.column, items=[inner])
        return self.parse_postfix()

    @_spanned
    def parse_postfix(self) -> Node:
        first = self.token.column
        node = self.parse_value()
        while self.at("punct", "["):
            self.take()
            key = self.parse_expr()
            self.expect("punct", "]")
            node = Node("index", first, items=[node, key])
            node.end = self.tokens[self.index - 1].column + 1
            while self.at("punct", "."):
                self.take()
                if not self.at("ident"):
                    raise ExpressionError("expected a name after '.'", self.token.column)
                part = self.take()
                if part.text.startswith("_"):
                    raise ExpressionError(f"names starting with '_' are not allowed: {part.text!r}", part.column)
                node = Node("attr", first, path=(part.text,), items=[node])
                node.end = part.column + len(part.text)
        return node

    @_spanned
    def parse_value(self) -> Node:
        token = self.token
        if token.kind == "number":
            self.take()
            return Node("const", token.column, value=float(token.text) if "." in token.text else int(token.text))
        if token.kind == "string":
            self.take()
            return Node("const", token.column, value=_unquote(token.text))
        if token.kind == "punct" and token.text == "(":
            self.take()
            inner = self.parse_expr()
            self.expect("punct", ")")
            return inner
        if token.kind == "punct" and token.text == "[":
            return self.parse_list()
        if token.kind == "ident":
            if token.text in _LITERALS:
                self.take()
                return Node("const", token.column, value=_LITERALS[token.text])
            if token.text in _KEYWORDS:
                raise ExpressionError(f"unexpected keyword {token.text!r}", token.column)
            if self.tokens[self.index + 1].text == "(" and self.tokens[self.index + 1].kind == "punct":
                return self.parse_call()
            return self.parse_name()
        if token.kind == "end":
            raise ExpressionError("the expression ends too early", token.column)
        raise ExpressionError(f"unexpected {token.text!r}", token.column)

    @_spanned
    def parse_call(self) -> Node:
        name = self.take()
        if name.text.startswith("_"):
            raise ExpressionError(f"names starting with '_' are not allowed: {name.text!r}", name.column)
        if name.text not in FUNCTIONS:
            raise ExpressionError(f"unknown function {name.text!r} (the functions are "
                                  f"{', '.join(FUNCTIONS)})", name.column)
        self.expect("punct", "(")
        args = [self.parse_expr()]
        while self.at("punct", ","):
            self.take()
            args.append(self.parse_expr())
        self.expect("punct", ")")
        wanted = {"sum": 1, "size": 1, "take": 2, "drop": 2, "without": 2, "positions": 2, "each": 1}.get(name.text)
        if name.text == "count" and len(args) > 2:
            raise ExpressionError("count() takes one condition (over the players) or a list and an item",
                                  name.column)
        if wanted is not None and len(args) != wanted:
            words = {1: "one expression", 2: "two expressions"}[wanted]
            raise ExpressionError(f"{name.text}() takes {words}", name.column)
        return Node("call", name.column, op=name.text, items=args)

    @_spanned
    def parse_list(self) -> Node:
        start = self.expect("punct", "[")
        items: list[Node] = []
        if not self.at("punct", "]"):
            items.append(self.parse_expr())
            while self.at("punct", ","):
                self.take()
                items.append(self.parse_expr())
        self.expect("punct", "]")
        return Node("list", start.column, items=items)

    @_spanned
    def parse_name(self) -> Node:
        start = self.token
        parts = [self.take().text]
        while self.at("punct", "."):
            self.take()
            if not self.at("ident"):
                raise ExpressionError("expected a name after '.'", self.token.column)
            parts.append(self.take().text)
        for part in parts:
            if part.startswith("_"):
                raise ExpressionError(f"names starting with '_' are not allowed: {part!r}", start.column)
        if parts[0] == "player":
            if len(parts) < 2:
                raise ExpressionError("'player' needs a field, e.g. player.is_alive", start.column)
            return Node("field", start.column, path=tuple(parts[1:]))
        return Node("name", start.column, path=tuple(parts))


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text[1:-1])


# -- types and checks ---------------------------------------------------------------------
class _Checker:
    """Checks names against the declarations and infers each node's type."""

    def __init__(self, text: str, fields: Mapping[str, Any] | None, names: Mapping[tuple[str, ...], Any] | None):
        self.text = text
        self.fields = fields
        self.names = names
        self.used_fields: set[str] = set()
        self.used_names: set[tuple[str, ...]] = set()
        self.problems: list[tuple[str, int]] = []  # type errors: reported, not raised

    def span(self, node: Node) -> str:
        return self.text[node.column - 1: node.end - 1] if node.end else self.text

    def type_error(self, message: str, column: int) -> None:
        self.problems.append((message, column))

    def check(self, node: Node) -> Any:
        node.type = self._check(node)
        return node.type

    def _check(self, node: Node) -> Any:
        kind = node.kind
        if kind == "const":
            return type_of_value(node.value) if node.value is not None else NULL
        if kind == "field":
            name = node.path[0]
            if self.fields is not None and name != "id" and name not in self.fields:
                raise ExpressionError(f"player field {name!r} is not declared in player_states", node.column)
            self.used_fields.add(name)
            if name == "id":
                return NUM
            declared = self.fields.get(name, ANY) if self.fields is not None else ANY
            return declared if len(node.path) == 1 else ANY
        if kind == "name":
            return self.name_type(node)
        if kind == "list":
            return (LIST, _common(self.check(item) for item in node.items))
        if kind in ("and", "or", "not"):
            for item in node.items:
                self.expect_bool(item, f"'{kind}'")
            return BOOL
        if kind == "if":
            self.expect_bool(node.items[0], "'if'")
            yes, no = self.check(node.items[1]), self.check(node.items[2])
            if yes != no and base(yes) == base(no) == LIST:  # two lists ([] among them): a list
                known = [item_type(k) for k in (yes, no) if item_type(k) != ANY]
                return (LIST, _common(known))
            return yes if yes == no else (yes if no == NULL else no if yes == NULL else ANY)
        if kind == "compare":
            left, right = (self.check(item) for item in node.items)
            self.compare_types(node, left, right)
            return BOOL
        if kind == "arith":
            kinds = [self.check(item) for item in node.items]
            if node.op == "+" and any(base(k) == LIST for k in kinds):
                for item, got in zip(node.items, kinds):
                    if base(got) not in (LIST, ANY):
                        self.type_error(f"'+' joins two lists, not a list and {describe(got)} "
                                        f"(in {self.span(item)!r})", item.column)
                return (LIST, _common(item_type(k) for k in kinds if base(k) == LIST))
            if node.op == "+" and any(base(k) == TEXT for k in kinds) and not any(base(k) == NUM for k in kinds):
                for item, got in zip(node.items, kinds):
                    if base(got) not in (TEXT, ANY):
                        self.type_error(f"'+' joins two texts, not a text and {describe(got)} "
                                        f"(in {self.span(item)!r})", item.column)
                return TEXT
            if node.op == "+" and all(base(k) == ANY for k in kinds):
                return ANY  # two values of unknown type (table entries): numbers, texts or lists
            for item, got in zip(node.items, kinds):
                if base(got) not in (NUM, ANY):
                    self.type_error(f"'{node.op}' works on numbers, not {describe(got)} (in {self.span(item)!r})",
                                    item.column)
            return NUM
        if kind == "attr":
            container = self.check(node.items[0])
            name = node.path[0]
            if base(container) == PLAYER:
                if self.fields is not None and name != "id" and name not in self.fields:
                    raise ExpressionError(f"player field {name!r} is not declared in player_states", node.column)
                return NUM if name == "id" else (self.fields or {}).get(name, ANY)
            if base(container) not in (TABLE, ANY):
                self.type_error(f"{describe(container)} has no field {name!r}", node.column)
            return ANY
        if kind == "neg":
            got = self.check(node.items[0])
            if base(got) not in (NUM, ANY):
                self.type_error(f"cannot negate {describe(got)}", node.column)
            return NUM
        if kind == "index":
            container, key = (self.check(item) for item in node.items)
            if base(container) not in (LIST, TABLE, ANY):
                self.type_error(f"{describe(container)} cannot be indexed with [...]: only a list or a table "
                                "of game_state can", node.items[1].column - 1)
            if base(container) == LIST and base(key) not in (NUM, ANY):
                self.type_error(f"a list is indexed by position (a number), not by {describe(key)}",
                                node.items[1].column)
            position = node.items[1]
            if position.kind == "neg" and position.items[0].kind == "const":
                position = Node("const", position.column, value=-position.items[0].value)
            if base(container) == LIST and position.kind == "const" and isinstance(position.value, int) \
                    and not isinstance(position.value, bool) and position.value < 1:
                # a sure stop at run time ("position 0 is outside the list")
                self.type_error(f"positions in a list count from 1: [{position.value}] is never in it "
                                "(the first item is [1])", node.items[1].column)
            return item_type(container)
        if kind == "call":
            return self.call_type(node)
        raise AssertionError(kind)  # pragma: no cover

    def name_type(self, node: Node) -> Any:
        path = node.path
        if path == ("players",) and (self.names is None or path not in self.names):
            self.used_names.add(path)
            return (LIST, PLAYER)
        if path[0] in BUILTIN_NAMES and len(path) == 1 and (self.names is None or path not in self.names):
            self.used_names.add(path)
            return BUILTIN_NAMES[path[0]]
        if self.names is None:
            self.used_names.add(path)
            return ANY
        if path in self.names:
            self.used_names.add(path)
            return self.names[path]
        if any(path == name[: len(path)] for name in self.names):
            self.used_names.add(path)
            return TABLE
        raise ExpressionError(f"unknown name {'.'.join(path)!r}", node.column)

    def call_type(self, node: Node) -> Any:
        name = node.op
        if name == "count" and len(node.items) == 2:
            listed = self.check(node.items[0])
            if base(listed) not in (LIST, ANY):
                self.type_error(f"count(list, x) counts in a list, not {describe(listed)}", node.items[0].column)
            self.check(node.items[1])
            return NUM
        if name == "positions":
            listed = self.check(node.items[0])
            if base(listed) not in (LIST, ANY):
                self.type_error(f"positions(list, x) finds x in a list, not {describe(listed)}", node.items[0].column)
            self.check(node.items[1])
            return (LIST, NUM)
        if name == "count":
            self.expect_bool(node.items[0], "count()")
            return NUM
        if name == "sum":
            got = self.check(node.items[0])
            if base(got) not in (NUM, ANY, BOOL):
                self.type_error(f"sum() adds numbers, not {describe(got)}", node.items[0].column)
            return NUM
        if name == "each":
            got = self.check(node.items[0])
            return (LIST, got)
        if name == "size":
            got = self.check(node.items[0])
            if base(got) not in (LIST, TABLE, TEXT, ANY):
                self.type_error(f"size() counts the items of a list or table, not {describe(got)}",
                                node.items[0].column)
            return NUM
        if name in ("take", "drop", "without"):
            listed = self.check(node.items[0])
            if base(listed) not in (LIST, ANY):
                self.type_error(f"{name}() works on a list, not {describe(listed)}", node.items[0].column)
            other = self.check(node.items[1])
            if name != "without" and base(other) not in (NUM, ANY):
                self.type_error(f"{name}() takes a number of items, not {describe(other)}", node.items[1].column)
            return listed if base(listed) == LIST else (LIST, ANY)
        kinds = [self.check(item) for item in node.items]  # min / max
        for item, got in zip(node.items, kinds):
            if base(got) not in (NUM, ANY):
                self.type_error(f"{name}() compares numbers, not {describe(got)}", item.column)
        return NUM

    def expect_bool(self, node: Node, where: str) -> None:
        got = self.check(node)
        if base(got) not in (BOOL, ANY):
            self.type_error(f"{where} needs a condition (true/false), not {describe(got)} "
                            f"(in {self.span(node)!r})", node.column)

    def compare_types(self, node: Node, left: Any, right: Any) -> None:
        op = node.op
        l, r = base(left), base(right)
        if op in ("in", "not in"):
            if r not in (LIST, TABLE, TEXT, ANY):
                self.type_error(f"'{op}' needs a list on its right, not {describe(right)}", node.items[1].column)
            item = base(item_type(right)) if r == LIST else ANY
            if l not in (ANY, NULL) and item not in (ANY, NULL) and l != item:
                first = node.items[0]
                answer = first.kind == "name" and first.path and first.path[0] in ("choice", "answer")
                hint = " (an option is text, even one made from a number: map options to numbers with a table)" \
                    if answer else ""
                self.type_error(f"{describe(left)} is never in a list of {_PLURAL.get(item, 'values')}: "
                                f"'{op}' is always {'false' if op == 'in' else 'true'}{hint}", node.column)
            return
        if ANY in (l, r) or NULL in (l, r):
            return
        if op in ("==", "!="):
            if l != r:
                self.type_error(f"comparing {describe(left)} with {describe(right)} is always "
                                f"{'false' if op == '==' else 'true'}", node.column)
            return
        if l != r or l not in (NUM, TEXT):
            self.type_error(f"'{op}' compares two numbers (or two texts), not {describe(left)} and "
                            f"{describe(right)}", node.column)


# -- compiling to closures --------------------------------------------------------------------
def _compile(node: Node) -> Callable[[Scope], Any]:
    kind = node.kind
    if kind == "const":
        return _constant(node.value)
    if kind == "field":
        return _field(node.path)
    if kind == "name":
        path = node.path
        if path[0] == "me" and len(path) == 2:
            # the deciding player's field (option conditions): read directly when the scope has one
            name = path[1]

            def mine(scope: Scope) -> Any:
                me = getattr(scope, "me", None)
                return me.get(name) if me is not None else scope.lookup(path)

            return mine
        return lambda scope: scope.lookup(path)
    if kind == "list":
        items = [_compile(item) for item in node.items]
        return lambda scope: [item(scope) for item in items]
    if kind == "not":
        inner = _compile(node.items[0])
        return lambda scope: not inner(scope)
    if kind == "and":
        parts = [_compile(item) for item in node.items]
        if len(parts) == 2:
            first, second = parts
            return lambda scope: bool(first(scope)) and bool(second(scope))
        return lambda scope: all(part(scope) for part in parts)
    if kind == "or":
        parts = [_compile(item) for item in node.items]
        return lambda scope: any(part(scope) for part in parts)
    if kind == "if":
        test, yes, no = (_compile(item) for item in node.items)
        return lambda scope: yes(scope) if test(scope) else no(scope)
    if kind == "compare":
        return _compare(node)
    if kind == "arith":
        return _arith(node)
    if kind == "neg":
        inner = _compile(node.items[0])

        def negate(scope: Scope) -> Any:
            value = inner(scope)
            return None if value is None else -_number(value, "-")

        return negate
    if kind == "index":
        return _index(node)
    if kind == "attr":
        inner, name = _compile(node.items[0]), node.path[0]

        def attribute(scope: Scope) -> Any:
            value = inner(scope)
            return value.get(name) if isinstance(value, Mapping) else None

        return attribute
    if kind == "call":
        return _call(node)
    raise AssertionError(kind)  # pragma: no cover


#: The closure compiler, for code generators that leave some nodes to it (``codegen.Writer``).
closure_of = _compile


def _constant(value: Any) -> Callable[[Scope], Any]:
    def constant(scope: Scope) -> Any:
        return value

    constant.constant = value  # type: ignore[attr-defined]
    return constant


def _field(path: tuple[str, ...]) -> Callable[[Scope], Any]:
    name, rest = path[0], path[1:]
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


def _compare(node: Node) -> Callable[[Scope], Any]:
    operator = node.op
    left, right = (_compile(item) for item in node.items)
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
    if operator in ("in", "not in"):
        def contains(scope: Scope) -> bool:
            container = right(scope)
            try:
                return left(scope) in container if container is not None else False
            except TypeError:
                return False

        if operator == "not in":
            return lambda scope: not contains(scope)
        return contains
    compare = _COMPARE[operator]

    def ordered(scope: Scope) -> bool:
        try:
            return compare(left(scope), right(scope))
        except TypeError:
            return False

    return ordered


def _number(value: Any, operator: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise EvaluationError(f"{value!r} is not a number (in '{operator}')")
    return value


def _arith(node: Node) -> Callable[[Scope], Any]:
    operator = node.op
    left, right = (_compile(item) for item in node.items)

    def apply(scope: Scope) -> Any:
        a, b = left(scope), right(scope)
        if a is None or b is None:
            raise EvaluationError(f"a value is null in '{operator}'")
        if operator == "+" and ((isinstance(a, list) and isinstance(b, list))
                                or (isinstance(a, str) and isinstance(b, str))):
            return a + b  # two lists joined, or two texts
        a, b = _number(a, operator), _number(b, operator)
        if operator == "+":
            return a + b
        if operator == "-":
            return a - b
        if operator == "*":
            return a * b
        if b == 0:
            raise EvaluationError(f"division by zero in '{operator}'")
        return a // b if operator == "//" else a % b

    return apply


def _index(node: Node) -> Callable[[Scope], Any]:
    container_of, key_of = (_compile(item) for item in node.items)

    def read(scope: Scope) -> Any:
        container, key = container_of(scope), key_of(scope)
        if isinstance(container, Mapping):
            if key in container:
                return container[key]
            for other in (str(key), _as_int(key)):
                if other is not None and other in container:
                    return container[other]
            raise EvaluationError(f"the table has no entry {key!r} (it has {', '.join(map(str, container))})")
        if isinstance(container, list):
            if isinstance(key, bool) or not isinstance(key, int) or not 1 <= key <= len(container):
                raise EvaluationError(f"position {key!r} is outside the list (1 to {len(container)})")
            return container[key - 1]
        raise EvaluationError(f"{container!r} is not a list or a table")

    return read


def _as_int(key: Any) -> int | None:
    try:
        return int(key)
    except (TypeError, ValueError):
        return None


def _call(node: Node) -> Callable[[Scope], Any]:
    name = node.op
    args = [_compile(item) for item in node.items]
    if name == "count" and len(args) == 2:
        listed, item = args

        def occurrences(scope: Scope) -> int:
            items = listed(scope)
            return items.count(item(scope)) if isinstance(items, (list, tuple)) else 0

        return occurrences
    if name == "positions":
        listed, item = args

        def places(scope: Scope) -> list[int]:
            items, wanted = listed(scope), item(scope)
            return [at for at, value in enumerate(items, 1) if value == wanted] if isinstance(items, (list, tuple)) else []

        return places
    if name in ("count", "sum"):
        inner = args[0]

        counting = name == "count"

        def over_players(scope: Scope) -> Any:
            return each_player(scope, lambda _player: inner(scope), counting)

        return over_players
    if name in ("take", "drop", "without"):
        listed, other = args

        def listing(scope: Scope) -> list[Any]:
            items = listed(scope)
            items = list(items) if isinstance(items, (list, tuple)) else []
            value = other(scope)
            if name == "without":
                if value in items:
                    items.remove(value)
                return items
            if isinstance(value, bool) or not isinstance(value, int):
                raise EvaluationError(f"{name}() needs a number of items, not {value!r}")
            return items[:max(value, 0)] if name == "take" else items[max(value, 0):]

        return listing
    if name == "each":
        inner = args[0]

        def over_each_player(scope: Scope) -> list[Any]:
            saved = scope.player
            values = []
            try:
                for player in scope.players:
                    scope.player = player
                    values.append(inner(scope))
            finally:
                scope.player = saved
            return values

        return over_each_player
    if name == "size":
        inner = args[0]

        def size(scope: Scope) -> int:
            value = inner(scope)
            return len(value) if isinstance(value, (list, dict, str)) else 0

        return size
    pick = min if name == "min" else max
    if len(args) == 1:  # over the players, as sum(e): the highest score at the table
        inner = args[0]

        def extreme_over_players(scope: Scope) -> Any:
            saved = scope.player
            values = []
            try:
                for player in scope.players:
                    scope.player = player
                    value = inner(scope)
                    if value is not None:
                        values.append(value)
            finally:
                scope.player = saved
            return pick(values) if values else None

        return extreme_over_players

    def extreme(scope: Scope) -> Any:
        values = [value for value in (arg(scope) for arg in args) if value is not None]
        return pick(values) if values else None

    return extreme


# -- the public interface -------------------------------------------------------------------
@dataclass
class Expression:
    """A compiled expression: call ``evaluate(scope)``. ``tree`` is the parsed form,
    ``type`` its inferred type, ``problems`` its type errors as ``(message, column)``."""

    text: str
    evaluate: Callable[[Scope], Any]
    player_fields: set[str] = field(default_factory=set)
    names: set[tuple[str, ...]] = field(default_factory=set)
    tree: Node | None = None
    type: Any = ANY
    problems: list[tuple[str, int]] = field(default_factory=list)

    def __call__(self, scope: Scope) -> Any:
        return self.evaluate(scope)


def parse(text: str) -> Node:
    """The tree of ``text`` (raises :class:`ExpressionError`)."""
    return _Parser(text).parse()


def compile_expression(text: Any, *, player_fields: set[str] | Mapping[str, Any] | None = None,
                       names: Iterable[str] | Mapping[str, Any] | None = None) -> Expression:
    """Compile ``text``; ``player_fields`` / ``names`` restrict what may be named.

    Either may be a set of names (types unknown) or a mapping from name to type
    (see :data:`FIELD_TYPES` and :func:`type_of_value`). ``None`` means "not
    restricted" (for example, the game-level names of a rules module are only
    known once it is loaded). Type errors do not raise: they are listed in
    ``Expression.problems`` for the validator.
    """
    if isinstance(text, bool) or text is None:
        value = text
        return Expression(str(text), _constant(value), type=BOOL if isinstance(text, bool) else NULL)
    if isinstance(text, (int, float)):
        value = text
        return Expression(str(text), _constant(value), type=NUM)
    if not isinstance(text, str):
        raise ExpressionError(f"an expression must be text, not {type(text).__name__}", 1)
    tree = parse(text)
    fields = None
    if player_fields is not None:
        fields = dict(player_fields) if isinstance(player_fields, Mapping) else {f: ANY for f in player_fields}
    known = None
    if names is not None:
        if isinstance(names, Mapping):
            known = {tuple(str(n).split(".")): kind for n, kind in names.items()}
        else:
            known = {tuple(str(n).split(".")): ANY for n in names}
    checker = _Checker(text, fields, known)
    kind = checker.check(tree)
    return Expression(text, _generated(tree, text), checker.used_fields, checker.used_names, tree, kind,
                      checker.problems)


_GENERATED: dict[str, Callable[[Scope], Any]] = {}


def _generated(tree: Node, text: str) -> Callable[[Scope], Any]:
    """The expression as one generated Python function (``codegen.py``), once per text."""
    function = _GENERATED.get(text)
    if function is None:
        function = compile_tree(tree, text, _compile)[0]
        if len(_GENERATED) < 20_000:
            _GENERATED[text] = function
    return function


@dataclass
class MappingScope:
    """A scope over plain dicts: handy for tests and for the CLI."""

    player: Mapping[str, Any]
    game: Mapping[str, Any] = field(default_factory=dict)
    players: list[Mapping[str, Any]] = field(default_factory=list)

    def lookup(self, path: tuple[str, ...]) -> Any:
        if path == ("player_count",) and "player_count" not in self.game:
            return len(self.players)
        if path == ("players",) and "players" not in self.game:
            return list(self.players)
        value: Any = self.game
        for key in path:
            if isinstance(value, Mapping):
                value = value.get(key)
            else:
                value = getattr(value, key, None) if not key.startswith("_") else None
        return value
