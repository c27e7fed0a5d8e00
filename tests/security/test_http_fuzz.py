"""Schemathesis against the server's own OpenAPI schema (/openapi.json): every HTTP route, random
valid and invalid requests; never a 5xx, every answer documented and matching its schema.

One test per operation (``OPERATIONS`` is read from the schema, so a new route is fuzzed
without editing this file), each bounded to ``EXAMPLES`` requests.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import checks
from schemathesis.generation import GenerationMode

from intrigue.server.app import create_app
from intrigue.server.settings import Settings
from intrigue.store import open_store

EXAMPLES = 30

APP = create_app(open_store(":memory:"), Settings(bot_delay=0.0, room_quota=1_000_000))
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP)
OPERATIONS = {result.ok().label: result.ok() for result in SCHEMA.get_all_operations()}
CHECKS = [checks.not_a_server_error, checks.status_code_conformance, checks.content_type_conformance,
          checks.response_schema_conformance]


def test_the_schema_lists_the_lobby_and_history_routes():
    assert {"POST /api/rooms", "POST /api/rooms/{room}/join", "GET /api/matches/{match}/replay"} <= set(OPERATIONS)


@pytest.mark.parametrize("label", sorted(OPERATIONS))
def test_every_route_answers_within_its_schema(label):
    operation = OPERATIONS[label]

    valid = operation.as_strategy(GenerationMode.POSITIVE)
    invalid = operation.as_strategy(GenerationMode.NEGATIVE)

    @given(case=st.one_of(valid, invalid))
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def fuzz(case):  # noqa: ANN001
        case.call_and_validate(checks=CHECKS)

    fuzz()


def test_every_documented_error_is_the_error_answer_the_server_sends():
    """The server answers every refusal with ``{"error": {"code", "message"}}``; the schema must say so
    (FastAPI's default 422 ``{"detail": [...]}`` would mislead a client written from the schema)."""
    spec = APP.openapi()
    wrong = []
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            for status, answer in operation.get("responses", {}).items():
                if status.startswith(("4", "5")):
                    ref = answer.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref", "")
                    if not ref.endswith("/ErrorAnswer"):
                        wrong.append(f"{method.upper()} {path} {status}: {ref or answer}")
    assert not wrong, wrong
