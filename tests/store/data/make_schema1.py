"""How ``schema1.db`` was made: run with Intrigue at schema version 1 (commit 522f58e) on the path.

    PYTHONPATH=<checkout of 522f58e>/src python tests/store/data/make_schema1.py tests/store/data/schema1.db

It writes, through that release's own store: a finished Coup match (room OLD1, finished),
a Coup match in progress (room OLD2, playing, three players with tokens ``old2-<seat>``),
an orphan (a match marked playing that no room points at, as a crash between creating a
match and saving its room left it then) and a chat line. Kept so that the test opens a
file the previous schema really wrote, not one rebuilt from today's migration list.
"""

import random
import sys

from intrigue import games
from intrigue.engine import Match
from intrigue.server.matches import game_version
from intrigue.server.seats import token_hash
from intrigue.store import ChatRecord, ChoiceRecord, RoomRecord, SeatRecord, open_store

path = sys.argv[1]
store = open_store(path)
game = games.get("coup")
names = ["Aria", "Blake", "Casey"]


def play(code, seed, moves=None):
    match = Match(game, names, seed)
    match_id = store.create_match(code, "coup", game_version(game), names, [None] * 3, seed, {}, "2026-01-01T00:00:00.000000Z")
    rng = random.Random(seed)
    while not match.over and (moves is None or match.version < moves):
        seat = rng.choice(match.pending)
        option = rng.choice(match.legal(seat))
        store.append_choice(match_id, ChoiceRecord(match.version, seat, option, "player", "2026-01-01T00:01:00.000000Z"))
        match.choose(seat, option)
    return match_id, match


timers = {"turn_timer": None, "window_timer": None}
done, played = play("OLD1", 101)
store.finish_match(done, played.winners, "2026-01-01T00:10:00.000000Z")
store.save_room(RoomRecord("OLD1", "coup", 0, True, timers, "finished", "2026-01-01T00:00:00.000000Z", "", done,
                           [SeatRecord(i, n, None, token_hash(f"old1-{i}")) for i, n in enumerate(names)]))
live, _ = play("OLD2", 102, moves=7)
store.save_room(RoomRecord("OLD2", "coup", 0, True, timers, "playing", "2026-01-01T00:00:00.000000Z", "", live,
                           [SeatRecord(i, n, None, token_hash(f"old2-{i}")) for i, n in enumerate(names)]))
orphan, _ = play("OLD1", 103, moves=3)  # created for OLD1's rematch; the room was never saved pointing at it
store.add_chat(ChatRecord("OLD2", 1, "Blake", "from the old days", "2026-01-01T00:02:00.000000Z"))
store.close()
print(f"finished {done}, live {live}, orphan {orphan}")
