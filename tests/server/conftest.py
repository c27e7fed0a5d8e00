from __future__ import annotations

import pytest

from .support import ServerThread


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with ServerThread(tmp_path_factory.mktemp("server") / "intrigue.db") as running:
        yield running


@pytest.fixture
def http(server):
    with server.http() as client:
        yield client
