"""Published values: each typed in as printed, with the tolerance its printed digits allow
(half a unit in the last place; a truncated "0.4285..." allows one unit).  The sources'
full citations are in build.py's SOURCES (sources.json)."""

from __future__ import annotations


def _tol(decimals: int, truncated: bool = False) -> dict:
    unit = 10.0**-decimals
    return {"abs": (unit if truncated else unit / 2) + 1e-12, "rel": 0.0}


def _ref(source, where, values, decimals, truncated=False):
    return {
        "source": source,
        "call": where,
        "values": values,
        "tolerance": _tol(decimals, truncated),
    }


PUBLISHED = {
    "cohen_kappa/identity/seed-001": [
        _ref(
            "seed-001", "the worked example: p_o = 0.85, p_e = 0.5, kappa = 0.7", {"value": 0.7}, 1
        )
    ],
    "cohen_kappa/identity/seed-003": [
        _ref(
            "seed-003",
            "CohenKappa.Score(rater, model) => 0.4285...",
            {"value": 0.4285},
            4,
            truncated=True,
        )
    ],
    "cohen_kappa/quadratic/seed-003": [
        _ref("seed-003", "quadratic weighting: 0.5", {"value": 0.5}, 1)
    ],
    "cohen_kappa/linear/seed-003": [
        _ref("seed-003", "linear weighting: 0.4666...", {"value": 0.4666}, 4, truncated=True)
    ],
    "cohen_kappa/identity/fce-1969": [
        _ref(
            "fce1969",
            "the worked example: kappa = .4286 (printed to 4 decimals), standard error .0537",
            {"value": 0.4286, "se": 0.0537},
            4,
        )
    ],
    "cohen_kappa/custom/fce-1969": [
        _ref(
            "fce1969",
            "the weighted example: kappa_w = .5071, standard error .0570",
            {"value": 0.5071, "se": 0.0570},
            4,
        )
    ],
    "gwet_ac1/identity/gwet-2014-abstractors": [
        _ref("gwet2014-irrcac", "AC1 = 0.84933", {"value": 0.84933}, 5)
    ],
    "gwet_ac1/quadratic/gwet-2014-abstractors": [
        _ref("gwet2014-irrcac", "AC2 (quadratic weights) = 0.94024", {"value": 0.94024}, 5)
    ],
    "fleiss_kappa/fleiss-1971": [_ref("fleiss1971", "kappa = .430", {"value": 0.430}, 3)],
    "krippendorff_alpha/nominal/krippendorff-2011": [
        _ref(
            "krippendorff2011",
            "the worked example with missing data: alpha = 0.743",
            {"value": 0.743},
            3,
        )
    ],
    "krippendorff_alpha/ordinal/krippendorff-2011": [
        _ref(
            "krippendorff-docs",
            "the package's documented example: ordinal 0.815",
            {"value": 0.815},
            3,
        )
    ],
    "krippendorff_alpha/interval/krippendorff-2011": [
        _ref(
            "krippendorff-docs",
            "the package's documented example: interval 0.849",
            {"value": 0.849},
            3,
        )
    ],
    "krippendorff_alpha/ratio/krippendorff-2011": [
        _ref(
            "krippendorff-docs",
            "the package's documented example: ratio 0.797",
            {"value": 0.797},
            3,
        )
    ],
    "icc/shrout-fleiss-1979": [
        _ref(
            "shroutfleiss1979",
            "Table 4: ICC(1,1) .17, ICC(2,1) .29, ICC(3,1) .71, "
            "ICC(1,4) .44, ICC(2,4) .62, ICC(3,4) .91",
            {
                "ICC1.value": 0.17,
                "ICC2.value": 0.29,
                "ICC3.value": 0.71,
                "ICC1k.value": 0.44,
                "ICC2k.value": 0.62,
                "ICC3k.value": 0.91,
            },
            2,
        )
    ],
}


def references(case: dict) -> list[dict]:
    import measurement  # issue 34's published values

    return [dict(r) for r in PUBLISHED.get(case["id"], [])] + measurement.published(case)
