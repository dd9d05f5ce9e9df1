// kappa.mjs: kappalib's JavaScript twin as an ES module (the same functions as kappa.js).
//
// The formulas live in kappa.js, a classic script (Chromium loads no ES module from
// file://, and the site must work from a folder); this module runs it and re-exports what it
// defines, for node (tests/js/) and for pages served over http:
//
//   import { kappa, kappaConfint } from "./_static/kappa/kappa.mjs";

import "./kappa.js";

const K = globalThis.Kappa;

export const {
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
} = K;

export default K;
