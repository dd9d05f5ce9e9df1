// The self-checks of the static page. tools/self_checks.py writes each one as
// <div class="self-check" data-self-check="{...}">: its question, hint, answer and the
// explanations already rendered (formulas typeset by MathJax with the rest of the page), and a
// static part (the printed table or the lettered options, "answer at the end of the chapter")
// for paper and for a browser without JavaScript. mountAll adds the live part:
//
// * a numeric question draws a fresh table (self_check_math.mjs, the twin of kappalib), takes a
//   typed answer and judges it; a typed value that is a known mistake (p_o for kappa, say) gets
//   the explanation written for that mistake;
// * a multiple-choice question takes one option (radio buttons) and shows that option's own
//   explanation, right or wrong;
// * both have a hint, and the answer only after a try or when asked for ("Show the answer").
//
// Every control is a native button, input or radio (keyboard as it is); the feedback line is a
// polite live region (role="status"), so a screen reader hears "Right" or "Not yet" and why.

import { h } from "../explorers/ui.mjs";
import { drawTable, format, judge, rng, value } from "./self_check_math.mjs";

let serial = 0;
const nextId = (stem) => `sc-${stem}-${++serial}`;

/** A seed for the page's draws: fresh on every visit (the tests draw with their own seeds). */
const freshSeed = () => {
  if (globalThis.crypto && crypto.getRandomValues) return crypto.getRandomValues(new Uint32Array(1))[0];
  return Math.floor(Math.random() * 2 ** 32);
};

/** The table as an HTML table: rows and columns named by the labels, with the totals when
 * the question asks for them. */
function tableElement(T, q) {
  const t = q.table;
  const counts = t.kind === "counts";
  const labels = t.labels || T[0].map((_, k) => String(k + 1));
  const caption = counts
    ? "Rows: the units; columns: how many raters chose each category"
    : `Rows: ${t.rows || "reference (rater 1)"}; columns: ${t.columns || "prediction (rater 2)"}`;
  const head = h("tr", {}, h("td", {}), ...labels.map((l) => h("th", { scope: "col" }, l)));
  if (t.margins && !counts) head.append(h("th", { scope: "col", class: "sc-total" }, "total"));
  const body = T.map((row, i) => {
    const tr = h(
      "tr",
      {},
      h("th", { scope: "row" }, counts ? `unit ${i + 1}` : labels[i]),
      ...row.map((x) => h("td", {}, String(x))),
    );
    if (t.margins && !counts) tr.append(h("td", { class: "sc-total" }, String(row.reduce((s, x) => s + x, 0))));
    return tr;
  });
  const table = h("table", { class: "sc-table" }, h("caption", {}, caption), h("thead", {}, head), h("tbody", {}, ...body));
  if (t.margins && !counts) {
    const c = T[0].map((_, j) => T.reduce((s, row) => s + row[j], 0));
    const N = c.reduce((s, x) => s + x, 0);
    table.append(
      h(
        "tfoot",
        {},
        h("tr", {}, h("th", { scope: "row", class: "sc-total" }, "total"), ...c.map((x) => h("td", { class: "sc-total" }, String(x))), h("td", { class: "sc-total" }, String(N))),
      ),
    );
  }
  table.dataset.table = JSON.stringify(T);
  return table;
}

/** Writes each .sc-value of `root` (a number the text quotes, {sc}`kappa:.3f` in the source)
 * for the table T. */
function fillValues(root, q, T) {
  for (const span of root.querySelectorAll(".sc-value")) {
    span.textContent = format(value(span.dataset.q, T, q.table.kind || "matrix"), span.dataset.fmt || ".3f");
  }
}

function button(text, attrs = {}) {
  return h("button", { type: "button", class: "sc-button", ...attrs }, text);
}

/** The shared frame: the live part, its buttons, the hint and answer boxes (moved in from the
 * rendered ones) and the feedback line (the live region). */
function frame(root, q) {
  const live = h("div", { class: "sc-live" });
  const feedback = h("div", { class: "sc-feedback", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  const hint = root.querySelector(":scope > .sc-hint");
  const answer = root.querySelector(":scope > .sc-answer");
  const hintButton = button("Hint", { "aria-expanded": "false", "data-action": "hint" });
  const answerButton = button("Show the answer", { "aria-expanded": "false", "data-action": "answer" });
  if (hint) {
    hint.id = hint.id || nextId("hint");
    hintButton.setAttribute("aria-controls", hint.id);
    hint.hidden = true;
    hintButton.addEventListener("click", () => {
      hint.hidden = !hint.hidden;
      hintButton.setAttribute("aria-expanded", String(!hint.hidden));
      hintButton.textContent = hint.hidden ? "Hint" : "Hide the hint";
    });
  }
  const showAnswer = (show) => {
    if (!answer) return;
    answer.hidden = !show;
    answerButton.setAttribute("aria-expanded", String(show));
    answerButton.textContent = show ? "Hide the answer" : "Show the answer";
  };
  if (answer) {
    answer.id = answer.id || nextId("answer");
    answerButton.setAttribute("aria-controls", answer.id);
    answer.hidden = true;
    answerButton.addEventListener("click", () => showAnswer(answer.hidden));
  }
  const say = (status, ...content) => {
    feedback.className = `sc-feedback sc-${status}`;
    feedback.dataset.status = status;
    feedback.replaceChildren(...content);
  };
  return { live, feedback, hint, answer, hintButton, answerButton, showAnswer, say };
}

/** A copy of a rendered explanation, its ids dropped (they stay unique on the page). */
function copyOf(el) {
  const copy = el.cloneNode(true);
  copy.hidden = false;
  copy.removeAttribute("id");
  copy.querySelectorAll("[id]").forEach((x) => x.removeAttribute("id"));
  return copy;
}

// --- numeric ---------------------------------------------------------------------------------

function numeric(root, q) {
  const f = frame(root, q);
  const random = rng(freshSeed());
  const kind = q.table.kind || "matrix";
  const needs = [q.compute, ...(q.mistakes || []).map((m) => m.compute)];
  const mistakes = [...root.querySelectorAll(":scope > .sc-mistake")];
  let T = null;
  const holder = h("div", { class: "sc-table-holder" });
  const inputId = nextId("answer-input");
  const input = h("input", {
    type: "text",
    id: inputId,
    class: "sc-input",
    inputmode: "decimal",
    autocomplete: "off",
    spellcheck: "false",
    "aria-describedby": null,
  });
  const label = h("label", { for: inputId }, q.ask || `Your answer (to ${q.digits ?? 2} decimals)`);
  const check = h("button", { type: "submit", class: "sc-button sc-primary", "data-action": "check" }, "Check");
  const fresh = button("New table", { "data-action": "new" });
  const form = h("form", { class: "sc-form", novalidate: true }, h("div", { class: "sc-answer-row" }, label, input, check));
  const buttons = h("div", { class: "sc-buttons" }, f.hintButton, f.answerButton, fresh);
  f.live.append(holder, form, buttons, f.feedback);

  const newTable = () => {
    T = drawTable(q.table, random, needs, T);
    holder.replaceChildren(tableElement(T, q));
    root.dataset.table = JSON.stringify(T);
    fillValues(root.querySelector(":scope > .sc-answer") || h("div"), q, T);
    mistakes.forEach((m) => fillValues(m, q, T));
    input.value = "";
    f.showAnswer(false);
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const verdict = judge({ ...q, kind }, T, input.value);
    const truth = format(verdict.truth, `.${q.digits ?? 2}f`);
    if (verdict.status === "invalid") {
      f.say("invalid", h("strong", {}, "Not a number yet. "), verdict.message);
    } else if (verdict.status === "right") {
      f.say("right", h("strong", {}, "Right. "), `${q.name || "The value"} is ${truth} to ${q.digits ?? 2} decimals on this table. Press New table for another one.`);
    } else if (verdict.status === "mistake") {
      f.say("wrong", h("strong", {}, "Not yet. "), copyOf(mistakes[verdict.mistake]));
    } else if (verdict.status === "close") {
      f.say("wrong", h("strong", {}, "Close, but not yet. "), `Your ${input.value.trim()} is near the value but more than one unit in the last decimal away: keep more decimals in the steps in between, and round only at the end.`);
    } else {
      f.say("wrong", h("strong", {}, "Not yet. "), "Try again: open the hint, or show the answer to see each step on this table.");
    }
  });
  fresh.addEventListener("click", () => {
    newTable();
    f.say("new", "A new table is drawn: try the question on it.");
  });
  newTable();
  return f;
}

// --- multiple choice -------------------------------------------------------------------------

function choice(root, q) {
  const f = frame(root, q);
  const options = [...root.querySelectorAll(":scope > .sc-option")];
  const name = nextId("choice");
  const legendId = nextId("legend");
  const fieldset = h("fieldset", { class: "sc-choices", "aria-describedby": null }, h("legend", { id: legendId }, "Choose one answer"));
  const radios = options.map((opt, k) => {
    const id = `${name}-${k}`;
    const radio = h("input", { type: "radio", name, id, value: String(k) });
    const text = copyOf(opt.querySelector(".sc-option-text"));
    const letter = String.fromCharCode(97 + k);
    fieldset.append(h("div", { class: "sc-choice" }, radio, h("label", { for: id }, h("span", { class: "sc-letter" }, `(${letter}) `), text)));
    return radio;
  });
  const check = h("button", { type: "submit", class: "sc-button sc-primary", "data-action": "check" }, "Check");
  const form = h("form", { class: "sc-form", novalidate: true }, fieldset, h("div", { class: "sc-answer-row" }, check));
  const buttons = h("div", { class: "sc-buttons" }, f.hintButton, f.answerButton);
  f.live.append(form, buttons, f.feedback);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const k = radios.findIndex((r) => r.checked);
    if (k < 0) {
      f.say("invalid", h("strong", {}, "Choose an answer first "), "(the arrow keys move between the options).");
      return;
    }
    const opt = options[k];
    const explain = copyOf(opt.querySelector(".sc-option-explain"));
    if (opt.classList.contains("sc-correct")) f.say("right", h("strong", {}, "Right. "), explain);
    else f.say("wrong", h("strong", {}, "Not yet. "), explain);
  });
  return f;
}

/** Builds every self-check of the page. */
export function mountAll() {
  for (const root of document.querySelectorAll(".self-check[data-self-check]")) {
    if (root.classList.contains("sc-mounted")) continue;
    try {
      const q = JSON.parse(root.dataset.selfCheck);
      const f = q.type === "choice" ? choice(root, q) : numeric(root, q);
      const question = root.querySelector(":scope > .sc-question");
      (question || root.firstChild).after(f.live);
      if (f.hint) f.feedback.before(f.hint);
      if (f.answer) f.live.append(f.answer);
      root.classList.add("sc-mounted");
    } catch (err) {
      console.error(`self-check ${root.id}: ${err.message}`);
    }
  }
  document.documentElement.classList.add("kh-sc-live");
}
