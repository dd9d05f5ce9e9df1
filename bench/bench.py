"""kappalib against scikit-learn, as ratios measured in one run (`make bench`).

Not a timed test: the machines are shared and noisy, so each figure is the median of a few
repeats and the figure that matters is the ratio, measured side by side in one process.

1. kappa and MCC from 10^7 integer labels (K = 5)                     target: >= 10x faster
2. the same from 10^7 fixed-width string labels (<U)                  target: >= 2x faster
3. kappa from 10^7 object-dtype strings (Python str)                  target: >= 4x faster
4. kappa from a pandas string column of 10^7 labels                   target: >= 4x faster
5. kappa and MCC from 10^7 integer labels with a span of 10^6 (K = 5) target: >= 10x faster
6. one batched call on 10^6 3x3 matrices vs kappalib's own scalar loop
                                                                      target: >= 100x faster
7. peak extra memory of the label-level call, per label dtype         target: <= 3x the inputs

scikit-learn takes minutes on 10^7 Python strings, so rows 3 and 4 time it once.
"""

from __future__ import annotations

import os
import sys
import tracemalloc

import numpy as np
from _timing import median_time, row, timed
from sklearn.metrics import cohen_kappa_score as sk_kappa
from sklearn.metrics import matthews_corrcoef as sk_mcc

import kappalib as kl

N_LABELS = int(os.environ.get("KAPPALIB_BENCH_N", 10**7))  # smaller only for a smoke run
N_MATRICES = 10**6
LOOP_SAMPLE = 20_000  # the scalar loop is timed on this many matrices, then taken per matrix


def bench_labels(y1, y2, kind, target, mcc=True, sk_repeats=3):
    pairs = [("kappa", kl.cohen_kappa_score, sk_kappa)]
    if mcc:
        pairs.append(("MCC", kl.matthews_corrcoef, sk_mcc))
    ok = True
    for name, ours, theirs in pairs:
        t_ours, v_ours = timed(lambda ours=ours: ours(y1, y2), 5)
        t_theirs, v_theirs = timed(lambda theirs=theirs: theirs(y1, y2), sk_repeats)
        assert abs(v_ours - v_theirs) < 1e-9, (name, kind, v_ours, v_theirs)
        ok &= row(f"{name}, {N_LABELS:.0e} {kind}", t_ours, t_theirs, target, width=52)
    return ok


def bench_batched(rng):
    stack = rng.integers(0, 50, size=(N_MATRICES, 3, 3)) + np.eye(3, dtype=np.int64)
    sample = stack[:LOOP_SAMPLE]
    loop_values = np.array([kl.kappa(C) for C in sample[:1000]])
    assert np.allclose(kl.kappa(sample[:1000]), loop_values, atol=1e-12)
    ok = True
    for name, f in (("kappa", kl.kappa), ("MCC", kl.mcc)):
        total = median_time(lambda f=f: f(stack), 5)
        looped = median_time(lambda f=f: [f(C) for C in sample], 3) / LOOP_SAMPLE
        print(f"{name + ', 1e6 3x3 matrices, one batched call':<46} {total * 1e3:9.1f} ms in all")
        ok &= row(
            f"  {name} per matrix: batched vs kappalib's own scalar loop",
            total / N_MATRICES,
            looped,
            100,
            width=52,
            scale=1e6,
            unit="us",
        )
    return ok


def bench_memory(cases):
    ok = True
    for name, (y1, y2) in cases.items():
        tracemalloc.start()
        kl.cohen_kappa_score(y1, y2)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        inputs = np.asarray(y1).nbytes + np.asarray(y2).nbytes
        ratio = peak / inputs
        verdict = "ok" if ratio <= 3 else "ABOVE TARGET"
        print(
            f"{f'peak extra memory, {N_LABELS:.0e} ' + name:<52} {peak / 2**20:9.1f} MiB for "
            f"{inputs / 2**20:6.1f} MiB of inputs = {ratio:.2f}x  (target <= 3x: {verdict})"
        )
        ok &= ratio <= 3
    return ok


def main():
    import pandas as pd

    rng = np.random.default_rng(20191)
    y1 = rng.integers(0, 5, size=N_LABELS)
    y2 = np.where(rng.random(N_LABELS) < 0.7, y1, rng.integers(0, 5, size=N_LABELS))
    names = np.array(["grade 1", "grade 2", "grade 3", "grade 4", "grade 5"])
    wide = np.array([0, 250_000, 500_000, 750_000, 999_999])  # a span of 10^6, K = 5
    obj1, obj2 = names.astype(object)[y1], names.astype(object)[y2]
    col1, col2 = pd.Series(names[y1], dtype="string"), pd.Series(names[y2], dtype="string")
    print(
        f"kappalib {kl.__version__}, numpy {np.__version__}, pandas {pd.__version__}, Python "
        f"{sys.version.split()[0]}"
    )
    print(
        "medians of 3-5 runs (scikit-learn on Python strings: one run); the scalar loop is "
        "timed on 20,000 matrices, per matrix\n"
    )
    ok = bench_labels(y1, y2, "integer labels (K=5)", 10)
    ok &= bench_labels(names[y1], names[y2], "<U string labels (K=5)", 2)
    ok &= bench_labels(obj1, obj2, "object-dtype strings (K=5)", 4, mcc=False, sk_repeats=1)
    ok &= bench_labels(col1, col2, "pandas string column (K=5)", 4, mcc=False, sk_repeats=1)
    ok &= bench_labels(wide[y1], wide[y2], "integers, span 1e6 (K=5)", 10)
    print()
    ok &= bench_batched(rng)
    print()
    ok &= bench_memory(
        {
            "int64 labels": (y1, y2),
            "int8 labels": (y1.astype(np.int8), y2.astype(np.int8)),
            "int64, span 1e6": (wide[y1], wide[y2]),
            "<U strings": (names[y1], names[y2]),
            "object strings": (obj1, obj2),
            "pandas string column": (col1, col2),
        }
    )
    print("\nall targets met" if ok else "\nSOME TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
