"""The command line: ``python -m kappalib report data.csv --columns rater_a rater_b``.

Reads a CSV file (the standard library's ``csv`` module), builds the report of
:func:`kappalib.agreement_report` (two columns of labels, or two label columns and a
``--count`` column of a long count table) or :func:`kappalib.ratings_report` (three or more
rater columns, or ``--ratings``), and prints it as Markdown with its methods paragraph, or
writes it as an HTML page (``--html out.html``).

The file is read as the reports read strings (``kappalib._report.reading``), and every
reading is said in the report:

* the delimiter is the one of ``, ; tab |`` that splits the header (and, if several do, the
  first rows alike), or ``--sep``; a decimal comma (``2,5``) is read when every number of
  the columns is written so, or ``--decimal``;
* a row whose every cell is blank (``,,,`` from a spreadsheet) is not a unit;
* a blank cell, or a missing-value token (``NA``, ``N/A``, ``NaN``, ``null``, ``#N/A``,
  ``<NA>``, ``.``, ``-``, any case; ``--na-values`` replaces them) is a missing rating,
  unless ``--labels`` lists it;
* words that differ only by case are refused with both named, unless ``--labels`` gives the
  categories: a variant of one listed category is then read as it.

Bad input (a missing file or column, a value outside ``--labels``, a single category, ...)
prints one sentence to stderr and exits with status 2; no traceback.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import html
import io
import math
import re
import sys
from collections.abc import Sequence
from typing import Any

from .._count.long_counts import matrix_from_counts
from .._input.labels import case_variants
from .._input.missing import NA_VALUES, check_na_values, classify
from .._input.ratings import Layout, as_ratings, check_not_ids
from .._shared.words import render_html, render_markdown
from .comparisons import Section
from .ratings import ratings_report
from .reading import decimal_caveat, missing_caveat, variants_caveat
from .routing import (
    MAX_CATEGORIES,
    comparison_sections,
    measurements,
    refuse_unstated_measurements,
)
from .two_raters import agreement_report

EXIT_BAD_INPUT = 2
SHOWN = 5  # bad values named in one sentence; the rest are counted


class BadInputError(Exception):
    """One sentence for the user; the command exits with status 2."""


def _parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="python -m kappalib",
        description="Agreement reports from the command line (kappalib).",
    )
    sub = top.add_subparsers(dest="command", metavar="report")
    p = sub.add_parser(
        "report",
        help="the agreement report of a CSV file, with a methods paragraph",
        description=(
            "Two columns: the report of two raters (Cohen's kappa, weighted with --weighting). "
            "Two columns and --count: a long table of label pairs and their counts. Three "
            "or more columns (or --ratings): a ratings table, one row per unit and one "
            "column per rater. A blank cell, or a missing-value token such as NA, is a "
            "missing rating."
        ),
    )
    p.add_argument("csv", help="the CSV file (a header row, then one row per unit)")
    p.add_argument(
        "--columns", nargs="+", required=True, metavar="NAME", help="the rater columns, in order"
    )
    p.add_argument(
        "--labels",
        nargs="+",
        metavar="CATEGORY",
        help="the categories offered, in their order (required to weight words)",
    )
    p.add_argument(
        "--na-values",
        nargs="*",
        metavar="TOKEN",
        help=(
            "the spellings of a missing rating, compared without regard to case (default: "
            f"{' '.join(NA_VALUES)}); a blank cell is always missing, and a spelling that "
            "--labels lists is a category"
        ),
    )
    p.add_argument("--weighting", choices=["linear", "quadratic"], help="weighted kappa / AC2")
    p.add_argument(
        "--level-of-measurement",
        choices=["nominal", "ordinal", "interval", "ratio"],
        help=(
            "interval or ratio: numbers measured on a scale, reported with the intraclass "
            "and concordance correlations, Bland-Altman's limits of agreement (two columns) "
            "and Krippendorff's alpha; nominal or ordinal: categories (Krippendorff's alpha "
            "at that level in a ratings table; default nominal). Required for numbers with "
            f"decimals or more than {MAX_CATEGORIES} distinct values"
        ),
    )
    p.add_argument(
        "--clusters",
        metavar="COLUMN",
        help="two raters: the column of each case's cluster (a patient of several lesions): "
        "kappa with a cluster-robust standard error and interval",
    )
    p.add_argument(
        "--groups",
        metavar="COLUMN",
        help="two raters: the column of each case's subgroup (a site): kappa per subgroup "
        "and Fleiss' test that they are equal",
    )
    p.add_argument(
        "--pairs",
        nargs=2,
        metavar="A,B",
        help="three or more rater columns: two pairs of them, A,B C,D, whose kappas are "
        "compared on the same units (the second minus the first)",
    )
    p.add_argument(
        "--layout",
        choices=["units x raters", "raters x units"],
        default="units x raters",
        help=(
            "'units x raters' (default): one row per unit, --columns the raters; "
            "'raters x units': one row per rater, --columns the units"
        ),
    )
    p.add_argument(
        "--sep",
        metavar="CHAR",
        help=(
            "the character between columns (default: the one of , ; tab | that splits the "
            "header and the first rows alike; 'tab' or \\t for a tab)"
        ),
    )
    p.add_argument(
        "--decimal",
        metavar="MARK",
        help=(
            "the decimal mark, . or , (default: a comma when every number of the columns "
            "is written with one, 2,5)"
        ),
    )
    p.add_argument("--ratings", action="store_true", help="a ratings table even with two columns")
    p.add_argument("--count", metavar="NAME", help="the count column of a long count table")
    p.add_argument("--confidence-level", type=float, default=0.95, metavar="LEVEL")
    p.add_argument(
        "--method",
        choices=["analytic", "percentile", "bca"],
        default="analytic",
        help="two raters' interval: the analytic normal one (default) or a bootstrap over units",
    )
    p.add_argument("--n-resamples", type=int, default=9999, metavar="B", help="bootstrap resamples")
    p.add_argument(
        "--rng",
        type=int,
        default=0,
        metavar="SEED",
        help="the bootstraps' seed (default 0: the same file gives the same report)",
    )
    p.add_argument("--table-location", metavar="WHERE", help='where the table is, e.g. "Table 2"')
    p.add_argument("--html", metavar="OUT", help="write an HTML page here instead of Markdown")
    return top


SEPARATORS = (",", ";", "\t", "|")
SNIFFED_LINES = 50  # the header and this many rows decide the separator


def _separator(text: str, path: str, sep: str | None) -> str:
    """--sep, or the one separator of SEPARATORS that splits the header into two columns or
    more and every sniffed row into as many; refused when none or several do."""
    if sep is not None:
        sep = "\t" if sep in ("tab", "\\t") else sep
        if len(sep) != 1:
            raise BadInputError(f"--sep must be one character (or tab), got {sep!r}")
        return sep
    sample = "\n".join(text.splitlines()[: SNIFFED_LINES + 1])
    splits, fits = [], []
    for candidate in SEPARATORS:
        rows = [r for r in csv.reader(io.StringIO(sample), delimiter=candidate) if r]
        if rows and len(rows[0]) >= 2:
            splits.append(candidate)
            if all(len(r) == len(rows[0]) for r in rows[1:]):
                fits.append(candidate)
    if len(splits) == 1:
        return splits[0]
    if len(fits) == 1:
        return fits[0]
    if not splits:
        return ","  # one column: the column check says what the header holds
    named = " and ".join("tab" if s == "\t" else repr(s) for s in (fits or splits))
    raise BadInputError(
        f"cannot tell how the columns of {path} are separated: {named} both split its "
        "header and first rows alike; give the separator with --sep"
    )


def _read(path: str, sep: str | None = None) -> tuple[list[str], list[dict[str, str]], list[int]]:
    """The header, the rows and each row's 1-based line in the file.  A row whose every cell
    is blank (``,,,`` at the end of a spreadsheet's export) is not a unit: it is skipped."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            text = f.read()
    except FileNotFoundError:
        raise BadInputError(f"cannot read {path}: there is no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise BadInputError(f"cannot read {path} as a UTF-8 CSV file: {e}") from None
    delimiter = _separator(text, path, sep)
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter)
        rows, lines, n_blank = [], [], 0
        for row in reader:
            if any((v or "").strip() for v in row.values() if isinstance(v, str)):
                rows.append(row)
                lines.append(reader.line_num)
            else:
                n_blank += 1
        header = list(reader.fieldnames or [])
    except csv.Error as e:
        raise BadInputError(f"cannot read {path} as a CSV file: {e}") from None
    if not header:
        raise BadInputError(f"{path} is empty: it needs a header row naming the columns")
    if not rows:
        blank = f" (its {n_blank} rows are all blank)" if n_blank else ""
        raise BadInputError(f"{path} has a header but no rows of data{blank}")
    return header, rows, lines


COMMA_NUMBER = re.compile(r"[+-]?(\d+,\d*|,\d+)")  # 2,5  -0,25  ,5


def _number(text: str, decimal: str = ".") -> int | float | None:
    if decimal == ",":
        if "." in text:
            return None
        text = text.replace(",", ".")
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _decimal(raw: list[list[str]], args: argparse.Namespace, lines: list[int]) -> str:
    """--decimal, or ',' when every non-blank cell is a number and one at least is written
    with a decimal comma (2,5); decimals written both ways are refused."""
    if args.decimal is not None:
        if args.decimal not in (".", ","):
            raise BadInputError(f"--decimal must be . or , got {args.decimal!r}")
        return str(args.decimal)
    present = [c for col in raw for c in col if c]
    commas = [c for c in present if COMMA_NUMBER.fullmatch(c)]
    if not commas:
        return "."
    points = [c for c in present if "." in c and _number(c) is not None]
    if not all(_number(c, ",") is not None or c in points for c in present):
        return "."  # words among them: the cells are words
    if points:
        raise BadInputError(
            f"the columns write decimals both ways, {commas[0]!r} "
            f"({_where(raw, commas[0], args, lines)}) and {points[0]!r} "
            f"({_where(raw, points[0], args, lines)}): give the decimal mark with --decimal"
        )
    return ","


def _typed(cells: list[list[str]], decimal: str = ".") -> tuple[list[list[Any]], bool]:
    """The cells as numbers when every non-blank one is a number, else as words; blanks None."""
    present = [c for col in cells for c in col if c != ""]
    numbers = [_number(c, decimal) for c in present]
    numeric = bool(present) and all(n is not None for n in numbers)
    if numeric:
        return [[_number(c, decimal) if c != "" else None for c in col] for col in cells], True
    return [[c if c != "" else None for c in col] for col in cells], False


def _order(order: list[str] | None, numeric: bool, decimal: str = ".") -> list[Any] | None:
    if order is None:
        return None
    if not numeric:
        return order
    out = []
    for v in order:
        n = _number(v, decimal)
        if n is None:
            raise BadInputError(f"--labels lists {v!r}, but the ratings are numbers; list numbers")
        out.append(n)
    return out


def _check_within(
    columns: list[list[Any]], names: list[str], order: list[Any] | None, lines: list[int]
) -> None:
    """Every value outside --labels, named at once (up to a few) with its 1-based lines."""
    if order is None:
        return
    allowed = set(order)
    found: dict[Any, list[tuple[str, int]]] = {}
    for i, line in enumerate(lines):  # in the file's order
        for name, col in zip(names, columns, strict=True):
            v = col[i]
            if v is not None and v not in allowed:
                found.setdefault(v, []).append((name, line))
    if not found:
        return
    shown = []
    for v, where in list(found.items())[:SHOWN]:
        places: dict[str, list[int]] = {}
        for name, line in where:
            places.setdefault(name, []).append(line)
        text = "; ".join(f"column {name!r}, {_lines(at)}" for name, at in places.items())
        shown.append(f"{v!r} ({text})")
    more = len(found) - len(shown)
    tail = f" and {more} more" if more else ""
    one = len(found) == 1
    raise BadInputError(
        f"{', '.join(shown)}{tail} {'is' if one else 'are'} not in --labels "
        f"{' '.join(map(str, order))}; correct {'it' if one else 'them'}, or add "
        f"{'it' if one else 'them'} to --labels"
    )


def _lines(at: list[int]) -> str:
    """'line 4', 'lines 4, 9 and 12', 'lines 4, 9, 12, ... (7 in all)'."""
    if len(at) == 1:
        return f"line {at[0]}"
    if len(at) <= 3:
        return f"lines {', '.join(map(str, at[:-1]))} and {at[-1]}"
    return f"lines {', '.join(map(str, at[:3]))}, ... ({len(at)} in all)"


def _missing(
    raw: list[list[str]], args: argparse.Namespace, lines: list[int]
) -> tuple[list[list[str]], dict[str, int]]:
    """The cells with every missing-value token made blank, and how often each non-blank
    spelling was read so (kappalib._input.missing: --na-values, --labels)."""
    tokens = check_na_values(args.na_values, "--na-values")
    spellings = {c for col in raw for c in col}
    missing, undecided = classify(sorted(spellings), tokens, args.labels)
    if undecided:
        word = undecided[0]
        raise BadInputError(
            f"{_where(raw, word, args, lines)} has {word!r}, which reads as a "
            "missing rating, but --na-values does not list it: add it to --na-values, or "
            "list it in --labels if it is a category"
        )
    gone = set(missing)
    counts = {s: sum(col.count(s) for col in raw) for s in missing if s}
    return [["" if c in gone else c for c in col] for col in raw], counts


def _where(raw: list[list[str]], word: str, args: argparse.Namespace, lines: list[int]) -> str:
    """Where a spelling first appears in the file: "column 'b', line 4"."""
    i, j = next((i, j) for i in range(len(lines)) for j, col in enumerate(raw) if col[i] == word)
    return f"column {args.columns[j]!r}, line {lines[i]}"


def _spellings(
    raw: list[list[str]], args: argparse.Namespace, lines: list[int], decimal: str = "."
) -> tuple[list[list[str]], dict[str, str]]:
    """Words that differ only by case ('Moderate', 'moderate'): refused with both named, or,
    with --labels, each read as the one category it spells (kappalib._input.labels)."""
    present = sorted({c for col in raw for c in col if c})
    if all(_number(c, decimal) is not None for c in present):
        return raw, {}
    read_as, clashes = case_variants(present, args.labels)
    if clashes:
        group = clashes[0]
        spelled = " and ".join(f"{w!r} ({_where(raw, w, args, lines)})" for w in group[:4])
        raise BadInputError(
            f"{spelled} differ only by case: correct the spelling, or give the categories "
            "with --labels (a case variant of one listed category is then read as it; list "
            "both spellings if they are two categories)"
        )
    if not read_as:
        return raw, {}
    return [[read_as.get(c, c) for c in col] for col in raw], read_as


def _boot(args: argparse.Namespace) -> dict[str, Any]:
    return {"method": args.method, "n_resamples": args.n_resamples, "rng": args.rng}


def _report(args: argparse.Namespace) -> Any:
    return _report_and_sections(args)[0]


def _report_and_sections(args: argparse.Namespace) -> tuple[Any, list[Section]]:
    """The report, with the caveats of how the file was read, and the sections of
    --clusters, --groups and --pairs."""
    report, read = _build(args)
    said = [
        missing_caveat(read["missing"]),
        variants_caveat(read["as"], read["variants"]),
        decimal_caveat(read["decimal"], _number(read["decimal"] or "", ",")),
    ]
    sentences = tuple(s for s in said if s)
    if sentences:
        report = dataclasses.replace(report, caveats=(*report.caveats, *sentences))
    return report, read.get("sections", [])


def _build(args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
    header, rows, lines = _read(args.csv, args.sep)
    wanted = list(args.columns) + ([args.count] if args.count else [])
    if len(set(wanted)) != len(wanted):
        raise BadInputError(f"--columns names a column twice: {' '.join(wanted)}")
    missing = [c for c in wanted if c not in header]
    if missing:
        hint = (
            " (one column: if another character separates the columns, give it with --sep)"
            if len(header) == 1
            else ""
        )
        raise BadInputError(
            f"{args.csv} has no column {missing[0]!r}; its columns are {', '.join(header)}" + hint
        )
    written = [[(row.get(c) or "").strip() for row in rows] for c in args.columns]
    raw, read_as_missing = _missing(written, args, lines)
    decimal = _decimal(raw, args, lines)
    spelled, read_as = _spellings(raw, args, lines, decimal)
    read = {
        "missing": read_as_missing,
        "as": read_as,
        "variants": {s: sum(col.count(s) for col in raw) for s in read_as},
        "decimal": next((c for col in raw for c in col if "," in c), None)
        if decimal == ","
        else None,
    }
    raw = spelled
    cells, numeric = _typed(raw, decimal)
    if not any(v is not None for col in cells for v in col):
        raise BadInputError(f"the columns {', '.join(args.columns)} of {args.csv} are all blank")
    order = _order(args.labels, numeric, decimal)
    for option in ("clusters", "groups"):
        name = getattr(args, option)
        if name is not None and name not in header:
            raise BadInputError(
                f"--{option} names {name!r}, but {args.csv} has no such column; its columns "
                f"are {', '.join(header)}"
            )
    if args.level_of_measurement in ("interval", "ratio"):
        on_scale = measurements(
            args, raw, cells, numeric, order, lines, lambda c: _number(c, decimal) is not None
        )
        return on_scale, read
    if args.level_of_measurement is None and not args.count and order is None:
        refuse_unstated_measurements(args, cells, numeric)
    read["sections"] = comparison_sections(args, rows, cells, order, lines)
    if args.weighting and not numeric and order is None:
        words = sorted({v for col in cells for v in col if v is not None})
        raise BadInputError(
            f"--weighting {args.weighting} measures distances between categories, and these "
            f"are words ({', '.join(words[:6])}); give their order with --labels"
        )
    if args.layout == "raters x units" and not args.ratings and len(args.columns) >= 2:
        args.ratings = True  # rows are raters: always a ratings table
    if args.count:
        if len(args.columns) != 2 or args.ratings:
            raise BadInputError(
                "--count reads a long count table: give exactly two label columns with "
                f"--columns, got {len(args.columns)}"
            )
        for name, col, as_written in zip(args.columns, cells, written, strict=True):
            blank = next((i for i, v in enumerate(col) if v is None), None)
            if blank is not None:
                cell = as_written[blank]
                what = f"has {cell!r}, a missing label," if cell else "is blank"
                raise BadInputError(
                    f"column {name!r} {what} in line {lines[blank]}: every row of a count "
                    "table needs both labels"
                )
        _check_within(cells, args.columns, order, lines)
        counts = []
        for i, row in enumerate(rows):
            text = (row.get(args.count) or "").strip()
            n = _number(text)
            if n is None or n < 0:
                raise BadInputError(
                    f"column {args.count!r} must hold non-negative counts, got {text!r} in "
                    f"line {lines[i]}"
                )
            counts.append(n)
        frame = {args.columns[0]: cells[0], args.columns[1]: cells[1], args.count: counts}
        C = matrix_from_counts(frame, columns=tuple(args.columns), count=args.count, labels=order)
        report: Any = agreement_report(
            C=C,
            weighting=args.weighting,
            confidence_level=args.confidence_level,
            raters=(args.columns[0], args.columns[1]),
            **_boot(args),
        )
        return report, read
    if len(args.columns) < 2:
        raise BadInputError(f"--columns needs at least two rater columns, got {args.columns[0]!r}")
    _check_within(cells, args.columns, order, lines)
    if len(args.columns) == 2 and not args.ratings:
        report = agreement_report(
            cells[0],
            cells[1],
            labels=order,
            weighting=args.weighting,
            confidence_level=args.confidence_level,
            raters=(args.columns[0], args.columns[1]),
            missing="drop",
            **_boot(args),
        )
        return report, read
    layout: Layout
    if args.layout == "units x raters":
        data = [[cells[j][i] for j in range(len(cells))] for i in range(len(rows))]
        layout = "units x raters"
    else:
        data = [list(col) for col in zip(*cells, strict=True)]  # one row per rater
        layout = "raters x units"
    if numeric:
        data = [[math.nan if v is None else v for v in row] for row in data]
    if order is None:  # an id column among --columns: said in the command line's words
        by_rater = (
            data if layout == "raters x units" else [list(c) for c in zip(*data, strict=True)]
        )
        arr, hole, _ = as_ratings(by_rater, "--columns")
        names = (
            [f"column {c!r}" for c in args.columns]
            if layout == "units x raters"
            else [f"the row of line {line}" for line in lines]
        )
        check_not_ids(
            arr,
            hole,
            "--columns:",
            names,
            "leave it out of --columns, or give the rating scale with --labels if these "
            "really are ratings",
        )
    report = ratings_report(
        data,
        layout=layout,
        level_of_measurement=args.level_of_measurement or "nominal",
        labels=order,
        weighting=args.weighting,
        confidence_level=args.confidence_level,
        n_resamples=args.n_resamples,
        rng=args.rng,
    )
    return report, read


def _page(report: Any, paragraph: str, source: str, sections: list[Section]) -> str:
    e = html.escape
    extra = "".join(f"<h2>{e(s.title)}</h2>{render_html(s.blocks, (), ())}" for s in sections)
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>Agreement report: {e(source)}</title>"
        "<style>body{font-family:sans-serif;max-width:50em;margin:2em auto}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #999;"
        "padding:.2em .6em;text-align:left}</style></head><body>"
        f"<h1>Agreement report: {e(source)}</h1>{report._repr_html_()}{extra}"
        f"<h2>Methods paragraph</h2><p>{e(paragraph)}</p></body></html>\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, or 2 on bad input)."""
    args = _parser().parse_args(argv)
    if args.command != "report":
        _parser().print_help(sys.stderr)
        return EXIT_BAD_INPUT
    try:
        report, sections = _report_and_sections(args)
        paragraph = report.methods_paragraph(table_location=args.table_location)
        paragraph = " ".join([paragraph, *(x for s in sections for x in s.sentences)])
    except BadInputError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (ValueError, TypeError) as e:  # kappalib's own one-sentence messages
        print(f"error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.html:
        try:
            with open(args.html, "w", encoding="utf-8") as f:
                f.write(_page(report, paragraph, args.csv, sections))
        except OSError as e:
            print(f"error: cannot write {args.html}: {e.strerror}", file=sys.stderr)
            return EXIT_BAD_INPUT
        print(f"wrote {args.html}")
        return 0
    print(f"# Agreement report: {args.csv}\n")
    print(report.to_markdown())
    for s in sections:
        print(f"\n## {s.title}\n")
        print(render_markdown(s.blocks, (), ()))
    print("\n## Methods paragraph\n")
    print(paragraph)
    return 0
