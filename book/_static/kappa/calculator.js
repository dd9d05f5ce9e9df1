// calculator.js: the agreement calculator of book/calculator.md.
//
// Reads a K x K table of counts, two columns of labels, or a ratings table (one row per
// subject, blanks = missing), pasted or opened from a CSV file; computes every coefficient
// with kappa.js (kappalib's twin, window.Kappa); shows the order used, the numbers, a
// heatmap, kappalib's methods paragraph and the kappalib code that reproduces them.
//
// A classic script (no ES module): Chromium loads no module from file://, and the page must
// work from a folder with the network off.  Bad input gets one sentence beside the field.
//
// Every number shown carries its full value in data-value (the site check compares them
// with kappalib's, which it gets by running the code shown on the page).

(function () {
  "use strict";

  const K = window.Kappa;
  const $ = (id) => document.getElementById(id);

  class InputError extends Error {}

  // --- examples -------------------------------------------------------------------------

  const EXAMPLES = {
    matrix: {
      text: "106, 10, 4\n22, 28, 10\n2, 12, 6",
      order: "",
      note: "Fleiss, Cohen and Everitt (1969): two psychiatrists, 200 patients, three diagnoses.",
    },
    labels: {
      text:
        "nurse,physician\n" +
        [
          ["mild", "mild", 9], ["mild", "moderate", 3], ["moderate", "moderate", 11],
          ["moderate", "severe", 2], ["severe", "severe", 6], ["moderate", "mild", 2],
          ["severe", "moderate", 1],
        ]
          .flatMap(([a, b, n]) => Array(n).fill(`${a},${b}`))
          .join("\n"),
      order: "mild, moderate, severe",
      header: true,
      note: "A made-up example: two raters grade 34 cases as mild, moderate or severe.",
    },
    ratings: {
      text: [
        "1,1,,1", "2,2,3,2", "3,3,3,3", "3,3,3,3", "2,2,2,2", "1,2,3,4", "4,4,4,4", "1,1,2,1",
        "2,2,2,2", ",5,5,5", ",,1,1", ",3,,",
      ].join("\n"),
      order: "",
      note: "Krippendorff (2011): four observers, twelve units, values 1 to 5, blanks = missing.",
    },
  };

  // kappalib's missing-value tokens (K.NA_VALUES), as the help says them: "NA", ... and "-"
  const TOKENS_TEXT = (() => {
    const t = ((K && K.NA_VALUES) || []).map((v) => `"${v}"`);
    return `${t.slice(0, -1).join(", ")} and ${t[t.length - 1]}`;
  })();

  const HELP = {
    matrix:
      "One row per category of rater 1, one count per category of rater 2 (whole numbers), " +
      "separated by commas, tabs or spaces.",
    labels:
      "One row per case: rater 1's label, then rater 2's, separated by a comma or a tab. A " +
      `case with a blank label, or one of ${TOKENS_TEXT} (any case), is left out as missing, ` +
      "unless the order field lists that word.",
    ratings:
      "One row per subject, one column per rater. A blank cell, or one of " +
      `${TOKENS_TEXT} (any case), is a missing rating, unless the order field lists that word.`,
  };

  // --- parsing ----------------------------------------------------------------------------

  function splitLine(line, delimiter) {
    if (delimiter === "space") return line.trim().split(/\s+/);
    const out = [];
    let cell = "";
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quoted) {
        if (ch === '"' && line[i + 1] === '"') {
          cell += '"';
          i += 1;
        } else if (ch === '"') quoted = false;
        else cell += ch;
      } else if (ch === '"' && cell.trim() === "") {
        quoted = true;
        cell = "";
      } else if (ch === delimiter) {
        out.push(cell);
        cell = "";
      } else cell += ch;
    }
    out.push(cell);
    return out.map((c) => c.trim());
  }

  function detectDelimiter(lines, allowSpace) {
    const text = lines.join("\n");
    if (text.includes("\t")) return "\t";
    if (text.includes(",")) return ",";
    if (text.includes(";")) return ";";
    return allowSpace ? "space" : ",";
  }

  function rowsOf(text, { allowSpace, header, idColumn, blankRows = true }) {
    let lines = text.replace(/\r\n?/g, "\n").split("\n");
    const numbered = lines.map((line, i) => ({ line, n: i + 1 })).filter((x) => x.line.trim() !== "");
    if (numbered.length === 0) throw new InputError("empty");
    const delimiter = detectDelimiter(numbered.map((x) => x.line), allowSpace);
    let rows = numbered.map(({ line, n }) => ({ cells: splitLine(line, delimiter), n }));
    // a line whose every cell is blank (",,," from a spreadsheet) is no case, as in kappalib's
    // command line
    if (!blankRows) rows = rows.filter((r) => r.cells.some((c) => c !== ""));
    if (rows.length === 0) throw new InputError("empty");
    let names = null;
    let namesLine = null;
    if (header) {
      names = rows[0].cells;
      namesLine = rows[0].n;
      rows = rows.slice(1);
      if (rows.length === 0) throw new InputError("The data hold a header row and nothing below it.");
    }
    if (idColumn) {
      rows = rows.map((r) => ({ ...r, cells: r.cells.slice(1) }));
      if (names) names = names.slice(1);
    }
    return { rows, names, namesLine };
  }

  const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

  function quote(v) {
    return typeof v === "number" ? String(v) : `"${v}"`;
  }

  function parseMatrix(text) {
    const { rows } = rowsOf(text, { allowSpace: true, header: false, idColumn: false });
    const width = rows[0].cells.length;
    for (const r of rows) {
      if (r.cells.length !== width) {
        throw new InputError(
          `Line ${r.n} has ${r.cells.length} counts and line ${rows[0].n} has ${width}: ` +
            "every row needs one count per category (a ragged table).",
        );
      }
    }
    const C = rows.map((r) =>
      r.cells.map((cell, j) => {
        if (cell === "") {
          throw new InputError(`Line ${r.n}, column ${j + 1} is empty: write 0 where no case fell.`);
        }
        if (!NUMBER.test(cell)) {
          throw new InputError(
            `Line ${r.n}, column ${j + 1} holds "${cell}", which is not a count: paste numbers ` +
              "only, and give the category names in the order field below.",
          );
        }
        const x = Number(cell);
        if (x < 0) {
          throw new InputError(`Line ${r.n}, column ${j + 1} holds ${cell}: counts cannot be negative.`);
        }
        if (!Number.isInteger(x)) {
          // kappalib's refusal (counts_of_cases), in the page's words: line and column
          throw new InputError(
            `Line ${r.n}, column ${j + 1} holds ${cell}, which is not a whole number: the table ` +
              "needs counts of cases (the standard error shrinks with N), and a table of " +
              "proportions has lost its N: paste the counts (the proportions times the number of cases).",
          );
        }
        return x;
      }),
    );
    if (rows.length !== width) {
      throw new InputError(
        `The table has ${rows.length} row${rows.length === 1 ? "" : "s"} and ${width} ` +
          `column${width === 1 ? "" : "s"}: a confusion matrix has one row and one column per ` +
          "category, so it must be square.",
      );
    }
    if (width < 2) {
      throw new InputError("A 1 x 1 table has one class only: agreement needs at least two categories.");
    }
    if (!C.some((row) => row.some((x) => x > 0))) {
      throw new InputError("Every count is 0: the table needs at least one case.");
    }
    return C;
  }

  function typedValues(cells) {
    // numbers if every non-blank cell reads as a number, else strings
    const present = cells.filter((c) => c !== null);
    const numeric = present.length > 0 && present.every((c) => NUMBER.test(c));
    return { numeric, convert: (c) => (c === null ? null : numeric ? Number(c) : c) };
  }

  function orderItems(text) {
    return String(text || "").split(/[,;\t\n]/).map((x) => x.trim()).filter((x) => x !== "");
  }

  // The missing ratings, read as kappalib reads them (kappalib/_input/missing.py, twinned by
  // K.missingSpellings): a blank, or a missing-value token (NA, N/A, NaN, null, #N/A, <NA>,
  // "." or "-", any case) that the order field does not list. Returns the rows with each
  // such cell made blank, and each spelling read so with its count, in kappalib's reading
  // order (first appearance: column by column for two columns of labels, y1 then y2; row by
  // row for a ratings table).
  function readMissing(rows, order, byColumn) {
    const counts = new Map();
    const note = (c) => counts.set(c, (counts.get(c) || 0) + 1);
    if (byColumn) {
      const width = Math.max(...rows.map((r) => r.cells.length));
      for (let j = 0; j < width; j++) for (const r of rows) if (j < r.cells.length) note(r.cells[j]);
    } else for (const r of rows) r.cells.forEach(note);
    const gone = new Set(K.missingSpellings([...counts.keys()], orderItems(order)));
    return {
      rows: rows.map((r) => ({ ...r, cells: r.cells.map((c) => (gone.has(c) ? "" : c)) })),
      read: [...counts].filter(([c]) => gone.has(c)),
      gone,
      counted: [...counts],
    };
  }

  // Spellings that differ only by case ("Moderate", "moderate"), read as kappalib reads
  // them (K.caseVariants, kappalib/_input/labels.py): refused with both named when the
  // order field is empty; with an order, a variant of exactly one listed category is read
  // as it, and said. Numbers are left alone. Returns the rows and [spelling, category,
  // count] for each spelling read so.
  function readVariants(missing, rows, order) {
    const kept = missing.counted.map(([c]) => c).filter((c) => c !== "" && !missing.gone.has(c));
    if (kept.every((c) => NUMBER.test(c))) return { rows, read: [] };
    const listed = orderItems(order);
    const { readAs, clashes } = K.caseVariants(kept, listed.length ? listed : null);
    if (clashes.length) {
      const where = (w) => {
        const r = rows.find((x) => x.cells.includes(w));
        return `"${w}" (line ${r.n}, column ${r.cells.indexOf(w) + 1})`;
      };
      throw new InputError(
        `${clashes[0].slice(0, 4).map(where).join(" and ")} differ only by case: correct the ` +
          "spelling, or list the categories in the order field (a case variant of one listed " +
          "category is then read as it; list both spellings if they are two categories).",
      );
    }
    if (readAs.length === 0) return { rows, read: [] };
    const as = new Map(readAs);
    const counts = new Map(missing.counted);
    return {
      rows: rows.map((r) => ({ ...r, cells: r.cells.map((c) => (as.has(c) ? as.get(c) : c)) })),
      read: readAs.map(([c, label]) => [c, label, counts.get(c)]),
    };
  }

  const HEADER_BOX = '"The first line holds column names"';

  function listed(cells) {
    return cells.map((c) => `"${c}"`).join(", ");
  }

  // A first line read as data that looks like column names: its values (two or more, all
  // different) occur nowhere else in the data, while each of its columns repeats values
  // below it. Read as a case, it would add one case and categories of its own and change
  // every number, so it is refused, with the two ways to say what it is: the header box,
  // or the order field listing every category (then line 1 is a case).
  function refuseHeaderAsData(rows, opts) {
    if (opts.header || rows.length < 3) return;
    const first = rows[0].cells;
    const heads = first.filter((c) => c !== "");
    if (heads.length < 2 || new Set(heads).size !== heads.length) return;
    if (heads.every((c) => NUMBER.test(c))) return; // numbers: see mixedKinds
    const rest = rows.slice(1);
    if (rest.every((r) => r.cells.every((c) => c === "" || NUMBER.test(c)))) return; // mixedKinds
    const elsewhere = new Set(rest.flatMap((r) => r.cells));
    if (heads.some((c) => elsewhere.has(c))) return;
    const repeats = first.every((c, j) => {
      if (c === "") return true;
      const below = rest.map((r) => r.cells[j]).filter((v) => v !== undefined && v !== "");
      return below.length > new Set(below).size;
    });
    if (!repeats) return;
    const order = new Set(String(opts.order || "").split(/[,;\t\n]/).map((x) => x.trim()));
    if (heads.every((c) => order.has(c))) return; // the user lists them: categories, line 1 a case
    throw new InputError(
      `Line ${rows[0].n} (${listed(heads)}) looks like column names, since its values occur ` +
        `nowhere else in the data: tick ${HEADER_BOX}, or, if line ${rows[0].n} is data, list ` +
        "every category in the order field.",
    );
  }

  // The mirror: the header box ticked over a first line of words that are each a rating in
  // their own column below (a file without names, the box left ticked by the example): the
  // first case would vanish unsaid, so it is refused. Numbers are left alone: a header of
  // rater numbers over numeric ratings is common (0, 1, 2 from pandas).
  function refuseDataAsHeader({ names, namesLine: line, rows }, opts) {
    if (!opts.header || !names || rows.length === 0) return;
    const heads = names.map((c, j) => ({ c, j })).filter((h) => h.c !== "");
    if (heads.length < 2 || heads.some((h) => NUMBER.test(h.c))) return;
    if (!heads.every((h) => rows.some((r) => r.cells[h.j] === h.c))) return;
    throw new InputError(
      `Line ${line} (${listed(heads.map((h) => h.c))}) is read as column names, but each of its ` +
        `values is a rating in its column below: untick ${HEADER_BOX} if line ${line} is a case, ` +
        "or rename the columns.",
    );
  }

  function mixedKinds(rows, opts = {}) {
    let num = null;
    let word = null;
    for (const r of rows) {
      for (const c of r.cells) {
        if (c === "") continue;
        if (NUMBER.test(c)) num = num || { c, n: r.n };
        else word = word || { c, n: r.n };
      }
    }
    if (num && word && !opts.header && word.n === rows[0].n) {
      // words on the first line only, above numbers: column names read as ratings
      const wordsBelow = rows.slice(1).some((r) => r.cells.some((c) => c !== "" && !NUMBER.test(c)));
      if (!wordsBelow) {
        const heads = rows[0].cells.filter((c) => c !== "");
        throw new InputError(
          `Line ${rows[0].n} (${listed(heads)}) holds words above lines of numbers, as column ` +
            `names would: tick ${HEADER_BOX}, or use one kind for every rating.`,
        );
      }
    }
    if (num && word && opts.kind === "ratings" && !opts.idColumn) {
      // words in the first column only, beside numbers: subject ids read as a rater
      const isWord = (c) => c !== undefined && c !== "" && !NUMBER.test(c);
      const namesLine = !opts.header && rows[0].cells.every((c) => c === "" || isWord(c));
      const body = namesLine ? rows.slice(1) : rows;
      const ids = body.filter((r) => isWord(r.cells[0]));
      if (ids.length > 0 && body.every((r) => !r.cells.slice(1).some(isWord))) {
        throw new InputError(
          `Column 1 holds words (such as "${ids[0].cells[0]}", line ${ids[0].n}) beside ratings ` +
            `that are numbers, as subject ids would: tick "The first column holds subject ids"` +
            `${namesLine ? `, and ${HEADER_BOX},` : ""} or use one kind for every rating.`,
        );
      }
    }
    if (num && word) {
      throw new InputError(
        `The ratings mix numbers (such as ${num.c}, line ${num.n}) and words (such as "${word.c}", ` +
          `line ${word.n}): use one kind for every rating.`,
      );
    }
  }

  function parseLabels(text, opts) {
    const parsed = rowsOf(text, { allowSpace: false, ...opts, blankRows: false });
    const { names } = parsed;
    let { rows } = parsed;
    if (!opts.idColumn && rows.every((r) => r.cells.length === 3)) {
      throw new InputError(
        'Every line has 3 values: tick "The first column holds subject ids" if column 1 holds ' +
          "case ids, or use the ratings table for three raters.",
      );
    }
    for (const r of rows) {
      if (r.cells.length !== 2) {
        throw new InputError(
          `Line ${r.n} has ${r.cells.length} value${r.cells.length === 1 ? "" : "s"}: each line ` +
            "needs two labels, rater 1's and rater 2's (use the ratings table for more raters).",
        );
      }
    }
    const written = rows;
    const missing = readMissing(rows, opts.order, true);
    rows = missing.rows;
    refuseHeaderAsData(rows, opts);
    refuseDataAsHeader({ ...parsed, rows }, opts);
    mixedKinds(rows, opts);
    const variants = readVariants(missing, rows, opts.order);
    rows = variants.rows;
    const complete = rows.filter((r) => r.cells.every((c) => c !== ""));
    if (complete.length === 0) {
      throw new InputError(
        `No line holds two labels: each has a blank, or a missing-value token such as ${TOKENS_TEXT}, ` +
          "read as a missing label (list a word in the order field if it is a category).",
      );
    }
    const { numeric, convert } = typedValues(complete.flatMap((r) => r.cells));
    // the cells as written, for the kappalib code: numbers as numbers, the rest as text
    const asWritten = (c) => (numeric && NUMBER.test(c) ? Number(c) : c);
    return {
      y1: complete.map((r) => convert(r.cells[0])),
      y2: complete.map((r) => convert(r.cells[1])),
      numeric,
      raterNames: names,
      lines: complete.map((r) => r.n),
      written: {
        y1: written.map((r) => asWritten(r.cells[0])),
        y2: written.map((r) => asWritten(r.cells[1])),
      },
      missing: { read: missing.read, gone: [...missing.gone], leftOut: rows.length - complete.length },
      variants: variants.read,
    };
  }

  function parseRatings(text, opts) {
    const parsed = rowsOf(text, { allowSpace: false, ...opts, blankRows: false });
    const { names } = parsed;
    const width = Math.max(...parsed.rows.map((r) => r.cells.length));
    if (width < 2) {
      throw new InputError("Each line holds one rating: a ratings table needs a column per rater, at least two.");
    }
    const missing = readMissing(parsed.rows, opts.order, false);
    refuseHeaderAsData(missing.rows, opts);
    refuseDataAsHeader({ ...parsed, rows: missing.rows }, opts);
    mixedKinds(missing.rows, opts);
    const variants = readVariants(missing, missing.rows, opts.order);
    const { rows } = variants;
    const cells = rows.map((r) => {
      const padded = r.cells.concat(Array(width - r.cells.length).fill(""));
      return padded.map((c) => (c === "" ? null : c));
    });
    const { numeric, convert } = typedValues(cells.flat());
    const data = cells.map((row) => row.map(convert));
    if (!data.some((row) => row.filter((v) => v !== null).length >= 2)) {
      throw new InputError(
        "No subject has two ratings: agreement needs at least one subject rated by two or more raters.",
      );
    }
    return {
      data,
      numeric,
      raterNames: names,
      lines: rows.map((r) => r.n),
      missing: { read: missing.read, variants: variants.read },
    };
  }

  function parseList(text, numeric, what) {
    const items = text.split(/[,;\t\n]/).map((s) => s.trim()).filter((s) => s !== "");
    if (items.length === 0) return null;
    const seen = new Set();
    for (const s of items) {
      if (seen.has(s)) throw new InputError(`The ${what} lists "${s}" twice: name each category once.`);
      seen.add(s);
    }
    if (numeric === true) {
      const bad = items.find((s) => !NUMBER.test(s));
      if (bad !== undefined) {
        throw new InputError(`The ${what} holds "${bad}", but the ratings are numbers: list numbers.`);
      }
      return items.map(Number);
    }
    return items;
  }

  function parseWeights(text, Kc) {
    const { rows } = rowsOf(text, { allowSpace: true, header: false, idColumn: false });
    const W = rows.map((r) =>
      r.cells.map((c, j) => {
        if (!NUMBER.test(c) && !(c.startsWith("-") && NUMBER.test(c.slice(1)))) {
          throw new InputError(`Weights line ${r.n}, column ${j + 1} holds "${c}", which is not a number.`);
        }
        return Number(c);
      }),
    );
    if (W.length !== Kc || W.some((row) => row.length !== Kc)) {
      throw new InputError(
        `The weights need ${Kc} rows of ${Kc} numbers, one per category pair; got ` +
          `${W.length} row${W.length === 1 ? "" : "s"} of ${W.map((r) => r.length).join(", ")}.`,
      );
    }
    return W;
  }

  // --- reading the controls ---------------------------------------------------------------

  function kindNow() {
    return document.querySelector('input[name="kc-kind"]:checked').value;
  }

  function settings() {
    return {
      kind: kindNow(),
      text: $("kc-data").value,
      header: $("kc-header").checked,
      idColumn: $("kc-id").checked,
      order: $("kc-order").value,
      weighting: $("kc-weighting").value,
      weights: $("kc-weights").value,
      scores: $("kc-scores").value,
      level: Number($("kc-level").value),
      raters: [$("kc-rater1").value.trim() || "rater 1", $("kc-rater2").value.trim() || "rater 2"],
    };
  }

  function weightingOf(s, Kc) {
    const err = (msg) => ({ error: msg, field: "weights" });
    // the scores field shows (and counts) for linear and quadratic weights only
    if (s.weighting === "none") return { weighting: null, scores: null };
    if (s.weighting === "custom") {
      if (!s.weights.trim()) return err(`Paste a ${Kc} x ${Kc} matrix of disagreement weights (0 on the diagonal).`);
      try {
        const W = parseWeights(s.weights, Kc);
        K.resolveWeights(W, Kc, null); // kappalib's sentences for a bad matrix
        return { weighting: W, scores: null };
      } catch (e) {
        return err(sentence(e));
      }
    }
    let scores = null;
    if (s.scores.trim()) {
      const items = s.scores.split(/[,;\t\n]/).map((x) => x.trim()).filter((x) => x !== "");
      const bad = items.find((x) => !NUMBER.test(x) && !(x.startsWith("-") && NUMBER.test(x.slice(1))));
      if (bad !== undefined) {
        return err(
          `The scores field holds "${bad}", which is not a number: give one number per category ` +
            "(such as 0, 1, 3), in the order used.",
        );
      }
      scores = items.map(Number);
      if (scores.length !== Kc) {
        return err(`The scores give ${scores.length} values for ${Kc} categories: one score per category, in the order used.`);
      }
      if (new Set(scores).size !== Kc) return err("The scores must give each category a different value.");
    }
    return { weighting: s.weighting, scores };
  }

  function sentence(e) {
    let m = String(e && e.message ? e.message : e);
    m = m.charAt(0).toUpperCase() + m.slice(1);
    return /[.!?]$/.test(m) ? m : `${m}.`;
  }

  // --- computing --------------------------------------------------------------------------

  function twoRaterInput(s) {
    if (s.kind === "matrix") {
      const C = parseMatrix(s.text);
      let names = null;
      try {
        names = parseList(s.order, false, "order field");
      } catch (e) {
        throw Object.assign(e, { field: "order" });
      }
      if (names && names.length !== C.length) {
        throw Object.assign(
          new InputError(
            `The order field names ${names.length} categor${names.length === 1 ? "y" : "ies"} for a ` +
              `${C.length} x ${C.length} table: give one name per row, in the rows' order.`,
          ),
          { field: "order" },
        );
      }
      const labels = names || C.map((_, i) => String(i + 1));
      return { C, labels, values: labels, source: names ? "given" : "positions", pairs: null };
    }
    const { y1, y2, numeric, raterNames, lines, written, missing, variants } = parseLabels(s.text, s);
    let order = null;
    try {
      order = parseList(s.order, numeric, "order field");
    } catch (e) {
      throw Object.assign(e, { field: "order" });
    }
    if (order) {
      const known = new Set(order);
      for (let i = 0; i < y1.length; i++) {
        for (const [v, who] of [[y1[i], 1], [y2[i], 2]]) {
          if (!known.has(v)) {
            throw Object.assign(
              new InputError(
                `The label ${quote(v)} (line ${lines[i]}, rater ${who}) is not among the categories ` +
                  `of the order field (${order.map(quote).join(", ")}): an unknown category. Add ` +
                  "it to the order, or correct the label.",
              ),
              { field: "order" },
            );
          }
        }
      }
    }
    const { C, labels, order: source } = K.confusionMatrix(y1, y2, { labels: order });
    if (C.length < 2) {
      throw new InputError(
        `Both raters use the one category ${quote(labels[0])}: one class only. Agreement needs at ` +
          "least two categories; list the others offered in the order field.",
      );
    }
    return {
      C,
      labels: labels.map(String),
      values: labels,
      source,
      pairs: { y1, y2, numeric },
      raterNames,
      written,
      missing: { ...missing, variants },
    };
  }

  function row(key, name, value, extra = {}) {
    return { key, name, value, ...extra };
  }

  function computeTwoRater(s) {
    const input = twoRaterInput(s);
    const { C, labels } = input;
    // a header row names the raters, unless the reader named them already
    const heads = input.raterNames;
    if (heads && heads.length === 2 && heads.every((h) => h) && s.raters[0] === "rater 1" && s.raters[1] === "rater 2") {
      $("kc-rater1").value = heads[0];
      $("kc-rater2").value = heads[1];
      s.raters = [heads[0], heads[1]];
    }
    // every case in one class of a K x K table (K >= 2): p_o, PABAK, AC1 and
    // Brennan-Prediger are defined, kappa and its kin are 0/0 and shown as "undefined"
    const Kc = C.length;
    const w = weightingOf(s, Kc);
    if (w.error) throw Object.assign(new InputError(w.error), { field: "weights" });
    if (w.weighting !== null && input.source === "spelling") {
      throw Object.assign(
        new InputError(
          "Weights measure distances between categories, and these labels have no order but " +
            `their spelling (${labels.join(", ")}): list them in their order in the order field.`,
        ),
        { field: "order" },
      );
    }
    const opts = { weighting: w.weighting, scores: w.scores };
    const level = s.level;
    const rows = [
      row("observed_agreement", "Observed agreement p<sub>o</sub>", K.observedAgreement(C)),
      row("expected_agreement", "Chance agreement p<sub>e</sub> (Cohen)", K.expectedAgreement(C)),
      row("kappa", "Cohen's kappa", K.kappa(C), {
        interval: K.kappaConfint(C, { confidenceLevel: level }),
        se: K.kappaStandardError(C),
      }),
    ];
    if (w.weighting !== null) {
      const name =
        w.weighting === "linear"
          ? "Linearly weighted kappa"
          : w.weighting === "quadratic"
            ? "Quadratically weighted kappa"
            : "Weighted kappa (your weights)";
      rows.push(
        row("weighted_kappa", name, K.kappa(C, opts), {
          interval: K.kappaConfint(C, { ...opts, confidenceLevel: level }),
          se: K.kappaStandardError(C, opts),
        }),
      );
    }
    rows.push(
      row("kappa_max", "Largest kappa the margins allow (kappa<sub>max</sub>)", K.kappaMax(C)),
      row("pabak", "PABAK", K.pabak(C)),
      row("scotts_pi", "Scott's pi", K.scottsPi(C)),
      row("gwet_ac1", "Gwet's AC1", K.gwetAc1(C)),
    );
    if (w.weighting !== null) rows.push(row("gwet_ac2", "Gwet's AC2 (weighted)", K.gwetAc1(C, opts)));
    rows.push(row("brennan_prediger", "Brennan-Prediger", K.brennanPrediger(C)));
    if (w.weighting !== null) {
      rows.push(row("brennan_prediger_weighted", "Brennan-Prediger (weighted)", K.brennanPrediger(C, opts)));
    }
    rows.push(row("mcc", "Matthews correlation (MCC)", K.mcc(C)));
    const alphaData = pairsOf(C);
    if (alphaData) {
      rows.push(row("alpha_nominal", "Krippendorff's alpha, nominal", K.krippendorffAlpha(alphaData)));
    }
    if (Kc === 2) {
      rows.push(row("prevalence_index", "Prevalence index", K.prevalenceIndex(C)));
      rows.push(row("bias_index", "Bias index", K.biasIndex(C)));
    }
    let paragraph = null;
    let paragraphError = null;
    try {
      const report = K.agreementReport(C, {
        labels,
        weighting: w.weighting,
        scores: w.scores,
        confidenceLevel: level,
        raters: s.raters,
      });
      // kappalib's report of the labels as written (missing="drop") ends with its
      // sentences on the cases left out and the spellings read as missing
      report.caveats.push(...readingSentences(input.missing));
      paragraph = report.methodsParagraph();
    } catch (e) {
      paragraphError = sentence(e);
    }
    return {
      kind: "two",
      C,
      labels,
      source: input.source,
      read: readingSentences(input.missing),
      rows,
      paragraph,
      paragraphError,
      code: twoRaterCode(s, input, w, paragraphError),
      summary: summaryOf(rows, w.weighting !== null ? "weighted_kappa" : "kappa", level, `N = ${K.pyG(sumAll(C))}`),
    };
  }

  // kappalib's sentences on what was read: the cases left out for a missing label (two
  // raters), the spellings read as missing, and those read as a listed category; or none
  function readingSentences(missing) {
    if (!missing) return [];
    return [
      missing.leftOut ? K.leftOutCaveat(missing.leftOut) : null,
      K.missingCaveat(missing.read),
      K.variantsCaveat(missing.variants || []),
    ].filter((x) => x);
  }

  // the cases behind a table of whole counts, one [row, column] pair per case (for
  // Krippendorff's alpha, which reads ratings); none for more than 100,000 cases
  function pairsOf(C) {
    const n = sumAll(C);
    if (n > 100000 || !C.every((r) => r.every(Number.isInteger))) return null;
    const out = [];
    C.forEach((r, i) => r.forEach((x, j) => {
      for (let t = 0; t < x; t++) out.push([i, j]);
    }));
    return out;
  }

  function sumAll(C) {
    let n = 0;
    for (const r of C) for (const x of r) n += x;
    return n;
  }

  function computeRatings(s) {
    const { data, numeric, missing } = parseRatings(s.text, s);
    let order = null;
    try {
      order = parseList(s.order, numeric, "order field");
    } catch (e) {
      throw Object.assign(e, { field: "order" });
    }
    if (order) {
      const known = new Set(order);
      data.forEach((unit, u) =>
        unit.forEach((v, r) => {
          if (v !== null && !known.has(v)) {
            throw Object.assign(
              new InputError(
                `The rating ${quote(v)} (subject ${u + 1}, rater ${r + 1}) is not among the ` +
                  `categories of the order field (${order.map(quote).join(", ")}): an unknown ` +
                  "category. Add it to the order, or correct the rating.",
              ),
              { field: "order" },
            );
          }
        }),
      );
    }
    const { table, labels: categories, order: source } = K.ratingTable(data, { labels: order });
    if (categories.length < 2) {
      throw new InputError(
        `Every rating is ${quote(categories[0])} (one class only): agreement needs at least two ` +
          "categories; list the others offered in the order field.",
      );
    }
    const Kc = categories.length;
    const w = weightingOf(s, Kc);
    if (w.error) throw Object.assign(new InputError(w.error), { field: "weights" });
    if (w.weighting !== null && source === "spelling") {
      throw Object.assign(
        new InputError(
          "Weights measure distances between categories, and these ratings have no order but " +
            `their spelling (${categories.join(", ")}): list them in their order in the order field.`,
        ),
        { field: "order" },
      );
    }
    // Gwet's weights use the categories' values when they are numbers (as kappalib does)
    const scores = w.scores ?? (typeof w.weighting === "string" && numeric ? categories : null);
    const opts = { weighting: w.weighting, scores };
    const nRatings = data.flat().filter((v) => v !== null).length;
    const perUnit = table.map((r) => r.reduce((a, b) => a + b, 0));
    const rows = [];
    const levels = numeric ? ["nominal", "ordinal", "interval", "ratio"] : order ? ["nominal", "ordinal"] : ["nominal"];
    for (const lv of levels) {
      if (lv === "ratio" && categories.some((x) => x < 0)) {
        rows.push(row("alpha_ratio", "Krippendorff's alpha, ratio", null, { na: "needs non-negative values" }));
        continue;
      }
      rows.push(
        row(`alpha_${lv}`, `Krippendorff's alpha, ${lv}`, K.krippendorffAlpha(data, { levelOfMeasurement: lv, labels: order })),
      );
    }
    const equal = perUnit.every((m) => m === perUnit[0]);
    if (equal) rows.push(row("fleiss_kappa", "Fleiss' kappa", K.fleissKappa(table)));
    else {
      rows.push(
        row("fleiss_kappa", "Fleiss' kappa", null, {
          na: `needs the same number of ratings for every subject (here ${Math.min(...perUnit)} to ${Math.max(...perUnit)})`,
        }),
      );
    }
    rows.push(row("gwet_ac1_multi", w.weighting === null ? "Gwet's AC1" : "Gwet's AC2 (weighted)", K.gwetAc1Multi(table, opts)));
    rows.push(
      row(
        "brennan_prediger_multi",
        w.weighting === null ? "Brennan-Prediger" : "Brennan-Prediger (weighted)",
        K.brennanPredigerMulti(table, opts),
      ),
    );
    const facts = `${data.length} subjects, ${data[0].length} raters, ${nRatings} ratings (${data.length * data[0].length - nRatings} missing)`;
    return {
      kind: "ratings",
      read: readingSentences(missing),
      table,
      categories: categories.map(String),
      source,
      rows,
      facts,
      code: ratingsCode(s, data, order, w, rows, missing),
      summary: summaryOf(rows, "alpha_nominal", s.level, facts),
    };
  }

  function summaryOf(rows, key, level, tail) {
    const r = rows.find((x) => x.key === key);
    let text = `${r.name.replace(/<[^>]+>/g, "")} ${fmt(r.value)}`;
    if (r.interval) text += `, ${pct(level)} CI ${fmt(r.interval[0])} to ${fmt(r.interval[1])}`;
    return `${text}; ${tail}.`;
  }

  // --- the kappalib code ------------------------------------------------------------------

  function py(v) {
    if (v === null || v === undefined) return "None";
    if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(v);
    if (typeof v === "string") return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(py).join(", ")}]`;
    return String(v);
  }

  function pyRows(M, indent = "    ") {
    return `[\n${M.map((r) => `${indent}${py(r)},`).join("\n")}\n]`;
  }

  const PAIR_LIMIT = 2000;

  function twoRaterCode(s, input, w, paragraphError) {
    const lines = ["import kappalib as kl", ""];
    const gone = input.missing && input.missing.leftOut ? input.missing.gone : null;
    const readAs = input.missing && input.missing.variants.length ? input.missing.variants : null;
    const asWritten = Boolean(input.pairs && (gone || readAs) && input.written.y1.length <= PAIR_LIMIT);
    if (asWritten) {
      // the labels as written: the cases with a label read as missing are left out, and a
      // case variant is read as the category listed, here as in kappalib's report
      lines.push(`y1 = ${py(input.written.y1)}  # ${s.raters[0]}, as written`);
      lines.push(`y2 = ${py(input.written.y2)}  # ${s.raters[1]}, as written`);
      lines.push(`labels = ${py(input.values)}  # the category order used`);
      if (gone) {
        lines.push(`missing = ${py(gone)}  # read as missing: a blank, or a missing-value token`);
        lines.push("kept = [i for i in range(len(y1)) if y1[i] not in missing and y2[i] not in missing]");
      } else lines.push("kept = range(len(y1))");
      let get = (y) => `${y}[i]`;
      if (readAs) {
        lines.push(`read_as = {${readAs.map(([c, label]) => `${py(c)}: ${py(label)}`).join(", ")}}  # as listed`);
        get = (y) => `read_as.get(${y}[i], ${y}[i])`;
      }
      lines.push(`C = kl.confusion_matrix([${get("y1")} for i in kept], [${get("y2")} for i in kept], labels=labels)`);
    } else if (input.pairs && input.pairs.y1.length <= PAIR_LIMIT) {
      lines.push(`y1 = ${py(input.pairs.y1)}  # ${s.raters[0]}`);
      lines.push(`y2 = ${py(input.pairs.y2)}  # ${s.raters[1]}`);
      lines.push(`labels = ${py(input.values)}  # the category order used`);
      lines.push("C = kl.confusion_matrix(y1, y2, labels=labels)");
    } else {
      if (input.pairs) lines.push(`# C counts your ${input.pairs.y1.length} label pairs (kl.confusion_matrix(y1, y2, labels=labels))`);
      if (gone || readAs) {
        lines.push("# kappalib's paragraph from C does not say what was read as missing or as a listed");
        lines.push('# category; kl.agreement_report(y1, y2, labels=labels, missing="drop") does');
      }
      lines.push(`C = ${pyRows(input.C)}`);
      lines.push(`labels = ${py(input.labels)}  # rows and columns, in this order`);
    }
    lines.push(`weighting = ${w.weighting === null ? "None" : Array.isArray(w.weighting) ? pyRows(w.weighting) : py(w.weighting)}`);
    lines.push(`scores = ${py(w.scores)}`);
    lines.push(`level = ${py(s.level)}`);
    lines.push("");
    const wk = "weighting=weighting, scores=scores";
    const calls = [
      ["observed_agreement", "kl.observed_agreement(C)"],
      ["expected_agreement", "kl.expected_agreement(C)"],
      ["kappa", "kl.kappa(C)"],
      ["kappa_interval", "kl.kappa_confint(C, confidence_level=level)"],
      ["kappa_se", "kl.kappa_standard_error(C)"],
    ];
    if (w.weighting !== null) {
      calls.push(
        ["weighted_kappa", `kl.kappa(C, ${wk})`],
        ["weighted_kappa_interval", `kl.kappa_confint(C, ${wk}, confidence_level=level)`],
        ["weighted_kappa_se", `kl.kappa_standard_error(C, ${wk})`],
      );
    }
    calls.push(
      ["kappa_max", "kl.kappa_max(C)"],
      ["pabak", "kl.pabak(C)"],
      ["scotts_pi", "kl.scotts_pi(C)"],
      ["gwet_ac1", "kl.gwet_ac1(C)"],
    );
    if (w.weighting !== null) calls.push(["gwet_ac2", `kl.gwet_ac1(C, ${wk})`]);
    calls.push(["brennan_prediger", "kl.brennan_prediger(C)"]);
    if (w.weighting !== null) calls.push(["brennan_prediger_weighted", `kl.brennan_prediger(C, ${wk})`]);
    calls.push(["mcc", "kl.mcc(C)"]);
    if (pairsOf(input.C)) {
      calls.push(["alpha_nominal", 'kl.krippendorff_alpha(list(kl.labels_from_matrix(C)), level_of_measurement="nominal", layout="raters x units")']);
    }
    if (input.C.length === 2) calls.push(["prevalence_index", "kl.prevalence_index(C)"], ["bias_index", "kl.bias_index(C)"]);
    for (const [key, call] of calls) lines.push(`print("${key}", ${call})`);
    lines.push("");
    const call = [
      "kl.agreement_report(",
      asWritten
        ? `    y1, y2, labels=labels, ${wk}, confidence_level=level, missing="drop",`
        : `    C=C, labels=labels, ${wk}, confidence_level=level,`,
      `    raters=(${py(s.raters[0])}, ${py(s.raters[1])}),`,
      ")",
    ];
    if (paragraphError) {
      // kappalib refuses to report this table: the code says so instead of raising
      lines.push(`# no methods paragraph: kl.agreement_report(${asWritten ? "y1, y2" : "C=C"}, ...) refuses this table:`);
      lines.push(`# ${paragraphError}`);
      return lines.join("\n");
    }
    lines.push(`report = ${call[0]}`, ...call.slice(1));
    lines.push('print("paragraph", report.methods_paragraph())');
    return lines.join("\n");
  }

  function ratingsCode(s, data, order, w, rows, missing) {
    const lines = ["import kappalib as kl", ""];
    lines.push("# one row per subject, one column per rater; None = a missing rating");
    for (const said of readingSentences(missing)) lines.push(`# ${said}`);
    lines.push(`data = ${pyRows(data)}`);
    lines.push(`labels = ${py(order)}  # the order field (None: sorted)`);
    lines.push(`weighting = ${w.weighting === null ? "None" : Array.isArray(w.weighting) ? pyRows(w.weighting) : py(w.weighting)}`);
    lines.push(`scores = ${py(w.scores)}`);
    lines.push('layout = "units x raters"');
    lines.push("");
    lines.push("table = kl.rating_table(data, labels=labels, layout=layout)");
    for (const r of rows) {
      if (r.na) continue;
      if (r.key.startsWith("alpha_")) {
        const lv = r.key.slice(6);
        lines.push(`print("${r.key}", kl.krippendorff_alpha(data, level_of_measurement="${lv}", labels=labels, layout=layout))`);
      } else if (r.key === "fleiss_kappa") lines.push('print("fleiss_kappa", kl.fleiss_kappa(table))');
      else if (r.key === "gwet_ac1_multi") lines.push('print("gwet_ac1_multi", kl.gwet_ac1_multi(table, weighting=weighting, scores=scores))');
      else if (r.key === "brennan_prediger_multi") {
        lines.push('print("brennan_prediger_multi", kl.brennan_prediger_multi(table, weighting=weighting, scores=scores))');
      }
    }
    return lines.join("\n");
  }

  // --- showing ----------------------------------------------------------------------------

  function fmt(x, digits = 3) {
    if (x === null || x === undefined) return "undefined";
    const t = K.pyFixed(x, digits);
    return t.startsWith("-") && Number(t) === 0 ? t.slice(1) : t;
  }

  function pct(level) {
    return `${K.pyFixed(level * 100, 0)}%`;
  }

  function esc(text) {
    return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  }

  function num(x) {
    return x === null || x === undefined ? "null" : String(x);
  }

  function resultsTable(rows, level) {
    const intervals = rows.some((r) => r.interval !== undefined);
    const out = [
      intervals
        ? '<table class="kc-coefficients"><caption>Every coefficient that applies, with the interval where kappalib gives one in closed form</caption>'
        : '<table class="kc-coefficients"><caption>Every coefficient that applies (point estimates)</caption>',
      '<thead><tr><th scope="col">Coefficient</th><th scope="col">Value</th>' +
        (intervals ? `<th scope="col">${pct(level)} interval</th>` : "") +
        "</tr></thead><tbody>",
    ];
    for (const r of rows) {
      const value = r.na
        ? `<td class="kc-na" data-key="${r.key}" data-value="na">not applicable: ${esc(r.na)}</td>`
        : `<td data-key="${r.key}" data-value="${num(r.value)}">${fmt(r.value)}</td>`;
      let interval = "<td>—</td>";
      if (r.interval !== undefined) {
        interval =
          r.interval === null
            ? `<td data-key="${r.key}_interval" data-value="null">undefined<span class="kc-se" ` +
              `data-key="${r.key}_se" data-value="${num(r.se)}">SE ${fmt(r.se, 4)}</span></td>`
            : `<td data-key="${r.key}_interval" data-value="${num(r.interval[0])},${num(r.interval[1])}">` +
              `${fmt(r.interval[0])} to ${fmt(r.interval[1])}<span class="kc-se" data-key="${r.key}_se" ` +
              `data-value="${num(r.se)}">SE ${fmt(r.se, 4)}</span></td>`;
      }
      out.push(`<tr><th scope="row">${r.name}</th>${value}${intervals ? interval : ""}</tr>`);
    }
    out.push("</tbody></table>");
    return out.join("");
  }

  // a sequential blue scale (ColorBrewer Blues), light to dark: legible in grayscale
  const BLUES = ["#f7fbff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5", "#08519c", "#08306b"];

  function luminance(hex) {
    const v = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
    const lin = v.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  }

  function textOn(hex) {
    const L = luminance(hex);
    return (L + 0.05) / 0.05 >= 1.05 / (L + 0.05) ? "#000000" : "#ffffff";
  }

  function heatmap(M, rowLabels, colLabels, caption, rowTitle, colTitle) {
    let top = 0;
    for (const r of M) for (const x of r) top = Math.max(top, x);
    const cls = M[0].length > 6 ? " kc-heatmap-wide" : "";
    const out = [
      `<table class="kc-heatmap${cls}"><caption>${esc(caption)}</caption><thead><tr>`,
      `<td class="kc-corner">${esc(rowTitle)} ↓ · ${esc(colTitle)} →</td>`,
    ];
    for (const c of colLabels) out.push(`<th scope="col">${esc(c)}</th>`);
    out.push("</tr></thead><tbody>");
    M.forEach((r, i) => {
      out.push(`<tr><th scope="row">${esc(rowLabels[i])}</th>`);
      r.forEach((x, j) => {
        const bg = BLUES[top > 0 ? Math.min(BLUES.length - 1, Math.round((x / top) * (BLUES.length - 1))) : 0];
        const diag = M.length === M[0].length && i === j ? " kc-diag" : "";
        out.push(`<td class="kc-cell${diag}" style="background:${bg};color:${textOn(bg)}">${esc(K.pyG(x))}</td>`);
      });
      out.push("</tr>");
    });
    out.push("</tbody></table>");
    return out.join("");
  }

  const ORDER_SOURCE = {
    given: "as listed in the order field",
    positions: "the rows' order (give names in the order field)",
    numbers: "sorted as numbers (list them in the order field to change it)",
    spelling: "sorted by spelling: if the categories are ordered, list them in the order field",
  };

  function showError(message, field) {
    const now = settings();
    // the control a weights error is about: the matrix, the scores, or the choice itself
    const weightsControl =
      now.weighting === "custom"
        ? "kc-weights"
        : now.weighting !== "none" && now.scores.trim()
          ? "kc-scores"
          : "kc-weighting";
    for (const id of ["kc-data", "kc-order", "kc-weights", "kc-scores", "kc-weighting"]) {
      $(id).removeAttribute("aria-invalid");
    }
    for (const f of ["data", "order", "weights"]) {
      const box = $(`kc-${f}-error`);
      const on = f === field;
      box.textContent = on ? message : "";
      box.hidden = !on;
      if (on) $(f === "weights" ? weightsControl : `kc-${f}`).setAttribute("aria-invalid", "true");
    }
    if (field) {
      $("kc-results").hidden = true;
      $("kc-status").textContent = `Not computed: ${message}`;
    }
  }

  function show(res, s) {
    showError(null, null);
    const orderText =
      res.kind === "two"
        ? `${res.labels.map(esc).join(", ")} (${ORDER_SOURCE[res.source]})`
        : `${res.categories.map(esc).join(", ")} (${ORDER_SOURCE[res.source]})`;
    $("kc-order-used").innerHTML = `<strong>Order used:</strong> <span id="kc-order-list">${orderText}</span>`;
    $("kc-table-out").innerHTML = resultsTable(res.rows, s.level);
    $("kc-read-note").textContent = res.read.join(" ");
    $("kc-read-note").hidden = res.read.length === 0;
    if (res.kind === "two") {
      $("kc-facts").textContent = `N = ${K.pyG(sumAll(res.C))} cases in ${res.C.length} categories; rows: ${s.raters[0]}, columns: ${s.raters[1]}.`;
      $("kc-heatmap-out").innerHTML = heatmap(
        res.C,
        res.labels,
        res.labels,
        `Counts: rows ${s.raters[0]}, columns ${s.raters[1]}; darker = more cases, agreements on the outlined diagonal.`,
        s.raters[0],
        s.raters[1],
      );
      if (res.paragraph) {
        $("kc-paragraph").textContent = res.paragraph;
        $("kc-paragraph-note").textContent =
          "The same text as kappalib's kl.agreement_report(...).methods_paragraph() for this table.";
      } else {
        $("kc-paragraph").textContent = "";
        $("kc-paragraph-note").textContent = res.paragraphError || "";
      }
      // no paragraph (kappalib refuses the table): its reason, and nothing to copy
      $("kc-paragraph").hidden = !res.paragraph;
      document.querySelector('[data-copy="kc-paragraph"]').hidden = !res.paragraph;
      $("kc-paragraph-section").hidden = false;
    } else {
      $("kc-facts").textContent = `${res.facts}.`;
      const shown = res.table.slice(0, 60);
      $("kc-heatmap-out").innerHTML =
        heatmap(
          shown,
          shown.map((_, i) => String(i + 1)),
          res.categories,
          `How many raters put each subject in each category${res.table.length > 60 ? ` (the first 60 of ${res.table.length} subjects)` : ""}; darker = more raters.`,
          "subject",
          "category",
        );
      $("kc-paragraph").textContent = "";
      $("kc-paragraph-note").textContent = "";
      $("kc-paragraph-section").hidden = true;
    }
    $("kc-interval-note").textContent =
      res.kind === "two"
        ? "Only kappa has a closed-form interval here (Fleiss, Cohen and Everitt 1969, the " +
          "standard error of the chapter on uncertainty). kappalib's kl.bootstrap_confint gives " +
          "bootstrap intervals for kappa and MCC; a page cannot repeat its random draws, so " +
          "they are not shown."
        : "No interval is shown for a ratings table: the page computes the point estimates only.";
    $("kc-code-note").textContent =
      res.kind === "two" && res.paragraph
        ? "Run this in Python with kappalib installed: it prints every number above and the paragraph."
        : "Run this in Python with kappalib installed: it prints every number above.";
    $("kc-code").textContent = res.code;
    // the theme marks a <pre> that does not scroll at load as tabindex=-1; the code box
    // scrolls once it is filled, so a keyboard must reach it
    $("kc-code").parentElement.setAttribute("tabindex", "0");
    $("kc-results").hidden = false;
    $("kc-status").textContent = res.summary;
  }

  function update() {
    const s = settings();
    $("kc-weights-group").hidden = s.weighting !== "custom";
    $("kc-scores-group").hidden = !(s.weighting === "linear" || s.weighting === "quadratic");
    $("kc-id-group").hidden = s.kind === "matrix";
    $("kc-header-group").hidden = s.kind === "matrix";
    $("kc-raters-group").hidden = s.kind === "ratings";
    $("kc-data-help").textContent = HELP[s.kind];
    if (!s.text.trim()) {
      showError(null, null);
      $("kc-results").hidden = true;
      $("kc-status").textContent = "Paste your data or open a CSV file to see the results.";
      return;
    }
    try {
      const res = s.kind === "ratings" ? computeRatings(s) : computeTwoRater(s);
      show(res, s);
    } catch (e) {
      if (!(e instanceof InputError) && !(e instanceof Error)) throw e;
      const field = e.field || "data";
      showError(e.message === "empty" ? "Paste your data or open a CSV file." : sentence(e), field);
    }
  }

  let timer = null;
  function soon() {
    clearTimeout(timer);
    timer = setTimeout(update, 150);
  }

  function loadExample() {
    const kind = kindNow();
    const ex = EXAMPLES[kind];
    $("kc-data").value = ex.text;
    $("kc-order").value = ex.order;
    $("kc-header").checked = !!ex.header;
    $("kc-id").checked = false;
    $("kc-example-note").textContent = ex.note;
    update();
  }

  function openFile(ev) {
    const file = ev.target.files && ev.target.files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      $("kc-data").value = String(reader.result);
      $("kc-example-note").textContent = `Read ${file.name}.`;
      update();
    };
    reader.onerror = () => showError(`The file ${file.name} could not be read.`, "data");
    reader.readAsText(file);
  }

  function copyText(id, button) {
    const text = $(id).textContent;
    const done = () => {
      button.textContent = "Copied";
      setTimeout(() => (button.textContent = button.dataset.label), 1500);
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, () => {});
    else {
      const range = document.createRange();
      range.selectNodeContents($(id));
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      try {
        document.execCommand("copy");
        done();
      } catch {
        /* the text stays selected for the reader to copy */
      }
    }
  }

  function init() {
    if (!K) {
      $("kc-status").textContent = "The calculator could not load its arithmetic (kappa.js).";
      return;
    }
    $("kc-app").hidden = false;
    for (const id of ["kc-data", "kc-order", "kc-weights", "kc-scores", "kc-rater1", "kc-rater2"]) {
      $(id).addEventListener("input", soon);
    }
    for (const id of ["kc-weighting", "kc-level", "kc-header", "kc-id"]) $(id).addEventListener("change", update);
    for (const el of document.querySelectorAll('input[name="kc-kind"]')) el.addEventListener("change", update);
    $("kc-example").addEventListener("click", loadExample);
    $("kc-file").addEventListener("change", openFile);
    $("kc-form").addEventListener("submit", (e) => {
      e.preventDefault();
      update();
    });
    for (const b of document.querySelectorAll("[data-copy]")) {
      b.dataset.label = b.textContent;
      b.addEventListener("click", () => copyText(b.dataset.copy, b));
    }
    update();
  }

  window.KappaCalculator = { update, parseMatrix, parseLabels, parseRatings };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
