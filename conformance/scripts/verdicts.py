"""Where the references disagree, which one is right, and why.

For each case and quantity the references are compared with the *anchor*: the first
reference, in PRIORITY order, that no rule below names as a suspect for that quantity.
A reference that differs from the anchor beyond the looser of the two tolerances must be
explained by a rule; the reference then carries ``disputed[quantity] = {status, why,
right, right_source}``.  A difference that no rule explains is *unexplained*: build.py
refuses to write a table that has one.

status:
* ``wrong``: the reference computes the quantity it names incorrectly; ``why`` gives the
  computation (exact arithmetic or the published formula) that shows it.
* ``convention``: the reference computes a different, defensible quantity under the same
  name (another divisor, a 0 for 0/0, a category dropped); kappalib is not tested against it.
* ``numerical``: the reference's formula is right, but its floating-point evaluation turns a
  degenerate case (a zero variance or residual) into NaN or a huge number where the exact
  value is 0, 1 or infinite.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

PRIORITY = [
    "exact",
    "formula",
    "scipy",
    "finite-differences",
    "statsmodels",
    "scikit-learn",
    "krippendorff",
    "irrCAC",
    "pingouin",
    "vcd",
    "psych",
    "irr",
    "epiR",
    "R",
    "DescTools",
    "survey",
]


def _rank(source: str) -> int:
    return PRIORITY.index(source) if source in PRIORITY else len(PRIORITY)


@dataclass(frozen=True)
class Rule:
    key: str  # the verdict's name in the table (files' "verdicts")
    coefficient: str
    source: str
    quantities: tuple[str, ...]  # a quantity name, or a prefix ending in "*"
    when: Callable[[dict, dict], bool]
    status: str
    why: str

    def matches(self, case, ref, quantity):
        if case["coefficient"] != self.coefficient or ref["source"] != self.source:
            return False
        if not any(
            quantity == q
            or (q.endswith("*") and quantity.startswith(q[:-1]))
            or (q.startswith("*") and quantity.endswith(q[1:]))
            for q in self.quantities
        ):
            return False
        return self.when(case, ref)


def always(case, ref):
    return True


def weighted(case, ref):
    return case["options"].get("weights", "identity") != "identity"


def _ratings(case):
    return case["input"].get("ratings") or []


def complete_three_or_more(case, ref):
    R = _ratings(case)
    return bool(R) and len(R[0]) >= 3 and all(v is not None for row in R for v in row)


def more_than_two_classes(case, ref):
    return len(case["input"]["matrix"]) > 2


def table_form(case, ref):
    return ref["call"].startswith("table.CAC")


def unused_class(case, ref):
    M = case["input"]["matrix"]
    return any(sum(M[k]) + sum(row[k] for row in M) == 0 for k in range(len(M)))


def beyond_range(case, ref):
    v = ref["values"]
    hi, lo = v.get("ci_high"), v.get("ci_low")
    return (isinstance(hi, float) and hi > 1) or (isinstance(lo, float) and lo < -1)


def equal_discordant(case, ref):
    M = case["input"]["matrix"]
    return M[0][1] == M[1][0] and case["options"].get("correction")


def class_without_discordance(case, ref):
    M = case["input"]["matrix"]
    K = len(M)
    return any(all(M[k][j] + M[j][k] == 0 for j in range(K) if j != k) for k in range(K))


def empty_margin(case, ref):
    M = case["input"]["matrix"]
    K = len(M)
    return any(sum(M[k]) == 0 or sum(row[k] for row in M) == 0 for k in range(K))


def equal_margins_with_discordance(case, ref):
    M = case["input"]["matrix"]
    K = len(M)
    return any(sum(M[k]) == sum(row[k] for row in M) and sum(M[k]) != M[k][k] for k in range(K))


def one_value(case, ref):
    return len({v for row in _ratings(case) for v in row if v is not None}) == 1


def huge(case, ref):
    return any(isinstance(v, float) and abs(v) > 1e12 for v in ref["values"].values())


def undefined(case, ref):
    return any(v is None for v in ref["values"].values())


def zero_null_variance(case, ref):
    return any(
        r["source"] == "exact" and r["values"].get("se_null") == 0 for r in case["references"]
    )


def zero_se(case, ref):
    return ref["values"].get("se") == 0


RULES: list[Rule] = [
    Rule(
        "psych-weighted-se",
        "cohen_kappa",
        "psych",
        ("se", "ci_low", "ci_high"),
        weighted,
        "wrong",
        "psych 2.2.9's cohen.kappa computes the column means of the weights as "
        "roww <- rowSums(w * rs), i.e. r_j * sum_k w_jk, where Fleiss, Cohen & Everitt "
        "(1969) have w-bar_.j = sum_i p_i. w_ij; its weighted variance (var.weighted) "
        "and the interval built on it are therefore off whenever the margins are not uniform. "
        "The right value is the FCE formula evaluated in fractions (exact), which "
        "statsmodels, vcd and irrCAC reproduce.",
    ),
    Rule(
        "psych-zero-variance",
        "cohen_kappa",
        "psych",
        ("se",),
        zero_se,
        "wrong",
        "psych replaces an undefined (NaN) or negative variance by 0 (and sets its flag "
        "`bad`): here p_e = 1, kappa and its standard error are 0/0, not 0.",
    ),
    Rule(
        "statsmodels-unclipped-interval",
        "cohen_kappa",
        "statsmodels",
        ("ci_low", "ci_high"),
        beyond_range,
        "convention",
        "statsmodels' interval kappa +/- z se is not cut to kappa's range [-1, 1]; the table's "
        "interval is (as vcd, psych and kappalib give it).",
    ),
    Rule(
        "statsmodels-zero-variance-nan",
        "cohen_kappa",
        "statsmodels",
        ("se_null", "ci_low", "ci_high"),
        undefined,
        "numerical",
        "The variance is exactly 0 here (exact). statsmodels' float evaluation of the null "
        "variance leaves a tiny negative number whose square root is NaN, and its interval "
        "(scipy's normal distribution with scale 0) is NaN; the exact interval is the point "
        "kappa itself.",
    ),
    Rule(
        "epiR-null-se-nan",
        "cohen_kappa",
        "epiR",
        ("se_null",),
        undefined,
        "numerical",
        "Rater 1 uses one class, so the variance under kappa = 0 is exactly 0 (exact); "
        "epiR's float evaluation leaves a tiny negative number whose square root is NaN.",
    ),
    Rule(
        "epiR-interval-from-null-se",
        "cohen_kappa",
        "epiR",
        ("ci_low", "ci_high"),
        always,
        "wrong",
        "epiR 2.0.57's epi.kappa(method = 'fleiss') builds its interval kappa +/- z se from "
        "se = sqrt(p_e + p_e^2 - sum p_i. p_.i (p_i. + p_.i)) / ((1 - p_e) sqrt(N)), which "
        "is Fleiss, Cohen & Everitt's (1969) standard error under kappa = 0 (the table "
        "records it as se_null, where it agrees with statsmodels' std_kappa0). An interval "
        "for kappa needs the non-null standard error (FCE 1969): kappa +/- z se "
        "with se as statsmodels, vcd and the exact formula give it.",
    ),
    Rule(
        "irr-drops-unused-category",
        "cohen_kappa",
        "irr",
        ("value", "z_null"),
        unused_class,
        "convention",
        "irr's kappa2 builds the table from the ratings and drops a category that neither "
        "rater used, so its linear and quadratic weights are spread over K - 1 categories "
        "instead of the K the table declares.",
    ),
    Rule(
        "irr-z-of-zero-variance",
        "cohen_kappa",
        "irr",
        ("z_null",),
        zero_null_variance,
        "numerical",
        "kappa = 0 and its variance under kappa = 0 is exactly 0 (exact): z = 0/0. irr "
        "divides 0 by the float residue of a zero variance and reports z = 0.",
    ),
    Rule(
        "epiR-pabak-K-classes",
        "pabak",
        "epiR",
        ("value",),
        more_than_two_classes,
        "wrong",
        "epiR 2.0.57 reports PABAK = 2 p_o - 1 for any number of classes. PABAK is kappa "
        "with the margins made uniform (Byrt, Bishop & Carlin 1993): p_e = 1/K, so "
        "PABAK = (K p_o - 1)/(K - 1) (Brennan & Prediger's coefficient); 2 p_o - 1 is that "
        "only for K = 2. Exact: with K = 3 and p_o = 1/3 (chance level), (3/3 - 1)/2 = 0 "
        "but 2/3 - 1 = -1/3.",
    ),
    Rule(
        "irrCAC-table-divisor",
        "scotts_pi",
        "irrCAC",
        ("se",),
        table_form,
        "convention",
        "irrCAC's contingency-table functions (table.CAC) average the squared unit terms of "
        "Gwet's linearization over n, its raw-data functions (raw.CAC) over n - 1: the same "
        "variance estimator up to the factor n/(n - 1). kappalib follows the raw-data form.",
    ),
    Rule(
        "irrCAC-table-divisor",
        "gwet_ac1",
        "irrCAC",
        ("se",),
        table_form,
        "convention",
        "irrCAC's contingency-table functions (table.CAC) average the squared unit terms of "
        "Gwet's linearization over n, its raw-data functions (raw.CAC) over n - 1: the same "
        "variance estimator up to the factor n/(n - 1). kappalib follows the raw-data form.",
    ),
    Rule(
        "irrCAC-table-divisor",
        "brennan_prediger",
        "irrCAC",
        ("se",),
        table_form,
        "convention",
        "irrCAC's contingency-table functions (table.CAC) average the squared unit terms of "
        "Gwet's linearization over n, its raw-data functions (raw.CAC) over n - 1: the same "
        "variance estimator up to the factor n/(n - 1). kappalib follows the raw-data form.",
    ),
    Rule(
        "scikit-learn-mcc-zero",
        "mcc",
        "scikit-learn",
        ("value",),
        empty_margin,
        "convention",
        "scikit-learn returns 0.0 when a margin is empty; MCC is then 0/0 (the denominator "
        "sqrt((N^2 - sum r^2)(N^2 - sum c^2)) is 0), which the table records as undefined.",
    ),
    Rule(
        "statsmodels-mcnemar-correction",
        "mcnemar",
        "statsmodels",
        ("statistic", "pvalue"),
        equal_discordant,
        "wrong",
        "With b = c and the continuity correction statsmodels 0.15 computes "
        "(|b - c| - 1)^2 / (b + c) = 1/(b + c) (and 1/0 = inf, p = 0, when b = c = 0): the "
        "correction moves |b - c| past 0 instead of towards it. Edwards' correction "
        "shrinks |b - c| by 1 and never below 0, so b = c gives 0 (p = 1), as R's "
        "mcnemar.test does; with b = c = 0 the statistic is 0/0 and there is nothing to "
        "test (R: NaN).",
    ),
    Rule(
        "statsmodels-stuart-maxwell-df",
        "stuart_maxwell",
        "statsmodels",
        ("statistic", "df", "pvalue"),
        class_without_discordance,
        "wrong",
        "statsmodels 0.15's SquareTable.homogeneity() drops the last class (to remove d's one "
        "dependency) and takes df = K - 1 always. A class that no discordant case involves "
        "adds a second dependency: S is then singular, and np.linalg.solve either raises "
        "(statsmodels returns NaN) or, through rounding, returns d' S^- d; the df stays "
        "K - 1 either way. Such a class adds a zero row and column to S and nothing to d; "
        "the test is d' S^-1 d over the other K' classes on K' - 1 df (exact).",
    ),
    Rule(
        "irr-kripp-alpha-complete-data",
        "krippendorff_alpha",
        "irr",
        ("value",),
        complete_three_or_more,
        "wrong",
        "irr 0.84.1's kripp.alpha divides each pair's coincidence by m_u - 1 only when the "
        "data hold a missing value (mc <- rep(1, ...) otherwise): with complete data and "
        "m >= 3 raters every coincidence is m - 1 times too large, and alpha = 1 - (n - 1) "
        "D_o / D_e is computed with n (m - 1) values instead of n. Krippendorff (2011) "
        "defines o_ck = sum_u (pairs c-k in u) / (m_u - 1); the exact reference computes it "
        "in fractions, and the krippendorff package agrees with it.",
    ),
    Rule(
        "irr-kripp-alpha-one-value",
        "krippendorff_alpha",
        "irr",
        ("value",),
        one_value,
        "convention",
        "irr's kripp.alpha returns 1 when the data hold a single value; alpha is then "
        "1 - D_o/D_e = 1 - 0/0, undefined (Krippendorff 2011: the data show no variation; "
        "the krippendorff package refuses them).",
    ),
    Rule(
        "psych-icc-zero-residual",
        "icc",
        "psych",
        ("*.F",),
        huge,
        "numerical",
        "The residual mean square is 0 (exact): F = MSR/MSE is infinite. psych computes "
        "MSE by subtraction and keeps a rounding residue of about 1e-32, so its F is about "
        "1e32.",
    ),
    Rule(
        "pingouin-icc-zero-residual",
        "icc",
        "pingouin",
        ("*.ci_low", "*.ci_high"),
        undefined,
        "numerical",
        "The residual mean square is 0: the F-based bounds are then 1 (ICC3, ICC3k) or the "
        "McGraw-Wong bounds with v = k - 1 (ICC2, ICC2k), which the formula gives; "
        "pingouin's float evaluation divides inf by inf (F_J = MSC/MSE) and returns NaN.",
    ),
    Rule(
        "irr-icc-agreement-test-df",
        "icc",
        "irr",
        ("ICC2.df2", "ICC2.pvalue", "ICC2k.df2", "ICC2k.pvalue"),
        always,
        "wrong",
        "irr 0.84.1's icc (type = 'agreement') tests ICC(A,1) and ICC(A,k) against r0 = 0 "
        "with F = MSR / MSE on (n - 1, v) df, where v is the Satterthwaite df it computes "
        "for the interval (with a = k rho-hat / (n (1 - rho-hat))). McGraw & Wong (1996, "
        "Table 8) take v with a and b at the null value r0: a = 0, b = 1, so v = (n - 1)"
        "(k - 1) and the test is the F test of ICC(C,1), as psych and pingouin compute it "
        "(irrNA's icc_corr documents the same correction).",
    ),
    Rule(
        "irr-icc-ak-interval",
        "icc",
        "irr",
        ("ICC2k.ci_low", "ICC2k.ci_high"),
        always,
        "wrong",
        "irr 0.84.1 computes ICC(A,k)'s interval with a = k rho/(n (1 - rho)) evaluated at "
        "rho = ICC(A,k); McGraw & Wong's a is that of the single-rater coefficient, "
        "rho = ICC(A,1). Since ICC(A,k)/(1 - ICC(A,k)) = k ICC(A,1)/(1 - ICC(A,1)), irr's a "
        "is k times too large, so its v and both F quantiles are off. Check: with the same F "
        "quantiles, McGraw & Wong's ICC(A,k) bounds n(MSR - F MSE)/(F (MSC - MSE) + n MSR) "
        "equal the Spearman-Brown image k L/(1 + (k - 1) L) of the ICC(A,1) bounds L (the "
        "algebra: multiply the ICC(A,1) bound's numerator and denominator by k); a "
        "monotone image of an interval keeps its coverage, so the right ICC(A,k) interval "
        "is that image, as psych and pingouin compute it (formula_icc in "
        "oracles_python.py).",
    ),
    Rule(
        "irr-icc-zero-residual",
        "icc",
        "irr",
        ("*.ci_low", "*.ci_high", "*.F", "*.pvalue"),
        undefined,
        "numerical",
        "The residual mean square is 0 (exact). irr computes MSE by subtraction "
        "(SStotal - MSr (n - 1) - MSc (k - 1)), which can leave a tiny negative number; its "
        "F-based bounds then come out NaN where they are 1 (irrNA's icc_corr documents this "
        "as irr's second bug).",
    ),
    Rule(
        "irr-stuart-maxwell-equal-margins",
        "stuart_maxwell",
        "irr",
        ("statistic", "df", "pvalue"),
        equal_margins_with_discordance,
        "wrong",
        "irr 0.84.1's stuart.maxwell.mh drops every class whose two margins are equal "
        "(rowsums == colsums). A class with equal margins but discordant cases still "
        "enters d and S (its off-diagonal counts appear in the other classes' margins and "
        "covariances); dropping it changes the statistic. Only a class with no discordant "
        "case adds a zero row and column to S and may be left out. The exact reference "
        "solves d' S^-1 d in fractions over the classes that discordant cases involve.",
    ),
    Rule(
        "irr-stuart-maxwell-refuses",
        "stuart_maxwell",
        "irr",
        ("error",),
        always,
        "wrong",
        "irr's stuart.maxwell.mh refuses the table ('Too many equal marginals') because it "
        "drops every class with equal margins; the statistic is defined (exact: d' S^-1 d "
        "over the three classes, all of which have discordant cases).",
    ),
    Rule(
        "irrCAC-fleiss-undefined-raises",
        "fleiss_kappa",
        "irrCAC",
        ("error",),
        always,
        "convention",
        "Every rating is in one category: p_e = 1 and kappa is 0/0. irrCAC raises "
        "ZeroDivisionError where the table records 'undefined' (null).",
    ),
    Rule(
        "irrCAC-one-category",
        "gwet_ac1_multi",
        "irrCAC",
        ("value", "ci_high"),
        always,
        "wrong",
        "With one category declared (q = 1), p_e = T_w / (q (q - 1)) sum pi_k (1 - pi_k) is "
        "0/0 and so is AC1. irrCAC 0.4.4 sets p_e = 1 - 1e-15 when q < 2, which makes "
        "AC1 = (p_a - p_e)/(1 - p_e) = 1 by construction, not by computation.",
    ),
    Rule(
        "epiR-ccc-constant-rater",
        "lins_ccc",
        "epiR",
        ("value",),
        undefined,
        "wrong",
        "epiR 2.0.57's epi.ccc computes s_xy as r s_x s_y, with Pearson's r = 0/0 when a "
        "rater is constant, so it reports NaN; Lin's rho_c = 2 s_xy / (s_x^2 + s_y^2 + "
        "(mean_x - mean_y)^2) needs no r: s_xy = 0 and the denominator is positive, so "
        "rho_c = 0 (exact).",
    ),
    Rule(
        "irrCAC-alpha-undefined-raises",
        "krippendorff_alpha",
        "irrCAC",
        ("error",),
        always,
        "convention",
        "One value in all the pairable data: D_e = 0 and alpha is 0/0. irrCAC raises "
        "ZeroDivisionError where the table records 'undefined' (null).",
    ),
    Rule(
        "krippendorff-one-value-refused",
        "krippendorff_alpha",
        "krippendorff",
        ("error",),
        always,
        "convention",
        "One value in all the pairable data: alpha is 0/0. The krippendorff package refuses "
        "such data with a message, where the table records 'undefined' (null).",
    ),
    Rule(
        "DescTools-stuart-maxwell-df",
        "stuart_maxwell",
        "DescTools",
        ("df", "pvalue"),
        class_without_discordance,
        "wrong",
        "DescTools 0.99.59's StuartMaxwellTest drops the classes with perfect agreement "
        "(diag = row sum = column sum), rightly, but keeps df = r - 1 from the original "
        "number of classes r. The statistic has K' - 1 df over the K' classes left (the "
        "covariance of d has rank K' - 1): with one class dropped from three, the test is "
        "McNemar's on the other two, 1 df, not 2.",
    ),
    # --- issue 34 (f34b) ---------------------------------------------------------------
    Rule(
        "survey-with-replacement-divisor",
        "kappa_difference",
        "survey",
        ("se", "se_1", "se_2"),
        always,
        "convention",
        "R's survey linearizes the kappas as smooth functions of means, like the delta method, "
        "but estimates the variance of a mean with the with-replacement divisor n - 1: its "
        "variance is n/(n - 1) times the delta method's (divisor n, as Fleiss, Cohen & Everitt "
        "1969). Both are consistent; the table's value, and kappalib's, divide by n. With "
        "clusters (clustered_kappa) both use G/(G - 1) and agree.",
    ),
    Rule(
        "survey-with-replacement-divisor",
        "light_kappa",
        "survey",
        ("se",),
        always,
        "convention",
        "As for kappa_difference: survey's divisor is n - 1, the delta method's n.",
    ),
    Rule(
        "irr-light-test",
        "light_kappa",
        "irr",
        ("z_null", "pvalue"),
        always,
        "wrong",
        "irr 0.84.1's kappam.light tests Light's kappa with Cohen's (1960) approximate null "
        "variance p/(n (1 - p)), but with a pooled chance agreement p = 1 - P prod_p (1 - "
        "p_e,p) over the P pairs, which is not a probability (it is below 0, and irr's z NaN, "
        "when P prod_p (1 - p_e,p) > 1) and has no derivation we could find. Under raters that "
        "rate independently, the pairwise kappas' influence functions are doubly centred, so "
        "the kappas are uncorrelated to first order and var_0(kappa_L) = sum_p var_0(kappa_p) / "
        "P^2 with Fleiss, Cohen & Everitt's null variances (exact); a permutation of each "
        "rater's ratings reproduces that spread (tests/test_dependent_kappas.py). On irr's own "
        "example (diagnoses) irr's z is 2.31, the null standard error's 20.8.",
    ),
]


def epir_occc(case, ref):
    return ref["call"].startswith("epi.occc")


# issue 34 (f34a): the published limits of agreement computed from rounded values, and
# epiR's overall CCC on n - 1 moments
RULES += [
    Rule(
        "BA1986-rounded-inputs",
        "bland_altman",
        "blandaltman1986",
        ("lower", "upper"),
        always,
        "numerical",
        "Bland & Altman (1986) add 2 SD to the bias after rounding both to one decimal: "
        "-2.1 -/+ 2 x 38.8 = -79.7 and 75.5. From the data (bias -2.1176, SD 38.7626, exact) "
        "the limits are -79.648 and 75.413: the paper's are right to the precision of its "
        "rounded inputs.",
    ),
    Rule(
        "BA1999-rounded-sd",
        "bland_altman",
        "blandaltman1999",
        ("sd", "lower", "upper"),
        always,
        "numerical",
        "Bland & Altman (1999, section 5.2) print the SD of the differences as 1.0517; their "
        "formula on their data (s_D^2 = 0.91269 plus 0.79028 times the within-subject "
        "variances 0.10723 + 0.13787, exact) gives 1.05185, presumably from rounded "
        "intermediate values. Their limits follow from their 1.0517: 0.7092 -/+ 1.96 x "
        "1.0517 = -1.3521, 2.7705; the bias and both within-subject variances agree to the "
        "printed digits.",
    ),
    Rule(
        "BA2007-rounded-sd",
        "bland_altman",
        "blandaltman2007",
        ("sd", "lower", "upper"),
        always,
        "numerical",
        "Bland & Altman (2007) print the SD as 0.99062408; the one-way analysis of variance "
        "of the differences gives 0.990624108 (exact), 2.8e-8 away, an intermediate value "
        "rounded. Their limits follow from their SD: 0.6021667 -/+ 1.96 x 0.99062408 = "
        "-1.3394565, 2.5437899; the bias agrees to all its 7 decimals.",
    ),
    Rule(
        "epiR-occc-divisor",
        "overall_ccc",
        "epiR",
        ("value", "accuracy"),
        epir_occc,
        "convention",
        "epiR 2.0.57's epi.occc takes the variances and covariances with divisor n - 1 (R's "
        "sd and cov) but the squared differences of the means unscaled, so its occc (and "
        "oaccu) differ from Lin's and Barnhart et al.'s moments over n, and for two methods "
        "from epiR's own epi.ccc; the precision (a ratio of covariances) is the same. "
        "diagnoses.epir_occc redoes it with n - 1 moments.",
    ),
]


def _close(a, b, tol, quantity=""):
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, list) or isinstance(b, list):
        if not (isinstance(a, list) and isinstance(b, list)) or len(a) != len(b):
            return False
        return all(_close(x, y, tol, quantity) for x, y in zip(a, b, strict=True))
    if isinstance(a, str) or isinstance(b, str):  # "inf", "-inf"
        return a == b
    return abs(a - b) <= tol["abs"] + tol["rel"] * abs(b)


def looser(t1: dict, t2: dict) -> dict:
    return {"abs": max(t1["abs"], t2["abs"]), "rel": max(t1["rel"], t2["rel"])}


def tolerance(case, *refs):
    """The loosest of the references' tolerances and the case's own (a degenerate case may
    carry one, with its reason)."""
    tol = {"abs": 0.0, "rel": 0.0}
    for t in [r["tolerance"] for r in refs] + ([case["tolerance"]] if "tolerance" in case else []):
        tol = looser(tol, t)
    return tol


def close(a, b, tol, quantity=""):
    return _close(a, b, tol, quantity)


def difference(a, b):
    """The largest absolute difference (inf when one side is undefined and the other not)."""
    if a is None or b is None:
        return 0.0 if a is None and b is None else math.inf
    if isinstance(a, str) or isinstance(b, str):
        return 0.0 if a == b else math.inf
    if isinstance(a, list):
        return max((difference(x, y) for x, y in zip(a, b, strict=True)), default=0.0)
    return abs(a - b)


def check_diagnoses(case: dict, status: dict) -> list[str]:
    """Every value marked wrong must be what the verdict's diagnosis (diagnoses.py)
    reproduces; a wrong verdict without a diagnosis is not accepted."""
    import diagnoses

    out = []
    for r in case["references"]:
        for q, d in r.get("disputed", {}).items():
            if q == "error" or status[d["verdict"]] != "wrong":
                continue
            fn = diagnoses.DIAGNOSES.get(d["verdict"])
            if fn is None:
                out.append(f"{case['id']} {q}: verdict {d['verdict']} has no diagnosis")
                continue
            got = _plain(fn(case).get(q, "absent"))
            tol = looser(tolerance(case, r), DIAGNOSIS_TOLERANCE)
            if got == "absent" or not close(got, r["values"][q], tol, q):
                out.append(
                    f"{case['id']} {q}: {d['verdict']}'s diagnosis gives {got!r}, "
                    f"{r['source']} {r['values'][q]!r}"
                )
    return out


def _plain(v):
    """A diagnosis' float as the table writes it: NaN is None, an infinity "inf"."""
    if isinstance(v, float) and math.isnan(v):
        return None
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


# a diagnosis redoes the reference's computation in float64 (not its exact code path)
DIAGNOSIS_TOLERANCE = {"abs": 1e-9, "rel": 1e-7}


def used(cases) -> dict:
    """The verdicts that the cases cite: {key: {"status", "why"}}."""
    keys = {
        d["verdict"] for c in cases for r in c["references"] for d in r.get("disputed", {}).values()
    }
    return {r.key: {"status": r.status, "why": r.why} for r in RULES if r.key in keys}


def apply(case: dict) -> list[str]:
    """Mark the disputed quantities of the case's references; return the unexplained."""
    unexplained = []
    for r in case["references"]:
        if "error" in r:  # a refusal: explained by a rule on the pseudo-quantity "error"
            rule = next((x for x in RULES if x.matches(case, r, "error")), None)
            if rule is not None:
                r["disputed"] = {"error": {"verdict": rule.key}}
    refs = [r for r in case["references"] if "error" not in r]
    quantities = sorted({q for r in refs for q in r["values"]})
    for q in quantities:
        holders = [r for r in refs if q in r["values"]]
        suspects = {}
        for r in holders:
            for rule in RULES:
                if rule.matches(case, r, q):
                    suspects[id(r)] = rule
                    break
        ordered = sorted(holders, key=lambda r: _rank(r["source"]))
        clean = [r for r in ordered if id(r) not in suspects]
        if not clean:  # only suspects hold it: fine if they agree among themselves
            first = ordered[0]
            if not all(
                close(r["values"][q], first["values"][q], tolerance(case, r, first), q)
                for r in ordered
            ):
                unexplained.append(f"{case['id']} {q}: only suspects, and they disagree")
            continue
        anchor = clean[0]
        for r in ordered:
            if r is anchor:
                continue
            tol = tolerance(case, r, anchor)
            if close(r["values"][q], anchor["values"][q], tol, q):
                continue
            rule = suspects.get(id(r))
            if rule is None:
                unexplained.append(
                    f"{case['id']} {q}: {r['source']} = {r['values'][q]!r} but "
                    f"{anchor['source']} = {anchor['values'][q]!r}"
                )
                continue
            r.setdefault("disputed", {})[q] = {
                "verdict": rule.key,
                "right": anchor["values"][q],
                "right_source": anchor["source"],
            }
    return unexplained
