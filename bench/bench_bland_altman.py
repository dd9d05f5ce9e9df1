"""Bland-Altman limits of agreement: kappalib against pingouin, the package that had them.

Ratios measured in one run (`make bench`); not a timed test.  Best of a few repeats, timed in
turns (`_timing.interleaved`), on a shared 2-core machine.

pingouin 0.7.0 computes the limits and their (Bland & Altman 1986) intervals only inside its
plot, ``plot_blandaltman``; so the rows compare what a user runs to get the numbers:

1. the numbers: ``kl.bland_altman(x, y, method="approximate")`` (pingouin's intervals)
   against ``pg.plot_blandaltman(x, y)`` on a new figure, 10^4 pairs    target: >= 1x
2. the figure: ``kl.bland_altman`` + ``plotting.bland_altman_plot`` against
   ``pg.plot_blandaltman``, each on a new figure (drawn, not rendered), 10^4 pairs: the same
   drawing (scatter, lines, bands), so parity                          target: >= 0.8x
3. the exact intervals (the default; the noncentral t) and the same on 10^6 pairs, and
   replicates (10^4 units x 3 pairs, the true value varying): kappalib's time alone.

pingouin lives in .venv/oracles (see requirements-oracles.txt), hence the sys.path line.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from _timing import best_time, interleaved, row
from scipy import stats

import kappalib as kl
from kappalib import plotting
from kappalib._shared.noncentral import nct_ppf  # its cache, cleared to time a first call

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / ".venv" / "oracles"))
import pingouin as pg

N = 10**4
Z = stats.norm.ppf(0.975)


def pingouin_plot(x, y):
    fig, ax = plt.subplots()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pg.plot_blandaltman(x, y, agreement=Z, ax=ax)
    plt.close(fig)


def kappalib_numbers(x, y):
    return kl.bland_altman(x, y, method="approximate")


def kappalib_plot(x, y):
    fig, ax = plt.subplots()
    plotting.bland_altman_plot(kl.bland_altman(x, y, method="approximate"), ax=ax)
    plt.close(fig)


def main():
    rng = np.random.default_rng(1986)
    x = rng.normal(450, 110, N)
    y = x + rng.normal(-2, 38, N)
    # the same numbers first: pingouin's lines and bands against kappalib's
    fig, ax = plt.subplots()
    pg.plot_blandaltman(x, y, agreement=Z, annotate=False, ax=ax)
    theirs = [float(line.get_ydata()[0]) for line in ax.get_lines()][1:]
    plt.close(fig)
    res = kappalib_numbers(x, y)
    ours = [res.bias.estimate, res.upper_limit.estimate, res.lower_limit.estimate]
    assert np.allclose(ours, theirs, rtol=1e-12)
    print(f"kappalib {kl.__version__}, pingouin {pg.__version__}, numpy {np.__version__}")
    print(f"Bland-Altman: {N:,} pairs\n")
    t_ours, t_pg = interleaved(
        [(lambda: kappalib_numbers(x, y), 10), (lambda: pingouin_plot(x, y), 1)], 7
    )
    ok = row("limits and intervals (numbers)", t_ours, t_pg, 1, who="pingouin", width=40)
    t_fig, t_pg = interleaved(
        [(lambda: kappalib_plot(x, y), 1), (lambda: pingouin_plot(x, y), 1)], 7
    )
    # the same drawing on both sides (a scatter of 10^4 points, lines, bands): parity
    ok &= row("the plot, drawn (not rendered)", t_fig, t_pg, 0.8, who="pingouin", width=40)
    print()
    t = best_time(lambda: kl.bland_altman(x, y), 9)
    print(f"{'exact intervals (noncentral t), 1e4 pairs':<48} kappalib {t * 1e3:9.2f} ms")

    def uncached():
        nct_ppf.cache_clear()  # the noncentral t quantiles, computed afresh
        return kl.bland_altman(x, y)

    t = best_time(uncached, 9)
    print(f"{'the same, the quantiles not cached':<48} kappalib {t * 1e3:9.2f} ms")
    big_x = rng.normal(450, 110, 10**6)
    big_y = big_x + rng.normal(-2, 38, 10**6)
    t = best_time(lambda: kl.bland_altman(big_x, big_y), 5)
    print(f"{'exact intervals, 1e6 pairs':<48} kappalib {t * 1e3:9.2f} ms")
    units = np.repeat(np.arange(N), 3)
    d = rng.normal(0, 1, N)[units] + rng.normal(0, 1, units.size)
    t = best_time(
        lambda: kl.bland_altman(d, np.zeros(d.size), units=units, true_value="varying"), 5
    )
    print(f"{'replicates (1e4 units x 3 pairs, varying), MOVER':<48} kappalib {t * 1e3:9.2f} ms")
    print("\nall targets met" if ok else "\nSOME TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
