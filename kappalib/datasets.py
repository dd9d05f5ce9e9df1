"""The published rating data of the chapters, shipped inside the package.

Each data set is a small CSV file in ``kappalib/data``: its first line says where the
numbers come from (the provenance), the second is the header, and each further row starts
with a label (a patient, an observer, a category) followed by the numbers.  Shipping them
with the library means a chapter opened alone (on Colab, say) finds its data too.

* ``fleiss1971_diagnoses``: 30 patients x 5 diagnoses, how many of 6 psychiatrists chose
  each (a units x categories count table, Fleiss 1971);
* ``gwet2014_abstractors``: a 3 x 3 contingency table of two abstractors (Gwet 2014);
* ``gwet2014_5observers``: 5 observers x 15 units on the scale 0-3, with gaps (Gwet 2014);
* ``krippendorff2011_example``: 4 observers x 12 units, values 1-5, with gaps
  (Krippendorff 2011);
* ``bland_altman1986_pefr``: peak expiratory flow of 17 people, two readings with each of two
  meters (Bland & Altman 1986);
* ``bland_altman1999_cardiac_output``: cardiac output of 12 subjects by two methods, 3 to 6
  pairs each, one row per pair (Bland & Altman 1999, 2007).
"""

from __future__ import annotations

import csv
import io
from importlib import resources
from typing import NamedTuple

import numpy as np

__all__ = ["Dataset", "load", "names"]


class Dataset(NamedTuple):
    """One published data set: the numbers, where they come from, and their labels."""

    data: np.ndarray
    """The numbers, one row per CSV row (int64, or float64 with NaN for a blank cell)."""
    source: str
    """The provenance line of the file (author, year, title, table), without the ``#``."""
    rows: tuple[str, ...]
    """The first cell of each row (patient number, observer, category)."""
    columns: tuple[str, ...]
    """The header of the number columns (categories or units)."""


def _files():
    return resources.files(__package__) / "data"


def names() -> tuple[str, ...]:
    """The names of the shipped data sets, sorted.

    Returns
    -------
    tuple of str
        The names that :func:`load` accepts (the CSV file names without ``.csv``).

    Examples
    --------
    >>> from kappalib import datasets
    >>> datasets.names()[:2]
    ('bland_altman1986_pefr', 'bland_altman1999_cardiac_output')
    >>> len(datasets.names())
    6
    """
    found = (f.name for f in _files().iterdir() if f.name.endswith(".csv"))
    return tuple(sorted(name[: -len(".csv")] for name in found))


def load(name: str) -> Dataset:
    """Read one shipped data set into a numpy array, with its provenance and labels.

    A blank cell is a missing rating and becomes NaN (the array is then float64); a table
    without blanks is int64, unless it holds decimals (measurements), then float64.  The
    array has one row per CSV row, so its shape is
    ``(n_units, n_categories)`` for a count table, ``(n_raters, n_units)`` for ratings and
    ``(K, K)`` for a contingency table, ready for :func:`kappalib.fleiss_kappa`,
    :func:`kappalib.krippendorff_alpha` or :func:`kappalib.kappa`; measurements have one row
    per unit (or per pair of replicates), one column per reading, for
    :func:`kappalib.bland_altman`.

    Parameters
    ----------
    name : str
        One of :func:`names`, e.g. ``"fleiss1971_diagnoses"``.

    Returns
    -------
    Dataset
        A named tuple ``(data, source, rows, columns)``: the array, the provenance line,
        the row labels and the column labels.

    Raises
    ------
    TypeError
        If ``name`` is not a string.
    ValueError
        If ``name`` is not one of :func:`names` (the message lists them).

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin* 76(5), 378-382.

    Examples
    --------
    Fleiss' 30 patients, each diagnosed by six psychiatrists; the published kappa is 0.430:

    >>> import kappalib as kl
    >>> from kappalib import datasets
    >>> fleiss = datasets.load("fleiss1971_diagnoses")
    >>> fleiss.data.shape, fleiss.columns[:2]
    ((30, 5), ('depression', 'personality_disorder'))
    >>> fleiss.source[:29]
    'Fleiss, J. L. (1971). Measuri'
    >>> round(kl.fleiss_kappa(fleiss.data), 3)
    0.43
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a string such as 'fleiss1971_diagnoses', got {name!r}")
    known = names()
    if name not in known:
        raise ValueError(f"name must be one of {', '.join(known)}; got {name!r}")
    text = (_files() / f"{name}.csv").read_text(encoding="utf-8")
    first, rest = text.split("\n", 1)
    header, *body = csv.reader(io.StringIO(rest))
    cells = [row[1:] for row in body if row]
    if any(v == "" or "." in v for row in cells for v in row):
        data = np.array([[float(v) if v else np.nan for v in row] for row in cells])
    else:
        data = np.array([[int(v) for v in row] for row in cells], dtype=np.int64)
    return Dataset(
        data=data,
        source=first.lstrip("#").strip(),
        rows=tuple(row[0] for row in body if row),
        columns=tuple(header[1:]),
    )
