"""Helpers shared by the tests that need the cases behind a confusion matrix."""

import numpy as np


def labels_of(C, start=0):
    """The cases of a K x K matrix of whole counts as two label vectors (row label, column
    label), labels ``start .. start + K - 1``, in row-major cell order."""
    C = np.asarray(C)
    K = C.shape[0]
    cells = np.repeat(np.arange(K * K), C.ravel().astype(np.int64))
    return cells // K + start, cells % K + start
