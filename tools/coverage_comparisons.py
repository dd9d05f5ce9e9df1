"""The coverage of the intervals of kl.kappa_difference and kl.clustered_kappa, by a seeded
simulation whose result is committed in tools/coverage_comparisons.json (issue 34).

Each cell draws ``REPS`` data sets from a population whose kappas are known exactly, builds
the 95% interval on each, and counts how often it covers the population value:

* **dependent**: a reference rater and two raters (or two pairs of raters) who copy the unit's
  true category with their own probabilities and otherwise draw from its distribution; the
  population kappa of each pair comes from the exact joint distribution of their ratings, and
  the target is the difference kappa_2 - kappa_1.  Intervals: the delta method (Wald) and the
  bootstrap over units (percentile, BCa).
* **clustered**: clusters of 1 to 6 cases; a cluster is "easy" (raters copy the truth with
  probability 0.9) or "hard" (0.3), so its cases' agreement moves together.  The target is the
  kappa of the population's pooled joint distribution (the mixture of the two kinds).
  Intervals: Fleiss, Cohen & Everitt's Wald interval that treats cases as independent
  (kl.kappa_confint), the cluster-robust delta method, and the bootstrap over clusters.

Replication ``r`` of cell ``i`` has its own generator ``default_rng([SEED, i, r])`` (data and
resamples), so any slice of a cell can be recomputed alone: the file stores each cell's count
over its first FIRST replications too, which tests/test_coverage_comparisons.py recomputes.

    .venv/bin/python tools/coverage_comparisons.py            # recompute, compare with the file
    .venv/bin/python tools/coverage_comparisons.py --write    # store the recomputation
    .venv/bin/python tools/coverage_comparisons.py --first 50 # only the first 50 of each cell
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import numpy as np

import kappalib as kl

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "tools" / "coverage_comparisons.json"
SEED = 34_2
REPS = 1000
FIRST = 50  # the count over the first FIRST replications is stored too: a test recomputes it
N_RESAMPLES = 999
LEVEL = 0.95

# (name, shares of the true categories, copy probabilities of the raters, pairs)
DEPENDENT = [
    ("shared reference, binary", [0.3, 0.7], [0.9, 0.55, 0.75], ((0, 1), (0, 2))),
    ("shared reference, 3 classes", [0.5, 0.3, 0.2], [0.85, 0.5, 0.7], ((0, 1), (0, 2))),
    ("two pairs, binary", [0.4, 0.6], [0.8, 0.7, 0.6, 0.6], ((0, 1), (2, 3))),
]
DEPENDENT_SIZES = [40, 150]
DEPENDENT_METHODS = ["analytic", "percentile", "bca"]

# (name, shares, probability of an easy cluster, copy probability easy / hard, sizes 1..max)
CLUSTERED = [("easy and hard clusters, binary", [0.4, 0.6], 0.6, (0.9, 0.3), 6)]
CLUSTER_COUNTS = [20, 50, 150]
CLUSTER_METHODS = ["independent", "analytic", "percentile", "bca"]


# ------------------------------------------------------------------------- populations
def _rater_given_truth(shares, copy):
    """P(rating = x | truth = t) = copy [x = t] + (1 - copy) shares[x], a K x K matrix."""
    K = len(shares)
    return copy * np.eye(K) + (1 - copy) * np.tile(shares, (K, 1))


def population_kappa(shares, copy_a, copy_b):
    """The kappa of two raters who rate independently given the truth (exact joint)."""
    s = np.asarray(shares, dtype=float)
    A, B = _rater_given_truth(s, copy_a), _rater_given_truth(s, copy_b)
    joint = np.einsum("t,ta,tb->ab", s, A, B)
    return float(kl.kappa(joint))


def draw_dependent(rng, shares, copies, n):
    """Raters x units ratings of n units."""
    K = len(shares)
    truth = rng.choice(K, size=n, p=shares)
    out = np.empty((len(copies), n), dtype=np.int64)
    for g, c in enumerate(copies):
        copy = rng.random(n) < c
        out[g] = np.where(copy, truth, rng.choice(K, size=n, p=shares))
    return out


def cluster_population_kappa(shares, p_easy, copies):
    s = np.asarray(shares, dtype=float)
    joint = 0.0
    for p, c in ((p_easy, copies[0]), (1 - p_easy, copies[1])):
        A = _rater_given_truth(s, c)
        joint = joint + p * np.einsum("t,ta,tb->ab", s, A, A)
    return float(kl.kappa(joint))


def draw_clustered(rng, shares, p_easy, copies, max_size, G):
    K = len(shares)
    y1, y2, ids = [], [], []
    for g in range(G):
        m = int(rng.integers(1, max_size + 1))
        c = copies[0] if rng.random() < p_easy else copies[1]
        truth = rng.choice(K, size=m, p=shares)
        for rater in (y1, y2):
            rater.extend(np.where(rng.random(m) < c, truth, rng.choice(K, size=m, p=shares)))
        ids.extend([g] * m)
    return np.array(y1), np.array(y2), np.array(ids)


# ------------------------------------------------------------------------------- cells
def cells():
    out = []
    for (name, *_), n, method in itertools.product(DEPENDENT, DEPENDENT_SIZES, DEPENDENT_METHODS):
        out.append({"study": "dependent", "scenario": name, "n": n, "method": method})
    for (name, *_), G, method in itertools.product(CLUSTERED, CLUSTER_COUNTS, CLUSTER_METHODS):
        out.append({"study": "clustered", "scenario": name, "n": G, "method": method})
    return out


def _covers(ci, target):
    return ci.low is not None and ci.low <= target <= ci.high


def replicate(i, cell, r):
    """Does replication r of cell i cover its target? (None: the interval is undefined.)"""
    rng = np.random.default_rng([SEED, i, r])
    method = cell["method"]
    boot = {"n_resamples": N_RESAMPLES, "rng": rng} if method in ("percentile", "bca") else {}
    if cell["study"] == "dependent":
        _, shares, copies, pairs = next(d for d in DEPENDENT if d[0] == cell["scenario"])
        (a, b), (c, d) = pairs
        target = population_kappa(shares, copies[c], copies[d]) - population_kappa(
            shares, copies[a], copies[b]
        )
        data = draw_dependent(rng, shares, copies, cell["n"])
        res = kl.kappa_difference(
            data,
            pairs,
            method=method,
            labels=list(range(len(shares))),
            zero_division=None,
            layout="raters x units",
            **boot,
        )
        return None if res.estimate is None else _covers(res.confidence_interval, target)
    _, shares, p_easy, copies, max_size = next(c for c in CLUSTERED if c[0] == cell["scenario"])
    target = cluster_population_kappa(shares, p_easy, copies)
    y1, y2, ids = draw_clustered(rng, shares, p_easy, copies, max_size, cell["n"])
    labels = list(range(len(shares)))
    if method == "independent":
        ci = kl.kappa_confint(kl.confusion_matrix(y1, y2, labels=labels), confidence_level=LEVEL)
        return None if ci.low is None else _covers(ci, target)
    res = kl.clustered_kappa(y1, y2, ids, method=method, labels=labels, **boot)
    return None if res.estimate is None else _covers(res.confidence_interval, target)


def run_cell(i, cell, reps):
    outcomes = [replicate(i, cell, r) for r in range(reps)]
    defined = [o for o in outcomes if o is not None]
    first = [o for o in outcomes[:FIRST] if o is not None]
    return {
        **cell,
        "reps": reps,
        "defined": len(defined),
        "covered": int(sum(defined)),
        "covered_first": int(sum(first)),
    }


def simulate(reps=REPS, log=None):
    out = []
    for i, cell in enumerate(cells()):
        start = time.perf_counter()
        row = run_cell(i, cell, reps)
        out.append(row)
        if log:
            cov = row["covered"] / row["defined"] if row["defined"] else float("nan")
            print(
                f"{row['study']:10s} {row['scenario']:32s} n={row['n']:4d} {row['method']:11s} "
                f"{cov:.3f} ({row['covered']}/{row['defined']}) "
                f"{time.perf_counter() - start:.0f} s",
                file=log,
            )
    return out


def stored():
    return json.loads(RESULT.read_text(encoding="utf-8"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="store the recomputation")
    ap.add_argument("--first", type=int, default=REPS, help="replications per cell")
    args = ap.parse_args(argv)
    rows = simulate(args.first, sys.stdout)
    body = {
        "what": "coverage of 95% intervals: kl.kappa_difference and kl.clustered_kappa "
        "(tools/coverage_comparisons.py)",
        "seed": SEED,
        "reps": args.first,
        "n_resamples": N_RESAMPLES,
        "confidence_level": LEVEL,
        "kappalib": kl.__version__,
        "cells": rows,
    }
    if args.write:
        RESULT.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
        print(f"written: {RESULT}")
        return 0
    if RESULT.exists() and args.first == REPS:
        old = {(c["study"], c["scenario"], c["n"], c["method"]): c for c in stored()["cells"]}
        moved = [r for r in rows if old.get((r["study"], r["scenario"], r["n"], r["method"])) != r]
        print(f"{len(moved)} cells differ from {RESULT.name}")
        return 1 if moved else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
