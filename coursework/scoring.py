"""The trusted scorer: what each problem set asks the sandbox for, and how the answers score.

Nothing here imports or runs a student's code. For each problem set, ``request(ps, data, rng)``
says which values to collect and which inputs to give the student's functions (drawn at
grading time from the course's private grading key, so they cannot be known in advance);
``score(ps, answers, data, request)`` validates the returned data strictly and computes
every expected value with kappalib. Each part is one graded cell of the notebook (its grade
id and points), all or nothing. A part whose data are malformed (a missing name, an error,
the wrong type or shape, a non-finite number, too large) gets 0 and a sentence that says
what was checked and what came back, never the expected value.

Accepted representations: Python and numpy numbers, Fraction, 0-d arrays (as numbers); lists,
tuples, numpy arrays, pandas Series and DataFrames (as tables); the harness converts them all
to the same plain data. One tolerance, ``variants.TOL``, as in the notebook's ``close()``.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

import kappalib as kl
from kappalib import closed_forms as cf
from kappalib import families

try:
    from variants import TOL
except ImportError:  # imported as coursework.scoring
    from coursework.variants import TOL

MAX_ITEMS = 200_000
STATEMENTS = ("a", "b", "c")


class BadAnswerError(Exception):
    """An answer that is not the kind of data the question asks for."""


@dataclass
class Part:
    grade_id: str
    max_points: float
    checked: str
    ok: bool = False
    problem: str | None = None
    hint: str | None = None
    grader_error: bool = False  # the scorer's own code failed on this part

    @property
    def points(self) -> float:
        return self.max_points if self.ok else 0.0


def received(v) -> str:
    if isinstance(v, dict):
        if v.get("missing"):
            return "nothing (the name is not defined after your notebook runs)"
        if "error" in v:
            return f"an error: {str(v['error'])[:200]}"
        if "unsupported" in v:
            return f"an object of type {str(v['unsupported'])[:60]}"
        if "too_large" in v:
            return f"{v['too_large']} numbers (too many)"
        if "array" in v:
            return f"an array of shape {tuple(v.get('shape', ()))}"
        if "list" in v:
            return "a list of strings"
    if isinstance(v, bool):
        return f"the boolean {v}"
    if isinstance(v, str):
        return "a string"
    if v is None:
        return "None"
    if isinstance(v, int | float):
        return "a number"
    return "data of an unknown kind"


def number(v, what: str) -> float:
    if isinstance(v, dict) and "array" in v and v.get("shape") == []:
        v = v["array"]
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise BadAnswerError(f"{what} should be a number; the grader got {received(v)}")
    try:
        x = float(v)
    except OverflowError:
        raise BadAnswerError(f"{what} should be a number of a sensible size") from None
    if not math.isfinite(x):
        raise BadAnswerError(f"{what} should be a finite number; the grader got {x}")
    return x


def table(v, what: str, ndim: int | None = None) -> np.ndarray:
    if not (isinstance(v, dict) and "array" in v and isinstance(v.get("shape"), list)):
        raise BadAnswerError(f"{what} should be an array of numbers; the grader got {received(v)}")
    shape = v["shape"]
    if not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n for n in shape):
        raise BadAnswerError(f"{what}: a malformed shape")
    if math.prod(shape) > MAX_ITEMS:
        raise BadAnswerError(f"{what} has more than {MAX_ITEMS} numbers")
    try:
        arr = np.array(v["array"], dtype=float)
    except (TypeError, ValueError):
        raise BadAnswerError(f"{what} should be a rectangular array of numbers") from None
    if list(arr.shape) != shape:
        raise BadAnswerError(f"{what} should be a rectangular array of numbers")
    if not np.all(np.isfinite(arr)):
        raise BadAnswerError(f"{what} should hold finite numbers only")
    if ndim is not None and arr.ndim != ndim:
        raise BadAnswerError(f"{what} should have {ndim} dimensions, not {arr.ndim}")
    return arr


def text(v, what: str) -> str:
    if not isinstance(v, str):
        raise BadAnswerError(f"{what} should be a string; the grader got {received(v)}")
    return v


def close(a, b) -> bool:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= TOL * (1 + np.abs(b))))


def counts(T: np.ndarray) -> bool:
    return bool(np.all(T >= 0) and np.all(T == np.round(T)))


def varies(got: list[float], right: list[float]) -> bool:
    """False when a function gave one constant where the right values differ: carried-forward
    credit ("right given your own function") is for work done, never for a constant."""
    return len({round(g, 9) for g in got}) > 1 or len({round(r, 9) for r in right}) <= 1


def arg(T) -> dict:
    return {
        "array": np.asarray(T).tolist(),
        "dtype": "int" if np.asarray(T).dtype.kind in "iu" else "float",
    }


def random_tables(rng, sizes, reps, low, high, plus_eye=False):
    out = []
    for k in sizes:
        for _ in range(reps):
            T = rng.integers(low, high, size=(k, k))
            out.append(T + np.eye(k, dtype=int) if plus_eye else T)
    return out


# ---------------------------------------------------------------- what to ask the sandbox for


def request(ps: str, data: dict, rng: np.random.Generator) -> dict:
    """Values to collect and the grader's inputs for the student's functions."""
    if ps == "ps1":
        tables = [data["C"], *random_tables(rng, (2, 3, 4, 6), 4, 0, 30, plus_eye=True)]
        calls = {f: [[arg(T)] for T in tables] for f in ("observed", "expected", "kappa_by_hand")}
        return {"values": ["C_target", "C_undefined", "statement"], "calls": calls,
                "tables": [T.tolist() for T in tables]}  # fmt: skip
    if ps == "ps2":
        sizes = (2, 3, 4, 5, 7)
        cases = [(np.array([[20, 5, 1], [4, 15, 6], [2, 3, 10]]), kl.disagreement_weights(3, None))]
        for K in (2, 3, 5):
            for _ in range(5):
                T = rng.integers(1, 20, size=(K, K))
                S = np.sort(rng.choice(50, K, replace=False))
                cases.append((T, kl.disagreement_weights(K, "quadratic", scores=S)))
        C4 = kl.confusion_matrix(data["rater"], data["model"], labels=[1, 2, 3, 4])
        own = [[arg(C4), {"call": ["weights", [4, kind]]}] for kind in ("linear", "quadratic")]
        calls = {
            "weights": [[K] for K in sizes]
            + [[K, k] for K in sizes for k in ("linear", "quadratic")],
            "weighted_kappa": [[arg(T), arg(W)] for T, W in cases] + own,
        }
        return {"values": ["C4", "k_linear", "k_quadratic", "worst_order"], "calls": calls,
                "sizes": list(sizes), "cases": [(T.tolist(), W.tolist()) for T, W in cases],
                }  # fmt: skip
    if ps == "ps3":
        return {"values": ["kappa_curve", "mcc_curve", "A_min", "kappa_min", "family"], "calls": {}}
    if ps == "ps4":
        kmax = [data["C_a"], data["C_b"], *random_tables(rng, (2, 3, 4), 4, 1, 40)]
        pabak = [data["C_a"], *random_tables(rng, (2, 3, 5), 4, 1, 40)]
        calls = {"kappa_max_by_hand": [[arg(T)] for T in kmax],
                 "pabak_by_hand": [[arg(T)] for T in pabak]}  # fmt: skip
        return {"values": ["kappa_a", "kappa_b", "higher", "se_a", "ci_a"], "calls": calls,
                "kmax": [T.tolist() for T in kmax], "pabak": [T.tolist() for T in pabak],
                }  # fmt: skip
    if ps == "ps5":
        asym = [data["M_skew"], data["M_sym"], *random_tables(rng, (2, 3, 5), 4, 0, 30)]
        ent = [data["M_skew"], data["M_sym"]] + [
            rng.integers(0, 4, size=(k, k)) + np.ones((k, k), dtype=int) * (k % 2)
            for k in (2, 3, 5)
            for _ in range(4)
        ]
        ent = [M for M in ent if M[~np.eye(len(M), dtype=bool)].sum() > 0]
        calls = {"asymmetry_by_hand": [[arg(T)] for T in asym],
                 "entropy_by_hand": [[arg(T)] for T in ent]}  # fmt: skip
        return {"values": ["gap_sym", "gap_skew", "family"], "calls": calls,
                "asym": [T.tolist() for T in asym], "ent": [T.tolist() for T in ent]}  # fmt: skip
    raise ValueError(f"ps must be one of ps1 ... ps5, got {ps!r}")


# ---------------------------------------------------------------- scoring


class Parts:
    """Collects the parts of one problem set; `check` runs one part's test, catching bad data."""

    def __init__(self, ps: str, points: dict[str, float]):
        self.ps, self.points, self.parts = ps, points, []

    def check(self, gid: str, checked: str, test):
        part = Part(f"{self.ps}-{gid}", self.points[f"{self.ps}-{gid}"], checked)
        try:
            result = test()
        except BadAnswerError as bad:
            part.problem = str(bad)
        except (ValueError, ArithmeticError) as bad:  # kappalib refused the student's data
            part.problem = f"kappalib refused your answer: {str(bad)[:200]}"
        except Exception as err:
            part.problem = f"the grader could not check this part ({type(err).__name__}: {err})"
            part.problem = part.problem[:300]
            part.grader_error = True
        else:
            ok, hint = result if isinstance(result, tuple) else (result, None)
            part.ok = bool(ok)
            if not part.ok:
                part.problem = f"not right: {checked}"
                part.hint = hint
        self.parts.append(part)
        return part.ok


def outputs(answers: dict, name: str, what: str, n: int) -> list:
    got = answers["calls"].get(name)
    if not isinstance(got, list) or len(got) != n:
        raise BadAnswerError(f"{what}: the grader got no results from your function")
    return got


def numbers_of(answers, name, what, n) -> list[float]:
    return [number(v, what) for v in outputs(answers, name, what, n)]


def value(answers: dict, name: str):
    return answers["values"].get(name, {"missing": True})


def score(ps: str, answers: dict, data: dict, req: dict, points: dict[str, float]) -> list[Part]:
    """Every part of `ps`, scored from the sandbox's `answers` (hostile data)."""
    if not isinstance(answers, dict) or not isinstance(answers.get("values"), dict):
        answers = {"values": {}, "calls": {}}
    if not isinstance(answers.get("calls"), dict):
        answers["calls"] = {}
    p = Parts(ps, points)
    globals()[f"_score_{ps}"](p, answers, data, req)
    return p.parts


def _family_parts(p: Parts, answers, entropy: bool):
    def F():
        F = table(value(answers, "family"), "family", ndim=3)
        if not (F.shape[0] >= 2 and F.shape[1] == F.shape[2] >= 2):
            raise BadAnswerError("family should have shape (m, K, K) with m >= 2 and K >= 2")
        if not counts(F):
            raise BadAnswerError("family should hold counts (whole numbers, none negative)")
        return F

    def a():
        T = table(value(answers, "family"), "family", ndim=3)
        shaped = T.shape[0] >= 2 and T.shape[1] == T.shape[2] >= 2
        hint = None if shaped else "stack the tables: shape (m, K, K) with m >= 2."
        if shaped and not counts(T):
            hint = "counts are non-negative whole numbers."
        cases = shaped and bool(np.all(T.sum(axis=(1, 2)) > 0))
        if shaped and counts(T) and not cases:
            hint = "every table needs at least one case."
        return shaped and counts(T) and cases, hint

    p.check("q4a-counts" if entropy else "q2a-counts",
            "family is a stack of count tables, each with at least one case", a)  # fmt: skip

    def ordered(T):
        off = ~np.eye(T.shape[1], dtype=bool)
        same = all(close(np.diag(f), np.diag(T[0])) for f in T)
        more = all(
            bool(np.all(T[i + 1][off] >= T[i][off])) and T[i + 1][off].sum() > T[i][off].sum()
            for i in range(len(T) - 1)
        )
        return same and more

    def b():
        T = F()
        if not ordered(T):
            return False, "keep the diagonal fixed and only add errors from one matrix to the next."
        if entropy:
            h = kl.off_diagonal_entropy(T, zero_division=0.0)
            if not np.all(np.diff(h) < 0):
                return (
                    False,
                    "add the new errors where most errors already are, so they concentrate.",
                )
        return True

    what = "the same diagonal and more errors from one matrix to the next"
    p.check("q4b-worse" if entropy else "q2b-worse",
            what + (", with falling off-diagonal entropy" if entropy else ""), b)  # fmt: skip

    def c():
        T = F()
        if T.sum(axis=(1, 2)).min() <= 0:
            raise BadAnswerError("every table of family needs at least one case")
        k, m = kl.kappa(T), kl.mcc(T)
        if np.isnan(k).any() or np.isnan(m).any():
            raise BadAnswerError("kappa and MCC must be defined for every table of family")
        flips = (np.diff(k) > 1e-12) & (np.diff(m) < -1e-12)
        return bool(flips.any()), "kappa never rises while MCC falls along your family."

    p.check("q4c-flip" if entropy else "q2c-flip",
            "kappa rises somewhere along family while MCC falls", c)  # fmt: skip


def _score_ps1(p: Parts, answers, data, req):
    tables = [np.array(T) for T in req["tables"]]
    n = len(tables)
    po = [kl.observed_agreement(T) for T in tables]
    pe = [kl.expected_agreement(T) for T in tables]

    def q1a():
        got = numbers_of(answers, "observed", "observed(C)", n)
        hint = None
        if any(close(g, np.trace(T)) for g, T in zip(got, tables, strict=True)):
            hint = "p_o is a share: divide the diagonal by the total number of cases."
        return all(close(g, w) for g, w in zip(got, po, strict=True)), hint

    p.check(
        "q1a-observed", f"observed(C) on your table and on {n - 1} tables of 2 to 6 classes", q1a
    )

    def q1b():
        got = numbers_of(answers, "expected", "expected(C)", n)
        ok = all(close(g, w) for g, w in zip(got, pe, strict=True))
        hint = None
        for g, T, o in zip(got, tables, po, strict=True):
            r, c = T.sum(axis=1) / T.sum(), T.sum(axis=0) / T.sum()
            if close(g, o) and not close(o, r @ c):
                hint = (
                    "p_e comes from the marginals (row and column totals), not from the diagonal."
                )
            elif (close(g, r @ r) or close(g, c @ c)) and not close(r @ r, r @ c):
                hint = (
                    "each rater keeps their own proportions: use row AND column totals, r_k * c_k."
                )
            elif close(g, r @ c * T.sum()):
                hint = "p_e is a share of cases: use proportions (totals divided by N), not counts."
        return ok, hint

    p.check(
        "q1b-expected", f"expected(C) on your table and on {n - 1} tables of 2 to 6 classes", q1b
    )

    def q1c():
        got = numbers_of(answers, "kappa_by_hand", "kappa_by_hand(C)", n)
        try:
            own_po = numbers_of(answers, "observed", "observed(C)", n)
            own_pe = numbers_of(answers, "expected", "expected(C)", n)
        except BadAnswerError:
            own_po = own_pe = None
        right = [close(g, kl.kappa(T)) for g, T in zip(got, tables, strict=True)]
        if all(right):
            return True
        if own_po is not None:  # charged once: right given the student's own p_o and p_e
            po_ok = all(close(a, b) for a, b in zip(own_po, po, strict=True))
            pe_ok = all(close(a, b) for a, b in zip(own_pe, pe, strict=True))
            own = [
                e != 1 and close(g, (o - e) / (1 - e))
                for g, o, e in zip(got, own_po, own_pe, strict=True)
            ]
            if (po_ok or pe_ok) and all(r or w for r, w in zip(right, own, strict=True)):
                return True
            if any(close(g, o - e) for g, o, e in zip(got, own_po, own_pe, strict=True)):
                return (
                    False,
                    "kappa divides p_o - p_e by 1 - p_e, the room chance leaves for agreement.",
                )
        return False

    p.check("q1c-kappa", f"kappa_by_hand(C) on your table and on {n - 1} tables", q1c)

    def q2a():
        T = table(value(answers, "C_target"), "C_target", ndim=2)
        if not (T.shape[0] == T.shape[1] >= 2):
            return False, "C_target must be a square 2-D array, at least 2 x 2."
        if not counts(T):
            return False, "counts are non-negative whole numbers: scale a table of proportions up."
        return T.sum() > 0, "a table of counts needs at least one case."

    p.check("q2a-counts", "C_target is a square table of counts with at least one case", q2a)

    def q2b():
        T = table(value(answers, "C_target"), "C_target", ndim=2)
        if not (T.shape[0] == T.shape[1] >= 2) or T.sum() <= 0 or np.any(T < 0):
            raise BadAnswerError(
                "C_target should be a square table of counts with at least one case"
            )
        po_ok = close(kl.observed_agreement(T), data["target_po"])
        k_ok = close(kl.kappa(T, zero_division=0.0), data["target_kappa"])
        hint = "p_o is right. kappa and p_o fix p_e: solve (p_o - p_e) / (1 - p_e) = kappa."
        return po_ok and k_ok, hint if po_ok else None

    p.check("q2b-targets", "p_o and kappa of C_target against your targets", q2b)

    def q3a():
        U = table(value(answers, "C_undefined"), "C_undefined", ndim=2)
        if U.shape != (2, 2):
            return False, "the question asks for a 2 x 2 table."
        if not counts(U) or U.sum() <= 0:
            return False, "a table of counts (whole numbers >= 0) with at least one case."
        hint = "kappa is 0/0 only when 1 - p_e = 0. Which tables make chance agreement certain?"
        return kl.kappa(U) is None, hint

    p.check("q3a-undefined", "kappalib finds kappa undefined on C_undefined (2 x 2 counts)", q3a)

    def q3b():
        s = text(value(answers, "statement"), "statement")
        if s not in STATEMENTS:
            raise BadAnswerError('statement should be "a", "b" or "c"')
        refuted = {
            "a": kl.kappa(np.array([[5, 0], [0, 5]])) is not None,
            "c": kl.kappa(np.array([[1, 1], [1, 1]])) is not None,
            "b": False,
        }
        for single in (
            np.array([[7, 0], [0, 0]]),
            np.array([[0, 0], [0, 7]]),
            np.array([[3, 0], [0, 4]]),
        ):
            refuted["b"] |= close(kl.expected_agreement(single), 1.0) != (kl.kappa(single) is None)
        hints = {"a": "try kl.kappa on [[5, 0], [0, 5]]: p_o = 1 there.",
                 "c": "try kl.kappa on [[1, 1], [1, 1]]: p_o = p_e there."}  # fmt: skip
        return not refuted[s], hints.get(s)

    p.check("q3b-statement", "the chosen statement against kappalib on small tables", q3b)


def _score_ps2(p: Parts, answers, data, req):
    sizes = req["sizes"]

    def got_w():
        return outputs(answers, "weights", "weights(K, kind)", len(sizes) * 3)

    def q1a():
        flat = got_w()[: len(sizes)]
        Ws = [table(v, f"weights({K})", ndim=2) for v, K in zip(flat, sizes, strict=True)]
        hint = None
        if any(W.shape == (K, K) and close(W, np.eye(K)) for W, K in zip(Ws, sizes, strict=True)):
            hint = "those are agreement weights (1 on the diagonal). Charge 1 for a disagreement."
        ok = all(close(W, kl.disagreement_weights(K, None)) for W, K in zip(Ws, sizes, strict=True))
        return ok, hint

    p.check("q1a-flat", f"weights(K) for K = {', '.join(map(str, sizes))}", q1a)

    def q1b():
        keys = [(K, k) for K in sizes for k in ("linear", "quadratic")]
        ordered = got_w()[len(sizes) :]
        Ws = [
            table(v, f"weights({K}, {k!r})", ndim=2)
            for v, (K, k) in zip(ordered, keys, strict=True)
        ]
        hint = None
        for W, (K, k) in zip(Ws, keys, strict=True):
            if W.shape == (K, K) and np.any(np.diag(W) != 0):
                hint = "disagreement weights are 0 on the diagonal; agreement costs nothing."
            elif k == "quadratic" and close(W, kl.disagreement_weights(K, "linear")) and K > 2:
                hint = "(quadratic) square the distance between positions."
        ok = all(
            close(W, kl.disagreement_weights(K, k)) for W, (K, k) in zip(Ws, keys, strict=True)
        )
        return ok, hint

    p.check("q1b-ordered", "weights(K, 'linear') and weights(K, 'quadratic') for K = 2 to 7", q1b)

    cases = [(np.array(T), np.array(W)) for T, W in req["cases"]]

    def got_k():
        return outputs(answers, "weighted_kappa", "weighted_kappa(C, W)", len(cases) + 2)

    def q2():
        got = [number(v, "weighted_kappa(C, W)") for v in got_k()[: len(cases)]]
        hint = None
        if not close(got[0], kl.kappa(cases[0][0])):
            hint = (
                "with flat weights, weighted kappa must equal Cohen's kappa: check E = r c^T / N."
            )
        return all(
            close(g, kl.kappa(T, weighting=W)) for g, (T, W) in zip(got, cases, strict=True)
        ), hint

    p.check(
        "q2-tests", f"weighted_kappa(C, W) on {len(cases)} tables with flat and uneven weights", q2
    )
    C4 = kl.confusion_matrix(data["rater"], data["model"], labels=[1, 2, 3, 4])

    def q3a():
        T = table(value(answers, "C4"), "C4", ndim=2)
        if T.shape != (4, 4):
            return (
                False,
                "C4 is 4 x 4: pass labels=[1, 2, 3, 4] so that every grade has a row and a column.",
            )
        if close(T, C4.T) and not close(C4, C4.T):
            return False, "rows are the rater (the reference), columns the model."
        return close(T, C4)

    p.check("q3a-matrix", "C4 against your ratings", q3a)

    three = (("q3b-linear", "linear", "k_linear"), ("q3c-quadratic", "quadratic", "k_quadratic"))
    for i, (gid, kind, name) in enumerate(three):

        def q3(kind=kind, name=name, i=i):
            g = number(value(answers, name), name)
            try:
                own = number(got_k()[len(cases) + i], "your weighted_kappa with your weights")
            except BadAnswerError:
                own = None
            # Charged once: right given the student's own functions, when one of them is right.
            one_right = any(
                q.ok for q in p.parts if q.grade_id in ("ps2-q1b-ordered", "ps2-q2-tests")
            )
            try:  # and weighted_kappa is a function of its input, not a constant
                tested = [number(v, "weighted_kappa(C, W)") for v in got_k()[: len(cases)]]
                one_right = one_right and varies(
                    tested, [kl.kappa(T, weighting=W) for T, W in cases]
                )
            except BadAnswerError:
                one_right = False
            if close(g, kl.kappa(C4, weighting=kind)) or (
                own is not None and one_right and close(g, own)
            ):
                return True
            if close(g, kl.kappa(C4)):
                return False, "that is the unweighted value: pass the weight matrix."
            if kind == "quadratic" and close(g, kl.kappa(C4, weighting="linear")):
                return False, "that is the linear value: quadratic charges (i - j)^2."
            return False

        p.check(gid, f"{name} on your ratings (right, or right given your own functions)", q3)

    def q4():
        order = table(value(answers, "worst_order"), "worst_order", ndim=1)
        if sorted(order.tolist()) != [1, 2, 3, 4]:
            raise BadAnswerError("worst_order should be an order of the labels 1 to 4")

        def qk(o):
            return kl.cohen_kappa_score(data["rater"], data["model"], weighting="quadratic",
                                        labels=[int(x) for x in o])  # fmt: skip

        every = [qk(o) for o in itertools.permutations([1, 2, 3, 4])]
        mine = qk(order)
        hint = None
        if close(mine, max(every)):
            hint = "that order gives the LARGEST quadratic kappa. Try every order."
        return close(mine, min(every)), hint

    p.check("q4-tests", "quadratic kappa of worst_order on your ratings, against every order", q4)


def _score_ps3(p: Parts, answers, data, req):
    grid, K = np.asarray(data["A_grid"], dtype=float), int(data["K"])
    stack = families.ZA(grid, K)

    def q1a():
        kc = table(value(answers, "kappa_curve"), "kappa_curve", ndim=1)
        mc = table(value(answers, "mcc_curve"), "mcc_curve", ndim=1)
        if kc.shape != grid.shape or mc.shape != grid.shape:
            return (
                False,
                "one value per grid point: pass the whole grid to families.ZA, then to kl.kappa.",
            )
        return close(kc, kl.kappa(stack)) and close(mc, kl.mcc(stack))

    p.check("q1a-curves", "kappa_curve and mcc_curve against Z_A with your K", q1a)

    def q1b():
        a = number(value(answers, "A_min"), "A_min")
        best = float(grid[np.argmin(kl.kappa(stack))])
        hint = None
        if close(a, grid[0]) or close(a, grid[-1]):
            hint = "the minimum is inside the grid; did you take argmax, or the curve of MCC?"
        elif abs(a - cf.argmin_kappa_ZA(K)) > 0.02:
            hint = "use your K (setup cell) for the number of classes."
        return close(a, best), hint

    p.check("q1b-argmin", "A_min: the grid point where kappa of Z_A is smallest", q1b)

    def q1c():
        v, a = (
            number(value(answers, "kappa_min"), "kappa_min"),
            number(value(answers, "A_min"), "A_min"),
        )
        if a < 0:
            raise BadAnswerError("A_min should be a count of at least 0")
        if close(v, float(np.min(kl.kappa(stack)))):
            return True
        # charged once: right at the student's own A_min, when that is a point they searched
        # for (inside the grid: an end of it is where a constant or a wrong search lands)
        return bool(grid[0] < a < grid[-1]) and close(v, cf.kappa_ZA(a, K))

    p.check("q1c-minimum", "kappa_min against the closed form at your A_min", q1c)
    _family_parts(p, answers, entropy=False)


def _score_ps4(p: Parts, answers, data, req):
    kmax = [np.array(T) for T in req["kmax"]]
    pab = [np.array(T) for T in req["pabak"]]

    def q1():
        got = numbers_of(answers, "kappa_max_by_hand", "kappa_max_by_hand(C)", len(kmax))
        hint = None
        if any(
            close(g, 1.0) and not close(kl.kappa_max(T), 1.0)
            for g, T in zip(got, kmax, strict=True)
        ):
            hint = "1 is the ceiling of kappa itself; the margins lower it: use min(r_k, c_k)."
        return all(close(g, kl.kappa_max(T)) for g, T in zip(got, kmax, strict=True)), hint

    p.check("q1-tests", f"kappa_max_by_hand(C) on your tables and on {len(kmax) - 2} tables", q1)

    def q2():
        got = numbers_of(answers, "pabak_by_hand", "pabak_by_hand(C)", len(pab))
        hint = None
        for g, T in zip(got, pab, strict=True):
            if len(T) > 2 and close(g, 2 * kl.observed_agreement(T) - 1):
                hint = "the baseline is 1/K for K classes, not always 1/2."
        return all(close(g, kl.pabak(T)) for g, T in zip(got, pab, strict=True)), hint

    p.check(
        "q2-tests",
        f"pabak_by_hand(C) on your table and on {len(pab) - 1} tables of 2 to 5 classes",
        q2,
    )
    Ca, Cb, conf = data["C_a"], data["C_b"], float(data["confidence"])

    def q3a():
        ka, kb = (
            number(value(answers, "kappa_a"), "kappa_a"),
            number(value(answers, "kappa_b"), "kappa_b"),
        )
        return close(ka, kl.kappa(Ca)) and close(kb, kl.kappa(Cb))

    p.check("q3a-kappas", "kappa_a and kappa_b on your C_a and C_b", q3a)

    def q3b():
        h = text(value(answers, "higher"), "higher")
        if h not in ("a", "b"):
            raise BadAnswerError('higher should be "a" or "b"')
        return h == ("a" if kl.kappa(Ca) > kl.kappa(Cb) else "b")

    p.check("q3b-higher", "the classifier that kappa ranks higher on your tables", q3b)

    def q4a():
        return close(number(value(answers, "se_a"), "se_a"), kl.kappa_standard_error(Ca))

    p.check("q4a-se", "se_a on your C_a", q4a)

    def q4b():
        ci = table(value(answers, "ci_a"), "ci_a", ndim=1)
        if ci.shape != (2,):
            raise BadAnswerError("ci_a should be a (low, high) pair")
        lo, hi = ci.tolist()
        want = kl.kappa_confint(Ca, confidence_level=conf)
        if close(lo, want[0]) and close(hi, want[1]):
            return True
        try:
            se = number(value(answers, "se_a"), "se_a")
        except BadAnswerError:
            se = None
        k, z = kl.kappa(Ca), NormalDist().inv_cdf(0.5 + conf / 2)
        if (
            se is not None
            and se > 0
            and hi > lo
            and close(lo, k - z * se)
            and close(hi, k + z * se)
        ):
            return True
        hint = None
        if se is not None and conf != 0.95 and close(hi - lo, 2 * 1.96 * se):
            hint = "use your confidence level (setup cell), not 95%."
        return False, hint

    p.check("q4b-interval", "ci_a on your C_a at your confidence (or right given your se_a)", q4b)


def _score_ps5(p: Parts, answers, data, req):
    asym = [np.array(T) for T in req["asym"]]
    ent = [np.array(T) for T in req["ent"]]

    def q1():
        got = numbers_of(answers, "asymmetry_by_hand", "asymmetry_by_hand(C)", len(asym))
        hint = None
        if any(
            close(g, np.abs(T - T.T).sum()) and not close(g, kl.asymmetry(T))
            for g, T in zip(got, asym, strict=True)
        ):
            hint = "that is the sum of absolute differences; the Frobenius norm squares them."
        return all(close(g, kl.asymmetry(T)) for g, T in zip(got, asym, strict=True)), hint

    p.check("q1-tests", f"asymmetry_by_hand(C) on your tables and on {len(asym) - 2} tables", q1)

    def q2():
        got = numbers_of(answers, "entropy_by_hand", "entropy_by_hand(C)", len(ent))
        hint = None
        bits = [kl.off_diagonal_entropy(T) for T in ent]
        nats = [kl.off_diagonal_entropy(T, base=np.e) for T in ent]
        if any(close(g, n) and not close(g, b) for g, n, b in zip(got, nats, bits, strict=True)):
            hint = "entropy in bits: use log base 2."
        return all(
            close(g, kl.off_diagonal_entropy(T)) for g, T in zip(got, ent, strict=True)
        ), hint

    p.check("q2-tests", "entropy_by_hand(C) on your tables and on tables with empty cells", q2)
    Ms, Mk = data["M_sym"], data["M_skew"]

    def q3a():
        return close(number(value(answers, "gap_sym"), "gap_sym"), kl.kappa(Ms) - kl.mcc(Ms))

    p.check("q3a-sym", "gap_sym on your M_sym", q3a)

    def q3b():
        g = number(value(answers, "gap_skew"), "gap_skew")
        hint = "the gap is kappa minus MCC, not MCC minus kappa."
        return close(g, kl.kappa(Mk) - kl.mcc(Mk)), hint if close(
            g, kl.mcc(Mk) - kl.kappa(Mk)
        ) else None

    p.check("q3b-skew", "gap_skew on your M_skew", q3b)
    _family_parts(p, answers, entropy=True)
