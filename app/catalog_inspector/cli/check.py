"""`check`: walk a live server like `snapshot` and compare its catalog with a baseline snapshot file.

`--deadline` covers the whole command: reading the baseline, the walk (it gets what is
left) and the comparison. Reading and comparing run on this thread, in Python, so a
wall-clock timer (SIGALRM) stops them where they stand when the time is up: one line on
stderr, nothing on stdout (the `--out` snapshot is written all the same), exit 4, kind
`timeout`, as a walk that runs out of time.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from catalog_inspector.cli.common import EXIT_CODES, UsageError, limits_of, spec_from, usage
from catalog_inspector.cli.diff import load_snapshot, report
from catalog_inspector.cli.snapshot import exit_code, say_why, walk, write_out
from catalog_inspector.core.drift import diff_snapshots

if TYPE_CHECKING:
    from sys import UnraisableHookArgs

T = TypeVar("T")

TIMER_REPEAT = 0.05  # seconds between further alarms once the time is up (see `within`)


class OutOfTime(BaseException):
    """The deadline ran out during `within`; a BaseException, so no `except Exception` on the way swallows it."""


def _expire(_signum: int, _frame: object) -> None:
    raise OutOfTime


def within(seconds: float, work: Callable[[], T]) -> T:
    """`work()`, stopped with `OutOfTime` once `seconds` have passed (wall clock, this thread).

    The alarm repeats after it first fires: a handler that happens to run inside a
    finalizer or a gc callback has its exception swallowed (quietly: the command's
    stderr stays one line), and the next one lands.
    Where no alarm can be set (not the main thread, no SIGALRM), `work` runs unbounded.

    Raises:
        OutOfTime: the time was up (at once when `seconds` is not positive).
    """
    if seconds <= 0:
        raise OutOfTime
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        return work()
    previous = signal.signal(signal.SIGALRM, _expire)
    hook = sys.unraisablehook

    def quiet(unraisable: UnraisableHookArgs) -> None:
        if not isinstance(unraisable.exc_value, OutOfTime):  # a swallowed alarm is expected: the next one lands
            hook(unraisable)

    sys.unraisablehook = quiet
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds, TIMER_REPEAT)
        try:
            return work()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, previous)
        sys.unraisablehook = hook


def _out_of_time(deadline: float, started: float, during: str) -> int:
    took = time.monotonic() - started
    print(f"failed: timeout: the overall deadline of {deadline:g} s ran out {during} ({took:.1f} s)", file=sys.stderr)
    return EXIT_CODES["failed"]


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The `check` command: the diff on stdout; 3, 4 or 5 as `snapshot` when the walk itself was not accepted,
    and 4 (`timeout`) when the deadline runs out first."""
    started = time.monotonic()
    try:
        spec = spec_from(args)
        deadline = limits_of(args, spec).deadline
        baseline = within(deadline, lambda: load_snapshot(args.baseline))
        if args.out is not None and str(args.out) == "-":
            raise UsageError("check prints the diff on stdout: give --out a file for the snapshot")
    except UsageError as exc:
        return usage(parser, "check", str(exc))
    except OutOfTime:
        return _out_of_time(deadline, started, "while the baseline was read")
    left = deadline - (time.monotonic() - started)
    if left <= 0:
        return _out_of_time(deadline, started, "while the baseline was read")
    snapshot = walk(argparse.Namespace(**{**vars(args), "deadline": left}), spec)  # the walk gets what is left
    if args.out is not None and (written := write_out("check", snapshot, args.out)):
        return written
    say_why(snapshot)
    if snapshot.status != "complete":
        return exit_code(snapshot)
    try:
        left = deadline - (time.monotonic() - started)
        diff = within(left, lambda: diff_snapshots(baseline, snapshot))
    except OutOfTime:
        return _out_of_time(deadline, started, "before the comparison with the baseline was done")
    drift = report(diff, args.json, args.fail_on, "check")
    # A list that failed on its own leaves the walk unfinished: the lists compared are shown, its code wins.
    return exit_code(snapshot) if snapshot.partial else drift
