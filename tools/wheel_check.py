"""The readers' install path, without Colab: build, install, import, run every chapter.

What a reader on Colab (or any Jupyter without an editable checkout) does is: start a kernel
that has numpy, matplotlib, ipywidgets and friends but no kappalib, and run the chapter, whose
first cell installs ``kappalib[widgets]`` with ``%pip``.  This script does the same here:

1. copies the tracked tree (``git ls-files``, plus new files not ignored) to a temporary
   folder and builds the sdist and, from the sdist, the wheel with ``python -m build``; the
   build must print no deprecation warning;
2. checks that the wheel and the sdist hold every ``.py`` under ``kappalib/``, ``py.typed`` and
   the data CSVs of ``kappalib/data``;
3. installs the wheel, without extras, into a bare virtual environment: only numpy and kappalib
   may arrive, ``import kappalib`` must work there and load neither matplotlib nor ipywidgets,
   and ``kappalib.plotting`` / ``kappalib.widgets`` must name their extra when they fail;
4. builds a "Colab" environment (ipykernel, nbclient, nbformat, numpy, matplotlib, ipywidgets,
   scikit-learn, scipy, pandas at the pins of requirements.txt, else at the versions of the
   running interpreter) without kappalib;
5. executes every ``book/[0-9][0-9]_*.ipynb`` alone in a temporary folder that holds only that
   notebook (as Colab opens it: no ``book/``, no data files beside it), with its install cell
   pointed at the built wheel (``kappalib[widgets] @ file:///.../kappalib-X.whl``), so that
   the cell runs ``%pip install`` as on Colab.  Two notebooks run at a time, each stream in its
   own small environment layered on the Colab one (a ``.pth`` file), so that kappalib is
   installed only there: each stream's first chapter starts without kappalib and its install
   cell really installs it; the later chapters find it (the kappalib part of the chapters'
   install cells must be one and the same, which is checked);
6. imports every module of the wheel from that environment, and checks that ``kappalib`` comes
   from the environment, not from the checkout.

It never installs anything editable and never touches ``.venv``.  Run it with the course's
Python (``.venv/bin/python tools/wheel_check.py``); ``tests/test_install.py`` does, so
``make test`` does.  Exit status 0 when everything passed; otherwise it lists every problem.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import textwrap
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from wheelhouse import WHEELHOUSE  # tools/: the folder of pinned wheels, shared with the tests

ROOT = Path(__file__).resolve().parents[1]

# What Colab has (and the chapters may import), but not kappalib.
COLAB = [
    "ipykernel",
    "nbclient",
    "nbformat",
    "numpy",
    "matplotlib",
    "ipywidgets",
    "scikit-learn",
    "scipy",
    "pandas",
    "duckdb",  # Colab ships it; chapter 14 counts a long table with it
]

# The install cell of every chapter (CONTRIBUTING.md, "Add a chapter"); replaced by the wheel.
INSTALL_SPEC = re.compile(r'"kappalib\[widgets\] @ git\+https://github\.com/[^"\s]+"')

QUIET = ["--quiet"]
# uv, beside this Python when the Makefile built .venv (requirements-uv.txt), installs the
# Colab-like environment's pinned list in seconds, and python -m build's build environments;
# without it, pip (from the wheelhouse, below). What a reader runs stays pip: the chapters'
# %pip cell and the bare install of the wheel.
UV = Path(sys.executable).with_name("uv")
# Seconds per cell: the chapters' cells take seconds (make chapter-times), pip a few more; two
# notebooks run at a time, beside the other tests, so the machine is always loaded. As the
# book's timeout (_config.yml): there to stop a hung kernel, far above any measured cell.
NB_TIMEOUT = 300
# A kernel that does not start, dies or hangs (ipykernel 7 hangs now and then under load) is
# not a failure of the chapter: such a notebook is run once more, and the log says so.  An
# error raised by a cell is never retried.
INFRA_EXIT = 3


class Check:
    """Collects problems instead of stopping at the first one, and times the phases."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.t0 = time.perf_counter()
        self.last = self.t0

    def fail(self, message: str) -> None:
        self.problems.append(message)
        print(f"  FAIL: {message}", flush=True)

    def phase(self, name: str) -> None:
        now = time.perf_counter()
        print(f"[{now - self.t0:6.1f} s] {name}", flush=True)
        self.last = now


def run(cmd, *, cwd=None, env=None, check=True) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    if check and proc.returncode != 0:
        raise RuntimeError(
            f"{' '.join(str(c) for c in cmd)} exited {proc.returncode}:\n"
            f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        )
    return proc


def clean_env(**extra: str) -> dict[str, str]:
    """The caller's environment without anything that would leak the checkout or .venv."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "JUPYTER_PATH", "PYTHONSTARTUP"}
    }
    env.update(extra)
    return env


def tracked_files(root: Path) -> list[str]:
    """Tracked files plus new, not ignored ones (a module not yet committed counts too)."""
    out = run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root
    ).stdout
    return sorted({f for f in out.split("\0") if f and (root / f).is_file()})


def copy_tree(root: Path, dest: Path) -> None:
    for rel in tracked_files(root):
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / rel, target)


def pins(names: list[str]) -> list[str]:
    """``name==version`` from requirements.txt, else the running interpreter's version."""
    req = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        m = re.match(r"^([A-Za-z0-9_.-]+)==([^\s#;]+)", line.strip())
        if m:
            req[m.group(1).lower().replace("_", "-")] = m.group(2)
    specs = []
    for name in names:
        key = name.lower()
        if key in req:
            specs.append(f"{name}=={req[key]}")
            continue
        try:
            specs.append(f"{name}=={importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            specs.append(name)
    return specs


def make_venv(path: Path, *, with_pip: bool = True) -> Path:
    cmd = [sys.executable, "-m", "venv", path]
    if not with_pip:
        cmd.append("--without-pip")
    run(cmd)
    return path / "bin" / "python"


def pip_names(python: Path, cwd: Path) -> set[str]:
    out = run([python, "-m", "pip", "list", "--format", "json"], cwd=cwd).stdout
    return {d["name"].lower().replace("_", "-") for d in json.loads(out)}


def expected_files(src: Path) -> set[str]:
    files = {p.relative_to(src).as_posix() for p in (src / "kappalib").rglob("*.py")}
    files.add("kappalib/py.typed")
    files |= {p.relative_to(src).as_posix() for p in (src / "kappalib" / "data").glob("*.csv")}
    return files


def build(check: Check, src: Path, dist: Path) -> tuple[Path, Path]:
    check.phase("build the sdist and, from it, the wheel (python -m build)")
    installer = ["--installer", "uv"] if UV.is_file() else []  # its build environments
    proc = run([sys.executable, "-m", "build", *installer, "--outdir", dist, src], check=False)
    output = proc.stdout + proc.stderr
    if proc.returncode != 0:
        raise RuntimeError(f"python -m build failed:\n{output[-4000:]}")
    warned = [ln for ln in output.splitlines() if re.search(r"deprecat", ln, re.IGNORECASE)]
    if warned:
        check.fail(f"the build prints {len(warned)} deprecation warning line(s): {warned[0]}")
    (wheel,) = dist.glob("kappalib-*.whl")
    (sdist,) = dist.glob("kappalib-*.tar.gz")
    print(f"  {wheel.name}, {sdist.name}")
    return wheel, sdist


def check_contents(check: Check, src: Path, wheel: Path, sdist: Path) -> None:
    check.phase("file lists of the wheel and the sdist")
    expected = expected_files(src)
    with zipfile.ZipFile(wheel) as zf:
        in_wheel = set(zf.namelist())
    with tarfile.open(sdist) as tf:
        # kappalib-X/kappalib/... -> kappalib/...
        in_sdist = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    for label, names in (("wheel", in_wheel), ("sdist", in_sdist)):
        missing = sorted(expected - names)
        if missing:
            check.fail(f"the {label} lacks {len(missing)} file(s) of kappalib/: {missing}")
        else:
            print(f"  the {label} holds all {len(expected)} files (.py, py.typed, data CSVs)")


BARE_PROBE = textwrap.dedent(
    """
    import importlib.metadata, pathlib, sys
    import kappalib as kl
    here = pathlib.Path(kl.__file__).resolve()
    assert here.is_relative_to(pathlib.Path(sys.prefix).resolve()), here
    loaded = sorted(m for m in ("matplotlib", "ipywidgets") if m in sys.modules)
    assert not loaded, f"import kappalib loaded {loaded}"
    assert (pathlib.Path(kl.__file__).parent / "py.typed").is_file(), "py.typed is not installed"
    assert abs(kl.kappa([[20, 5], [10, 15]]) - 0.4) < 1e-12, kl.kappa([[20, 5], [10, 15]])
    assert kl.datasets.load("fleiss1971_diagnoses").data.shape == (30, 5), "data CSVs"
    meta = importlib.metadata.metadata("kappalib")
    assert meta["Version"] == kl.__version__, (meta["Version"], kl.__version__)
    assert meta["License-Expression"] == "MIT", meta["License-Expression"]
    for module, extra in (("kappalib.plotting", "plot"), ("kappalib.widgets", "widgets")):
        try:
            __import__(module)
        except ImportError as exc:
            assert f'pip install "kappalib[{extra}]"' in str(exc), str(exc)
            assert str(exc).count(". ") == 0, f"not one sentence: {exc}"
        else:
            raise AssertionError(f"{module} imported without its extra")
    print("bare environment: ok")
    """
)


def check_bare(check: Check, tmp: Path, wheel: Path) -> None:
    check.phase("install the wheel without extras into a bare environment")
    python = make_venv(tmp / "bare")
    before = pip_names(python, tmp)
    constraints = tmp / "constraints.txt"
    constraints.write_text("\n".join(pins(["numpy"])) + "\n")
    run([python, "-m", "pip", "install", *QUIET, "-c", constraints, wheel], cwd=tmp)
    added = pip_names(python, tmp) - before
    if added != {"kappalib", "numpy"}:
        check.fail(f"pip install of the wheel without extras installed {sorted(added)}")
    else:
        print("  installed: kappalib, numpy (nothing else)")
    proc = run([python, "-c", BARE_PROBE], cwd=tmp, env=clean_env(), check=False)
    if proc.returncode != 0:
        check.fail(f"in the bare environment: {proc.stderr.strip().splitlines()[-1]}")
    else:
        print(f"  {proc.stdout.strip()}")


# Without uv, pip installs the Colab-like environment from the wheelhouse (tools/wheelhouse.py):
# the index's pages for numpy, scipy or pandas take pip longer to parse than the install.


def install_pinned(python: Path, specs: list[str], *, cwd: Path) -> None:
    """uv (or pip from the wheelhouse, filled from the index when one is missing) installs
    ``specs``."""
    if UV.is_file():
        run([UV, "pip", "install", *QUIET, "--python", python, *specs], cwd=cwd)
        return
    offline = ["--no-index", "--find-links", WHEELHOUSE]
    if run(
        [python, "-m", "pip", "install", *QUIET, *offline, *specs], cwd=cwd, check=False
    ).returncode:
        WHEELHOUSE.mkdir(parents=True, exist_ok=True)
        run([python, "-m", "pip", "download", "--quiet", "-d", WHEELHOUSE, *specs], cwd=cwd)
        run([python, "-m", "pip", "install", *QUIET, *offline, *specs], cwd=cwd)


def colab_env(check: Check, tmp: Path) -> Path:
    check.phase("a Colab-like environment without kappalib (in the background)")
    python = make_venv(tmp / "colab")
    specs = pins(COLAB)
    print(f"  {' '.join(specs)}")
    install_pinned(python, specs, cwd=tmp)
    # nbclient runs here too: bounded polls, as in .venv (tools/jupyter_wakeup.py, nbclient #312)
    run([sys.executable, ROOT / "tools" / "jupyter_wakeup.py", "--install", python], cwd=tmp)
    proc = run(
        [python, "-c", "import importlib.util as u; print(u.find_spec('kappalib'))"],
        cwd=tmp,
        env=clean_env(),
    )
    if proc.stdout.strip() != "None":
        check.fail(f"the Colab environment already has kappalib: {proc.stdout.strip()}")
    return python


def stream_env(tmp: Path, base: Path, n: int) -> tuple[Path, str]:
    """A small environment on top of the Colab one: kappalib goes here, and only here."""
    path = tmp / f"stream{n}"
    python = make_venv(path, with_pip=False)
    base_site = run(
        [base, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
    ).stdout.strip()
    site = run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
    ).stdout.strip()
    Path(site, "colab-base.pth").write_text(base_site + "\n")
    name = f"kappa-wheel-check-{n}"
    kdir = tmp / "jupyter" / "kernels" / name
    kdir.mkdir(parents=True)
    spec = {
        "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": f"wheel check {n}",
        "language": "python",
    }
    (kdir / "kernel.json").write_text(json.dumps(spec))
    return python, name


RUNNER = textwrap.dedent(
    """
    import sys, nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
    path, kernel, timeout, infra_exit = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    nb = nbformat.read(path, as_version=4)
    folder = str(__import__("pathlib").Path(path).parent)
    client = NotebookClient(nb, kernel_name=kernel, timeout=timeout, startup_timeout=240,
                            resources={"metadata": {"path": folder}})
    try:
        client.execute()
    except CellExecutionError as exc:
        print(str(exc)[-3000:], file=sys.stderr)
        sys.exit(1)
    except Exception as exc:
        print(f"the kernel failed: {type(exc).__name__}: {exc}"[-3000:], file=sys.stderr)
        sys.exit(infra_exit)
    finally:
        nbformat.write(nb, path)
    """
)

# Appended to each temporary copy: the chapter ran on the installed wheel, not on the checkout.
WHERE_CELL = (
    "import pathlib, sys, kappalib\n"
    "assert pathlib.Path(kappalib.__file__).resolve().is_relative_to("
    "pathlib.Path(sys.prefix).resolve()), kappalib.__file__\n"
    "print('kappalib from', kappalib.__file__)"
)


def prepare_notebooks(check: Check, src: Path, book: Path, wheel: Path) -> list[Path]:
    import nbformat

    spec = f'"kappalib[widgets] @ {wheel.resolve().as_uri()}"'
    notebooks = []
    install_cells = {}
    # As Colab opens a chapter: the notebook alone in its folder, nothing of book/ beside it.
    for original in sorted((src / "book").glob("[0-9][0-9]_*.ipynb")):
        path = book / original.stem / original.name
        path.parent.mkdir(parents=True)
        notebooks.append(path)
        nb = nbformat.read(original, as_version=4)
        hits = 0
        for cell in nb.cells:
            if cell.cell_type == "code" and INSTALL_SPEC.search(cell.source):
                cell.source, n = INSTALL_SPEC.subn(spec, cell.source)
                hits += n
                # the kappalib part of the cell (a chapter may install more after it: 14 adds
                # duckdb where it is missing), up to its first invalidate_caches()
                kappalib_part = cell.source.split("importlib.invalidate_caches()", 1)[0]
                install_cells.setdefault(kappalib_part, []).append(original.name)
        if hits != 1:
            check.fail(f"{path.name}: {hits} install cells with the git+https spec (want 1)")
        nb.cells.append(nbformat.v4.new_code_cell(WHERE_CELL))
        nbformat.write(nb, path)
    # run_stream installs through the first chapter of each stream only (the others find the
    # wheel installed, as on a Colab runtime's second notebook): that covers every chapter only
    # while the kappalib part of their install cells is the same.
    if len(install_cells) > 1:
        groups = "; ".join(", ".join(names) for names in install_cells.values())
        check.fail(
            f"the kappalib part of the chapters' install cells differs (CONTRIBUTING.md, Add a "
            f"chapter): {groups}"
        )
    return notebooks


def run_stream(python: Path, kernel: str, notebooks: list[Path], env: dict) -> list[str]:
    failures = []
    for i, path in enumerate(notebooks):
        for attempt in (1, 2):
            # The stream's first chapter starts as on a fresh Colab runtime, without kappalib: its
            # install cell runs %pip install of the wheel. The later chapters find that install
            # (the kappalib part of their install cells is the same: prepare_notebooks checks
            # it), which saves a pip uninstall and install per chapter. A retry starts fresh.
            if i == 0 or attempt == 2:
                uninstall = [python, "-m", "pip", "uninstall", "--quiet", "--yes", "kappalib"]
                run(uninstall, env=env, check=False)
            t = time.perf_counter()
            proc = run(
                [sys.executable, "-c", RUNNER, path, kernel, NB_TIMEOUT, INFRA_EXIT],
                cwd=path.parent,
                env=env,
                check=False,
            )
            took = time.perf_counter() - t
            status = "ok" if proc.returncode == 0 else "FAILED"
            print(f"  {path.name}: {status} ({took:.1f} s)", flush=True)
            if proc.returncode != INFRA_EXIT or attempt == 2:
                break
            print(f"  {path.name}: {proc.stderr.strip()[-300:]}; running it once more")
        if proc.returncode != 0:
            plain = re.sub(r"\x1b\[[0-9;]*m", "", proc.stderr)  # the traceback's colours
            tail = [ln for ln in plain.strip().splitlines() if ln.strip()][-3:]
            failures.append(f"{path.name} failed on the installed wheel: {' | '.join(tail)}")
        else:
            installed = run(
                [python, "-c", "import kappalib; print(kappalib.__file__)"],
                cwd=path.parent,
                env=env,
                check=False,
            )
            if str(python.parents[1]) not in installed.stdout:
                failures.append(f"{path.name}: its install cell did not install kappalib")
    return failures


IMPORT_PROBE = textwrap.dedent(
    """
    import importlib, pathlib, sys
    import kappalib
    loaded = sorted(m for m in ("matplotlib", "ipywidgets") if m in sys.modules)
    assert not loaded, f"import kappalib loaded {loaded}"
    prefix = pathlib.Path(sys.prefix).resolve()
    for name in sys.argv[1:]:
        module = importlib.import_module(name)
        assert pathlib.Path(module.__file__).resolve().is_relative_to(prefix), module.__file__
    print(f"imported {len(sys.argv) - 1} modules from the installed wheel")
    """
)


def check_imports(check: Check, python: Path, wheel: Path, tmp: Path, env: dict) -> None:
    check.phase("import every module of the wheel in the Colab environment")
    spec = f"kappalib[widgets] @ {wheel.as_uri()}"
    run([python, "-m", "pip", "install", "--quiet", spec], env=env)
    with zipfile.ZipFile(wheel) as zf:
        modules = sorted(
            n[:-3].replace("/", ".").removesuffix(".__init__")
            for n in zf.namelist()
            if n.startswith("kappalib/") and n.endswith(".py")
        )
    proc = run([python, "-c", IMPORT_PROBE, *modules], cwd=tmp, env=env, check=False)
    if proc.returncode != 0:
        check.fail(f"importing the wheel's modules: {proc.stderr.strip().splitlines()[-1]}")
    else:
        print(f"  {proc.stdout.strip()}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to build from")
    parser.add_argument("--jobs", type=int, default=2, help="notebooks run at a time (max 2)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args(argv)
    jobs = max(1, min(args.jobs, 2))

    check = Check()
    tmp = Path(tempfile.mkdtemp(prefix="kappa-wheel-check-"))
    try:
        check.phase(f"copy the tracked tree of {args.root} to {tmp}/src")
        src = tmp / "src"
        copy_tree(args.root.resolve(), src)
        # The Colab environment needs no wheel: it is built meanwhile.
        with ThreadPoolExecutor(max_workers=1) as background:
            colab = background.submit(colab_env, check, tmp)
            wheel, sdist = build(check, src, tmp / "dist")
            check_contents(check, src, wheel, sdist)
            check_bare(check, tmp, wheel)
            base = colab.result()

        check.phase(f"execute every chapter on the installed wheel, {jobs} at a time")
        notebooks = prepare_notebooks(check, src, tmp / "book", wheel)
        if not notebooks:
            check.fail("no book/[0-9][0-9]_*.ipynb found")
        streams = [stream_env(tmp, base, n) for n in range(jobs)]
        env = clean_env(JUPYTER_PATH=str(tmp / "jupyter"), PIP_NO_INPUT="1")
        chunks = [notebooks[i::jobs] for i in range(jobs)]
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            results = pool.map(
                lambda s: run_stream(s[0][0], s[0][1], s[1], env), zip(streams, chunks, strict=True)
            )
            for failures in results:
                for message in failures:
                    check.fail(message)
        check_imports(check, streams[0][0], wheel, tmp, env)
    finally:
        check.phase("done")
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    if check.problems:
        print(f"\nwheel check: {len(check.problems)} problem(s)")
        for p in check.problems:
            print(f"- {p}")
        return 1
    print("\nwheel check: the installed wheel runs every chapter")
    return 0


if __name__ == "__main__":
    sys.exit(main())
