"""kappalib against scikit-learn, as ratios measured in one run (`make bench`).

Not a timed test: the machines are shared and noisy, so each figure is the median of a few
repeats and the figure that matters is the ratio, measured side by side in one process.

1. kappa and MCC from 10^7 integer labels (K = 5)                     target: >= 10x faster
2. the same from 10^7 string labels                                   target: >= 2x faster
3. one batched call on 10^6 3x3 matrices vs a loop of scalar calls    target: >= 100x faster
4. peak extra memory of the 10^7 integer-label call                   target: <= 3x the inputs
"""

from __future__ import annotations

import statistics
import sys
import time
import tracemalloc

import numpy as np
from sklearn.metrics import cohen_kappa_score as sk_kappa
from sklearn.metrics import matthews_corrcoef as sk_mcc

import kappalib as kl

N_LABELS = 10**7
N_MATRICES = 10**6
LOOP_SAMPLE = 20_000  # the scalar loop is timed on this many matrices, then taken per matrix


def median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def row(name, ours, theirs, target, scale=1e3, unit="ms"):
    ratio = theirs / ours
    verdict = "ok" if ratio >= target else "BELOW TARGET"
    print(
        f"{name:<46} kappalib {ours * scale:9.2f} {unit}   reference {theirs * scale:9.2f} "
        f"{unit}   {ratio:7.1f}x faster  (target >= {target}x: {verdict})"
    )
    return ratio >= target


def bench_labels(y1, y2, kind, target):
    assert abs(kl.cohen_kappa_score(y1, y2) - sk_kappa(y1, y2)) < 1e-9
    assert abs(kl.matthews_corrcoef(y1, y2) - sk_mcc(y1, y2)) < 1e-9
    ok = row(
        f"kappa, 1e7 {kind} labels (K=5)",
        median_time(lambda: kl.cohen_kappa_score(y1, y2), 5),
        median_time(lambda: sk_kappa(y1, y2), 3),
        target,
    )
    ok &= row(
        f"MCC, 1e7 {kind} labels (K=5)",
        median_time(lambda: kl.matthews_corrcoef(y1, y2), 5),
        median_time(lambda: sk_mcc(y1, y2), 3),
        target,
    )
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
            f"  {name} per matrix: batched vs scalar loop",
            total / N_MATRICES,
            looped,
            100,
            scale=1e6,
            unit="us",
        )
    return ok


def bench_memory(y1, y2):
    tracemalloc.start()
    kl.cohen_kappa_score(y1, y2)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    inputs = y1.nbytes + y2.nbytes
    ratio = peak / inputs
    verdict = "ok" if ratio <= 3 else "ABOVE TARGET"
    print(
        f"{'peak extra memory, 1e7 integer labels':<46} {peak / 2**20:9.1f} MiB for "
        f"{inputs / 2**20:.1f} MiB of inputs = {ratio:.2f}x  (target <= 3x: {verdict})"
    )
    return ratio <= 3


def main():
    rng = np.random.default_rng(20191)
    y1 = rng.integers(0, 5, size=N_LABELS)
    y2 = np.where(rng.random(N_LABELS) < 0.7, y1, rng.integers(0, 5, size=N_LABELS))
    names = np.array(["grade 1", "grade 2", "grade 3", "grade 4", "grade 5"])
    print(f"kappalib {kl.__version__}, numpy {np.__version__}, Python {sys.version.split()[0]}")
    print("medians of 3-5 runs; the scalar loop is timed on 20,000 matrices, per matrix\n")
    ok = bench_labels(y1, y2, "integer", 10)
    ok &= bench_labels(names[y1], names[y2], "string", 2)
    print()
    ok &= bench_batched(rng)
    print()
    ok &= bench_memory(y1, y2)
    print("\nall targets met" if ok else "\nSOME TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
