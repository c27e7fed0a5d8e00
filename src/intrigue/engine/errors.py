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


class RuleError(EngineError):
    """A game's rules failed while a match ran: names the file, the line and the phase.

    ``where`` is ``file:line`` (of the statement, else of the phase), ``phase`` the
    phase id and ``phase_name`` its name; ``message`` what went wrong.
    """

    def __init__(self, message: str, where: str | None = None, phase: int | None = None,
                 phase_name: str | None = None):
        self.message = message
        self.where = where
        self.phase = phase
        self.phase_name = phase_name
        super().__init__(str(self))

    def __str__(self) -> str:
        parts = [self.where] if self.where else []
        if self.phase is not None:
            parts.append(f"phase {self.phase} ({self.phase_name})")
        return ": ".join(parts + [self.message])


class RuleValueError(RuleError, ValueError):
    """A :class:`RuleError` whose cause is a ``ValueError`` (a rules module refusing a setup or
    options): callers that catch ``ValueError`` keep catching it."""


def rule_error(exc: BaseException, where: str | None, phase: int | None, phase_name: str | None,
               prefix: str = "") -> RuleError:
    """The :class:`RuleError` naming where ``exc`` happened."""
    kind = RuleValueError if isinstance(exc, ValueError) else RuleError
    return kind(prefix + describe(exc), where, phase, phase_name)


def describe(exc: BaseException) -> str:
    """An error's text for a report: ours as written, any other with its type (a bug in a rules
    module: ``ZeroDivisionError: division by zero``)."""
    if isinstance(exc, (EngineError, ValueError)) and type(exc).__module__.startswith("intrigue."):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"
