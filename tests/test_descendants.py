"""The CLI leaves no descendant of a server running, not even one that left the server's process group."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import DEMO, assert_all_gone, pids_in, wait_until

CLI = (sys.executable, "-m", "catalog_inspector")


def demo(mode: str, *extra: str) -> list[str]:
    return ["--", *DEMO, "--mode", mode, *extra]


@pytest.mark.parametrize(
    ("escape", "count"),
    [(("--spawn-child", "--setsid"), 2), (("--daemonize",), 3), (("--spawn-child", "--setsid", "--daemonize"), 4)],
    ids=["setsid", "double fork", "both"],
)
def test_snapshot_kills_a_grandchild_that_left_the_process_group(
    tmp_path: Path, escape: tuple[str, ...], count: int
) -> None:
    pidfile = tmp_path / "pids"
    proc = subprocess.run(
        [*CLI, "snapshot", "--timeout", "10", *demo("normal", *escape, "--pidfile", str(pidfile))],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["status"] == "complete"
    pids = pids_in(pidfile)
    assert len(pids) == count
    assert_all_gone(pids)


def test_a_signal_to_the_cli_kills_the_escaped_grandchildren_of_a_stubborn_server(tmp_path: Path) -> None:
    """`timeout 3 mcp-catalog-inspector snapshot …` with a server whose helpers left its group and session."""
    pidfile = tmp_path / "pids"
    server = demo("hang", "--spawn-child", "--setsid", "--daemonize", "--stubborn", "--pidfile", str(pidfile))
    proc = subprocess.Popen(
        [*CLI, "snapshot", "--timeout", "60", *server],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        wait_until(lambda: len(pids_in(pidfile)) == 4, timeout=30, what="the server and its helpers")
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 4, err
    assert json.loads(out)["error"]["kind"] == "cancelled"
    assert_all_gone(pids_in(pidfile))
