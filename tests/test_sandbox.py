"""The grading sandbox (coursework/sandbox.py) proves its walls from inside.

A script runs in the sandbox, next to a fake course directory (a gradebook, another student's
submission) and a fake home directory with a planted secret, all outside it. From inside it
must not read them, write anywhere but its private copy, reach a TCP server listening on the
host's loopback or the outside world, or outlive the run (a detached ``setsid`` child keeps
writing a heartbeat into the private copy; the heartbeat must stop when the run ends). The
limits hold (memory, processes, CPU time, file size), and without bwrap the grader refuses
with the sentence that says how to install it.

Without bwrap these tests skip, except under CI (``CI=true``), where they fail.
"""

import json
import os
import shutil
import socket
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "coursework"))

import sandbox  # noqa: E402

pytestmark = [pytest.mark.toolchain, pytest.mark.sandbox]

if shutil.which("bwrap") is None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(sandbox.INSTALL, pytrace=False)
    pytest.skip(f"bwrap is not installed. {sandbox.INSTALL}", allow_module_level=True)

SECRET = "s3cret-planted-in-the-instructors-home"


@pytest.fixture
def world(tmp_path):
    course = tmp_path / "course"
    (course / "submitted" / "other" / "ps1").mkdir(parents=True)
    (course / "gradebook.db").write_text("roster and grades")
    (course / "submitted" / "other" / "ps1" / "ps1.ipynb").write_text("{}")
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text(SECRET)
    private = tmp_path / "private"
    private.mkdir()
    return {"course": course, "home": home, "private": private}


def inside(world, script: str, limits=sandbox.Limits(wall_seconds=60), **kw):  # noqa: B008
    (world["private"] / "probe.py").write_text(textwrap.dedent(script))
    return sandbox.run(
        world["private"], [sys.executable, "/submission/probe.py"], limits=limits, **kw
    )


def test_cannot_read_the_course_the_home_or_other_submissions(world):
    # The grader's real home: every entry in it, except the way to a read-only Python install
    # (pyenv keeps Python in ~/.pyenv; only that one folder is mounted, read-only).
    ro = sandbox._readonly_paths()
    home = [p for p in Path.home().iterdir() if not any(p == r or p in r.parents for r in ro)]
    paths = [
        *home,
        world["course"] / "gradebook.db",
        world["course"] / "submitted" / "other" / "ps1" / "ps1.ipynb",
        world["home"] / ".ssh" / "id_rsa",
        ROOT / "coursework" / "source",
        ROOT / "README.md",
    ]
    r = inside(
        world,
        f"""
        import json, os
        seen = {{p: os.path.exists(p) for p in {[str(p) for p in paths]!r}}}
        print(json.dumps(seen))
        """,
    )
    assert r.returncode == 0, r.stderr
    seen = json.loads(r.stdout)
    assert not any(seen.values()), seen
    assert SECRET not in r.stdout + r.stderr


def test_cannot_write_outside_its_copy(world):
    targets = ["/x", "/usr/x", sys.prefix + "/x", "/tmp/x", "/dev/shm/x",
               str(world["course"] / "gradebook.db"), str(world["home"] / "x")]  # fmt: skip
    r = inside(
        world,
        f"""
        import json
        out = {{}}
        for t in {targets!r}:
            try:
                open(t, "w").write("x")
                out[t] = "written"
            except OSError as e:
                out[t] = type(e).__name__
        open("/submission/mine.txt", "w").write("mine")
        print(json.dumps(out))
        """,
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert "written" not in out.values(), out
    assert (world["private"] / "mine.txt").read_text() == "mine"
    assert (world["course"] / "gradebook.db").read_text() == "roster and grades"
    assert sorted(p.name for p in world["home"].iterdir()) == [".ssh"]


def test_cannot_reach_the_network(world):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    hits = []
    threading.Thread(target=lambda: hits.append(server.accept()), daemon=True).start()
    r = inside(
        world,
        f"""
        import socket
        for host, port in (("127.0.0.1", {port}), ("1.1.1.1", 53), ("pypi.org", 443)):
            try:
                socket.create_connection((host, port), timeout=3)
                print("reached", host)
            except OSError as e:
                print("blocked", host, type(e).__name__)
        """,
    )
    server.close()
    assert r.returncode == 0, r.stderr
    assert "reached" not in r.stdout and r.stdout.count("blocked") == 3, r.stdout
    assert not hits


def test_cannot_outlive_the_run(world):
    r = inside(
        world,
        """
        import subprocess, sys
        code = (
            "import os, time\\n"
            "for i in range(600):\\n"
            "    open('/submission/heartbeat', 'w').write(str(i))\\n"
            "    time.sleep(0.05)\\n"
        )
        subprocess.Popen([sys.executable, "-c", code], start_new_session=True,  # setsid
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import os, time
        for _ in range(400):  # until the child runs (slow to start on a loaded machine)
            if os.path.exists("/submission/heartbeat"):
                break
            time.sleep(0.05)
        print("parent exits")
        """,
    )
    assert r.returncode == 0, r.stderr
    beat = world["private"] / "heartbeat"
    assert beat.exists(), "the detached child never ran"
    first = beat.read_text()
    time.sleep(0.6)
    assert beat.read_text() == first, "a detached process outlived the sandbox"
    if os.geteuid() == 0:
        assert r.uid is not None and sandbox._pids_of(r.uid) == []


def test_limits_memory_processes_cpu_and_file_size(world):
    limits = sandbox.Limits(cpu_seconds=2, processes=16, file_bytes=2**20, wall_seconds=60)
    r = inside(
        world,
        """
        import os, subprocess, sys
        try:
            b = bytearray(8 * 2**30)
            print("memory: allocated")
        except MemoryError:
            print("memory: refused")
        kids = []
        try:
            for _ in range(64):
                kids.append(subprocess.Popen(["/bin/sleep", "5"]))
            print("processes: all started")
        except OSError:
            print(f"processes: refused after {len(kids)}")
        for k in kids:
            k.kill()
        try:
            with open("/submission/big", "wb") as fh:
                fh.write(b"x" * 2**22)
            print("file: written")
        except OSError:
            print("file: refused")
        sys.stdout.flush()
        while True:
            pass
        """,
        limits=limits,
    )
    assert "memory: refused" in r.stdout, r.stdout + r.stderr
    assert "processes: refused" in r.stdout, r.stdout
    assert "file: refused" in r.stdout or (world["private"] / "big").stat().st_size <= 2**20
    assert r.returncode != 0 and not r.timed_out and r.seconds < 30  # killed by the CPU limit


def test_wall_clock_timeout_kills_a_sleeper(world):
    r = inside(world, "import time\ntime.sleep(60)\n", limits=sandbox.Limits(wall_seconds=2))
    assert r.timed_out and r.seconds < 10


def test_fails_closed_without_bwrap(world, monkeypatch):
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    with pytest.raises(sandbox.SandboxUnavailableError, match="apt-get install -y bubblewrap"):
        inside(world, "print('ran')")
    assert not (world["private"] / "ran").exists()


def test_unsafe_flag_runs_without_the_sandbox_and_says_so(world, capsys):
    r = inside(world, "import os\nprint(os.getcwd())\n", unsafe=True)
    assert r.stdout.strip() == str(world["private"]) and not r.sandboxed
    assert "UNSAFE" in capsys.readouterr().err


def test_runs_at_the_same_time_never_share_a_user_id(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("started as an ordinary user, every run has that user's id")
    from concurrent.futures import ThreadPoolExecutor

    def one(i):
        d = tmp_path / f"p{i}"
        d.mkdir()
        (d / "probe.py").write_text("import os, time\nprint(os.getuid())\ntime.sleep(1)\n")
        return sandbox.run(d, [sys.executable, "/submission/probe.py"], slot=0)

    with ThreadPoolExecutor(3) as pool:
        results = list(pool.map(one, range(3)))
    uids = [int(r.stdout.strip()) for r in results]
    assert len(set(uids)) == 3 and uids == [r.uid for r in results]
