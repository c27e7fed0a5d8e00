"""The pages the server serves, written from docs/protocol.md ("Pages": `/`, `/room/{code}`, `/history`,
`/replay/{match}`; a path that is no route: 404 `not_found`). The browser keeps every seat's token in
`localStorage` on the server's origin, so no page of that origin may run a script from another site."""

from __future__ import annotations

import re

import pytest


@pytest.mark.parametrize("path", ["/docs", "/redoc", "/docs/oauth2-redirect"])
def test_no_undocumented_page_loads_a_script_from_another_site(http, path):
    """FastAPI's /docs and /redoc answered 200 with Swagger UI and ReDoc loaded from cdn.jsdelivr.net
    (the latest 5.x, no integrity hash): whoever served that file ran code where the tokens are kept."""
    answer = http.get(path)
    assert answer.status_code == 404, answer.text[:200]
    assert answer.json()["error"]["code"] == "not_found"
    assert http.get("/openapi.json").status_code == 200  # the schema itself stays published


@pytest.mark.parametrize("path", ["/", "/room/K7QX", "/history", "/replay/1"])
def test_the_documented_pages_load_scripts_and_styles_from_the_server_only(http, path):
    answer = http.get(path)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    sources = re.findall(r"""<(?:script|link)\b[^>]*\b(?:src|href)\s*=\s*["']?([^"' >]+)""", answer.text, re.I)
    assert sources, answer.text[:300]
    assert all(source.startswith("/") and not source.startswith("//") for source in sources), sources
