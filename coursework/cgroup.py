"""One control group per sandbox run: memory, processes and CPU of the whole submission.

A per-process rlimit is a floor, not a wall: three processes of 3 GiB each held 9 GiB. As
IOI's ``isolate`` and Google's nsjail do, every process of one run goes into a cgroup of its
own, created below the grader's own cgroup (so that any limit the machine puts on the grader
still holds), and the cgroup carries the limits:

* ``memory``: all the run's processes together, its tmpfs (the private copy) included; swap
  is not allowed either (``memory.memsw`` / ``memory.swap.max``);
* ``pids``: processes *and threads* together (a fork bomb stops there);
* ``cpu``: at most ``cores`` of CPU at any moment (CFS quota), and the CPU time of all
  processes together (``cpuacct.usage`` / ``cpu.stat``), which the sandbox reads to stop a
  run that has used its share.

Both hierarchies are supported: cgroup v1 (a hierarchy per controller, as on these machines,
writable as root) and cgroup v2 (one unified hierarchy, the default of current distributions).
On v2 an ordinary user needs a delegated subtree: ``systemd-run --user --scope -p
Delegate=yes make grade ...``; as root in a container it works as it is. The cleanup kills the
processes *in the cgroup*, that is, exactly what the run started, and removes the cgroup.
"""

from __future__ import annotations

import itertools
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

NEEDED_V1 = ("memory", "pids", "cpu", "cpuacct")
NEEDED_V2 = ("memory", "pids", "cpu")
_serial = itertools.count()


class CgroupUnavailableError(RuntimeError):
    """No cgroup with the memory, pids and cpu controllers can be made here."""


HOW = (
    "Grading limits each submission as a whole through a cgroup. Run make grade as root (in a "
    "container or VM is fine), or, as an ordinary user on a systemd machine (cgroup v2), as "
    "`systemd-run --user --scope -p Delegate=yes make grade ...`."
)


@dataclass
class Usage:
    cpu_seconds: float = 0.0
    memory_peak: int = 0  # bytes, all processes and the tmpfs together
    oom_kills: int = 0  # processes the kernel killed at the memory limit
    pids_refused: int = 0  # forks refused at the process limit


def _mounts() -> list[tuple[str, Path, str, set[str]]]:
    """(fstype, mount point, root inside the hierarchy, options) of each cgroup mount."""
    out = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(tail) >= 3 and tail[0] in ("cgroup", "cgroup2"):
            out.append((tail[0], Path(fields[4]), fields[3], set(tail[2].split(","))))
    return out


def _own_paths() -> dict[str, str]:
    """The grader's own cgroup path per v1 controller, and under "" for v2."""
    out = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for c in controllers.split(",") if controllers else [""]:
            out[c] = path
    return out


def _below(mount: Path, root: str, path: str) -> Path:
    rel = os.path.relpath(path, root) if path.startswith(root) else path.lstrip("/")
    return (mount / rel).resolve() if rel != "." else mount


def _write(path: Path, text: str) -> None:
    with open(path, "w") as fh:
        fh.write(text)


def _read_int(path: Path, default: int = 0) -> int:
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return default


def _keyed(path: Path) -> dict[str, int]:
    out = {}
    try:
        for line in path.read_text().splitlines():
            k, _, v = line.partition(" ")
            if v.strip().lstrip("-").isdigit():
                out[k] = int(v)
    except OSError:
        pass
    return out


def version() -> int | None:
    """1 or 2: the hierarchy that holds the memory controller here (None: none usable)."""
    mounts = _mounts()
    if any(t == "cgroup" and "memory" in opts for t, _, _, opts in mounts):
        return 1
    for t, mount, _, _ in mounts:
        if t == "cgroup2":
            try:
                if "memory" in (mount / "cgroup.controllers").read_text().split():
                    return 2
            except OSError:
                pass
    return None


class RunCgroup:
    """The cgroup of one run: ``create()``, start the run inside it (``procs_files``), read its
    ``usage()`` and ``cpu_seconds()``, ``kill()`` what is left and ``remove()`` it."""

    def __init__(self, memory_bytes: int, pids: int, cores: float):
        self.memory_bytes, self.pids, self.cores = memory_bytes, pids, cores
        self.version = version()
        self.dirs: dict[str, Path] = {}  # controller (v1) or "" (v2) -> directory
        self.name = f"kappa-sandbox-{os.getpid()}-{next(_serial)}"

    # -- setting up
    def create(self) -> RunCgroup:
        try:
            if self.version == 1:
                self._create_v1()
            elif self.version == 2:
                self._create_v2()
            else:
                raise CgroupUnavailableError(f"no cgroup memory controller is mounted. {HOW}")
        except OSError as err:
            self.remove()
            raise CgroupUnavailableError(
                f"could not make a cgroup ({type(err).__name__}: {err}). {HOW}"
            ) from err
        return self

    def _create_v1(self) -> None:
        own = _own_paths()
        for controller in NEEDED_V1:
            found = [(m, r) for t, m, r, o in _mounts() if t == "cgroup" and controller in o]
            if not found:
                raise CgroupUnavailableError(f"the cgroup v1 {controller} controller is missing")
            mount, root = found[0]
            base = _below(mount, root, own.get(controller, "/"))
            d = base / self.name
            if d in self.dirs.values():  # cpu and cpuacct mounted together
                self.dirs[controller] = d
                continue
            d.mkdir()
            self.dirs[controller] = d
        mem = self.dirs["memory"]
        _write(mem / "memory.limit_in_bytes", str(self.memory_bytes))
        if (mem / "memory.memsw.limit_in_bytes").exists():
            try:
                _write(mem / "memory.memsw.limit_in_bytes", str(self.memory_bytes))
            except OSError:
                pass  # swap accounting off: there is no swap to limit
        _write(self.dirs["pids"] / "pids.max", str(self.pids))
        period = 100_000
        _write(self.dirs["cpu"] / "cpu.cfs_period_us", str(period))
        _write(self.dirs["cpu"] / "cpu.cfs_quota_us", str(int(period * self.cores)))

    def _create_v2(self) -> None:
        mount = next(m for t, m, _, _ in _mounts() if t == "cgroup2")
        base = _below(mount, "/", _own_paths().get("", "/"))
        enabled = set((base / "cgroup.subtree_control").read_text().split())
        missing = [c for c in NEEDED_V2 if c not in enabled]
        if missing:
            try:
                _write(base / "cgroup.subtree_control", " ".join(f"+{c}" for c in missing))
            except OSError:
                # The "no internal processes" rule: move the processes of our own cgroup into
                # a leaf of it (as nsjail does), then enable the controllers for its children.
                leaf = base / "kappa-grader"
                leaf.mkdir(exist_ok=True)
                for pid in (base / "cgroup.procs").read_text().split():
                    try:
                        _write(leaf / "cgroup.procs", pid)
                    except OSError:
                        pass
                _write(base / "cgroup.subtree_control", " ".join(f"+{c}" for c in missing))
        d = base / self.name
        d.mkdir()
        self.dirs[""] = d
        _write(d / "memory.max", str(self.memory_bytes))
        if (d / "memory.swap.max").exists():
            _write(d / "memory.swap.max", "0")
        _write(d / "pids.max", str(self.pids))
        _write(d / "cpu.max", f"{int(100_000 * self.cores)} 100000")

    def procs_files(self) -> list[Path]:
        """The files a process writes its pid to, to enter the cgroup (before anything runs)."""
        return sorted({d / "cgroup.procs" for d in self.dirs.values()})

    # -- reading
    def _dir(self, controller: str) -> Path:
        return self.dirs.get(controller) or self.dirs[""]

    def cpu_seconds(self) -> float:
        if self.version == 1:
            return _read_int(self._dir("cpuacct") / "cpuacct.usage") / 1e9
        return _keyed(self._dir("") / "cpu.stat").get("usage_usec", 0) / 1e6

    def tasks(self) -> list[int]:
        """Every thread of the run (for its run-queue wait, /proc/<tid>/schedstat)."""
        name = "tasks" if self.version == 1 else "cgroup.threads"
        try:
            return [int(t) for t in (self._dir("pids") / name).read_text().split()]
        except (OSError, ValueError, KeyError):
            return []

    def usage(self) -> Usage:
        u = Usage(cpu_seconds=self.cpu_seconds())
        if self.version == 1:
            mem = self._dir("memory")
            u.memory_peak = _read_int(mem / "memory.max_usage_in_bytes")
            u.oom_kills = _keyed(mem / "memory.oom_control").get("oom_kill", 0)
            if (
                not u.oom_kills
                and _read_int(mem / "memory.failcnt")
                and (u.memory_peak >= self.memory_bytes - 2**20)
            ):
                u.oom_kills = 1
        else:
            d = self._dir("")
            u.memory_peak = _read_int(d / "memory.peak", _read_int(d / "memory.current"))
            u.oom_kills = _keyed(d / "memory.events").get("oom_kill", 0)
        u.pids_refused = _keyed(self._dir("pids") / "pids.events").get("max", 0)
        return u

    # -- ending
    def procs(self) -> list[int]:
        try:
            return [int(p) for p in (self._dir("pids") / "cgroup.procs").read_text().split()]
        except (OSError, ValueError, KeyError):
            return []

    def kill(self, deadline: float = 10.0) -> None:
        """SIGKILL every process in the cgroup, until it is empty (only what the run started)."""
        if not self.dirs:
            return
        kill_file = self._dir("pids") / "cgroup.kill"
        if self.version == 2 and kill_file.exists():
            try:
                _write(kill_file, "1")
            except OSError:
                pass
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            left = self.procs()
            if not left:
                return
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            time.sleep(0.02)

    def remove(self) -> None:
        for d in sorted(set(self.dirs.values()), reverse=True):
            for _ in range(100):
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)  # the last processes are still being torn down
        self.dirs = {}
