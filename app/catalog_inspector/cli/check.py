"""`check`: walk a live server like `snapshot` and judge its catalog: against a baseline snapshot file (drift and
token growth), a lockfile (`--pins`), the lint (`--lint`) and token budgets (`--max-tokens`).

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
from catalog_inspector.cli.diff import load_snapshot
from catalog_inspector.cli.report_of import report_options, server_report, write_report_files
from catalog_inspector.cli.snapshot import exit_code, say_why, walk, write_out
from catalog_inspector.cli.verdict import judge
from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.drift import Pins, read_lockfile

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


def _inputs(args: argparse.Namespace, deadline: float) -> tuple[Snapshot | None, Pins | None]:
    """The baseline and the lockfile the flags name (either may be absent, not both with nothing else to check)."""
    if args.baseline is None and args.pins is None and not args.lint and args.max_tokens is None:
        raise UsageError("check needs something to check: --baseline, --pins, --lint or --max-tokens")
    if args.max_token_growth is not None and args.baseline is None:
        raise UsageError("--max-token-growth compares with --baseline: give one")
    baseline = within(deadline, lambda: load_snapshot(args.baseline)) if args.baseline is not None else None
    pins = None
    if args.pins is not None:
        try:
            pins = read_lockfile(args.pins)
        except OSError as exc:
            raise UsageError(f"cannot read {args.pins}: {exc.strerror or exc}") from exc
        except ValueError as exc:  # InputError too: names the file
            raise UsageError(str(exc)) from exc
    return baseline, pins


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The `check` command: the diff (and the pins, the lint, the token budgets asked for) on stdout; 3, 4 or 5
    as `snapshot` when the walk itself was not accepted, and 4 (`timeout`) when the deadline runs out first."""
    started = time.monotonic()
    try:
        spec = spec_from(args)
        deadline = limits_of(args, spec).deadline
        reports = report_options(args)
        baseline, pins = _inputs(args, deadline)
        if args.out is not None and str(args.out) == "-":
            raise UsageError("check prints the diff on stdout: give --out a file for the snapshot")
    except (UsageError, ValueError) as exc:  # ValueError: a --report option
        return usage(parser, "check", str(exc))
    except OutOfTime:
        return _out_of_time(deadline, started, "while the baseline was read")
    left = deadline - (time.monotonic() - started)
    if left <= 0:
        return _out_of_time(deadline, started, "while the baseline was read")
    snapshot = walk(argparse.Namespace(**{**vars(args), "deadline": left}), spec)  # the walk gets what is left
    if args.out is not None and (written := write_out("check", snapshot, args.out, args.bare)):
        return written
    say_why(snapshot)
    verdict = None
    code = exit_code(snapshot)
    if snapshot.status == "complete":
        try:
            left = deadline - (time.monotonic() - started)
            verdict = within(left, lambda: judge(args, snapshot, baseline, pins))
        except OutOfTime:
            during = (
                "before the comparison with the baseline was done"
                if baseline is not None
                else "before the checks were done"
            )
            return _out_of_time(deadline, started, during)
        judged = verdict.print(args.json, args.fail_on)
        # A list that failed on its own leaves the walk unfinished: the lists compared are shown, its code wins.
        code = code if snapshot.partial else judged
    if reports:
        asked = args.max_tokens is not None or args.max_token_growth is not None
        made = server_report(verdict, snapshot, "check", args.fail_on, args.out, time.monotonic() - started, asked)
        if failed := write_report_files("check", reports, [made]):
            return failed
    return code
