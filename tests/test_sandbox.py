"""The grading sandbox (coursework/sandbox.py) proves its walls from inside.

A script runs in the sandbox, next to a fake course directory (a gradebook, another student's
submission) and a fake home directory with a planted secret, all outside it. From inside it
must not read them, write anywhere but its private copy, reach a TCP server listening on the
host's loopback or the outside world, or outlive the run. The walls of issue 32:

* no user namespace (``unshare -Urm`` fails), and the seccomp filter refuses what it lists,
  with the errno it lists (calls an unprivileged process may otherwise make: ptrace, keyctl,
  unshare, personality, clone3, an AF_PACKET socket);
* the cgroup caps memory and processes *across* processes, and CPU time of all of them;
* the private copy's size is capped (a tmpfs), and the output files by the file size limit;
* a leased user id is one no process on the host has, and the clean-up kills only the run's;
* a run starved by a busy host is told apart from a sleeper and from a run that spends its
  own CPU quota.

Without bwrap these tests skip, except under CI (``CI=true``), where they fail.
"""

import errno
import json
import os
import shutil
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "coursework"))

import sandbox  # noqa: E402
import seccomp_filter  # noqa: E402

pytestmark = [pytest.mark.toolchain, pytest.mark.sandbox]

if shutil.which("bwrap") is None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(sandbox.INSTALL, pytrace=False)
    pytest.skip(f"bwrap is not installed. {sandbox.INSTALL}", allow_module_level=True)

SECRET = "s3cret-planted-in-the-instructors-home"
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="leased user ids are for runs as root")


@pytest.fixture
def world(tmp_path):
    course = tmp_path / "course"
    (course / "submitted" / "other" / "ps1").mkdir(parents=True)
    (course / "gradebook.db").write_text("roster and grades")
    (course / "submitted" / "other" / "ps1" / "ps1.ipynb").write_text("{}")
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text(SECRET)
    return {"course": course, "home": home}


def inside(script: str, limits=sandbox.Limits(wall_seconds=60), outputs=(), **kw):  # noqa: B008
    return sandbox.run(
        [sys.executable, "/submission/probe.py"],
        inputs={"probe.py": textwrap.dedent(script).encode()},
        outputs=outputs,
        limits=limits,
        **kw,
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
        f"""
        import json, os
        seen = {{p: os.path.exists(p) for p in {[str(p) for p in paths]!r}}}
        print(json.dumps(seen))
        """
    )
    assert r.returncode == 0, r.stderr
    seen = json.loads(r.stdout)
    assert not any(seen.values()), seen
    assert SECRET not in r.stdout + r.stderr


def test_cannot_write_outside_its_copy(world):
    targets = ["/x", "/usr/x", sys.prefix + "/x", "/tmp/x", "/dev/shm/x",
               str(world["course"] / "gradebook.db"), str(world["home"] / "x")]  # fmt: skip
    r = inside(
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
        outputs=("mine.txt",),
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert "written" not in out.values(), out
    assert r.outputs["mine.txt"] == b"mine"
    assert (world["course"] / "gradebook.db").read_text() == "roster and grades"
    assert sorted(p.name for p in world["home"].iterdir()) == [".ssh"]


def test_cannot_reach_the_network():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    hits = []
    threading.Thread(target=lambda: hits.append(server.accept()), daemon=True).start()
    r = inside(
        f"""
        import socket
        for host, port in (("127.0.0.1", {port}), ("1.1.1.1", 53), ("pypi.org", 443)):
            try:
                socket.create_connection((host, port), timeout=3)
                print("reached", host)
            except OSError as e:
                print("blocked", host, type(e).__name__)
        """
    )
    server.close()
    assert r.returncode == 0, r.stderr
    assert "reached" not in r.stdout and r.stdout.count("blocked") == 3, r.stdout
    assert not hits


def test_cannot_outlive_the_run():
    r = inside(
        """
        import subprocess, sys
        code = (
            "import os, time\\n"
            "for i in range(600):\\n"
            "    open('/submission/heartbeat', 'w').write(str(os.getpid()))\\n"
            "    time.sleep(0.05)\\n"
        )
        subprocess.Popen([sys.executable, "-I", "-S", "-c", code], start_new_session=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # setsid
        import os, time
        for _ in range(2000):  # until the child runs (slow to start on a loaded machine)
            if os.path.getsize("/submission/heartbeat"):
                break
            time.sleep(0.05)
        print("parent exits")
        """,
        outputs=("heartbeat",),
        limits=sandbox.Limits(wall_seconds=150),
    )
    assert r.returncode == 0, r.stderr
    assert r.outputs["heartbeat"], "the detached child never ran"
    if os.geteuid() == 0:  # no process of the run's user id is left on the host
        assert r.uid is not None and not sandbox.uid_in_use(r.uid)


def test_no_user_namespace_and_no_tmpfs_of_its_own():
    r = inside(
        """
        import ctypes, os, subprocess
        done = subprocess.run(["unshare", "-Urm", "sh", "-c",
                               "mount -t tmpfs -o size=2g none /mnt && echo mounted"],
                              capture_output=True, text=True)
        print("unshare", done.returncode, done.stdout.strip(), done.stderr.strip()[:100])
        libc = ctypes.CDLL(None, use_errno=True)
        print("unshare(CLONE_NEWUSER)", libc.unshare(0x10000000), ctypes.get_errno())
        """
    )
    assert r.returncode == 0, r.stderr
    assert "mounted" not in r.stdout
    assert "unshare 1" in r.stdout and "Operation not permitted" in r.stdout, r.stdout
    assert f"unshare(CLONE_NEWUSER) -1 {errno.EPERM}" in r.stdout, r.stdout


def test_the_seccomp_filter_refuses_what_it_lists():
    """Each call is made with harmless arguments; the errno is the filter's own (EPERM for
    calls that an unprivileged process may otherwise make, ENOSYS and EAFNOSUPPORT where the
    kernel alone would say something else)."""
    import pyseccomp

    arch = pyseccomp.system_arch()
    nr = {name: pyseccomp.resolve_syscall(arch, name) for name in (
        "ptrace", "keyctl", "unshare", "personality", "clone3", "io_uring_setup", "mount",
        "bpf", "userfaultfd", "perf_event_open", "setns", "open_tree", "fsopen",
    )}  # fmt: skip
    expected = dict(seccomp_filter.DENIED) | {"personality": errno.EPERM}
    r = inside(
        f"""
        import ctypes, json, socket
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        nr = {nr!r}
        args = {{"ptrace": (0, 0, 0, 0),            # PTRACE_TRACEME: allowed without a filter
                 "keyctl": (0, -3, 0, 0),           # KEYCTL_GET_KEYRING_ID of the session
                 "unshare": (0x10000000, 0, 0, 0),  # CLONE_NEWUSER
                 "personality": (0x0008, 0, 0, 0),  # PER_BSD
                 "clone3": (0, 0, 0, 0), "io_uring_setup": (1, 0, 0, 0),
                 "mount": (0, 0, 0, 0), "bpf": (0, 0, 0, 0), "userfaultfd": (0, 0, 0, 0),
                 "perf_event_open": (0, 0, -1, -1), "setns": (-1, 0, 0, 0),
                 "open_tree": (-100, 0, 0, 0), "fsopen": (0, 0, 0, 0)}}
        out = {{}}
        for name, n in nr.items():
            ctypes.set_errno(0)
            rc = libc.syscall(n, *[ctypes.c_long(a) for a in args[name]])
            out[name] = [rc, ctypes.get_errno()]
        try:
            socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
            out["AF_PACKET"] = [0, 0]
        except OSError as e:
            out["AF_PACKET"] = [-1, e.errno]
        status = open("/proc/self/status").read()
        out["Seccomp"] = [l.split()[1] for l in status.splitlines() if l.startswith("Seccomp:")]
        print(json.dumps(out))
        """
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out.pop("Seccomp") == ["2"]  # a filter is loaded
    assert out.pop("AF_PACKET") == [-1, errno.EAFNOSUPPORT]
    for name, (rc, err) in out.items():
        assert rc == -1 and err == expected[name], (name, rc, err)


def test_a_call_of_another_abi_kills_the_process():
    # x32 call numbers (bit 30) on x86_64: libseccomp's filter kills the caller (SIGSYS).
    if os.uname().machine != "x86_64":
        pytest.skip("the x32 ABI exists on x86_64 only")
    r = inside(
        """
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        print("before", flush=True)
        libc.syscall(0x40000000 | 39)  # getpid, x32
        print("after")
        """
    )
    assert "before" in r.stdout and "after" not in r.stdout, r.stdout
    assert r.returncode in (-31, 128 + 31, 159), r.returncode  # SIGSYS


def test_the_cgroup_caps_memory_across_processes():
    limits = sandbox.Limits(memory_bytes=384 * 2**20, wall_seconds=60)
    r = inside(
        """
        import os, time
        for _ in range(3):  # three processes of 200 MiB each: 600 MiB, each under any rlimit
            if os.fork() == 0:
                b = bytearray(200 * 2**20)
                b[::4096] = b"x" * len(b[::4096])
                time.sleep(30)
                os._exit(0)
        time.sleep(30)
        """,
        limits=limits,
    )
    assert r.limit == "memory", (r.limit, r.stdout, r.stderr)
    assert 200 * 2**20 < r.memory_peak <= limits.memory_bytes
    assert r.seconds < 30  # stopped at the limit, not at the end of the sleep


def test_the_cgroup_caps_processes_across_processes():
    limits = sandbox.Limits(processes=24, wall_seconds=60)
    r = inside(
        """
        import os, subprocess, time
        kids = []
        try:
            for _ in range(64):
                kids.append(subprocess.Popen(["/bin/sleep", "30"]))
            print("processes: all started")
        except OSError:
            print(f"processes: refused after {len(kids)}", flush=True)
        time.sleep(30)
        """,
        limits=limits,
    )
    assert "all started" not in r.stdout
    assert r.limit == "processes" and r.seconds < 30, (r.limit, r.stdout, r.stderr)


def test_the_cgroup_caps_cpu_time_of_all_processes_together():
    limits = sandbox.Limits(cpu_seconds=3, cores=2.0, wall_seconds=120)
    r = inside(
        """
        import os
        for _ in range(3):
            if os.fork() == 0:
                break
        while True:
            pass
        """,
        limits=limits,
    )
    assert r.limit == "cpu", (r.limit, r.cpu_seconds, r.seconds)
    assert 3 <= r.cpu_seconds < 10


def test_the_private_copy_and_the_outputs_are_capped_in_size():
    limits = sandbox.Limits(tmpfs_bytes=16 * 2**20, file_bytes=8 * 2**20, wall_seconds=60)
    r = inside(
        """
        def fill(path, n):
            written = 0
            try:
                with open(path, "wb") as fh:
                    for _ in range(n):
                        fh.write(b"x" * 2**20)
                        fh.flush()
                        written += 2**20
            except OSError as e:
                return written, e.errno
            return written, 0
        # four files of at most 8 MiB each (the file size limit) into a 16 MiB copy
        copy = [fill(f"/submission/big{i}", 8) for i in range(4)]
        print("copy:", sum(w for w, _ in copy) // 2**20, [e for _, e in copy])
        print("output:", fill("/submission/out", 100))
        """,
        limits=limits,
        outputs=("out",),
    )
    assert r.returncode == 0, r.stderr
    copy = next(line for line in r.stdout.splitlines() if line.startswith("copy:"))
    assert int(copy.split()[1]) <= 16 and str(errno.ENOSPC) in copy, copy
    assert f"output: ({8 * 2**20}, {errno.EFBIG})" in r.stdout, r.stdout
    assert r.outputs["out"] is not None and len(r.outputs["out"]) == 8 * 2**20


def test_wall_clock_timeout_stops_a_sleeper_and_says_it_was_waiting():
    limits = sandbox.Limits(wall_seconds=3)
    r = inside("import time\ntime.sleep(60)\n", limits=limits)
    assert r.timed_out and r.limit == "time" and r.seconds < 20
    assert not r.host_busy and "waiting rather than computing" in r.describe_limit(limits)


def test_a_run_starved_by_a_busy_host_is_told_apart():
    """Three busy loops and the run share one core (all pinned to it): the run waits for the
    CPU most of its time, and the result says the host was busy, not the submission slow."""
    cpu = min(os.sched_getaffinity(0))
    mine = os.sched_getaffinity(0)
    loops = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                f"import os; os.sched_setaffinity(0, {{{cpu}}}); print('spinning', flush=True)\n"
                "while True: pass",
            ],
            stdout=subprocess.PIPE,
            text=True,
            # A session each: with the kernel's autogroup on, the loops of one session would
            # share one scheduling group and, together, only match the run's cgroup (the run
            # got half the core, not a quarter, and the test failed in CI).
            start_new_session=True,
        )
        for _ in range(3)
    ]
    try:
        # Each loop is pinned and spinning before the run starts: on a loaded host a Python
        # takes a second or more to start, and the run would have had the core to itself.
        for p in loops:
            assert p.stdout is not None and p.stdout.readline() == "spinning\n"
        os.sched_setaffinity(0, {cpu})  # the run's processes inherit it
        r = inside(
            "import time\nend = time.process_time() + 30\nwhile time.process_time() < end: pass\n",
            limits=sandbox.Limits(wall_seconds=8),
        )
    finally:
        os.sched_setaffinity(0, mine)
        for p in loops:
            p.kill()
            p.wait()
    assert r.limit == "time" and r.host_busy, (r.cpu_seconds, r.wait_seconds, r.seconds)


@as_root
def test_a_user_id_in_use_is_not_leased_and_its_process_survives():
    busy = sandbox.FIRST_UID
    outsider = subprocess.Popen(["/usr/bin/setpriv", f"--reuid={busy}", f"--regid={busy}",
                                 "--clear-groups", "/bin/sleep", "60"])  # fmt: skip
    try:
        for _ in range(100):
            if sandbox.uid_in_use(busy):
                break
            time.sleep(0.05)
        assert sandbox.uid_in_use(busy)
        r = inside("import os\nprint(os.getuid())\n", slot=0)
        assert int(r.stdout) != busy and r.uid != busy
        assert outsider.poll() is None, "the clean-up killed a process the run did not start"
    finally:
        outsider.kill()
        outsider.wait()


def test_fails_closed_without_bwrap(monkeypatch):
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    with pytest.raises(sandbox.SandboxUnavailableError, match="apt-get install -y bubblewrap"):
        inside("print('ran')")


def test_unsafe_flag_runs_without_the_sandbox_and_says_so(capsys):
    r = inside("import os\nprint(os.getcwd())\n", unsafe=True)
    assert r.stdout.strip() != "/submission" and not r.sandboxed
    assert "UNSAFE" in capsys.readouterr().err


@as_root
def test_runs_at_the_same_time_never_share_a_user_id():
    from concurrent.futures import ThreadPoolExecutor

    def one(i):
        return inside("import os, time\nprint(os.getuid())\ntime.sleep(1)\n", slot=0)

    with ThreadPoolExecutor(3) as pool:
        results = list(pool.map(one, range(3)))
    uids = [int(r.stdout.strip()) for r in results]
    assert len(set(uids)) == 3 and uids == [r.uid for r in results]


def test_cgroup_v2_is_set_up_in_a_delegated_tree(tmp_path, monkeypatch):
    """cgroup v2 (an instructor's machine) on a fake hierarchy: the controllers are enabled
    below the grader's own cgroup, the limits written, the run's processes listed."""
    import cgroup

    base = tmp_path / "user.slice" / "grader.scope"
    base.mkdir(parents=True)
    (tmp_path / "cgroup.controllers").write_text("cpu memory pids\n")
    (base / "cgroup.subtree_control").write_text("")
    (base / "cgroup.procs").write_text("")
    mounts = [("cgroup2", tmp_path, "/", {"rw"})]
    monkeypatch.setattr(cgroup, "_mounts", lambda: mounts)
    monkeypatch.setattr(cgroup, "_own_paths", lambda: {"": "/user.slice/grader.scope"})
    real_mkdir = Path.mkdir

    def mkdir(self, *a, **k):  # a cgroupfs makes the interface files itself
        real_mkdir(self, *a, **k)
        for f in ("memory.max", "memory.swap.max", "pids.max", "cpu.max", "cgroup.procs"):
            (self / f).write_text("")

    monkeypatch.setattr(Path, "mkdir", mkdir)
    cg = cgroup.RunCgroup(2**30, 64, 1.0).create()
    d = cg.dirs[""]
    assert (base / "cgroup.subtree_control").read_text() == "+memory +pids +cpu"
    assert (d / "memory.max").read_text() == str(2**30)
    assert (d / "memory.swap.max").read_text() == "0"
    assert (d / "pids.max").read_text() == "64" and (d / "cpu.max").read_text() == "100000 100000"
    assert cg.procs_files() == [d / "cgroup.procs"]
    (d / "cpu.stat").write_text("usage_usec 2500000\nuser_usec 2000000\n")
    (d / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n")
    (d / "memory.peak").write_text(str(2**29))
    (d / "pids.events").write_text("max 0\n")
    u = cg.usage()
    assert (u.cpu_seconds, u.oom_kills, u.memory_peak, u.pids_refused) == (2.5, 1, 2**29, 0)
