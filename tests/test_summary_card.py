"""The summary card (book/summary_card.md): what it says kappalib does, kappalib does.

Every ``kl.name(...)`` it cites is a public function, every chapter it points to ([n]) exists,
and each example of its table of undefined cases is undefined in kappalib (None), with the
statistics the table names, while the statistics it says stay defined there are numbers.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import kappalib as kl

ROOT = Path(__file__).resolve().parent.parent
CARD = (ROOT / "book/summary_card.md").read_text(encoding="utf-8")


# What each row of the undefined table names, as kappalib calls.
CALLS = {
    "kappa": [kl.kappa, kl.kappa_max, kl.scotts_pi],
    "weighted kappa": [
        lambda C: kl.kappa(C, weighting="linear"),
        lambda C: kl.kappa(C, weighting="quadratic"),
    ],
    "MCC": [kl.mcc],
}


def test_every_function_the_card_cites_is_public():
    names = set(re.findall(r"`kl\.(\w+)\(", CARD))
    assert len(names) >= 10
    assert names <= set(kl.__all__), names - set(kl.__all__)


def test_every_chapter_the_card_points_to_exists():
    prose = re.sub(r"`[^`]*`", "", CARD)
    refs = {int(n) for g in re.findall(r"\[(\d+(?:, \d+)*)\]", prose) for n in g.split(", ")}
    chapters = {int(p.name[:2]) for p in (ROOT / "book").glob("[0-9][0-9]_*.ipynb")}
    assert refs and refs <= chapters, refs - chapters


def test_the_undefined_examples_are_undefined():
    rows = re.findall(r"^\| (.+?) \| .+? \| `(\[\[.+?\]\])` \|$", CARD, re.M)
    assert len(rows) == 4, rows
    for name, example in rows:
        C = eval(example)  # a literal list of lists, from the card
        if name.startswith("precision"):
            assert math.isnan(kl.class_validity(C).ppv[0])  # an array: NaN where undefined
            continue
        key = next(k for k in CALLS if name.startswith(k))
        for call in CALLS[key]:
            assert call(C) is None, (name, example)
    # A kappa of exactly 0 is not undefined: the "always the majority class" rater.
    C = [[0, 50], [0, 50]]
    assert kl.kappa(C) == 0.0 and kl.mcc(C) is None
