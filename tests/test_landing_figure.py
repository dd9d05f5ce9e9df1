"""The landing page's picture (book/figures/landing_kappa_mcc.py) and the numbers book/intro.md
quotes beside it.

The script checks its values against the paper's closed forms in exact arithmetic before it
draws; here it runs into a temporary folder, and the caption and the alt text of the figure in
intro.md must quote the numbers it printed.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.toolchain

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "book" / "figures" / "landing_kappa_mcc.py"
PNG = ROOT / "book" / "figures" / "landing-kappa-mcc.png"


def _numbers(tmp_path: Path) -> dict[str, str]:
    out = tmp_path / "figure.png"
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert out.stat().st_size > 10_000 and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    m = re.fullmatch(
        r"A \(b = ([\d.]+)\): kappa (\S+), MCC (\S+);  B \(b = (\d+)\): kappa (\S+), MCC (\S+)\n",
        proc.stdout,
    )
    assert m, proc.stdout
    keys = ("b_a", "kappa_a", "mcc_a", "b_b", "kappa_b", "mcc_b")
    return dict(zip(keys, m.groups(), strict=True))


def test_intro_quotes_the_figures_numbers(tmp_path):
    n = {k: v.replace("-", "\N{MINUS SIGN}") for k, v in _numbers(tmp_path).items()}
    intro = (ROOT / "book" / "intro.md").read_text()
    figure = intro[intro.index("```{figure} figures/landing-kappa-mcc.png") :]
    figure = figure[: figure.index("\n```\n")]
    caption = " ".join(figure.split(":alt:")[1].splitlines()[1:])
    assert f"({n['mcc_b']} against {n['mcc_a']})" in caption
    assert f"({n['kappa_b']} against {n['kappa_a']})" in caption
    alt = figure.split(":alt:")[1].splitlines()[0]
    assert f"b = {n['b_a']}, marked A" in alt and f"b = {n['b_b']}, marked B" in alt
    ascii_ = {k: v.replace("\N{MINUS SIGN}", "-") for k, v in n.items()}
    assert f"to {ascii_['mcc_b']} at b = {n['b_b']}" in alt
    assert f"climbs back to {ascii_['kappa_b']}" in alt
    assert PNG.is_file()  # the committed picture that the page shows
