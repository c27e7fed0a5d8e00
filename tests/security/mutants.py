"""Mutants: remove one protection (chosen by $MUT) and check that the security suite notices.

Not a test module (pytest does not collect it). Run, for example:

    MUT=token python -m pytest -p tests.security.mutants tests/security -q

Every mutant must make at least one test fail; docs/security.md lists which.
Mutants: token, version, offered, depth, size, flood, clean, replay, quota, seats, storage, bots_on_loop,
replay_on_loop, spectator, rules_log.
"""
from __future__ import annotations

import os

mut = os.environ.get("MUT", "")
if mut == "token":
    from intrigue.server import room as rooms
    orig = rooms.Room.seat_for
    def seat_for(self, token):
        try:
            return orig(self, token)
        except Exception:
            m = self.match
            return self.seats[m.pending[0]] if m is not None and m.pending else self.seats[0]
    rooms.Room.seat_for = seat_for
elif mut == "version":
    from intrigue.engine import match as mm
    orig = mm.Match.check
    def check(self, seat, option, version=None):
        return orig(self, seat, option, None)
    mm.Match.check = check
elif mut == "offered":
    from intrigue.server import room as rooms
    orig = rooms.Room.apply
    def apply(self, seat, option, version, source):
        if option not in self.match.legal(seat) and self.match.legal(seat) and not option.startswith("x"*10):
            option = self.match.legal(seat)[0]
        return orig(self, seat, option, version, source)
    rooms.Room.apply = apply
elif mut == "depth":
    from intrigue.server import protocol
    protocol.MAX_DEPTH = 10**6
elif mut == "size":
    from intrigue.server import protocol
    protocol.MAX_MESSAGE = 10**7
elif mut == "flood":
    from intrigue.server import protocol
    protocol.Bucket.take = lambda self, now=None: True
elif mut == "clean":
    from intrigue.server import lobby, protocol, room
    protocol.clean_line = lambda text, limit: text[:limit]
    def clean_name(n):
        return n[:24]
    room.clean_name = lobby.clean_name = clean_name
    def clean_chat(t):
        return t
    room.clean_chat = clean_chat
elif mut == "replay":
    from intrigue.server import history
    orig = history.finished_record
    def finished_record(store, match_id):
        record = store.load_match(match_id)
        if record is None:
            return orig(store, match_id)
        return record
    history.finished_record = finished_record
elif mut == "quota":
    from intrigue.server import settings as rooms
    rooms.Settings.room_quota = property(lambda self: 10**9, lambda self, v: None)
elif mut == "seats":
    from intrigue.server import settings as rooms
    rooms.Settings.seats_per_address = property(lambda self: 10**9, lambda self, v: None)
elif mut == "storage":
    from intrigue.server import room as rooms
    from intrigue.store import StoreError
    orig = rooms.Room.apply
    def apply(self, seat, option, version, source):
        try:
            return orig(self, seat, option, version, source)
        except rooms.Refusal as r:
            if r.code != "storage":
                raise
            self.match.choose(seat, option, version)
            self.broadcast_views()
    rooms.Room.apply = apply
elif mut == "bots_on_loop":
    from concurrent.futures import Executor, Future

    from intrigue.server import autoplay

    class Inline(Executor):
        def submit(self, fn, *args, **kwargs):
            future = Future()
            future.set_result(fn(*args, **kwargs))
            return future

    autoplay.BOT_THREADS = Inline()
elif mut == "replay_on_loop":
    import asyncio

    async def inline(fn, *args, **kwargs):
        return fn(*args, **kwargs)

    asyncio.to_thread = inline
elif mut == "spectator":
    import importlib
    ob = importlib.import_module("intrigue.engine.observe")
    orig = ob.observe
    def observe(match, seat):
        return orig(match, 0 if seat is None else seat)
    ob.observe = observe
elif mut == "rules_log":  # the old order: a choice is stored before the rules have applied it
    from intrigue.server import room as rooms
    from intrigue.store import ChoiceRecord
    orig = rooms.Room.apply
    def apply(self, seat, option, version, source):
        match = self.match
        if match is not None and option in match.legal(seat):
            trial = match.clone()
            try:
                trial.choose(seat, option, version)
            except Exception:
                self.store.append_choice(self.match_id, ChoiceRecord(match.version, seat, option, source, "t"))
        return orig(self, seat, option, version, source)
    rooms.Room.apply = apply
