"""The variants on the command line: ``--option key=value`` for simulate and tournament, the
options the lobby lists, and a clear refusal of a value or key the game does not know."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from intrigue.cli import _register_commands, app
from intrigue.engine import Match

_register_commands()
RUN = CliRunner()


def invoke(*args: str):
    return RUN.invoke(app, list(args))


def test_simulate_plays_the_variants_chosen_with_option():
    result = invoke("simulate", "coup", "--games", "20", "--players", "5", "-o", "characters=inquisitor",
                    "--option", "reformation=true", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["options"] == {"characters": "inquisitor", "reformation": True}
    assert report["games"] == 20 and sum(report["wins_by_seat"].values()) == 20
    shown = invoke("simulate", "coup", "-n", "5", "-p", "2", "-o", "two_player_setup=official")
    assert shown.exit_code == 0 and "two_player_setup=official" in shown.output


def test_a_bad_option_is_refused_with_a_clear_message():
    for args, message in ((["-o", "characters=duke"], "option characters must be ambassador or inquisitor"),
                          (["-o", "colour=red"], "unknown option 'colour' for coup"),
                          (["-o", "reformation=3"], "option reformation takes a bool"),
                          (["-o", "reformation"], "--option takes key=value")):
        result = invoke("simulate", "coup", "-n", "3", *args)
        assert result.exit_code == 2, result.output
        assert message in " ".join(result.output.split()), result.output


def test_tournament_plays_the_variants_chosen_with_option():
    result = invoke("tournament", "coup", "-b", "heuristic,random", "-p", "3", "-n", "6", "--seed", "19",
                    "-o", "characters=inquisitor", "-o", "reformation=true", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["options"] == {"characters": "inquisitor", "reformation": True}
    assert report["games"] == 6 and report["draws"] == 0
    searched = invoke("tournament", "coup", "-b", "ismcts:3,heuristic", "-p", "2", "-n", "2", "--seed", "19",
                      "-o", "characters=inquisitor", "-o", "reformation=true", "--json")
    assert searched.exit_code == 0 and json.loads(searched.output)["games"] == 2, searched.output
    refused = invoke("tournament", "coup", "-b", "random", "-p", "3", "-n", "2", "-o", "characters=bishop")
    assert refused.exit_code == 2 and "ambassador or inquisitor" in refused.output


def test_a_match_refuses_an_option_value_it_does_not_know(coup):
    try:
        Match(coup, ["A", "B"], 0, {"characters": "bishop"})
    except ValueError as error:
        assert "option characters must be ambassador or inquisitor, not 'bishop'" in str(error)
    else:  # pragma: no cover - the test fails
        raise AssertionError("an unknown character set was accepted")


def test_the_lobby_lists_the_variant_options(tmp_path):
    from tests.server.support import ServerThread

    with ServerThread(tmp_path / "lobby.db") as server, server.http() as http:
        coup = next(g for g in http.get("/api/games").json() if g["id"] == "coup")
    assert {"characters": "ambassador", "reformation": False, "choose_allegiance": False,
            "two_player_setup": "simple"}.items() <= coup["options"].items()
    assert coup["min_players"] == 2 and coup["max_players"] == 10


def test_graph_draws_the_variant_phases():
    result = invoke("graph", "coup", "--format", "mermaid")
    assert result.exit_code == 0
    for name in ("Examine — Target Shows a Card", "Embezzler Proves No Duke", "Choose Starting Allegiance",
                 "Official Two-Player Set-up — Keep a Card"):
        assert name in result.output
