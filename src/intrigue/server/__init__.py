"""The multiplayer server: lobby, rooms, the WebSocket protocol, timers and bots.

It knows nothing of any one game: it drives :class:`~intrigue.engine.Match`
through ``choose`` and sends only ``observe(match, seat)``. See docs/protocol.md.
"""
