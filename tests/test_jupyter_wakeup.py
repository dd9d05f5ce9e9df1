"""tools/jupyter_wakeup.py: Jupyter's asyncio client never sleeps through a waiting message.

The bug (nbclient issue 312): on a busy machine the client's poll is not woken although the
kernel's reply already sits on the socket; it wakes only when the poll times out, i.e. after the
cell timeout. The fake socket below behaves exactly so: a poll wakes at its timeout, never when
the message comes. The patched get_msg must still return it within a slice or two.
"""

from __future__ import annotations

import asyncio
import importlib.util
import subprocess
import sys
import time
from pathlib import Path
from queue import Empty

import pytest

pytestmark = pytest.mark.toolchain

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location(
    "jupyter_wakeup", ROOT / "tools" / "jupyter_wakeup.py"
)
wakeup = importlib.util.module_from_spec(spec)
spec.loader.exec_module(wakeup)


class DeafSocket:
    """A socket whose poll never hears a message arrive: it looks only when its timeout ends."""

    def __init__(self, arrives_after: float | None):
        self.t0 = time.monotonic()
        self.arrives_after = arrives_after

    def _waiting(self) -> bool:
        a = self.arrives_after
        return a is not None and time.monotonic() - self.t0 >= a

    async def poll(self, timeout_ms):
        await asyncio.sleep(timeout_ms / 1000)
        return 1 if self._waiting() else 0


class Channel:
    """The part of jupyter_client's AsyncZMQSocketChannel that get_msg uses."""

    def __init__(self, socket):
        self.socket = socket

    async def get_msg(self, timeout=None):  # jupyter_client's own: one poll for the whole wait
        ready = await self.socket.poll(None if timeout is None else int(timeout * 1000))
        if ready:
            return await self._recv()
        raise Empty

    async def _recv(self):
        return {"msg_type": "execute_reply"}


def patched_channel_class():
    module = type(sys)("fake_channels")
    module.AsyncZMQSocketChannel = type("AsyncZMQSocketChannel", (Channel,), {})
    wakeup.patch(module)
    return module.AsyncZMQSocketChannel


def test_a_waiting_message_is_found_within_a_slice_not_at_the_timeout():
    cls = patched_channel_class()
    channel = cls(DeafSocket(arrives_after=0.2))
    start = time.monotonic()
    msg = asyncio.run(channel.get_msg(timeout=30))
    took = time.monotonic() - start
    assert msg["msg_type"] == "execute_reply"
    # A fixed bound, not one computed from SLICE: a patch that waits 30 s in one poll must fail.
    assert took < 5, f"the client slept {took:.1f} s through a waiting message"


def test_the_unpatched_client_sleeps_until_its_timeout():
    # The same fake, unpatched: this is the 300 s stall, here with a 2 s timeout.
    channel = Channel(DeafSocket(arrives_after=0.2))
    start = time.monotonic()
    asyncio.run(channel.get_msg(timeout=2))
    assert time.monotonic() - start >= 1.9


def test_the_caller_timeout_still_holds():
    cls = patched_channel_class()
    channel = cls(DeafSocket(arrives_after=None))
    start = time.monotonic()
    with pytest.raises(Empty):
        asyncio.run(channel.get_msg(timeout=1.5))
    took = time.monotonic() - start
    assert 1.4 <= took < 5, took


def test_the_patch_is_active_in_the_course_environment():
    # .venv gets the module and its .pth from the Makefile: a fresh interpreter, which imports
    # jupyter_client the way nbval and nbclient do, has the bounded get_msg.
    code = (
        "import jupyter_client.channels as c; "
        "print(getattr(c.AsyncZMQSocketChannel.get_msg, '_kappa_sliced', False))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True", (
        "jupyter_client is not patched in this environment: run `make venv` "
        "(tools/jupyter_wakeup.py --install)"
    )
