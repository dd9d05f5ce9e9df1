"""Bounded waits for Jupyter's asyncio client: a missed socket wake-up costs a second, not a cell.

The bug this works around (nbclient issue 312, open): on a busy machine the asyncio client of
``jupyter_client`` sometimes does not wake up when a message is already waiting on its socket.
The kernel has answered and sits idle (its TCP queues are empty), and the client sleeps until its
poll times out: for ``execute_reply`` that is the cell timeout (300 s here), so a 5 s chapter takes
305 s, or fails. Seen here in nbval, ``make chapter-times`` and the wheel check, with ipykernel 6
and 7 alike, at loads of 2 to 13 on two cores (py-spy: client and kernel both idle in epoll). A
poll that times out looks at the socket once more and finds the message, so the cure is to never
wait long in one poll: ``get_msg`` waits in slices of at most ``SLICE`` seconds until its own
timeout, which stays what the caller asked for.

Installed into an environment by ``python tools/jupyter_wakeup.py --install <python>``: a module
and a ``.pth`` file that imports it at start-up, and patches ``jupyter_client.channels`` only
when something imports it (a post-import hook; nothing else is imported or changed). The Makefile
does this for ``.venv``; ``tools/wheel_check.py`` for its Colab-like environment.
``KAPPA_WAKEUP_LOG=1`` prints a line to stderr each time a slice found a message that its poll
had not announced (how often the bug would have struck).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
import time

SLICE = 1.0  # seconds: the longest single poll
TARGET = "jupyter_client.channels"
MODULE = "kappa_jupyter_wakeup"


def patch(channels) -> None:
    """Replace the asyncio channel's get_msg by one that polls in bounded slices."""
    cls = channels.AsyncZMQSocketChannel
    if getattr(cls.get_msg, "_kappa_sliced", False):
        return
    from queue import Empty

    log = os.environ.get("KAPPA_WAKEUP_LOG")

    async def get_msg(self, timeout: float | None = None):
        assert self.socket is not None
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            step = SLICE if left is None else min(SLICE, left)
            start = time.monotonic()
            ready = await self.socket.poll(int(step * 1000))
            if ready:
                if log and step >= SLICE and time.monotonic() - start >= 0.98 * step:
                    print(
                        f"kappa_jupyter_wakeup: a message was waiting unannounced on {self!r}",
                        file=sys.stderr,
                        flush=True,
                    )
                return await self._recv()
            if deadline is not None and time.monotonic() >= deadline:
                raise Empty

    get_msg._kappa_sliced = True  # type: ignore[attr-defined]
    cls.get_msg = get_msg


class _AfterImport(importlib.abc.MetaPathFinder):
    """Patch jupyter_client.channels right after it is first imported."""

    def find_spec(self, fullname, path, target=None):
        if fullname != TARGET:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        exec_module = loader.exec_module

        def exec_and_patch(module):
            exec_module(module)
            patch(module)

        loader.exec_module = exec_and_patch  # type: ignore[method-assign]
        return spec


def activate() -> None:
    if TARGET in sys.modules:
        patch(sys.modules[TARGET])
    elif not any(isinstance(f, _AfterImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterImport())


def install(python: str):
    """Copy this module into ``python``'s site-packages, with a .pth file that activates it."""
    import shutil
    import subprocess
    from pathlib import Path

    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    target = Path(site)
    shutil.copyfile(__file__, target / f"{MODULE}.py")
    (target / f"{MODULE}.pth").write_text(f"import {MODULE}; {MODULE}.activate()\n")
    return target


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "--install":
        sys.exit(
            "usage: python tools/jupyter_wakeup.py --install <path to an environment's python>"
        )
    print(f"jupyter_wakeup: installed into {install(sys.argv[2])}")
