"""Each game's phase graph is served as SVG, with a phase highlighted on request."""

from .support import ServerThread


def test_graph_route_serves_each_game_and_highlights_a_phase(tmp_path):
    with ServerThread(tmp_path / "g.db") as server, server.http() as client:
        plain = client.get("/api/games/coup/graph.svg")
        assert plain.status_code == 200 and plain.headers["content-type"].startswith("image/svg+xml")
        assert "Action Challenge Window" in plain.text
        highlighted = client.get("/api/games/coup/graph.svg?highlight=4")
        assert highlighted.status_code == 200 and highlighted.text != plain.text
        missing = client.get("/api/games/chess/graph.svg")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_game"
