"""The command line's comparisons of kappas, each a section of its own after the report and
sentences added to its methods paragraph:

* ``--clusters COLUMN``: Cohen's kappa of two raters with a cluster-robust standard error
  and interval (:func:`kappalib.clustered_kappa`) and the design effect;
* ``--groups COLUMN``: Cohen's kappa in each subgroup with Fleiss' homogeneity test
  (:func:`kappalib.subgroup_kappas`), the common kappa only when the test does not reject;
* ``--pairs A,B C,D``: two kappas of the same units and their difference
  (:func:`kappalib.kappa_difference`).

Each uses the rows where every rating it needs is present (as the two-rater report drops a
row with a missing rating).  Their words are the "comparisons" section of
``_shared/report_words.json``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .._input.missing import NA_VALUES
from .._shared.words import (
    DIGITS,
    Block,
    Table,
    Text,
    join_words,
    label_text,
    number_text,
    p_text,
    say,
    template,
)
from .._uncertainty.clustered_kappa import clustered_kappa
from .._uncertainty.dependent_kappas import kappa_difference
from .._uncertainty.subgroup_kappas import subgroup_kappas


class ComparisonError(ValueError):
    """One sentence about an option of the comparisons (the command line prints it)."""


class Section(NamedTuple):
    """A section of the report: its title, its blocks, and its sentences for the methods
    paragraph."""

    title: str
    blocks: list[Block]
    sentences: list[str]


def _ids(column: str, option: str, values: list[str], lines: list[int]) -> list[str]:
    """The id of each row (cluster, subgroup): a blank or missing-value cell is refused."""
    tokens = {t.lower() for t in NA_VALUES}
    for i, v in enumerate(values):
        if not v or v.lower() in tokens:
            what = f"has {v!r}" if v else "is blank"
            raise ComparisonError(
                f"column {column!r} of {option} {what} in line {lines[i]}: every row needs "
                f"its {option[2:].rstrip('s')} id"
            )
    return values


def _level(conf: float) -> str:
    return f"{conf:.0%}"


def _ends(ci: Any) -> tuple[str, str]:
    return number_text(ci.low), number_text(ci.high)


def clusters_section(
    y1: list[Any], y2: list[Any], ids: list[str], column: str, lines: list[int], options: Any
) -> Section:
    """``--clusters``: the rows where both ratings are present, clustered by ``ids``."""
    _ids(column, "--clusters", ids, lines)
    keep = [i for i in range(len(y1)) if y1[i] is not None and y2[i] is not None]
    res = clustered_kappa(
        [y1[i] for i in keep],
        [y2[i] for i in keep],
        [ids[i] for i in keep],
        **options,
    )
    lo, hi = _ends(res.confidence_interval)
    deff = res.design_effect
    factor = number_text(deff**0.5, 2) if deff is not None and deff >= 0 else "-"
    text = say(
        "comparisons.clusters",
        column=repr(column),
        n_units=res.n_units,
        n_clusters=res.n_clusters,
        estimate=number_text(res.estimate),
        standard_error=number_text(res.standard_error, DIGITS["standard_error"]),
        level=_level(res.confidence_level),
        low=lo,
        high=hi,
        interval_method=res.interval_method,
        design_effect=number_text(deff, 2),
        factor=factor,
    )
    return Section(say("comparisons.clusters_title"), [Text(text)], [text])


def groups_section(
    y1: list[Any], y2: list[Any], ids: list[str], column: str, lines: list[int], options: Any
) -> Section:
    """``--groups``: kappa per subgroup, the homogeneity test, the common kappa if it holds."""
    _ids(column, "--groups", ids, lines)
    keep = [i for i in range(len(y1)) if y1[i] is not None and y2[i] is not None]
    groups = [ids[i] for i in keep]
    res = subgroup_kappas([y1[i] for i in keep], [y2[i] for i in keep], groups, **options)
    level = _level(res.confidence_level)
    header = [
        h.replace("{column}", column).replace("{level}", level)
        for h in template("comparisons.groups_header")
    ]
    rows = []
    for g, e in zip(res.groups, res.coefficients, strict=True):
        lo, hi = _ends(e.confidence_interval)
        rows.append(
            [
                label_text(g),
                str(groups.count(g)),
                number_text(e.estimate),
                number_text(e.standard_error, DIGITS["standard_error"]),
                f"{lo} to {hi}",
            ]
        )
    values = [e.estimate for e in res.coefficients if e.estimate is not None]
    sentences = [
        say(
            "comparisons.groups",
            column=repr(column),
            lowest=number_text(min(values)) if values else "-",
            highest=number_text(max(values)) if values else "-",
            n_groups=len(res.groups),
            test=res.test,
            statistic=number_text(res.statistic, DIGITS["z"]),
            df=res.df,
            p=p_text(res.pvalue),
        )
    ]
    if res.pvalue is not None and res.pvalue >= 1 - res.confidence_level:
        lo, hi = _ends(res.confidence_interval)
        sentences.append(
            say(
                "comparisons.groups_pooled",
                estimate=number_text(res.estimate),
                level=level,
                low=lo,
                high=hi,
            )
        )
    elif res.pvalue is not None:
        sentences.append(say("comparisons.groups_differ"))
    sentences += list(res.notes)
    blocks: list[Block] = [Table(header, rows, row_headers=True), *map(Text, sentences)]
    return Section(say("comparisons.groups_title"), blocks, sentences)


def pair_names(given: list[str], columns: list[str]) -> tuple[tuple[str, str], ...]:
    """``--pairs A,B C,D``: two pairs of --columns, or one sentence."""
    pairs = []
    for text in given:
        names = [n.strip() for n in text.split(",")]
        if len(names) != 2 or not all(names):
            raise ComparisonError(
                f"--pairs takes two pairs of rater columns written A,B C,D, got {text!r}"
            )
        for n in names:
            if n not in columns:
                raise ComparisonError(
                    f"--pairs names {n!r}, which is not among --columns {' '.join(columns)}"
                )
        if names[0] == names[1]:
            raise ComparisonError(f"--pairs pairs {names[0]!r} with itself in {text!r}")
        pairs.append((names[0], names[1]))
    if len(pairs) != 2 or pairs[0] == pairs[1]:
        raise ComparisonError(
            f"--pairs takes two different pairs of rater columns, A,B C,D; got {' '.join(given)}"
        )
    return tuple(pairs)


def pairs_section(
    pairs: tuple[tuple[str, str], ...], cells: dict[str, list[Any]], options: Any
) -> Section:
    """``--pairs``: kappa of the second pair minus kappa of the first, on the rows that every
    rater of the two pairs rated."""
    involved = list(dict.fromkeys(n for pair in pairs for n in pair))
    n_rows = len(cells[involved[0]])
    keep = [i for i in range(n_rows) if all(cells[n][i] is not None for n in involved)]
    rows = [[cells[n][i] for n in involved] for i in keep]
    positions = tuple(tuple(involved.index(n) for n in pair) for pair in pairs)
    res = kappa_difference(rows, positions, layout="units x raters", **options)
    (a, b), (c, d) = pairs
    lo, hi = _ends(res.confidence_interval)
    text = say(
        "comparisons.pairs",
        n_units=res.n_units,
        raters=join_words([repr(n) for n in involved]),
        first_a=repr(a),
        first_b=repr(b),
        second_a=repr(c),
        second_b=repr(d),
        first=number_text(res.coefficients[0].estimate),
        second=number_text(res.coefficients[1].estimate),
        estimate=number_text(res.estimate),
        level=_level(res.confidence_level),
        low=lo,
        high=hi,
        interval_method=res.interval_method,
        z=number_text(res.z, DIGITS["z"]),
        p=p_text(res.pvalue),
    )
    return Section(say("comparisons.pairs_title"), [Text(text)], [text])
