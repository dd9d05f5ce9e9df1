// The arithmetic of the page's explorers that kappa.mjs (the JS twin of kappalib's core) does
// not have: the paper's families, the closed-form minimiser of kappa on C1, the asymmetry and
// the off-diagonal entropy, the rater tables of a prevalence sweep, Krippendorff's alpha from
// a two-rater table's coincidences, and each explorer's collected state. Each function is the
// twin of a kappalib one (named in its comment); tests/js/explorers_math.test.mjs checks them
// against cases that kappalib writes (tests/test_js_explorers.py), so kappalib is the oracle.
// Undefined values (0/0) are null, as in kappa.mjs; curves hold null where kappalib has NaN.

import {
  brennanPrediger,
  expectedAgreement,
  gwetAc1,
  kappa,
  mcc,
  observedAgreement,
  pabak,
  scottsPi,
} from "../kappa/kappa.mjs";

const finite = (x) => (x === null || x === undefined || !Number.isFinite(x) ? null : x);

/** n points from low to high, as numpy.linspace. */
export function linspace(low, high, n) {
  if (n === 1) return [low];
  const step = (high - low) / (n - 1);
  const out = [];
  for (let i = 0; i < n; i++) out.push(i === n - 1 ? high : low + i * step);
  return out;
}

// --- chapter 02: kappalib.widgets.two_by_two_values ---------------------------------------

/** p_o, p_e, kappa, MCC and PABAK of [[a, b], [c, d]]; all null for an empty table. */
export function twoByTwoValues(a, b, c, d) {
  const C = [
    [a, b],
    [c, d],
  ];
  if (a === 0 && b === 0 && c === 0 && d === 0) {
    return { p_o: null, p_e: null, kappa: null, mcc: null, pabak: null };
  }
  return {
    p_o: finite(observedAgreement(C)),
    p_e: finite(expectedAgreement(C)),
    kappa: finite(kappa(C)),
    mcc: finite(mcc(C)),
    pabak: finite(pabak(C)),
  };
}

// --- chapters 04 and 10: a rater of sensitivity s and specificity t ------------------------

/** The 2x2 table of proportions of a rater (s, t) at prevalence pi (kappalib.widgets
 * _prevalence._rater_tables): rows = the truth, positive class first. */
export function raterTable(s, t, pi) {
  return [
    [pi * s, pi * (1 - s)],
    [(1 - pi) * (1 - t), (1 - pi) * t],
  ];
}

/** kappalib.widgets.prevalence_curves: kappa, MCC, accuracy and p_e over the prevalences. */
export function prevalenceCurves(s, t, prevalences) {
  const out = { prevalence: [], kappa: [], mcc: [], accuracy: [], expected_agreement: [] };
  for (const pi of prevalences) {
    const C = raterTable(s, t, pi);
    out.prevalence.push(pi);
    out.kappa.push(finite(kappa(C)));
    out.mcc.push(finite(mcc(C)));
    out.accuracy.push(finite(observedAgreement(C)));
    out.expected_agreement.push(finite(expectedAgreement(C)));
  }
  return out;
}

/** Nominal Krippendorff's alpha of N cases whose two-rater table of proportions is C, from
 * the coincidences o = N (C + C^T) (kappalib._multirater._alpha_from_coincidences). */
export function alphaOfTable(C, nCases) {
  const K = C.length;
  const o = C.map((row, i) => row.map((x, j) => nCases * (x + C[j][i])));
  const nc = o.map((row) => row.reduce((s, x) => s + x, 0));
  const n = nc.reduce((s, x) => s + x, 0);
  let Do = 0;
  let De = 0;
  for (let i = 0; i < K; i++) {
    for (let j = 0; j < K; j++) {
      if (i !== j) {
        Do += o[i][j];
        De += nc[i] * nc[j];
      }
    }
  }
  return De > 0 ? 1 - ((n - 1) * Do) / De : null;
}

/** kappalib.widgets.coefficient_curves: the six coefficients and p_o over the prevalences. */
export function coefficientCurves(s, t, prevalences, nCases) {
  const keys = ["accuracy", "kappa", "scotts_pi", "alpha", "mcc", "ac1", "bp"];
  const out = { prevalence: [] };
  for (const k of keys) out[k] = [];
  for (const pi of prevalences) {
    const C = raterTable(s, t, pi);
    out.prevalence.push(pi);
    out.accuracy.push(finite(observedAgreement(C)));
    out.kappa.push(finite(kappa(C)));
    out.scotts_pi.push(finite(scottsPi(C)));
    out.alpha.push(finite(alphaOfTable(C, nCases)));
    out.mcc.push(finite(mcc(C)));
    out.ac1.push(finite(gwetAc1(C)));
    out.bp.push(finite(brennanPrediger(C)));
  }
  return out;
}

// --- chapter 05: kappalib.widgets.weighted_contributions -----------------------------------

/** Disagreement weights scaled to a largest entry of 1 (kappalib._weights, then / max). */
export function scaledWeights(K, weighting) {
  const W = [];
  let max = 0;
  for (let i = 0; i < K; i++) {
    W.push([]);
    for (let j = 0; j < K; j++) {
      const d = Math.abs(i - j);
      const w = weighting === "linear" ? d : weighting === "quadratic" ? d * d : i === j ? 0 : 1;
      W[i].push(w);
      max = Math.max(max, w);
    }
  }
  return W.map((row) => row.map((w) => w / max));
}

/** Each cell's share W * O and W * E of the observed and expected weighted disagreement,
 * their sums, and the weighted kappa (null when undefined). weighting: null, "linear" or
 * "quadratic". Throws an Error with one sentence for a matrix kappa refuses. */
export function weightedContributions(C, weighting) {
  const k = kappa(C, { weighting }); // validates C, as kappalib's kappa does
  const K = C.length;
  const W = scaledWeights(K, weighting);
  const N = C.flat().reduce((s, x) => s + x, 0);
  const r = C.map((row) => row.reduce((s, x) => s + x, 0));
  const c = C[0].map((_, j) => C.reduce((s, row) => s + row[j], 0));
  const observed = C.map((row, i) => row.map((x, j) => W[i][j] * (x / N)));
  const expected = C.map((row, i) => row.map((_, j) => W[i][j] * ((r[i] * c[j]) / N / N)));
  const add = (M) => M.flat().reduce((s, x) => s + x, 0);
  return {
    W,
    observed,
    expected,
    observed_total: add(observed),
    expected_total: add(expected),
    kappa: finite(k),
  };
}

// --- chapter 07: kappalib.families.C0 / C1, closed_forms.argmin_kappa_C1 -------------------

/** The explorer's family member: C0 = [[a, b], [0, 1]] or C1 = [[a, b], [1, d]]. */
export function mccFamilyMatrix(family, a, b) {
  if (family === "C0") {
    return [
      [a, b],
      [0, 1],
    ];
  }
  const d = { "C1, d=a": a, "C1, d=0": 0, "C1, d=1": 1 }[family];
  if (d === undefined) throw new Error(`family must be C0, C1, d=a, C1, d=0 or C1, d=1, got ${family}`);
  return [
    [a, b],
    [1, d],
  ];
}

/** Where kappa of C1(a, b, d) is smallest over b (Corollaries 4-6). */
export function argminKappaC1(a, scenario) {
  if (scenario === "d=a") return a * a + (a + 1) * Math.sqrt(a * a + 1);
  if (scenario === "d=0") return Math.sqrt(a + 1);
  if (scenario === "d=1") return a + Math.SQRT2 * (a + 1);
  throw new Error(`scenario must be "d=a", "d=0" or "d=1", got ${scenario}`);
}

/** kappalib.widgets.mcc_family_values: the member's kappa and MCC, the sweep over b, and
 * kappa's minimum for the C1 scenarios. */
export function mccFamilyValues(family, a, b, { bMax = 30, nPoints = 601 } = {}) {
  const C = mccFamilyMatrix(family, a, b);
  const bGrid = linspace(0, Math.max(bMax, b), nPoints);
  const kappaCurve = [];
  const mccCurve = [];
  for (const x of bGrid) {
    const M = mccFamilyMatrix(family, a, x);
    kappaCurve.push(finite(kappa(M)));
    mccCurve.push(finite(mcc(M)));
  }
  let bStar = null;
  let kappaStar = null;
  if (family !== "C0") {
    bStar = argminKappaC1(a, family.split(", ")[1]);
    kappaStar = finite(kappa(mccFamilyMatrix(family, a, bStar)));
  }
  return {
    C,
    kappa: finite(kappa(C)),
    mcc: finite(mcc(C)),
    b_grid: bGrid,
    kappa_curve: kappaCurve,
    mcc_curve: mccCurve,
    b_star: bStar,
    kappa_star: kappaStar,
  };
}

// --- chapter 08: kappalib.families.ZA, M1-M5; asymmetry, off_diagonal_entropy --------------

/** The family's matrix at A (Z_A with n classes; M1-M5 are 3 x 3). */
export function familyMatrix(name, A, n) {
  if (name === "ZA") {
    const M = [];
    for (let i = 0; i < n; i++) M.push(new Array(n).fill(1));
    M[0][n - 1] = A;
    return M;
  }
  if (name === "M1") return [[1, 2 * A, A], [A, 1, 2 * A], [A, A, 1]];
  if (name === "M2") return [[1, A, 1], [1, 1, A * A], [1, 1, 1]];
  if (name === "M3") {
    const B = 1000 - A;
    return [[1, B, B], [B + 100, 1, B], [B + 100, B + 100, 1]];
  }
  if (name === "M4") {
    const B = 100 - A;
    return [[1, A, 1], [A * A, 1, B], [1, B * B, 1]];
  }
  if (name === "M5") return [[1, 2 * A, A], [A, 1, A + 100], [A, A, 1]];
  throw new Error(`name must be one of ZA, M1, M2, M3, M4, M5, got ${name}`);
}

/** kappalib.asymmetry: sqrt(sum (C_ij - C_ji)^2). */
export function asymmetry(C) {
  let s = 0;
  for (let i = 0; i < C.length; i++) {
    for (let j = 0; j < C.length; j++) s += (C[i][j] - C[j][i]) ** 2;
  }
  return Math.sqrt(s);
}

/** kappalib.off_diagonal_entropy in bits; null without off-diagonal mass. */
export function offDiagonalEntropy(C) {
  const off = [];
  for (let i = 0; i < C.length; i++) {
    for (let j = 0; j < C.length; j++) if (i !== j) off.push(C[i][j]);
  }
  const total = off.reduce((s, x) => s + x, 0);
  if (!(total > 0)) return null;
  let h = 0;
  for (const x of off) {
    const p = x / total;
    if (p > 0) h -= p * Math.log(p);
  }
  return Math.max(h / Math.LN2, 0) + 0;
}

/** kappalib.widgets.family_range from the definition's ranges: [low, high, default]. */
export function familyRange(ranges, name, n) {
  const r = ranges[name];
  if (r === undefined) throw new Error(`name must be one of ${Object.keys(ranges).join(", ")}, got ${name}`);
  return [r.low, r.high_per_class === undefined ? r.high : r.high_per_class * n, r.default];
}

/** The A slider's step: the largest power of ten at most 1/1000 of the range
 * (kappalib.widgets._families._slider_step). */
export function sliderStep(low, high) {
  return 10 ** Math.floor(Math.log10((high - low) / 1000));
}

/** kappalib.widgets.family_state: the matrix at A, its four statistics, and their curves. */
export function familyState(ranges, name, A, n, nGrid = 201) {
  const classes = name === "ZA" ? n : 3;
  const [low, high] = familyRange(ranges, name, classes);
  const C = familyMatrix(name, A, classes);
  const grid = linspace(low, high, nGrid);
  const curve = (f) => grid.map((x) => finite(f(familyMatrix(name, x, classes))));
  return {
    name,
    label: name === "ZA" ? `Z_A, N = ${classes}` : name,
    A,
    matrix: C,
    kappa: finite(kappa(C)),
    mcc: finite(mcc(C)),
    asymmetry: finite(asymmetry(C)),
    entropy: finite(offDiagonalEntropy(C)),
    grid,
    kappa_curve: curve(kappa),
    mcc_curve: curve(mcc),
    asymmetry_curve: curve(asymmetry),
    entropy_curve: curve(offDiagonalEntropy),
  };
}
