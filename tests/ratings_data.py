"""Random rating data and kappalib/data readers shared by the multi-rater tests."""

import csv
import io
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "kappalib" / "data"
BATCH = 10  # cases per test call: 50 calls of 10 keep the report short and the run quick


def read_csv(name):
    """A kappalib/data CSV: the first line is the provenance comment, the second the header."""
    text = (DATA / name).read_text()
    assert text.startswith("# "), f"{name} must start with a provenance line"
    rows = list(csv.reader(io.StringIO(text.split("\n", 1)[1])))
    return rows[0], rows[1:]


def case(seed, *, missing=True):
    """Random ratings, raters x units, with agreement that ranges from none to near full."""
    rng = np.random.default_rng(seed)
    R = int(rng.integers(2, 7))
    n = int(rng.integers(4, 40))
    K = int(rng.integers(2, 6))
    domain = np.sort(rng.choice(np.arange(1, 20), size=K, replace=False)).astype(float)
    truth = rng.integers(0, K, size=n)
    copy = rng.random((R, n)) < rng.uniform(0.0, 0.95)
    codes = np.where(copy, truth, rng.integers(0, K, size=(R, n)))
    data = domain[codes]
    if missing:
        data[rng.random((R, n)) < rng.uniform(0.0, 0.4)] = np.nan
    return data, domain


def valid(data):
    """At least one unit with two ratings and two distinct values, as every oracle needs."""
    pairable = (~np.isnan(data)).sum(axis=0) >= 2
    return pairable.any() and np.unique(data[:, pairable][~np.isnan(data[:, pairable])]).size > 1


def cases(batch, *, missing=True):
    out, seed = [], batch * 1000
    while len(out) < BATCH:
        data, domain = case(seed, missing=missing)
        if valid(data):
            out.append((seed, data, domain))
        seed += 1
    return out


def subjects_by_categories(C):
    """Two raters' table C as the (cases, K) count table that Fleiss' kappa takes.

    Row (i, j) of C becomes C[i, j] cases, each counting one rating i and one rating j.
    """
    C = np.asarray(C)
    K = C.shape[0]
    rows = []
    for i in range(K):
        for j in range(K):
            row = np.zeros(K, dtype=int)
            row[i] += 1
            row[j] += 1
            rows.extend([row] * int(C[i, j]))
    return np.array(rows)
