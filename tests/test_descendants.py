"""The CLI and the app leave no descendant of a server running, not even one that left the server's process group.

Nor a classic daemon: fork, setsid, fork, the middle process exiting at once and the
daemon letting go of the server's stdio, before any walk of the server's tree sees it.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from catalog_inspector.core.config import LaunchConsent, load_config
from catalog_inspector.core.paths import APP_NAME
from tests.helpers import DEMO, app_env, assert_all_gone, pids_in, wait_until

CLI = (sys.executable, "-m", "catalog_inspector")


def demo(mode: str, *extra: str) -> list[str]:
    return ["--", *DEMO, "--mode", mode, *extra]


@pytest.mark.parametrize(
    ("escape", "count"),
    [
        (("--spawn-child", "--setsid"), 2),
        (("--daemonize",), 3),
        (("--daemonize", "--detach"), 3),
        (("--spawn-child", "--setsid", "--daemonize", "--detach"), 4),
    ],
    ids=["setsid", "double fork", "classic daemon", "both"],
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
    pidfile, busy = tmp_path / "pids", tmp_path / "busy"
    server = demo(
        "hang", "--spawn-child", "--setsid", "--daemonize", "--stubborn", "--pidfile", str(pidfile), "--busy-file", str(busy)
    )  # fmt: skip
    proc = subprocess.Popen(
        [*CLI, "snapshot", "--timeout", "60", *server],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        wait_until(lambda: len(pids_in(pidfile)) == 4 and busy.exists(), timeout=30, what="the walk to hang")
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 4, err
    assert json.loads(out)["error"]["kind"] == "cancelled"
    assert_all_gone(pids_in(pidfile))


@pytest.mark.parametrize("run", range(3), ids=lambda run: f"run {run + 1}")
def test_a_classic_daemon_is_gone_when_the_cli_exits_every_time(tmp_path: Path, run: int) -> None:
    """fork, setsid, fork, the middle exiting at once, the daemon on /dev/null: it escaped 3 runs of 3."""
    pidfile = tmp_path / "pids"
    proc = subprocess.run(
        [*CLI, "snapshot", "--timeout", "10", *demo("normal", "--daemonize", "--detach", "--pidfile", str(pidfile))],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    pids = pids_in(pidfile)
    assert len(pids) == 3, "the server, the middle process and the daemon"
    assert_all_gone(pids)


def test_the_app_quitting_leaves_no_classic_daemon(tmp_path: Path) -> None:
    """The window's path: the runtime closes the session quickly and the registry kills what is left."""
    pidfile = tmp_path / "pids"
    config = tmp_path / "servers.json"
    server = {
        "command": DEMO[0],
        "args": [*DEMO[1:], "--mode", "normal", "--daemonize", "--detach", "--pidfile", str(pidfile)],
    }
    config.write_text(json.dumps({"mcpServers": {"daemonizing": server}}))
    LaunchConsent(tmp_path / "data" / APP_NAME / "launch-consent.json").approve(load_config(config).specs[0])
    env = app_env(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "catalog_inspector", "--config", str(config)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_until(lambda: len(pids_in(pidfile)) == 3, timeout=60, what="the server and its daemon")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert_all_gone(pids_in(pidfile))
