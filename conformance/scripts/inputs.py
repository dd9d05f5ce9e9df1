"""The inputs of the conformance table: every case's coefficient, data and options.

Deterministic: the random inputs come from ``random.Random(seed).random()`` only, whose
stream Python guarantees across versions (numpy's generators make no such promise), so
this file alone decides the table's inputs.  Published inputs are typed in with their
citation; the degenerate cases are written by hand.

A case's input is plain JSON data (lists of numbers, ``None`` for a missing rating), in the
table's own vocabulary (README.md): ``matrix`` (K x K counts, rows = rater 1), ``ratings``
(units x raters), ``table`` (units x categories counts), ``categories``, ``x``/``y``.
"""

from __future__ import annotations

import math
import random

SEED = 34  # issue 34


class Stream:
    """Integers and floats from ``random.random()`` alone (its stream is stable)."""

    def __init__(self, seed: int):
        self._r = random.Random(seed)

    def uniform(self, lo: float = 0.0, hi: float = 1.0) -> float:
        return lo + (hi - lo) * self._r.random()

    def integer(self, lo: int, hi: int) -> int:  # inclusive
        return lo + min(hi - lo, int(self._r.random() * (hi - lo + 1)))

    def choice(self, probs: list[float]) -> int:
        u, acc = self._r.random() * sum(probs), 0.0
        for i, p in enumerate(probs):
            acc += p
            if u < acc:
                return i
        return len(probs) - 1

    def normal(self) -> float:  # Box-Muller
        u1, u2 = 1.0 - self._r.random(), self._r.random()
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


def _shares(s: Stream, K: int, skew: float) -> list[float]:
    return [s.uniform(0.2, 1.0) ** skew for _ in range(K)]


def random_matrix(s: Stream, K: int, N: int, *, all_used: bool = True) -> list[list[int]]:
    """Two raters' K x K table: rater 2 copies rater 1 with some probability, else draws from
    shares of its own (a bias).  ``all_used``: every class appears in a margin."""
    while True:
        p1, p2 = _shares(s, K, s.uniform(0.5, 3.0)), _shares(s, K, s.uniform(0.5, 3.0))
        agree = s.uniform(0.0, 0.95)
        C = [[0] * K for _ in range(K)]
        for _ in range(N):
            a = s.choice(p1)
            b = a if s.uniform() < agree else s.choice(p2)
            C[a][b] += 1
        used = [sum(C[k]) + sum(row[k] for row in C) > 0 for k in range(K)]
        diag_only = sum(C[k][k] for k in range(K)) == N
        if (all(used) or not all_used) and not diag_only:
            return C


def random_ratings(
    s: Stream, n: int, m: int, K: int, *, missing: float = 0.0
) -> list[list[int | None]]:
    """n units x m raters on categories 1..K; every unit keeps at least two ratings."""
    while True:
        shares = _shares(s, K, s.uniform(0.5, 2.5))
        copy = s.uniform(0.1, 0.95)
        rows = []
        for _ in range(n):
            truth = s.choice(shares)
            row: list[int | None] = [
                (truth if s.uniform() < copy else s.choice(shares)) + 1 for _ in range(m)
            ]
            for r in range(m):
                if s.uniform() < missing and sum(v is not None for v in row) > 2:
                    row[r] = None
            rows.append(row)
        values = {v for row in rows for v in row if v is not None}
        if len(values) >= 2:
            return rows


def random_scores(s: Stream, n: int, k: int) -> list[list[float]]:
    """n units x k raters of continuous scores (2 decimals): unit effect, rater bias, noise."""
    spread = s.uniform(0.2, 3.0)
    bias = [s.uniform(-1.0, 1.0) * s.uniform(0.0, 1.5) for _ in range(k)]
    rows = []
    for _ in range(n):
        mu = 10.0 + spread * s.normal()
        rows.append([round(mu + bias[j] + s.normal(), 2) for j in range(k)])
    return rows


def random_agreement_weights(s: Stream, K: int) -> list[list[float]]:
    """A symmetric agreement-weight matrix: 1 on the diagonal, smallest weight 0, values on
    a grid of 1/8 so that the JSON is short and exact."""
    W = [[1.0 if i == j else 0.0 for j in range(K)] for i in range(K)]
    pairs = [(i, j) for i in range(K) for j in range(i + 1, K)]
    for i, j in pairs:
        W[i][j] = W[j][i] = s.integer(0, 7) / 8
    i, j = pairs[s.integer(0, len(pairs) - 1)]
    W[i][j] = W[j][i] = 0.0  # the smallest weight is 0 (README: why)
    return W


def case(coefficient, cid, inp, options=None, tags=(), note=None, tolerance=None):
    c = {"id": f"{coefficient}/{cid}", "coefficient": coefficient, "input": inp}
    c["options"] = options or {}
    c["tags"] = list(tags)
    if note:
        c["note"] = note
    if tolerance:
        c["tolerance"] = tolerance
    return c


# A variance that is exactly 0 comes out of a float evaluation as +-1e-16; its square root
# (a standard error, an interval's half-width) is then about 1e-8.
ZERO_VARIANCE = {
    "abs": 1e-7,
    "rel": 0.0,
    "why": "the variance is exactly 0; float evaluations leave about 1e-16, whose "
    "square root (the standard error, the interval's half-width) is about "
    "1e-8",
}


# --------------------------------------------------------------------------- published
# Cohen (1960), p. 41 (Table 1's example), and the course's seeds
SEED_001 = [[8, 2], [1, 9]]  # p_o = 0.85, p_e = 0.5, kappa = 0.7
SEED_003 = [[2, 0, 1], [1, 1, 0], [0, 1, 2]]  # rater [1,1,2,2,3,3,1,3] vs [1,3,2,1,3,2,1,3]
# Fleiss, Cohen & Everitt (1969), the worked example (proportions x 200 cases) and its
# agreement weights as printed
FCE_1969 = [[106, 10, 4], [22, 28, 10], [2, 12, 6]]
FCE_1969_WEIGHTS = [[1.0, 0.0, 0.4444], [0.0, 1.0, 0.6667], [0.4444, 0.6667, 1.0]]
# Fleiss (1971), Table 1: 30 patients, 6 psychiatrists, 5 diagnoses (counts per category; as
# irr's data set `diagnoses`, which the R script checks it against)
FLEISS_1971 = [
    [0, 0, 0, 6, 0],
    [0, 3, 0, 0, 3],
    [0, 1, 4, 0, 1],
    [0, 0, 0, 0, 6],
    [0, 3, 0, 3, 0],
    [2, 0, 4, 0, 0],
    [0, 0, 4, 0, 2],
    [2, 0, 3, 1, 0],
    [2, 0, 0, 4, 0],
    [0, 0, 0, 0, 6],
    [1, 0, 0, 5, 0],
    [1, 1, 0, 4, 0],
    [0, 3, 3, 0, 0],
    [1, 0, 0, 5, 0],
    [0, 2, 0, 3, 1],
    [0, 0, 5, 0, 1],
    [3, 0, 0, 1, 2],
    [5, 1, 0, 0, 0],
    [0, 2, 0, 4, 0],
    [1, 0, 2, 0, 3],
    [0, 0, 0, 0, 6],
    [0, 1, 0, 5, 0],
    [0, 2, 0, 1, 3],
    [2, 0, 0, 4, 0],
    [1, 0, 0, 4, 1],
    [0, 5, 0, 1, 0],
    [4, 0, 0, 0, 2],
    [0, 2, 0, 4, 0],
    [1, 0, 5, 0, 0],
    [0, 0, 0, 0, 6],
]
# Krippendorff (2011), "Computing Krippendorff's alpha-reliability", p. 2-4: 4 observers x
# 12 units, values 1-5, missing as None (here units x raters)
KRIPPENDORFF_2011 = [
    [1, 1, None, 1],
    [2, 2, 3, 2],
    [3, 3, 3, 3],
    [3, 3, 3, 3],
    [2, 2, 2, 2],
    [1, 2, 3, 4],
    [4, 4, 4, 4],
    [1, 1, 2, 1],
    [2, 2, 2, 2],
    [None, 5, 5, 5],
    [None, None, 1, 1],
    [None, 3, None, None],
]
# Gwet (2014), Handbook of Inter-Rater Reliability, 4th ed.: two abstractors, 100 women (as
# irrCAC's datasets.table_cont3x3abstractors, which prints AC1 = 0.84933, quadratic AC2 =
# 0.94024), and 5 observers x 15 units on 0-3 (irrCAC's raw_5observers; units x raters here)
GWET_ABSTRACTORS = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]
GWET_5OBSERVERS = [
    list(u)
    for u in zip(  # noqa: B905  (five rows of 15)
        [1, 1, 2, None, 0, 0, 1, 1, 2, 2, None, 0, 1, 3, 1],
        [1, 1, 3, 0, 0, 0, 0, None, 2, 1, 1, 0, 2, 3, 1],
        [2, 0, 3, 0, 0, 0, 2, 2, 2, 1, 0, 0, 2, 2, 1],
        [None, 1, 3, None, None, None, None, 0, None, 1, 0, 0, 2, 2, None],
        [2, None, None, 0, 0, 0, 1, None, 2, None, None, None, None, 3, 1],
    )
]
# Shrout & Fleiss (1979), Table 2: 6 targets x 4 judges
SHROUT_FLEISS_1979 = [
    [9, 2, 5, 8],
    [6, 1, 3, 2],
    [8, 4, 6, 8],
    [7, 1, 2, 6],
    [10, 5, 6, 9],
    [6, 2, 4, 7],
]


def two_rater_cases(s: Stream) -> list[dict]:
    out: list[dict] = []
    pool = []
    for i in range(44):
        K = [2, 2, 3, 3, 4, 5][i % 6]
        N = s.integer(15, 250)
        pool.append(random_matrix(s, K, N))
    binary = [M for M in pool if len(M) == 2]
    multi = [M for M in pool if len(M) > 2]
    # more 2 x 2 tables for the binary-only statistics
    while len(binary) < 24:
        binary.append(random_matrix(s, 2, s.integer(10, 300)))

    # Cohen's kappa, four weightings, with the intervals at three levels
    levels = [0.90, 0.95, 0.99]
    for i, M in enumerate(pool):
        out.append(
            case(
                "cohen_kappa",
                f"identity/r{i:02d}",
                {"matrix": M},
                {"weights": "identity", "confidence_level": levels[i % 3]},
                ["random"],
            )
        )
    for scheme in ("linear", "quadratic"):
        for i, M in enumerate(multi):
            out.append(
                case(
                    "cohen_kappa",
                    f"{scheme}/r{i:02d}",
                    {"matrix": M},
                    {"weights": scheme, "confidence_level": levels[i % 3]},
                    ["random"],
                )
            )
    for i, M in enumerate(multi[:14]):
        W = random_agreement_weights(s, len(M))
        out.append(
            case(
                "cohen_kappa",
                f"custom/r{i:02d}",
                {"matrix": M},
                {"weights": W, "confidence_level": levels[i % 3]},
                ["random"],
            )
        )
    out.append(
        case(
            "cohen_kappa",
            "identity/seed-001",
            {"matrix": SEED_001},
            {"weights": "identity", "confidence_level": 0.95},
            ["published"],
            "The course's seed 001: p_o = 0.85, p_e = 0.5, kappa = 0.7.",
        )
    )
    for scheme in ("identity", "linear", "quadratic"):
        out.append(
            case(
                "cohen_kappa",
                f"{scheme}/seed-003",
                {"matrix": SEED_003},
                {"weights": scheme, "confidence_level": 0.95},
                ["published"],
                "The course's seed 003 (a metrics library's API reference): 0.4285..., "
                "0.4666... linear, 0.5 quadratic.",
            )
        )
        out.append(
            case(
                "cohen_kappa",
                f"{scheme}/fce-1969",
                {"matrix": FCE_1969},
                {"weights": scheme, "confidence_level": 0.95},
                ["published"],
            )
        )
    out.append(
        case(
            "cohen_kappa",
            "custom/fce-1969",
            {"matrix": FCE_1969},
            {"weights": FCE_1969_WEIGHTS, "confidence_level": 0.95},
            ["published"],
            "Fleiss, Cohen & Everitt's weights, as printed (0.4444 and 0.6667).",
        )
    )
    # degenerate two-rater tables
    out.append(
        case(
            "cohen_kappa",
            "identity/pe-one",
            {"matrix": [[12, 0], [0, 0]]},
            {"weights": "identity"},
            ["degenerate"],
            "Both raters use one class only: p_o = p_e = 1, kappa = 0/0 (undefined).",
        )
    )
    out.append(
        case(
            "cohen_kappa",
            "identity/rater-constant",
            {"matrix": [[7, 5], [0, 0]]},
            {"weights": "identity"},
            ["degenerate"],
            "Rater 1 uses one class: p_o = p_e, kappa = 0 (defined); its standard errors are 0.",
            ZERO_VARIANCE,
        )
    )
    out.append(
        case(
            "cohen_kappa",
            "linear/empty-class",
            {"matrix": [[9, 0, 2], [0, 0, 0], [3, 0, 11]]},
            {"weights": "linear"},
            ["degenerate"],
            "The middle class is used by neither rater: the linear weights still count "
            "it (three classes), so the distance 1 -> 3 is 2 steps.",
        )
    )
    out.append(
        case(
            "cohen_kappa",
            "identity/opposite",
            {"matrix": [[0, 6], [6, 0]]},
            {"weights": "identity"},
            ["degenerate"],
            "Complete disagreement with balanced margins: kappa = -1, with a "
            "variance of exactly 0.",
            ZERO_VARIANCE,
        )
    )

    # Scott's pi, PABAK, kappa_max, AC1/AC2, Brennan-Prediger, MCC, specific agreement
    for i, M in enumerate(pool[:22]):
        out.append(case("scotts_pi", f"r{i:02d}", {"matrix": M}, {}, ["random"]))
    for i, M in enumerate(pool[:16]):
        out.append(case("pabak", f"r{i:02d}", {"matrix": M}, {}, ["random"]))
    for i, M in enumerate(pool[:16]):
        out.append(case("kappa_max", f"r{i:02d}", {"matrix": M}, {}, ["random"]))
    for i, M in enumerate(binary[:16]):
        out.append(case("prevalence_bias_index", f"r{i:02d}", {"matrix": M}, {}, ["random"]))
    for i, M in enumerate(pool[:18]):
        out.append(
            case(
                "gwet_ac1",
                f"identity/r{i:02d}",
                {"matrix": M},
                {"weights": "identity", "confidence_level": levels[i % 3]},
                ["random"],
            )
        )
    for i, M in enumerate(multi[:12]):
        w = ["linear", "quadratic", random_agreement_weights(s, len(M))][i % 3]
        out.append(
            case(
                "gwet_ac1",
                f"weighted/r{i:02d}",
                {"matrix": M},
                {"weights": w, "confidence_level": levels[i % 3]},
                ["random"],
            )
        )
    for w in ("identity", "quadratic"):
        out.append(
            case(
                "gwet_ac1",
                f"{w}/gwet-2014-abstractors",
                {"matrix": GWET_ABSTRACTORS},
                {"weights": w, "confidence_level": 0.95},
                ["published"],
            )
        )
        out.append(
            case(
                "cohen_kappa",
                f"{w}/gwet-2014-abstractors",
                {"matrix": GWET_ABSTRACTORS},
                {"weights": w, "confidence_level": 0.95},
                ["published"],
            )
        )
    for i, M in enumerate(pool[:12]):
        out.append(
            case(
                "brennan_prediger",
                f"identity/r{i:02d}",
                {"matrix": M},
                {"weights": "identity", "confidence_level": levels[i % 3]},
                ["random"],
            )
        )
    for i, M in enumerate(multi[12:20]):
        w = ["linear", "quadratic"][i % 2]
        out.append(
            case(
                "brennan_prediger",
                f"weighted/r{i:02d}",
                {"matrix": M},
                {"weights": w, "confidence_level": levels[i % 3]},
                ["random"],
            )
        )
    for i, M in enumerate(pool[:26]):
        out.append(case("mcc", f"r{i:02d}", {"matrix": M}, {}, ["random"]))
    out.append(
        case(
            "mcc",
            "empty-margin",
            {"matrix": [[10, 0], [3, 0]]},
            {},
            ["degenerate"],
            "Rater 2 never uses class 2: MCC is 0/0 (undefined).",
        )
    )
    out.append(case("mcc", "seed-001", {"matrix": SEED_001}, {}, ["published"]))
    for i, M in enumerate(pool[:12]):
        out.append(case("specific_agreement", f"r{i:02d}", {"matrix": M}, {}, ["random"]))
    out.append(
        case(
            "specific_agreement",
            "unused-class",
            {"matrix": [[9, 0, 2], [0, 0, 0], [3, 0, 11]]},
            {},
            ["degenerate"],
            "The middle class is used by neither rater: its specific agreement is 0/0.",
        )
    )

    # bias: McNemar (2 x 2, three variants) and Stuart-Maxwell (K x K)
    variants = [
        {"correction": True, "exact": False},
        {"correction": False, "exact": False},
        {"correction": False, "exact": True},
    ]
    for i, M in enumerate(binary[:24]):
        v = variants[i % 3]
        out.append(case("mcnemar", f"r{i:02d}", {"matrix": M}, dict(v), ["random"]))
    out.append(
        case(
            "mcnemar",
            "no-discordant",
            {"matrix": [[7, 0], [0, 5]]},
            {"correction": True, "exact": False},
            ["degenerate"],
            "b = c = 0: the chi-square statistic is 0/0.",
        )
    )
    out.append(
        case(
            "mcnemar",
            "equal-discordant",
            {"matrix": [[7, 4], [4, 5]]},
            {"correction": True, "exact": False},
            ["degenerate"],
            "b = c: with the continuity correction, |b - c| - 1 would be -1; the statistic is 0.",
        )
    )
    for i, M in enumerate(multi[:16]):
        out.append(case("stuart_maxwell", f"r{i:02d}", {"matrix": M}, {}, ["random"]))
    out.append(
        case(
            "stuart_maxwell",
            "perfect-class",
            {"matrix": [[20, 0, 0], [0, 15, 6], [0, 2, 18]]},
            {},
            ["degenerate"],
            "Class 1 has no discordant case: it adds nothing to the test, which is "
            "McNemar's on classes 2 and 3 (1 df).",
        )
    )
    out.append(
        case(
            "stuart_maxwell",
            "perfect-class-4",
            {"matrix": [[10, 0, 0, 0], [0, 8, 3, 1], [0, 1, 9, 4], [0, 2, 0, 7]]},
            {},
            ["degenerate"],
            "Class 1 has no discordant case: 2 df, not 3.",
        )
    )
    out.append(
        case(
            "stuart_maxwell",
            "equal-margins-class",
            {"matrix": [[10, 2, 1], [3, 8, 4], [0, 5, 9]]},
            {},
            ["degenerate"],
            "Class 1's margins are equal (13 and 13) but it has discordant cases: it "
            "stays in the test.",
        )
    )
    out.append(
        case(
            "stuart_maxwell",
            "equal-margins-class-4",
            {"matrix": [[10, 2, 1, 0], [1, 8, 3, 2], [2, 2, 9, 1], [0, 3, 1, 7]]},
            {},
            ["degenerate"],
            "Class 1's margins are equal (13 and 13) with discordant cases in its row "
            "and column: it stays in the test (3 df).",
        )
    )
    out.append(
        case(
            "stuart_maxwell",
            "seed-docstring",
            {"matrix": [[20, 5, 1], [2, 15, 6], [1, 2, 18]]},
            {},
            ["random"],
        )
    )

    # sample size for a target half-width
    for i in range(12):
        K = [2, 2, 3, 4][i % 4]
        marg = [round(s.uniform(0.1, 1.0), 2) for _ in range(K)]
        tot = sum(marg)
        marg = [round(m / tot, 3) for m in marg]
        marg[-1] = round(1.0 - sum(marg[:-1]), 3)
        kap = round(s.uniform(0.2, 0.85), 2)
        h = round(s.uniform(0.04, 0.15), 3)
        w = "identity" if K == 2 or i % 3 else "quadratic"
        out.append(
            case(
                "kappa_sample_size",
                f"r{i:02d}",
                {"kappa": kap, "marginals": marg, "half_width": h},
                {"weights": w, "confidence_level": levels[i % 3]},
                ["random"],
            )
        )
    return out


def multi_rater_cases(s: Stream) -> list[dict]:
    out: list[dict] = []
    levels = [0.90, 0.95, 0.99]

    def cats(K):
        return list(range(1, K + 1))

    # Fleiss' kappa (complete ratings) with its standard errors and per-category kappas
    for i in range(22):
        n, m, K = s.integer(8, 40), s.integer(3, 6), s.integer(2, 5)
        R = random_ratings(s, n, m, K)
        out.append(
            case(
                "fleiss_kappa",
                f"r{i:02d}",
                {"ratings": R, "categories": cats(K)},
                {"confidence_level": levels[i % 3]},
                ["random"],
            )
        )
        if i < 12:
            out.append(
                case(
                    "category_fleiss_kappas",
                    f"r{i:02d}",
                    {"ratings": R, "categories": cats(K)},
                    {},
                    ["random"],
                )
            )
    out.append(
        case(
            "fleiss_kappa",
            "fleiss-1971",
            {"table": FLEISS_1971, "categories": cats(5)},
            {"confidence_level": 0.95},
            ["published"],
        )
    )
    out.append(
        case(
            "category_fleiss_kappas",
            "fleiss-1971",
            {"table": FLEISS_1971, "categories": cats(5)},
            {},
            ["published"],
        )
    )
    out.append(
        case(
            "fleiss_kappa",
            "one-category",
            {"ratings": [[2, 2, 2], [2, 2, 2], [2, 2, 2], [2, 2, 2]], "categories": [1, 2]},
            {},
            ["degenerate"],
            "Every rating is 2: p_e = 1, kappa = 0/0 (undefined).",
        )
    )
    out.append(
        case(
            "fleiss_kappa",
            "finite-population",
            {"table": FLEISS_1971, "categories": cats(5)},
            {"confidence_level": 0.95, "n_population": 60},
            ["published"],
            "Fleiss (1971) with the finite-population correction 1 - n/N, N = 60.",
        )
    )

    # Gwet's generalized Fleiss kappa (missing ratings, weights), AC1/AC2, Brennan-Prediger
    weights_cycle = ["identity", "linear", "quadratic", "custom"]
    for coef, count in (
        ("fleiss_generalized", 16),
        ("gwet_ac1_multi", 18),
        ("brennan_prediger_multi", 14),
    ):
        for i in range(count):
            n, m, K = s.integer(6, 40), s.integer(2, 6), s.integer(2, 5)
            R = random_ratings(s, n, m, K, missing=s.uniform(0.0, 0.35))
            scheme = weights_cycle[i % 4] if K > 2 else "identity"
            w = random_agreement_weights(s, K) if scheme == "custom" else scheme
            opts = {"weights": w, "confidence_level": levels[i % 3]}
            if i % 5 == 4:
                opts["n_population"] = n + s.integer(5, 200)
            out.append(
                case(coef, f"r{i:02d}", {"ratings": R, "categories": cats(K)}, opts, ["random"])
            )
    g5 = {"ratings": GWET_5OBSERVERS, "categories": [0, 1, 2, 3]}
    for coef in ("fleiss_generalized", "gwet_ac1_multi", "brennan_prediger_multi", "conger_kappa"):
        for w in ("identity", "quadratic"):
            out.append(
                case(
                    coef,
                    f"{w}/gwet-2014-5observers",
                    g5,
                    {"weights": w, "confidence_level": 0.95},
                    ["published"],
                )
            )
    out.append(
        case(
            "fleiss_generalized",
            "one-rating-unit",
            {
                "ratings": [
                    [1, 1, 2],
                    [2, 2, None],
                    [3, None, None],
                    [1, 2, 1],
                    [3, 3, 3],
                    [2, None, 2],
                ],
                "categories": [1, 2, 3],
            },
            {"weights": "identity", "confidence_level": 0.95},
            ["degenerate"],
            "Unit 3 has one rating: it holds no pair, so it leaves p_a out but still "
            "counts in the category shares (Gwet 2014, ch. 5).",
        )
    )
    out.append(
        case(
            "gwet_ac1_multi",
            "one-category",
            {"ratings": [[1, 1, 1], [1, 1, 1], [1, 1, 1]], "categories": [1]},
            {"weights": "identity"},
            ["degenerate"],
            "One category declared: p_e = sum pi(1 - pi) / (q - 1) = 0/0.",
        )
    )

    # Krippendorff's alpha at four levels
    for level in ("nominal", "ordinal", "interval", "ratio"):
        for i in range(13):
            n, m, K = s.integer(5, 35), s.integer(2, 6), s.integer(2, 6)
            R = random_ratings(s, n, m, K, missing=s.uniform(0.0, 0.4) if i % 3 else 0.0)
            out.append(
                case(
                    "krippendorff_alpha",
                    f"{level}/r{i:02d}",
                    {"ratings": R, "categories": cats(K)},
                    {"level": level},
                    ["random"],
                )
            )
        out.append(
            case(
                "krippendorff_alpha",
                f"{level}/krippendorff-2011",
                {"ratings": KRIPPENDORFF_2011, "categories": cats(5)},
                {"level": level},
                ["published"],
            )
        )
    out.append(
        case(
            "krippendorff_alpha",
            "nominal/one-value",
            {"ratings": [[3, 3], [3, 3], [3, None]], "categories": [1, 2, 3]},
            {"level": "nominal"},
            ["degenerate"],
            "One value in all pairable data: D_e = 0, alpha = 0/0 (undefined).",
        )
    )
    out.append(
        case(
            "krippendorff_alpha",
            "nominal/lone-ratings",
            {
                "ratings": [[1, 1, None], [2, 2, 1], [3, None, None], [None, 2, None], [1, 2, 2]],
                "categories": [1, 2, 3],
            },
            {"level": "nominal"},
            ["degenerate"],
            "Units 3 and 4 have one rating each: they are not pairable and drop out.",
        )
    )

    # Conger and Light (raw ratings, fixed raters)
    for i in range(16):
        n, m, K = s.integer(6, 35), s.integer(2, 6), s.integer(2, 5)
        R = random_ratings(s, n, m, K, missing=0.0 if i % 2 else s.uniform(0.0, 0.3))
        scheme = weights_cycle[i % 4] if K > 2 else "identity"
        w = random_agreement_weights(s, K) if scheme == "custom" else scheme
        out.append(
            case(
                "conger_kappa",
                f"r{i:02d}",
                {"ratings": R, "categories": cats(K)},
                {"weights": w, "confidence_level": levels[i % 3]},
                ["random"],
            )
        )
    for i in range(12):
        n, m, K = s.integer(6, 35), s.integer(3, 6), s.integer(2, 5)
        R = random_ratings(s, n, m, K)
        out.append(
            case("light_kappa", f"r{i:02d}", {"ratings": R, "categories": cats(K)}, {}, ["random"])
        )
    return out


def continuous_cases(s: Stream) -> list[dict]:
    out: list[dict] = []
    levels = [0.90, 0.95, 0.99]
    for i in range(22):
        n, k = s.integer(5, 30), s.integer(2, 6)
        out.append(
            case(
                "icc",
                f"r{i:02d}",
                {"ratings": random_scores(s, n, k)},
                {"confidence_level": levels[i % 3]},
                ["random"],
            )
        )
    out.append(
        case(
            "icc",
            "shrout-fleiss-1979",
            {"ratings": SHROUT_FLEISS_1979},
            {"confidence_level": 0.95},
            ["published"],
        )
    )
    out.append(
        case(
            "icc",
            "perfect-consistency",
            {"ratings": [[1, 3], [2, 4], [3, 5], [4, 6], [6, 8]]},
            {"confidence_level": 0.95},
            ["degenerate"],
            "Rater 2 = rater 1 + 2: the residual mean square is 0, ICC3 = 1, the F "
            "statistic is infinite.",
        )
    )
    out.append(
        case(
            "icc",
            "all-equal",
            {"ratings": [[4, 4, 4], [4, 4, 4], [4, 4, 4]]},
            {"confidence_level": 0.95},
            ["degenerate"],
            "Every rating is 4: every mean square is 0, every ICC and F is 0/0.",
        )
    )
    for i in range(16):
        n = s.integer(5, 50)
        rows = random_scores(s, n, 2)
        out.append(
            case(
                "lins_ccc",
                f"r{i:02d}",
                {"x": [r[0] for r in rows], "y": [r[1] for r in rows]},
                {"confidence_level": levels[i % 3]},
                ["random"],
            )
        )
    out.append(
        case(
            "lins_ccc",
            "shifted",
            {"x": [1, 2, 3, 4, 5], "y": [2, 3, 4, 5, 6]},
            {"confidence_level": 0.95},
            ["degenerate"],
            "Pearson's r is 1, the concordance 0.8: a pure location shift.",
        )
    )
    out.append(
        case(
            "lins_ccc",
            "constant-rater",
            {"x": [3, 3, 3, 3, 3], "y": [1, 2, 3, 4, 5]},
            {"confidence_level": 0.95},
            ["degenerate"],
            "Rater x gives one value: s_xy = 0, so rho_c = 0 (defined); Pearson's r and the "
            "interval are 0/0 (undefined).",
        )
    )
    return out


def all_cases() -> list[dict]:
    s = Stream(SEED)
    cases = two_rater_cases(s) + multi_rater_cases(s) + continuous_cases(s)
    import comparisons  # issue 34 (f34b): its own stream, so these inputs do not move
    import measurement  # issue 34's rows (f34a), from a stream of their own

    cases += measurement.cases() + comparisons.cases()
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    return cases


if __name__ == "__main__":
    from collections import Counter

    cs = all_cases()
    print(len(cs), Counter(c["coefficient"] for c in cs))
