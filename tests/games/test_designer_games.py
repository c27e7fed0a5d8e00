"""The designer trial's games (docs/examples/games), written from docs/writing-a-game.md alone:
random bots always finish them, and no seat's view ever holds another seat's secret."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from intrigue import bots, games
from intrigue.dsl import validate_file
from intrigue.engine import Match
from intrigue.engine.match import CLOCK, TIME_UP
from intrigue.scenario import run_file

from ..conftest import ROOT

EXAMPLES = ROOT / "docs" / "examples" / "games"
NAMES = ["Aria", "Blaise", "Cass", "Dara", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun"]
SCENARIOS = sorted((EXAMPLES / "scenarios").glob("*.yaml"))


def play(match: Match, seed: int, check, check_log) -> int:
    """Random bots, each seeing only its own observation; ``check(match, views)`` before every
    choice, ``check_log(match, views)`` on the views before the last choice (the log only grows)."""
    players = [bots.make("random", seed=f"{seed}-{seat}") for seat in range(len(match.names))]
    choices = 0
    while not match.over:
        views = [match.observe(seat) for seat in range(len(match.names))]
        check(match, views)
        seat = match.pending[0]
        view = bots.SeatView(match.game, seat, views[seat], tuple(match.legal(seat)))
        match.choose(seat, players[seat].choose(view))
        choices += 1
        assert choices < 2000
        if match.over:
            check_log(match, views)
    return choices


def foreign_lines(match: Match, view: dict, seat: int, fields: tuple[str, ...]) -> list[str]:
    """Log lines in ``view`` that show another player's ``fields`` (a ``show`` writes "Name — field: …")."""
    others = [name for s, name in enumerate(match.names) if s != seat]
    return [line["text"] for line in view["log"]
            if any(line["text"].startswith(f"{name} — {field}:") for name in others for field in fields)]


@pytest.fixture(scope="module")
def skull():
    return games.load_path(EXAMPLES / "skull.yaml")


@pytest.fixture(scope="module")
def chancellor():
    return games.load_path(EXAMPLES / "secret_chancellor.yaml")


def test_skull_two_hundred_random_games_end_and_no_seat_sees_another_seats_discs(skull):
    endings = Counter()
    for seed in range(240):
        count = 3 + seed % 4
        match = Match(skull, NAMES[:count], seed=seed, headless=True)

        def check(match, views):
            placing = match.phase.name == "Place a Disc"
            alive = {match.names[s] for s in range(count) if match.players[s]["is_alive"]}
            for seat, view in enumerate(views):
                for owner, row in enumerate(view["state"]["players"]):
                    if owner != seat:
                        assert row["hand"] is None and row["stack"] is None, (seed, seat, owner)
                if placing:  # who has placed is no secret, but every seat sees the others still placing
                    assert alive - {match.names[seat]} <= set(view["waiting"]), (seed, seat, view["waiting"])

        def check_log(match, views):
            for seat, view in enumerate(views):
                assert not foreign_lines(match, view, seat, ("hand", "stack")), (seed, seat)

        play(match, seed, check, check_log)
        winner = match.players[match.winners[0]]
        assert len(match.winners) == 1
        assert winner["points"] == 2 or sum(p["is_alive"] for p in match.players) == 1
        endings["points" if winner["points"] == 2 else "last"] += 1
        assert all(p["discs"] == size for p in match.players
                   for size in [len(p["hand"]) + len(p["stack"]) + len(p["shown"])] if p["is_alive"])
    assert endings["points"] > 100


def test_skull_each_player_sees_their_own_discs_in_hand_and_the_others_only_how_many(skull):
    """On the table (not headless: the cards a browser draws), at every step each player's own card
    shows the discs left in their hand and their stack as they are now; the board shows everyone's
    number of discs in hand; no seat holds a card or a log line of another seat's hand or stack."""
    for seed in range(30):
        count = 3 + seed % 4
        match = Match(skull, NAMES[:count], seed=seed)
        players = [bots.make("random", seed=f"{seed}-{seat}") for seat in range(count)]
        checked = 0
        while not match.over:
            placing = match.phase.name in ("Place a Disc", "Add or Bid")
            for seat in range(count):
                view = match.observe(seat)
                cards = [c for c in view["components"] if c["kind"] == "character_card" and c.get("player")]
                assert all(c["player"] == match.names[seat] for c in cards), (seed, seat, cards)
                assert not foreign_lines(match, view, seat, ("hand", "stack")), (seed, seat)
                [board] = [c for c in view["components"] if c["kind"] == "board"]
                in_hand = {row["name"]: {s["label"]: s["value"] for s in row["stats"]}.get("hand size")
                           for row in board["players"]}
                assert in_hand == {name: len(p["hand"]) for name, p in zip(match.names, match.players)}, seed
                own = match.players[seat]
                if own["is_alive"]:  # the card as the player's discs are now, at every step
                    assert [c["text"] for c in cards] == [f"hand: {', '.join(own['hand'])}, stack: {', '.join(own['stack'])}"], (seed, seat)
                    checked += placing
            seat = match.pending[0]
            view = bots.SeatView(match.game, seat, match.observe(seat), tuple(match.legal(seat)))
            match.choose(seat, players[seat].choose(view))
        assert checked > 10, seed


def test_secret_chancellor_two_hundred_random_games_end_and_roles_stay_with_the_team(chancellor):
    sides = Counter()
    for seed in range(240):
        count = 5 + seed % 6
        match = Match(chancellor, NAMES[:count], seed=seed, headless=True)

        def check(match, views):
            roles = [p["role"] for p in match.players]
            for seat, view in enumerate(views):
                for owner, row in enumerate(view["state"]["players"]):
                    if owner == seat:
                        continue
                    team = roles[seat] == "Fascist" or (roles[seat] == "Tyrant" and count <= 6)
                    knows = team and roles[owner] != "Liberal"
                    assert row["role"] == (roles[owner] if knows else None), (seed, seat, owner, row["role"])
                    if row["party"] is not None and not knows:  # only an investigation shows a party
                        assert match.players[owner]["investigated"], (seed, seat, owner)
                    assert row["hand"] is None and row["top_policies"] is None, (seed, seat, owner)

        def check_log(match, views):
            for seat, view in enumerate(views):
                lines = foreign_lines(match, view, seat, ("role", "party", "top_policies"))
                if match.players[seat]["role"] == "Liberal":  # an investigation shows a party, nothing else
                    assert all(" — party: " in line for line in lines), (seed, seat, lines)
                assert not [line for line in lines if "top_policies" in line], (seed, seat, lines)

        play(match, seed, check, check_log)
        state = match.state
        liberal = {s for s, p in enumerate(match.players) if p["party"] == "Liberal"}
        if set(match.winners) == liberal:
            assert state["liberal_policies"] == 5 or any(
                p["role"] == "Tyrant" and not p["is_alive"] for p in match.players)
            sides["liberals"] += 1
        else:
            assert set(match.winners) == set(range(count)) - liberal
            assert state["fascist_policies"] == 6 or state["fascist_policies"] >= 3
            sides["fascists"] += 1
        # policies are conserved: deck, discards, hands and the enacted ones
        cards = state["deck"] + state["discards"] + [c for p in match.players for c in p["hand"]]
        assert len(cards) + state["liberal_policies"] + state["fascist_policies"] == 17
    assert sides["liberals"] > 20 and sides["fascists"] > 20


def test_a_liberal_investigating_sees_one_party_and_never_a_role(chancellor):
    seen_party = 0
    for seed in range(200):
        match = Match(chancellor, NAMES[:7], seed=seed, headless=True)
        while not match.over and match.phase.name != "Investigate":
            seat = match.pending[0]
            match.choose(seat, match.legal(seat)[seed % len(match.legal(seat))])
        if match.over:
            continue
        president = match.pending[0]
        target = match.legal(president)[0]
        match.choose(president, target)
        owner = match.names.index(target)
        view = match.observe(president)
        row = view["state"]["players"][owner]
        assert row["party"] == match.players[owner]["party"]
        if match.players[president]["role"] == "Liberal":
            assert row["role"] is None
        others = [s for s in range(7) if s not in (president, owner)]
        assert all(match.observe(s)["state"]["players"][owner]["party"] is None for s in others
                   if match.players[s]["role"] == "Liberal")
        seen_party += 1
    assert seen_party > 10


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_scenarios_of_the_key_rules_pass(path: Path):
    outcomes = run_file(path)
    assert outcomes and all(o.passed for o in outcomes), [str(f) for o in outcomes for f in o.failures]


@pytest.fixture(scope="module")
def love_letter():
    return games.load_path(EXAMPLES / "love_letter.yaml")


def test_love_letter_two_hundred_random_games_end_and_no_seat_sees_another_hand(love_letter):
    """Every card is somewhere (hands, discards, deck, set aside); nobody's view holds another's
    hand, even after a Priest looked at it (a line to the priest alone) and the hand changed."""
    assert validate_file(EXAMPLES / "love_letter.yaml").problems == []
    endings = Counter()
    for seed in range(240):
        count = 2 + seed % 3
        match = Match(love_letter, NAMES[:count], seed=seed, headless=True)

        def check(match, views):
            for seat, view in enumerate(views):
                for owner, row in enumerate(view["state"]["players"]):
                    if owner != seat:
                        assert row["hand"] is None, (seed, seat, owner)

        def check_log(match, views):
            for seat, view in enumerate(views):
                assert not foreign_lines(match, view, seat, ("hand",)), (seed, seat)
                looks = [line["text"] for line in view["log"] if " shows you the " in line["text"]]
                assert all(not line.startswith(match.names[seat]) for line in looks), (seed, seat, looks)

        play(match, seed, check, check_log)
        state, players = match.state, match.players
        cards = state["deck"] + state["burned"] + state["face_up"] + [c for p in players for c in p["hand"] + p["discards"]]
        assert sorted(cards) == sorted(love_letter.binding.state["deck"]), seed
        assert len(state["face_up"]) == (3 if count == 2 else 0)
        alive = [s for s, p in enumerate(players) if p["is_alive"]]
        assert match.winners and set(match.winners) <= set(alive), seed
        if len(alive) > 1:  # the deck ran out: the highest card wins, ties share
            assert state["deck"] == [] and {players[s]["score"] for s in match.winners} == {state["best"]}
            assert all(players[s]["score"] < state["best"] for s in alive if s not in match.winners)
        endings["showdown" if len(alive) > 1 else "last"] += 1
    assert endings["showdown"] > 20 and endings["last"] > 20


@pytest.fixture(scope="module")
def spyfall(tmp_path_factory):
    """The game of five rounds, and the same over one round."""
    one = tmp_path_factory.mktemp("spyfall") / "spyfall.yaml"
    text = (EXAMPLES / "spyfall.yaml").read_text(encoding="utf-8")
    one.write_text(text.replace("    round_limit: 5\n", "    round_limit: 1\n"), encoding="utf-8")
    return {5: games.load_path(EXAMPLES / "spyfall.yaml"), 1: games.load_path(one)}


def test_spyfall_random_games_with_the_clock_end_and_only_agents_know_the_location(spyfall):
    """With timers on (the clock runs out at random moments), over one round or five: the spy's
    view never holds the round's location or anyone's card, no seat sees another's role or job,
    and during the questions every player appears to act to every seat, so the spy's secret
    option to reveal themselves shows no one who it is (even once everyone has used their
    accusation). Scores follow the published rules; the most points wins."""
    assert validate_file(EXAMPLES / "spyfall.yaml").problems == []
    outcomes = Counter()
    for seed in range(240):
        count = 3 + seed % 6
        rounds = 1 if seed % 2 == 0 else 5
        match = Match(spyfall[rounds], NAMES[:count], seed=seed, headless=True, timers=True)
        players = [bots.make("random", seed=f"{seed}-{seat}") for seat in range(count)]
        places = []
        for steps in range(2000):
            if match.over:
                break
            spy = next(s for s, p in enumerate(match.players) if p["role"] == "Spy")
            location = match.state["location"]
            if location not in places:
                places.append(location)
            for seat in range(count):
                view = match.observe(seat)
                assert not {"location", "deck", "posts", "spy"} & set(view["state"]), (seed, seat)
                for owner, row in enumerate(view["state"]["players"]):
                    if owner != seat:
                        assert row["role"] is None and row["location"] is None and row["job"] is None
                if seat == spy:
                    assert view["state"]["players"][seat]["location"] == ""
                    assert not [line for line in view["log"] if f"at the {location}." in line["text"]], seed
                if match.phase.name == "Questions":  # a seat that pressed Continue drops out of its own list only
                    assert set(view["waiting"]) | {match.names[seat]} == set(match.names), (seed, seat, view["waiting"])
            if match.phase.name == "Questions" and (seed + steps) % 5 == 0:
                match.choose(CLOCK, TIME_UP)
                continue
            seat = match.pending[0]
            view = bots.SeatView(match.game, seat, match.observe(seat), tuple(match.legal(seat)))
            match.choose(seat, players[seat].choose(view))
        assert match.over, seed
        assert len(places) == rounds == match.state["round"], seed  # a new location every round
        state, roles = match.state, [p["role"] for p in match.players]
        totals = [p["total"] for p in match.players]
        assert set(match.winners) == {s for s in range(count) if totals[s] == max(totals)}, seed
        if rounds > 1:
            continue
        scores = [p["score"] for p in match.players]
        assert scores == totals
        outcomes[state["outcome"]] += 1
        if state["outcome"] in ("spy guessed", "spy escaped", "agent accused"):
            assert scores[spy] == (2 if state["outcome"] == "agent accused" else 4) == sum(scores), seed
        else:  # the agents score: 1 each, 2 for whoever accused the spy
            assert scores[spy] == 0
            bonus = state["accuser"] if state["outcome"] == "spy caught" else 0
            assert all(scores[s] == (2 if s + 1 == bonus else 1) for s in range(count) if roles[s] == "Agent"), seed
    assert set(outcomes) == {"spy guessed", "spy guessed wrong", "spy caught", "agent accused", "spy escaped"}, outcomes


@pytest.fixture(scope="module")
def cockroach_poker():
    return games.load_path(EXAMPLES / "cockroach_poker.yaml")


def test_cockroach_poker_random_games_end_and_only_those_who_looked_know_the_card(cockroach_poker):
    """Every card is in a hand, face up or set aside; nobody sees another's hand; the card on its
    way is told only to whoever looked at it; the loser holds four of a kind or had no card to pass."""
    assert validate_file(EXAMPLES / "cockroach_poker.yaml").problems == []
    endings = Counter()
    for seed in range(240):
        count = 2 + seed % 5
        match = Match(cockroach_poker, NAMES[:count], seed=seed, headless=True)
        looks, told = Counter(), [dict() for _ in range(count)]  # told: log entries (shared) by id

        def check(match, views):
            for seat, view in enumerate(views):
                assert "card" not in view["state"], (seed, seat)
                for owner, row in enumerate(view["state"]["players"]):
                    if owner != seat:
                        assert row["hand"] is None, (seed, seat, owner)
                told[seat].update((id(line), line) for line in view["log"] if line["text"].startswith("The card is a "))

        def check_log(match, views):
            for seat, view in enumerate(views):
                assert not foreign_lines(match, view, seat, ("hand",)), (seed, seat)
                assert len(told[seat]) == looks[seat], (seed, seat, told[seat], looks)

        players = [bots.make("random", seed=f"{seed}-{seat}") for seat in range(count)]
        choices = 0
        while not match.over:
            views = [match.observe(seat) for seat in range(count)]
            check(match, views)
            seat = match.pending[0]
            option = players[seat].choose(bots.SeatView(match.game, seat, views[seat], tuple(match.legal(seat))))
            looks[seat] += option == "Look and pass on"
            match.choose(seat, option)
            choices += 1
            assert choices < 2000
            if match.over:
                check_log(match, views)
        state, players_ = match.state, match.players
        cards = state["set_aside"] + [c for p in players_ for c in p["hand"] + p["face_up"]]
        assert Counter(cards) == Counter({creature: 8 for creature in state["creatures"]}), seed
        assert all(p["hand_size"] == len(p["hand"]) for p in players_)
        losers = [s for s in range(count) if s not in match.winners]
        assert len(losers) == 1, seed
        loser = players_[losers[0]]
        if max(Counter(loser["face_up"]).values(), default=0) >= 4:
            endings["four"] += 1
        else:
            assert loser["hand"] == [] and loser["is_active"], seed
            endings["empty"] += 1
        assert all(max(Counter(p["face_up"]).values(), default=0) < 4 for s, p in enumerate(players_) if s != losers[0])
    assert endings["four"] > 100 and endings["empty"] > 5, endings


def test_one_game_file_is_served_alone_and_a_badly_named_one_is_refused_by_name(tmp_path):
    """``serve --games FILE`` / ``agent --game-dir FILE``: one designer's file, not its whole folder."""
    from intrigue import games

    skull = Path(__file__).parents[2] / "docs" / "examples" / "games" / "skull.yaml"
    added, problems = games.add_folder(skull)
    try:
        assert (added, problems) == (["skull"], []) and "skull" in games.installed()
        assert "spyfall" not in games.installed()  # the file's neighbours are not served
    finally:
        games._EXTRA.pop("skull", None)
        games.get.cache_clear()
    odd = tmp_path / "my-skull.yaml"
    odd.write_text(skull.read_text(encoding="utf-8"), encoding="utf-8")
    added, problems = games.add_folder(odd)
    assert added == [] and problems == [f"{odd}: a game's file is named <id>.yaml, its id letters, digits and '_'"]


@pytest.fixture(scope="module")
def liars_dice():
    return games.load_path(EXAMPLES / "liars_dice.yaml")


def test_liars_dice_random_games_end_and_no_seat_sees_another_seats_dice_before_a_call(liars_dice):
    """Each seat's view holds its own dice as rolled and nobody else's; no log line shows another
    seat's dice except the reveal of every cup at a call of Dudo; a call costs exactly one die, the
    caller's when the bid was true (aces wild but in a bid of aces), else the bidder's; the last
    player with dice wins."""
    assert validate_file(EXAMPLES / "liars_dice.yaml").problems == []
    counted_aces = Counter()
    for seed in range(200):
        count = 2 + seed % 5
        match = Match(liars_dice, NAMES[:count], seed=seed, headless=True)
        players = [bots.make("random", seed=f"{seed}-{seat}") for seat in range(count)]
        for _ in range(3000):
            if match.over:
                break
            for seat in range(count):
                view = match.observe(seat)
                rows = view["state"]["players"]
                assert rows[seat]["dice"] == match.players[seat]["dice"], (seed, seat)
                for owner, row in enumerate(rows):
                    if owner != seat:
                        assert row["dice"] is None, (seed, seat, owner)
                assert not foreign_lines(match, view, seat, ("dice",)), (seed, seat)
            seat = match.pending[0]
            view = bots.SeatView(match.game, seat, match.observe(seat), tuple(match.legal(seat)))
            choice = players[seat].choose(view)
            if choice == "Dudo":
                quantity, face = match.state["bid_quantity"], match.state["bid_face"]
                dice = [d for p in match.players for d in p["dice"]]
                true = sum(1 for d in dice if d == face or (face != 1 and d == 1)) >= quantity
                counted_aces[face == 1] += 1
                before = [p["dice_left"] for p in match.players]
                loser = seat if true else match.state["bidder"] - 1
            match.choose(seat, choice)
            if choice == "Dudo":
                after = [p["dice_left"] for p in match.players]
                assert [b - a for b, a in zip(before, after)] == [int(s == loser) for s in range(count)], seed
        assert match.over, seed
        [winner] = match.winners
        assert [s for s, p in enumerate(match.players) if p["dice_left"] > 0] == [winner], seed
    assert counted_aces[True] > 20 and counted_aces[False] > 200


@pytest.fixture(scope="module")
def one_night():
    return games.load_path(EXAMPLES / "one_night.yaml")


def test_one_night_random_games_end_and_nobody_knows_a_card_they_did_not_see(one_night):
    """With the day's clock running out at random moments: every night phase shows every player
    acting to every seat; a seat sees its own card only after it robbed (as it was then), another
    player's card only as the Seer's look, another's role only as a Werewolf seeing Werewolves;
    no log line shows a card to a seat that did not look at it; the published win conditions (No
    vote, the clock's choice for whoever is out of time, counts against no one)."""
    assert validate_file(EXAMPLES / "one_night.yaml").problems == []
    night = {"Werewolves", "Seer", "Robber", "Troublemaker"}
    sides = Counter()
    for seed in range(240):
        count = 3 + seed % 6
        match = Match(one_night, NAMES[:count], seed=seed, headless=True, timers=True)
        players = [bots.make("random", seed=f"{seed}-{seat}") for seat in range(count)]
        dealt = [p["role"] for p in match.players]
        looks: dict[int, str] = {}  # seat -> what the seat saw of its own card (the Robber)
        for steps in range(500):
            if match.over:
                break
            for seat in range(count):
                view = match.observe(seat)
                rows = view["state"]["players"]
                assert rows[seat]["role"] == dealt[seat] and rows[seat]["card"] == looks.get(seat), (seed, seat)
                for owner, row in enumerate(rows):
                    if owner == seat:
                        continue
                    wolves = dealt[seat] == dealt[owner] == "Werewolf"
                    assert row["role"] == (dealt[owner] if wolves else None), (seed, seat, owner)
                    if dealt[seat] != "Seer":
                        assert row["card"] is None, (seed, seat, owner)
                lines = [line["text"] for line in view["log"]]
                if dealt[seat] in ("Villager", "Troublemaker") or dealt[seat] == "Werewolf" and dealt.count("Werewolf") == 2:
                    assert not [t for t in lines if " — card: " in t or t.startswith("You look")], (seed, seat, lines)
                if match.phase.name in night:  # everyone appears to act until the phase closes
                    assert set(view["waiting"]) | {match.names[seat]} == set(match.names), (seed, seat)
            if match.phase.name == "Day" and (seed + steps) % 3 == 0:
                match.choose(CLOCK, TIME_UP)
                continue
            seat = match.pending[0]
            view = bots.SeatView(match.game, seat, match.observe(seat), tuple(match.legal(seat)))
            robbing = match.phase.name == "Robber"
            match.choose(seat, players[seat].choose(view))
            if robbing and match.phase.name != "Robber" and "Robber" in dealt:  # the Robber looked at their new card
                robber = dealt.index("Robber")
                if match.players[robber]["card"] != "Robber":
                    looks[robber] = match.players[robber]["card"]
        assert match.over, seed
        cards = [p["card"] for p in match.players] + match.state["centre"]
        assert sorted(cards) == sorted(["Werewolf", "Werewolf", "Seer", "Robber", "Troublemaker"]
                                       + ["Villager"] * (count - 2)), seed
        votes = Counter(p["vote"] for p in match.players if p["vote"] != "No vote")  # a vote for nobody
        most = max(votes.values(), default=0)
        dead = {s for s in range(count) if most >= 2 and votes[match.names[s]] == most}
        assert dead == {s for s, p in enumerate(match.players) if not p["is_alive"]}, seed
        wolves = {s for s, p in enumerate(match.players) if p["card"] == "Werewolf"}
        if wolves and dead & wolves:
            side = set(range(count)) - wolves
        elif wolves:
            side = wolves
        else:
            side = set(range(count)) if not dead else set()
        assert set(match.winners) == side, seed
        sides[match.phase.name] += 1
    assert min(sides.values()) > 10 and len(sides) == 3, sides


@pytest.fixture(scope="module")
def mascarade():
    return games.load_path(EXAMPLES / "mascarade.yaml")


def test_mascarade_random_games_end_and_whether_a_swap_was_real_tells_nobody_anything(mascarade):
    """At every swap the match is played both ways (swapped, and only pretended): every seat's view,
    the swapper's included, is the same either way. No view holds a card before the end (a card
    seen is a line in the log: to all at the start and at a reveal, to the looker alone at a look);
    cards are only ever moved, never made; the game ends with 13 coins, a player without a coin
    (the richest win), or a rich Cheat."""
    assert validate_file(EXAMPLES / "mascarade.yaml").problems == []
    endings, swaps = Counter(), 0
    for seed in range(240):
        count = 4 + seed % 3
        match = Match(mascarade, NAMES[:count], seed=seed, headless=True)
        dealt = sorted(p["role"] for p in match.players)
        players = [bots.make("random", seed=f"{seed}-{seat}") for seat in range(count)]
        looks, told = Counter(), [set() for _ in range(count)]  # told: (version, text) of the lines read
        for _ in range(2000):
            if match.over:
                break
            views = [match.observe(seat) for seat in range(count)]
            for seat, view in enumerate(views):
                assert all(row["role"] is None for row in view["state"]["players"]), (seed, seat)
                told[seat].update((line["version"], line["text"]) for line in view["log"]
                                  if line["text"].startswith("Your card is"))
                assert len(told[seat]) == looks[seat], (seed, seat)  # a look is told to the one who looked alone
            if match.phase.name == "Swap or Not":
                swapper = match.pending[0]
                real, pretend = match.clone(), match.clone()
                real.choose(swapper, "Swap")
                pretend.choose(swapper, "Do not swap")
                assert [p["role"] for p in real.players] != [p["role"] for p in pretend.players]
                for seat in range(count):
                    assert real.observe(seat) == pretend.observe(seat), (seed, seat)
                assert real.observe(None) == pretend.observe(None)
                swaps += 1
            seat = match.pending[0]
            view = bots.SeatView(match.game, seat, views[seat], tuple(match.legal(seat)))
            option = players[seat].choose(view)
            looks[seat] += option == "Look at my card"
            match.choose(seat, option)
        assert match.over, seed
        assert sorted(p["role"] for p in match.players) == dealt, seed
        coins = [p["coins"] for p in match.players]
        if match.phase.name == "The Cheat Wins":
            [winner] = match.winners
            assert match.players[winner]["role"] == "Cheat" and coins[winner] >= 10, seed
        else:
            assert max(coins) >= 13 or min(coins) == 0, seed
            assert set(match.winners) == {s for s in range(count) if coins[s] == max(coins)}, seed
        endings["cheat" if match.phase.name == "The Cheat Wins" else "13" if max(coins) >= 13 else "broke"] += 1
    assert swaps > 1000 and endings["13"] > 20 and endings["broke"] > 20 and endings["cheat"] > 0, endings


@pytest.fixture(scope="module")
def hanabi():
    return games.load_path(EXAMPLES / "hanabi.yaml")


def hanabi_play(match: Match, players, check) -> Counter:
    """Play to the end; ``players[seat]`` is a bot, or a function of (match, seat) that picks an option."""
    turns = Counter()
    for _ in range(1000):
        if match.over:
            return turns
        views = [match.observe(seat) for seat in range(len(match.names))]
        check(match, views)
        seat = match.pending[0]
        legal = tuple(match.legal(seat))
        bot = players[seat]
        option = bot(match, seat) if callable(bot) else bot.choose(bots.SeatView(match.game, seat, views[seat], legal))
        assert option in legal
        if match.phase.name == "Clue":
            target = match.players[match.state["target"] - 1]
            lane = target["colours"] if option in match.state["colour_names"] else target["numbers"]
            wanted = option if option in match.state["colour_names"] else int(option)
            match.choose(seat, option)
            assert match.state["marked"] == [i + 1 for i, value in enumerate(lane) if value == wanted]
            continue
        turns["last round" if match.state["cards_left"] == 0 else "before"] += match.phase.name == "Clue, Discard or Play"
        match.choose(seat, option)
    raise AssertionError("the game did not end")


def test_hanabi_no_seat_ever_sees_its_own_cards_and_every_card_is_somewhere(hanabi):
    """Random bots (who burn the fuses) and a player who peeks at the true state to play what fits
    (who reaches the last round or 25): each seat sees the others' hands as they are and never its
    own, not even in a log line; a spectator sees no hand; what clues told stays, true, beside the
    card it was told of; 50 cards, always; after the last card
    each player plays exactly once more; everyone wins together unless three fuses burnt."""
    assert validate_file(EXAMPLES / "hanabi.yaml").problems == []
    marks = Counter()

    def check(match, views):
        for seat, view in enumerate(views):
            for owner, row in enumerate(view["state"]["players"]):
                true = match.players[owner]
                if owner == seat:
                    assert row["hand"] is row["colours"] is row["numbers"] is None, (seat, row)
                    assert row["hand_size"] == len(true["hand"])
                else:
                    assert (row["hand"], row["colours"], row["numbers"]) == (true["hand"], true["colours"], true["numbers"])
            assert not [line for line in view["log"] if line["text"].startswith(f"{match.names[seat]} — hand")]
        assert all(row["hand"] is None for row in match.observe(None)["state"]["players"])
        for p in match.players:  # what the clues told stays beside the right card, and is true
            assert len(p["known_colours"]) == len(p["known_numbers"]) == len(p["hand"])
            assert all(k in ("?", c) for k, c in zip(p["known_colours"], p["colours"]))
            assert all(k in ("?", str(n)) for k, n in zip(p["known_numbers"], p["numbers"]))
            marks.update(k for k in p["known_colours"] + p["known_numbers"] if k != "?")

    def peeker(match, seat):
        legal = match.legal(seat)
        if match.phase.name == "Clue":
            return legal[0]
        me = match.players[seat]
        fits = [f"Play {i + 1}" for i, (c, n) in enumerate(zip(me["colours"], me["numbers"]))
                if match.state["played_colours"].count(c) == n - 1]
        if fits:
            return fits[0]
        return next((o for o in legal if o.startswith("Discard")), legal[0])

    endings = Counter()
    for seed in range(160):
        count = 2 + seed % 4
        match = Match(hanabi, NAMES[:count], seed=seed, headless=True)
        random_table = seed % 2 == 0
        players = [bots.make("random", seed=f"{seed}-{s}") if random_table else peeker for s in range(count)]
        turns = hanabi_play(match, players, check)
        state, players_ = match.state, match.players
        cards = state["deck"] + state["played"] + state["discards"] + [c for p in players_ for c in p["hand"]]
        assert sorted(cards) == sorted(hanabi.binding.state["cards"]), seed
        if state["fuses"] == 0:
            assert match.winners == [] and match.phase.name == "The Show Is Lost"
            endings["lost"] += 1
            continue
        assert match.winners == list(range(count)) and state["score"] == len(state["played"]), seed
        if len(state["played"]) < 25:
            assert state["deck"] == [] and turns["last round"] == count, (seed, turns)  # one more turn each, the drawer too
        endings["25" if len(state["played"]) == 25 else "last round"] += 1
    assert endings["lost"] >= 70 and endings["last round"] >= 40, endings
    assert set(marks) == {"Red", "Yellow", "Green", "Blue", "White", "1", "2", "3", "4", "5"}, marks


@pytest.fixture(scope="module")
def guildhall():
    return games.load_path(EXAMPLES / "guildhall.yaml")


SECRET_NAMES = ("pool", "face_down", "die", "deck", "loot")


def guildhall_unseen(match: Match, seat, view: dict) -> None:
    """What ``seat`` (None: a spectator) must not see: another's passed hand or district cards, a
    character not yet called, the characters put aside face down; and no decision but its own."""
    assert not set(SECRET_NAMES) & set(view["state"]), (seat, set(view["state"]))
    for owner, row in enumerate(view["state"]["players"]):
        true = match.players[owner]
        if owner == seat:
            assert (row["draft_hand"], row["hand"], row["character"]) == (true["draft_hand"], true["hand"], true["character"])
            continue
        assert row["draft_hand"] is None and row["hand"] is None, (seat, owner, row)
        assert row["character"] == (true["character"] if true["revealed"] else None), (seat, owner, row)
        assert row["hand_size"] == len(true["hand"])
    if seat is None or match.names[seat] not in view["waiting"]:
        assert not (view.get("decision") or {}).get("options"), (seat, view.get("decision"))
    others = [name for s, name in enumerate(match.names) if s != seat]
    assert not [line["text"] for line in view["log"]
                if any(line["text"].startswith(f"{name} — ") for name in others)], seat


def test_guildhall_the_passed_characters_are_seen_by_their_holder_alone(guildhall):
    """Random bots, 2 to 4 players: every game ends (a fourth district or the eighth round) and the
    highest score wins. No seat (nor a spectator) ever sees a passed hand but its own, a character
    before it is called, or one put aside face down; at every pick the match is played with every
    option the picker has, and only the picker and the player passed to see any difference."""
    assert validate_file(EXAMPLES / "guildhall.yaml").problems == []
    ranks = guildhall.binding.state["ranks"]
    endings, picks = Counter(), 0
    for seed in range(150):
        count = 2 + seed % 3
        match = Match(guildhall, NAMES[:count], seed=seed, headless=True)
        players = [bots.make("random", seed=f"{seed}-{seat}") for seat in range(count)]
        for _ in range(2000):
            if match.over:
                break
            views = [match.observe(seat) for seat in range(count)]
            for seat, view in enumerate(views):
                guildhall_unseen(match, seat, view)
            guildhall_unseen(match, None, match.observe(None))
            seat = match.pending[0]
            legal = tuple(match.legal(seat))
            if match.phase.name == "Choose a Character":
                assert sorted(legal) == sorted(match.players[seat]["draft_hand"]) == sorted(match.state["pool"])
                assert list(legal) == [r for r in ranks if r in legal]  # in calling order: no shuffle shows
                branches = []
                for option in legal:
                    branch = match.clone()
                    branch.choose(seat, option)
                    branches.append(branch)
                passed_to = (seat + 1) % count
                last = match.state["picks"] + 1 == count  # the last pick: the calling starts, and reveals
                unaware = [] if last else [s for s in range(count) if s not in (seat, passed_to)] + [None]
                for other in unaware:
                    assert len({repr(b.observe(other)) for b in branches}) == 1, (seed, other)
                picks += 1
            option = players[seat].choose(bots.SeatView(match.game, seat, views[seat], legal))
            match.choose(seat, option)
            if match.phase.name == "Call the Next Character" or match.state["picks"] == count:
                kept = [p["character"] for p in match.players]
                assert sorted(kept + match.state["face_down"] + match.state["face_up"]) == sorted(ranks), seed
        assert match.over, seed
        rows, cost = match.players, guildhall.binding.state["cost"]
        for s, p in enumerate(rows):
            assert p["score"] == sum(cost[d] for d in p["built"]) + 2 * (match.state["first_done"] == s + 1), seed
        assert max(p["built_count"] for p in rows) >= 4 or match.state["round"] == 8, seed
        best = max(p["score"] for p in rows)
        assert set(match.winners) == {s for s, p in enumerate(rows) if p["score"] == best}, seed
        endings["built" if match.state["first_done"] else "round 8"] += 1
    assert picks > 1000 and endings["built"] > 50, (picks, endings)
