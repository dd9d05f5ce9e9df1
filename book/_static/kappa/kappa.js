// kappa.js: the arithmetic of the static pages, a twin of kappalib (Python).
//
// Every formula here has its original in kappalib, which is this module's oracle:
// tests/js/kappa.test.mjs compares each function with kappalib on more than 1,000 cases
// that tools/js_cases.py writes from kappalib at test time (to 1e-12), so a formula
// changed in kappalib without its twin here fails `make test`.
//
// Conventions, as in kappalib:
// * C is a K x K confusion matrix given as an array of rows (rows = reference / rater 1,
//   columns = prediction / rater 2).  Symbols: N total, r row totals, c column totals,
//   p_o, p_e, W disagreement weights (zero diagonal), w = 1 - W / max(W) agreement weights.
// * An undefined value (0/0: kappa with p_e = 1, MCC with an empty margin, ...) is null,
//   kappalib's None.  Never 0, never NaN.
// * Bad input throws an Error whose message is one sentence naming the argument and
//   echoing the value, kappalib's sentence where the two languages allow.
// * The numerators and denominators are the cancellation-free forms kappalib uses (sums
//   over k of r_k times sums over j != k), so both give the same digits.
// * The report's sentences and number formats are not written here: they are
//   kappalib/_shared/report_words.json, which kappalib reads too (see "the report's words").
//   tests/js/kappa.test.mjs also checks the twin against the conformance table
//   (conformance/cases), the published and exact values kappalib's tests read.
//
// No dependency and no build step.  This file is a classic script, because Chromium refuses
// ES modules (and fetch) from file://, and the site must work from a folder with the
// network off: `<script src="_static/kappa/kappa.js"></script>` defines `window.Kappa`.
// kappa.mjs re-exports the same functions as an ES module (node, and pages served over
// http); node's `require` gets them as module.exports.

(function (root) {
  "use strict";

  const EPS = 2 ** -52;

  // --- small helpers -------------------------------------------------------------------

  function repr(value, limit = 80) {
    let text;
    if (value === null || value === undefined) text = "None";
    else if (typeof value === "string") text = `'${value}'`;
    else if (typeof value === "number") text = pyFloat(value);
    else if (value instanceof PyFloat) text = pyFloatRepr(value.x);
    else if (Array.isArray(value)) text = `[${value.map((v) => repr(v, Infinity)).join(", ")}]`;
    else {
      try {
        text = JSON.stringify(value);
      } catch {
        text = String(value);
      }
    }
    if (text.length > limit) text = text.slice(0, limit - 3) + "...";
    return text;
  }

  // repr of numbers as Python floats (kappalib echoes float64 arrays: 1.0, not 1)
  function reprF(value, limit = 80) {
    const floats = (v) => (Array.isArray(v) ? v.map(floats) : typeof v === "number" ? new PyFloat(v) : v);
    return repr(floats(value), limit);
  }

  class PyFloat {
    constructor(x) {
      this.x = x;
    }
  }

  function pyFloat(x) {
    if (Number.isNaN(x)) return "nan";
    if (x === Infinity) return "inf";
    if (x === -Infinity) return "-inf";
    return String(x);
  }

  function pyFloatRepr(x) {
    // Python's repr of a float: 2.0, not 2
    const s = pyFloat(x);
    return Number.isInteger(x) && !s.includes("e") ? `${s}.0` : s;
  }

  function shapeText(shape) {
    return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
  }

  function sum(v) {
    let s = 0;
    for (const x of v) s += x;
    return s;
  }

  function dot(u, v) {
    let s = 0;
    for (let i = 0; i < u.length; i++) s += u[i] * v[i];
    return s;
  }

  // sum_{j != k} v_j for each k, summed directly (no N - v_k cancellation)
  function others(v) {
    const K = v.length;
    const out = new Array(K);
    for (let k = 0; k < K; k++) {
      let s = 0;
      for (let j = 0; j < K; j++) if (j !== k) s += v[j];
      out[k] = s;
    }
    return out;
  }

  function margins(C) {
    const K = C.length;
    const r = new Array(K).fill(0);
    const c = new Array(K).fill(0);
    let N = 0;
    for (let i = 0; i < K; i++) {
      for (let j = 0; j < K; j++) {
        r[i] += C[i][j];
        c[j] += C[i][j];
      }
    }
    N = sum(r);
    return { N, r, c };
  }

  function trace(C) {
    let s = 0;
    for (let k = 0; k < C.length; k++) s += C[k][k];
    return s;
  }

  function ratio(num, den) {
    return den !== 0 ? num / den : 0;
  }

  function clip(x, lo, hi) {
    return Math.min(Math.max(x, lo), hi);
  }

  // C times a power of two so that its total lies in [0.5, 1), only when the total is beyond
  // 2^200 or below 2^-200 (kappalib's scale_free): products of margins then never overflow.
  function scaleFree(C) {
    let N = 0;
    for (const row of C) for (const x of row) N += x;
    if (N >= 2 ** -200 && N <= 2 ** 200) return C;
    let e = Math.floor(Math.log2(N)) + 1;
    if (N * 2 ** -e >= 1) e += 1;
    if (N * 2 ** -e < 0.5) e -= 1;
    const f = 2 ** -e;
    return C.map((row) => row.map((x) => x * f));
  }

  // --- checks ----------------------------------------------------------------------------

  /**
   * C as a fresh array of rows of finite non-negative numbers, square, with a case: or an
   * Error with kappalib's sentence (as_matrix).
   */
  function asMatrix(C, name = "C") {
    if (!Array.isArray(C) || C.length === 0 || !C.every((row) => Array.isArray(row))) {
      const shape = Array.isArray(C) ? [C.length] : [];
      if (Array.isArray(C) && C.length > 0 && C.every((x) => typeof x === "number")) {
        throw new Error(
          `${name} must be a square matrix of shape (K, K) or a stack (..., K, K), got shape ` +
            `${shapeText(shape)}: ${repr(C)} (label sequences go to confusionMatrix(y1, y2) first)`,
        );
      }
      throw new Error(
        `${name} must be an array-like of counts of shape (K, K), got ${repr(C)}`,
      );
    }
    const K = C.length;
    const lengths = C.map((row) => row.length);
    if (lengths.some((n) => n !== lengths[0])) {
      throw new Error(
        `${name} must be a rectangular array of counts of shape (K, K), got rows of lengths ` +
          `[${lengths.join(", ")}]`,
      );
    }
    if (lengths[0] !== K) {
      throw new Error(
        `${name} must be square in its last two dimensions, got shape (${K}, ${lengths[0]})`,
      );
    }
    const out = C.map((row) => row.map((x) => (typeof x === "boolean" ? Number(x) : x)));
    for (let i = 0; i < K; i++) {
      for (let j = 0; j < K; j++) {
        const x = out[i][j];
        if (typeof x !== "number") {
          throw new Error(`${name} must hold real numeric counts, got ${repr(C[i][j])} at index (${i}, ${j})`);
        }
      }
    }
    for (let i = 0; i < K; i++) {
      for (let j = 0; j < K; j++) {
        if (!Number.isFinite(out[i][j])) {
          throw new Error(
            `${name} must contain only finite counts, got ${pyFloatRepr(out[i][j])} at index (${i}, ${j})`,
          );
        }
      }
    }
    for (let i = 0; i < K; i++) {
      for (let j = 0; j < K; j++) {
        if (out[i][j] < 0) {
          throw new Error(
            `${name} must contain non-negative counts, got ${pyFloatRepr(out[i][j])} at index (${i}, ${j})`,
          );
        }
      }
    }
    let N = 0;
    for (const row of out) for (const x of row) N += x;
    if (!(N > 0)) {
      throw new Error(
        `${name} must contain at least one case, got an all-zero matrix of shape (${K}, ${K})`,
      );
    }
    return out;
  }

  function checkConfidence(level, name = "confidence_level") {
    if (typeof level !== "number") {
      throw new Error(`${name} must be a number strictly between 0 and 1, got ${repr(level)}`);
    }
    if (!(level > 0 && level < 1)) {
      throw new Error(`${name} must be strictly between 0 and 1, got ${pyFloat(level)}`);
    }
    return level;
  }

  // --- weights -----------------------------------------------------------------------------

  function checkScores(scores, K) {
    if (!Array.isArray(scores) || !scores.every((s) => typeof s === "number")) {
      throw new Error(`scores must be real numbers, one per label, got ${repr(scores)}`);
    }
    if (scores.length !== K) {
      throw new Error(
        `scores must be a 1-D sequence with one value per label (K = ${K}), got shape ` +
          `(${scores.length},): ${repr(scores)}`,
      );
    }
    if (!scores.every(Number.isFinite)) throw new Error(`scores must be finite, got ${repr(scores)}`);
    if (new Set(scores).size !== K) {
      throw new Error(`scores must give each label a different value, got ${repr(scores)}`);
    }
    return scores.slice();
  }

  // kappalib's named weightings (Gwet 2014, ch. 3, as irrCAC): NAMED in _weights.py
  const NAMED = ["linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar"];
  const NAMES_TEXT = "None, " + NAMED.map((n) => `'${n}'`).join(", ");

  /** The distances of a named scheme (kappalib's _weights._named), before any scaling. */
  function namedWeights(weighting, K, scores) {
    const noScores = scores === null || scores === undefined;
    if (weighting === "ordinal") {
      if (!noScores) {
        throw new Error(
          "weighting='ordinal' counts the categories from one position to another " +
            `(Gwet 2014), so it takes no scores, got scores=${repr(scores)}`,
        );
      }
      return [...Array(K)].map((_, i) =>
        [...Array(K)].map((__, j) => {
          const n = Math.abs(i - j);
          return (n * (n + 1)) / 2;
        }),
      );
    }
    const s = noScores
      ? [...Array(K).keys()].map((i) => i + (weighting === "ratio" ? 1 : 0))
      : checkScores(scores, K);
    if (weighting === "ratio" && s.some((x) => x < 0)) {
      throw new Error(
        "weighting='ratio' measures ratios from a true zero and needs non-negative " +
          `scores, got ${reprF(s)}`,
      );
    }
    const lo = Math.min(...s);
    const hi = Math.max(...s);
    return s.map((si, i) =>
      s.map((sj, j) => {
        const d = si - sj;
        if (weighting === "linear") return Math.abs(d);
        if (weighting === "quadratic") return d * d;
        if (weighting === "radical") return Math.sqrt(Math.abs(d));
        if (weighting === "circular") return Math.sin((Math.PI * d) / (hi - lo + 1)) ** 2;
        const total = si + sj;
        if (weighting === "ratio") return total === 0 ? 0 : (d / total) ** 2;
        const den = (total - 2 * lo) * (2 * hi - total); // bipolar
        return i === j || den === 0 ? 0 : (d * d) / den;
      }),
    );
  }

  /**
   * The K x K disagreement weights of kappalib's disagreement_weights: 1 - I (null), or a
   * named scheme: |s_i - s_j| ("linear"), (s_i - s_j)^2 ("quadratic") and Gwet's ordinal,
   * radical, ratio, circular and bipolar, s = positions 0..K-1 (1..K for ratio) or scores.
   */
  function disagreementWeights(K, weighting = null, { scores = null } = {}) {
    if (!Number.isInteger(K) || K < 2) throw new Error(`K must be an integer of at least 2, got ${repr(K)}`);
    if (weighting === null || weighting === undefined) {
      if (scores !== null && scores !== undefined) {
        throw new Error(
          "scores only apply to a named weighting such as 'linear' or 'quadratic', got " +
            `weighting=None with scores=${repr(scores)}`,
        );
      }
      return identityComplement(K);
    }
    if (!NAMED.includes(weighting)) {
      throw new Error(`weighting must be ${NAMES_TEXT}, got ${repr(weighting)}`);
    }
    return namedWeights(weighting, K, scores);
  }

  function identityComplement(K) {
    return [...Array(K)].map((_, i) => [...Array(K)].map((__, j) => (i === j ? 0 : 1)));
  }

  function identity(K) {
    return [...Array(K)].map((_, i) => [...Array(K)].map((__, j) => (i === j ? 1 : 0)));
  }

  /** The weighting argument as a validated K x K matrix, or null (unweighted). */
  function resolveWeights(weighting, K, scores = null) {
    const noScores = scores === null || scores === undefined;
    if (weighting === null || weighting === undefined) {
      if (!noScores) {
        throw new Error(
          "scores only apply to a named weighting such as 'linear' or 'quadratic', got " +
            `weighting=None with scores=${repr(scores)}`,
        );
      }
      return null;
    }
    if (typeof weighting === "string") {
      if (!NAMED.includes(weighting)) {
        throw new Error(`weighting must be ${NAMES_TEXT} or a (K, K) array, got ${repr(weighting)}`);
      }
      if (K < 2) return [...Array(K)].map(() => new Array(K).fill(0));
      return namedWeights(weighting, K, scores);
    }
    if (!noScores) {
      throw new Error(
        "scores only apply to a named weighting such as 'linear' or 'quadratic'; a custom " +
          "weight matrix already fixes the distances",
      );
    }
    if (
      !Array.isArray(weighting) ||
      !weighting.every((row) => Array.isArray(row) && row.every((x) => typeof x === "number" || typeof x === "boolean"))
    ) {
      throw new Error(`weighting must be ${NAMES_TEXT} or a (K, K) array, got ${repr(weighting)}`);
    }
    const W = weighting.map((row) => row.map(Number));
    const rows = W.length;
    const cols = rows ? W[0].length : 0;
    if (rows !== K || W.some((row) => row.length !== K)) {
      const shape = W.every((row) => row.length === cols) ? `(${rows}, ${cols})` : `(${rows},)`;
      throw new Error(
        `weighting must be a (${K}, ${K}) disagreement-weight matrix to match the ` +
          `${K} classes, got shape ${shape}`,
      );
    }
    if (!W.every((row) => row.every(Number.isFinite))) {
      throw new Error(`weighting must contain only finite weights, got ${reprF(W)}`);
    }
    if (W.some((row) => row.some((x) => x < 0))) {
      throw new Error(`weighting must contain non-negative disagreement weights, got ${reprF(W)}`);
    }
    const diag = W.map((row, i) => row[i]);
    if (diag.some((x) => x !== 0)) {
      if (diag.every((x) => x === 1)) {
        throw new Error(
          "weighting has ones on its diagonal, so it looks like agreement weights; " +
            "kappalib takes disagreement weights with a zero diagonal, so pass 1 - W, " +
            `got ${reprF(W)}`,
        );
      }
      throw new Error(
        `weighting must have a zero diagonal (agreeing costs nothing), got diagonal ${reprF(diag)}`,
      );
    }
    if (K >= 2 && !W.some((row) => row.some((x) => x > 0))) {
      throw new Error("weighting must charge at least one disagreement, got an all-zero matrix");
    }
    return W;
  }

  /** Agreement weights w = 1 - W / max(W), the identity when W is null. */
  function agreementWeights(W, K) {
    if (W === null) return identity(K);
    let top = -Infinity;
    for (const row of W) for (const x of row) top = Math.max(top, x);
    if (!(top > 0)) top = 1;
    return W.map((row) => row.map((x) => 1 - x / top));
  }

  // --- two raters: p_o, p_e, kappa ---------------------------------------------------------

  function chanceParts(C) {
    const { N, r, c } = margins(C);
    const K = C.length;
    const diag = C.map((row, k) => row[k]);
    const colOff = new Array(K).fill(0);
    for (let k = 0; k < K; k++) for (let i = 0; i < K; i++) if (i !== k) colOff[k] += C[i][k];
    const od = others(diag);
    const num = dot(r, od.map((x, k) => x - colOff[k]));
    const den = dot(r, others(c));
    return { N, r, c, num, den };
  }

  function expectedCountsOf(C) {
    const { N, r, c } = margins(C);
    return r.map((ri) => c.map((cj) => ri * (cj / N)));
  }

  function kappaParts(C, W) {
    if (W === null) {
      const { num, den } = chanceParts(C);
      return { num, den };
    }
    const E = expectedCountsOf(C);
    let wo = 0;
    let we = 0;
    for (let i = 0; i < C.length; i++) {
      for (let j = 0; j < C.length; j++) {
        wo += W[i][j] * C[i][j];
        we += W[i][j] * E[i][j];
      }
    }
    return { num: we - wo, den: we };
  }

  /** p_o = trace(C) / N. */
  function observedAgreement(C) {
    const M = scaleFree(asMatrix(C));
    return trace(M) / margins(M).N;
  }

  /** p_e = sum_k r_k c_k / N^2. */
  function expectedAgreement(C) {
    const M = scaleFree(asMatrix(C));
    const { N, r, c } = margins(M);
    return dot(r, c) / (N * N);
  }

  /**
   * Cohen's kappa; weighted with weighting "linear", "quadratic" (positions or `scores`) or
   * a K x K matrix of disagreement weights.  null when 0/0.
   */
  function kappa(C, { weighting = null, scores = null } = {}) {
    const M = scaleFree(asMatrix(C));
    const W = resolveWeights(weighting, M.length, scores);
    const { num, den } = kappaParts(M, W);
    return den === 0 ? null : ratio(num, den);
  }

  /** The largest kappa the margins allow: (p_o,max - p_e) / (1 - p_e). */
  function kappaMax(C) {
    const M = scaleFree(asMatrix(C));
    const { r, c } = margins(M);
    const m = r.map((ri, k) => Math.min(ri, c[k]));
    const om = others(m);
    const num = dot(r, om.map((x, k) => x - (c[k] - m[k])));
    const den = dot(r, others(c));
    return den === 0 ? null : ratio(num, den);
  }

  function checkBinary(C, name) {
    if (C.length !== 2) {
      throw new Error(
        `${name} is defined for 2 x 2 tables (Byrt et al. 1993), got C of shape (${C.length}, ${C.length})`,
      );
    }
  }

  /** Prevalence index of a 2 x 2 table, (C00 - C11) / N. */
  function prevalenceIndex(C) {
    const M = scaleFree(asMatrix(C));
    checkBinary(M, "prevalence_index");
    return (M[0][0] - M[1][1]) / margins(M).N;
  }

  /** Bias index of a 2 x 2 table, (C01 - C10) / N. */
  function biasIndex(C) {
    const M = scaleFree(asMatrix(C));
    checkBinary(M, "bias_index");
    return (M[0][1] - M[1][0]) / margins(M).N;
  }

  /** Matthews correlation coefficient, Gorodkin's R_K; null when a rater uses one class. */
  function mcc(C) {
    const M = scaleFree(asMatrix(C));
    const { r, c, num } = chanceParts(M);
    const varRef = Math.max(dot(r, others(r)), 0);
    const varPred = Math.max(dot(c, others(c)), 0);
    if (varRef <= 0 || varPred <= 0) return null;
    const product = varRef * varPred;
    const den = product < 2 ** -1000 ? Math.sqrt(varRef) * Math.sqrt(varPred) : Math.sqrt(product);
    return clip(ratio(num, den), -1, 1);
  }

  /** PABAK = (K p_o - 1) / (K - 1). */
  function pabak(C) {
    const M = scaleFree(asMatrix(C));
    const K = M.length;
    if (K < 2) throw new Error(`pabak needs C with at least 2 classes, got shape (${K}, ${K})`);
    return (K * trace(M) / margins(M).N - 1) / (K - 1);
  }

  /** Scott's pi: chance agreement from the pooled margins; null when p_e = 1. */
  function scottsPi(C) {
    const M = scaleFree(asMatrix(C));
    const K = M.length;
    const { r, c } = margins(M);
    const h = r.map((ri, k) => (ri + c[k]) / 2);
    const diag = M.map((row, k) => row[k]);
    const offK = new Array(K).fill(0);
    for (let k = 0; k < K; k++) {
      let rowOff = 0;
      let colOff = 0;
      for (let j = 0; j < K; j++) if (j !== k) rowOff += M[k][j];
      for (let i = 0; i < K; i++) if (i !== k) colOff += M[i][k];
      offK[k] = (rowOff + colOff) / 2;
    }
    const od = others(diag);
    const num = dot(h, od.map((x, k) => x - offK[k]));
    const den = dot(h, others(h));
    return den === 0 ? null : ratio(num, den);
  }

  function twoRaterParts(C, weighting, scores, name) {
    const M = asMatrix(C);
    const K = M.length;
    if (K < 2) throw new Error(`${name} needs at least 2 categories, got ${K}`);
    const w = agreementWeights(resolveWeights(weighting, K, scores), K);
    const { N, r, c } = margins(M);
    let pa = 0;
    for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) pa += M[i][j] * w[i][j];
    pa /= N;
    const pi = r.map((ri, k) => (ri + c[k]) / (2 * N));
    return { K, w, pi, pa };
  }

  function weightSum(w) {
    let s = 0;
    for (const row of w) for (const x of row) s += x;
    return s;
  }

  /** Gwet's AC1 (AC2 with a weighting) for two raters; always defined. */
  function gwetAc1(C, { weighting = null, scores = null } = {}) {
    const { K, w, pi, pa } = twoRaterParts(C, weighting, scores, "gwet_ac1");
    const pe = (weightSum(w) / (K * (K - 1))) * dot(pi, pi.map((x) => 1 - x));
    return (pa - pe) / (1 - pe);
  }

  /** Brennan and Prediger's coefficient: p_e = T_w / K^2 (1/K unweighted). */
  function brennanPrediger(C, { weighting = null, scores = null } = {}) {
    const { K, w, pa } = twoRaterParts(C, weighting, scores, "brennan_prediger");
    const pe = weightSum(w) / (K * K);
    return (pa - pe) / (1 - pe);
  }

  // --- standard error and interval (Fleiss, Cohen & Everitt 1969) ---------------------------

  /**
   * M when it holds whole counts of cases, or kappalib's sentence (counts_of_cases): a
   * standard error shrinks with N, which a table of proportions (or of fractional weights)
   * has lost.
   */
  function countsOfCases(M, name) {
    for (let i = 0; i < M.length; i++) {
      for (let j = 0; j < M[i].length; j++) {
        if (!Number.isInteger(M[i][j])) {
          throw new Error(
            `${name} needs counts of cases (its standard error shrinks with N): C must hold ` +
              `whole numbers, got ${pyFloatRepr(M[i][j])} at index (${i}, ${j}); a table of ` +
              "proportions has lost its N: pass the counts (the proportions times the number of cases)",
          );
        }
      }
    }
    return M;
  }

  function belowRounding(varNum, dev) {
    let top = 0;
    for (const row of dev) for (const x of row) top = Math.max(top, Math.abs(x));
    const scale = top + 1;
    return varNum <= (64 * EPS * scale) ** 2 ? 0 : varNum;
  }

  function seParts(C, weighting, scores) {
    const K = C.length;
    let W = resolveWeights(weighting, K, scores);
    const weighted = weighting !== null && weighting !== undefined;
    if (W === null) W = identityComplement(K);
    const { num, den } = kappaParts(scaleFree(C), weighted ? W : null);
    let undefinedValue = den === 0;
    const k = ratio(num, den);
    const w = agreementWeights(W, K);
    const { N, r, c } = margins(C);
    const pr = r.map((x) => x / N);
    const pc = c.map((x) => x / N);
    let pe = 0;
    for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) pe += pr[i] * w[i][j] * pc[j];
    const wbarRow = w.map((row) => dot(row, pc));
    const wbarCol = [...Array(K)].map((_, j) => {
      let s = 0;
      for (let i = 0; i < K; i++) s += pr[i] * w[i][j];
      return s;
    });
    const dev = w.map((row, i) => row.map((wij, j) => wij - (wbarRow[i] + wbarCol[j]) * (1 - k)));
    let mean = 0;
    for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) mean += (C[i][j] / N) * dev[i][j];
    let varNum = 0;
    for (let i = 0; i < K; i++) {
      for (let j = 0; j < K; j++) {
        const d = dev[i][j] - mean;
        varNum += (C[i][j] / N) * d * d;
      }
    }
    varNum = belowRounding(varNum, dev);
    const variance = Math.max(ratio(varNum, N * (1 - pe) ** 2), 0);
    undefinedValue = undefinedValue || 1 - pe <= 0;
    return { k, se: Math.sqrt(variance), undefinedValue };
  }

  function seNull(C, weighting, scores) {
    const K = C.length;
    let W = resolveWeights(weighting, K, scores);
    if (W === null) W = identityComplement(K);
    const w = agreementWeights(W, K);
    const { N, r, c } = margins(C);
    const pr = r.map((x) => x / N);
    const pc = c.map((x) => x / N);
    let pe = 0;
    for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) pe += pr[i] * w[i][j] * pc[j];
    const wbarRow = w.map((row) => dot(row, pc));
    const wbarCol = [...Array(K)].map((_, j) => {
      let s = 0;
      for (let i = 0; i < K; i++) s += pr[i] * w[i][j];
      return s;
    });
    const dev = w.map((row, i) => row.map((wij, j) => wij - wbarRow[i] - wbarCol[j]));
    let mean = 0;
    for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) mean += pr[i] * dev[i][j] * pc[j];
    let term = 0;
    for (let i = 0; i < K; i++) {
      for (let j = 0; j < K; j++) {
        const d = dev[i][j] - mean;
        term += pr[i] * d * d * pc[j];
      }
    }
    term = belowRounding(term, dev);
    return Math.sqrt(Math.max(ratio(term, N * (1 - pe) ** 2), 0));
  }

  /**
   * Large-sample standard error of (weighted) kappa, Fleiss, Cohen & Everitt (1969);
   * with null: true, the standard error under kappa = 0.  null when kappa is undefined.
   */
  function kappaStandardError(C, { weighting = null, scores = null, null: nullHypothesis = false } = {}) {
    if (typeof nullHypothesis !== "boolean") {
      throw new Error(`null must be True or False, got ${repr(nullHypothesis)}`);
    }
    const M = countsOfCases(asMatrix(C), "kappa_standard_error");
    const { se, undefinedValue } = seParts(M, weighting, scores);
    if (undefinedValue) return null;
    return nullHypothesis ? seNull(M, weighting, scores) : se;
  }

  /**
   * The normal-approximation interval kappa +- z se as [low, high], clipped to [-1, 1]
   * (the low end unclipped for a custom weight matrix, as in kappalib); null when undefined.
   */
  function kappaConfint(C, { confidenceLevel = 0.95, weighting = null, scores = null } = {}) {
    const level = checkConfidence(confidenceLevel);
    const M = countsOfCases(asMatrix(C), "kappa_confint");
    const { k, se, undefinedValue } = seParts(M, weighting, scores);
    if (undefinedValue) return null;
    const z = normalQuantile((1 + level) / 2);
    const floor = weighting === null || weighting === undefined || typeof weighting === "string" ? -1 : -Infinity;
    return [clip(k - z * se, floor, 1), clip(k + z * se, floor, 1)];
  }

  /**
   * The standard normal quantile (inverse CDF), Wichura's AS241 (PPND16), about 1e-16
   * relative accuracy: the algorithm of Python's statistics.NormalDist.inv_cdf, which
   * kappalib uses for its intervals.
   */
  function normalQuantile(p) {
    if (typeof p !== "number" || !(p > 0 && p < 1)) {
      throw new Error(`p must be strictly between 0 and 1, got ${repr(p)}`);
    }
    const q = p - 0.5;
    let num;
    let den;
    if (Math.abs(q) <= 0.425) {
      const r = 0.180625 - q * q;
      num =
        (((((((2.5090809287301226727e3 * r + 3.3430575583588128105e4) * r +
          6.7265770927008700853e4) * r + 4.5921953931549871457e4) * r +
          1.3731693765509461125e4) * r + 1.9715909503065514427e3) * r +
          1.3314166789178437745e2) * r + 3.387132872796366608) * q;
      den =
        ((((((5.2264952788528545610e3 * r + 2.8729085735721942674e4) * r +
          3.9307895800092710610e4) * r + 2.1213794301586595867e4) * r +
          5.3941960214247511077e3) * r + 6.8718700749205790830e2) * r +
          4.2313330701600911252e1) * r + 1.0;
      return num / den;
    }
    let r = q <= 0 ? p : 1 - p;
    r = Math.sqrt(-Math.log(r));
    if (r <= 5.0) {
      r -= 1.6;
      num =
        ((((((7.7454501427834140764e-4 * r + 2.2723844989269184583e-2) * r +
          2.4178072517745061177e-1) * r + 1.2704582524523683826) * r +
          3.6478483247632046050) * r + 5.7694972214606914055) * r +
          4.6303378461565452959) * r + 1.4234371107496835773;
      den =
        ((((((1.05075007164441684324e-9 * r + 5.475938084995344946e-4) * r +
          1.5198666563616457197e-2) * r + 1.4810397642748007459e-1) * r +
          6.8976733498510000455e-1) * r + 1.6763848301838038494) * r +
          2.0531916266377588219) * r + 1.0;
    } else {
      r -= 5.0;
      num =
        ((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r +
          1.2426609473880784386e-3) * r + 2.6532189526576123093e-2) * r +
          2.9656057182850489123e-1) * r + 1.7848265399172913358) * r +
          5.4637849111641143699) * r + 6.6579046435011037772;
      den =
        ((((((2.04426310338993978564e-15 * r + 1.4215117583164458887e-7) * r +
          1.8463183175100546818e-5) * r + 7.868691311456132591e-4) * r +
          1.4875361290850614852e-2) * r + 1.3692988092273580531e-1) * r +
          5.9983220655588793769e-1) * r + 1.0;
    }
    let x = num / den;
    if (q < 0) x = -x;
    return x;
  }

  // --- labels -> matrix ----------------------------------------------------------------------

  function isMissing(v) {
    return v === null || v === undefined || (typeof v === "number" && Number.isNaN(v));
  }

  // --- missing-value tokens (kappalib/_input/missing.py) ------------------------------------
  // A string is a missing rating when, stripped of surrounding space and compared without
  // regard to case, it is blank or one of NA_VALUES, unless the categories the user lists
  // name it ("none" is no token: it is a category of many clinical scales).  NA_VALUES is
  // kappalib's tuple, copied: tests/test_js_twin.py fails when the two differ.

  const NA_VALUES = Object.freeze(["NA", "N/A", "NaN", "null", "#N/A", "<NA>", ".", "-"]);

  // Python's str.strip(): the characters of str.isspace (JavaScript's trim() differs: it
  // strips U+FEFF and keeps U+001C-U+001F and U+0085)
  const PY_SPACE = "[\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
  const PY_STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, "g");

  /** kappalib's token_key: stripped, case-folded (the tokens are ASCII: lower case). */
  function tokenKey(text) {
    return String(text).replace(PY_STRIP, "").toLowerCase();
  }

  const TOKEN_KEYS = new Set(["", ...NA_VALUES.map(tokenKey)]);

  /**
   * Twin of kappalib's classify with the default tokens: of the distinct strings
   * `spellings`, those read as missing (in their order): a blank, or a token that `listed`
   * (the categories the user gave, or null) does not name.
   */
  function missingSpellings(spellings, listed = null) {
    const named = new Set((listed || []).filter((v) => typeof v === "string").map(tokenKey));
    named.delete(""); // a blank is missing, listed or not
    return spellings.filter((s) => {
      const k = tokenKey(s);
      return !named.has(k) && TOKEN_KEYS.has(k);
    });
  }

  /** Python's repr of a string: 'mild', "it's", 'a\\b'. */
  function pyStr(text) {
    const s = String(text).replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");
    if (s.includes("'") && !s.includes('"')) return `"${s}"`;
    return `'${s.replace(/'/g, "\\'")}'`;
  }

  /**
   * Twin of kappalib's missing_caveat: "Read as missing: 'NA' (2 cells)." for the
   * [spelling, count] pairs in reading order (a blank is not named), or null.
   */
  function missingCaveat(counts) {
    const named = counts.filter(([s, n]) => tokenKey(s) !== "" && n);
    if (named.length === 0) return null;
    const spellings = named.map(([s, n]) =>
      say("missing.spelling", { spelling: pyStr(s), n, cell: plural("cell", n) }),
    );
    return say("missing.read_as", { spellings: joinWords(spellings) });
  }

  /**
   * Twin of kappalib's case_variants (kappalib/_input/labels.py): spellings that differ only
   * by case or surrounding space.  Without `listed` (no order given): { readAs: [], clashes },
   * each clash a group of two or more distinct strings of `values` equal stripped and
   * case-folded, which the caller refuses.  With `listed`: readAs holds [spelling, label]
   * for each string not listed that matches exactly one listed category so, and no clash.
   */
  function caseVariants(values, listed = null) {
    const strings = [...new Set(values)].filter((v) => typeof v === "string");
    if (listed === null || listed === undefined) {
      const groups = new Map();
      for (const v of strings) {
        const k = tokenKey(v);
        if (!groups.has(k)) groups.set(k, []);
        groups.get(k).push(v);
      }
      return { readAs: [], clashes: [...groups.values()].filter((g) => g.length > 1) };
    }
    const byKey = new Map();
    for (const v of listed) {
      if (typeof v !== "string") continue;
      const k = tokenKey(v);
      if (!byKey.has(k)) byKey.set(k, []);
      byKey.get(k).push(v);
    }
    const exact = new Set(listed);
    const readAs = [];
    for (const v of strings) {
      const match = byKey.get(tokenKey(v)) || [];
      if (!exact.has(v) && match.length === 1) readAs.push([v, match[0]]);
    }
    return { readAs, clashes: [] };
  }

  /**
   * Twin of kappalib's variants_caveat: "Read as the categories listed: 'Mild' as 'mild'
   * (1 cell)." for [spelling, label, count] triples in reading order, or null.
   */
  function variantsCaveat(triples) {
    const named = triples.filter(([, , n]) => n);
    if (named.length === 0) return null;
    const spellings = named.map(([s, label, n]) =>
      say("spelling.variant", { spelling: pyStr(s), label: pyStr(label), n, cell: plural("cell", n) }),
    );
    return say("spelling.read_as", { spellings: joinWords(spellings) });
  }

  /** The two-rater report's sentence on units left out for a missing label, or null. */
  function leftOutCaveat(n) {
    if (!n) return null;
    return say("two_raters.caveat_missing", { n, unit: plural("unit", n), was: plural("was", n) });
  }

  function compareValues(a, b) {
    if (typeof a === "number" && typeof b === "number") return a - b;
    // strings: by code point, as numpy's np.unique sorts them
    const x = String(a);
    const y = String(b);
    const xs = [...x];
    const ys = [...y];
    for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
      const d = xs[i].codePointAt(0) - ys[i].codePointAt(0);
      if (d !== 0) return d;
    }
    return xs.length - ys.length;
  }

  function sortedUnique(values) {
    const kinds = new Set(values.map((v) => typeof v));
    if (kinds.size > 1) {
      const num = values.find((v) => typeof v === "number");
      const word = values.find((v) => typeof v === "string");
      throw new Error(
        `labels must be all numbers or all strings, got a mix such as ${repr(num)} and ${repr(word)}`,
      );
    }
    return [...new Set(values)].sort(compareValues);
  }

  /**
   * The confusion matrix of two label sequences (rows = y1, columns = y2), in the order of
   * `labels` or, without it, sorted (numbers ascending, strings by spelling).  Returns
   * { C, labels, order } with order "given", "numbers" or "spelling".
   */
  function confusionMatrix(y1, y2, { labels = null } = {}) {
    if (!Array.isArray(y1) || !Array.isArray(y2)) {
      throw new Error(`y1 and y2 must be sequences of labels, got ${repr(y1, 30)} and ${repr(y2, 30)}`);
    }
    if (y1.length !== y2.length) {
      throw new Error(
        `y1 and y2 must have the same length, got ${y1.length} and ${y2.length}`,
      );
    }
    if (y1.length === 0) throw new Error("y1 and y2 must hold at least one label each, got empty sequences");
    const all = y1.concat(y2);
    const missingAt = all.findIndex(isMissing);
    if (missingAt >= 0) {
      const which = missingAt < y1.length ? "y1" : "y2";
      const pos = missingAt < y1.length ? missingAt : missingAt - y1.length;
      throw new Error(`${which} has a missing label at position ${pos}: every case needs both labels`);
    }
    let order;
    let domain;
    if (labels !== null && labels !== undefined) {
      if (!Array.isArray(labels) || labels.length === 0) {
        throw new Error(`labels must be a non-empty sequence, got ${repr(labels)}`);
      }
      if (new Set(labels).size !== labels.length) {
        throw new Error(`labels must not repeat a label, got ${repr(labels)}`);
      }
      domain = labels.slice();
      order = "given";
      const known = new Set(domain);
      const unknown = all.find((v) => !known.has(v));
      if (unknown !== undefined) {
        throw new Error(`the label ${repr(unknown)} is not in labels ${repr(labels)}`);
      }
    } else {
      domain = sortedUnique(all);
      order = typeof domain[0] === "number" ? "numbers" : "spelling";
    }
    const index = new Map(domain.map((v, i) => [v, i]));
    const K = domain.length;
    const C = [...Array(K)].map(() => new Array(K).fill(0));
    for (let n = 0; n < y1.length; n++) C[index.get(y1[n])][index.get(y2[n])] += 1;
    return { C, labels: domain, order };
  }

  // --- ratings tables: units x raters, missing values ------------------------------------------

  function checkRatings(data, layout) {
    if (layout !== "units x raters" && layout !== "raters x units") {
      throw new Error(`layout must be 'raters x units' or 'units x raters', got ${repr(layout)}`);
    }
    if (!Array.isArray(data) || data.length === 0 || !data.every(Array.isArray)) {
      throw new Error(`ratings must be a 2-D array of ratings, got ${repr(data)}`);
    }
    const lengths = data.map((row) => row.length);
    if (lengths.some((n) => n !== lengths[0])) {
      throw new Error(
        "ratings must be a rectangular array (pad a missing rating with null), got " +
          `rows of lengths [${lengths.join(", ")}]`,
      );
    }
    if (lengths[0] === 0) throw new Error("ratings must hold at least one rating, got empty rows");
    // units x raters: one array per unit
    const units =
      layout === "units x raters" ? data : data[0].map((_, u) => data.map((row) => row[u]));
    const present = [];
    for (const unit of units) for (const v of unit) if (!isMissing(v)) present.push(v);
    if (present.length === 0) {
      throw new Error(
        `ratings has no rating at all: every one of its ${units.length * units[0].length} cells is missing`,
      );
    }
    const kinds = new Set(present.map((v) => typeof v));
    if (kinds.size > 1 || !(kinds.has("number") || kinds.has("string"))) {
      const num = present.find((v) => typeof v !== "string");
      const word = present.find((v) => typeof v === "string");
      if (word === undefined) {
        throw new Error(
          `ratings must hold numbers or strings (null for missing), got ${repr(num)}`,
        );
      }
      throw new Error(
        "ratings must hold either numbers or strings (null for missing), got a mix " +
          `such as ${repr(num)} and ${repr(word)}`,
      );
    }
    const bad = present.find((v) => typeof v === "number" && !Number.isFinite(v));
    if (bad !== undefined) {
      throw new Error(`ratings must hold finite ratings or null for missing, got ${pyFloat(bad)}`);
    }
    return { units, numeric: kinds.has("number") };
  }

  function countTable(units, labels, numeric) {
    let domain;
    let order;
    if (labels !== null && labels !== undefined) {
      if (!Array.isArray(labels) || labels.length === 0) {
        throw new Error(`labels must be a non-empty 1-D sequence, got ${repr(labels)}`);
      }
      if (numeric && !labels.every((v) => typeof v === "number")) {
        throw new Error(`labels must be numbers to match numeric ratings, got ${repr(labels)}`);
      }
      if (!numeric && !labels.every((v) => typeof v === "string")) {
        throw new Error(`labels must be strings to match string ratings, got ${repr(labels)}`);
      }
      if (new Set(labels).size !== labels.length) {
        throw new Error(`labels must not repeat a value, got ${repr(labels)}`);
      }
      domain = labels.slice();
      order = "given";
    } else {
      const present = [];
      for (const unit of units) for (const v of unit) if (!isMissing(v)) present.push(v);
      domain = sortedUnique(present);
      order = numeric ? "numbers" : "spelling";
    }
    const index = new Map(domain.map((v, i) => [v, i]));
    const table = units.map((unit) => {
      const row = new Array(domain.length).fill(0);
      for (const v of unit) {
        if (isMissing(v)) continue;
        const at = index.get(v);
        if (at === undefined) {
          throw new Error(
            `ratings holds the rating ${repr(v)}, which is not among labels ${repr(domain)}`,
          );
        }
        row[at] += 1;
      }
      return row;
    });
    return { table, labels: domain, order };
  }

  /**
   * Count how many raters put each unit in each category: { table, labels, order }.
   * `data` is units x raters by default (one row per subject, blanks as null), the layout
   * of a spreadsheet; layout "raters x units" reads kappalib's default for arrays.
   */
  function ratingTable(data, { labels = null, layout = "units x raters" } = {}) {
    const { units, numeric } = checkRatings(data, layout);
    return countTable(units, labels, numeric);
  }

  function checkCountTable(table, name = "table") {
    if (!Array.isArray(table) || table.length === 0 || !table.every(Array.isArray)) {
      throw new Error(`${name} must be a 2-D units x categories array of counts, got ${repr(table)}`);
    }
    const lengths = table.map((row) => row.length);
    if (lengths.some((n) => n !== lengths[0]) || lengths[0] === 0) {
      throw new Error(
        `${name} must be a rectangular units x categories array of counts, got ragged rows: ${repr(table)}`,
      );
    }
    for (let i = 0; i < table.length; i++) {
      for (let k = 0; k < lengths[0]; k++) {
        const x = table[i][k];
        if (typeof x !== "number") throw new Error(`${name} must hold numeric counts, got ${repr(x)}`);
        if (!Number.isFinite(x)) {
          throw new Error(`${name} must contain only finite counts, got ${pyFloatRepr(x)} at index (${i}, ${k})`);
        }
        if (x < 0) {
          throw new Error(`${name} must contain non-negative counts, got ${pyFloatRepr(x)} at index (${i}, ${k})`);
        }
        if (Math.floor(x) !== x) {
          throw new Error(
            `${name} must hold counts of ratings (whole numbers), got ${pyFloatRepr(x)} at index (${i}, ${k}); ` +
              "raw ratings go through kl.rating_table(ratings, layout=...) first",
          );
        }
      }
    }
    if (!table.some((row) => row.some((x) => x > 0))) {
      throw new Error(`${name} must contain at least one rating, got an all-zero table`);
    }
    return table.map((row) => row.slice());
  }

  /** Fleiss' kappa of a units x categories count table with n ratings in every row. */
  function fleissKappa(table) {
    const T = checkCountTable(table);
    const nI = T.map(sum);
    const n = nI[0];
    const j = nI.findIndex((x) => x !== n);
    if (j >= 0) {
      throw new Error(
        "table must have the same number of ratings in every row (Fleiss' kappa assumes " +
          `each subject is rated n times), got ${n} in row 0 and ${nI[j]} in row ${j}; ` +
          "for units with different numbers of ratings use kl.fleiss_kappa_generalized" +
          "(table), Gwet's (2014) generalized Fleiss kappa",
      );
    }
    if (n < 2) throw new Error(`table must hold at least 2 ratings per subject for Fleiss' kappa, got ${n}`);
    const N = T.length;
    const K = T[0].length;
    const S = T.map((row) => row.map((x) => x / n));
    const p = new Array(K).fill(0);
    let ss = 0;
    for (const row of S) {
      for (let k = 0; k < K; k++) {
        p[k] += row[k];
        ss += row[k] * row[k];
      }
    }
    for (let k = 0; k < K; k++) p[k] /= N;
    const Pbar = (ss / N - 1 / n) * (n / (n - 1));
    const Pe = dot(p, p);
    const den = 1 - Pe;
    return den > 0 ? (Pbar - Pe) / den : null;
  }

  const LEVELS = ["nominal", "ordinal", "interval", "ratio"];

  function coincidences(table) {
    const V = table[0].length;
    const o = [...Array(V)].map(() => new Array(V).fill(0));
    let mMax = 0;
    for (const row of table) {
      const m = sum(row);
      mMax = Math.max(mMax, m);
      if (m < 2) continue;
      const inv = 1 / (m - 1);
      for (let c = 0; c < V; c++) {
        if (row[c] === 0) continue;
        for (let k = 0; k < V; k++) o[c][k] += row[c] * inv * row[k];
        o[c][c] -= row[c] * inv;
      }
    }
    return { o, mMax };
  }

  function deltaMatrix(level, domain, nC) {
    const V = domain.length;
    if (level === "nominal") return identityComplement(V);
    if (level === "ordinal") {
      const M = [];
      let acc = 0;
      for (let c = 0; c < V; c++) {
        acc += nC[c];
        M.push(acc - nC[c] / 2);
      }
      return M.map((mc) => M.map((mk) => (mk - mc) ** 2));
    }
    let v = domain.slice();
    const top = Math.max(...v.map(Math.abs));
    if (top > 0) {
      let e = Math.floor(Math.log2(top)) + 1;
      if (top * 2 ** -e >= 1) e += 1;
      if (top * 2 ** -e < 0.5) e -= 1;
      v = v.map((x) => x * 2 ** -e);
    }
    if (level === "interval") return v.map((a) => v.map((b) => (a - b) ** 2));
    return v.map((a) =>
      v.map((b) => {
        const s = a + b;
        return s !== 0 ? ((a - b) / s) ** 2 : 0;
      }),
    );
  }

  /**
   * Krippendorff's alpha of ratings with missing values (null), at the nominal, ordinal,
   * interval or ratio level.  `data` is units x raters by default (one row per subject);
   * layout "raters x units" reads the krippendorff package's layout.  null when every
   * pairable rating is the same value.
   */
  function krippendorffAlpha(
    data,
    { levelOfMeasurement = "nominal", labels = null, layout = "units x raters" } = {},
  ) {
    const level = levelOfMeasurement;
    if (!LEVELS.includes(level)) {
      throw new Error(
        `level_of_measurement must be 'nominal', 'ordinal', 'interval' or 'ratio', got ${repr(level)}`,
      );
    }
    const { units, numeric } = checkRatings(data, layout);
    const { table, labels: domain, order } = countTable(units, labels, numeric);
    if (!numeric && (level === "interval" || level === "ratio")) {
      throw new Error(
        `level_of_measurement=${repr(level)} needs numeric ratings, got strings such as ` +
          `${repr(domain[0])}; use 'nominal', or 'ordinal' with labels= giving their order`,
      );
    }
    if (!numeric && level === "ordinal" && order === "spelling") {
      throw new Error(
        "level_of_measurement='ordinal' on string ratings needs labels= listing them in " +
          `order, got labels=None for values ${repr(domain)}`,
      );
    }
    if (level === "ratio" && domain.some((x) => x < 0)) {
      throw new Error(
        "level_of_measurement='ratio' needs non-negative values, got " +
          `${pyFloat(domain.find((x) => x < 0))}`,
      );
    }
    const { o, mMax } = coincidences(table);
    if (mMax < 2) {
      throw new Error(
        "ratings must have at least one unit rated by two or more raters, got " +
          `${mMax} rating(s) per unit at most`,
      );
    }
    const nC = o.map(sum);
    const n = sum(nC);
    const delta = deltaMatrix(level, domain, nC);
    let Do = 0;
    let De = 0;
    for (let c = 0; c < domain.length; c++) {
      for (let k = 0; k < domain.length; k++) {
        Do += o[c][k] * delta[c][k];
        De += nC[c] * delta[c][k] * nC[k];
      }
    }
    if (!(De > 0)) return null;
    return 1 - ((n - 1) * Do) / De;
  }

  function multiParts(table, weighting, scores, name) {
    const T = checkCountTable(table);
    const K = T[0].length;
    if (K < 2) throw new Error(`${name} needs at least 2 categories, got ${K}`);
    const w = agreementWeights(resolveWeights(weighting, K, scores), K);
    const rated = T.filter((row) => sum(row) > 0);
    const two = rated.filter((row) => sum(row) >= 2);
    if (two.length === 0) {
      throw new Error(
        `table must have at least one unit with two or more ratings for ${name}, got at ` +
          `most ${Math.max(...rated.map(sum))} per unit`,
      );
    }
    let pa = 0;
    for (const row of two) {
      const ri = sum(row);
      const S = row.map((x) => x / ri);
      let agree = 0;
      for (let k = 0; k < K; k++) agree += S[k] * dot(w[k], S);
      agree -= 1 / ri;
      pa += agree * (ri / (ri - 1));
    }
    pa /= two.length;
    const pi = new Array(K).fill(0);
    for (const row of rated) {
      const ri = sum(row);
      for (let k = 0; k < K; k++) pi[k] += row[k] / ri;
    }
    for (let k = 0; k < K; k++) pi[k] /= rated.length;
    return { K, w, pa, pi };
  }

  /** Gwet's AC1 (AC2 with a weighting) for many raters, from a units x categories table. */
  function gwetAc1Multi(table, { weighting = null, scores = null } = {}) {
    const { K, w, pa, pi } = multiParts(table, weighting, scores, "gwet_ac1_multi");
    const pe = (weightSum(w) / (K * (K - 1))) * dot(pi, pi.map((x) => 1 - x));
    return (pa - pe) / (1 - pe);
  }

  /** Brennan-Prediger for many raters, from a units x categories table. */
  function brennanPredigerMulti(table, { weighting = null, scores = null } = {}) {
    const { K, w, pa } = multiParts(table, weighting, scores, "brennan_prediger_multi");
    const pe = weightSum(w) / (K * K);
    return (pa - pe) / (1 - pe);
  }

  // --- the report paragraph (kl.agreement_report(...).methods_paragraph()) -------------------

  /** Standard normal CDF, 0.5 (1 + erf(x / sqrt 2)) as Python's NormalDist.cdf. */
  function normalCdf(x) {
    return 0.5 * (1 + erf(x / Math.SQRT2));
  }

  function erf(x) {
    // erf(x) = 2/sqrt(pi) e^{-x^2} sum_n 2^n x^{2n+1} / (1 3 5 ... (2n+1)): positive terms,
    // no cancellation; beyond |x| = 6, erf = +-1 to double precision
    const a = Math.abs(x);
    if (a > 6) return Math.sign(x);
    let term = a;
    let total = a;
    for (let n = 1; n < 500; n++) {
      term *= (2 * a * a) / (2 * n + 1);
      total += term;
      if (term < total * 1e-17) break;
    }
    const value = (2 / Math.sqrt(Math.PI)) * Math.exp(-a * a) * total;
    return x < 0 ? -value : value;
  }

  // Python's float formatting (round half to even on the exact binary value), which JS's
  // toFixed does not do for ties such as 0.0625.
  function exactDigits(x) {
    // the decimal expansion of |x| (< 1e21) as [integer digits, 100 fractional digits]
    const s = Math.abs(x).toFixed(100);
    const [i, f] = s.split(".");
    return [i, f];
  }

  function roundDigitString(digits, keep) {
    // digits: a string of decimal digits; keep the first `keep`, rounding half to even on the
    // rest; returns the kept digits (possibly one longer after a carry)
    const head = digits.slice(0, keep);
    const rest = digits.slice(keep);
    let up = false;
    if (rest.length) {
      const first = rest[0];
      const tail = rest.slice(1);
      if (first > "5") up = true;
      else if (first === "5") {
        if (/[1-9]/.test(tail)) up = true;
        else up = head.length > 0 && Number(head[head.length - 1]) % 2 === 1;
      }
    }
    if (!up) return head || "0";
    const arr = (head || "0").split("").map(Number);
    let k = arr.length - 1;
    while (k >= 0) {
      if (arr[k] === 9) {
        arr[k] = 0;
        k -= 1;
      } else {
        arr[k] += 1;
        break;
      }
    }
    if (k < 0) arr.unshift(1);
    return arr.join("");
  }

  /** f"{x:.{d}f}" */
  function pyFixed(x, d) {
    const [i, f] = exactDigits(x);
    const rounded = roundDigitString(i + f, i.length + d);
    const intLen = rounded.length - d;
    let out = d > 0 ? `${rounded.slice(0, intLen)}.${rounded.slice(intLen)}` : rounded;
    out = out.replace(/^0+(?=\d)/, "");
    return (x < 0 || Object.is(x, -0) ? "-" : "") + out;
  }

  /** f"{x:.{precision}g}" (f"{x:g}": 6 significant digits) */
  function pyG(x, precision = 6) {
    if (x === 0) return Object.is(x, -0) ? "-0" : "0";
    if (!Number.isFinite(x)) return pyFloat(x);
    const [i, f] = exactDigits(x);
    const all = (i + f).replace(/^0+/, "");
    const lead = i.replace(/^0+/, "").length; // digits before the point (0 if |x| < 1)
    const zeros = lead > 0 ? 0 : f.length - f.replace(/^0+/, "").length;
    let exp = lead > 0 ? lead - 1 : -(zeros + 1);
    let sig = roundDigitString(all, precision);
    if (sig.length > precision) {
      exp += 1;
      sig = sig.slice(0, precision);
    }
    const sign = x < 0 ? "-" : "";
    if (exp >= -4 && exp < precision) {
      let body;
      if (exp >= 0) {
        const padded = sig.padEnd(exp + 1, "0");
        body = `${padded.slice(0, exp + 1)}.${padded.slice(exp + 1)}`;
      } else body = `0.${"0".repeat(-exp - 1)}${sig}`;
      body = body.replace(/\.?0+$/, (m) => (m.startsWith(".") || body.includes(".") ? "" : m));
      if (body.includes(".")) body = body.replace(/0+$/, "").replace(/\.$/, "");
      return sign + body;
    }
    let mant = sig.length > 1 ? `${sig[0]}.${sig.slice(1)}` : sig;
    mant = mant.includes(".") ? mant.replace(/0+$/, "").replace(/\.$/, "") : mant;
    const e = Math.abs(exp);
    return `${sign}${mant}e${exp < 0 ? "-" : "+"}${e < 10 ? "0" : ""}${e}`;
  }

  // --- the report's words ---------------------------------------------------------------
  // The sentences and number formats of kappalib's report are data, not code here:
  // kappalib/_shared/report_words.json, which kappalib reads too.  The calculator page embeds
  // that file (book/calculator.md: <script type="application/json" id="kappa-words">); node
  // passes it to setWords (tests/js/kappa.test.mjs).  say() fills a template as kappalib's
  // words.say() does: each {name} is replaced by a value already formatted.

  let WORDS = null;

  /** Use these words (the parsed report_words.json) for the report. */
  function setWords(words) {
    WORDS = words;
  }

  function words() {
    if (WORDS === null && typeof document !== "undefined") {
      const el = document.getElementById("kappa-words");
      if (el) WORDS = JSON.parse(el.textContent);
    }
    if (WORDS === null) {
      throw new Error(
        "the report's words (kappalib/_shared/report_words.json) are not loaded: embed them as " +
          '<script type="application/json" id="kappa-words"> or call Kappa.setWords(words)',
      );
    }
    return WORDS;
  }

  function template(key) {
    return key.split(".").reduce((node, part) => node[part], words());
  }

  function say(key, values = {}) {
    return template(key).replace(/\{(\w+)\}/g, (_, name) => {
      if (!(name in values)) throw new Error(`the template ${key} needs {${name}}`);
      return String(values[name]);
    });
  }

  function plural(word, n) {
    const [one, many] = words().plural[word];
    return n === 1 ? one : many;
  }

  function digits(kind) {
    return words().numbers.digits[kind];
  }

  /** kappalib's number_text: fixed decimals, never "-0.000", "undefined" for null. */
  function numberText(x, d = digits("estimate")) {
    if (x === null || x === undefined) return words().numbers.undefined;
    const s = pyFixed(x, d);
    return s.startsWith("-") && Number(s) === 0 ? s.slice(1) : s;
  }

  /** kappalib's count_text: a whole count in full, others to 12 significant digits. */
  function countText(x) {
    return Number.isInteger(x) ? BigInt(x).toString() : pyG(x, words().numbers.count_significant_digits);
  }

  function pText(p) {
    if (p === null) return words().numbers.undefined;
    const limit = words().numbers.p_below;
    return p < limit ? say("p.below", { limit: pyG(limit) }) : say("p.value", { p: pyFixed(p, digits("p")) });
  }

  function joinWords(list) {
    const sep = words().lists;
    if (list.length <= 1) return list.join("");
    return `${list.slice(0, -1).join(sep.separator)}${sep.last_separator}${list[list.length - 1]}`;
  }

  function joinList(list, separator = "separator") {
    return list.join(words().lists[separator]);
  }

  /** Specific agreement per category, 2 n_kk / (n_k. + n_.k); null for an unused one. */
  function specificAgreement(C) {
    const M = asMatrix(C);
    const { r, c } = margins(M);
    return M.map((row, k) => (r[k] + c[k] > 0 ? (2 * row[k]) / (r[k] + c[k]) : null));
  }

  function reportCaveats(C, labels, n, raters) {
    const { N, r, c } = margins(C);
    const K = C.length;
    const d = digits("share");
    const used = r.map((ri, k) => ri + c[k] > 0);
    const share = r.map((ri, k) => (ri + c[k]) / (2 * N));
    const out = [];
    const rare = [...Array(K).keys()].filter((k) => used[k] && share[k] < 1 / (2 * K));
    if (rare.length) {
      const which = rare.map((k) => say("two_raters.rare_share", { label: labels[k], share: numberText(share[k], d) }));
      const limit = numberText(1 / (2 * K), d);
      out.push(say("two_raters.caveat_prevalence", { which: joinWords(which), is: plural("is", rare.length), limit }));
    }
    const diff = r.map((ri, k) => Math.abs(ri - c[k]) / N);
    let k = 0;
    for (let j = 1; j < K; j++) if (diff[j] > diff[k]) k = j;
    if (diff[k] >= words().thresholds.bias_share) {
      const [a, b] = raters;
      const [share_a, share_b] = [numberText(r[k] / N, d), numberText(c[k] / N, d)];
      out.push(say("two_raters.caveat_bias", { label: labels[k], a, b, share_a, share_b }));
    }
    const unused = [...Array(K).keys()].filter((j) => !used[j]).map((j) => String(labels[j]));
    if (unused.length) {
      const rows_and_columns = plural("rows_and_columns", unused.length);
      out.push(say("two_raters.caveat_unused", { labels: joinWords(unused), rows_and_columns }));
    }
    const few = words().thresholds.few_units;
    if (n < few) out.push(say("two_raters.caveat_few_units_analytic", { n_units: countText(n), limit: few }));
    return out;
  }

  /**
   * Twin of kappalib's weighted_agreement: p_o,w = sum(w C) / N and p_e,w = sum(w E) / N with
   * E = r c^T / N and the agreement weights w = 1 - W / max(W); [null, null] unweighted.
   */
  function weightedAgreement(M, weighting, scores) {
    if (weighting === null || weighting === undefined) return [null, null];
    const K = M.length;
    const w = agreementWeights(resolveWeights(weighting, K, scores), K);
    const { N, r, c } = margins(M);
    let po = 0;
    let pe = 0;
    for (let i = 0; i < K; i++) {
      for (let j = 0; j < K; j++) {
        po += w[i][j] * M[i][j];
        pe += w[i][j] * (r[i] * (c[j] / N));
      }
    }
    return [po / N, pe / N];
  }

  /**
   * Twin of kappalib's interval_ends: what follows "low to high" (zero width as printed, or
   * which ends were clipped at the coefficient's range, bound its smallest value).
   */
  function intervalEnds(low, high, clippedLow, clippedHigh, bound) {
    if (numberText(low) === numberText(high)) return say("interval_ends.zero_width");
    if (clippedLow && clippedHigh) return say("interval_ends.both", { bound: numberText(bound) });
    if (clippedHigh) return say("interval_ends.high");
    if (clippedLow) return say("interval_ends.low", { bound: numberText(bound) });
    return "";
  }

  /** kappalib's version, which the paragraph names; tests/test_report_paragraph.py checks it. */
  const KAPPALIB_VERSION = "0.1.0";

  function coefficientName(weighting) {
    const names = words().two_raters.coefficient;
    if (weighting === null || weighting === undefined) return names.none;
    return typeof weighting === "string" ? names[weighting] : names.custom;
  }

  /**
   * Twin of kl.agreement_report(C=C, labels=, weighting=, scores=, confidence_level=,
   * raters=): the numbers of the report and its methodsParagraph({table}).
   */
  function agreementReport(
    C,
    { labels = null, weighting = null, scores = null, confidenceLevel = 0.95, raters = ["rater 1", "rater 2"] } = {},
  ) {
    const level = checkConfidence(confidenceLevel);
    const M = asMatrix(C);
    const K = M.length;
    let names;
    if (labels === null || labels === undefined) names = [...Array(K).keys()].map(String);
    else {
      if (!Array.isArray(labels) || labels.length !== K || new Set(labels).size !== K) {
        throw new Error(`labels must name each of the ${K} rows of C once, got ${repr(labels)}`);
      }
      names = labels.map(String);
    }
    const estimate = kappa(M, { weighting, scores });
    if (estimate === null) {
      const used = names.filter((_, k) => sum(M[k]) + sum(M.map((row) => row[k])) > 0);
      throw new Error(say("two_raters.undefined", { labels: joinWords(used) }));
    }
    const se = kappaStandardError(M, { weighting, scores });
    const se0 = kappaStandardError(M, { weighting, scores, null: true });
    const ci = kappaConfint(M, { weighting, scores, confidenceLevel: level });
    const z = se0 > 0 ? estimate / se0 : null;
    const p = z !== null ? 2 * normalCdf(-Math.abs(z)) : null;
    const n = margins(M).N;
    const [weightedPo, weightedPe] = weightedAgreement(M, weighting, scores);
    const report = {
      coefficient: coefficientName(weighting),
      estimate,
      standardError: se,
      nullStandardError: se0,
      confidenceInterval: ci,
      confidenceLevel: level,
      intervalMethod: say("interval_methods.analytic"),
      z,
      pValue: p,
      observedAgreement: observedAgreement(M),
      expectedAgreement: expectedAgreement(M),
      weightedObservedAgreement: weightedPo,
      weightedExpectedAgreement: weightedPe,
      matrix: M,
      labels: names,
      raters: [raters[0], raters[1]],
      n,
      weighting,
      pabak: pabak(M),
      kappaMax: kappaMax(M),
      prevalenceIndex: K === 2 ? prevalenceIndex(M) : null,
      biasIndex: K === 2 ? biasIndex(M) : null,
      caveats: reportCaveats(M, names, n, raters),
      specificAgreement: specificAgreement(M),
    };
    report.methodsParagraph = ({ table = null } = {}) => methodsParagraph(report, table);
    return report;
  }

  /** Twin of AgreementReport.methods_paragraph (the analytic interval: the page's). */
  function methodsParagraph(R, table) {
    const [a, b] = R.raters;
    const [lo, hi] = R.confidenceInterval;
    const weighted = !(R.weighting === null || R.weighting === undefined);
    let categories = joinList(R.labels);
    if (weighted) {
      categories = say("two_raters.categories_ordered", { labels: joinList(R.labels, "order_separator") });
      if (typeof R.weighting !== "string") categories = say("two_raters.categories_custom_weights", { categories });
    }
    const { coefficient } = R;
    const [po, pe] = [numberText(R.observedAgreement), numberText(R.expectedAgreement)];
    const agreement =
      R.weightedObservedAgreement === null
        ? say("two_raters.agreement", { p_o: po, p_e: pe })
        : say("two_raters.agreement_weighted", {
            p_o: numberText(R.weightedObservedAgreement),
            p_e: numberText(R.weightedExpectedAgreement),
            coefficient,
            p_o_exact: po,
            p_e_exact: pe,
          });
    // kappaConfint clips at kappa's range, [-1, 1] (no lower end for a custom weight matrix);
    // with a standard error above 0, an end on the range was clipped there
    const moved = R.standardError > 0;
    const floor = !weighted || typeof R.weighting === "string" ? -1 : null;
    const s = [
      say("two_raters.design", { a, b, n_units: countText(R.n), K: R.labels.length, categories, coefficient }),
      say("software", { version: KAPPALIB_VERSION }),
      say("two_raters.estimate", {
        agreement,
        coefficient,
        estimate: numberText(R.estimate),
        level: `${pyFixed(R.confidenceLevel * 100, 0)}%`,
        low: numberText(lo),
        high: numberText(hi),
        clipped: intervalEnds(lo, hi, moved && floor !== null && lo <= floor, moved && hi >= 1, floor),
        interval_method: R.intervalMethod,
        standard_error: numberText(R.standardError, digits("standard_error")),
      }),
      say("two_raters.conditional"),
    ];
    if (R.z === null) {
      const nonzeroRows = R.matrix.filter((row) => sum(row) !== 0).length;
      s.push(say("two_raters.no_test", { rater: nonzeroRows === 1 ? a : b }));
    } else s.push(say("two_raters.test", { z: numberText(R.z, digits("z")), p: pText(R.pValue) }));
    const indices =
      R.prevalenceIndex === null
        ? ""
        : say("two_raters.indices", {
            prevalence_index: numberText(R.prevalenceIndex),
            bias_index: numberText(R.biasIndex),
          });
    const kappaKind = say(weighted ? "two_raters.kappa_of_weighted" : "two_raters.kappa");
    const [pabakText, kappaMaxText] = [numberText(R.pabak), numberText(R.kappaMax)];
    const pabakName = say(weighted ? "two_raters.pabak_of_weighted" : "two_raters.pabak");
    s.push(
      say("two_raters.margins", { pabak_name: pabakName, pabak: pabakText, kappa: kappaKind, kappa_max: kappaMaxText, indices }),
    );
    const shown = R.specificAgreement.map((v, k) =>
      say("two_raters.specific_value", { value: numberText(v), label: R.labels[k] }),
    );
    s.push(say("two_raters.specific", { values: joinWords(shown) }));
    if (table === null || table === undefined) {
      const rows = R.labels.map((label, k) =>
        say("two_raters.counts_row", { label, counts: joinList(R.matrix[k].map(countText)) }),
      );
      s.push(say("two_raters.counts", { a, b, rows: joinList(rows, "rows_separator") }));
    } else s.push(say("two_raters.counts_elsewhere", { a, b, table_location: table }));
    s.push(...R.caveats);
    return s.join(" ");
  }

  const Kappa = Object.freeze({
    asMatrix,
    disagreementWeights,
    resolveWeights,
    agreementWeights,
    observedAgreement,
    expectedAgreement,
    kappa,
    kappaMax,
    prevalenceIndex,
    biasIndex,
    mcc,
    pabak,
    scottsPi,
    gwetAc1,
    brennanPrediger,
    kappaStandardError,
    kappaConfint,
    normalQuantile,
    confusionMatrix,
    NA_VALUES,
    missingSpellings,
    missingCaveat,
    leftOutCaveat,
    caseVariants,
    variantsCaveat,
    ratingTable,
    fleissKappa,
    krippendorffAlpha,
    gwetAc1Multi,
    brennanPredigerMulti,
    normalCdf,
    pyFixed,
    pyG,
    agreementReport,
    specificAgreement,
    setWords,
  });
  root.Kappa = Kappa;
  if (typeof module === "object" && module && module.exports) module.exports = Kappa;
})(typeof globalThis !== "undefined" ? globalThis : this);
