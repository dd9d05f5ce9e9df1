"""Run untrusted code in a Linux sandbox built with bubblewrap (``bwrap``), or refuse.

The design is that of the graders that run untrusted code for a living (the IOI's ``isolate``,
nsjail, Flatpak's bubblewrap with a libseccomp filter, PrairieLearn's and Otter's container per
submission). A run sees, read-only, only what Python needs (``/usr``, the Python installation,
the course environment, kappalib), and, writable, only its private copy ``/submission``:

* **a private copy of bounded size:** a tmpfs of ``tmpfs_bytes`` (``bwrap --size``), holding the
  input files (copied in: ``--file``); its pages count in the run's memory. The only ways out
  are the output files named by the caller, each bound from the host and capped by the file
  size limit (stdout and stderr too). Nothing else the run writes survives it;
* **limits on the whole submission,** not per process: a cgroup per run (cgroup.py: memory with
  the tmpfs, processes and threads, CPU share and CPU time of all processes together), and the
  rlimits as a floor under it (address space, file size, open files, CPU per process);
* **a system-call filter** (seccomp_filter.py, Flatpak's list, built with libseccomp): no new
  namespace of any kind (so no user namespace, and no tmpfs the limits would not see), no
  mount, no ptrace, no keyring, no bpf. Run as an ordinary user, bwrap's own user namespace
  is also closed to further ones (``--disable-userns``);
* no network (its own, empty network namespace), no view of the course directory, the gradebook,
  other submissions or any home directory; its own PID namespace; ``--die-with-parent``.

Started as root, bwrap switches the run to a leased, unused, unprivileged user id with no
capability (``setpriv``); a user id is leased only when no process on the host has it, and
the cleanup kills the processes of the run's cgroup, that is, only what the run started.

The result says what stopped the run (``limit``: memory, processes, cpu, time), with the
cgroup's own counters, and whether the host was too busy to judge (``host_busy``: the run's
processes waited for a CPU for a large share of its time), so that the grader can regrade
instead of giving 0. It fails closed: when bwrap, the cgroup or libseccomp is missing,
``SandboxUnavailableError`` says what to install. Only ``unsafe=True`` (the grader's
``--UNSAFE-no-sandbox``) runs without it, with a warning.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pwd
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import cgroup
import seccomp_filter

INSTALL = (
    "The grading sandbox needs bubblewrap: install it with "
    "`sudo apt-get update && sudo apt-get install -y bubblewrap` (Debian/Ubuntu; "
    "`dnf install bubblewrap` on Fedora), or grade inside a Linux container or VM "
    "(see book/for_instructors.md)."
)
INSIDE = "/submission"  # the private copy, as the sandbox sees it
FIRST_UID = 61000  # unprivileged user ids for runs started as root: one per run at a time,
UIDS = 64  # leased with a lock file, and only when no process on the host has that id
BUSY_SHARE = 0.25  # a run whose processes waited this share of its time for a CPU: host busy


class SandboxUnavailableError(RuntimeError):
    """bubblewrap, the cgroup or the filter is missing or cannot be set up on this machine."""


@dataclass(frozen=True)
class Limits:
    cpu_seconds: float = 60.0  # CPU time of all the run's processes together (cgroup)
    memory_bytes: int = 1536 * 2**20  # all processes and the tmpfs together (cgroup)
    processes: int = 128  # processes and threads together (cgroup)
    cores: float = 1.0  # CPU at any moment (cgroup quota)
    tmpfs_bytes: int = 64 * 2**20  # the private copy
    file_bytes: int = 16 * 2**20  # any one file the run writes, stdout and stderr included
    address_space_bytes: int = 3 * 2**30  # per process: the rlimit floor under the cgroup
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
    outputs: dict[str, bytes | None] = field(default_factory=dict)  # None: missing/too large
    cpu_seconds: float = 0.0  # all processes together
    wait_seconds: float = 0.0  # the longest time one of its threads was ready but had no CPU
    memory_peak: int = 0
    limit: str | None = None  # "memory", "processes", "cpu" or "time": what stopped it
    host_busy: bool = False  # the run waited for a CPU a large share of its time

    def describe_limit(self, limits: Limits) -> str:
        return {
            "memory": f"it used more than {limits.memory_bytes / 2**30:.1f} GiB of memory, "
            "all its processes together",
            "processes": f"it started more than {limits.processes} processes or threads",
            "cpu": f"it used more than {limits.cpu_seconds:g} s of CPU time",
            "time": f"it ran out of time ({limits.wall_seconds:g} s)"
            + (
                ""
                if self.cpu_seconds > 0.5 * self.seconds
                else ", waiting rather than computing (sleep, input or a lock)"
            ),
        }.get(self.limit or "", "")


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
        if any(q in p.parents for q in paths if q != p and not str(q).startswith("/usr")):
            continue  # inside another one
        out.append(p)
    return out


def environment() -> dict[str, str]:
    return {
        "HOME": INSIDE,
        "PATH": f"{Path(sys.prefix) / 'bin'}:/usr/bin:/bin",
        "TMPDIR": f"{INSIDE}/.tmp",
        "MPLBACKEND": "Agg",
        "MPLCONFIGDIR": f"{INSIDE}/.tmp",
        "IPYTHONDIR": f"{INSIDE}/.tmp/ipython",
        "JUPYTER_RUNTIME_DIR": f"{INSIDE}/.tmp/jupyter",
        "JUPYTER_DATA_DIR": f"{INSIDE}/.tmp/jupyter-data",
        "JUPYTER_CONFIG_DIR": f"{INSIDE}/.tmp/jupyter-config",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        "LANG": "C.UTF-8",
    }


def bwrap_argv(
    argv: list[str],
    *,
    inputs: dict[str, int],
    outputs: dict[str, Path],
    seccomp_fd: int,
    limits: Limits,
    extra_ro: tuple[Path, ...] = (),
    uid: int | None = None,
) -> list[str]:
    """bwrap's command line. `inputs`: name -> fd to copy into the private copy; `outputs`:
    name -> host file bound at ``/submission/<name>``."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxUnavailableError(INSTALL)
    if uid is None:  # an ordinary user: bwrap's own user namespace, closed to further ones
        cmd = [bwrap, "--unshare-all", "--unshare-user", "--disable-userns"]
        cmd += ["--assert-userns-disabled", "--die-with-parent", "--new-session"]
    else:  # as root, --unshare-user would map the run to root: no user namespace at all
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
    cmd += ["--proc", "/proc", "--dev", "/dev"]
    cmd += ["--size", str(limits.tmpfs_bytes), "--perms", "0777", "--tmpfs", INSIDE]
    cmd += ["--perms", "0777", "--dir", f"{INSIDE}/.tmp"]
    for name, fd in inputs.items():
        cmd += ["--perms", "0644", "--file", str(fd), f"{INSIDE}/{name}"]
    for name, host in outputs.items():
        cmd += ["--bind", str(host), f"{INSIDE}/{name}"]
    cmd += ["--chdir", INSIDE, "--remount-ro", "/", "--seccomp", str(seccomp_fd)]
    cmd.append("--clearenv")
    for k, v in environment().items():
        cmd += ["--setenv", k, v]
    if uid is None:
        return [*cmd, "--cap-drop", "ALL", "--", *argv]
    # bwrap started as root: inside, drop to the leased user id with no capability at all.
    setpriv = ["/usr/bin/setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
    setpriv += ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]
    return [*cmd, "--", *setpriv, *argv]


def _prlimit(limits: Limits, nproc: int | None) -> list[str]:
    prlimit = shutil.which("prlimit")
    if prlimit is None:
        raise SandboxUnavailableError("The grading sandbox needs prlimit (Debian: util-linux).")
    out = [
        prlimit,
        f"--cpu={int(limits.cpu_seconds) + 5}",
        f"--as={limits.address_space_bytes}",
        f"--fsize={limits.file_bytes}",
        f"--nofile={limits.open_files}",
        "--core=0",
    ]
    if nproc is not None:
        out.append(f"--nproc={nproc}")
    return [*out, "--"]


def uid_in_use(uid: int) -> bool:
    """True when a process on the host has `uid` (real, effective, saved or filesystem), or
    the system knows it as a user."""
    try:
        pwd.getpwuid(uid)
        return True
    except KeyError:
        pass
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            for line in (d / "status").read_text().splitlines():
                if line.startswith("Uid:"):
                    if str(uid) in line.split()[1:]:
                        return True
                    break
        except OSError:
            pass
    return False


@contextlib.contextmanager
def _lease_uid(start: int):
    """An unused user id for one run: the first of FIRST_UID ... whose lock file is free and
    that no process on the host has."""
    for k in range(UIDS):
        uid = FIRST_UID + (start + k) % UIDS
        path = Path(tempfile.gettempdir()) / f"kappa-sandbox-uid-{uid}.lock"
        fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        if uid_in_use(uid):
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
            continue
        try:
            yield uid
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
        return
    raise SandboxUnavailableError(
        f"all {UIDS} sandbox user ids from {FIRST_UID} are in use; grade fewer at once"
    )


def _tail(path: Path, n: int) -> str:
    with open(path, "rb") as fh:
        data = fh.read(n + 1)
    text = data[:n].decode("utf-8", "replace")
    return text + ("\n[output cut]" if len(data) > n else "")


def _read_bounded(path: Path, n: int) -> bytes | None:
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > n:
            return None
        with open(path, "rb") as fh:
            return fh.read(n + 1)[:n]
    except OSError:
        return None


def _memfd(name: str, data: bytes) -> int:
    fd = os.memfd_create(name)
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def run(
    argv: list[str],
    *,
    inputs: dict[str, bytes] | None = None,
    outputs: tuple[str, ...] = (),
    limits: Limits = Limits(),
    unsafe: bool = False,
    slot: int = 0,
    extra_ro: tuple[Path, ...] = (),
) -> Result:
    """Run `argv` in the sandbox, with `inputs` (name -> content) in its private copy, and
    return the files named in `outputs` as they are when it ends (at most ``file_bytes`` each).

    `argv` names paths as the sandbox sees them: the private copy is ``/submission``.
    """
    inputs = inputs or {}
    for name in [*inputs, *outputs]:
        parts = name.split("/")
        if not ((len(parts) == 1 and not name.startswith(".")) or (len(parts) == 2
                and parts[0] == ".tmp" and parts[1] and not parts[1].startswith("."))):  # fmt: skip
            raise ValueError(f"a sandbox file must be a plain name or .tmp/<name>, got {name!r}")
    if unsafe:
        return _run_unsafe(argv, inputs, outputs, limits)
    if os.geteuid() == 0:
        with _lease_uid(slot) as uid:
            return _run(argv, inputs, outputs, limits, uid, extra_ro)
    return _run(argv, inputs, outputs, limits, None, extra_ro)


def _run_unsafe(argv, inputs, outputs, limits) -> Result:
    print(
        "WARNING: --UNSAFE-no-sandbox: the student's code runs with YOUR permissions, "
        "network and files.",
        file=sys.stderr,
    )
    with tempfile.TemporaryDirectory(prefix="unsafe-run-") as tmp:
        private = Path(tmp)
        (private / ".tmp").mkdir()
        for name, data in inputs.items():
            (private / name).write_bytes(data)
        for name in outputs:
            (private / name).touch()
        cmd = _prlimit(limits, None) + [a.replace(INSIDE, str(private)) for a in argv]
        env = os.environ.copy() | {
            k: v.replace(INSIDE, str(private)) for k, v in environment().items() if k != "PATH"
        }
        started = time.perf_counter()
        timed_out = False
        try:
            proc = subprocess.run(cmd, cwd=private, env=env, capture_output=True,
                                  timeout=limits.wall_seconds,
                                  stdin=subprocess.DEVNULL)  # fmt: skip
            rc, out, err = proc.returncode, proc.stdout, proc.stderr
        except subprocess.TimeoutExpired as exc:
            timed_out, rc, out, err = True, -9, exc.stdout or b"", exc.stderr or b""
        n = limits.output_chars
        return Result(
            rc, out[:n].decode("utf-8", "replace"), err[:n].decode("utf-8", "replace"),
            timed_out, time.perf_counter() - started, False, None,
            {name: _read_bounded(private / name, limits.file_bytes) for name in outputs},
            limit="time" if timed_out else None,
        )  # fmt: skip


def _wait_of(tids: list[int], seen: dict[int, int]) -> None:
    """The run-queue wait (ns) of each thread, from /proc/<tid>/schedstat, kept at its max."""
    for tid in tids:
        try:
            wait = int(Path(f"/proc/{tid}/schedstat").read_text().split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if wait > seen.get(tid, 0):
            seen[tid] = wait


def _run(argv, inputs, outputs, limits, uid, extra_ro) -> Result:
    try:
        cg = cgroup.RunCgroup(limits.memory_bytes, limits.processes, limits.cores).create()
    except cgroup.CgroupUnavailableError as err:
        raise SandboxUnavailableError(str(err)) from err
    fds: list[int] = []
    try:
        try:
            fds.append(seccomp_filter.program_fd())
        except seccomp_filter.SeccompUnavailableError as err:
            raise SandboxUnavailableError(str(err)) from err
        with tempfile.TemporaryDirectory(prefix="sandbox-") as tmp:
            host = Path(tmp)
            in_fds = {}
            for name, data in inputs.items():
                in_fds[name] = _memfd(name, data)
                fds.append(in_fds[name])
            out_files = {}
            for name in outputs:
                out_files[name] = host / f"out-{name}"
                out_files[name].touch(mode=0o600)
                if uid is not None:
                    os.chown(out_files[name], uid, uid)
            cmd = bwrap_argv(argv, inputs=in_fds, outputs=out_files, seccomp_fd=fds[0],
                             limits=limits, extra_ro=extra_ro, uid=uid)  # fmt: skip
            # Enter the cgroup first (a shell that writes its own pid), then the limits, bwrap.
            enter = "; ".join(f"echo $$ > {shlex.quote(str(p))}" for p in cg.procs_files())
            cmd = ["/bin/sh", "-c", f"{enter} && exec \"$@\"", "sh", *_prlimit(limits, None),
                   *cmd]  # fmt: skip
            result = _supervise(cmd, cg, limits, host, fds)
            result.uid = uid
            result.outputs = {
                name: _read_bounded(path, limits.file_bytes) for name, path in out_files.items()
            }
    finally:
        cg.kill()
        cg.remove()
        for fd in fds:
            with contextlib.suppress(OSError):
                os.close(fd)
    if result.returncode != 0 and result.stderr.startswith("bwrap:"):
        raise SandboxUnavailableError(f"{result.stderr.strip().splitlines()[0]}. {INSTALL}")
    return result


def _supervise(cmd, cg, limits, host, fds) -> Result:
    out_path, err_path = host / "stdout", host / "stderr"
    started = time.perf_counter()
    waits: dict[int, int] = {}
    limit = None
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            cwd="/",
            env={"PATH": "/usr/bin:/bin"},
            start_new_session=True,
            pass_fds=fds,
            umask=0o022,  # the folders bwrap makes for its mount points: readable
        )
        last_sample = 0.0
        while proc.poll() is None:
            time.sleep(0.05)
            now = time.perf_counter() - started
            if now - last_sample >= 0.25:
                _wait_of(cg.tasks(), waits)
                last_sample = now
            usage = cg.usage()  # a limit hit ends the run at once: no honest notebook hits one
            if usage.cpu_seconds > limits.cpu_seconds:
                limit = "cpu"
            elif usage.pids_refused:
                limit = "processes"
            elif usage.oom_kills:
                limit = "memory"
            elif now > limits.wall_seconds:
                limit = "time"
            if limit:
                _wait_of(cg.tasks(), waits)
                cg.kill()
                break
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        cg.kill()
    seconds = time.perf_counter() - started
    usage = cg.usage()
    if limit is None and usage.oom_kills:
        limit = "memory"
    elif limit is None and usage.pids_refused:
        limit = "processes"
    elif limit is None and proc.returncode in (-signal.SIGXCPU, 128 + signal.SIGXCPU):
        limit = "cpu"
    # The longest wait of one thread: the delay on the run's critical path (a sum over threads
    # would count the same busy moment once per thread that was ready to run).
    wait = max(waits.values(), default=0) / 1e9
    return Result(
        returncode=proc.returncode,
        stdout=_tail(out_path, limits.output_chars),
        stderr=_tail(err_path, limits.output_chars),
        timed_out=limit == "time",
        seconds=seconds,
        sandboxed=True,
        cpu_seconds=usage.cpu_seconds,
        wait_seconds=wait,
        memory_peak=usage.memory_peak,
        limit=limit,
        # Waiting for a CPU while using less than half its share of one: starved by the host
        # (a run that spends its whole quota waits too, throttled, but that is its own doing).
        host_busy=seconds >= 2
        and wait >= BUSY_SHARE * seconds
        and usage.cpu_seconds <= 0.5 * limits.cores * seconds,
    )


def check_available() -> None:
    """Start an empty sandbox once; raise SandboxUnavailableError (what to do) if it fails."""
    if sys.platform != "linux":
        raise SandboxUnavailableError(INSTALL)
    try:
        r = run(["/usr/bin/env", "true"], limits=Limits(wall_seconds=30))
    except OSError as err:
        raise SandboxUnavailableError(f"{err}. {INSTALL}") from err
    if r.returncode != 0:
        raise SandboxUnavailableError(
            f"bwrap could not start ({r.stderr.strip()[:200]}). {INSTALL}"
        )
