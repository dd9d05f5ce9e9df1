"""The simulated honest and careless students of the autograde demo.

A student is a map from an answer cell's grade id to the code (or text) they put there; an
answer cell they leave out keeps the released stub. ``reference`` submits the instructor's
notebook and ``blank`` the untouched release, so neither appears here. ``hard_coder`` is made
by a function: it copies numbers computed for other data (last term's, or a classmate's).
The cheats are real code files in ``cheats/``.

The honest styles: ``DIFFERENT`` (loops, own formulas) and three more that present the same
answers in other accepted forms, by a last cell (``style_cell``): every number rounded to 6
decimals, exact ``Fraction``s and 0-d arrays, and pandas Series and DataFrames.
"""

from __future__ import annotations

import numpy as np

import kappalib as kl

DIFFERENT = {  # correct, written differently: loops, own formulas, another construction
    "ps1-q1-answer": """
def observed(C):
    n = len(C)
    total = sum(sum(row) for row in C)
    return sum(C[i][i] for i in range(n)) / total


def expected(C):
    n = len(C)
    total = sum(sum(row) for row in C)
    rows = [sum(C[i][j] for j in range(n)) for i in range(n)]
    cols = [sum(C[i][j] for i in range(n)) for j in range(n)]
    return sum(r * c for r, c in zip(rows, cols)) / total**2


def kappa_by_hand(C):
    return 1 - (1 - observed(C)) / (1 - expected(C))
""",
    "ps1-q2-answer": """
from fractions import Fraction
C_target = None
for N in range(2, 200):
    for a in range(N + 1):
        for d in range(N + 1 - a):
            if Fraction(a + d, N) != Fraction(target_po).limit_denominator(100):
                continue
            for b in range(N + 1 - a - d):
                c = N - a - d - b
                T = np.array([[a, b], [c, d]])
                k = kl.kappa(T)
                if k is not None and abs(k - target_kappa) < 1e-12:
                    C_target = T
                    break
            if C_target is not None:
                break
        if C_target is not None:
            break
    if C_target is not None:
        break
""",
    "ps1-q3-answer": 'C_undefined = [[0, 0], [0, 3]]\nstatement = "b"\n',
    "ps1-q4-answer": "p_o is the share of agreement; p_e what independent raters with the same "
    "marginals would reach; kappa the share of the room above chance they reached.",
    "ps2-q1-answer": """
def weights(K, kind=None):
    W = np.zeros((K, K))
    for i in range(K):
        for j in range(K):
            d = abs(i - j)
            W[i, j] = (d > 0) if kind is None else (d if kind == "linear" else d * d)
    return W
""",
    "ps2-q2-answer": """
def weighted_kappa(C, W):
    C = np.asarray(C, dtype=float)
    P = C / C.sum()
    E = P.sum(axis=1)[:, None] * P.sum(axis=0)[None, :]
    return 1 - np.sum(W * P) / np.sum(W * E)
""",
    "ps2-q3-answer": """
C4 = np.zeros((4, 4), dtype=int)
for r, m in zip(rater, model):
    C4[r - 1, m - 1] += 1
k_linear = weighted_kappa(C4, weights(4, "linear"))
k_quadratic = weighted_kappa(C4, weights(4, "quadratic"))
""",
    "ps2-q4-answer": """
best = None
for p in permutations([1, 2, 3, 4]):
    v = kl.cohen_kappa_score(rater, model, weighting="quadratic", labels=list(p))
    if best is None or v < best[0]:
        best = (v, list(p))
worst_order = best[1]
""",
    "ps2-q5-answer": "Alphabetical order puts none between moderate and severe; pass labels in "
    "the clinical order and state the scheme.",
    "ps3-q1-answer": """
stack = np.stack([families.ZA(a, K) for a in A_grid])
kappa_curve = kl.kappa(stack)
mcc_curve = kl.mcc(stack)
i = int(np.argmin(kappa_curve))
A_min, kappa_min = A_grid[i], kappa_curve[i]
""",
    "ps3-q2-answer": """
base = np.full((4, 4), 2)
family = np.stack([base + np.pad([[a]], ((0, 3), (3, 0))) for a in (30, 60, 90)])
""",
    "ps3-q3-answer": "p_e falls as the marginals drift apart faster than p_o; so kappa rises.",
    "ps4-q1-answer": """
def kappa_max_by_hand(C):
    n = len(C)
    N = sum(sum(row) for row in C)
    r = [sum(C[i]) / N for i in range(n)]
    c = [sum(C[i][j] for i in range(n)) / N for j in range(n)]
    p_e = sum(a * b for a, b in zip(r, c))
    return (sum(min(a, b) for a, b in zip(r, c)) - p_e) / (1 - p_e)
""",
    "ps4-q2-answer": """
def pabak_by_hand(C):
    C = np.asarray(C, dtype=float)
    K = len(C)
    p_o = np.diag(C).sum() / C.sum()
    return (p_o - 1 / K) / (1 - 1 / K)
""",
    "ps4-q3-answer": """
kappa_a = kl.kappa(C_a)
kappa_b = kl.kappa(C_b)
higher = ["b", "a"][int(kappa_a > kappa_b)]
""",
    "ps4-q4-answer": """
p_o, p_e = kl.observed_agreement(C_a), kl.expected_agreement(C_a)
se_a = kl.kappa_standard_error(C_a)
z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
k = (p_o - p_e) / (1 - p_e)
ci_a = [k - z * se_a, k + z * se_a]
""",
    "ps4-q5-answer": "Accuracy, kappa with its interval, kappa_max and prevalence; no verbal band.",
    "ps5-q1-answer": """
def asymmetry_by_hand(C):
    n = len(C)
    return sum((C[i][j] - C[j][i]) ** 2 for i in range(n) for j in range(n)) ** 0.5
""",
    "ps5-q2-answer": """
import math


def entropy_by_hand(C):
    n = len(C)
    errors = [C[i][j] for i in range(n) for j in range(n) if i != j]
    total = sum(errors)
    return -sum(e / total * math.log2(e / total) for e in errors if e > 0)
""",
    "ps5-q3-answer": """
gap_sym = 0.0  # Proposition 1: a symmetric matrix has kappa = MCC
gap_skew = kl.kappa(M_skew) - kl.mcc(M_skew)
""",
    "ps5-q4-answer": """
family = np.array([[[2, 1, a], [1, 2, 1], [1, 1, 2]] for a in (1, 30, 60, 200)])
""",
    "ps5-q5-answer": "Asymmetric errors move the margins apart, p_e falls faster than p_o.",
}

MISTAKES = {  # typical mistakes: each should cost its own question only, with a hint
    "ps1-q1-answer": """
def observed(C):
    C = np.asarray(C, dtype=float)
    return np.trace(C) / C.sum()


def expected(C):
    C = np.asarray(C, dtype=float)
    r = C.sum(axis=1) / C.sum()
    return float(r @ r)  # row totals twice


def kappa_by_hand(C):
    return (observed(C) - expected(C)) / (1 - expected(C))
""",
    "ps1-q2-answer": "C_target = np.array([[4.0, 0.5], [0.5, 5.0]])  # not counts\n",
    "ps1-q3-answer": 'C_undefined = np.array([[5, 0], [0, 5]])\nstatement = "a"\n',
    "ps1-q4-answer": "Kappa is moderate agreement.",
    "ps2-q1-answer": """
def weights(K, kind=None):
    i = np.arange(K)
    d = np.abs(i[:, None] - i[None, :]).astype(float)
    if kind is None:
        return (d > 0).astype(float)
    return 1 - d / (K - 1) if kind == "linear" else 1 - (d / (K - 1)) ** 2  # agreement weights
""",
    "ps2-q2-answer": """
def weighted_kappa(C, W):
    C = np.asarray(C, dtype=float)
    E = np.outer(C.sum(axis=1), C.sum(axis=0)) / C.sum()
    return float(1 - (W * C).sum() / (W * E).sum())
""",
    "ps2-q3-answer": """
C4 = kl.confusion_matrix(rater, model, labels=[1, 2, 3, 4])
k_linear = weighted_kappa(C4, weights(4, "linear"))
k_quadratic = weighted_kappa(C4, weights(4, "quadratic"))
""",
    "ps2-q4-answer": """
values = {p: kl.cohen_kappa_score(rater, model, weighting="quadratic", labels=list(p))
          for p in permutations([1, 2, 3, 4])}
worst_order = list(max(values, key=values.get))
""",
    "ps2-q5-answer": "The order is alphabetical.",
    "ps3-q1-answer": """
stack = families.ZA(A_grid, K)
kappa_curve = kl.kappa(stack)
mcc_curve = kl.mcc(stack)
A_min = float(A_grid[np.argmax(kappa_curve)])
kappa_min = float(kl.kappa(families.ZA(A_min, K)))
""",
    "ps3-q2-answer": "family = families.ZA(np.array([1.0, 2.0, 4.0]), 3)  # before A*\n",
    "ps3-q3-answer": "Kappa is not reliable.",
    "ps4-q1-answer": """
def kappa_max_by_hand(C):
    return 1.0  # the ceiling of kappa itself
""",
    "ps4-q2-answer": """
def pabak_by_hand(C):
    C = np.asarray(C, dtype=float)
    return 2 * np.trace(C) / C.sum() - 1  # two classes only
""",
    "ps4-q3-answer": """
kappa_a, kappa_b = kl.kappa(C_a), kl.kappa(C_b)
higher = "a" if kl.observed_agreement(C_a) >= kl.observed_agreement(C_b) else "b"
""",
    "ps4-q4-answer": """
se_a = kl.kappa_standard_error(C_a)
ci_a = (kl.kappa(C_a) - 1.96 * se_a, kl.kappa(C_a) + 1.96 * se_a)  # always 95%
""",
    "ps4-q5-answer": "Kappa is 0.6, which is moderate.",
    "ps5-q1-answer": """
def asymmetry_by_hand(C):
    C = np.asarray(C, dtype=float)
    return np.abs(C - C.T).sum()
""",
    "ps5-q2-answer": """
def entropy_by_hand(C):
    C = np.asarray(C, dtype=float)
    off = C[~np.eye(len(C), dtype=bool)]
    p = off[off > 0] / off.sum()
    return float(-(p * np.log(p)).sum())  # natural log
""",
    "ps5-q3-answer": """
gap_sym = kl.kappa(M_sym) - kl.mcc(M_sym)
gap_skew = kl.mcc(M_skew) - kl.kappa(M_skew)
""",
    "ps5-q4-answer": "family = families.ZA(np.array([1.0, 2.0, 4.0]), 3)\n",
    "ps5-q5-answer": "MCC is better.",
}

_RIGGED = """
class Anything(float):
    def __eq__(self, other):
        return True

    def __float__(self):
        return 0.5


class Table(np.ndarray):
    def __eq__(self, other):
        return np.ones(np.shape(other), dtype=bool)
"""

MONKEYPATCHER = {  # ps1: rigged objects; ps2: patches numpy and math; ps3: kappalib, builtins
    "ps1-q1-answer": _RIGGED
    + """

def observed(C):
    return Anything(0)


expected = kappa_by_hand = observed
""",
    "ps1-q2-answer": "C_target = np.zeros((2, 2)).view(Table)\n",
    "ps1-q3-answer": "C_undefined = np.zeros((2, 2)).view(Table)\n",
    "ps2-q1-answer": """
import math
np.isclose = lambda *a, **k: True
np.allclose = lambda *a, **k: True
math.isclose = lambda *a, **k: True


def weights(K, kind=None):
    return np.zeros((K, K))
""",
    "ps2-q2-answer": "def weighted_kappa(C, W):\n    return 0.0\n",
    "ps2-q3-answer": "C4 = np.zeros((4, 4))\nk_linear = k_quadratic = 0.0\n",
    "ps2-q4-answer": "worst_order = [1, 2, 3, 4]\n",
    "ps3-q1-answer": """
import builtins
kl.kappa = lambda C, **k: np.zeros(np.shape(C)[:-2]) if np.ndim(C) > 2 else 0.0
kl.mcc = kl.kappa
builtins.abs = lambda x: 0
kappa_curve = mcc_curve = np.zeros_like(A_grid)
A_min = kappa_min = 0.0
""",
    "ps3-q2-answer": "family = np.zeros((2, 3, 3))\n",
    "ps4-q1-answer": _RIGGED
    + """

def kappa_max_by_hand(C):
    return Anything(1)


pabak_by_hand = kappa_max_by_hand
""",
    "ps4-q3-answer": "kappa_a = kappa_b = Anything(0)\n",
    "ps4-q4-answer": "se_a = Anything(0)\nci_a = np.zeros(2).view(Table)\n",
    "ps5-q1-answer": """
import sys
sys.modules["kappalib"].asymmetry = lambda C: 0.0
kl.off_diagonal_entropy = lambda C, **k: 0.0


def asymmetry_by_hand(C):
    return 0.0


def entropy_by_hand(C):
    return 0.0
""",
    "ps5-q3-answer": "gap_skew = 0.0\n",
    "ps5-q4-answer": "family = np.zeros((2, 3, 3))\n",
}


_CONVERT = {
    "rounded": (
        "rounded to 6 decimals",
        "    a = np.round(np.asarray(x, dtype=float), 6)\n"
        "    return float(a) if a.ndim == 0 else a.tolist()",
    ),
    "exact": (
        "exact fractions and 0-d arrays",
        "    a = np.asarray(x, dtype=float)\n"
        "    if a.ndim == 0:\n"
        "        return Fraction(float(a)) if isinstance(x, float) else np.asarray(a)\n"
        "    return a",
    ),
    "pandas": (
        "pandas Series and DataFrames",
        "    a = np.asarray(x, dtype=float)\n"
        "    if a.ndim == 0:\n"
        "        return np.float64(a)\n"
        "    return pd.Series(a) if a.ndim == 1 else pd.DataFrame(a) if a.ndim == 2 else a",
    ),
}


def style_cell(style: str, values: list[str], functions: list[str]) -> str:
    """A last cell that gives the same answers in another accepted form."""
    what, body = _CONVERT[style]
    lines = [
        f"# The same answers, as {what}.",
        "from fractions import Fraction",
        "",
        "import pandas as pd",
        "",
        "",
        "def convert(x):",
        "    if isinstance(x, str) or x is None:",
        "        return x",
        body,
        "",
        "",
        "def converted(f):",
        "    return lambda *args: convert(f(*args))",
        "",
        "",
    ]
    lines += [f"{f} = converted({f})" for f in functions]
    lines += [f"{v} = convert({v})" for v in values]
    return "\n".join(lines) + "\n"


def hard_coder(last_term: dict[str, dict]) -> dict[str, str]:
    """Answers computed for other data (`last_term[ps]`), typed in as numbers."""
    d1, d2, d3 = last_term["ps1"], last_term["ps2"], last_term["ps3"]
    d4, d5 = last_term.get("ps4"), last_term.get("ps5")
    C = d1["C"]
    po, pe, k = kl.observed_agreement(C), kl.expected_agreement(C), kl.kappa(C)
    C4 = kl.confusion_matrix(d2["rater"], d2["model"], labels=[1, 2, 3, 4])
    orders = {
        tuple(p): kl.cohen_kappa_score(
            d2["rater"], d2["model"], weighting="quadratic", labels=list(p)
        )
        for p in __import__("itertools").permutations([1, 2, 3, 4])
    }
    grid = np.asarray(d3["A_grid"])
    from kappalib import families

    curve = kl.kappa(families.ZA(grid, d3["K"]))
    i = int(np.argmin(curve))
    answers = {}
    if d4 is not None:
        Ca, Cb = d4["C_a"], d4["C_b"]
        ka, kb = kl.kappa(Ca), kl.kappa(Cb)
        answers |= {
            "ps4-q1-answer": f"def kappa_max_by_hand(C):\n    return {kl.kappa_max(Ca)!r}\n",
            "ps4-q2-answer": f"def pabak_by_hand(C):\n    return {kl.pabak(Ca)!r}\n",
            "ps4-q3-answer": f"kappa_a, kappa_b = {ka!r}, {kb!r}\n"
            f"higher = {'a' if ka > kb else 'b'!r}\n",
            "ps4-q4-answer": f"se_a = {kl.kappa_standard_error(Ca)!r}\n"
            f"ci_a = {tuple(kl.kappa_confint(Ca, confidence_level=d4['confidence']))!r}\n",
        }
    if d5 is not None:
        Ms, Mk = d5["M_sym"], d5["M_skew"]
        answers |= {
            "ps5-q1-answer": f"def asymmetry_by_hand(C):\n    return {kl.asymmetry(Mk)!r}\n",
            "ps5-q2-answer": f"def entropy_by_hand(C):\n"
            f"    return {kl.off_diagonal_entropy(Mk)!r}\n",
            "ps5-q3-answer": f"gap_sym = {kl.kappa(Ms) - kl.mcc(Ms)!r}\n"
            f"gap_skew = {kl.kappa(Mk) - kl.mcc(Mk)!r}\n",
            "ps5-q4-answer": DIFFERENT["ps5-q4-answer"],
        }
    return answers | {
        "ps1-q1-answer": f"def observed(C):\n    return {po!r}\n\n\n"
        f"def expected(C):\n    return {pe!r}\n\n\ndef kappa_by_hand(C):\n    return {k!r}\n",
        "ps1-q2-answer": f"C_target = np.array({_target(d1).tolist()})\n",
        "ps1-q3-answer": DIFFERENT["ps1-q3-answer"],
        "ps2-q1-answer": DIFFERENT["ps2-q1-answer"],
        "ps2-q2-answer": DIFFERENT["ps2-q2-answer"],
        "ps2-q3-answer": f"C4 = np.array({C4.astype(int).tolist()})\n"
        f"k_linear = {kl.kappa(C4, weighting='linear')!r}\n"
        f"k_quadratic = {kl.kappa(C4, weighting='quadratic')!r}\n",
        "ps2-q4-answer": f"worst_order = {list(min(orders, key=orders.get))}\n",
        "ps3-q1-answer": f"kappa_curve = np.array({curve.tolist()})\n"
        f"mcc_curve = np.array({kl.mcc(families.ZA(grid, d3['K'])).tolist()})\n"
        f"A_min = {float(grid[i])!r}\nkappa_min = {float(curve[i])!r}\n",
        "ps3-q2-answer": DIFFERENT["ps3-q2-answer"],
    }


def _target(d1: dict) -> np.ndarray:
    """The smallest 2 x 2 table of counts with last term's p_o and kappa targets (exact)."""
    P, Q = round(100 * d1["target_po"]), round(100 * d1["target_kappa"])
    for n in range(2, 101):
        for a in range(n + 1):
            d = P * n // 100 - a
            if d < 0 or (a + d) * 100 != P * n:
                continue
            b = np.arange(n - a - d + 1)
            c = n - a - d - b
            hit = np.flatnonzero(
                ((a + b) * (a + c) + (c + d) * (b + d)) * (100 - Q) == (P - Q) * n * n
            )
            if hit.size:
                return np.array([[a, b[hit[0]]], [c[hit[0]], d]])
    raise ValueError(f"no table of at most 100 counts reaches {d1}")


# ---------------------------------------------------------------- added for issue 32

SHARED = {  # one student's own solutions (not the reference's), shared with a classmate
    "ps1-q1-answer": """
def observed(table):
    t = np.array(table, dtype=float)
    agree = 0.0
    for k in range(t.shape[0]):
        agree = agree + t[k, k]
    return agree / t.sum()


def expected(table):
    t = np.array(table, dtype=float)
    n = t.sum()
    marg_r = t.sum(axis=1) / n
    marg_c = t.sum(axis=0) / n
    return float(np.dot(marg_r, marg_c))


def kappa_by_hand(table):
    a, b = observed(table), expected(table)
    return (a - b) / (1.0 - b)
""",
    "ps2-q1-answer": """
def weights(K, kind=None):
    idx = np.arange(K)
    gap = np.abs(np.subtract.outer(idx, idx)).astype(float)
    if kind == "linear":
        return gap
    if kind == "quadratic":
        return gap ** 2
    return np.where(gap > 0, 1.0, 0.0)
""",
    "ps3-q1-answer": """
curve_stack = families.ZA(A_grid, K)
kappa_curve = np.asarray(kl.kappa(curve_stack))
mcc_curve = np.asarray(kl.mcc(curve_stack))
lowest = int(np.argmin(kappa_curve))
A_min = float(A_grid[lowest])
kappa_min = float(kappa_curve[lowest])
""",
    "ps3-q2-answer": """
base = np.diag([30, 30, 30])
steps = []
for extra in (5, 40, 80, 160):
    m = base.copy()
    m[0, 2] = m[0, 2] + extra
    m[1, 2] = m[1, 2] + 1
    steps.append(m)
family = np.stack(steps)
""",
    "ps4-q1-answer": """
def kappa_max_by_hand(table):
    t = np.array(table, dtype=float)
    n = t.sum()
    pr, pc = t.sum(axis=1) / n, t.sum(axis=0) / n
    chance = float(np.dot(pr, pc))
    best = float(np.minimum(pr, pc).sum())
    return (best - chance) / (1.0 - chance)
""",
    "ps5-q1-answer": """
def asymmetry_by_hand(table):
    t = np.array(table, dtype=float)
    d = t - t.T
    return float(np.sqrt(np.sum(d * d)))
""",
    "ps5-q2-answer": """
def entropy_by_hand(table):
    t = np.array(table, dtype=float)
    mask = ~np.eye(t.shape[0], dtype=bool)
    errs = t[mask]
    share = errs[errs > 0] / errs.sum()
    total = 0.0
    for s in share:
        total = total - s * np.log2(s)
    return float(total)
""",
}


def shared_by_classmate(cells: dict[str, str]) -> dict[str, str]:
    """The same code as a classmate would hand it in: names changed, `%%time` on top,
    another layout and comments."""
    out = {}
    for gid, code in cells.items():
        text = code.replace("table", "M").replace("marg_r", "rows").replace("marg_c", "cols")
        text = text.replace("agree", "diag_sum").replace("lowest", "where_min")
        text = text.replace("curve_stack", "Z").replace("gap", "dist").replace("idx", "pos")
        out[gid] = "%%time\n# my own work\n" + text.replace("\n\n\n", "\n\n")
    return out


def with_magic_on_top(cells: dict[str, str], magic: str) -> dict[str, str]:
    """Answers with a magic at the top of every code answer (the written ones left alone)."""
    return {
        gid: (f"{magic}\n{code.lstrip()}" if ("def " in code or "=" in code) else code)
        for gid, code in cells.items()
    }
