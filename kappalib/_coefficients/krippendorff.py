r"""Krippendorff's alpha at four levels of measurement, from the coincidences of raw
ratings (any number of raters, missing ratings).

Symbols follow Krippendorff (2011): ``o`` the coincidence matrix, ``n_c`` its margins,
``delta`` the squared distance of the level of measurement.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from .._count.ratings import ratings_coincidences
from .._input.ratings import RATINGS_DOC, Layout
from .._input.tables import check_weighted_order, default_scores
from .._input.weights import resolve_weights
from .._shared.messages import short
from .._shared.policy import finish

__all__ = ["krippendorff_alpha"]


_LEVELS = ("nominal", "ordinal", "interval", "ratio")


def delta(level, domain, n_c):
    """Squared distances delta^2 between the values of the domain, for one level."""
    V = domain.size
    if level == "nominal":
        return 1.0 - np.eye(V)
    if level == "ordinal":
        # ranks at the middle of each value's block of pairable values: M_c = sum_{g<c} n_g
        # + n_c / 2, and delta_ck = (sum_{g=c}^{k} n_g - (n_c + n_k)/2)^2 = (M_k - M_c)^2
        M = np.cumsum(n_c) - n_c / 2.0
        return (M[:, None] - M[None, :]) ** 2
    v = domain.astype(np.float64)
    if domain.dtype.kind in "iu" and V:
        # integers: each value's distance from the smallest, exact in uint64 (wrapping int64
        # arithmetic gives it too), then floats.  As floats the values themselves would lose
        # their last digits beyond 2^53: 2^62, 2^62 + 1 and 2^62 + 2 would all be 2^62.
        wide = np.uint64 if domain.dtype.kind == "u" else np.int64
        up = (domain.astype(wide) - wide(domain.min())).view(np.uint64).astype(np.float64)
        diff = up[:, None] - up[None, :]
    else:
        # interval and ratio alpha do not change when every value is multiplied by a
        # constant: a power of two (exact) brings the largest |value| into [0.5, 1), so that
        # neither the differences nor their squares over- or underflow (1e-300 or 1e300)
        top = float(np.abs(v).max()) if v.size else 0.0
        if top > 0:
            v = np.ldexp(v, -np.frexp(top)[1])
        diff = v[:, None] - v[None, :]
    if level == "interval":
        return diff * diff
    s = v[:, None] + v[None, :]
    out = np.zeros((V, V))
    np.divide(diff, s, out=out, where=s != 0)
    return out * out


def alpha_from_coincidences(o, delta):
    """alpha = 1 - (n - 1) sum(o delta) / sum(n_c n_k delta) for o of shape (..., V, V).

    Returns ``(value, undefined)``, arrays of the stack shape; ``value`` is 0 where the
    expected disagreement is 0 (``undefined``).  The coefficient explorer calls this with
    the coincidences ``N (C + C^T)`` of a two-rater table of proportions.
    """
    n_c = o.sum(axis=-1)
    n = n_c.sum(axis=-1)
    D_o = np.einsum("...ck,ck->...", o, delta)
    D_e = np.einsum("...c,ck,...k->...", n_c, delta, n_c)
    undefined = ~(D_e > 0)
    safe = np.where(undefined, 1.0, D_e)
    return np.where(undefined, 0.0, 1.0 - (n - 1.0) * D_o / safe), undefined


def krippendorff_alpha(
    ratings: ArrayLike,
    *,
    level_of_measurement: Literal["nominal", "ordinal", "interval", "ratio"] = "nominal",
    weighting: str | ArrayLike | None = None,
    scores: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    layout: Layout | None = None,
    zero_division: str | float | None = None,
) -> float | None:
    r"""Krippendorff's alpha: one minus observed over expected disagreement.

    Any number of raters, missing ratings allowed.  Units with fewer than two ratings have
    no pair to compare and are dropped, as the definition says.  From the units x values
    table :math:`n_{uc}` (see :func:`rating_table`) with :math:`m_u = \sum_c n_{uc}`:

    .. math::

        o_{ck} = \sum_{u: m_u \ge 2} \frac{n_{uc}\,n_{uk} - [c = k]\,n_{uc}}{m_u - 1},
        \qquad n_c = \sum_k o_{ck}, \qquad n = \sum_c n_c,

        \alpha = 1 - \frac{D_o}{D_e}
               = 1 - (n - 1)\,\frac{\sum_{ck} o_{ck}\,\delta^2_{ck}}
                                   {\sum_{ck} n_c\,n_k\,\delta^2_{ck}},

    with :math:`\delta^2_{ck} = [c \ne k]` (nominal), :math:`(c - k)^2` (interval),
    :math:`((c - k)/(c + k))^2` (ratio) and, for ordinal,
    :math:`(\sum_{g=c}^{k} n_g - (n_c + n_k)/2)^2`.  The coincidence matrix ``o`` is built
    with matrix products over blocks of units, never a loop over single units.

    Parameters
    ----------
    ratings : array-like of shape (raters, units) or (units, raters)
        RATINGS_DOC
        Strings only for the nominal and ordinal levels.
    level_of_measurement : {"nominal", "ordinal", "interval", "ratio"}
        Which fixes the distance :math:`\delta^2`.
    weighting : str or array-like of shape (V, V), optional
        Instead of a level, a distance :math:`\delta^2 = W` of
        :func:`disagreement_weights` (Gwet 2014, as irrCAC's ``krippen_alpha_raw``):
        ``"quadratic"`` on numbers is the interval level, ``"ratio"`` the ratio level,
        ``"circular"`` and ``"bipolar"`` are Krippendorff's own metrics of those names,
        ``"ordinal"`` is Gwet's (it counts values, unlike the ordinal level's ranks).
        Numeric values are the default ``scores``; only with the default
        ``level_of_measurement``.
    scores : array-like of shape (V,), optional
        The values' scores for a named ``weighting`` (default: the numeric values).
    labels : array-like of shape (V,), optional
        The value domain.  For ordinal strings it is required (or an ordered pandas
        Categorical) and gives their order; for ordinal numbers, its order (default:
        ascending).
    layout : {None, "raters x units", "units x raters"}
        See ``ratings``.
    zero_division : {None, "raise"} or float
        Policy when the expected disagreement is 0 (all pairable ratings equal).

    Returns
    -------
    alpha : float or None

    Raises
    ------
    ValueError, TypeError
        On ragged or non-2-D data, an unknown level, interval or ratio on strings, ordinal
        strings without ``labels``, negative values at the ratio level, all ratings
        missing, or no unit with two ratings.
    UndefinedMetricError
        If alpha is undefined and ``zero_division="raise"``.

    Notes
    -----
    For two raters and no missing data, nominal alpha is Scott's pi corrected for sample
    size: :math:`\alpha = 1 - (1 - \pi)\,(2N - 1)/(2N)`.  Alpha is undefined (0/0) when
    every pairable rating is the same value: ``None``, or ``zero_division``.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School
    for Communication, University of Pennsylvania.
    Krippendorff, K. (2004). *Content Analysis: An Introduction to its Methodology*, 2nd ed.

    Examples
    --------
    Krippendorff (2011): four observers, twelve units, values 1-5, some missing.  He reports
    0.743, 0.815, 0.849 and 0.797 for the nominal, ordinal, interval and ratio levels.  The
    array is raters x units, as ``layout`` says (a plain array must say it: its shape never
    does; a DataFrame is read one row per unit).

    >>> import kappalib as kl
    >>> data = kl.datasets.load("krippendorff2011_example").data  # 4 raters x 12 units
    >>> [round(kl.krippendorff_alpha(data, level_of_measurement=lv, layout="raters x units"), 3)
    ...  for lv in ("nominal", "ordinal", "interval", "ratio")]
    [0.743, 0.815, 0.849, 0.797]
    """
    level = level_of_measurement
    if not isinstance(level, str) or level not in _LEVELS:
        raise ValueError(
            "level_of_measurement must be 'nominal', 'ordinal', 'interval' or 'ratio', got "
            f"{level!r}"
        )
    if weighting is not None and level != "nominal":
        raise ValueError(
            f"give either level_of_measurement or weighting, got level_of_measurement={level!r} "
            f"and weighting={short(weighting, 40)}"
        )
    o, domain, m_max, source = ratings_coincidences(ratings, labels, layout, "ratings")
    if weighting is not None:
        return _weighted_alpha(o, domain, source, m_max, weighting, scores, zero_division)
    strings = domain.dtype.kind in "US"
    if strings and level in ("interval", "ratio"):
        raise TypeError(
            f"level_of_measurement={level!r} needs numeric ratings, got strings such as "
            f"{short(domain[0])}; use 'nominal', or 'ordinal' with labels= giving their order"
        )
    if strings and level == "ordinal" and source == "spelling":
        raise ValueError(
            "level_of_measurement='ordinal' on string ratings needs labels= listing them in "
            f"order, got labels=None for values {short(domain.tolist())}"
        )
    if level == "ratio" and (domain < 0).any():
        raise ValueError(
            "level_of_measurement='ratio' needs non-negative values, got "
            f"{short(domain[np.argmax(domain < 0)])}"
        )
    if m_max < 2:
        raise ValueError(
            "ratings must have at least one unit rated by two or more raters, got "
            f"{int(m_max)} rating(s) per unit at most"
        )
    value, undefined = alpha_from_coincidences(o, delta(level, domain, o.sum(axis=1)))
    return finish(
        value,
        undefined,
        zero_division,
        "Krippendorff's alpha is undefined (0/0): every pairable rating has the same value, "
        "so there is no expected disagreement",
    )


krippendorff_alpha.__doc__ = (krippendorff_alpha.__doc__ or "").replace("RATINGS_DOC", RATINGS_DOC)


def alpha_distance(weighting, scores, domain, source, name="krippendorff_alpha"):
    """delta^2 of a ``weighting`` on the value domain (numeric values are the scores)."""
    check_weighted_order(weighting, domain, source, name)
    scores = default_scores(weighting, scores, domain)
    return resolve_weights(weighting, domain.size, scores)


def _weighted_alpha(o, domain, source, m_max, weighting, scores, zero_division):
    distance = alpha_distance(weighting, scores, domain, source)
    if m_max < 2:
        raise ValueError(
            "ratings must have at least one unit rated by two or more raters, got "
            f"{int(m_max)} rating(s) per unit at most"
        )
    value, undefined = alpha_from_coincidences(o, distance)
    return finish(
        value,
        undefined,
        zero_division,
        "Krippendorff's alpha is undefined (0/0): no pair of pairable ratings is at a distance",
    )
