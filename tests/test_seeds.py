"""The worked numbers of the source documents (seeds 001-004) and of Fleiss et al. (1969).

Each expected value is the published one; where a seed prints a truncated decimal, the exact
fraction is given beside it.
"""

import math

import numpy as np
import pytest

import kappalib as kl

SEED_001 = [[8, 2], [1, 9]]
RATER = [1, 1, 2, 2, 3, 3, 1, 3]  # seed 003
MODEL = [1, 3, 2, 1, 3, 2, 1, 3]
R1 = ["yes", "no", "yes", "no", "yes", "no", "yes", "no", "yes"]  # seed 004
R2 = ["yes", "yes", "yes", "no", "no", "no", "yes", "yes", "yes"]
FLEISS_1969 = [[106, 10, 4], [22, 28, 10], [2, 12, 6]]
FLEISS_1969_W = [[0, 1, 1 - 0.4444], [1, 0, 1 - 0.6667], [1 - 0.4444, 1 - 0.6667, 0]]


def test_seed_001_table():
    assert kl.observed_agreement(SEED_001) == pytest.approx(0.85, abs=1e-15)
    assert kl.expected_agreement(SEED_001) == pytest.approx(0.5, abs=1e-15)
    assert kl.kappa(SEED_001) == pytest.approx(0.7, abs=1e-15)
    # the seed's margins: rows 0.5/0.5, columns 0.45/0.55
    C = np.asarray(SEED_001)
    assert C.sum(axis=1).tolist() == [10, 10]
    assert C.sum(axis=0).tolist() == [9, 11]


def test_seed_001_scalar_results_are_python_floats():
    assert type(kl.kappa(SEED_001)) is float
    assert repr(kl.kappa(SEED_001)) == "0.7"
    assert type(kl.mcc(SEED_001)) is float


def test_seed_003_flat_linear_quadratic():
    assert kl.cohen_kappa_score(RATER, MODEL) == pytest.approx(3 / 7, abs=1e-12)  # 0.4285...
    assert kl.cohen_kappa_score(RATER, MODEL, weighting="linear") == pytest.approx(
        7 / 15, abs=1e-12
    )  # 0.4666...
    assert kl.cohen_kappa_score(RATER, MODEL, weighting="quadratic") == pytest.approx(
        0.5, abs=1e-12
    )
    assert str(kl.cohen_kappa_score(RATER, MODEL))[:6] == "0.4285"
    assert str(kl.cohen_kappa_score(RATER, MODEL, weighting="linear"))[:6] == "0.4666"


def test_seed_003_label_order_trap():
    quad = kl.cohen_kappa_score(RATER, MODEL, weighting="quadratic", labels=[3, 1, 2])
    assert quad == pytest.approx(5 / 13, abs=1e-12)  # 0.3846...
    assert str(quad)[:6] == "0.3846"
    flat = kl.cohen_kappa_score(RATER, MODEL, labels=[3, 1, 2])
    assert flat == pytest.approx(kl.cohen_kappa_score(RATER, MODEL), abs=1e-15)


def test_seed_004_yes_no():
    C = kl.confusion_matrix(R1, R2, labels=["yes", "no"])
    assert C.tolist() == [[4, 1], [2, 2]]
    assert kl.cohen_kappa_score(R1, R2) == pytest.approx(4 / 13, abs=1e-12)  # 0.3076923...
    assert str(kl.cohen_kappa_score(R1, R2))[:9] == "0.3076923"


def test_seed_004_special_cases():
    # "opposite votes give 0": p_o = 0 and p_e = 0
    assert kl.cohen_kappa_score(["yes"] * 9, ["no"] * 9) == 0.0
    # "few agreements give a negative value"
    few = ["yes", "yes", "no", "no", "yes", "yes", "no", "no", "yes"]
    assert kl.cohen_kappa_score(few, R2) < 0


def test_single_shared_class_is_none():
    assert kl.cohen_kappa_score(["a"] * 5, ["a"] * 5) is None
    assert kl.kappa([[7]]) is None
    assert kl.kappa([[7, 0], [0, 0]]) is None
    assert kl.matthews_corrcoef([1, 1, 1], [1, 1, 1]) is None


def test_fleiss_cohen_everitt_1969_values():
    assert kl.kappa(FLEISS_1969) == pytest.approx(0.4286, abs=5e-5)
    assert kl.kappa_standard_error(FLEISS_1969) == pytest.approx(0.0537, abs=5e-5)
    assert kl.kappa(FLEISS_1969, weighting=FLEISS_1969_W) == pytest.approx(0.5071, abs=5e-5)
    assert kl.kappa_standard_error(FLEISS_1969, weighting=FLEISS_1969_W) == pytest.approx(
        0.0570, abs=5e-5
    )


def test_binary_mcc_is_matthews_formula():
    a, b, c, d = 8, 2, 1, 9
    expected = (a * d - b * c) / math.sqrt((a + b) * (a + c) * (b + d) * (c + d))
    assert kl.mcc([[a, b], [c, d]]) == pytest.approx(expected, abs=1e-15)


def test_delgado_tibau_m1_diagnostics():
    for A in (1.0, 3.0, 50.0):
        M1 = [[1, 2 * A, A], [A, 1, 2 * A], [A, A, 1]]
        assert kl.asymmetry(M1) == pytest.approx(2 * A, rel=1e-14)  # Asy(M1(A)) = 2A
        assert kl.off_diagonal_entropy(M1) == pytest.approx(2.5, abs=1e-14)  # paper: 2.5
