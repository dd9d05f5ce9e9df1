"""The sandbox's system-call filter, built with libseccomp the way Flatpak builds its own.

bubblewrap loads it (``bwrap --seccomp FD``) just before the student's harness starts, so it
holds for every process of the run. It is Flatpak's list (``flatpak-run.c``,
``setup_seccomp``: the calls a sandboxed application never needs, most of them a history of
kernel bugs), with the same answers (``EPERM``; ``ENOSYS`` for ``clone3`` and the new mount
API, so that the C library falls back to calls whose flags the filter can read), plus a few
more that a notebook never needs (io_uring, bpf, userfaultfd, module and kexec calls):

* no new namespaces of any kind: ``unshare``, ``setns``, ``clone`` with a ``CLONE_NEW*`` flag,
  ``clone3``: so no user namespace, and no tmpfs that the limits would not see;
* no mounts (``mount``, ``umount2``, ``pivot_root``, ``chroot``, the new mount API);
* no tracing or reading another process (``ptrace``, ``process_vm_readv``/``writev``,
  ``perf_event_open``), no kernel keyring, no ``bpf``, no kernel modules;
* sockets only of the families unix, inet, inet6 and netlink (the sandbox has no network
  anyway; the kernel and its client talk over the loopback).

A call of another architecture (a 32-bit ``int 0x80``, or an x32 call number) kills the process:
libseccomp's default for an architecture the filter was not built for.

Needs ``libseccomp`` (Debian's ``libseccomp2``, present on every Debian and Ubuntu) through
``pyseccomp`` (PyPI; the same API as Debian's ``python3-seccomp``, which works too).
"""

from __future__ import annotations

import errno
import os
import socket

CLONE_NEW = {
    "CLONE_NEWNS": 0x00020000,
    "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000,
    "CLONE_NEWUSER": 0x10000000,
    "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
    "CLONE_NEWTIME": 0x00000080,
}
TIOCSTI, TIOCLINUX = 0x5412, 0x541C
DENIED = [  # (call, errno): refused outright
    *[(c, errno.EPERM) for c in (
        "syslog", "uselib", "acct", "modify_ldt", "quotactl",
        "add_key", "keyctl", "request_key",
        "move_pages", "mbind", "get_mempolicy", "set_mempolicy", "migrate_pages",
        "unshare", "setns", "mount", "umount2", "pivot_root", "chroot",
        "perf_event_open", "ptrace", "process_vm_readv", "process_vm_writev",
        "bpf", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
        "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
        "reboot", "swapon", "swapoff", "open_by_handle_at", "name_to_handle_at",
        "lookup_dcookie", "vhangup", "settimeofday", "clock_settime", "clock_adjtime",
        "adjtimex", "iopl", "ioperm", "kcmp", "fanotify_init",
    )],
    *[(c, errno.ENOSYS) for c in (
        "clone3", "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick",
        "mount_setattr",
    )],
]  # fmt: skip
SOCKET_FAMILIES = (socket.AF_UNSPEC, socket.AF_UNIX, socket.AF_INET, socket.AF_INET6,
                   socket.AF_NETLINK)  # fmt: skip
PER_LINUX = 0  # the one personality allowed (as in Flatpak)


class SeccompUnavailableError(RuntimeError):
    """libseccomp (through pyseccomp or python3-seccomp) cannot be loaded."""


def _library():
    try:
        import pyseccomp as seccomp
    except ImportError:
        try:
            import seccomp  # Debian's python3-seccomp
        except ImportError as err:
            raise SeccompUnavailableError(
                "The grading sandbox's system-call filter needs libseccomp through the Python "
                "package pyseccomp (requirements-coursework.txt) or Debian's python3-seccomp."
            ) from err
    return seccomp


def build():
    """The filter as a libseccomp object (``export_bpf`` writes the program bwrap loads)."""
    seccomp = _library()
    try:
        f = seccomp.SyscallFilter(seccomp.ALLOW)
    except OSError as err:  # libseccomp.so.2 itself is missing
        raise SeccompUnavailableError(f"libseccomp could not be loaded: {err}") from err
    for call, code in DENIED:
        try:
            f.add_rule(seccomp.ERRNO(code), call)
        except (OSError, ValueError, RuntimeError):
            pass  # not a call of this architecture
    for flag in CLONE_NEW.values():
        f.add_rule(seccomp.ERRNO(errno.EPERM), "clone",
                   seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))  # fmt: skip
    for request in (TIOCSTI, TIOCLINUX):
        f.add_rule(seccomp.ERRNO(errno.EPERM), "ioctl",
                   seccomp.Arg(1, seccomp.MASKED_EQ, 0xFFFFFFFF, request))  # fmt: skip
    f.add_rule(seccomp.ERRNO(errno.EPERM), "personality",
               seccomp.Arg(0, seccomp.NE, PER_LINUX))  # fmt: skip
    allowed = sorted(SOCKET_FAMILIES)
    for family in range(allowed[-1] + 1):
        if family not in allowed:
            f.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), "socket",
                       seccomp.Arg(0, seccomp.EQ, family))  # fmt: skip
    f.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), "socket",
               seccomp.Arg(0, seccomp.GE, allowed[-1] + 1))  # fmt: skip
    return f


_program: bytes | None = None


def program() -> bytes:
    """The compiled BPF program (built once per process)."""
    global _program
    if _program is None:
        fd = os.memfd_create("kappa-seccomp")
        with os.fdopen(fd, "w+b") as fh:
            build().export_bpf(fh)
            fh.flush()
            fh.seek(0)
            _program = fh.read()
    return _program


def program_fd() -> int:
    """A fresh readable fd holding the program, for ``bwrap --seccomp FD`` (which reads it)."""
    fd = os.memfd_create("kappa-seccomp")
    os.write(fd, program())
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
