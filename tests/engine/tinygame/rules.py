"""The tiny test game's rules: small enough to read in one go."""

from intrigue.engine import Audience, GameBinding

game = GameBinding("tiny", title="Tiny", dsl="tiny.yaml",
                   state={"claim": "", "challenger": 0, "bonus_votes": 0, "rounds": 0},
                   options={"target": 3})


def leader(m):
    return next(s for s, p in enumerate(m.players) if p["is_leader"])


@game.tool
def deal_secrets(m):
    for seat, player in enumerate(m.players):
        player["secret"] = m.rng.randint(1, 6)
        m.announce(f"Your die shows {player['secret']}.", Audience.of(seat))
    m.players[0]["is_leader"] = True


@game.tool
def prompt_claim(m):
    for seat in m.targets:
        m.offer(seat, ["High", "Low"])


@game.tool
def record_claim(m):
    m.state["claim"] = m.last_decision.answer_of(leader(m))
    m.announce(f"{m.names[leader(m)]} claims {m.state['claim']}.")


@game.tool
def offer_challenge(m):
    for seat in m.targets:
        m.offer(seat, ["Challenge", "Pass"], closing=["Challenge"])


@game.route(2)
def after_challenge_window(m):
    return 3 if m.last_decision.who_chose("Challenge") else 4


@game.tool
def resolve_challenge(m):
    challenger = m.last_decision.who_chose("Challenge")[0]
    high = m.players[leader(m)]["secret"] >= 4
    truthful = (m.state["claim"] == "High") == high
    winner = leader(m) if truthful else challenger
    m.players[winner]["points"] += 1
    m.state["challenger"] = challenger + 1


@game.tool
def offer_bonus(m):
    for seat in m.targets:
        m.offer(seat, ["Yes", "No"])


@game.tool
def count_bonus(m):
    m.state["bonus_votes"] = len(m.last_decision.who_chose("Yes"))


@game.tool
def score_round(m):
    m.state["rounds"] += 1
    if not m.last_decision.who_chose("Challenge"):
        m.players[leader(m)]["points"] += 1
    for player in m.players:
        player["secret"] = m.rng.randint(1, 6)
    current = leader(m)
    m.players[current]["is_leader"] = False
    m.players[(current + 1) % len(m.players)]["is_leader"] = True
    best = [s for s, p in enumerate(m.players) if p["points"] >= m.options["target"]]
    if best:
        m.finish(best)


@game.route(5)
def after_score(m):
    return 99 if m.winners else 1


@game.observer
def observe(m, seat):
    return {"players": [{"name": p["name"], "points": p["points"],
                         "secret": p["secret"] if s == seat or m.over else None}
                        for s, p in enumerate(m.players)],
            "claim": m.state["claim"]}
