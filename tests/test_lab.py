"""``make lab`` opens the course: JupyterLab on book/ with the course kernel.

The test runs the real target, headless, on a free port of 127.0.0.1 with a token, asks the
server for its kernels and its files, and stops it.  It first runs ``make kernel`` (the
user-level kernelspec for a Jupyter outside the course's environments) with
``JUPYTER_DATA_DIR`` pointed at a temporary folder, so that nothing is written to the home
folder, and checks that the server lists that kernel too.  ``make lab`` runs in an
environment of its own, .venv-lab (requirements-lab.txt), which ``make test`` builds before
the tests (the ``unit`` target depends on it): the chapters' imports and JupyterLab, not the
book's build and test toolchain.

The README's pip route, for a machine without make, is tested too: its one line, run in a
copy of the course, gives an environment whose kernel "kappa-honestly" runs a chapter.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import wheelhouse  # noqa: E402  (tools/)

pytestmark = [pytest.mark.toolchain, pytest.mark.slow]

VENV_PYTHON = ROOT / ".venv-lab" / "bin" / "python"
DISPLAY_NAME = "Python 3 (kappa-honestly)"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, token: str) -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read().decode()


def test_make_lab_serves_the_book_with_the_course_kernel(tmp_path):
    env = dict(
        os.environ,
        JUPYTER_DATA_DIR=str(tmp_path / "data"),
        JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
        JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
    )
    env.pop("JUPYTER_PATH", None)
    subprocess.run(["make", "-s", "kernel"], cwd=ROOT, env=env, check=True, capture_output=True)
    user_spec = tmp_path / "data" / "kernels" / "kappa-honestly" / "kernel.json"
    assert json.loads(user_spec.read_text())["argv"][0] == str(VENV_PYTHON)

    port, token = _free_port(), secrets.token_hex(16)
    args = f"--no-browser --port={port} --ServerApp.port_retries=0 --IdentityProvider.token={token}"
    log = (tmp_path / "lab.log").open("w")
    server = subprocess.Popen(
        ["make", "-s", "lab", f"LAB_ARGS={args}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, stopped as a whole below
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                status, body = _get(f"{base}/api/kernelspecs", token)
                break
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None, (tmp_path / "lab.log").read_text()[-3000:]
                assert time.monotonic() < deadline, "JupyterLab did not answer within 120 s"
                time.sleep(1)
        assert status == 200
        specs = json.loads(body)["kernelspecs"]

        # The chapters name the kernel "kappa-honestly" (a system Jupyter finds it after
        # `make kernel`); the user-level spec above and .venv-lab's own both run .venv-lab's
        # Python. A chapter that still names "python3" gets .venv-lab's own Python too.
        chapters = sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb"))
        named = {json.loads(p.read_text())["metadata"]["kernelspec"]["name"] for p in chapters}
        assert "kappa-honestly" in named and named <= {"kappa-honestly", "python3"}, named
        course = specs["kappa-honestly"]["spec"]
        assert course["display_name"] == DISPLAY_NAME
        assert course["argv"][0] == str(VENV_PYTHON)
        assert named <= set(specs), sorted(specs)

        # The server's root is book/: the chapters are at the top.
        status, body = _get(f"{base}/api/contents", token)
        names = {item["name"] for item in json.loads(body)["content"]}
        assert status == 200 and "02_chance_correction.ipynb" in names, sorted(names)
        status, body = _get(f"{base}/lab", token)
        assert status == 200 and "JupyterLab" in body
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=10)
        log.close()


def test_lab_environment_is_lean():
    """The chapters' libraries and JupyterLab; none of the book's build or test tools."""
    proc = subprocess.run(
        [str(VENV_PYTHON), "-m", "pip", "list", "--format=json"],
        capture_output=True,
        text=True,
        check=True,
    )
    names = {p["name"].lower() for p in json.loads(proc.stdout)}
    assert {"kappalib", "numpy", "matplotlib", "ipywidgets", "jupyterlab", "scikit-learn"} <= names
    toolchain = {"jupyter-book", "sphinx", "pytest", "nbval", "hypothesis", "ruff", "statsmodels"}
    assert names & toolchain == set(), sorted(names & toolchain)


def _readme_pip_route() -> str:
    readme = (ROOT / "README.md").read_text()
    block = readme.split("<!-- pip-route -->\n```bash\n", 1)[1].split("\n```", 1)[0]
    assert "\n" not in block.strip(), "the pip route is one line"
    return block.strip()


def test_readme_pip_route_runs_a_chapter_on_the_course_kernel(tmp_path):
    line = _readme_pip_route()
    tail = " && .venv-lab/bin/jupyter lab book"
    assert line.endswith(tail), line
    copy = tmp_path / "course"
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    for name in filter(None, tracked):
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            (copy / name).write_bytes((ROOT / name).read_bytes())
    env = {k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "PYTHONPATH"}}
    env.update(JUPYTER_DATA_DIR=str(tmp_path / "data"), JUPYTER_CONFIG_DIR=str(tmp_path / "cfg"))
    env.pop("JUPYTER_PATH", None)
    # The line's pip installs the same pinned wheels from the wheelhouse (tools/wheelhouse.py).
    wheelhouse.fill([copy / "requirements-lab.txt"], wheelhouse.build_requires(copy))
    env = wheelhouse.offline(env)
    # Everything but starting the server, which would wait for a browser; then the server's
    # own entry point, and one chapter executed on the kernel the chapter names.
    run = line.removesuffix(tail) + " && .venv-lab/bin/jupyter lab --version"
    proc = subprocess.run(
        ["bash", "-c", run], cwd=copy, env=env, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    chapter = "book/01_raw_agreement.ipynb"
    assert json.loads((copy / chapter).read_text())["metadata"]["kernelspec"]["name"] == (
        "kappa-honestly"
    )
    proc = subprocess.run(
        [".venv-lab/bin/jupyter", "execute", chapter],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    spec = json.loads(
        (copy / ".venv-lab/share/jupyter/kernels/kappa-honestly/kernel.json").read_text()
    )
    assert Path(spec["argv"][0]).is_relative_to(copy / ".venv-lab"), spec
