"""Work that runs whole or a few milliseconds at a time.

A computation over a whole catalog (a drift report, the collisions between
servers) is written as a generator that yields between small steps and returns
its result: `Steps[T]`. The CLI and a worker thread run it whole (`run_whole`);
the window runs it on its own thread a slice at a time between events
(`advance`, driven by the runtime's `Offload.in_slices`). A thread is no way to
keep the window responsive here: while one computes, every call Qt makes into
Python (each `data()` of a repaint) waits its turn for the GIL, and a repaint
that makes hundreds of them stalled for 40–120 ms behind a 10,000-tool report.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from typing import TypeAlias, TypeVar

__all__ = ["EVERY", "SLICE_SECONDS", "Steps", "advance", "run_whole"]

T = TypeVar("T")

Steps: TypeAlias = Generator[None, None, T]

EVERY = 256  # items a loop over a catalog handles between two yields (well under a millisecond)
# How long one slice runs between the window's events: a sixteenth of a frame. Several slices (of the jobs that
# share the queue) and a report's own handlers can fall in one pass of the event loop before the repaint; at 2 ms
# a slice, a 10,000-tool refresh and a filter's keystrokes stalled the window 2–3 ms longer (`make bench`).
SLICE_SECONDS = 0.001


def run_whole(steps: Steps[T]) -> T:
    """Run `steps` to its end and return its result."""
    try:
        while True:
            next(steps)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


def advance(steps: Steps[T], seconds: float = SLICE_SECONDS) -> tuple[bool, T | None, int]:
    """Run `steps` for about `seconds` (at least one step).

    Returns `(True, result, taken)` once it ended, else `(False, None, taken)`; `taken`: the steps this slice ran.
    """
    end = time.perf_counter() + seconds
    taken = 0
    try:
        next(steps)
        taken = 1
        while time.perf_counter() < end:
            next(steps)
            taken += 1
    except StopIteration as done:
        return True, done.value, taken
    return False, None, taken
