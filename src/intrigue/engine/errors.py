"""The engine's errors: refused choices (the player's fault) and engine errors (ours)."""


class Refused(ValueError):
    """A choice the rules do not allow. The match is unchanged.

    ``code`` is a stable machine-readable reason: ``over``, ``not_pending``,
    ``not_offered``, ``stale_version``, ``unknown_seat``.
    """

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class EngineError(RuntimeError):
    """The game's rules module or the DSL led the engine somewhere it cannot go."""


class BindingError(ValueError):
    """A game's rules module does not fit its DSL (unbound tools, unrouted phases)."""
