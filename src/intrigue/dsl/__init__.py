"""The phase DSL: parse with line numbers, a typed model, validation, expressions."""

from .expressions import Expression, ExpressionError, compile_expression
from .model import GameDefinition, Phase, json_schema
from .source import Problem, Source
from .validate import Checked, branches, validate_file, validate_source, validate_text

__all__ = [
    "Checked", "Expression", "ExpressionError", "GameDefinition", "Phase", "Problem", "Source",
    "branches", "compile_expression", "json_schema", "validate_file", "validate_source",
    "validate_text",
]
