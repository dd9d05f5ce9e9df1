"""Term variants: the same problem sets with this term's data, generated from a seed.

Each problem set's first code cell (grade id ``psN-setup``, locked) is written here: the
grading support of ``grading_setup.py`` followed by this term's data (matrices, label
vectors, targets) drawn from ``numpy.random.default_rng`` seeded with the term's seed. The
hidden tests read the data back from that cell and compute every expected value with kappalib
when they run, so there is no stored answer to leak or to copy from last term.

    python coursework/variants.py --seed 7 --out DIR   # a course directory for seed 7
    python coursework/variants.py --write               # rewrite coursework/source (SEED)

``make assignments SEED=<n>`` calls the first form. The committed source notebooks hold the
data of ``SEED`` below; a test checks that they are up to date.
"""

from __future__ import annotations

import argparse
import copy
import json
import shutil
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SEED = 2026
SETUP = (HERE / "grading_setup.py").read_text()

# (p_o, kappa) targets that a table of at most 50 counts reaches exactly.
TARGETS = [(0.7, 0.4), (0.75, 0.4), (0.75, 0.5), (0.8, 0.5), (0.8, 0.6), (0.85, 0.5), (0.8, 0.4)]


def _rng(ps: str, seed: int) -> np.random.Generator:
    return np.random.default_rng([seed, int(ps[2:])])


def data_ps1(rng):
    C = rng.integers(0, 9, size=(3, 3)) + np.diag(rng.integers(12, 30, size=3))
    po, ka = TARGETS[rng.integers(len(TARGETS))]
    return {"C": C, "target_po": po, "target_kappa": ka}


def data_ps2(rng):
    rater = rng.integers(1, 5, size=40)
    model = np.clip(rater + rng.choice([-2, -1, 0, 0, 0, 1, 2], size=40), 1, 4)
    return {"rater": rater, "model": model}


def data_ps3(rng):
    return {"K": int(rng.integers(3, 6)), "A_grid": ("np.linspace(0, 60, 6001)", None)}


def data_ps4(rng):
    # Two classifiers on one test set: same accuracy, different marginals.
    n = int(rng.integers(6, 10)) * 20
    pos = int(n * rng.uniform(0.08, 0.2))
    tp_a = int(pos * rng.uniform(0.5, 0.8))
    fp_a = int((n - pos) * rng.uniform(0.02, 0.06))
    C_a = np.array([[tp_a, pos - tp_a], [fp_a, n - pos - fp_a]])
    errors = pos - tp_a + fp_a
    fn_b = min(int(rng.integers(max(1, errors // 4), errors // 2 + 1)), pos - 1)
    C_b = np.array([[pos - fn_b, fn_b], [errors - fn_b, n - pos - (errors - fn_b)]])
    return {"C_a": C_a, "C_b": C_b, "confidence": float(rng.choice([0.9, 0.95, 0.99]))}


def data_ps5(rng):
    K = int(rng.integers(3, 5))
    D = np.diag(rng.integers(20, 40, size=K))
    E1 = rng.integers(1, 6, size=(K, K)) * (1 - np.eye(K, dtype=int))
    E2 = E1.copy()
    i, j = rng.choice(K, size=2, replace=False)
    E2[i, j] += E2.sum() // 2
    return {"M_sym": D + E1 + E1.T, "M_skew": D + E2}


DATA = {"ps1": data_ps1, "ps2": data_ps2, "ps3": data_ps3, "ps4": data_ps4, "ps5": data_ps5}


def term_data(ps: str, seed: int) -> dict:
    return DATA[ps](_rng(ps, seed))


def _literal(value) -> str:
    if isinstance(value, tuple):  # (expression, None): kept as typed
        return value[0]
    if isinstance(value, np.ndarray):
        return f"np.array({value.tolist()})"
    return repr(value)


def setup_source(ps: str, seed: int) -> str:
    data = term_data(ps, seed)
    lines = [f"{name} = {_literal(value)}" for name, value in data.items()]
    keep = ", ".join(f'"{name}": {name}' for name in data)
    return (
        SETUP.rstrip()
        + f"\n\n\n# This term's data (seed {seed}): the visible and the hidden tests use it.\n"
        + "\n".join(lines)
        + f"\n_grading = _make_grading({{{keep}}})\n"
    )


def with_seed(notebook: dict, ps: str, seed: int) -> dict:
    nb = copy.deepcopy(notebook)
    cells = [
        c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == f"{ps}-setup"
    ]
    if len(cells) != 1:
        raise ValueError(f"{ps}: expected one cell with grade id {ps}-setup, found {len(cells)}")
    source = setup_source(ps, seed)
    cells[0]["source"] = source.splitlines(keepends=True)
    cells[0]["outputs"], cells[0]["execution_count"] = [], None
    return nb


def problem_sets(source: Path) -> list[str]:
    return sorted(p.name for p in source.iterdir() if (p / f"{p.name}.ipynb").is_file())


def write_course(out: Path, seed: int) -> None:
    """A course directory (nbgrader_config.py + source/) whose notebooks hold `seed`'s data."""
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / "nbgrader_config.py", out)
    shutil.copy(HERE / "course_plugins.py", out)
    if (out / "source").exists():
        shutil.rmtree(out / "source")
    shutil.copytree(HERE / "source", out / "source")
    for ps in problem_sets(out / "source"):
        path = out / "source" / ps / f"{ps}.ipynb"
        nb = with_seed(json.loads(path.read_text()), ps, seed)
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--write", action="store_true", help="rewrite coursework/source")
    args = parser.parse_args()
    if args.write:
        for ps in problem_sets(HERE / "source"):
            path = HERE / "source" / ps / f"{ps}.ipynb"
            nb = with_seed(json.loads(path.read_text()), ps, SEED)
            path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    if args.out:
        write_course(args.out.resolve(), args.seed)
        print(f"course for seed {args.seed}: {args.out}")


if __name__ == "__main__":
    main()
