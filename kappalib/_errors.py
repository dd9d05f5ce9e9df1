"""The exception raised when a statistic is undefined and the caller asked for an error."""

__all__ = ["UndefinedMetricError"]


class UndefinedMetricError(ValueError):
    """A statistic is 0/0 for this input and ``zero_division="raise"`` was requested.

    It subclasses :class:`ValueError`, so ``except ValueError`` catches it too.
    """
