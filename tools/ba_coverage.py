"""The coverage of kappalib's Bland-Altman intervals, measured by a seeded simulation.

For each design and number of units the script draws normal data whose true bias and limits
of agreement are known, calls ``kl.bland_altman`` and counts how often each 95% interval
(the bias's, the lower and the upper limit's) holds its true value:

* one pair per unit: differences N(1, 2^2); ``method="exact"`` (noncentral t) and
  ``method="approximate"`` (Bland & Altman 1986, +-t sqrt(3 s^2 / n));
* replicates, the true value constant (Bland & Altman 1999): unit level + method bias +
  a unit-by-method effect (SD 1.2) + within-unit noise (SD 0.8 and 0.6), 3 replicates each
  ("balanced") or 1 to 5 per method ("unbalanced"); MOVER intervals;
* replicates in pairs, the true value varying (Bland & Altman 2007): differences
  1 + unit effect (SD 1.5) + pair noise (SD 1.0), 3 pairs each or 1 to 5; MOVER intervals.

    .venv/bin/python tools/ba_coverage.py            # run, print the table, compare
    .venv/bin/python tools/ba_coverage.py --write    # ... and write tools/ba_coverage.json

The committed result (``tools/ba_coverage.json``) is what the chapter and the README quote;
``tests/test_ba_coverage.py`` checks it (every interval within a binomial tolerance of its
target, or the known shortfall of the approximate method) and recomputes its first cells, so
that the file is this script's output.  REPS draws per cell: the binomial standard error of a
95% coverage is 0.0034 at 4,000.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from statistics import NormalDist

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "tools" / "ba_coverage.json"
REPS = 4000
SEED = 34
SIZES = (10, 30, 100)
DESIGNS = (
    "two methods, exact",
    "two methods, approximate",
    "constant, balanced",
    "constant, unbalanced",
    "varying, balanced",
    "varying, unbalanced",
)
Z = NormalDist().inv_cdf(0.975)


def _draw(design, n, rng):
    """(kwargs for kl.bland_altman, true bias, true SD of a difference)."""
    if design.startswith("two methods"):
        d = rng.normal(1.0, 2.0, n)
        method = "exact" if design.endswith("exact") else "approximate"
        return {"y1": d, "y2": np.zeros(n), "method": method}, 1.0, 2.0
    balanced = design.endswith(" balanced")
    if design.startswith("constant"):
        m1 = np.full(n, 3) if balanced else rng.integers(1, 6, n)
        m2 = np.full(n, 3) if balanced else rng.integers(1, 6, n)
        rows = np.maximum(m1, m2)
        units = np.repeat(np.arange(n), rows)
        level = rng.normal(10.0, 3.0, n)[units]
        effect = rng.normal(0.0, 1.2, n)[units]
        r = np.concatenate([np.arange(k) for k in rows])
        x = level + 1.0 + effect + rng.normal(0.0, 0.8, units.size)
        y = level + rng.normal(0.0, 0.6, units.size)
        x[r >= m1[units]] = np.nan
        y[r >= m2[units]] = np.nan
        sd = math.sqrt(1.2**2 + 0.8**2 + 0.6**2)
        return {"y1": x, "y2": y, "units": units, "true_value": "constant"}, 1.0, sd
    m = np.full(n, 3) if balanced else rng.integers(1, 6, n)
    if not balanced and (m == 1).all():
        m[0] = 2
    units = np.repeat(np.arange(n), m)
    d = 1.0 + rng.normal(0.0, 1.5, n)[units] + rng.normal(0.0, 1.0, units.size)
    return (
        {"y1": d, "y2": np.zeros(d.size), "units": units, "true_value": "varying"},
        1.0,
        math.hypot(1.5, 1.0),
    )


def coverage(design, n, reps, seed):
    """Coverage of the bias's, the lower and the upper limit's 95% intervals: 3 floats."""
    import kappalib as kl

    rng = np.random.default_rng([seed, DESIGNS.index(design), n])
    hits = np.zeros(3)
    for _ in range(reps):
        kwargs, bias, sd = _draw(design, n, rng)
        res = kl.bland_altman(**kwargs)
        truth = (bias, bias - Z * sd, bias + Z * sd)
        for k, part in enumerate((res.bias, res.lower_limit, res.upper_limit)):
            low, high = part.confidence_interval
            hits[k] += low <= truth[k] <= high
    return [float(h / reps) for h in hits]


def run(reps=REPS):
    table = {}
    for design in DESIGNS:
        for n in SIZES:
            table[f"{design}, n = {n}"] = coverage(design, n, reps, SEED)
            print(
                f"{design:28s} n = {n:3d}:  "
                + "  ".join(f"{c:.4f}" for c in table[f"{design}, n = {n}"]),
                flush=True,
            )
    return {
        "reps": reps,
        "seed": SEED,
        "target": 0.95,
        "coverage": table,
        "columns": ["bias", "lower limit", "upper limit"],
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="write tools/ba_coverage.json")
    ap.add_argument("--reps", type=int, default=REPS)
    args = ap.parse_args(argv)
    result = run(args.reps)
    if RESULT.exists():
        old = json.loads(RESULT.read_text())
        same = old == result
        print("the committed result is reproduced" if same else "differs from the committed result")
    if args.write:
        RESULT.write_text(json.dumps(result, indent=1) + "\n")
        print(f"written: {RESULT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
