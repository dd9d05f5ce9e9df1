"""Write into the gradebook, another student's notebook, its own timestamp, and plant modules."""

import os

TARGETS = {}
for path, text in [
    (TARGETS.get("gradebook", ""), "corrupted"),
    (TARGETS.get("other", ""), "{}"),
    (TARGETS.get("timestamp", ""), "2026-12-01 00:00:00 UTC"),
    (os.path.join(TARGETS.get("other_dir", ""), "kappalib.py"), "kappa = None\n"),
    (os.path.join(TARGETS.get("course", ""), "kappalib.py"), "kappa = None\n"),
    (os.path.join(TARGETS.get("home", ""), "planted.txt"), "planted"),
]:
    try:
        with open(path, "w") as fh:
            fh.write(text)
    except OSError:
        pass
try:
    os.utime(TARGETS.get("timestamp", ""), (0, 0))
except OSError:
    pass
