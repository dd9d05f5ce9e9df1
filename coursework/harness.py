"""Inside the sandbox: run one submission's cells and write its answers as plain data.

This script runs in the sandbox (coursework/sandbox.py) next to the student's code, so it is
no more trusted than that code: whatever it writes, the scorer validates as hostile data. It
decides nothing. It reads ``request.json`` from the private copy:

* ``cells``: the code to run, in order (the grader's setup with the submitter's id, then the
  student's cells);
* ``values``: the names whose values the questions ask for;
* ``calls``: for each function the questions ask for, the argument lists the grader chose at
  grading time (tables as ``{"array": nested lists, "dtype": "int" | "float"}``).

It runs the cells in an IPython shell (as in Jupyter: hooks and magics work), then writes
``answers.json``: each value and each call's result converted to plain JSON (numbers, nested
lists with their shape, strings, ``null``), or the error it raised, and each cell's error.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from fractions import Fraction

MAX_ITEMS = 200_000  # numbers in one answer; more is refused as too large
REQUEST, ANSWERS = "request.json", "answers.json"
CELL_SECONDS, CALL_SECONDS = 20, 5  # so that one stuck cell or call costs only its own part


class OutOfTime(Exception):  # noqa: N818  (the message a student sees: "OutOfTime: ...")
    pass


def _alarm(signum, frame):
    raise OutOfTime("took too long")


def timed(seconds, f, *args):
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return f(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def encode(x, depth=0):
    import numpy as np

    if x is None or isinstance(x, bool) or isinstance(x, str):
        return x if not isinstance(x, str) else x[:2000]
    if isinstance(x, int | float | Fraction | np.integer | np.floating):
        try:
            return float(x)
        except (OverflowError, ValueError, TypeError):
            return {"unsupported": type(x).__name__}
    if isinstance(x, np.bool_):
        return bool(x)
    try:
        arr = np.asarray(x.to_numpy() if hasattr(x, "to_numpy") else x)
    except Exception:
        return {"unsupported": type(x).__name__}
    if arr.size > MAX_ITEMS:
        return {"too_large": int(arr.size)}
    if arr.dtype.kind in "biuf":
        return {"array": arr.astype(float).tolist(), "shape": list(arr.shape)}
    if arr.dtype.kind in "OU" and arr.ndim <= 2 and depth == 0:
        items = [encode(v, 1) for v in arr.ravel().tolist()]
        if all(isinstance(v, float) for v in items):
            return {
                "array": np.asarray(items).reshape(arr.shape).tolist(),
                "shape": list(arr.shape),
            }
        if arr.ndim == 1 and all(isinstance(v, str | float) for v in items):
            return {"list": items}
    return {"unsupported": type(x).__name__}


def decode(arg, ns):
    """An argument: a table, a plain value, or the result of the student's own function
    (``{"call": [name, [args]]}``), so that a later part can build on an earlier answer."""
    import numpy as np

    if isinstance(arg, dict) and "array" in arg:
        return np.array(arg["array"], dtype=int if arg.get("dtype") == "int" else float)
    if isinstance(arg, dict) and "call" in arg:
        name, args = arg["call"]
        return ns[name](*[decode(a, ns) for a in args])
    return arg


def error_text(err: BaseException) -> str:
    return f"{type(err).__name__}: {err}"[:300]


def main() -> int:
    with open(REQUEST) as fh:
        request = json.load(fh)
    os.remove(REQUEST)  # the student's code has no need to read what is asked
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    signal.signal(signal.SIGALRM, _alarm)
    cell_errors = []
    for i, source in enumerate(request["cells"]):
        try:
            result = timed(CELL_SECONDS, shell.run_cell, source, True)
            err = result.error_in_exec or result.error_before_exec
        except BaseException as e:
            err = e
        if err is not None:
            cell_errors.append({"cell": i, "error": error_text(err)})
    ns = shell.user_ns
    answers = {"values": {}, "calls": {}, "cell_errors": cell_errors}
    for name in request["values"]:
        answers["values"][name] = encode(ns[name]) if name in ns else {"missing": True}
    for name, arglists in request["calls"].items():
        f = ns.get(name)
        out = []
        stuck = None
        for args in arglists:
            if not callable(f):
                out.append({"missing": True})
                continue
            if stuck is not None:  # once out of time, not again: the CPU limit is for all
                out.append({"error": stuck})
                continue
            try:
                out.append(
                    encode(timed(CALL_SECONDS, lambda a=args, g=f: g(*[decode(x, ns) for x in a])))
                )
            except BaseException as e:
                out.append({"error": error_text(e)})
                if isinstance(e, OutOfTime):
                    stuck = error_text(e)
        answers["calls"][name] = out
    sys.stdout.flush()
    with open(ANSWERS, "w") as fh:
        json.dump(answers, fh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
