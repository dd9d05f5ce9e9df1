// The live explorers of the static page. tools/explorers_build.py puts, where a chapter's
// widget cell shows its (dead) snapshot, a mount point <div class="kh-explorer"
// data-explorer="two_by_two" data-state="{...}" data-figure="fig-02-explorer">; mountAll
// builds each explorer there from explorers.json (the definitions the Jupyter widgets read)
// and the state the notebook's call started it at. The arithmetic is kappa.mjs's (the twin
// of kappalib) and explorer_math.mjs's. The static figure of the same explorer (its
// data-figure) stays the print and no-JavaScript fallback: on screen it gives way to the
// live one, which takes over its number, caption and anchor, so the picture is shown once.

import * as X from "./explorer_math.mjs";
import { announcer, barChart, fmt, fmtG, h, legend, lineChart, matrixTable, radios, results, select, slider } from "./ui.mjs";

const INK = "currentColor";
const BLUE = "#2b6cb0";
const ORANGE = "#c05621";
const GREEN = "#2f855a";

const controlDef = (def, name) => def.controls.find((c) => c.name === name);

/** The frame every explorer shares: its controls, its numbers (and the live region that
 * reads them out), its picture, and the caption taken over from the static figure. */
function frame(mount, def) {
  const live = h("div", { class: "kh-explorer-live", role: "group", "aria-label": def.title });
  const controls = h("div", { class: "kh-controls" });
  const numbers = h("div", { class: "kh-numbers" });
  const picture = h("div", { class: "kh-picture" });
  const say = announcer();
  live.append(controls, numbers, say, picture);
  const figure = mount.dataset.figure ? document.getElementById(mount.dataset.figure) : null;
  if (figure) {
    const caption = figure.querySelector("figcaption");
    if (caption) {
      const copy = caption.cloneNode(true);
      copy.querySelectorAll("a.headerlink").forEach((a) => a.setAttribute("href", `#${figure.id}`));
      const text = copy.querySelector(".caption-text") || copy;
      text.append(" (Live: it starts there and follows the controls.)");
      live.append(h("p", { class: "kh-explorer-caption" }, ...copy.childNodes));
    }
    // The live explorer is now the numbered figure: links to it land here.
    const id = figure.id;
    figure.removeAttribute("id");
    figure.dataset.fallbackFor = id;
    figure.classList.add("kh-explorer-fallback");
    live.id = id;
    const note = h(
      "p",
      { class: "kh-explorer-moved" },
      "This figure is drawn live by the explorer further down: ",
      h("a", { href: `#${id}` }, "move its controls there"),
      ".",
    );
    figure.after(note);
  }
  mount.replaceChildren(live);
  mount.classList.add("kh-mounted");
  document.documentElement.classList.add("kh-live");
  return { live, controls, numbers, picture, say };
}

// --- chapter 02: the 2x2 explorer ------------------------------------------------------------

function twoByTwo(mount, def, state) {
  const f = frame(mount, def);
  const v = { ...Object.fromEntries(def.controls.map((c) => [c.name, c.default])), ...state };
  const names = { p_o: "p\u2092", p_e: "p\u2091", kappa: "\u03ba", mcc: "MCC", pabak: "PABAK" };
  const colors = ["#d9d9d9", "#a6a6a6", "#595959", "#808080", "#bfbfbf"];
  const table = h("p", { class: "kh-matrix-line", "data-key": "table" });
  const out = results(Object.entries(names).map(([k, label]) => [k, label]));
  const chart = barChart({ title: "The five numbers of the 2x2 table" });
  f.numbers.append(table, out);
  f.picture.append(chart);
  const sliders = {};
  let menu = null;
  const update = () => {
    const { a, b, c, d } = v;
    const values = X.twoByTwoValues(a, b, c, d);
    out.set(values);
    table.textContent = `C = [[${a}, ${b}], [${c}, ${d}]],  N = ${a + b + c + d}`;
    const summary = Object.entries(names)
      .map(([k, label]) => `${label} ${fmt(values[k])}`)
      .join(", ");
    chart.draw(
      Object.keys(names).map((k, i) => ({ name: names[k], value: values[k], color: colors[i] })),
      `Bar chart for a = ${a}, b = ${b}, c = ${c}, d = ${d}: ${summary}`,
    );
    f.say.say(`a ${a}, b ${b}, c ${c}, d ${d}: ${summary}`);
  };
  if (def.presets) {
    const options = [["", "choose a table…"], ...def.presets.map((p, i) => [String(i), p.label])];
    menu = select({ name: "preset", label: "preset" }, "", options, (i) => {
      if (i === "") return;
      Object.assign(v, def.presets[Number(i)].values);
      for (const [k, s] of Object.entries(sliders)) s.set(v[k], { silent: true });
      update();
    });
    f.controls.append(menu);
  }
  for (const c of def.controls) {
    const control = state.max_count === undefined ? c : { ...c, max: state.max_count };
    sliders[c.name] = slider(control, v[c.name], (x) => {
      v[c.name] = x;
      if (menu) menu.input.value = ""; // the table is no longer the preset's
      update();
    });
    f.controls.append(sliders[c.name]);
  }
  update();
}

// --- chapter 04: one classifier, every case mix ----------------------------------------------

function rateSliders(f, def, v, update) {
  for (const c of def.controls) {
    f.controls.append(
      slider(c, v[c.name], (x) => {
        v[c.name] = x;
        update();
      }),
    );
  }
}

const gridOf = (def) => X.linspace(def.grid.low, def.grid.high, def.grid.n);
const anyNegative = (...curves) => curves.flat().some((y) => y !== null && y < 0);

function prevalence(mount, def, state) {
  const f = frame(mount, def);
  const v = { ...Object.fromEntries(def.controls.map((c) => [c.name, c.default])), ...state };
  const grid = gridOf(def);
  const out = results([
    ["kappa", "kappa"],
    ["mcc", "MCC"],
    ["accuracy", "accuracy"],
  ]);
  const chart = lineChart({ title: "Kappa and MCC of one classifier against prevalence", xLabel: "prevalence (share of positive reference cases)", yLabel: "kappa, MCC" });
  f.numbers.append(out);
  f.picture.append(
    chart,
    legend([
      { name: "kappa", color: BLUE },
      { name: "MCC", color: ORANGE, dash: "6 3" },
    ]),
  );
  const update = () => {
    const curves = X.prevalenceCurves(v.sensitivity, v.specificity, grid);
    const here = X.prevalenceCurves(v.sensitivity, v.specificity, [v.prevalence]);
    const values = { kappa: here.kappa[0], mcc: here.mcc[0], accuracy: here.accuracy[0] };
    out.set(values);
    const text = `sensitivity ${fmt(v.sensitivity, 2)}, specificity ${fmt(v.specificity, 2)}, prevalence ${fmt(v.prevalence, 2)}: kappa ${fmt(values.kappa)}, MCC ${fmt(values.mcc)}, accuracy ${fmt(values.accuracy)}`;
    chart.draw({
      xDomain: [0, 1],
      yDomain: anyNegative(curves.kappa, curves.mcc) ? [-1.02, 1.02] : [-0.05, 1.02],
      series: [
        { name: "MCC", xs: grid, ys: curves.mcc, color: ORANGE, dash: "6 3" },
        { name: "kappa", xs: grid, ys: curves.kappa, color: BLUE },
      ],
      markers: [
        { x: v.prevalence, y: values.mcc, color: ORANGE, shape: "square" },
        { x: v.prevalence, y: values.kappa, color: BLUE },
      ],
      vline: v.prevalence,
      summary: `Kappa and MCC against prevalence; at ${text}`,
    });
    f.say.say(text);
  };
  rateSliders(f, def, v, update);
  update();
}

// --- chapter 05: weighted kappa, cell by cell ------------------------------------------------

/** A count typed in a box: digits only ("12"), else null. */
const wholeNumber = (text) => (/^\s*\d+\s*$/.test(text) ? Number(text) : null);

function weighted(mount, def, state) {
  const f = frame(mount, def);
  const v = { ...Object.fromEntries(def.controls.map((c) => [c.name, c.default])), ...state };
  const cellsDef = controlDef(def, "cells");
  const cells = cellsDef.default.map((row) => row.slice());
  const message = h("p", { class: "kh-message", role: "alert" });
  const out = results([
    ["observed_total", "observed W∘O, % of cases"],
    ["expected_total", "expected W∘E, % of cases"],
    ["kappa", "weighted kappa"],
  ]);
  const observed = matrixTable({ caption: "observed W∘O (percent of cases × weight)", labels: [1, 2, 3] });
  const expected = matrixTable({ caption: "expected W∘E (percent of cases × weight)", labels: [1, 2, 3] });
  f.numbers.append(message, out);
  f.picture.append(h("div", { class: "kh-matrices" }, observed, expected));
  const menuDef = controlDef(def, "example");
  const grid = h("fieldset", { class: "kh-control kh-grid-input" }, h("legend", {}, cellsDef.label));
  const boxes = [];
  // Text boxes read by one strict rule (a whole number of digits, nothing else: "e", "1e3" and
  // "2.5" are refused by name), with the arrow keys stepping by 1 as a number box does.
  const texts = cells.map((row) => row.map((x) => String(x)));
  cells.forEach((row, i) =>
    row.forEach((x, j) => {
      const box = h("input", {
        type: "text",
        value: x,
        inputmode: "numeric",
        autocomplete: "off",
        "aria-label": `row ${i + 1}, column ${j + 1}`,
        "data-control": `cell-${i}-${j}`,
      });
      box.addEventListener("input", () => {
        texts[i][j] = box.value;
        update();
      });
      box.addEventListener("keydown", (event) => {
        if (event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
        const n = wholeNumber(box.value);
        if (n === null) return;
        event.preventDefault();
        const next = Math.min(cellsDef.max, Math.max(cellsDef.min, n + (event.key === "ArrowUp" ? 1 : -1)));
        box.value = String(next);
        texts[i][j] = box.value;
        update();
      });
      boxes.push(box);
      grid.append(box);
    }),
  );
  const percent = (x) => (x === 0 ? "0" : (100 * x).toFixed(1));
  const clear = (text) => {
    // No number of the last valid matrix stays on screen under the error.
    out.set({ observed_total: "—", expected_total: "—", kappa: "—" });
    out.querySelectorAll("[data-key]").forEach((dd) => {
      dd.dataset.value = "null";
    });
    observed.replaceChildren();
    expected.replaceChildren();
    message.textContent = text;
    f.say.say(text);
  };
  const update = () => {
    const editing = v.example === def.custom;
    boxes.forEach((b) => {
      b.disabled = !editing;
    });
    let matrix;
    let labels;
    if (editing) {
      labels = [1, 2, 3];
      matrix = [];
      for (let i = 0; i < 3; i++) {
        matrix.push([]);
        for (let j = 0; j < 3; j++) {
          const n = wholeNumber(texts[i][j]);
          if (n === null || n > cellsDef.max) {
            const got = texts[i][j].trim() === "" ? "an empty box" : JSON.stringify(texts[i][j].trim());
            clear(`Every count must be a whole number from ${cellsDef.min} to ${cellsDef.max}, got ${got} in row ${i + 1}, column ${j + 1}.`);
            return;
          }
          matrix[i].push(n);
        }
      }
    } else {
      ({ matrix, labels } = def.examples[v.example]);
    }
    const weighting = v.weighting === "none" ? null : v.weighting;
    let s;
    try {
      if (matrix.flat().every((x) => x === 0)) throw new Error("The matrix is all zeros: enter at least one case.");
      s = X.weightedContributions(matrix, weighting);
    } catch (err) {
      clear(err.message);
      return;
    }
    message.textContent = "";
    out.set(
      { observed_total: 100 * s.observed_total, expected_total: 100 * s.expected_total, kappa: s.kappa },
      { observed_total: 2, expected_total: 2, kappa: 3 },
    );
    out.querySelector('[data-key="observed_total"]').dataset.value = String(s.observed_total);
    out.querySelector('[data-key="expected_total"]').dataset.value = String(s.expected_total);
    const vmax = Math.max(...s.observed.flat(), ...s.expected.flat()) || 1;
    observed.update(s.observed, { text: percent, vmin: 0, vmax, labelsNow: labels });
    expected.update(s.expected, { text: percent, vmin: 0, vmax, labelsNow: labels });
    // The sentence read out uses the numbers as shown (fmt: Python's rounding, ties to even).
    const verdict = s.kappa === null ? "kappa is undefined (0/0): no expected disagreement" : `kappa = 1 − ${fmt(100 * s.observed_total, 2)} / ${fmt(100 * s.expected_total, 2)} = ${fmt(s.kappa)}`;
    f.say.say(`${v.example}, ${v.weighting} weighting: ${verdict}`);
  };
  f.controls.append(
    select(menuDef, v.example, menuDef.options.map((o) => [o, o]), (x) => {
      v.example = x;
      update();
    }),
    radios(controlDef(def, "weighting"), v.weighting, (x) => {
      v.weighting = x;
      update();
    }),
    grid,
  );
  update();
}

// --- chapter 07: the C0/C1 families ----------------------------------------------------------

function mccFamily(mount, def, state) {
  const f = frame(mount, def);
  const v = { ...Object.fromEntries(def.controls.map((c) => [c.name, c.default])), ...state };
  const familyDef = controlDef(def, "family");
  const out = results([
    ["kappa", "κ (kappa)"],
    ["mcc", "MCC"],
    ["b_star", "b where κ is smallest"],
  ]);
  const chart = lineChart({ title: "Kappa and MCC against b", xLabel: "b (false negatives)", yLabel: "value" });
  const matrix = matrixTable({ caption: "current matrix", labels: ["pos", "neg"] });
  f.numbers.append(out);
  f.picture.append(
    chart,
    legend([
      { name: "MCC", color: INK },
      { name: "κ (kappa)", color: "#777", dash: "6 3" },
      { name: "minimum of κ (triangle)", color: "#555", shape: "triangle" },
    ]),
    matrix,
  );
  const update = () => {
    const s = X.mccFamilyValues(v.family, v.a, v.b, { bMax: def.sweep.b_max, nPoints: def.sweep.n_points });
    out.set({ kappa: s.kappa, mcc: s.mcc, b_star: s.b_star === null ? "none (C0)" : s.b_star });
    const i = familyDef.options.indexOf(v.family);
    const text = `${familyDef.option_labels[i]} (${familyDef.option_sources[i]}), a = ${fmtG(v.a, 6)}, b = ${fmtG(v.b, 6)}: κ = ${fmt(s.kappa)}, MCC = ${fmt(s.mcc)}`;
    chart.draw({
      xDomain: [0, s.b_grid[s.b_grid.length - 1]],
      yDomain: [-1.05, 1.05],
      series: [
        { name: "MCC", xs: s.b_grid, ys: s.mcc_curve, color: INK },
        { name: "kappa", xs: s.b_grid, ys: s.kappa_curve, color: "#777", dash: "6 3" },
      ],
      markers: [
        { x: v.b, y: s.mcc, color: INK },
        { x: v.b, y: s.kappa, color: "#777", fill: "white", shape: "square" },
        ...(s.b_star === null ? [] : [{ x: s.b_star, y: s.kappa_star, color: "#555", shape: "triangle" }]),
      ],
      vline: v.b,
      summary: `Kappa and MCC against b for ${text}`,
    });
    const vmax = Math.max(...s.C.flat()) || 1;
    matrix.update(s.C, { text: (x) => fmtG(x, 3), vmin: 0, vmax });
    f.say.say(text);
  };
  f.controls.append(
    select(familyDef, v.family, familyDef.options.map((o, i) => [o, `${familyDef.option_labels[i]}  (${familyDef.option_sources[i]})`]), (x) => {
      v.family = x;
      update();
    }),
  );
  for (const name of ["a", "b"]) {
    f.controls.append(
      slider(controlDef(def, name), v[name], (x) => {
        v[name] = x;
        update();
      }),
    );
  }
  update();
}

// --- chapter 08: Z_A and M1-M5 ---------------------------------------------------------------

function families(mount, def, state) {
  const f = frame(mount, def);
  const v = {
    name: controlDef(def, "name").default,
    n_classes: controlDef(def, "n_classes").default,
    A: null,
    ...state,
  };
  const ranges = def.ranges;
  const places = (step) => Math.max(0, -Math.round(Math.log10(step)));
  const snap = (A, low, step) => Math.round((low + Math.round((A - low) / step) * step) * 1e10) / 1e10;
  const out = results([
    ["kappa", "kappa"],
    ["mcc", "MCC"],
    ["entropy", "off-diagonal entropy (bits)"],
    ["asymmetry", "asymmetry"],
  ]);
  const matrix = matrixTable({ caption: "the matrix at A", labels: [1, 2, 3] });
  const kChart = lineChart({ title: "Kappa and MCC against A", xLabel: "A", yLabel: "kappa, MCC" });
  const eChart = lineChart({ title: "Off-diagonal entropy against A", xLabel: "A", yLabel: "entropy (bits)" });
  f.numbers.append(out);
  f.picture.append(
    matrix,
    h("div", { class: "kh-charts" }, h("div", {}, kChart, legend([{ name: "kappa", color: BLUE }, { name: "MCC", color: ORANGE, dash: "6 3" }])), eChart),
  );
  let range = X.familyRange(ranges, v.name, v.n_classes);
  let step = X.sliderStep(range[0], range[1]);
  if (v.A === null) v.A = range[2];
  v.A = Math.min(Math.max(snap(v.A, range[0], step), range[0]), range[1]);
  const aDef = { ...controlDef(def, "A"), min: range[0], max: range[1], step };
  const aSlider = slider(aDef, v.A, (x) => {
    v.A = x;
    update();
  }, { decimals: places(step) });
  const nSlider = slider(controlDef(def, "n_classes"), v.n_classes, (x) => {
    v.n_classes = x;
    reset();
  });
  const reset = () => {
    range = X.familyRange(ranges, v.name, v.n_classes);
    step = X.sliderStep(range[0], range[1]);
    aSlider.configure({ min: range[0], max: range[1], step, places: places(step) });
    v.A = range[2];
    aSlider.set(v.A, { silent: true });
    nSlider.input.disabled = v.name !== "ZA";
    update();
  };
  const update = () => {
    const s = X.familyState(ranges, v.name, v.A, v.n_classes, def.n_grid);
    const values = { kappa: s.kappa, mcc: s.mcc, entropy: s.entropy, asymmetry: s.asymmetry === null ? null : fmtG(s.asymmetry, 6) };
    out.set(values, 4);
    out.querySelector('[data-key="asymmetry"]').dataset.value = String(s.asymmetry);
    const K = s.matrix.length;
    const flat = s.matrix.flat();
    matrix.update(s.matrix, {
      text: (x) => fmtG(x, 4),
      vmin: Math.min(...flat),
      vmax: Math.max(...flat),
      labelsNow: Array.from({ length: K }, (_, i) => i + 1),
    });
    const text = `${s.label} at A = ${v.A.toFixed(places(step))}: kappa ${fmt(s.kappa, 4)}, MCC ${fmt(s.mcc, 4)}, entropy ${fmt(s.entropy, 4)} bits, asymmetry ${values.asymmetry}`;
    const finiteMax = (ys) => Math.max(...ys.filter((y) => y !== null));
    const kmin = Math.min(...[...s.kappa_curve, ...s.mcc_curve].filter((y) => y !== null), 0);
    const kmax = Math.max(finiteMax(s.kappa_curve), finiteMax(s.mcc_curve), 0);
    kChart.draw({
      xDomain: [range[0], range[1]],
      yDomain: [kmin - 0.05 * (kmax - kmin || 1), kmax + 0.05 * (kmax - kmin || 1)],
      series: [
        { name: "kappa", xs: s.grid, ys: s.kappa_curve, color: BLUE },
        { name: "MCC", xs: s.grid, ys: s.mcc_curve, color: ORANGE, dash: "6 3" },
      ],
      markers: [
        { x: v.A, y: s.kappa, color: BLUE },
        { x: v.A, y: s.mcc, color: ORANGE, shape: "square" },
      ],
      vline: v.A,
      summary: `Kappa and MCC of ${s.label} against A; ${text}`,
    });
    eChart.draw({
      xDomain: [range[0], range[1]],
      yDomain: [0, 1.08 * finiteMax(s.entropy_curve) + 1e-9],
      series: [{ name: "entropy", xs: s.grid, ys: s.entropy_curve, color: GREEN }],
      markers: [{ x: v.A, y: s.entropy, color: GREEN, shape: "diamond" }],
      vline: v.A,
      summary: `Off-diagonal entropy of ${s.label} against A; at A = ${v.A.toFixed(places(step))} it is ${fmt(s.entropy, 4)} bits`,
    });
    f.say.say(text);
  };
  const nameDef = controlDef(def, "name");
  f.controls.append(
    select(nameDef, v.name, nameDef.options.map((o) => [o, o === "ZA" ? "Z_A" : o]), (x) => {
      v.name = x;
      reset();
    }),
    nSlider,
    aSlider,
  );
  nSlider.input.disabled = v.name !== "ZA";
  update();
}

// --- chapter 10: six coefficients, every case mix --------------------------------------------

const SIX = [
  ["kappa", "Cohen's kappa", "#08306b", null],
  ["scotts_pi", "Scott's pi", "#2171b5", "6 2"],
  ["alpha", "Krippendorff's alpha", "#6b46c1", "1.5 2"],
  ["mcc", "MCC", "#c05621", "6 2 2 2"],
  ["ac1", "Gwet's AC1", "#2f855a", "3 1 1 1"],
  ["bp", "Brennan-Prediger", "#718096", "8 2 2 2"],
];

function coefficients(mount, def, state) {
  const f = frame(mount, def);
  const v = { ...Object.fromEntries(def.controls.map((c) => [c.name, c.default])), ...state };
  const grid = gridOf(def);
  const out = results([["accuracy", "raw agreement p_o"], ...SIX.map(([k, label]) => [k, label])]);
  const chart = lineChart({ title: "Six coefficients for one rater against prevalence", xLabel: "prevalence (share of positive cases)", yLabel: "coefficient" });
  f.numbers.append(out);
  f.picture.append(
    chart,
    legend([{ name: "raw agreement p_o", color: "#999", dash: "1 3" }, ...SIX.map(([, name, color, dash]) => ({ name, color, dash }))]),
  );
  const update = () => {
    const curves = X.coefficientCurves(v.sensitivity, v.specificity, grid, def.n_cases);
    const here = X.coefficientCurves(v.sensitivity, v.specificity, [v.prevalence], def.n_cases);
    const values = Object.fromEntries(["accuracy", ...SIX.map(([k]) => k)].map((k) => [k, here[k][0]]));
    out.set(values);
    const text = `prevalence ${fmt(v.prevalence, 2)}, sensitivity ${fmt(v.sensitivity, 2)}, specificity ${fmt(v.specificity, 2)}: p_o ${fmt(values.accuracy)}, ${SIX.map(([k, name]) => `${name} ${fmt(values[k])}`).join(", ")}`;
    chart.draw({
      xDomain: [0, 1],
      yDomain: anyNegative(...SIX.map(([k]) => curves[k])) ? [-1.02, 1.02] : [-0.05, 1.02],
      series: [
        { name: "p_o", xs: grid, ys: curves.accuracy, color: "#999", dash: "1 3", width: 1.2 },
        ...SIX.map(([k, name, color, dash]) => ({ name, xs: grid, ys: curves[k], color, dash })),
      ],
      vline: v.prevalence,
      summary: `Six coefficients against prevalence; at ${text}`,
    });
    f.say.say(text);
  };
  rateSliders(f, def, v, update);
  update();
}

const EXPLORERS = { two_by_two: twoByTwo, prevalence, weighted, mcc_family: mccFamily, families, coefficients };

/** Build every explorer of the page from the definitions (explorers.json). */
export function mountAll(definitions, root = document) {
  for (const mount of root.querySelectorAll(".kh-explorer[data-explorer]")) {
    const name = mount.dataset.explorer;
    const build = EXPLORERS[name];
    const def = definitions.explorers[name];
    if (!build || !def) continue;
    try {
      build(mount, def, JSON.parse(mount.dataset.state || "{}"));
    } catch (err) {
      mount.append(h("p", { class: "kh-message", role: "alert" }, `The live explorer could not start: ${err.message}`));
      throw err;
    }
  }
}
