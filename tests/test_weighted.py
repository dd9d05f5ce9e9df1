"""Weighted kappa (issue 4): named weightings, scores, custom matrices, the label-order trap.

The oracles are independent of kappalib: a hand formula built in the test from an explicit
weight matrix, statsmodels' ``cohens_kappa`` (whose 1-D ``weights`` are scores), and
moments of the expanded label vectors (``np.cov``/``np.corrcoef``).  The seed 003 worked
values and the Fleiss, Cohen & Everitt (1969) table are also in ``test_seeds.py``; the
statsmodels parity of the standard error by position is in ``test_parity.py``.
"""

import itertools
from statistics import NormalDist

import numpy as np
import pytest
from matrices import labels_of
from sklearn.metrics import cohen_kappa_score as sk_kappa
from statsmodels.stats.inter_rater import cohens_kappa as sm_kappa

import kappalib as kl

RATER = [1, 1, 2, 2, 3, 3, 1, 3]  # seed 003
MODEL = [1, 3, 2, 1, 3, 2, 1, 3]
SEED_003 = np.array([[2, 0, 1], [1, 1, 0], [0, 1, 2]])
FLEISS_1969 = np.array([[106, 10, 4], [22, 28, 10], [2, 12, 6]])
FLEISS_1969_AGREEMENT = np.array([[1, 0, 0.4444], [0, 1, 0.6667], [0.4444, 0.6667, 1]])


def hand_weighted_kappa(C, W):
    """1 - sum(W*O) / sum(W*E), written out in the test from proportions."""
    C = np.asarray(C, dtype=float)
    P = C / C.sum()  # observed proportions
    E = np.outer(P.sum(axis=1), P.sum(axis=0))
    return 1.0 - (W * P).sum() / (W * E).sum()


def distance_weights(scores, power):
    s = np.asarray(scores, dtype=float)
    return np.abs(s[:, None] - s[None, :]) ** power


def random_table(rng, K, low=0, high=30):
    return rng.integers(low, high, size=(K, K)) + np.diag(rng.integers(1, 40, size=K))


# --- named weightings and scores ------------------------------------------------------------


def test_seed_003_matrix():
    assert kl.confusion_matrix(RATER, MODEL).tolist() == SEED_003.tolist()


@pytest.mark.parametrize("kind, power", [("linear", 1), ("quadratic", 2)])
def test_named_weightings_charge_positions(kind, power):
    rng = np.random.default_rng(7)
    for K in range(2, 8):
        C = random_table(rng, K)
        W = distance_weights(np.arange(K), power)
        assert kl.kappa(C, weighting=kind) == pytest.approx(hand_weighted_kappa(C, W), abs=1e-12)
        np.testing.assert_array_equal(kl.disagreement_weights(K, kind), W)


def test_scores_1_2_5_differ_from_positions():
    """Scores 1, 2, 5 put the third category three steps from the second, not one."""
    s = [1, 2, 5]
    by_scores = kl.kappa(FLEISS_1969, weighting="linear", scores=s)
    by_positions = kl.kappa(FLEISS_1969, weighting="linear")
    assert by_scores == pytest.approx(
        hand_weighted_kappa(FLEISS_1969, distance_weights(s, 1)), abs=1e-12
    )
    assert by_positions == pytest.approx(
        hand_weighted_kappa(FLEISS_1969, distance_weights([0, 1, 2], 1)), abs=1e-12
    )
    assert abs(by_scores - by_positions) > 0.01
    # statsmodels reads 1-D weights as scores (and divides by s[-1] - s[0]: no effect on kappa)
    assert by_scores == pytest.approx(
        sm_kappa(FLEISS_1969, weights=np.array(s, float), wt="linear").kappa, abs=1e-12
    )
    quad = kl.kappa(FLEISS_1969, weighting="quadratic", scores=s)
    assert quad == pytest.approx(
        sm_kappa(FLEISS_1969, weights=np.array(s, float), wt="quadratic").kappa, abs=1e-12
    )
    assert quad != pytest.approx(kl.kappa(FLEISS_1969, weighting="quadratic"), abs=1e-3)


def test_seed_003_linear_does_not_see_increasing_scores():
    """On seed 003's table every increasing score set gives linear 7/15 (chapter 05, ex. 3).

    The 1-2 and 2-3 pairs carry the same observed and the same expected mass, so only
    s_3 - s_1 enters, and it cancels.  Quadratic weights do see the scores.
    """
    rng = np.random.default_rng(3)
    for _ in range(20):
        s = np.sort(rng.uniform(-5, 5, size=3))
        assert kl.kappa(SEED_003, weighting="linear", scores=s) == pytest.approx(7 / 15, abs=1e-12)
    assert kl.kappa(SEED_003, weighting="linear", scores=[1, 2, 5]) == pytest.approx(7 / 15)
    assert kl.kappa(SEED_003, weighting="quadratic", scores=[1, 2, 5]) == pytest.approx(
        25 / 51, abs=1e-12
    )
    assert kl.cohen_kappa_score(RATER, MODEL, weighting="quadratic", scores=[1, 2, 5]) == (
        pytest.approx(25 / 51, abs=1e-12)
    )


def test_disagreement_weights_is_the_matrix_kappa_uses():
    rng = np.random.default_rng(11)
    stack = np.stack([random_table(rng, 4) for _ in range(6)])
    for kind in ("linear", "quadratic"):
        for scores in (None, [0.0, 1.0, 3.0, 7.0], [2.0, -1.0, 0.5, 4.0]):
            W = kl.disagreement_weights(4, kind, scores=scores)
            np.testing.assert_allclose(
                kl.kappa(stack, weighting=kind, scores=scores),
                kl.kappa(stack, weighting=W),
                rtol=0,
                atol=1e-13,
            )
    np.testing.assert_array_equal(kl.disagreement_weights(4), 1 - np.eye(4))


def test_unweighted_is_w_equal_one_minus_identity():
    rng = np.random.default_rng(12)
    for K in range(2, 7):
        stack = np.stack([random_table(rng, K) for _ in range(5)])
        np.testing.assert_allclose(
            kl.kappa(stack), kl.kappa(stack, weighting=1 - np.eye(K)), rtol=0, atol=1e-13
        )


def test_rescaling_weights_changes_nothing():
    rng = np.random.default_rng(13)
    C = random_table(rng, 5)
    W = kl.disagreement_weights(5, "linear")
    for factor in (1 / 4, 3.0, 1e6):
        assert kl.kappa(C, weighting=factor * W) == pytest.approx(
            kl.kappa(C, weighting=W), abs=1e-13
        )
        assert kl.kappa_standard_error(C, weighting=factor * W) == pytest.approx(
            kl.kappa_standard_error(C, weighting=W), abs=1e-13
        )


# --- the label-order trap -------------------------------------------------------------------


def test_label_order_is_a_permutation_of_rows_and_columns():
    order = [3, 1, 2]
    perm = [[1, 2, 3].index(lab) for lab in order]
    permuted = SEED_003[np.ix_(perm, perm)]
    assert kl.confusion_matrix(RATER, MODEL, labels=order).tolist() == permuted.tolist()
    assert kl.kappa(permuted, weighting="quadratic") == pytest.approx(5 / 13, abs=1e-12)
    assert kl.kappa(permuted, weighting="linear") == pytest.approx(11 / 27, abs=1e-12)
    assert kl.kappa(permuted) == pytest.approx(3 / 7, abs=1e-12)


def test_all_orders_of_seed_003():
    """Only the middle label matters (reversal is free); 2 in the middle is the maximum."""
    values = {
        order: kl.cohen_kappa_score(RATER, MODEL, weighting="quadratic", labels=order)
        for order in itertools.permutations([1, 2, 3])
    }
    for order, value in values.items():
        assert kl.cohen_kappa_score(RATER, MODEL, labels=order) == pytest.approx(3 / 7)
        assert value == pytest.approx(values[order[::-1]], abs=1e-15)
    assert min(values.values()) == pytest.approx(5 / 13, abs=1e-12)
    assert {o for o, v in values.items() if v > 0.45} == {(1, 2, 3), (3, 2, 1)}


# --- custom matrices ------------------------------------------------------------------------


def test_paper_agreement_weights_are_refused_with_a_hint():
    with pytest.raises(ValueError, match="agreement weights") as info:
        kl.kappa(FLEISS_1969, weighting=FLEISS_1969_AGREEMENT)
    assert "1 - W" in str(info.value)
    W = 1 - FLEISS_1969_AGREEMENT
    assert kl.kappa(FLEISS_1969, weighting=W) == pytest.approx(
        hand_weighted_kappa(FLEISS_1969, W), abs=1e-12
    )


def test_fleiss_1969_confidence_interval():
    W = 1 - FLEISS_1969_AGREEMENT
    z = NormalDist().inv_cdf(0.975)
    for weighting in (None, W):
        k = kl.kappa(FLEISS_1969, weighting=weighting)
        se = kl.kappa_standard_error(FLEISS_1969, weighting=weighting)
        low, high = kl.kappa_confint(FLEISS_1969, weighting=weighting)
        assert low == pytest.approx(k - z * se, abs=1e-12)
        assert high == pytest.approx(k + z * se, abs=1e-12)
    low, high = kl.kappa_confint(FLEISS_1969, weighting=W)
    assert (round(low, 4), round(high, 4)) == (0.3954, 0.6188)


def test_custom_weights_can_go_below_minus_one_and_the_interval_keeps_the_estimate():
    """A matrix that charges one rare cell: kappa_w = 1 - 1/(1/16) = -15, below -1."""
    C = [[5, 1, 0], [0, 0, 0], [0, 0, 90]]
    W = [[0, 1, 0], [0, 0, 0], [0, 0, 0]]
    k = kl.kappa(C, weighting=W)
    assert k == pytest.approx(hand_weighted_kappa(C, np.asarray(W, float)), abs=1e-12)
    assert k < -1
    low, high = kl.kappa_confint(C, weighting=W)
    assert low < k < high
    # named weightings stay clipped at -1: they cannot go below it
    low, _ = kl.kappa_confint([[0, 3], [4, 0]], weighting="linear")
    assert low == -1.0


# --- standard errors with scores ------------------------------------------------------------


@pytest.mark.parametrize("kind", ["linear", "quadratic"])
@pytest.mark.parametrize("seed", range(15))
def test_standard_error_with_scores_against_statsmodels(kind, seed):
    rng = np.random.default_rng(2000 + seed)
    K = int(rng.integers(3, 7))
    C = random_table(rng, K)
    s = np.sort(rng.choice(np.arange(-10, 30), size=K, replace=False)).astype(float)
    res = sm_kappa(C, weights=s, wt=kind)
    assert kl.kappa(C, weighting=kind, scores=s) == pytest.approx(res.kappa, abs=1e-12)
    assert kl.kappa_standard_error(C, weighting=kind, scores=s) == pytest.approx(
        res.std_kappa, abs=1e-9
    )


# --- the guard against a silent alphabetical sort ----------------------------------------------


@pytest.mark.parametrize(
    "weighting", ["linear", "quadratic", [[0, 1, 2], [1, 0, 1], [2, 1, 0]]], ids=str
)
def test_string_labels_need_an_explicit_order(weighting):
    y1 = ["low", "high", "mid", "low"]
    y2 = ["low", "mid", "mid", "high"]
    with pytest.raises(ValueError, match="labels=") as info:
        kl.cohen_kappa_score(y1, y2, weighting=weighting)
    message = str(info.value)
    assert message.index("'high'") < message.index("'low'")
    assert "sorted, they would be ['high', 'low', 'mid']" in message
    ours = kl.cohen_kappa_score(y1, y2, weighting=weighting, labels=["low", "mid", "high"])
    # the custom matrix holds linear distances: scikit-learn's "linear" is the oracle for it
    sk_weights = weighting if isinstance(weighting, str) else "linear"
    theirs = sk_kappa(y1, y2, weights=sk_weights, labels=["low", "mid", "high"])
    assert ours == pytest.approx(theirs, abs=1e-12)


def test_string_labels_without_weighting_need_no_order():
    # C = [[1, 1], [0, 1]] (a before b): p_o = 2/3, p_e = (2*1 + 1*2)/9 = 4/9, kappa = 2/5
    assert kl.cohen_kappa_score(["b", "a", "a"], ["b", "a", "b"]) == pytest.approx(0.4)


def test_numbers_written_as_strings_are_guarded_too():
    """'10' sorts before '2': the guard stops it."""
    with pytest.raises(ValueError, match="labels="):
        kl.cohen_kappa_score(["1", "2", "10"], ["2", "2", "10"], weighting="linear")


def test_the_guard_cuts_long_label_lists():
    y = [f"label {i:03d}" for i in range(100)]
    cut = r"sorted, they would be \['label 000', .*\.\.\.; pass labels="
    with pytest.raises(ValueError, match=cut) as info:
        kl.cohen_kappa_score(y, y[::-1], weighting="linear")
    assert len(str(info.value)) < 400


# --- quadratic kappa and correlation (chapter 05) ----------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_quadratic_kappa_is_concordance_correlation(seed):
    """kappa_q = 2 s_xy / (s_x^2 + s_y^2 + (xbar - ybar)^2), moments with 1/N (Lin's CCC)."""
    rng = np.random.default_rng(3000 + seed)
    K = int(rng.integers(2, 7))
    C = random_table(rng, K, high=12)
    x, y = labels_of(C, start=1)
    S = np.cov(x, y, bias=True)
    ccc = 2 * S[0, 1] / (S[0, 0] + S[1, 1] + (x.mean() - y.mean()) ** 2)
    assert kl.kappa(C, weighting="quadratic") == pytest.approx(ccc, abs=1e-12)
    # equal marginals: the symmetrised table gives Pearson's r exactly
    sym = C + C.T
    x, y = labels_of(sym, start=1)
    assert kl.kappa(sym, weighting="quadratic") == pytest.approx(np.corrcoef(x, y)[0, 1], abs=1e-12)


def test_linear_equals_quadratic_for_two_classes():
    """For K = 2 both weightings are 1 - I; the oracle is scikit-learn on the expanded labels."""
    rng = np.random.default_rng(14)
    stack = np.stack([random_table(rng, 2) for _ in range(50)])
    expected = [sk_kappa(*labels_of(C, start=1)) for C in stack]
    for weighting in ("linear", "quadratic"):
        np.testing.assert_allclose(kl.kappa(stack, weighting=weighting), expected, atol=1e-13)


def test_three_classes_linear_equals_quadratic_iff_distance_ratios_match():
    """K = 3: linear = quadratic exactly when o_1 e_2 = o_2 e_1, and then flat agrees too."""
    C = np.array([[2, 0, 0], [0, 1, 1], [1, 0, 3]])
    lin, quad, flat = (kl.kappa(C, weighting=w) for w in ("linear", "quadratic", None))
    assert lin == pytest.approx(quad, abs=1e-14)
    assert flat == pytest.approx(quad, abs=1e-14)
    # only adjacent disagreements: the numerators agree, the denominators do not
    adjacent = np.array([[3, 0, 0], [1, 1, 0], [0, 1, 2]])
    assert kl.kappa(adjacent, weighting="linear") < kl.kappa(adjacent, weighting="quadratic")
