from __future__ import annotations

import pytest

from tests.server.support import ServerThread

from .chat_server import ChatServer


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with ServerThread(tmp_path_factory.mktemp("agents") / "intrigue.db") as running:
        yield running


@pytest.fixture
def http(server):
    with server.http() as client:
        yield client


@pytest.fixture(scope="module")
def chat_server():
    with ChatServer() as running:
        yield running
