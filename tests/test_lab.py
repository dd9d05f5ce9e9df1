"""``make lab`` opens the course: JupyterLab on book/ with the course kernel.

The test runs the real target, headless, on a free port of 127.0.0.1 with a token, asks the
server for its kernels and its files, and stops it.  It first runs ``make kernel`` (the
user-level kernelspec for a Jupyter outside .venv) with ``JUPYTER_DATA_DIR`` pointed at a
temporary folder, so that nothing is written to the home folder, and checks that the server
lists that kernel too.  JupyterLab comes from requirements-lab.txt, which ``make test``
installs before the tests (the ``unit`` target depends on it); the target installs it too.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
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
        # `make kernel`); the user-level spec above and .venv's own both run .venv's Python.
        chapters = sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb"))
        named = {json.loads(p.read_text())["metadata"]["kernelspec"]["name"] for p in chapters}
        assert "kappa-honestly" in named and named <= {"kappa-honestly", "python3"}, named
        for name in named:
            course = specs[name]["spec"]
            assert course["display_name"] == DISPLAY_NAME
            assert course["argv"][0] == str(VENV_PYTHON)

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
