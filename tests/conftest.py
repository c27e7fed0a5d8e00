"""Shared fixtures: installed games and the tiny test game."""

from pathlib import Path

import pytest

from intrigue import games

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def coup():
    return games.get("coup")


@pytest.fixture(scope="session")
def tiny():
    return games.load_path(Path(__file__).parent / "engine" / "tinygame")


def pytest_collection_modifyitems(items):
    """Browser tests run last: Playwright's sync API keeps an event loop running
    for the rest of the session, which asyncio.run() in other tests cannot share."""
    items.sort(key=lambda item: "tests/browser/" in str(item.path).replace("\\", "/"))
