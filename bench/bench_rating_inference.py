"""Standard errors and intervals of the many-rater coefficients against irrCAC (`make bench`).

Ratios measured in one run; not a timed test.  Each time is the best of a few repeats, the
figure the load of other processes on a shared machine disturbs least (as in
bench_multirater.py).  Every kappalib time starts from the raw ratings, as irrCAC does: the
rating table is part of it.

1. The analytic standard error and interval (Gwet's linearization), 10 raters x 10^4 units,
   10% missing, five categories, against irrCAC 0.4.4's CAC(...).fleiss() (its generalized
   Fleiss), .gwet(), .bp() and .conger(), which compute the same numbers   target: >= 1x
2. The bootstrap of Krippendorff's alpha, 1,000 resamples of the units (percentile interval),
   on the same data, against the loop that a bootstrap without kappalib is: draw the units,
   call an outside alpha on each resample
   a. irrCAC's .krippendorff() (which also computes its analytic SE); 10 calls on resamples
      are timed and scaled to 1,000 (each call costs the same)               target: >= 1x
   b. the krippendorff package's alpha (0.9.0), all 1,000 calls timed          target: >= 10x
   and, without a target, the whole bootstrap against irrCAC's one analytic call.

irrCAC lives in .venv/oracles (see requirements-oracles.txt), hence the sys.path line.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import krippendorff
import numpy as np
import pandas as pd
from _timing import best_time, interleaved, row

import kappalib as kl

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / ".venv" / "oracles"))
from irrCAC.raw import CAC

RATERS, UNITS, MISSING = 10, 10**4, 0.10
CATEGORIES = [1.0, 2.0, 3.0, 4.0, 5.0]
B = 1000


def irrcac(data, method):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cac = CAC(pd.DataFrame(data.T), categories=CATEGORIES)
        return getattr(cac, method)()["est"]


def ours(data, coefficient):
    # every one of the five categories is used, so no categories= is needed (irrCAC gets
    # them to keep its pandas 3 default from counting NaN as a category)
    if coefficient == "conger":
        return kl.ratings_confint(data, coefficient="conger")
    table = kl.rating_table(data)
    return kl.ratings_confint(table, coefficient=coefficient)


def loop_bootstrap(data, rng):
    n = data.shape[1]
    values = [krippendorff.alpha(reliability_data=data[:, rng.integers(0, n, n)]) for _ in range(B)]
    return np.quantile(values, [0.025, 0.975])


def main():
    rng = np.random.default_rng(2013)
    truth = rng.integers(1, 6, size=UNITS)
    noisy = rng.random((RATERS, UNITS)) < 0.3
    data = np.where(noisy, rng.integers(1, 6, size=(RATERS, UNITS)), truth).astype(float)
    data[rng.random((RATERS, UNITS)) < MISSING] = np.nan
    print(f"kappalib {kl.__version__}, numpy {np.__version__}, irrCAC 0.4.4, krippendorff 0.9.0")
    print(f"{RATERS} raters x {UNITS:,} units, {MISSING:.0%} missing, values 1-5\n")
    ok = True
    # the generalized Fleiss: kappalib's fleiss needs complete units, irrCAC's does not
    pairs = [("fleiss_generalized", "fleiss"), ("ac1", "gwet"), ("bp", "bp"), ("conger", "conger")]
    for coefficient, method in pairs:
        est = irrcac(data, method)
        low = ours(data, coefficient)[0]
        assert abs(low - est["confidence_interval"][0]) < 2e-5, (coefficient, low, est)
        t_ours, t_irr = interleaved(
            [(lambda c=coefficient: ours(data, c), 5), (lambda m=method: irrcac(data, m), 1)],
            rounds=3,
        )
        ok &= row(f"analytic interval, {coefficient}", t_ours, t_irr, 1, who="irrCAC", width=50)
    print()

    def boot():
        return kl.ratings_confint(
            data, coefficient="alpha", method="percentile", n_resamples=B, rng=1
        )

    lo, hi = boot()
    ref = loop_bootstrap(data, np.random.default_rng(2))
    assert abs(lo - ref[0]) < 0.01 and abs(hi - ref[1]) < 0.01, ((lo, hi), ref)
    t_boot, t_one = interleaved([(boot, 3), (lambda: irrcac(data, "krippendorff"), 1)], rounds=3)
    n = data.shape[1]
    draws = np.random.default_rng(4).integers(0, n, size=(10, n))
    t_irr10 = best_time(lambda: [irrcac(data[:, d], "krippendorff") for d in draws], 1, seconds=0)
    ok &= row(
        f"alpha: {B:,} resamples vs a loop of irrCAC",
        t_boot,
        t_irr10 * B / 10,
        1,
        who="irrCAC",
        width=50,
    )
    t_loop = best_time(lambda: loop_bootstrap(data, np.random.default_rng(3)), 1, seconds=0)
    ok &= row(
        f"alpha: {B:,} resamples vs a loop of krippendorff",
        t_boot,
        t_loop,
        10,
        who="krippendorff",
        width=50,
    )
    print(
        f"{'  (no target) vs irrCAC, one analytic call':<50} kappalib {t_boot * 1e3:9.2f} ms   "
        f"irrCAC       {t_one * 1e3:10.2f} ms   the whole bootstrap takes "
        f"{t_boot / t_one:.1f}x the time of irrCAC's single interval"
    )
    print("\nall targets met" if ok else "\nSOME TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
