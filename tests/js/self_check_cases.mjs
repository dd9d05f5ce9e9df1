// Runs the page's self-check arithmetic (book/_static/selfcheck/self_check_math.mjs) on the
// requests that tests/test_self_checks.py writes, and writes back what the page would do:
//
//   node tests/js/self_check_cases.mjs request.json answer.json
//
// request: {draw: [{table, needs, seed, n}], values: [{kind, names, tables}],
//           judge: [{q, table, text}], parse: [text], quantities: true}
// answer:  {draw: [[table, ...]], values: [[[value per name] per table]], judge: [verdict],
//           parse: [{value} | {error}], quantities: {matrix: [...], counts: [...]}}
// The test computes every expected number with kappalib: this script only reports.

import { readFileSync, writeFileSync } from "node:fs";
import {
  COUNTS_QUANTITIES,
  MATRIX_QUANTITIES,
  drawTable,
  judge,
  parseAnswer,
  rng,
  value,
} from "../../book/_static/selfcheck/self_check_math.mjs";

const [request, out] = process.argv.slice(2);
const req = JSON.parse(readFileSync(request, "utf-8"));
const answer = {};
if (req.draw) {
  answer.draw = req.draw.map(({ table, needs, seed, n }) => {
    const random = rng(seed);
    const tables = [];
    let last = null;
    for (let k = 0; k < n; k++) {
      last = drawTable(table, random, needs, last);
      tables.push(last);
    }
    return tables;
  });
}
if (req.values) {
  answer.values = req.values.map(({ kind, names, tables }) =>
    tables.map((T) => names.map((name) => value(name, T, kind))),
  );
}
if (req.judge) answer.judge = req.judge.map(({ q, table, text }) => judge(q, table, text));
if (req.parse) answer.parse = req.parse.map((text) => parseAnswer(text));
if (req.quantities) {
  answer.quantities = { matrix: Object.keys(MATRIX_QUANTITIES), counts: Object.keys(COUNTS_QUANTITIES) };
}
writeFileSync(out, JSON.stringify(answer));
