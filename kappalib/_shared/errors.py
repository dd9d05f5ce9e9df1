"""The exception raised when a statistic is undefined and the caller asked for an error."""

from __future__ import annotations

__all__ = ["UndefinedMetricError"]


class UndefinedMetricError(ValueError):
    """A statistic is 0/0 for this input and ``zero_division="raise"`` was requested.

    It subclasses :class:`ValueError`, so ``except ValueError`` catches it too.
    """


class LabelKindError(TypeError, ValueError):
    """Labels of two kinds (numbers and strings) where one is due, or a ``labels`` list of
    the other kind than the data.

    scikit-learn raises ValueError for a wrong label set, kappalib raised TypeError: this
    is both, so ``except ValueError`` (code written for scikit-learn) and ``except
    TypeError`` (code written for kappalib 0.1) both catch it.
    """
