"""The landing page's picture: kappa against the MCC on a family where kappa prefers the worse
classifier (Delgado & Tibau 2019, Corollary 4; chapter 7's Figure 2).

The family is C = [[a, b], [1, a]] with a = 0.2: every step to the right adds false
negatives, so each classifier is worse than the one before. The MCC falls all the way; kappa
falls only until b = 1.26 and then climbs back towards 0. Run from the repository root:

    .venv/bin/python book/figures/landing_kappa_mcc.py

It writes ``landing-kappa-mcc.png`` beside itself, and checks the numbers that book/intro.md
quotes against the paper's closed forms in exact arithmetic (tests/test_landing_figure.py runs
it). Prints the numbers it checked.
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import kappalib as kl
from kappalib import families

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import figure_text  # noqa: E402  (book/: the PNG records its smallest text, for phones)

A = 0.2
WORST_KAPPA_B = 1.26  # where kappa is lowest (the grid's minimum, rounded as the text quotes it)
FAR_B = 30


def exact_kappa(a: Fraction, b: Fraction, c: Fraction, d: Fraction) -> Fraction:
    """Binary kappa, 2(ad - bc) / ((a + b)(b + d) + (a + c)(c + d))."""
    return 2 * (a * d - b * c) / ((a + b) * (b + d) + (a + c) * (c + d))


def exact_mcc_squared(a: Fraction, b: Fraction, c: Fraction, d: Fraction) -> Fraction:
    """The square of the MCC, (ad - bc)^2 / ((a + b)(c + d)(a + c)(b + d))."""
    return (a * d - b * c) ** 2 / ((a + b) * (c + d) * (a + c) * (b + d))


def numbers() -> dict[str, float]:
    """The values the landing page quotes, each checked against the closed forms."""
    b = np.linspace(0, FAR_B, 30_001)
    b_min = float(b[np.nanargmin(kl.kappa(families.C1(A, b, A)))])
    out = {}
    for name, at in (("worst", WORST_KAPPA_B), ("far", FAR_B)):
        C = families.C1(A, at, A)
        k, m = kl.kappa(C), kl.mcc(C)
        cells = [Fraction(str(x)) for x in C.ravel()]
        assert abs(k - float(exact_kappa(*cells))) < 1e-12
        assert m < 0 and abs(m**2 - float(exact_mcc_squared(*cells))) < 1e-12  # ad < bc
        out[f"kappa_{name}"], out[f"mcc_{name}"] = k, m
    assert round(b_min, 2) == WORST_KAPPA_B
    # The point of the picture: the MCC ranks b = 30 below b = 1.26, kappa far above it.
    assert out["mcc_far"] < out["mcc_worst"] and out["kappa_far"] > out["kappa_worst"]
    return out


def draw(values: dict, path: Path) -> None:
    b = np.geomspace(0.01, FAR_B, 800)
    kappa, mcc = kl.kappa(families.C1(A, b, A)), kl.mcc(families.C1(A, b, A))
    plt.rcParams.update({"font.size": 11})
    # 4.6 in at 150 dpi (690 px) with 11 pt text: drawn across a 390 px phone's column, the
    # smallest text stays above 11 CSS px (make check-site measures it).
    fig, ax = plt.subplots(figsize=(4.6, 3.8), layout="constrained")
    figure_text.record(fig)
    fig.patch.set_facecolor("white")
    ax.plot(b, mcc, color="black", lw=2.4, label="MCC")
    ax.plot(b, kappa, color="#d95f02", lw=2.4, ls="--", label="Cohen's kappa")
    for at, key, text in ((WORST_KAPPA_B, "worst", "A"), (FAR_B, "far", "B")):
        for stat, marker in (("kappa", "o"), ("mcc", "s")):
            ax.plot(at, values[f"{stat}_{key}"], marker=marker, ms=8, color="black", mfc="white")
        middle = (values[f"kappa_{key}"] + values[f"mcc_{key}"]) / 2
        if key == "far":  # between its two points
            ax.annotate(
                f"{text}\nb = {at:g}",
                (at, middle),
                xytext=(-10, 0),
                textcoords="offset points",
                ha="right",
                va="center",
                fontweight="bold",
            )
        else:  # below left, with an arrow
            ax.annotate(
                f"{text}: b = {at:g}",
                (at, middle),
                xytext=(0.09, -0.86),
                ha="center",
                va="center",
                fontweight="bold",
                arrowprops={"arrowstyle": "->", "lw": 1.2},
            )
    ax.axhline(0, color="0.6", lw=0.8)
    ax.set_xscale("log")
    ax.set(
        xlim=(0.01, FAR_B * 1.15),
        ylim=(-0.95, 0.3),
        xlabel="false negatives b in [[0.2, b], [1, 0.2]]\n(log scale)",
        ylabel="value of the statistic",
        title="Classifier B is worse than A.\nThe MCC says so; kappa says the opposite.",
    )
    ax.set_xticks([0.01, 0.1, 1, 10, 30], ["0.01", "0.1", "1", "10", "30"])
    ax.legend(loc="upper right", frameon=False)
    fig.savefig(path, dpi=150, facecolor="white")
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "landing-kappa-mcc.png")
    args = parser.parse_args(argv)
    values = numbers()
    draw(values, args.out)
    print(
        f"A (b = {WORST_KAPPA_B}): kappa {values['kappa_worst']:.2f}, "
        f"MCC {values['mcc_worst']:.2f};  B (b = {FAR_B}): kappa {values['kappa_far']:.2f}, "
        f"MCC {values['mcc_far']:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
