"""1,500 nested directories in the private copy (once enough to crash the grader's clean-up)."""

import os

for _ in range(1500):
    os.mkdir("d")
    os.chdir("d")
