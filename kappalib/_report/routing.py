"""Which report the command line's data get, by level of measurement, and the sections of
its comparisons (issue 30, item 4; issue 34).

* ``--level-of-measurement interval`` or ``ratio``: the report on measurements
  (``_report/measurements``: ICC, CCC, Bland-Altman, alpha), for two columns or more;
  a cell that is not a number is refused, naming it.
* no level given, numbers with a decimal part or more than ``MAX_CATEGORIES`` distinct
  values, and no ``--labels``: refused in one sentence asking for the level.  Such columns
  are measurements far more often than categories (the rating scales of clinical practice
  have at most 11 points, 0-10; 20 leaves room for a 1-20 scale; a decimal is a measurement
  or a score), and read as categories they give a kappa over every distinct value ("136
  categories"), which is near 0 whatever the agreement.  A user who means categories says
  so with ``--level-of-measurement nominal`` or ``ordinal``, or lists them with ``--labels``.
* ``--clusters``, ``--groups`` (two raters) and ``--pairs`` (three raters or more): the
  sections of ``_report/comparisons``.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import Any

from .comparisons import (
    ComparisonError,
    Section,
    clusters_section,
    groups_section,
    pair_names,
    pairs_section,
)
from .measurements import measurements_report

MAX_CATEGORIES = 20
"""More distinct numbers than this, with no level given, are refused as categories."""


def _level_option(level: str) -> str:
    return f"--level-of-measurement {level}"


def measurements(
    args: argparse.Namespace,
    raw: list[list[str]],
    cells: list[list[Any]],
    numeric: bool,
    order: list[Any] | None,
    lines: list[int],
    is_number: Callable[[str], bool],
) -> Any:
    """The report on measurements of --columns, or one sentence on what stops it."""
    level = _level_option(args.level_of_measurement)
    if args.count:
        raise ComparisonError(
            f"--count reads a table of categories and their counts; {level} needs the "
            "measurements themselves, one row per unit and one column per rater"
        )
    if not numeric:
        j, i, cell = next(
            (j, i, c)
            for j, col in enumerate(raw)
            for i, c in enumerate(col)
            if c and not is_number(c)
        )
        raise ComparisonError(
            f"column {args.columns[j]!r} has {cell!r} in line {lines[i]}, which is not a "
            f"number: {level} needs numbers (correct it, leave it blank if it is missing, "
            "or give --level-of-measurement nominal or ordinal if the ratings are categories)"
        )
    for option in ("weighting", "clusters", "groups", "pairs"):
        if getattr(args, option):
            raise ComparisonError(
                f"--{option} is an option of kappa, for categories; with {level} the "
                "report is on measurements (the distances are the numbers' own): leave "
                f"--{option} out, or give --level-of-measurement nominal or ordinal"
            )
    if order is not None:
        allowed = set(order)
        for j, col in enumerate(cells):
            for i, v in enumerate(col):
                if v is not None and v not in allowed:
                    raise ComparisonError(
                        f"{v!r} (column {args.columns[j]!r}, line {lines[i]}) is not in "
                        f"--labels {' '.join(map(str, order))}; correct it, or add it to --labels"
                    )
    if len(args.columns) < 2:
        raise ComparisonError(
            f"--columns needs at least two rater columns, got {args.columns[0]!r}"
        )
    rows = [[math.nan if v is None else v for v in row] for row in zip(*cells, strict=True)]
    by_rows = args.layout == "raters x units"  # then each line of the file is a rater
    return measurements_report(
        rows,
        layout="raters x units" if by_rows else "units x raters",
        level_of_measurement=args.level_of_measurement,
        confidence_level=args.confidence_level,
        raters=[f"line {line}" for line in lines] if by_rows else list(args.columns),
    )


def refuse_unstated_measurements(
    args: argparse.Namespace, cells: list[list[Any]], numeric: bool
) -> None:
    """No level given: numbers with decimals, or more than MAX_CATEGORIES distinct ones,
    are refused in one sentence asking for the level (see the module's docstring)."""
    if not numeric:
        return
    values = {v for col in cells for v in col if v is not None}
    decimals = sorted(v for v in values if not float(v).is_integer())
    if len(values) <= MAX_CATEGORIES and not decimals:
        return
    why = (
        f"with decimals ({', '.join(f'{v:g}' for v in decimals[:3])}, ...)"
        if decimals
        else f"more than {MAX_CATEGORIES}"
    )
    raise ComparisonError(
        f"the columns {', '.join(args.columns)} hold {len(values)} distinct numbers, {why}: "
        "measurements rather than categories, so say which with --level-of-measurement: "
        "interval or ratio for the intraclass and concordance correlations, Bland-Altman's "
        f"limits and Krippendorff's alpha, or nominal or ordinal if they really are "
        f"{len(values)} categories"
    )


def comparison_sections(
    args: argparse.Namespace,
    rows: list[dict[str, str]],
    cells: list[list[Any]],
    order: list[Any] | None,
    lines: list[int],
) -> list[Section]:
    """The sections of --clusters, --groups and --pairs (none when none is given)."""
    wanted = [o for o in ("clusters", "groups") if getattr(args, o)]
    two = len(args.columns) == 2 and not args.ratings and not args.count
    if wanted and not two:
        raise ComparisonError(
            f"--{wanted[0]} compares two raters' kappa across the cases: give exactly two "
            f"rater columns with --columns (and no --count or --ratings), got "
            f"{len(args.columns)}"
        )
    if args.pairs and (len(args.columns) < 3 or args.count):
        raise ComparisonError(
            "--pairs compares the kappas of two pairs of raters on the same units: give "
            f"three or more rater columns with --columns, got {len(args.columns)}"
        )
    common = {
        "labels": order,
        "weighting": args.weighting,
        "confidence_level": args.confidence_level,
    }
    boot = {"method": args.method, "n_resamples": args.n_resamples, "rng": args.rng}
    out = []
    for option in wanted:
        column = getattr(args, option)
        if column in args.columns:
            raise ComparisonError(
                f"--{option} names {column!r}, which is one of the rater --columns"
            )
        ids = [(row.get(column) or "").strip() for row in rows]
        if option == "clusters":
            out.append(clusters_section(cells[0], cells[1], ids, column, lines, common | boot))
        else:
            out.append(groups_section(cells[0], cells[1], ids, column, lines, common))
    if args.pairs:
        pairs = pair_names(args.pairs, list(args.columns))
        by_name = dict(zip(args.columns, cells, strict=True))
        out.append(pairs_section(pairs, by_name, common | boot))
    return out
