"""kappalib.families against the definitions of Delgado & Tibau (2019).

Each family is checked cell by cell against the matrix printed in the paper, for its
broadcasting, and against the asymmetry and entropy formulas the paper gives for it
(rebuilt from the PDF text and checked here with kl.asymmetry / kl.off_diagonal_entropy).
Tables 1 and 2 are checked to the digits the paper prints.
"""

import numpy as np
import pytest

import kappalib as kl
from kappalib import families

A_GRID = np.array([1.0, 1.5, 2.0, 5.0, 10.0, 37.0, 100.0])


def test_C0_and_C1_cells():
    a, b, d = 2.0, 3.0, 5.0
    np.testing.assert_array_equal(families.C0(a, b, d), [[a, b], [0, d]])
    np.testing.assert_array_equal(families.C1(a, b, d), [[a, b], [1, d]])
    # the three scenarios of Corollaries 4-6
    np.testing.assert_array_equal(families.C1(a, b, a), [[a, b], [1, a]])
    np.testing.assert_array_equal(families.C1(a, b, 0), [[a, b], [1, 0]])
    np.testing.assert_array_equal(families.C1(a, b, 1), [[a, b], [1, 1]])


def test_binary_families_broadcast():
    a = np.linspace(0.1, 1, 4)[:, None]
    b = np.linspace(0, 30, 7)
    C = families.C1(a, b, a)
    assert C.shape == (4, 7, 2, 2)
    np.testing.assert_array_equal(C[..., 0, 1], np.broadcast_to(b, (4, 7)))
    np.testing.assert_array_equal(C[..., 1, 0], 1.0)
    np.testing.assert_array_equal(C[..., 1, 1], np.broadcast_to(a, (4, 7)))
    assert families.C0(1, 2, 3).shape == (2, 2)
    assert families.C0(1, 2, 3).dtype == np.float64


def test_remarks_1_and_3_equivalent_matrices():
    # Remark 1: C1(0.2, b, 0.2) is equivalent to [[1, 5b], [5, 1]]; Remark 3: C1(0.2, b, 1)
    # to [[1, 5b], [5, 5]].  Equivalent = a positive multiple, so kappa and MCC agree.
    b = np.linspace(0.1, 30, 50)
    for d, ref in ((0.2, lambda b: [[1, 5 * b], [5, 1]]), (1.0, lambda b: [[1, 5 * b], [5, 5]])):
        C = families.C1(0.2, b, d)
        R = np.stack([np.array(ref(x), dtype=float) for x in b])
        np.testing.assert_allclose(5 * C, R, rtol=1e-12)
        np.testing.assert_allclose(kl.kappa(C), kl.kappa(R), rtol=1e-12)
        np.testing.assert_allclose(kl.mcc(C), kl.mcc(R), rtol=1e-12)


@pytest.mark.parametrize("N", [2, 3, 5, 10])
def test_ZA_cells(N):
    A = np.array([0.0, 3.0, 50.0])
    Z = families.ZA(A, N)
    assert Z.shape == (3, N, N)
    for k, value in enumerate(A):
        expected = np.ones((N, N))
        expected[0, N - 1] = value  # top-right cell: class 1 predicted as class N
        np.testing.assert_array_equal(Z[k], expected)


@pytest.mark.parametrize("bad", [1, 0, 2.0, True, "3"])
def test_ZA_rejects_bad_n_classes(bad):
    with pytest.raises(ValueError, match="n_classes must be an integer of at least 2"):
        families.ZA(1.0, bad)


def test_M_families_cells():
    A = 3.0
    np.testing.assert_array_equal(families.M1(A), [[1, 2 * A, A], [A, 1, 2 * A], [A, A, 1]])
    np.testing.assert_array_equal(families.M2(A), [[1, A, 1], [1, 1, A * A], [1, 1, 1]])
    B = 1000 - A
    np.testing.assert_array_equal(
        families.M3(A), [[1, B, B], [B + 100, 1, B], [B + 100, B + 100, 1]]
    )
    B = 100 - A
    np.testing.assert_array_equal(families.M4(A), [[1, A, 1], [A * A, 1, B], [1, B * B, 1]])
    np.testing.assert_array_equal(families.M5(A), [[1, 2 * A, A], [A, 1, A + 100], [A, A, 1]])


@pytest.mark.parametrize("name", ["M1", "M2", "M3", "M4", "M5"])
def test_M_families_broadcast(name):
    f = getattr(families, name)
    A = np.linspace(1, 99, 12).reshape(3, 4)
    M = f(A)
    assert M.shape == (3, 4, 3, 3)
    np.testing.assert_array_equal(M[1, 2], f(A[1, 2]))


# The paper's asymmetry and entropy formulas for each example (log base 2).
log2 = np.log2


def test_M1_asymmetry_and_entropy():
    # Example (a): Asy(M1(A)) = 2A; Ent = Ent({2A, A, A, 2A, A, A}) = 2.5
    M = families.M1(A_GRID)
    np.testing.assert_allclose(kl.asymmetry(M), 2 * A_GRID, rtol=1e-12)
    np.testing.assert_allclose(kl.off_diagonal_entropy(M), 2.5, rtol=1e-12)


def test_M2_asymmetry_and_entropy():
    # Example (b): Asy = sqrt(2)(A - 1) sqrt(1 + (A + 1)^2);
    # Ent = log(A(A + 1) + 4) - A(2A + 1) log(A) / (A(A + 1) + 4), decreasing to 0
    A = A_GRID[A_GRID > 1]
    M = families.M2(A)
    asy = np.sqrt(2) * (A - 1) * np.sqrt(1 + (A + 1) ** 2)
    g = A * (A + 1) + 4
    ent = log2(g) - A * (2 * A + 1) * log2(A) / g
    np.testing.assert_allclose(kl.asymmetry(M), asy, rtol=1e-12)
    np.testing.assert_allclose(kl.off_diagonal_entropy(M), ent, rtol=1e-12)
    assert (np.diff(kl.off_diagonal_entropy(M)) < 0).all()


def test_M3_asymmetry_and_entropy():
    # Example (c), B = 1000 - A: Asy = 100 sqrt(6), constant;
    # Ent = log(6B + 300) - (3B log B + 3(B + 100) log(B + 100)) / (6B + 300) -> log 3
    A = np.array([0.0, 100.0, 500.0, 900.0, 999.0])
    B = 1000 - A
    M = families.M3(A)
    np.testing.assert_allclose(kl.asymmetry(M), 100 * np.sqrt(6), rtol=1e-12)
    ent = log2(6 * B + 300) - (3 * B * log2(B) + 3 * (B + 100) * log2(B + 100)) / (6 * B + 300)
    np.testing.assert_allclose(kl.off_diagonal_entropy(M), ent, rtol=1e-12)
    assert (np.diff(ent) < 0).all() and ent[-1] > log2(300) - log2(100)


def test_M4_asymmetry_and_entropy():
    # Example (d), B = 100 - A: Asy = sqrt(2) sqrt(A^2 (A - 1)^2 + (100 - A)^2 (99 - A)^2);
    # Ent = log g - (A(2A + 1) log A + (100 - A)(201 - 2A) log(100 - A)) / g,
    # g = A(A + 1) + (100 - A)(101 - A) + 2
    A = np.array([50.0, 60.0, 70.0, 80.0, 90.0, 99.0])
    M = families.M4(A)
    asy = np.sqrt(2) * np.sqrt(A**2 * (A - 1) ** 2 + (100 - A) ** 2 * (99 - A) ** 2)
    g = A * (A + 1) + (100 - A) * (101 - A) + 2
    ent = log2(g) - (A * (2 * A + 1) * log2(A) + (100 - A) * (201 - 2 * A) * log2(100 - A)) / g
    np.testing.assert_allclose(kl.asymmetry(M), asy, rtol=1e-12)
    np.testing.assert_allclose(kl.off_diagonal_entropy(M), ent, rtol=1e-12)


def test_M5_asymmetry_and_entropy():
    # Example (e): Asy = sqrt(2) sqrt(A^2 + 100^2).  The off-diagonal cells are
    # {2A, A, A, A + 100, A, A}, so sum n log n = 2A + 6A log A + (A + 100) log(A + 100)
    # (log(2A) = 1 + log A) and Ent = log(7A + 100) - that / (7A + 100), which tends to
    # log 7 - 2/7 as the paper says.  The PDF text prints "8A log(A)" in place of
    # "2A + 6A log(A)"; that expression would tend to -infinity, not to log 7 - 2/7.
    A = A_GRID
    M = families.M5(A)
    np.testing.assert_allclose(kl.asymmetry(M), np.sqrt(2) * np.sqrt(A**2 + 100**2), rtol=1e-12)
    T = 7 * A + 100
    ent = log2(T) - (2 * A + 6 * A * log2(A) + (A + 100) * log2(A + 100)) / T
    np.testing.assert_allclose(kl.off_diagonal_entropy(M), ent, rtol=1e-12)
    printed = log2(T) - (8 * A * log2(A) + (A + 100) * log2(A + 100)) / T
    assert not np.allclose(printed[1:], ent[1:])
    big = 10.0 ** np.arange(3, 9)
    err = np.abs(kl.off_diagonal_entropy(families.M5(big)) - (log2(7) - 2 / 7))
    assert (np.diff(err) < 0).all() and err[-1] < 1e-5


@pytest.mark.parametrize("N", [2, 3, 5])
def test_ZA_and_C1_asymmetry_and_entropy(N):
    # Remark 4: Asy(Z_A) = sqrt(2)|A - 1|.  The off-diagonal cells of Z_A are N^2 - N - 1
    # ones and A, so Ent(Z_A) = log(T) - A log(A)/T with T = N^2 - N - 1 + A.  The paper
    # prints T = N^2 - 1 + A, the total of the whole matrix (diagonal included); both tend
    # to 0 as A grows, but only the first is the entropy.  For C1 = [[a, b], [1, d]]:
    # Asy = sqrt(2)|b - 1|, Ent = Ent({1, b}) = log(b + 1) - b log(b)/(b + 1).
    A = A_GRID
    Z = families.ZA(A, N)
    np.testing.assert_allclose(kl.asymmetry(Z), np.sqrt(2) * np.abs(A - 1), rtol=1e-12, atol=0)
    T = N * N - N - 1 + A  # off-diagonal total
    np.testing.assert_allclose(
        kl.off_diagonal_entropy(Z), log2(T) - A * log2(A) / T, rtol=1e-12, atol=1e-15
    )
    T_paper = N * N - 1 + A
    assert not np.allclose(kl.off_diagonal_entropy(Z), log2(T_paper) - A * log2(A) / T_paper)
    b = A_GRID
    C = families.C1(0.3, b, 2.0)
    np.testing.assert_allclose(kl.asymmetry(C), np.sqrt(2) * np.abs(b - 1), rtol=1e-12, atol=0)
    np.testing.assert_allclose(
        kl.off_diagonal_entropy(C), log2(b + 1) - b * log2(b) / (b + 1), rtol=1e-12, atol=1e-15
    )


# Tables 1 and 2 of the paper, to the digits printed (Asy is printed with 2 correct decimals).
TABLE_1 = {  # M2(A): MCC, Kappa, Asy, Ent
    10: (-0.3879, -0.1002, 140.5845, 0.7135),
    25: (-0.4478, -0.0410, 883.1217, 0.2998),
    50: (-0.4722, -0.0203, 3534.7990, 0.1590),
    75: (-0.4810, -0.0135, 7954.2260, 0.1108),
    100: (-0.4856, -0.0101, 14141.4100, 0.0859),
}
TABLE_2 = {  # M4(A)
    50: (-0.5081, -0.3500, 4900.0000, 1.1442),
    60: (-0.5114, -0.2900, 5470.868, 1.0319),
    70: (-0.5249, -0.1735, 6940.576, 0.7554),
    80: (-0.5653, -0.0817, 8953.971, 0.4418),
    90: (-0.7032, -0.0341, 11328.5700, 0.1970),
    100: (-0.9659, -0.0200, 14000.7100, 0.0830),
}


@pytest.mark.parametrize(("family", "table"), [("M2", TABLE_1), ("M4", TABLE_2)])
def test_tables_1_and_2(family, table):
    f = getattr(families, family)
    A = np.array(sorted(table), dtype=float)
    M = f(A)
    got = np.stack([kl.mcc(M), kl.kappa(M), kl.asymmetry(M), kl.off_diagonal_entropy(M)], axis=1)
    want = np.array([table[int(x)] for x in A])
    np.testing.assert_allclose(got[:, [0, 1, 3]], want[:, [0, 1, 3]], rtol=0, atol=5e-5)
    np.testing.assert_allclose(got[:, 2], want[:, 2], rtol=0, atol=5e-3)
