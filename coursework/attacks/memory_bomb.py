"""Four processes, each holding 700 MiB: 2.8 GiB in all, above the whole submission's cap."""

import os
import time

children = []
for _ in range(3):
    pid = os.fork()
    if pid == 0:
        block = bytearray(700 * 2**20)
        block[::4096] = b"x" * len(block[::4096])  # touch every page
        time.sleep(60)
        os._exit(0)
    children.append(pid)
mine = bytearray(700 * 2**20)
mine[::4096] = b"x" * len(mine[::4096])
for pid in children:
    os.waitpid(pid, 0)
