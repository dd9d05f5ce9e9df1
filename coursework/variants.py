"""Term and student variants: the same problem sets with each student's own data.

Each student's data come from the term's seed and the student's id, drawn by
``numpy.random.default_rng`` (``student_rng`` below): a classmate's numbers are useless, and
so are last term's. The written question of each set comes in two versions (written.py), one
chosen by the seed. The notebook learns the id from its first code cell, where the student
types it (``STUDENT_ID = "..."``); the locked setup cell below it holds the generator and the
data function of this module, verbatim, and makes the data. The grader never trusts the typed
id: it runs the setup cell with the id of the folder the submission was collected from
(``submitted/<id>/``), and the feedback says so when the two differ.

    python coursework/variants.py --seed 7 --out DIR   # a course directory for seed 7
    python coursework/variants.py --write               # rewrite coursework/source (SEED)

``make course`` and ``make assignments SEED=<n>`` call the first form. The committed source
notebooks hold the setup of ``SEED`` below; a test checks that they are up to date.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import inspect
import json
import re
import shutil
from pathlib import Path

import numpy as np

try:
    import written
except ImportError:  # imported as coursework.variants
    from coursework import written

HERE = Path(__file__).resolve().parent
SEED = 2026
# One tolerance for every numerical answer, in the notebook's checks and in the grader's:
# an answer a counts as the right value b when |a - b| <= TOL * (1 + |b|), entry by entry.
TOL = 1e-6
PLACEHOLDER = "type your id here"
_ID_START = re.compile(r"STUDENT_ID[ \t]*=")  # anchored with match(): linear, no backtracking


def _id_value(line: str) -> str | None:
    """The value of a line ``STUDENT_ID = ...`` (quotes and a comment removed), else None.
    Plain string operations: linear in the line's length, whatever it holds."""
    found = _ID_START.match(line)
    if found is None:
        return None
    return line[found.end() :].split("#", 1)[0].strip().strip("'\"").strip()


def find_id(text: str) -> str | None:
    """The id typed in a cell (its first ``STUDENT_ID = ...`` line), or None."""
    for line in text.splitlines():
        value = _id_value(line)
        if value is not None:
            return value
    return None


def set_id(text: str, student_id: str) -> str:
    """The cell with every ``STUDENT_ID = ...`` line set to `student_id`, the rest unchanged."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if _id_value(line) is not None:
            end = "\n" if line.endswith("\n") else ""
            lines[i] = f"STUDENT_ID = {student_id!r}{end}"
    return "".join(lines)


# (p_o, kappa) targets that a table of at most 50 counts reaches exactly.
TARGETS = [(0.7, 0.4), (0.75, 0.4), (0.75, 0.5), (0.8, 0.5), (0.8, 0.6), (0.85, 0.5), (0.8, 0.4)]


def student_rng(ps, seed, student_id):
    """The generator of one student's data: the term's seed, the problem set and the id."""
    digest = hashlib.sha256(f"{seed}/{ps}/{student_id}".encode()).digest()
    return np.random.default_rng([seed, int(ps[2:]), int.from_bytes(digest[:8], "big")])


def data_ps1(rng):
    C = rng.integers(0, 9, size=(3, 3)) + np.diag(rng.integers(12, 30, size=3))
    po, ka = TARGETS[rng.integers(len(TARGETS))]
    return {"C": C, "target_po": po, "target_kappa": ka}


def data_ps2(rng):
    rater = rng.integers(1, 5, size=40)
    model = np.clip(rater + rng.choice([-2, -1, 0, 0, 0, 1, 2], size=40), 1, 4)
    return {"rater": rater, "model": model}


def data_ps3(rng):
    K = int(rng.integers(3, 7))
    return {"K": K, "A_grid": np.linspace(0, float(rng.integers(60, 121)), 6001)}


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


def term_data(ps: str, seed: int, student_id: str) -> dict:
    """The data of one student (`student_id`) for problem set `ps` in the term `seed`."""
    return DATA[ps](student_rng(ps, seed, student_id))


def id_source(ps: str) -> str:
    """The first code cell: where the student types their id."""
    return (
        "# Your student id, exactly as on the class list: your data are made from it.\n"
        f"STUDENT_ID = {PLACEHOLDER!r}"
    )


def setup_source(ps: str, seed: int) -> str:
    """The locked setup cell: the tolerance, `close`, the generator, the data of `STUDENT_ID`."""
    names = list(term_data(ps, seed, "x"))
    body = [
        "# Setup (locked: run it, do not change it). It makes your data from STUDENT_ID (the cell",
        "# above) and this term's seed. The grader runs this same cell with the id of the folder",
        "# your submission was collected from: with another id here you practise on someone",
        "# else's numbers, and only code that computes from the data earns points.",
        f"SEED = {seed}  # this term",
        f"TOL = {TOL!r}  # right within TOL * (1 + |right value|), here and when graded",
        "",
        "import hashlib",
        "",
        "import numpy as np",
        "",
        "import kappalib as kl",
        "",
        "",
        "def close(answer, right):",
        '    """True when answer and right agree within TOL, entry by entry (as when graded)."""',
        "    a, b = np.asarray(answer, dtype=float), np.asarray(right, dtype=float)",
        "    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= TOL * (1 + np.abs(b))))",
        "",
        "",
        inspect.getsource(student_rng).rstrip(),
        "",
        "",
    ]
    if ps == "ps1":
        body += [f"TARGETS = {TARGETS!r}", "", ""]
    body += [
        inspect.getsource(DATA[ps]).rstrip(),
        "",
        "",
        f'_data = data_{ps}(student_rng("{ps}", SEED, STUDENT_ID))',
        *[f'{name} = _data["{name}"]' for name in names],
        'print(f"The data of student {STUDENT_ID!r} in term {SEED}.")',
    ]
    return "\n".join(body) + "\n"


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def written_version(ps: str, seed: int) -> int:
    """Which version of the set's written question the term `seed` asks (written.py)."""
    digest = hashlib.sha256(f"{seed}/{ps}/written".encode()).digest()
    return int.from_bytes(digest[:4], "big") % len(written.VERSIONS[ps])


def with_seed(notebook: dict, ps: str, seed: int) -> dict:
    """The notebook with `seed`'s setup cell and `seed`'s version of the written question."""
    nb = copy.deepcopy(notebook)
    question, reference = written.VERSIONS[ps][written_version(ps, seed)]
    for i, cell in enumerate(nb["cells"]):
        meta = cell["metadata"].get("nbgrader", {})
        if cell["cell_type"] == "markdown" and meta.get("solution") and meta.get("grade"):
            before = nb["cells"][i - 1]
            if before["metadata"].get("nbgrader", {}).get("grade_id") != meta["grade_id"].replace(
                "-answer", "-text"
            ):
                raise ValueError(
                    f"{ps}: the written answer {meta['grade_id']} has no question above"
                )
            before["source"] = _lines(question)
            cell["source"] = _lines(reference)
    cells = [
        c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == f"{ps}-setup"
    ]
    if len(cells) != 1:
        raise ValueError(f"{ps}: expected one cell with grade id {ps}-setup, found {len(cells)}")
    cells[0]["source"] = _lines(setup_source(ps, seed))
    cells[0]["outputs"], cells[0]["execution_count"] = [], None
    return nb


def problem_sets(source: Path) -> list[str]:
    return sorted(p.name for p in source.iterdir() if (p / f"{p.name}.ipynb").is_file())


def write_course(out: Path, seed: int) -> None:
    """A course directory (nbgrader_config.py + source/) whose notebooks hold `seed`'s setup."""
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / "nbgrader_config.py", out)
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
