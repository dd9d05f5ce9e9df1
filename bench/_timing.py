"""Timers and the result line shared by the bench scripts (`make bench` runs bench/bench*.py).

Medians for the label and bootstrap benches; the best time (the one the load of other
processes disturbs least) for the multi-rater bench, which also times rivals in turns.
"""

from __future__ import annotations

import statistics
import time


def timed(fn, repeats):
    """(median time of ``repeats`` calls, the value of the last call)."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), value


def median_time(fn, repeats):
    return timed(fn, repeats)[0]


def best_time(fn, repeats, seconds=1.0):
    """The best of at least ``repeats`` runs and of at least ``seconds`` of runs: each side
    of a ratio gets a window of the same length to find the machine quiet, whether one call
    takes 3 ms or 70 ms."""
    times = []
    start = time.perf_counter()
    while len(times) < repeats or time.perf_counter() - start < seconds:
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def interleaved(calls, rounds):
    """The best time of each function, timed in turns: every round runs each function its
    number of times, so that all of them meet the same bursts of load on a shared machine."""
    best = [float("inf")] * len(calls)
    for _ in range(rounds):
        for i, (fn, times) in enumerate(calls):
            for _ in range(times):
                t0 = time.perf_counter()
                fn()
                best[i] = min(best[i], time.perf_counter() - t0)
    return best


def row(name, ours, theirs, target, *, who="reference", width=48, scale=1e3, unit="ms"):
    """Print one comparison with its verdict; True when kappalib is at least ``target`` times
    faster."""
    ratio = theirs / ours
    verdict = "ok" if ratio >= target else "BELOW TARGET"
    print(
        f"{name:<{width}} kappalib {ours * scale:9.2f} {unit}   {who:<12} "
        f"{theirs * scale:10.2f} {unit}   {ratio:7.1f}x faster  (target >= {target}x: {verdict})"
    )
    return ratio >= target
