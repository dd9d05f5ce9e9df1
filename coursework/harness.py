"""Inside the sandbox: run one submission's cells in a real Jupyter kernel, write its answers.

This script runs in the sandbox (coursework/sandbox.py) next to the student's code, so it is
no more trusted than that code: whatever it writes, the scorer validates as hostile data. It
decides nothing. It reads ``request.json`` from the private copy:

* ``cells``: the code to run, in order (the grader's setup with the submitter's id, then the
  student's cells);
* ``values``: the names whose values the questions ask for;
* ``calls``: for each function the questions ask for, the argument lists the grader chose at
  grading time (tables as ``{"array": nested lists, "dtype": "int" | "float"}``).

As nbgrader and Otter do, the cells run in an IPython kernel (ipykernel, started and driven by
jupyter_client, the protocol that Jupyter and nbclient speak), so magics (``%matplotlib
inline``, ``%%time``), display
calls and rich output behave as they did for the student. A cell that raises does not stop the
next ones (a definition further down still counts); a cell that runs longer than
``CELL_SECONDS`` is interrupted, as the student would interrupt it. Then one collector cell per
function (and one for the values) converts the answers to plain JSON in the kernel: numbers,
nested lists with their shape, strings, ``null``, or the error a call raised; each call has
``CALL_SECONDS``. The harness writes ``answers.json``: those answers, each cell's error, and the
cells that ran out of time.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from fractions import Fraction

MAX_ITEMS = 200_000  # numbers in one answer; more is refused as too large
MAX_TEXT = 2000  # characters of a string answer
REQUEST, ANSWERS = "request.json", "answers.json"
CELL_SECONDS, CALL_SECONDS = 30, 5  # one stuck cell or call costs only its own part
START_SECONDS = 60  # for the kernel to start
MIME = "application/x-kappa-answers+json"


class OutOfTime(Exception):  # noqa: N818  (the message a student sees: "OutOfTime: ...")
    pass


def _alarm(signum, frame):
    raise OutOfTime("took too long")


def timed(seconds, f, *args):
    """f(*args), cut off after `seconds` where a timer can be set (the main thread)."""
    try:
        signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    except ValueError:  # not the main thread: the cell's own timeout still holds
        return f(*args)
    try:
        return f(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def encode(x, depth=0):
    """A value as plain JSON data: a number, a string, None, ``{"array", "shape"}``,
    ``{"list"}`` of strings, or ``{"unsupported"}`` / ``{"too_large"}``."""
    import numpy as np

    if x is None or isinstance(x, bool):
        return x
    if isinstance(x, str):  # np.str_ too
        return str(x)[:MAX_TEXT]
    if isinstance(x, np.bool_):
        return bool(x)
    if isinstance(x, int | float | Fraction | np.integer | np.floating):
        try:
            return float(x)
        except (OverflowError, ValueError, TypeError):
            return {"unsupported": type(x).__name__}
    try:
        arr = np.asarray(x.to_numpy() if hasattr(x, "to_numpy") else x)
    except Exception:
        return {"unsupported": type(x).__name__}
    if arr.size > MAX_ITEMS:
        return {"too_large": int(arr.size)}
    if arr.dtype.kind in "biuf":
        return {"array": arr.astype(float).tolist(), "shape": list(arr.shape)}
    if arr.dtype.kind == "U" and arr.ndim == 0:  # np.where(ka > kb, "a", "b")
        return str(arr.item())[:MAX_TEXT]
    if arr.dtype.kind in "OU" and arr.ndim <= 2 and depth == 0:
        items = [encode(v, 1) for v in arr.ravel().tolist()]
        if all(isinstance(v, float) for v in items):
            return {
                "array": np.asarray(items).reshape(arr.shape).tolist(),
                "shape": list(arr.shape),
            }
        if arr.ndim == 0 and isinstance(items[0], str):
            return items[0]
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


# ------------------------------------------------------------ run in the kernel (collectors)


def _publish(payload: dict) -> None:
    from IPython.display import publish_display_data

    publish_display_data({MIME: json.loads(json.dumps(payload))})


def collect_values(ns: dict, names: list[str]) -> None:
    _publish({"values": {n: encode(ns[n]) if n in ns else {"missing": True} for n in names}})


def collect_calls(ns: dict, name: str, arglists: list) -> None:
    f, out, stuck = ns.get(name), [], None
    for args in arglists:
        if not callable(f):
            out.append({"missing": True})
            continue
        if stuck is not None:  # once out of time, not again: the CPU limit is for all
            out.append({"error": stuck})
            continue
        try:
            out.append(encode(timed(CALL_SECONDS, lambda a=args: f(*[decode(x, ns) for x in a]))))
        except BaseException as e:
            out.append({"error": error_text(e)})
            if isinstance(e, OutOfTime):
                stuck = error_text(e)
    _publish({"calls": {name: out}})


def _collector(call: str) -> str:
    """A cell that loads this file as a module in the kernel and runs one collector."""
    return (
        "def _kappa_collect():\n"
        "    import importlib.util\n"
        f"    spec = importlib.util.spec_from_file_location('_kappa_harness', {__file__!r})\n"
        "    module = importlib.util.module_from_spec(spec)\n"
        "    spec.loader.exec_module(module)\n"
        f"    module.{call}\n"
        "_kappa_collect()\n"
        "del _kappa_collect\n"
    )


# ------------------------------------------------------------ the harness (outside the kernel)


def execute(km, kc, code: str, seconds: float) -> tuple[list[dict], str]:
    """Run `code` in the kernel as Jupyter does: (its output messages, "done", "interrupted"
    or "stuck").

    Past `seconds` the kernel is interrupted (as the student would), and given a few seconds
    more to answer; a kernel that still does not answer is left behind (the cell is lost).
    """
    import queue
    import time

    msg_id = kc.execute(code, store_history=True, allow_stdin=False)
    outputs, interrupted = [], False
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            if interrupted:
                return outputs, "stuck"
            km.interrupt_kernel()
            interrupted, deadline = True, time.monotonic() + 10
            continue
        try:
            msg = kc.get_iopub_msg(timeout=min(left, 1.0))
        except queue.Empty:
            if not km.is_alive():
                raise RuntimeError("the kernel died") from None
            continue
        if msg.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "status" and content.get("execution_state") == "idle":
            break
        if kind in ("error", "display_data", "execute_result"):
            outputs.append({"output_type": kind, **content})
    return outputs, "interrupted" if interrupted else "done"


def main() -> int:
    with open(REQUEST) as fh:
        request = json.load(fh)
    os.remove(REQUEST)  # the student's code has no need to read what is asked
    from jupyter_client.manager import start_new_kernel

    for d in ("JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):
        if os.environ.get(d):
            os.makedirs(os.environ[d], exist_ok=True)
    cells = list(request["cells"])
    n_student = len(cells)
    cells.append(_collector(f"collect_values(get_ipython().user_ns, {request['values']!r})"))
    for name, arglists in request["calls"].items():
        cells.append(_collector(f"collect_calls(get_ipython().user_ns, {name!r}, {arglists!r})"))
    answers: dict = {"values": {}, "calls": {}, "cell_errors": [], "timeouts": []}
    km = None
    try:
        km, kc = start_new_kernel(kernel_name="python3", startup_timeout=START_SECONDS,
                                  cwd=os.getcwd())  # fmt: skip
        for i, code in enumerate(cells):
            try:
                outputs, state = execute(km, kc, code, CELL_SECONDS)
            except RuntimeError as err:
                answers["kernel"] = f"the kernel died in cell {i} ({error_text(err)})"
                break
            if state == "stuck":
                answers["timeouts"].append(i)
                answers["kernel"] = (f"cell {i} ran longer than {CELL_SECONDS} s and could not be "
                                     "interrupted")  # fmt: skip
                break
            interrupted = state == "interrupted"
            if interrupted:
                answers["timeouts"].append(i)
            for out in outputs:
                if out["output_type"] == "error" and i < n_student:
                    text = f"{out.get('ename')}: {out.get('evalue')}"[:300]
                    if interrupted and out.get("ename") == "KeyboardInterrupt":
                        text = f"the cell ran longer than {CELL_SECONDS} s and was interrupted"
                    answers["cell_errors"].append({"cell": i, "error": text})
                got = out.get("data", {}).get(MIME) if i >= n_student else None
                if isinstance(got, dict):
                    for key in ("values", "calls"):
                        if isinstance(got.get(key), dict):
                            answers[key].update(got[key])
            if interrupted and not outputs and i < n_student:
                answers["cell_errors"].append(
                    {"cell": i, "error": f"the cell ran longer than {CELL_SECONDS} s"}
                )
    except Exception as err:  # the kernel did not start, or the client failed
        answers["kernel"] = f"the kernel failed: {error_text(err)}"
    with open(ANSWERS, "w") as fh:
        json.dump(answers, fh)
    if km is not None:
        km.shutdown_kernel(now=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
