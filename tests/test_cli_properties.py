"""Issue 30's property: the command line on random rating tables written out as a
spreadsheet would (random missing-value tokens, delimiter, BOM, line endings, empty
trailing rows, case noise with the order given) prints the numbers of kappalib on the
cleaned data, and says what it read as missing.

Oracles: the data are cleaned by this test (not by kappalib): scikit-learn's
``cohen_kappa_score`` for two raters, the ``krippendorff`` package for three or four, and the
library's report of the cleaned data for the rest of the paragraph (the command line is a
front end: it must print that very text, plus its sentences on what it read).
"""

from __future__ import annotations

import re
from collections import Counter

import krippendorff
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from sweeps import sweep

import kappalib as kl
from kappalib.__main__ import main

TOKENS = ["", "NA", "n/a", ".", "-", "NaN", "null", "#N/A", "na", "N/A"]
WORDS = ["absent", "mild", "moderate", "severe"]
SEPARATORS = [",", ";", "\t", "|"]


def _noisy(word, rng):
    """A case or space variant of a word, as people type them."""
    return rng.choice([word.capitalize(), word.upper(), f" {word}", f"{word} "])


def _case(seed):
    rng = np.random.default_rng(seed)
    n_units = int(rng.integers(12, 40))
    n_raters = int(rng.integers(2, 5))
    words = bool(rng.random() < 0.6)
    scale = WORDS if words else [1, 2, 3, 4, 5]
    truth = rng.integers(0, len(scale), size=n_units)
    codes = np.where(
        rng.random((n_units, n_raters)) < 0.7,
        truth[:, None],
        rng.integers(0, len(scale), size=(n_units, n_raters)),
    )
    clean = [[scale[c] for c in row] for row in codes]
    written = [[str(v) for v in row] for row in clean]
    spelled = Counter()
    p_missing = float(rng.uniform(0.0, 0.2))
    for i in range(n_units):
        for j in range(n_raters):
            if rng.random() < p_missing:
                token = str(rng.choice(TOKENS))
                written[i][j] = token
                clean[i][j] = None
                if token.strip():
                    spelled[token] += 1
            elif words and rng.random() < 0.1:
                written[i][j] = _noisy(clean[i][j], rng)
    sep = str(rng.choice(SEPARATORS))
    newline = str(rng.choice(["\n", "\r\n"]))
    header = ["unit"] + [f"r{j + 1}" for j in range(n_raters)]
    lines = [sep.join(header)]
    lines += [sep.join([f"u{i}", *row]) for i, row in enumerate(written)]
    lines += [sep * n_raters] * int(rng.integers(0, 4))  # empty rows at the end
    text = ("\ufeff" if rng.random() < 0.5 else "") + newline.join(lines) + newline
    return text, clean, scale, header[1:], spelled, words


@pytest.mark.parametrize("seed", sweep(200, 12))
def test_the_command_line_prints_kappalib_on_the_cleaned_table(tmp_path, capsys, seed):
    text, clean, scale, raters, spelled, words = _case(seed)
    path = tmp_path / "sheet.csv"
    path.write_bytes(text.encode("utf-8"))
    labels = [str(v) for v in scale]
    args = ["report", str(path), "--columns", *raters, "--n-resamples", "199"]
    if words:
        args += ["--labels", *labels]  # the order given: case noise is read as listed
    code = main(args)
    out, err = capsys.readouterr()
    columns = list(zip(*clean, strict=True))
    order = scale if words else None  # numbers: the categories used, as the command line
    if len(raters) == 2:
        expected = kl.agreement_report(
            list(columns[0]), list(columns[1]), labels=order, missing="drop",
            raters=(raters[0], raters[1]), n_resamples=199, rng=0,
        )  # fmt: skip
        pairs = [(a, b) for a, b in zip(*columns, strict=True) if a is not None and b is not None]
        kappa = cohen_kappa_score(*zip(*pairs, strict=True), labels=scale)
        assert code == 0, err
        assert f"| Cohen's kappa | {kappa:.3f} |" in out
    else:
        table = [list(row) for row in clean]
        expected = kl.ratings_report(
            table, layout="units x raters", labels=order, n_resamples=199, rng=0
        )
        index = {v: k for k, v in enumerate(scale)}
        data = np.array([[np.nan if v is None else index[v] for v in row] for row in clean]).T
        alpha = krippendorff.alpha(
            data, level_of_measurement="nominal", value_domain=list(range(len(scale)))
        )
        assert code == 0, err
        assert f"Krippendorff's alpha (nominal) was {alpha:.3f}" in out
    paragraph = out.split("## Methods paragraph\n\n", 1)[1].strip()
    said = re.findall(r" Read as [^:]*: .*?\)\.(?= |$)", paragraph)
    assert paragraph.replace("".join(said), "") == expected.methods_paragraph()
    if spelled:
        for s, n in spelled.items():
            assert f"{s.strip()!r} ({n} {'cell' if n == 1 else 'cells'})" in paragraph
    else:
        assert "Read as missing" not in paragraph
