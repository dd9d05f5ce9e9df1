"""Run untrusted code in a Linux sandbox built with bubblewrap (``bwrap``), or refuse.

A run sees, read-only, only what Python needs (``/usr``, the Python installation, the course
environment and kappalib's package), and, writable, only a private copy of the submission
(``/submission``). It has:

* no network (``--unshare-all`` gives it its own, empty network namespace);
* no view of the course directory, the gradebook, other submissions, the source notebooks or
  any home directory (nothing else is mounted; ``HOME`` is the private copy);
* limits on CPU time, address space, processes, open files and file size (``prlimit`` sets
  them before ``bwrap`` starts), a wall-clock timeout, and stdout/stderr kept to a bounded size;
* its own PID namespace: when the run ends, its first process exits and the kernel kills every
  process left in the namespace, a detached ``setsid`` child too (``--die-with-parent`` covers
  a grader that is killed). Started as root, ``bwrap`` switches the run to an unused
  unprivileged user id with no capability (``setpriv``), so that the process limit counts the
  run's processes only, and every process of that id is killed after the run.

It fails closed: when ``bwrap`` is missing or cannot start, ``SandboxUnavailableError`` says how to
install it. Only ``unsafe=True`` (the ``--UNSAFE-no-sandbox`` flag of the grader) runs without
it, with a warning.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

INSTALL = (
    "The grading sandbox needs bubblewrap: install it with "
    "`sudo apt-get update && sudo apt-get install -y bubblewrap` (Debian/Ubuntu; "
    "`dnf install bubblewrap` on Fedora), or grade inside a Linux container or VM "
    "(see book/for_instructors.md)."
)
INSIDE = "/submission"  # where the private copy appears inside the sandbox
FIRST_UID = 61000  # unprivileged user ids for runs started as root: one per run at a time,
UIDS = 64  # leased with a lock file, so that parallel graders (and tests) never share one


class SandboxUnavailableError(RuntimeError):
    """bubblewrap is missing or cannot create the sandbox on this machine."""


@dataclass(frozen=True)
class Limits:
    cpu_seconds: int = 60
    memory_bytes: int = 3 * 2**30  # address space; numpy and IPython need about 1 GiB
    processes: int = 32
    file_bytes: int = 16 * 2**20  # any one file the run writes, stdout and stderr included
    open_files: int = 256
    wall_seconds: float = 120.0
    output_chars: int = 200_000  # of stdout and of stderr kept for the caller


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool
    seconds: float
    sandboxed: bool
    uid: int | None = None  # the user id the run had (started as root)


def _readonly_paths() -> list[Path]:
    """What Python needs to run: the interpreter's installation, the environment, kappalib."""
    paths = {Path(sys.base_prefix).resolve(), Path(sys.prefix).resolve()}
    try:
        import kappalib

        paths.add(Path(kappalib.__file__).resolve().parent)
    except ImportError:
        pass
    out = []
    for p in sorted(paths):
        if p == Path("/usr") or Path("/usr") in p.parents:
            continue  # inside /usr, which is mounted anyway
        out.append(p)
    return out


def bwrap_argv(
    private: Path, argv: list[str], *, extra_ro: tuple[Path, ...] = (), uid: int | None = None
) -> list[str]:
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxUnavailableError(INSTALL)
    if uid is None:
        cmd = [bwrap, "--unshare-all", "--die-with-parent", "--new-session"]
    else:  # as root, --unshare-all would map root only, and no other user id could run inside
        cmd = [bwrap, "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts"]
        cmd += ["--unshare-cgroup-try", "--die-with-parent", "--new-session"]
    cmd += ["--hostname", "sandbox", "--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/lib", "/lib64", "/sbin"):
        p = Path(top)
        if p.is_symlink():
            cmd += ["--symlink", os.readlink(p), top]
        elif p.is_dir():
            cmd += ["--ro-bind", top, top]
    made: set[Path] = set()
    for p in [*_readonly_paths(), *extra_ro]:
        for parent in reversed(p.parents[:-1]):  # bwrap would make them 0700: unreadable
            if parent not in made and parent != Path("/usr"):
                cmd += ["--perms", "0755", "--dir", str(parent)]
                made.add(parent)
        cmd += ["--ro-bind", str(p), str(p)]
    cmd += ["--proc", "/proc", "--dev", "/dev", "--bind", str(private), INSIDE, "--chdir", INSIDE]
    cmd += ["--remount-ro", "/"]
    env = {
        "HOME": INSIDE,
        "PATH": f"{Path(sys.prefix) / 'bin'}:/usr/bin:/bin",
        "TMPDIR": f"{INSIDE}/.tmp",
        "MPLBACKEND": "Agg",
        "MPLCONFIGDIR": f"{INSIDE}/.tmp",
        "IPYTHONDIR": f"{INSIDE}/.tmp/ipython",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        "LANG": "C.UTF-8",
    }
    cmd.append("--clearenv")
    for k, v in env.items():
        cmd += ["--setenv", k, v]
    if uid is None:  # unprivileged bwrap: a user namespace, every capability dropped
        return [*cmd, "--cap-drop", "ALL", "--", *argv]
    # bwrap started as root: inside, drop to an unused user id with no capability at all.
    setpriv = ["/usr/bin/setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
    setpriv += ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]
    return [*cmd, "--", *setpriv, *argv]


def _prlimit(limits: Limits, nproc: int) -> list[str]:
    prlimit = shutil.which("prlimit")
    if prlimit is None:
        raise SandboxUnavailableError("The grading sandbox needs prlimit (Debian: util-linux).")
    return [
        prlimit,
        f"--cpu={limits.cpu_seconds}",
        f"--as={limits.memory_bytes}",
        f"--nproc={nproc}",
        f"--fsize={limits.file_bytes}",
        f"--nofile={limits.open_files}",
        "--core=0",
        "--",
    ]


def _pids_of(uid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if d.stat().st_uid == uid:
                    out.append(int(d.name))
            except OSError:
                pass
    return out


def _chown_tree(root: Path, uid: int) -> None:
    os.chown(root, uid, uid)
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            os.chown(os.path.join(dirpath, name), uid, uid, follow_symlinks=False)


def _tail(path: Path, n: int) -> str:
    with open(path, "rb") as fh:
        data = fh.read(n + 1)
    text = data[:n].decode("utf-8", "replace")
    return text + ("\n[output cut]" if len(data) > n else "")


def run(
    private: Path,
    argv: list[str],
    *,
    limits: Limits = Limits(),
    unsafe: bool = False,
    slot: int = 0,
    extra_ro: tuple[Path, ...] = (),
) -> Result:
    """Run `argv` inside the sandbox with `private` (a scratch copy) as its only writable place.

    `argv` names paths as the sandbox sees them: the private copy is ``/submission``.
    """
    if os.geteuid() == 0 and not unsafe:
        with _lease_uid(slot) as uid:
            return _run(private, argv, limits, unsafe, uid, extra_ro)
    return _run(private, argv, limits, unsafe, None, extra_ro)


@contextlib.contextmanager
def _lease_uid(start: int):
    """An unused user id for one run: the first of FIRST_UID ... whose lock file is free."""
    for k in range(UIDS):
        uid = FIRST_UID + (start + k) % UIDS
        path = Path(tempfile.gettempdir()) / f"kappa-sandbox-uid-{uid}.lock"
        fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        try:
            yield uid
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
        return
    raise SandboxUnavailableError(f"all {UIDS} sandbox user ids are in use; grade fewer at once")


def _run(private, argv, limits, unsafe, uid, extra_ro) -> Result:
    private = Path(private).resolve()
    (private / ".tmp").mkdir(exist_ok=True)
    as_root = uid is not None
    if unsafe:
        print(
            "WARNING: --UNSAFE-no-sandbox: the student's code runs with YOUR permissions, "
            "network and files.",
            file=sys.stderr,
        )
        inside = [a.replace(INSIDE, str(private)) for a in argv]
        cmd, kwargs = inside, {}
        nproc = len(_pids_of(os.geteuid())) + limits.processes
        cmd = _prlimit(limits, nproc) + cmd
    else:
        cmd = bwrap_argv(private, argv, extra_ro=extra_ro, uid=uid if as_root else None)
        kwargs = {}
        if as_root:
            _chown_tree(private, uid)
            nproc = limits.processes
        else:
            kwargs = {}
            nproc = len(_pids_of(os.geteuid())) + limits.processes
        cmd = _prlimit(limits, nproc) + cmd
    with tempfile.TemporaryDirectory(prefix="sandbox-out-") as tmp:
        out_path, err_path = Path(tmp) / "stdout", Path(tmp) / "stderr"
        started = time.perf_counter()
        timed_out = False
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            proc = subprocess.Popen(
                cmd,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                cwd=private if unsafe else "/",
                env=os.environ.copy() if unsafe else {"PATH": "/usr/bin:/bin"},
                start_new_session=True,
                umask=0o022,  # the folders bwrap makes for its mount points: readable
                **kwargs,
            )
            try:
                proc.wait(timeout=limits.wall_seconds)
            except subprocess.TimeoutExpired:
                timed_out = True
            finally:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
                proc.wait()
        if not unsafe and as_root:
            for _ in range(50):  # the namespace is torn down with its first process
                left = _pids_of(uid)
                if not left:
                    break
                for pid in left:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
                time.sleep(0.02)
            _chown_tree(private, os.geteuid())
        seconds = time.perf_counter() - started
        stdout = _tail(out_path, limits.output_chars)
        stderr = _tail(err_path, limits.output_chars)
    if not unsafe and proc.returncode != 0 and stderr.startswith("bwrap:"):
        raise SandboxUnavailableError(f"{stderr.strip().splitlines()[0]}. {INSTALL}")
    return Result(proc.returncode, stdout, stderr, timed_out, seconds, not unsafe, uid)


def check_available() -> None:
    """Start an empty sandbox once; raise SandboxUnavailableError (how to install) if it fails."""
    if sys.platform != "linux":
        raise SandboxUnavailableError(INSTALL)
    with tempfile.TemporaryDirectory(prefix="sandbox-check-") as tmp:
        try:
            r = run(Path(tmp), ["/usr/bin/env", "true"], limits=Limits(wall_seconds=30))
        except (OSError, SandboxUnavailableError) as err:
            raise SandboxUnavailableError(f"{err}" if INSTALL in str(err) else INSTALL) from err
        if r.returncode != 0:
            raise SandboxUnavailableError(
                f"bwrap could not start ({r.stderr.strip()[:200]}). {INSTALL}"
            )
