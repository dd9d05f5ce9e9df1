// The arithmetic of the self-checks (tools/self_checks.py writes them into the chapters): the
// numbers a question asks for, computed on the table the page has just drawn, by the same
// JavaScript twin of kappalib that the explorers use (kappa.mjs, explorer_math.mjs); the
// seeded drawing of a fresh table from a question's table specification; and the judging of
// a typed answer. Nothing here touches the page, so node runs it as it is:
// tests/test_self_checks.py draws tables with drawTable, computes every quantity with kappalib
// (the oracle) and with value() here, and checks that judge() accepts kappalib's number,
// rounded as the question asks, and refuses one a little off.
//
// Quantities are named as in tools/self_checks.py (QUANTITIES, with the kappalib call of each).
// A name may carry one or two indices counted from 1, as the book's formulas count classes:
// "r[2]" (the second row total), "expected[1,2]" (E_12). A value that is 0/0 is null.

import {
  brennanPrediger,
  brennanPredigerMulti,
  expectedAgreement,
  fleissKappa,
  gwetAc1,
  gwetAc1Multi,
  kappa,
  kappaConfint,
  kappaMax,
  kappaStandardError,
  mcc,
  observedAgreement,
  pabak,
  prevalenceIndex,
  biasIndex,
  scottsPi,
  specificAgreement,
} from "../kappa/kappa.mjs";
import { asymmetry, offDiagonalEntropy, weightedContributions } from "../explorers/explorer_math.mjs";

const finite = (x) => (x === null || x === undefined || !Number.isFinite(x) ? null : x);
const sum = (v) => v.reduce((s, x) => s + x, 0);
const rows = (C) => C.map(sum);
const cols = (C) => C[0].map((_, j) => sum(C.map((row) => row[j])));

/** Every quantity a matrix question may ask for: name -> (C, i, j) -> number or null. The
 * indices i, j are 0-based here (the name's, minus one). */
export const MATRIX_QUANTITIES = {
  N: (C) => sum(rows(C)),
  "r[]": (C, i) => rows(C)[i],
  "c[]": (C, i) => cols(C)[i],
  // E_ij = r_i c_j / N (kappa.js keeps its expected counts to itself; kappalib is the oracle)
  "expected[,]": (C, i, j) => (rows(C)[i] * cols(C)[j]) / sum(rows(C)),
  "recall[]": (C, i) => (rows(C)[i] > 0 ? C[i][i] / rows(C)[i] : null),
  "precision[]": (C, i) => (cols(C)[i] > 0 ? C[i][i] / cols(C)[i] : null),
  "specific[]": (C, i) => specificAgreement(C)[i],
  p_o: (C) => observedAgreement(C),
  p_e: (C) => expectedAgreement(C),
  kappa: (C) => kappa(C),
  kappa_linear: (C) => kappa(C, { weighting: "linear" }),
  kappa_quadratic: (C) => kappa(C, { weighting: "quadratic" }),
  // The weighted disagreement sums of chapter 5 (weights scaled to a largest entry of 1):
  // observed sum_ij w_ij C_ij / N and expected sum_ij w_ij E_ij / N.
  d_o_linear: (C) => weightedContributions(C, "linear").observed_total,
  d_e_linear: (C) => weightedContributions(C, "linear").expected_total,
  d_o_quadratic: (C) => weightedContributions(C, "quadratic").observed_total,
  d_e_quadratic: (C) => weightedContributions(C, "quadratic").expected_total,
  kappa_max: (C) => kappaMax(C),
  pabak: (C) => pabak(C),
  prevalence_index: (C) => prevalenceIndex(C),
  bias_index: (C) => biasIndex(C),
  mcc: (C) => mcc(C),
  scotts_pi: (C) => scottsPi(C),
  ac1: (C) => gwetAc1(C),
  bp: (C) => brennanPrediger(C),
  se: (C) => kappaStandardError(C),
  se_null: (C) => kappaStandardError(C, { null: true }),
  ci_low: (C) => {
    const ci = kappaConfint(C);
    return ci === null ? null : ci[0];
  },
  ci_high: (C) => {
    const ci = kappaConfint(C);
    return ci === null ? null : ci[1];
  },
  entropy: (C) => offDiagonalEntropy(C),
  asymmetry: (C) => asymmetry(C),
};

/** The quantities of a units x categories count table (every unit rated by the same number
 * of raters): Fleiss' kappa and the many-rater AC1 and Brennan-Prediger. */
export const COUNTS_QUANTITIES = {
  units: (T) => T.length,
  raters: (T) => sum(T[0]),
  "n[]": (T, j) => sum(T.map((row) => row[j])),
  fleiss_kappa: (T) => fleissKappa(T),
  ac1_multi: (T) => gwetAc1Multi(T),
  bp_multi: (T) => brennanPredigerMulti(T),
};

const NAME = /^([A-Za-z_][A-Za-z_0-9]*)(?:\[(\d+)(?:,\s*(\d+))?\])?$/;

/** The function and its 0-based indices for a quantity name such as "kappa", "r[2]" or
 * "expected[1,2]"; throws one sentence for a name the kind of table does not have. */
export function quantity(name, kind = "matrix") {
  const table = kind === "counts" ? COUNTS_QUANTITIES : MATRIX_QUANTITIES;
  const m = NAME.exec(String(name).trim());
  if (m) {
    const [, base, i, j] = m;
    const key = i === undefined ? base : j === undefined ? `${base}[]` : `${base}[,]`;
    if (Object.hasOwn(table, key)) {
      return { fn: table[key], i: i === undefined ? 0 : Number(i) - 1, j: j === undefined ? 0 : Number(j) - 1 };
    }
  }
  const names = Object.keys(table).map((k) => k.replace("[]", "[k]").replace("[,]", "[i,j]"));
  throw new Error(`quantity must be one of ${names.join(", ")} (for a ${kind} table), got ${JSON.stringify(name)}`);
}

/** The value of a quantity on a table: a finite number, or null where it is 0/0 (or an
 * index is outside the table). */
export function value(name, table, kind = "matrix") {
  const { fn, i, j } = quantity(name, kind);
  const K = kind === "counts" ? table[0].length : table.length;
  if (i < 0 || j < 0 || i >= K || j >= K) return null;
  try {
    return finite(fn(table, i, j));
  } catch {
    return null; // a table the function refuses (an empty margin, say) has no value
  }
}

// --- drawing a fresh table -------------------------------------------------------------------

/** A seeded generator of numbers in [0, 1) (mulberry32): the same seed, the same tables. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const between = (random, [lo, hi]) => lo + Math.floor(random() * (hi - lo + 1));

/** One table drawn from a question's table specification (tools/self_checks.py checks it):
 * {kind: "matrix", K, cells: K x K [low, high] ranges} or {kind: "counts", units, raters, K,
 * weights: K relative chances}; {fixed: table} is returned as it is. */
export function drawOnce(spec, random) {
  if (spec.fixed) return spec.fixed.map((row) => [...row]);
  if (spec.kind === "counts") {
    const total = sum(spec.weights);
    return Array.from({ length: spec.units }, () => {
      const row = new Array(spec.K).fill(0);
      for (let r = 0; r < spec.raters; r++) {
        let u = random() * total;
        let k = 0;
        while (k < spec.K - 1 && u >= spec.weights[k]) u -= spec.weights[k++];
        row[k] += 1;
      }
      return row;
    });
  }
  return spec.cells.map((row) => row.map((range) => between(random, range)));
}

/** A fresh table on which every quantity of `needs` is defined (drawn again, at most 200
 * times, while one is null), and differs from `avoid` (the table shown before). */
export function drawTable(spec, random, needs = [], avoid = null) {
  const kind = spec.kind || "matrix";
  let T = null;
  for (let attempt = 0; attempt < 200; attempt++) {
    T = drawOnce(spec, random);
    const same = avoid !== null && JSON.stringify(T) === JSON.stringify(avoid) && !spec.fixed;
    if (!same && needs.every((name) => value(name, T, kind) !== null)) return T;
  }
  throw new Error(`no table of this specification gives every quantity (${needs.join(", ")}) in 200 draws`);
}

// --- judging an answer -----------------------------------------------------------------------

/** A typed number: "0.42", ".42", "-0.2" (or with a typographic minus), "0,42" (a decimal
 * comma), "42%" (a percentage) or a fraction "8/12". Returns {value} or {error: sentence}. */
export function parseAnswer(text) {
  const raw = String(text ?? "");
  const s = raw.trim().replace(/\u2212/g, "-").replace(/\s+/g, "");
  if (s === "") return { error: "Type a number first, for example 0.42 or 8/12." };
  const plain = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/;
  let m;
  if (plain.test(s)) return { value: Number(s.replace(",", ".")) };
  if ((m = /^([+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+))%$/.exec(s))) return { value: Number(m[1].replace(",", ".")) / 100 };
  if ((m = /^([+-]?\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(s))) {
    const den = Number(m[2]);
    if (den === 0) return { error: `A fraction needs a denominator other than 0, got "${raw.trim()}".` };
    return { value: Number(m[1]) / den };
  }
  return {
    error: `Type a plain number such as 0.42, a percentage such as 42% or a fraction such as 8/12; got "${raw.trim()}".`,
  };
}

/** The tolerance of a question asking for `digits` decimals: one unit in the last decimal
 * (a learner who rounded the steps in between is still right), unless the spec sets one. */
export function tolerance(q) {
  return q.tolerance ?? 10 ** -(q.digits ?? 2);
}

/** Judges a typed answer on a table. q: {compute, digits, tolerance, kind, mistakes:
 * [{compute}]}. Returns {status, value, truth, mistake} where status is "right", "mistake"
 * (close to the value of mistakes[mistake].compute instead), "close" (within five
 * tolerances), "wrong" or "invalid" (not a number; then `message` says why). */
export function judge(q, table, text) {
  const kind = q.kind || "matrix";
  const truth = value(q.compute, table, kind);
  const parsed = parseAnswer(text);
  if (parsed.error) return { status: "invalid", message: parsed.error, truth };
  const x = parsed.value;
  const tol = tolerance(q) + 1e-9;
  if (truth !== null && Math.abs(x - truth) <= tol) return { status: "right", value: x, truth };
  const mistakes = q.mistakes || [];
  for (let k = 0; k < mistakes.length; k++) {
    const v = value(mistakes[k].compute, table, kind);
    if (v !== null && Math.abs(x - v) <= tol) return { status: "mistake", mistake: k, value: x, truth };
  }
  if (truth !== null && Math.abs(x - truth) <= 5 * tol) return { status: "close", value: x, truth };
  return { status: "wrong", value: x, truth };
}

/** Python's format(x, spec) for the specs the answers use: ".3f", ".2%", "d" and "g". */
export function format(x, spec = ".3f") {
  if (x === null || x === undefined) return "undefined";
  let m;
  if ((m = /^\.(\d+)f$/.exec(spec))) return fixed(x, Number(m[1]));
  if ((m = /^\.(\d+)%$/.exec(spec))) return `${fixed(100 * x, Number(m[1]))}%`;
  if (spec === "d") return String(Math.round(x));
  if (spec === "g" || spec === "") return String(Number(x.toPrecision(6)));
  throw new Error(`format must be .Nf, .N%, d or g, got ${JSON.stringify(spec)}`);
}

/** format(x, ".{d}f") with Python's rounding of exact ties (to even) and no "-0.000". */
function fixed(x, d) {
  const scaled = x * 10 ** d;
  let s = x.toFixed(d);
  if (Number.isInteger(scaled * 2) && !Number.isInteger(scaled)) {
    const down = Math.trunc(scaled);
    const even = down % 2 === 0 ? down : down + Math.sign(scaled);
    s = (even / 10 ** d).toFixed(d);
  }
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}
