"""Run one step of one student's grading in a child process, bounded in time and memory.

The trusted side must be total: reading a notebook, scoring its answers, auditing its code
handle data that a student controls, and one student's file must never stop the class
(PrairieLearn's external grader turns any failure while grading one submission into that
submission's result, "grading failed" with the reason, and goes on with the queue). So each
such step runs in a child process forked from a server that has the grader's modules loaded
(``multiprocessing``'s forkserver: a few milliseconds per step), with

* a time limit (``seconds``): past it the child is killed;
* an address-space limit (``memory_bytes``) and Python's recursion limit;
* every exception, a ``RecursionError``, a ``MemoryError``, a crash of the interpreter,
  caught and turned into a ``StepFailed`` that names the step and the reason.

The grader records that as the student's status ("grader error: <step>: <reason>") and goes on.
"""

from __future__ import annotations

import multiprocessing
import resource
import traceback
from multiprocessing.connection import Connection

DEFAULT_SECONDS = 60.0
DEFAULT_MEMORY = 4 * 2**30
_context = None


class StepFailed(Exception):  # noqa: N818  (it reads as the status: "the step failed: ...")
    """One step of one student's grading failed; ``str()`` is the reason, in one line."""

    def __init__(self, step: str, reason: str):
        super().__init__(f"{step}: {reason}")
        self.step, self.reason = step, reason


def preload(modules: list[str]) -> None:
    """Modules the server imports once, so that each step starts with them loaded."""
    global _context
    _context = multiprocessing.get_context("forkserver")
    _context.set_forkserver_preload(modules)


def _child(conn: Connection, memory_bytes: int, fn, args) -> None:
    try:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        result = ("ok", fn(*args))
    except BaseException as err:
        where = traceback.extract_tb(err.__traceback__)[-1:] if err.__traceback__ else []
        at = f" (at {where[0].name}, line {where[0].lineno})" if where else ""
        result = ("error", f"{type(err).__name__}: {str(err)[:200]}{at}")
    try:
        conn.send(result)
    except BaseException as err:
        conn.send(("error", f"its result could not be returned ({type(err).__name__})"))
    conn.close()


def call(step: str, fn, *args, seconds: float = DEFAULT_SECONDS,
         memory_bytes: int = DEFAULT_MEMORY):  # fmt: skip
    """``fn(*args)`` in a child process; its result, or ``StepFailed(step, reason)``.

    `fn` and `args` must be picklable (a module-level function, plain data)."""
    ctx = _context or multiprocessing.get_context("forkserver")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, memory_bytes, fn, args), daemon=True)
    proc.start()
    child.close()
    try:
        if not parent.poll(seconds):
            raise StepFailed(step, f"it took more than {seconds:g} s")
        try:
            status, value = parent.recv()
        except (EOFError, OSError):
            proc.join(5)
            raise StepFailed(step, f"the worker died (exit code {proc.exitcode})") from None
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        parent.close()
    if status != "ok":
        raise StepFailed(step, value)
    return value
