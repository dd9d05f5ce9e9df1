"""A pandas Categorical of 10^7 strings against its own integer codes (`make bench`).

Issue 30, item 15: kappalib turned each of the 10^7 strings into a Python object (13.9 s and
1.95 GiB, about 170 times its codes).  It now reads a Categorical through its codes and its
categories.  One row, measured side by side in one run:

    kappa from a Categorical of 10^7 strings vs from its integer codes   target: within 2x

plus the peak extra memory of the Categorical call (tracemalloc), against its codes' bytes.
"""

from __future__ import annotations

import os
import sys
import tracemalloc

import numpy as np
from _timing import timed

import kappalib as kl

N_LABELS = int(os.environ.get("KAPPALIB_BENCH_N", 10**7))  # smaller only for a smoke run
TARGET = 2.0  # the Categorical may take at most twice the time of its codes


def main():
    import pandas as pd

    rng = np.random.default_rng(20191)
    y1 = rng.integers(0, 5, size=N_LABELS)
    y2 = np.where(rng.random(N_LABELS) < 0.7, y1, rng.integers(0, 5, size=N_LABELS))
    names = ["grade 1", "grade 2", "grade 3", "grade 4", "grade 5"]
    cat1 = pd.Categorical.from_codes(y1.astype(np.int8), categories=names)
    cat2 = pd.Categorical.from_codes(y2.astype(np.int8), categories=names)
    c1, c2 = cat1.codes, cat2.codes  # int8, as pandas stores them
    print(f"kappalib {kl.__version__}, numpy {np.__version__}, pandas {pd.__version__}")
    print("medians of 5 runs\n")
    t_cat, v_cat = timed(lambda: kl.cohen_kappa_score(cat1, cat2), 5)
    t_codes, v_codes = timed(lambda: kl.cohen_kappa_score(c1, c2), 5)
    assert abs(v_cat - v_codes) < 1e-12, (v_cat, v_codes)
    ratio = t_cat / t_codes
    ok = ratio <= TARGET
    print(
        f"{f'kappa, Categorical of {N_LABELS:.0e} strings':<46} {t_cat * 1e3:9.1f} ms   "
        f"its int8 codes {t_codes * 1e3:9.1f} ms   {ratio:5.2f}x the codes' time  "
        f"(target <= {TARGET:g}x: {'ok' if ok else 'ABOVE TARGET'})"
    )
    tracemalloc.start()
    kl.cohen_kappa_score(cat1, cat2)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    inputs = c1.nbytes + c2.nbytes
    print(
        f"{'peak extra memory of the Categorical call':<46} {peak / 2**20:9.1f} MiB for "
        f"{inputs / 2**20:.1f} MiB of codes"
    )
    print("\nall targets met" if ok else "\nSOME TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
