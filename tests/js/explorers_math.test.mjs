// The page's explorer arithmetic against kappalib: tests/test_js_explorers.py writes the
// cases (kappalib's values at seeded random states) and runs this file with node --test.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import * as X from "../../book/_static/explorers/explorer_math.mjs";

const CASES = process.env.EXPLORER_CASES;
const definitions = JSON.parse(
  readFileSync(new URL("../../kappalib/widgets/explorers.json", import.meta.url), "utf8"),
).explorers;
const RANGES = definitions.families.ranges;

// Same value, to 1e-9 (relative for large values); null exactly where kappalib has None/NaN.
function close(got, want, where) {
  if (want === null) {
    assert.equal(got, null, `${where}: want null (undefined), got ${got}`);
  } else if (Array.isArray(want)) {
    assert.ok(Array.isArray(got), `${where}: want an array, got ${got}`);
    assert.equal(got.length, want.length, `${where}: length`);
    want.forEach((w, i) => close(got[i], w, `${where}[${i}]`));
  } else if (typeof want === "object") {
    for (const key of Object.keys(want)) close(got[key], want[key], `${where}.${key}`);
  } else if (typeof want === "number") {
    assert.equal(typeof got, "number", `${where}: want ${want}, got ${got}`);
    const tol = 1e-9 * Math.max(1, Math.abs(want));
    assert.ok(Math.abs(got - want) <= tol, `${where}: got ${got}, kappalib ${want}`);
  } else {
    assert.equal(got, want, where);
  }
}

const cases = CASES ? JSON.parse(readFileSync(CASES, "utf8")) : null;
const each = (name, f) =>
  test(name, { skip: cases ? false : "EXPLORER_CASES not set (run tests/test_js_explorers.py)" }, () => {
    assert.ok(cases[name].length > 0, `no ${name} cases`);
    cases[name].forEach((c, i) => close(f(...c.args), c.want, `${name} #${i} ${JSON.stringify(c.args).slice(0, 80)}`));
  });

each("two_by_two", (a, b, c, d) => X.twoByTwoValues(a, b, c, d));
each("prevalence", (s, t) => X.prevalenceCurves(s, t, X.linspace(0.005, 0.995, 199)));
each("coefficients", (s, t, n) => X.coefficientCurves(s, t, X.linspace(0.005, 0.995, 199), n));
each("weighted", (M, weighting) => X.weightedContributions(M, weighting));
each("mcc_family", (family, a, b, n) => X.mccFamilyValues(family, a, b, { nPoints: n }));
each("families", (name, A, n, nGrid) => X.familyState(RANGES, name, A, n, nGrid));
each("steps", (name, n) => {
  const [low, high, def] = X.familyRange(RANGES, name, n);
  return [low, high, def, X.sliderStep(low, high)];
});
