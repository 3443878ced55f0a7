"""`check --deadline` covers the whole command: reading the baseline, the walk and the comparison.

A step that outlasts what is left of it ends the command with one line on stderr,
nothing on stdout and exit 4, kind `timeout` (the `--out` snapshot is still written).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from catalog_inspector.cli.check import OutOfTime, within
from catalog_inspector.core.drift import diff_catalogs
from tests.cli_runner import run_cli
from tests.helpers import pids_in, wait_until
from tests.test_cli import CLI, demo

SIGALRM_BIT = 1 << (signal.SIGALRM - 1)  # in /proc/<pid>/status's pending masks


def _catalog(tools: int, extra: int) -> dict[str, list[dict[str, Any]]]:
    """Tools whose input schemas each have `extra` properties of their own: a comparison with work in it."""
    return {
        "tools": [
            {
                "name": f"tool_{n:05d}",
                "inputSchema": {
                    "type": "object",
                    "properties": {f"p{k}": {"type": "integer", "minimum": k + extra} for k in range(40)},
                    "required": [f"p{k}" for k in range(extra)],
                },
            }
            for n in range(tools)
        ]
    }


# An alarm that lands inside a gc callback (hypothesis installs one in a worker that ran its tests) is swallowed
# and reported as unraisable; `within` re-arms for that case, and the next alarm stops the work, as asserted.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_within_stops_a_comparison_when_its_time_is_up_and_leaves_no_alarm_behind() -> None:
    old, new = _catalog(3000, 0), _catalog(3000, 40)
    before = signal.getsignal(signal.SIGALRM)
    with pytest.raises(OutOfTime):
        within(0.01, lambda: diff_catalogs(old, new))  # far longer than 10 ms on any machine
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is before
    small = _catalog(3, 1)
    assert within(60, lambda: diff_catalogs(small, small)).empty
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


class _SpinsWhenCollected:
    """Its finalizer runs until the alarm has fired inside it (or 5 s: then the test fails below)."""

    def __init__(self, fired: list[bool]) -> None:
        self.fired = fired

    def __del__(self) -> None:
        end = time.monotonic() + 5
        try:
            while time.monotonic() < end:
                pass
        except BaseException:
            self.fired.append(True)
            raise  # swallowed by the interpreter as unraisable, as a finalizer's exception always is


def test_an_alarm_that_lands_in_a_finalizer_is_swallowed_quietly_and_the_next_one_stops_the_work() -> None:
    fired: list[bool] = []
    seen: list[object] = []
    hook = sys.unraisablehook

    def record(unraisable: object) -> None:  # what the command's stderr would get
        seen.append(unraisable)

    sys.unraisablehook = record

    def work() -> str:
        _SpinsWhenCollected(fired)  # collected at once: the alarm (10 ms) lands inside its finalizer
        end = time.monotonic() + 5
        while time.monotonic() < end:
            pass
        return "not stopped"

    try:
        with pytest.raises(OutOfTime):
            within(0.01, work)
        assert sys.unraisablehook is record  # put back as it was
    finally:
        sys.unraisablehook = hook
    assert fired == [True] and seen == [], "the swallowed alarm said nothing; the repeat stopped the work"


def test_a_baseline_that_never_arrives_cannot_hold_check_past_its_deadline(tmp_path: Path) -> None:
    fifo = tmp_path / "baseline.json"
    os.mkfifo(fifo)  # nobody ever writes it: opening it blocks
    pidfile = tmp_path / "pids"
    proc = subprocess.run(
        [*CLI, "check", "--deadline", "2", "--baseline", str(fifo), *demo("normal", "--pidfile", str(pidfile))],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert proc.returncode == 4, proc.stderr
    assert proc.stderr.startswith("failed: timeout: the overall deadline of 2 s ran out while the baseline was read")
    assert proc.stdout == ""
    assert pids_in(pidfile) == [], "no server is started once the time is up"


def _pending_signals(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    masks = [line.split()[1] for line in status.splitlines() if line.startswith(("SigPnd:", "ShdPnd:"))]
    return int(masks[0], 16) | int(masks[1], 16)


def _alarmed(proc: subprocess.Popen[str]) -> bool:
    """SIGALRM waits for the stopped process (or the alarm came before the stop, and it has ended)."""
    return proc.poll() is not None or bool(_pending_signals(proc.pid) & SIGALRM_BIT)


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


@pytest.mark.long
def test_a_comparison_that_outlasts_the_deadline_ends_check_with_exit_4_timeout(tmp_path: Path) -> None:
    """The comparison is made to outlast the deadline by stopping the process (SIGSTOP) while it compares;
    the alarm that ends it is seen pending before the process goes on (SIGCONT)."""
    server = demo("many", "--tools", "1000", "--page-size", "250")
    base = tmp_path / "base.json"
    made = run_cli("snapshot", "--out", str(base), *server, timeout=120)
    assert made.returncode == 0, made.stderr
    document = json.loads(base.read_text())
    for tool in document["tools"]:  # every tool changed in many places: the comparison takes a while
        tool["inputSchema"]["properties"].update({f"p{k}": {"type": "integer", "minimum": k} for k in range(120)})
    base.write_text(json.dumps(document))
    out = tmp_path / "new.json"
    proc = subprocess.Popen(
        [*CLI, "check", "--deadline", "10", "--baseline", str(base), "--out", str(out), *server],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_until(out.exists, timeout=30, what="the walk's snapshot (written before the comparison)")
        ticks = _cpu_ticks(proc.pid)
        wait_until(lambda: _cpu_ticks(proc.pid) >= ticks + 2, timeout=30, what="the comparison under way")
        proc.send_signal(signal.SIGSTOP)
        wait_until(lambda: _alarmed(proc), timeout=30, what="the deadline's alarm")
        proc.send_signal(signal.SIGCONT)
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 4, stderr
    assert stderr.startswith(
        "failed: timeout: the overall deadline of 10 s ran out before the comparison with the baseline was done"
    )
    assert stdout == ""
    assert json.loads(out.read_text())["status"] == "complete"
