"""``intrigue tournament``: rotation, intervals, report shape, chart, and refusals."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from intrigue import cli
from intrigue.bots.plot import svg
from intrigue.bots.tournament import lineup, run, seat_of, wilson


@pytest.fixture(scope="module")
def app():
    cli._register_commands()
    return cli.app


def invoke(app, *args):
    return CliRunner().invoke(app, ["tournament", *args])


def test_wilson_interval_matches_the_textbook_values():
    low, high = wilson(81, 100)
    assert (round(low, 4), round(high, 4)) == (0.7222, 0.8749)
    low, high = wilson(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    low, high = wilson(10, 10)
    assert round(low, 4) == 0.7225 and round(high, 6) == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_the_last_bot_fills_the_empty_seats_and_every_bot_visits_every_seat():
    assert lineup(["heuristic", "random"], 4) == ["heuristic", "random", "random", "random"]
    assert lineup(["a", "b", "c"], None) == ["a", "b", "c"]
    with pytest.raises(ValueError, match="3 bots for 2 seats"):
        lineup(["a", "b", "c"], 2)
    seats = {seat_of(0, game, 4) for game in range(4)}
    assert seats == {0, 1, 2, 3}


def test_report_counts_each_game_once_and_seats_evenly(coup):
    report = run(coup, ["heuristic", "random"], games=40, seed=5, players=4).as_json()
    assert [bot["bot"] for bot in report["bots"]] == ["heuristic", "random"]
    heuristic, random_ = report["bots"]
    assert (heuristic["seats"], heuristic["games"], random_["seats"], random_["games"]) == (1, 40, 3, 120)
    assert heuristic["wins"] + random_["wins"] == 40 - report["draws"]
    for bot in report["bots"]:
        low, high = bot["ci95"]
        assert low <= bot["win_rate"] <= high
        assert sum(bot["wins_by_seat"].values()) == bot["wins"]
        assert bot["wins_by_role"] == ({"winner": bot["wins"]} if bot["wins"] else {})
    assert sum(sum(by_bot.values()) for by_bot in report["wins_by_seat"].values()) == 40 - report["draws"]


def test_more_workers_give_the_same_results(coup):
    one = run(coup, ["heuristic", "random"], games=24, seed=9, players=3).as_json()
    two = run(coup, ["heuristic", "random"], games=24, seed=9, players=3, workers=2).as_json()
    strip = {"seconds", "workers"}
    assert {k: v for k, v in one.items() if k not in strip and k != "bots"} == \
        {k: v for k, v in two.items() if k not in strip and k != "bots"}
    for a, b in zip(one["bots"], two["bots"]):
        assert (a["wins"], a["wins_by_seat"], a["decisions"]) == (b["wins"], b["wins_by_seat"], b["decisions"])


def test_cli_prints_json_and_writes_an_svg_chart(app, tmp_path):
    chart = tmp_path / "chart.svg"
    result = invoke(app, "coup", "--bots", "heuristic:bold,random", "--players", "3", "--games", "12",
                    "--seed", "1", "--json", "--plot", str(chart), "--habits")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["game"] == "coup" and report["games"] == 12 and report["lineup"][0] == "heuristic:bold"
    assert set(report["bots"][0]) >= {"win_rate", "ci95", "wins_by_seat", "wins_by_role", "ms_per_decision",
                                      "habits"}
    drawing = chart.read_text()
    assert drawing.startswith("<svg") and drawing.count('class="bar"') == 2
    assert drawing.count('class="error"') == 2 and "heuristic:bold" in drawing


def test_cli_table_names_bots_rates_and_intervals(app):
    result = invoke(app, "coup", "--bots", "heuristic,random", "--games", "10", "--players", "2")
    assert result.exit_code == 0, result.output
    assert "heuristic" in result.output and "random" in result.output
    assert re.search(r"\d+\.\d%–\d+\.\d%", result.output)
    assert "wins by seat" in result.output


@pytest.mark.parametrize(("args", "message"), [
    (("coup", "--bots", "genius"), "unknown bot 'genius'"),
    (("coup", "--bots", "heuristic:reckless"), "no personality 'reckless'"),
    (("nosuchgame", "--bots", "random"), "no installed game 'nosuchgame'"),
    (("coup", "--bots", "random", "--players", "11"), "takes 2 to 10 players, not 11"),
    (("coup", "--bots", "random,random", "--games", "0"), "--games must be at least 1"),
    (("coup", "--bots", "random,random", "--plot", "chart.pdf"), "writes .svg or .png"),
])
def test_cli_refuses_bad_input_with_a_clear_message(app, args, message):
    result = invoke(app, *args)
    assert result.exit_code == 2
    assert message in result.output


def test_a_bot_made_for_another_game_is_refused(app):
    from intrigue.games import installed

    other = next(game for game in installed() if game != "coup")
    result = invoke(app, other, "--bots", "heuristic,random", "--games", "1", "--players", "4")
    assert result.exit_code == 2 and f"not made for {other}" in result.output


def test_svg_shows_an_even_chance_line_per_bot():
    report = {"game": "coup", "players": 4, "games": 10, "seed": 0,
              "bots": [{"bot": "x", "seats": 1, "win_rate": 0.5, "ci95": [0.3, 0.7], "even_share": 0.25}]}
    drawing = svg(report)
    assert "even chance per seat" in drawing and "50.0%" in drawing


def test_a_png_chart_is_drawn_with_matplotlib_or_refused_with_the_way_to_get_it(app, tmp_path):
    import importlib.util

    chart = tmp_path / "chart.png"
    result = invoke(app, "coup", "--bots", "heuristic,random", "--games", "4", "--players", "2",
                    "--plot", str(chart))
    if importlib.util.find_spec("matplotlib") is None:
        assert result.exit_code == 2 and "pip install 'intrigue[plot]'" in result.output
        assert not chart.exists()
    else:
        assert result.exit_code == 0, result.output
        assert chart.read_bytes().startswith(b"\x89PNG")


def test_rules_failing_in_a_match_a_bot_imagined_are_reported_as_the_bots(coup, monkeypatch):
    """A designer whose game passes `simulate` must not read a search bot's failure as the game's own."""
    import intrigue.bots.tournament as tournament
    from intrigue.engine.errors import RuleError

    class Imagining:
        def choose(self, view):
            raise RuleError("position 1 is outside the list (1 to 0)", "skull.yaml:212", 7, "Turn Over a Disc")

    monkeypatch.setattr(tournament, "make", lambda spec, seed=None: Imagining())
    with pytest.raises(RuleError) as failed:
        run(coup, ["ismcts:30", "random"], 1, 1, 2)
    assert str(failed.value) == ("skull.yaml:212: phase 7 (Turn Over a Disc): while bot ismcts:30 chose for seat 1 "
                                 "in game 1 (a search bot plays matches it samples, guessing what its seat cannot "
                                 "see: docs/writing-a-game.md §10 Bots): position 1 is outside the list (1 to 0)")
