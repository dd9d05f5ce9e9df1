"""Issue 34 against the package that had it first: irrCAC 0.4.4 (Gwet's) for the analytic
standard error of Krippendorff's alpha and for the named weights, and the delta method of a
dependent-kappa difference against a loop of scikit-learn kappas (the bootstrap a user writes
by hand).

Ratios measured in one run (`make bench`); not a timed test.  Each time is the best of
several runs, kappalib and its rival timed in turns (bench/_timing.py), so that the load of
other processes disturbs both alike.  Every pair of numbers is checked equal first.

1. alpha and its analytic SE (Gwet 2014), 8 raters x 20,000 units, 10% missing, identity and
   quadratic weights: kl.ratings_standard_error vs irrCAC raw.CAC.krippendorff  target >= 3x
2. AC2 and its SE with circular weights, the same data: rating_table + gwet_ac1_multi +
   ratings_standard_error vs irrCAC raw.CAC.gwet                            target >= 0.5x
3. Conger's kappa and its SE with ordinal weights, the same data, vs irrCAC
   raw.CAC.conger                                                           target >= 0.5x
4. Cohen's kappa and its SE with bipolar weights from a 6 x 6 table vs irrCAC
   table.CAC.cohen                                                            target >= 1x
5. a dependent-kappa difference on 5,000 units, 3 raters: kl.kappa_difference with 999
   bootstrap resamples vs the same bootstrap written as a loop of scikit-learn's
   cohen_kappa_score (200 resamples, scaled to 999)                           target >= 10x

The named weights cost nothing of their own (a K x K matrix); rows 2 and 3 time the many-rater
coefficients that take them, whose counting is shared with the unweighted ones (and the
targets say: about irrCAC's speed, which counts with pandas).  One BLAS
thread, as every notebook target of the Makefile: on a busy 2-core machine BLAS threads of a
(20,000 x 5) @ (5 x 5) product wait for each other (alpha's SE took 24 ms instead of 3).

irrCAC lives in .venv/oracles (see requirements-oracles.txt), hence the sys.path line.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy is imported
os.environ.setdefault("OMP_NUM_THREADS", "1")

import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from _timing import best_time, interleaved, row
from sklearn.metrics import cohen_kappa_score

import kappalib as kl

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / ".venv" / "oracles"))
from irrCAC import raw, table

RATERS, UNITS, MISSING = 8, 20_000, 0.10
CATS = [1.0, 2.0, 3.0, 4.0, 5.0]


def _irrcac(data, weights, method):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cac = raw.CAC(pd.DataFrame(data.T), weights=weights, categories=CATS, digits=15)
        return getattr(cac, method)()["est"]


def main():
    rng = np.random.default_rng(34)
    truth = rng.integers(1, 6, size=UNITS)
    noisy = rng.random((RATERS, UNITS)) < 0.35
    data = np.where(noisy, rng.integers(1, 6, size=(RATERS, UNITS)), truth).astype(float)
    data[rng.random((RATERS, UNITS)) < MISSING] = np.nan
    print(f"kappalib {kl.__version__}, numpy {np.__version__}, irrCAC 0.4.4")
    print(f"{RATERS} raters x {UNITS:,} units, {MISSING:.0%} missing, values 1-5\n")
    ok = True

    for name, level, weights in (
        ("nominal", "nominal", "identity"),
        ("interval", "interval", "quadratic"),
    ):

        def ours(lv=level):
            return kl.ratings_standard_error(data, coefficient="alpha", level_of_measurement=lv)

        est = _irrcac(data, weights, "krippendorff")
        assert abs(ours() - est["se"]) < 1e-9, (ours(), est["se"])
        t_ours, t_irr = interleaved(
            [(ours, 5), (lambda w=weights: _irrcac(data, w, "krippendorff"), 1)], rounds=7
        )
        ok &= row(f"alpha {name} + analytic SE", t_ours, t_irr, 3, who="irrCAC", width=44)

    def ac2():
        t = kl.rating_table(data, labels=CATS)
        return kl.gwet_ac1_multi(t, weighting="circular"), kl.ratings_standard_error(
            t, coefficient="ac2", weighting="circular"
        )

    est = _irrcac(data, "circular", "gwet")
    assert abs(ac2()[0] - est["coefficient_value"]) < 1e-9 and abs(ac2()[1] - est["se"]) < 1e-9
    t_ours, t_irr = interleaved(
        [(ac2, 5), (lambda: _irrcac(data, "circular", "gwet"), 1)], rounds=7
    )
    ok &= row("AC2 + SE, circular weights", t_ours, t_irr, 0.5, who="irrCAC", width=44)

    def conger():
        kw = {"labels": CATS, "weighting": "ordinal"}
        return kl.conger_kappa(data, **kw), kl.ratings_standard_error(
            data, coefficient="conger", **kw
        )

    est = _irrcac(data, "ordinal", "conger")
    assert (
        abs(conger()[0] - est["coefficient_value"]) < 1e-9 and abs(conger()[1] - est["se"]) < 1e-9
    )
    t_ours, t_irr = interleaved(
        [(conger, 5), (lambda: _irrcac(data, "ordinal", "conger"), 1)], rounds=7
    )
    ok &= row("Conger + SE, ordinal weights", t_ours, t_irr, 0.5, who="irrCAC", width=44)

    C = kl.confusion_matrix(
        data[0][~np.isnan(data[:2]).any(axis=0)], data[1][~np.isnan(data[:2]).any(axis=0)]
    )
    M = np.asarray(C)

    def cohen_ours():
        return kl.kappa(M, weighting="bipolar"), kl.kappa_standard_error(M, weighting="bipolar")

    def cohen_irr():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return table.CAC(pd.DataFrame(M), weights="bipolar", digits=15).cohen()["est"]

    e = cohen_irr()
    assert (
        abs(cohen_ours()[0] - e["coefficient_value"]) < 1e-9
        and abs(cohen_ours()[1] - e["se"]) < 1e-9
    )
    ok &= row(
        "Cohen + SE, bipolar weights, 5 x 5 table",
        best_time(cohen_ours, 50),
        best_time(cohen_irr, 20),
        1,
        who="irrCAC",
        width=44,
    )
    print()

    n = 5000
    three = data[:3, :n].copy()
    three[np.isnan(three)] = 3.0
    B = 999

    def ours_boot():
        return kl.kappa_difference(
            three, ((0, 1), (0, 2)), method="percentile", n_resamples=B, rng=1
        )

    def loop_boot(resamples=200):
        gen = np.random.default_rng(1)
        out = []
        for _ in range(resamples):
            s = three[:, gen.integers(0, n, n)]
            out.append(cohen_kappa_score(s[0], s[2]) - cohen_kappa_score(s[0], s[1]))
        return out

    t_ours = best_time(ours_boot, 3)
    t_loop = best_time(loop_boot, 1) * B / 200
    ok &= row(
        f"kappa difference, {B} resamples, n = {n:,}",
        t_ours,
        t_loop,
        10,
        who="sklearn loop",
        width=44,
    )
    print("\nall targets met" if ok else "\nSOME TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
