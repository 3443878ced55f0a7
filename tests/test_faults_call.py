"""Faults of `call`: a server whose honest answers take minutes to check must not hold the command.

Issue 20, point 1. The schema checks of a call (its arguments before sending, its
result after) run in the sandbox's worker process under a time budget (`--check-budget`,
default 2 s): a check that runs over is reported `over_budget` in the document, SIGTERM
and SIGINT stop the command during a check, and the worker never outlives the command.
Measured against a real demo server in `hostile` mode (`^(a+)+$` in an output schema)
and an SDK `MCPServer` (`tests/fixtures/slow_check_server.py`: `uniqueItems` over
40,000 objects, `^(a+)+$` on an input).
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from catalog_inspector.demo.catalog import CATASTROPHIC_TEXT
from tests.cli_runner import run_cli
from tests.helpers import DEMO, ROOT, assert_all_gone, forked, pids_in, wait_gone, wait_until
from tests.test_cli import CLI

STARTUP = 30.0  # seconds for three interpreters (CLI, server, worker) to start and walk on a loaded 2-core machine
BUDGET = 2.0  # the default --check-budget
HOSTILE = ("--", *DEMO, "--mode", "hostile")


def slow_server(pidfile: Path) -> tuple[str, ...]:
    return ("--", *forked("tests.fixtures.slow_check_server"), "--pidfile", str(pidfile))


def children(pid: int) -> dict[int, str]:
    """The live children of `pid`, with their command lines."""
    found: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError, ValueError):
            continue
    return found


def workers_of(proc: subprocess.Popen[str]) -> list[int]:
    return [pid for pid, line in children(proc.pid).items() if "sandbox_worker" in line]


def start_call(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*CLI, "call", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
        text=True, cwd=ROOT,
    )  # fmt: skip


def finish(proc: subprocess.Popen[str], workers: list[int]) -> tuple[dict[str, Any], str]:
    """Wait for the command; its document and stderr. The checking worker must be gone with it."""
    try:
        out, err = proc.communicate(timeout=STARTUP + 30)
    finally:
        proc.kill()
    assert "Traceback" not in err, err
    for worker in workers:
        wait_gone(worker, timeout=5)
    return json.loads(out), err


def watched_call(*args: str) -> tuple[int, dict[str, Any], str, float]:
    """Run `call ARGS…`, seeing its checking worker while it runs; exit code, document, stderr, wall time."""
    started = time.monotonic()
    proc = start_call(*args)
    seen: list[int] = []
    try:
        wait_until(lambda: bool(seen.extend(workers_of(proc)) or seen), timeout=STARTUP, what="the check's worker")
    except AssertionError:
        proc.kill()
        raise
    document, err = finish(proc, seen)
    return proc.returncode, document, err, time.monotonic() - started


def test_a_catastrophic_output_pattern_is_over_budget_within_the_budget(tmp_path: Path) -> None:
    code, doc, err, wall = watched_call("catastrophic_pattern", "--deadline", "10", "--call-timeout", "5", *HOSTILE)
    assert code == 1 and doc["outcome"] == "output_invalid" and doc["sent"] is True
    assert doc["result"]["structuredContent"] == {"text": CATASTROPHIC_TEXT}, "the payload is shown as sent"
    [problem] = doc["output_errors"]
    assert (problem["path"], problem["keyword"]) == ("", "over_budget")
    assert f"{BUDGET:g} s budget" in problem["message"]
    assert doc["error"]["message"].startswith("the result was not checked against the output schema")
    assert err.startswith("output_invalid: catastrophic_pattern: the result was not checked"), err
    assert wall < STARTUP + BUDGET


def test_unique_items_over_40000_objects_is_over_budget_and_the_server_is_gone(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    code, doc, _, wall = watched_call("unique", "--deadline", "10", "--call-timeout", "5", *slow_server(pidfile))
    assert code == 1 and doc["outcome"] == "output_invalid"
    assert [(p["path"], p["keyword"]) for p in doc["output_errors"]] == [("", "over_budget")]
    assert len(doc["result"]["structuredContent"]["items"]) == 40_000
    assert wall < STARTUP + BUDGET
    assert_all_gone(pids_in(pidfile))


def test_a_catastrophic_input_pattern_is_over_budget_and_nothing_is_sent(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    arguments = json.dumps({"text": CATASTROPHIC_TEXT})
    code, doc, err, wall = watched_call("pattern", "--args", arguments, "--check-budget", "0.5", *slow_server(pidfile))
    assert code == 3 and doc["outcome"] == "invalid_arguments" and doc["sent"] is False
    [problem] = doc["argument_errors"]
    assert (problem["path"], problem["keyword"]) == ("", "over_budget") and "0.5 s budget" in problem["message"]
    assert err.startswith("invalid_arguments: pattern: nothing was sent: (root): the arguments were not checked")
    assert wall < STARTUP + 0.5
    assert_all_gone(pids_in(pidfile))


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_command_during_a_check(tmp_path: Path, signum: int) -> None:
    """A budget of 10 minutes: only the signal can end this check."""
    pidfile = tmp_path / "pids"
    arguments = json.dumps({"text": CATASTROPHIC_TEXT})
    proc = start_call("pattern", "--args", arguments, "--check-budget", "600", *slow_server(pidfile))
    seen: list[int] = []
    try:
        wait_until(lambda: bool(seen.extend(workers_of(proc)) or seen), timeout=STARTUP, what="the check's worker")
        wait_until(lambda: _busy(seen[0]), timeout=10, what="the worker checking the arguments")
    except AssertionError:
        proc.kill()
        raise
    signalled = time.monotonic()
    proc.send_signal(signum)
    doc, err = finish(proc, seen)
    assert time.monotonic() - signalled < 5
    assert proc.returncode == 4 and doc["outcome"] == "cancelled" and doc["sent"] is False
    assert signal.Signals(signum).name in doc["error"]["message"]
    assert_all_gone(pids_in(pidfile))


def _busy(pid: int) -> bool:
    """The worker is running (state R) rather than waiting for a request: the check has begun."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "R"
    except OSError:
        return False


def test_a_check_within_its_budget_still_judges_the_result() -> None:
    code, doc, err, _ = watched_call("echo", "--args", '{"text": "hi"}', "--", *DEMO, "--mode", "normal")
    assert code == 0 and doc["outcome"] == "ok" and err == ""


def test_the_check_budget_is_a_positive_number() -> None:
    proc = run_cli("call", "echo", "--check-budget", "0", *HOSTILE)
    assert proc.returncode == 2 and "must be greater than 0" in proc.stderr
