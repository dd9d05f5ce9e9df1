// The explorers' page furniture: labelled native controls (keyboard-usable as they are: a
// range input moves with the arrow keys, Page Up/Down, Home and End), a results list whose
// numbers carry their full value (data-value, read by make check-site), a polite live region
// that tells a screen reader the new numbers, HTML tables for matrices, and plain SVG charts
// drawn in the page's text colour (no library: a few lines and markers, offline, themable).

let serial = 0;
const nextId = (stem) => `kh-${stem}-${++serial}`;

/** An element with attributes and children (strings become text). */
export function h(tag, attrs = {}, ...children) {
  const svg = ["svg", "g", "path", "line", "text", "rect", "circle", "polygon", "title"].includes(tag);
  const el = svg
    ? document.createElementNS("http://www.w3.org/2000/svg", tag)
    : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined) el.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return el;
}

/** Python's format(x, ".{digits}f") (exact ties round half to even, as Python does), or
 * "undefined" for null, as kappalib.widgets' readouts write them. */
export function fmt(x, digits = 3) {
  if (x === null || x === undefined || Number.isNaN(x)) return "undefined";
  const s = x.toFixed(digits);
  // toFixed rounds an exact tie away from zero, Python to even: fix the (rare) exact ties.
  const scaled = x * 10 ** digits;
  if (Number.isInteger(scaled * 2) && !Number.isInteger(scaled)) {
    const down = Math.trunc(scaled);
    const even = down % 2 === 0 ? down : down + Math.sign(scaled);
    return (even / 10 ** digits).toFixed(digits);
  }
  return s;
}

/** Python's format(x, "g")-like short form for matrix cells (".4g"). */
export function fmtG(x, digits = 4) {
  if (x === null || x === undefined) return "undefined";
  if (x === 0) return "0";
  const e = Math.floor(Math.log10(Math.abs(x)));
  if (e < -4 || e >= digits) {
    const [m, ex] = x.toExponential(digits - 1).split("e");
    const mant = m.includes(".") ? m.replace(/0+$/, "").replace(/\.$/, "") : m;
    const n = Number(ex);
    return `${mant}e${n < 0 ? "-" : "+"}${String(Math.abs(n)).padStart(2, "0")}`;
  }
  const s = x.toFixed(Math.max(0, digits - 1 - e));
  return s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
}

/** A labelled range input with its readout. onInput(value) on every move. */
export function slider(def, value, onInput, { decimals = null } = {}) {
  const id = nextId(def.name);
  let places = decimals ?? (def.kind === "int" ? 0 : Math.max(0, -Math.floor(Math.log10(def.step) + 1e-9)));
  const input = h("input", {
    type: "range",
    id,
    name: def.name,
    min: def.min,
    max: def.max,
    step: def.step,
    value,
    "data-control": def.name,
  });
  const out = h("output", { for: id, "aria-hidden": "true" }, value.toFixed(places));
  const setText = () => {
    const v = Number(input.value);
    out.textContent = v.toFixed(places);
    input.setAttribute("aria-valuetext", v.toFixed(places));
  };
  setText();
  input.addEventListener("input", () => {
    setText();
    onInput(Number(input.value));
  });
  const row = h("div", { class: "kh-control kh-slider" }, h("label", { for: id }, def.label), input, out);
  row.input = input;
  row.set = (v, { silent = false } = {}) => {
    input.value = v;
    setText();
    if (!silent) onInput(Number(input.value));
  };
  row.configure = ({ min, max, step, places: p }) => {
    input.min = min;
    input.max = max;
    input.step = step;
    if (p !== undefined) places = p;
  };
  return row;
}

/** A labelled <select>. options: [[value, label], ...]. */
export function select(def, value, options, onChange) {
  const id = nextId(def.name);
  const sel = h(
    "select",
    { id, name: def.name, "data-control": def.name },
    options.map(([v, label]) => h("option", { value: v, selected: v === value }, label)),
  );
  sel.addEventListener("change", () => onChange(sel.value));
  const row = h("div", { class: "kh-control kh-select" }, h("label", { for: id }, def.label), sel);
  row.input = sel;
  return row;
}

/** A group of radio buttons in a fieldset with its legend. */
export function radios(def, value, onChange) {
  const name = nextId(def.name);
  const box = h("fieldset", { class: "kh-control kh-radios", "data-control": def.name }, h("legend", {}, def.label));
  for (const option of def.options) {
    const id = nextId(`${def.name}-${option}`);
    const input = h("input", { type: "radio", id, name, value: option, checked: option === value });
    input.addEventListener("change", () => input.checked && onChange(option));
    box.append(h("span", { class: "kh-radio" }, input, h("label", { for: id }, option)));
  }
  box.input = box;
  return box;
}

/** The results: a definition list of name = value, each value with data-key and data-value. */
export function results(items) {
  const list = h("dl", { class: "kh-results" });
  const cells = {};
  for (const [key, label] of items) {
    const dd = h("dd", { "data-key": key }, "");
    list.append(h("div", { class: "kh-result" }, h("dt", {}, label), dd));
    cells[key] = dd;
  }
  list.set = (values, digits = 3) => {
    for (const [key, dd] of Object.entries(cells)) {
      const v = values[key];
      dd.textContent = typeof v === "string" ? v : fmt(v, typeof digits === "object" ? digits[key] ?? 3 : digits);
      dd.dataset.value = v === null || v === undefined ? "null" : String(v);
    }
  };
  return list;
}

/** A polite live region: the latest sentence, told once the controls rest for a moment. */
export function announcer() {
  const region = h("p", { class: "kh-announce", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  let timer = null;
  region.say = (text) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      region.textContent = text;
    }, 350);
  };
  return region;
}

/** A matrix as an HTML table (rows = reference, columns = prediction), cells shaded by
 * value on a grey scale; the numbers stay text, legible at any width and to a reader. */
export function matrixTable({ caption, labels, rowTitle = "reference", colTitle = "prediction" }) {
  const table = h("table", { class: "kh-matrix" });
  table.update = (M, { text = (x) => fmtG(x), vmin = null, vmax = null, labelsNow = labels } = {}) => {
    const flat = M.flat();
    const lo = vmin ?? Math.min(...flat);
    const hi = vmax ?? Math.max(...flat);
    table.replaceChildren(
      h("caption", {}, caption),
      h(
        "thead",
        {},
        h("tr", {}, h("th", { scope: "col" }, `${rowTitle} \\ ${colTitle}`), labelsNow.map((l) => h("th", { scope: "col" }, String(l)))),
      ),
      h(
        "tbody",
        {},
        M.map((row, i) =>
          h(
            "tr",
            {},
            h("th", { scope: "row" }, String(labelsNow[i])),
            row.map((x, j) => {
              const share = hi > lo ? (x - lo) / (hi - lo) : 0;
              const light = Math.round(97 - 62 * share);
              return h(
                "td",
                {
                  "data-row": i,
                  "data-col": j,
                  "data-value": x,
                  style: `background-color: hsl(210 45% ${light}%); color: ${light < 60 ? "#fff" : "#111"}`,
                },
                text(x),
              );
            }),
          ),
        ),
      ),
    );
  };
  return table;
}

// --- SVG charts ------------------------------------------------------------------------------

const W = 420;
const H = 260;
const PAD_BASE = { left: 46, right: 12, top: 12, bottom: 40 };
const PAD = PAD_BASE; // the bar chart's; a line chart widens its left margin to its labels

function ticks(lo, hi, n = 5) {
  const span = hi - lo || 1;
  const raw = span / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => span / s <= n) ?? 10 * mag;
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  return out;
}

const label = (t) => String(Number(t.toPrecision(6)));

/** A line chart: series [{name, xs, ys, dash, width, color}], markers [{x, y, shape, name}],
 * a dotted vertical line at vline. ys may hold null (a gap). Returns an <svg> that redraws
 * with .draw(spec). */
export function lineChart({ title, xLabel, yLabel }) {
  const svg = h("svg", { class: "kh-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": title });
  svg.draw = ({ xDomain, yDomain, series, markers = [], vline = null, summary }) => {
    const [x0, x1] = xDomain;
    const [y0, y1] = yDomain;
    // The left margin fits the y-axis label and the widest tick label at the chart's own font
    // size (larger on a phone): at a fixed 46 units, "kappa, MCC" ran into "-0.5".
    const fontSize = parseFloat(getComputedStyle(svg).fontSize) || 13;
    const yTicks = ticks(y0, y1);
    const widest = Math.max(...yTicks.map((t) => label(t).length));
    const left = Math.ceil(4 + 1.25 * fontSize + 6 + 0.62 * fontSize * widest + 5);
    const PAD = { ...PAD_BASE, left };
    const X = (x) => PAD.left + ((x - x0) / (x1 - x0 || 1)) * (W - PAD.left - PAD.right);
    const Y = (y) => H - PAD.bottom - ((y - y0) / (y1 - y0 || 1)) * (H - PAD.top - PAD.bottom);
    const parts = [h("title", {}, summary || title)];
    const axes = h("g", { class: "kh-axes" });
    for (const t of yTicks) {
      axes.append(h("line", { x1: PAD.left, x2: W - PAD.right, y1: Y(t), y2: Y(t), class: "kh-grid" }));
      axes.append(h("text", { x: PAD.left - 5, y: Y(t) + 4, "text-anchor": "end" }, label(t)));
    }
    for (const t of ticks(x0, x1)) {
      axes.append(h("text", { x: X(t), y: H - PAD.bottom + 15, "text-anchor": "middle" }, label(t)));
    }
    axes.append(h("line", { x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: H - PAD.bottom, class: "kh-axis" }));
    axes.append(h("line", { x1: PAD.left, x2: W - PAD.right, y1: H - PAD.bottom, y2: H - PAD.bottom, class: "kh-axis" }));
    if (y0 < 0 && y1 > 0) axes.append(h("line", { x1: PAD.left, x2: W - PAD.right, y1: Y(0), y2: Y(0), class: "kh-zero" }));
    axes.append(h("text", { x: (PAD.left + W - PAD.right) / 2, y: H - 6, "text-anchor": "middle" }, xLabel));
    const lx = 4 + 0.9 * fontSize; // the rotated label's baseline, clear of the tick labels
    const ly = (PAD.top + H - PAD.bottom) / 2;
    axes.append(h("text", { x: lx, y: ly, "text-anchor": "middle", transform: `rotate(-90 ${lx} ${ly})` }, yLabel));
    parts.push(axes);
    if (vline !== null) {
      parts.push(h("line", { x1: X(vline), x2: X(vline), y1: PAD.top, y2: H - PAD.bottom, class: "kh-vline" }));
    }
    for (const s of series) {
      let d = "";
      let pen = false;
      s.xs.forEach((x, i) => {
        const y = s.ys[i];
        if (y === null || !Number.isFinite(y) || y < y0 - 1e-9 || y > y1 + 1e-9) {
          pen = false;
          return;
        }
        d += `${pen ? "L" : "M"}${X(x).toFixed(1)},${Y(y).toFixed(1)}`;
        pen = true;
      });
      parts.push(
        h("path", { d, class: "kh-series", stroke: s.color, "stroke-dasharray": s.dash || null, "stroke-width": s.width || 2, fill: "none" }),
      );
    }
    for (const m of markers) {
      if (m.y === null || !Number.isFinite(m.y)) continue;
      const cx = X(m.x);
      const cy = Y(m.y);
      const attrs = { class: "kh-marker", fill: m.fill || m.color, stroke: m.color, "stroke-width": 2 };
      if (m.shape === "square") parts.push(h("rect", { ...attrs, x: cx - 4.5, y: cy - 4.5, width: 9, height: 9 }));
      else if (m.shape === "triangle") parts.push(h("polygon", { ...attrs, points: `${cx - 6},${cy - 6} ${cx + 6},${cy - 6} ${cx},${cy + 5}` }));
      else if (m.shape === "diamond") parts.push(h("polygon", { ...attrs, points: `${cx},${cy - 6} ${cx + 6},${cy} ${cx},${cy + 6} ${cx - 6},${cy}` }));
      else parts.push(h("circle", { ...attrs, cx, cy, r: 4.5 }));
    }
    svg.setAttribute("aria-label", summary || title);
    svg.replaceChildren(...parts);
  };
  return svg;
}

/** A legend in HTML (text, so it stays legible): [{name, color, dash, shape}]. */
export function legend(items) {
  return h(
    "ul",
    { class: "kh-legend" },
    items.map((it) =>
      h(
        "li",
        {},
        h(
          "svg",
          { width: 28, height: 12, viewBox: "0 0 28 12", "aria-hidden": "true" },
          it.shape === "triangle"
            ? h("polygon", { points: "9,1 19,1 14,10", fill: it.color, stroke: it.color })
            : it.shape
            ? h("circle", { cx: 14, cy: 6, r: 4, fill: it.fill || it.color, stroke: it.color, "stroke-width": 2 })
            : h("line", { x1: 1, x2: 27, y1: 6, y2: 6, stroke: it.color, "stroke-width": 2.5, "stroke-dasharray": it.dash || null }),
        ),
        it.name,
      ),
    ),
  );
}

/** A bar chart of named values in [-1, 1]; null bars are written "undefined". */
export function barChart({ title }) {
  const svg = h("svg", { class: "kh-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": title });
  svg.draw = (bars, summary) => {
    const y0 = -1.15;
    const y1 = 1.15;
    const Y = (y) => H - PAD.bottom - ((y - y0) / (y1 - y0)) * (H - PAD.top - PAD.bottom);
    const slot = (W - PAD.left - PAD.right) / bars.length;
    const parts = [h("title", {}, summary || title)];
    for (const t of [-1, -0.5, 0, 0.5, 1]) {
      parts.push(h("line", { x1: PAD.left, x2: W - PAD.right, y1: Y(t), y2: Y(t), class: t === 0 ? "kh-zero" : "kh-grid" }));
      parts.push(h("text", { x: PAD.left - 5, y: Y(t) + 4, "text-anchor": "end" }, label(t)));
    }
    bars.forEach((b, i) => {
      const x = PAD.left + i * slot + slot * 0.2;
      const w = slot * 0.6;
      if (b.value !== null) {
        const top = Y(Math.max(0, b.value));
        const bottom = Y(Math.min(0, b.value));
        parts.push(h("rect", { x, y: top, width: w, height: Math.max(0.5, bottom - top), fill: b.color, class: "kh-bar", stroke: "currentColor" }));
      }
      const ty = b.value === null ? Y(0) - 6 : b.value >= 0 ? Y(b.value) - 6 : Y(b.value) + 16;
      parts.push(h("text", { x: x + w / 2, y: ty, "text-anchor": "middle", class: "kh-bar-value" }, fmt(b.value)));
      parts.push(h("text", { x: x + w / 2, y: H - PAD.bottom + 18, "text-anchor": "middle" }, b.name));
    });
    svg.setAttribute("aria-label", summary || title);
    svg.replaceChildren(...parts);
  };
  return svg;
}
