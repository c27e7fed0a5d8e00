"""Hostile remote agents, written from docs/agents.md: a program seated by the arena (``remote:COMMAND``)
gets a room's link and its seat's token on the arena's own server. What could it learn there that its
seat may not see?"""

from __future__ import annotations

import json
import sys
import textwrap

from intrigue import games
from intrigue.arena.run import run

#: A remote agent that, before playing each seat it is given, tries the two ways the docs suggest to
#: know the deal: deal the cards itself from the published seed (``seed × 1,000,003 + deal``, the
#: players are ``P1``, ``P2``…), and replay the finished rotation of the same deal with the history
#: routes of docs/protocol.md. It writes what it found, then plays the seat at random.
CHEAT = textwrap.dedent('''
    import asyncio, json, sys
    import httpx
    from intrigue import games
    from intrigue.bots import make
    from intrigue.client import Client, play_seat
    from intrigue.client.session import parse_invite
    from intrigue.engine import Match

    SEED, PLAYERS, OUT = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]

    def cards(view):
        return json.dumps([view.get("state"), [c for c in view["components"] if c.get("kind") in ("hand", "board")]],
                          sort_keys=True)

    async def main():
        played = 0
        for line in sys.stdin:
            seat = json.loads(line)
            base = seat["url"].split("/room/")[0]
            client = Client(parse_invite(seat["url"]), seat["token"])
            await client.connect()
            while client.view is None:
                await client.recv()
            view = client.view
            found = {"seat": seat["seat"], "version": view["version"], "replays": []}
            with httpx.Client(base_url=base, trust_env=False) as http:
                room = http.get(f"/api/rooms/{seat['room']}").json()
                options = {k: v for k, v in room["options"].items() if not k.endswith("_timer")}
                names = [s["name"] for s in room["seats"]]
                dealt = Match(games.get(view["game"]), names, SEED * 1_000_003 + played // PLAYERS, options)
                found["seed"] = cards(dealt.observe(seat["seat"])) == cards(view)
                listing = http.get("/api/matches", params={"status": "finished"})
                found["history"] = [listing.status_code, listing.json()]
                for match in range(1, 20):  # the ids are small integers: no need for the list
                    answer = http.get(f"/api/matches/{match}/replay", params={"step": 0, "seat": seat["seat"]})
                    found["replays"].append(answer.status_code)
                    found.setdefault("replay", False)
                    if answer.status_code == 200 and cards(answer.json()["view"]) == cards(view):
                        found["replay"] = True
            with open(OUT, "a") as out:
                out.write(json.dumps(found) + "\\n")
            await play_seat(client, make("random", seed=1), games=1)
            await client.close()
            played += 1

    asyncio.run(main())
''')


def test_a_remote_agent_can_neither_deal_the_cards_from_the_seed_nor_replay_the_last_rotation(tmp_path):
    program, found = tmp_path / "cheat.py", tmp_path / "found.jsonl"
    program.write_text(CHEAT)
    report = run(games.get("coup"), ["random", f"remote:{sys.executable} {program} 5 2 {found}"], deals=2, seed=5,
                 workdir=tmp_path)
    assert report["hosted"] and report["matches"] == 4
    tries = [json.loads(line) for line in found.read_text().splitlines()]
    assert len(tries) == 4, (tmp_path / "agent-1.log").read_text()[-2000:]
    assert all(t["version"] == 0 for t in tries)  # it looked before anyone moved
    # Before the fix, every seat's cards were those the published seed deals, and from the second rotation
    # of a deal on, the first rotation's replay showed them (with seat=all: everybody's).
    assert [t["seed"] for t in tries] == [False] * 4
    assert all(t["history"] == [403, {"error": {"code": "no_history", "message": t["history"][1]["error"]["message"]}}]
               for t in tries)
    assert all(set(t["replays"]) == {403} and not t["replay"] for t in tries)
    # The deals are still played once per rotation: the arena's own replay of each match found its winners.
    assert sum(row["wins"] for row in report["agents"]) == 4
