"""A real server (uvicorn on 127.0.0.1, free port) and helpers to look inside it from the test."""

from __future__ import annotations

import pytest

from ..server.support import ServerThread


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with ServerThread(tmp_path_factory.mktemp("security") / "intrigue.db") as running:
        yield running


@pytest.fixture
def http(server):
    with server.http() as client:
        yield client
