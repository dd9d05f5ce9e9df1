// The JavaScript twin (book/_static/kappa/kappa.mjs) against kappalib, its oracle.
//
//   node --test tests/js/
//
// The cases come from tools/js_cases.py, which computes every expected number with
// kappalib (and the normal quantiles with scipy).  tests/test_js_twin.py writes them into a
// temporary file and passes its path in KAPPA_JS_CASES; run by hand, this file writes them
// itself with the worktree's .venv/bin/python (or $PYTHON).  Tolerance: 1e-12, scaled by
// the size of the expected value when it exceeds 1 (counts, quantiles).

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import * as K from "../../book/_static/kappa/kappa.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const TOL = 1e-12;

function loadCases() {
  let path = process.env.KAPPA_JS_CASES;
  if (!path) {
    const venv = join(ROOT, ".venv", "bin", "python");
    const python = process.env.PYTHON || (existsSync(venv) ? venv : "python3");
    const dir = mkdtempSync(join(tmpdir(), "kappa-js-"));
    path = join(dir, "cases.json");
    try {
      execFileSync(python, [join(ROOT, "tools", "js_cases.py"), "--out", path], { stdio: "inherit" });
      return JSON.parse(readFileSync(path, "utf8"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return JSON.parse(readFileSync(path, "utf8"));
}

const cases = loadCases();

// The report's words: the file kappalib reads (the page embeds the same file).
K.setWords(JSON.parse(readFileSync(join(ROOT, "kappalib", "_shared", "report_words.json"), "utf8")));

function close(actual, expected, where) {
  if (expected === null || expected === undefined) {
    assert.equal(actual, null, `${where}: kappalib gives None (undefined), the twin ${actual}`);
    return;
  }
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${where}: expected an array, got ${actual}`);
    assert.equal(actual.length, expected.length, `${where}: length`);
    expected.forEach((e, i) => close(actual[i], e, `${where}[${i}]`));
    return;
  }
  assert.equal(typeof actual, "number", `${where}: kappalib gives ${expected}, the twin ${actual}`);
  const tol = TOL * Math.max(1, Math.abs(expected));
  assert.ok(
    Math.abs(actual - expected) <= tol,
    `${where}: kappalib ${expected}, twin ${actual} (difference ${actual - expected})`,
  );
}

// A standard error or interval kappalib refuses (a table that is not whole counts) is
// {error: sentence} in the cases: the twin must throw the same sentence.
function closeOrRefused(fn, expected, where) {
  if (expected !== null && typeof expected === "object" && !Array.isArray(expected) && "error" in expected) {
    const got = outcome(fn);
    assert.equal(got.error, expected.error, `${where}: kappalib refuses`);
    return;
  }
  close(fn(), expected, where);
}

test("the cases are enough: at least 1,000 matrices up to 8 x 8, with undefined values and every weighting", () => {
  const m = cases.matrices;
  assert.ok(m.length >= 1000, `${m.length} matrices`);
  const sizes = new Set(m.map((c) => c.C.length));
  for (let k = 2; k <= 8; k++) assert.ok(sizes.has(k), `no ${k} x ${k} matrix`);
  assert.ok(m.filter((c) => c.expected.kappa === null).length >= 20, "too few undefined kappas");
  assert.ok(m.filter((c) => c.expected.mcc === null).length >= 20, "too few undefined MCCs");
  assert.ok(m.filter((c) => c.C.some((row) => row.includes(0))).length >= 300, "too few zeros");
  const kinds = new Set(
    m.map((c) =>
      c.weighting === null ? "none" : Array.isArray(c.weighting) ? "custom" : c.weighting + (c.scores ? "+scores" : ""),
    ),
  );
  for (const k of ["none", "linear", "quadratic", "linear+scores", "quadratic+scores", "custom",
    "ordinal", "radical", "ratio", "circular", "bipolar", "circular+scores", "bipolar+scores"]) {
    assert.ok(kinds.has(k), `no case with weighting ${k}`);
  }
  assert.ok(cases.ratings.length >= 200);
  const levels = new Set(cases.ratings.flatMap((r) => Object.keys(r.alpha)));
  for (const lv of ["nominal", "ordinal", "interval", "ratio"]) assert.ok(levels.has(lv));
  assert.ok(cases.ratings.some((r) => r.data.some((row) => row.includes(null))), "no missing rating");
});

const unweighted = {
  observed_agreement: K.observedAgreement,
  expected_agreement: K.expectedAgreement,
  kappa: (C) => K.kappa(C),
  kappa_max: K.kappaMax,
  mcc: K.mcc,
  pabak: K.pabak,
  scotts_pi: K.scottsPi,
  gwet_ac1: (C) => K.gwetAc1(C),
  brennan_prediger: (C) => K.brennanPrediger(C),
  kappa_standard_error: (C) => K.kappaStandardError(C),
  kappa_standard_error_null: (C) => K.kappaStandardError(C, { null: true }),
  prevalence_index: K.prevalenceIndex,
  bias_index: K.biasIndex,
};

test("two raters, unweighted: every coefficient, SE and interval equals kappalib's", () => {
  let checked = 0;
  for (const c of cases.matrices) {
    for (const [name, fn] of Object.entries(unweighted)) {
      if (!(name in c.expected)) continue;
      closeOrRefused(() => fn(c.C), c.expected[name], `${c.id} (${c.kind}) ${name}`);
      checked += 1;
    }
    closeOrRefused(
      () => K.kappaConfint(c.C, { confidenceLevel: c.confidence_level }),
      c.expected.kappa_confint,
      `${c.id} kappa_confint(${c.confidence_level})`,
    );
    checked += 1;
  }
  assert.ok(checked > 10000, `${checked} values`);
});

test("two raters, weighted: linear, quadratic, scores and custom matrices equal kappalib's", () => {
  let checked = 0;
  for (const c of cases.matrices) {
    if (c.weighted === null) continue;
    const opts = { weighting: c.weighting, scores: c.scores };
    const w = c.weighted;
    close(K.kappa(c.C, opts), w.kappa, `${c.id} weighted kappa`);
    close(K.gwetAc1(c.C, opts), w.gwet_ac1, `${c.id} AC2`);
    close(K.brennanPrediger(c.C, opts), w.brennan_prediger, `${c.id} weighted BP`);
    closeOrRefused(() => K.kappaStandardError(c.C, opts), w.kappa_standard_error, `${c.id} weighted SE`);
    closeOrRefused(() => K.kappaStandardError(c.C, { ...opts, null: true }), w.kappa_standard_error_null, `${c.id} weighted SE0`);
    closeOrRefused(
      () => K.kappaConfint(c.C, { ...opts, confidenceLevel: c.confidence_level }),
      w.kappa_confint,
      `${c.id} weighted interval`,
    );
    if (w.weights) close(K.disagreementWeights(c.C.length, c.weighting, { scores: c.scores }), w.weights, `${c.id} W`);
    checked += 1;
  }
  assert.ok(checked >= 500, `${checked} weighted cases`);
});

function outcome(fn) {
  try {
    return { value: fn() };
  } catch (err) {
    return { error: err.message };
  }
}

function sameOutcome(actual, expected, where) {
  if ("error" in expected) {
    assert.ok("error" in actual, `${where}: kappalib refuses (${expected.error}), the twin gives ${actual.value}`);
    return;
  }
  assert.ok(!("error" in actual), `${where}: the twin throws ${actual.error}, kappalib gives ${expected.value}`);
  close(actual.value, expected.value, where);
}

test("ratings tables with missing values: alpha at every level, Fleiss, AC1/AC2 and BP equal kappalib's", () => {
  let checked = 0;
  for (const r of cases.ratings) {
    const t = K.ratingTable(r.data);
    assert.deepEqual(t.table, r.table, `${r.id} rating table`);
    assert.deepEqual(t.labels, r.categories, `${r.id} categories`);
    for (const [lv, expected] of Object.entries(r.alpha)) {
      const opts =
        lv === "ordinal_given"
          ? { levelOfMeasurement: "ordinal", labels: r.order }
          : { levelOfMeasurement: lv };
      sameOutcome(outcome(() => K.krippendorffAlpha(r.data, opts)), expected, `${r.id} alpha ${lv}`);
      checked += 1;
    }
    const given = r.strings ? K.ratingTable(r.data, { labels: r.order }) : t;
    if (r.strings) assert.deepEqual(given.table, r.table_given, `${r.id} table in the given order`);
    const scores = r.strings ? null : given.labels;
    const calls = {
      fleiss_kappa: () => K.fleissKappa(t.table),
      gwet_ac1_multi: () => K.gwetAc1Multi(t.table),
      brennan_prediger_multi: () => K.brennanPredigerMulti(t.table),
      gwet_ac1_multi_linear: () => K.gwetAc1Multi(given.table, { weighting: "linear", scores }),
      gwet_ac1_multi_quadratic: () => K.gwetAc1Multi(given.table, { weighting: "quadratic", scores }),
      brennan_prediger_multi_linear: () => K.brennanPredigerMulti(given.table, { weighting: "linear", scores }),
      brennan_prediger_multi_quadratic: () =>
        K.brennanPredigerMulti(given.table, { weighting: "quadratic", scores }),
    };
    for (const [name, expected] of Object.entries(r.multi)) {
      sameOutcome(outcome(calls[name]), expected, `${r.id} ${name}`);
      checked += 1;
    }
  }
  assert.ok(checked >= 1500, `${checked} values`);
});

test("two label columns give kappalib's confusion matrix and order", () => {
  for (const [i, c] of cases.labels.entries()) {
    const got = K.confusionMatrix(c.y1, c.y2, { labels: c.labels });
    assert.deepEqual(got.C, c.C, `labels case ${i}`);
    assert.deepEqual(got.labels, c.order, `labels case ${i} order`);
  }
});

test("bad input throws kappalib's sentence", () => {
  const wrong = [];
  for (let { call, message } of cases.errors) {
    const { fn, ...args } = call;
    let run;
    if (fn === "kappaConfint") run = () => K.kappaConfint(args.C, { confidenceLevel: args.confidence_level });
    else if (fn === "fleissKappa") run = () => K.fleissKappa(args.table);
    else if (fn === "krippendorffAlpha") {
      run = () => K.krippendorffAlpha(args.data, { levelOfMeasurement: args.level ?? "nominal" });
    }
    else run = () => K[fn](args.C, { weighting: args.weighting ?? null, scores: args.scores ?? null });
    // kappalib echoes some numpy scalars with numpy 2's repr (np.str_('a'), np.int64(-1));
    // the twin echoes the plain value
    message = message.replace(/np\.[a-z_]+[0-9]*\(([^()]*)\)/g, "$1");
    const got = outcome(run);
    if (!("error" in got)) wrong.push(`${JSON.stringify(call)} did not throw`);
    else if (got.error !== message) wrong.push(`${JSON.stringify(call)}:\n  twin:     ${got.error}\n  kappalib: ${message}`);
  }
  assert.deepEqual(wrong, []);
});

test("the methods paragraph is kappalib's agreement_report paragraph, word for word", () => {
  let paragraphs = 0;
  for (const c of cases.reports) {
    const opts = {
      labels: c.labels,
      weighting: c.weighting,
      scores: c.scores,
      confidenceLevel: c.confidence_level,
      raters: c.raters,
    };
    const got = outcome(() => K.agreementReport(c.C, opts));
    if ("error" in c) {
      assert.equal(got.error, c.error, `${c.id}: kappalib refuses`);
      continue;
    }
    assert.ok(!("error" in got), `${c.id}: the twin throws ${got.error}`);
    assert.equal(got.value.methodsParagraph(), c.paragraph, c.id);
    assert.equal(got.value.methodsParagraph({ table: "Table 2" }), c.paragraph_table, `${c.id} (table)`);
    paragraphs += 1;
  }
  assert.ok(paragraphs >= 200, `${paragraphs} paragraphs`);
});

test("numbers are printed as Python prints them (round half to even)", () => {
  for (const f of cases.formats) {
    assert.equal(K.pyFixed(f.x, 0), f.f0, `${f.x}:.0f`);
    assert.equal(K.pyFixed(f.x, 2), f.f2, `${f.x}:.2f`);
    assert.equal(K.pyFixed(f.x, 3), f.f3, `${f.x}:.3f`);
    assert.equal(K.pyFixed(f.x, 4), f.f4, `${f.x}:.4f`);
    assert.equal(K.pyG(f.x), f.g, `${f.x}:g`);
  }
});

test("normal quantile equals scipy's norm.ppf to 1e-12 at the levels used", () => {
  assert.ok(cases.quantiles.length >= 10);
  for (const { p, z } of cases.quantiles) close(K.normalQuantile(p), z, `quantile ${p}`);
});

test("undefined is null, never 0 or NaN", () => {
  assert.equal(K.kappa([[5, 0], [0, 0]]), null);
  assert.equal(K.mcc([[3, 2], [0, 0]]), null);
  assert.equal(K.kappaConfint([[5, 0], [0, 0]]), null);
  assert.equal(K.kappaStandardError([[5, 0], [0, 0]]), null);
  assert.equal(K.fleissKappa([[2, 0], [2, 0]]), null);
  assert.equal(K.krippendorffAlpha([[1, 1], [1, null]]), null);
});

test("kappa.js runs as a classic script (file:// pages): it defines Kappa and nothing else", async () => {
  const { runInNewContext } = await import("node:vm");
  const source = readFileSync(join(ROOT, "book", "_static", "kappa", "kappa.js"), "utf8");
  const sandbox = {};
  runInNewContext(source, sandbox);
  assert.deepEqual(Object.keys(sandbox), ["Kappa"]);
  assert.deepEqual(Object.keys(sandbox.Kappa).sort(), Object.keys(K).filter((k) => k !== "default").sort());
  assert.equal(sandbox.Kappa.kappa([[8, 2], [1, 9]]), 0.7);
});

// --- the conformance table: the cases kappalib's own tests read (conformance/cases) -------

function twinWeighting(weights) {
  // the table's weights: "identity", "linear", "quadratic" (on the positions 1..K) or an
  // agreement matrix; the twin takes a scheme's name or disagreement weights 1 - w
  if (weights === undefined || weights === "identity") return null;
  if (typeof weights === "string") return weights;
  return weights.map((row) => row.map((w) => 1 - w));
}

function twinTable(input) {
  if (input.table) return input.table;
  return K.ratingTable(input.ratings, { labels: input.categories }).table;
}

const conformanceCalls = {
  cohen_kappa: (input, o) => {
    const opts = { weighting: twinWeighting(o.weights) };
    const level = o.confidence_level ?? 0.95;
    const ci = () => K.kappaConfint(input.matrix, { ...opts, confidenceLevel: level });
    return {
      value: () => K.kappa(input.matrix, opts),
      se: () => K.kappaStandardError(input.matrix, opts),
      se_null: () => K.kappaStandardError(input.matrix, { ...opts, null: true }),
      ci_low: () => (ci() ?? [null])[0],
      ci_high: () => (ci() ?? [null, null])[1],
    };
  },
  scotts_pi: (input) => ({ value: () => K.scottsPi(input.matrix) }),
  pabak: (input) => ({ value: () => K.pabak(input.matrix) }),
  kappa_max: (input) => ({ value: () => K.kappaMax(input.matrix) }),
  mcc: (input) => ({ value: () => K.mcc(input.matrix) }),
  prevalence_bias_index: (input) => ({
    prevalence_index: () => K.prevalenceIndex(input.matrix),
    bias_index: () => K.biasIndex(input.matrix),
  }),
  specific_agreement: (input) => ({ value_by_category: () => K.specificAgreement(input.matrix) }),
  gwet_ac1: (input, o) => ({ value: () => K.gwetAc1(input.matrix, { weighting: twinWeighting(o.weights) }) }),
  brennan_prediger: (input, o) => ({
    value: () => K.brennanPrediger(input.matrix, { weighting: twinWeighting(o.weights) }),
  }),
  krippendorff_alpha: (input, o) => ({
    value: () => K.krippendorffAlpha(input.ratings, { levelOfMeasurement: o.level, labels: input.categories }),
  }),
  fleiss_kappa: (input) => ({ value: () => K.fleissKappa(twinTable(input)) }),
  gwet_ac1_multi: (input, o) => ({
    value: () => K.gwetAc1Multi(twinTable(input), { weighting: twinWeighting(o.weights) }),
  }),
  brennan_prediger_multi: (input, o) => ({
    value: () => K.brennanPredigerMulti(twinTable(input), { weighting: twinWeighting(o.weights) }),
  }),
};

function within(actual, expected, tolerance, where) {
  if (expected === null) {
    assert.equal(actual, null, `${where}: the table says undefined, the twin ${actual}`);
    return;
  }
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${where}: expected an array, got ${actual}`);
    assert.equal(actual.length, expected.length, `${where}: length`);
    expected.forEach((e, i) => within(actual[i], e, tolerance, `${where}[${i}]`));
    return;
  }
  assert.equal(typeof actual, "number", `${where}: the table says ${expected}, the twin ${actual}`);
  const limit = tolerance.abs + tolerance.rel * Math.abs(expected);
  assert.ok(
    Math.abs(actual - expected) <= limit,
    `${where}: the table says ${expected}, the twin ${actual} (difference ${actual - expected})`,
  );
}

test(
  "the conformance table: every case of the coefficients the twin computes",
  { skip: (cases.conformance ?? []).length === 0 && "this checkout has no conformance/cases" },
  () => {
    let checked = 0;
    for (const c of cases.conformance) {
      const calls = conformanceCalls[c.coefficient](c.input, c.options);
      for (const [quantity, { value, tolerance }] of Object.entries(c.expected)) {
        const got = outcome(calls[quantity]);
        const where = `${c.id} ${quantity}`;
        if ("error" in got) {
          // a refusal passes where the table's value is undefined (its rule for libraries)
          assert.equal(value, null, `${where}: the twin throws ${got.error}, the table says ${value}`);
        } else within(got.value, value, tolerance, where);
        checked += 1;
      }
    }
    assert.ok(checked >= cases.conformance.length, `${checked} values`);
  },
);
